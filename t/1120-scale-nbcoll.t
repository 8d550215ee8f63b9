#!/bin/sh
# trc-scale: nonblocking collectives (trc(5)): a point XB req=R enters
# the collective, the XE req=R inside a wait ends it; several at once,
# a blocking one between a post and its wait, a participant that reaches
# its end before another has entered.  Expected times by hand.
. "$(dirname "$0")/lib.sh"

# Rank 0 posts an ibcast (root 0) and an iallreduce at 1 s and waits
# for both at 2 s; its ibcast ends at 2.5 s, before rank 1 posts its
# own at 3 s.  Rank 1 posts the iallreduce at 4 s.  Then each posts an
# ibarrier, runs a blocking barrier and waits for the ibarrier.
cat >"$tmp/nb.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
1.000000000 0 XB op=ibcast bytes=8 root=0 req=1
1.000000000 0 XB op=iallreduce bytes=8 req=2
2.000000000 0 WB req=1,2 op=waitall
2.500000000 0 XE req=1 op=ibcast bytes=8 root=0
3.000000000 1 XB op=ibcast bytes=8 root=0 req=1
4.000000000 1 XB op=iallreduce bytes=8 req=2
4.000000000 1 WB req=1,2 op=waitall
4.500000000 0 XE req=2 op=iallreduce bytes=8
4.500000000 0 WE req=1,2 op=waitall
4.500000000 1 XE req=1 op=ibcast bytes=8 root=0
4.500000000 1 XE req=2 op=iallreduce bytes=8
4.500000000 1 WE req=1,2 op=waitall
5.000000000 0 XB op=ibarrier bytes=0 req=3
5.000000000 0 XB op=barrier bytes=0
5.000000000 1 XB op=ibarrier bytes=0 req=3
5.000000000 1 XB op=barrier bytes=0
5.500000000 0 XE op=barrier bytes=0
5.500000000 1 XE op=barrier bytes=0
6.000000000 0 WB req=3 op=wait
6.000000000 1 WB req=3 op=wait
6.000000000 0 XE req=3 op=ibarrier bytes=0
6.000000000 0 WE req=3 op=wait
6.000000000 1 XE req=3 op=ibarrier bytes=0
6.000000000 1 WE req=3 op=wait
X
# K = 0.5, no fit: a collective ends at its latest predicted begin plus
# the recorded time from its latest begin, no earlier than its rank.
# rank 0: XB 0.5, 0.5; WB 1.0; ibcast ends at max(1.5 (rank 1's post)
#   + 0, 1.0) = 1.5 (held until rank 1 posts); iallreduce at 2.0 +
#   (4.5 - 4.0) = 2.5; WE 2.5; then 2.5 + 0.25 = 2.75 for the posts and
#   the barrier's begin
# rank 1: XB 1.5, 2.0; WB 2.0; ibcast 1.5 + (4.5 - 3.0) = 3.0; iallreduce
#   2.0 + 0.5 = 2.5, no earlier than 3.0; WE 3.0; then 3.25
# Ties come in the order the ranks produced them: rank 0's ibcast end
# only once rank 1's post is read.
# barrier: 3.25 + 0.5 = 3.75 on both; WB 3.75 + 0.25 = 4.0; ibarrier
#   3.25 + (6.0 - 5.0) = 4.25, WE 4.25
cat >"$tmp/nb.want" <<'X'
0.000000000 0 MK
0.000000000 1 MK
0.500000000 0 XB ibcast
0.500000000 0 XB iallreduce
1.000000000 0 WB
1.500000000 1 XB ibcast
1.500000000 0 XE ibcast
2.000000000 1 XB iallreduce
2.000000000 1 WB
2.500000000 0 XE iallreduce
2.500000000 0 WE
2.750000000 0 XB ibarrier
2.750000000 0 XB barrier
3.000000000 1 XE ibcast
3.000000000 1 XE iallreduce
3.000000000 1 WE
3.250000000 1 XB ibarrier
3.250000000 1 XB barrier
3.750000000 0 XE barrier
3.750000000 1 XE barrier
4.000000000 0 WB
4.000000000 1 WB
4.250000000 0 XE ibarrier
4.250000000 0 WE
4.250000000 1 XE ibarrier
4.250000000 1 WE
X
expect_exit 0 "nonblocking collectives" -- trc-scale --cpu-ratio 0.5 "$tmp/nb.trc"
awk '!/^#/ { o = ""; for (i = 4; i <= NF; i++) if ($i ~ /^op=/ && $3 ~ /^X/) o = " " substr($i, 4); print $1, $2, $3 o }' \
	"$out" >"$tmp/nb.got"
is_file "$tmp/nb.got" "$tmp/nb.want" "predicted times"
is "$(awk '!/^#/ && $3 == "XE" && / req=/' "$out" | wc -l | tr -d ' ')" "6" "every XE req= written"

# The same trace read in rank order (each rank's events together).
{ echo '#trc 1 ranks=2 order=rank'; grep -v '^#' "$tmp/nb.trc" | sort -s -n -k2,2; } >"$tmp/byrank.trc"
expect_exit 0 "the same in rank order" -- trc-scale --cpu-ratio 0.5 "$tmp/byrank.trc"
awk '!/^#/ { o = ""; for (i = 4; i <= NF; i++) if ($i ~ /^op=/ && $3 ~ /^X/) o = " " substr($i, 4); print $1, $2, $3 o }' \
	"$out" >"$tmp/nb.got"
is_file "$tmp/nb.got" "$tmp/nb.want" "predicted times, read rank by rank"

# The cost of a nonblocking collective is the model's, as a blocking
# one's: a target fit of 0.2 s for ibcast and 0.3 s for iallreduce on 2
# ranks, none for the barriers (which keep their recorded time).
# rank 0: ibcast 1.5 + 0.2 = 1.7; iallreduce 2.0 + 0.3 = 2.3; WE 2.3;
#   posts and barrier's begin 2.3 + 0.25 = 2.55
# rank 1: ibcast 1.7, no earlier than its WB at 2.0: 2.0; iallreduce
#   2.3; WE 2.3; 2.55
# barrier 2.55 + 0.5 = 3.05; ibarrier 2.55 + 1.0 = 3.55 on both
printf 'ibcast 0 inf 0.2 0\niallreduce 0 inf 0.3 0\n' >"$tmp/nb.fit"
expect_exit 0 "nonblocking collectives costed by a fit" -- \
	trc-scale --cpu-ratio 0.5 -c "$tmp/nb.fit" "$tmp/nb.trc"
is "$(awk '$3 == "XE" || $3 == "WE" { print $1, $2, $3 }' "$out" | sort -k2,2 -s | tr '\n' ' ')" \
	"1.700000000 0 XE 2.300000000 0 XE 2.300000000 0 WE 3.050000000 0 XE 3.550000000 0 XE 3.550000000 0 WE \
2.000000000 1 XE 2.300000000 1 XE 2.300000000 1 WE 3.050000000 1 XE 3.550000000 1 XE 3.550000000 1 WE " \
	"the fit's cost after the latest begin"

# Bad input.
cat >"$tmp/bad.trc" <<'X'
#trc 1 ranks=2
1.000000000 0 WB req=4 op=wait
1.000000000 0 XE req=4 op=ibarrier bytes=0
X
expect_exit 2 "an XE req= without its XB" -- trc-scale "$tmp/bad.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad.trc:3: collective end req=4 without its begin" "names the line"
cat >"$tmp/bad.trc" <<'X'
#trc 1 ranks=2
1.000000000 0 XB op=ibarrier bytes=0 req=1
1.000000000 1 XB op=ibarrier bytes=0 req=1
2.000000000 0 WB req=1 op=wait
2.000000000 0 XE req=1 op=ibarrier bytes=0
2.000000000 0 WE req=1 op=wait
2.000000000 0 XE req=1 op=ibarrier bytes=0
X
expect_exit 2 "an XE req= twice" -- trc-scale "$tmp/bad.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad.trc:7: collective end req=1 without its begin" "names the line"
cat >"$tmp/bad.trc" <<'X'
#trc 1 ranks=2
1.000000000 0 XB op=iallreduce bytes=8 req=1
2.000000000 0 WB req=1 op=wait
2.000000000 0 XE req=1 op=iallreduce bytes=8
2.000000000 0 WE req=1 op=wait
X
expect_exit 2 "a participant that never posts" -- trc-scale "$tmp/bad.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad.trc:2: collective on comm 0 never completed: 1 of 2 ranks entered" \
	"names where it began"
done_testing
