#!/bin/sh
# trc-perturb re-decides every choice point (trc-perturb(1), trc(5)
# "Choices"): receives posted with peer=* or tag=*, waitany, testany,
# waitsome, probes and the receive of what they saw, matched probes and
# their mrecv.  Each small trace is first perturbed with no delay (the
# input again, times and all), then with a delay that must change the
# choice; the new order and times are computed by hand from the rules:
# every interval keeps its recorded length, a receive (or a probe) ends
# no earlier than the end of the send of the message it takes (sees),
# and a choice takes the message that now arrives first, a candidate
# keeping the lateness that explains the recorded choice.
. "$(dirname "$0")/lib.sh"

# Rank R's events as "time kind attributes", without t0=.
rank() { awk -v r="$1" '!/^#/ && $2 == r { sub(/ t0=[0-9.]*$/, ""); $2 = ""; sub(/  /, " "); print }' "$2"; }

# zero NAME FILE: no delay gives the input back, and trc-stable agrees.
zero() {
	expect_exit 0 "$1: no delay" -- trc-perturb "$2"
	is "$(awk '!/^#/ { t = $NF; sub("t0=", "", t); if (t != $1) n++ } END { print n + 0 }' "$out")" 0 \
		"  every time as recorded"
	is "$(sed 's/ t0=[0-9.]*$//' "$out" | grep -v '^#' | sort)" "$(grep -v '^#' "$2" | sort)" \
		"  every event as recorded"
	trc-perturb "$2" | trc-stable -q "$2" -
	ok $? "  trc-stable: identical"
}

# waitany: rank 0 posts receives from 1 (req=1) and 2 (req=2) and waits
# for any twice; 1's message comes first (sent at 1), 2's at 2.
cat >"$tmp/any.trc" <<'X'
#trc 1 ranks=3 order=time
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.100000000 0 RB peer=1 tag=1 bytes=8 req=1
0.200000000 0 RB peer=2 tag=1 bytes=8 req=2
0.300000000 0 WB req=1,2 op=waitany
0.900000000 1 SB peer=0 tag=1 bytes=8
1.000000000 1 SE peer=0 tag=1 bytes=8
1.100000000 0 RE req=1 peer=1 tag=1 bytes=8
1.100000000 0 WE req=1 op=waitany
1.200000000 0 WB req=2 op=waitany
1.900000000 2 SB peer=0 tag=1 bytes=16
2.000000000 2 SE peer=0 tag=1 bytes=16
2.100000000 0 RE req=2 peer=2 tag=1 bytes=16
2.100000000 0 WE req=2 op=waitany
3.000000000 0 MK
3.000000000 1 MK
3.000000000 2 MK
X
zero waitany "$tmp/any.trc"
# 2 s before rank 1's send: its message arrives at 3, rank 2's at 2.
# The first waitany completes req=2 with rank 2's message at max(0.3 +
# 0.8, 2) = 2; its WE 0 s later.  The second, 0.1 s later at 2.1, waits
# for what is left, req=1 (the recording's req=2), rank 1's message, at
# max(2.1 + 0.9, 3) = 3; the MK 0.9 s later.
cat >"$tmp/want" <<'X'
0.000000000 MK
0.100000000 RB peer=1 tag=1 bytes=8 req=1
0.200000000 RB peer=2 tag=1 bytes=8 req=2
0.300000000 WB req=1,2 op=waitany
2.000000000 RE req=2 peer=2 tag=1 bytes=16
2.000000000 WE req=2 op=waitany
2.100000000 WB req=1 op=waitany
3.000000000 RE req=1 peer=1 tag=1 bytes=8
3.000000000 WE req=1 op=waitany
3.900000000 MK
X
expect_exit 0 "waitany: rank 1 late" -- trc-perturb -v -d call=send,ranks=1,delay=2 "$tmp/any.trc"
rank 0 "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  the first waitany completes rank 2's receive, the second rank 1's"
is "$(sed -n 's/.* events, \([0-9]*\) given another.*/\1/p' "$err")" 2 "  -v: two choices made otherwise"
trc-perturb -d call=send,ranks=1,delay=2 "$tmp/any.trc" >"$tmp/p.trc"
expect_exit 1 "  trc-stable: unstable" -- trc-stable "$tmp/any.trc" "$tmp/p.trc"
trc-perturb -d call=send,ranks=2,delay=2 "$tmp/any.trc" >"$tmp/p.trc"
expect_exit 0 "waitany: rank 2 later still: the same choices" -- trc-stable "$tmp/any.trc" "$tmp/p.trc"

# testany in a polling loop: the same calls as tests that succeeded.
sed 's/op=waitany/op=testany/; s/\(WB req=1,2 op=testany\)/\1 polls=4/' "$tmp/any.trc" >"$tmp/tany.trc"
zero testany "$tmp/tany.trc"
expect_exit 0 "testany: rank 1 late" -- trc-perturb -d call=send,ranks=1,delay=2 "$tmp/tany.trc"
rank 0 "$out" >"$tmp/got"
sed 's/op=waitany/op=testany/; s/\(WB req=1,2 op=testany\)/\1 polls=4/' "$tmp/want" >"$tmp/want.t"
is_file "$tmp/got" "$tmp/want.t" "  the same order as waitany"

# waitsome: receives from 1, 2 and 3 (req=1,2,3); the first waitsome
# completes 1 and 2 (sent at 1.0 and 1.05), the second 3 (sent at 2).
cat >"$tmp/some.trc" <<'X'
#trc 1 ranks=4 order=time
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.000000000 3 MK
0.100000000 0 RB peer=1 tag=1 bytes=8 req=1
0.200000000 0 RB peer=2 tag=1 bytes=8 req=2
0.300000000 0 RB peer=3 tag=1 bytes=8 req=3
0.400000000 0 WB req=1,2,3 op=waitsome
0.900000000 1 SB peer=0 tag=1 bytes=8
0.950000000 2 SB peer=0 tag=1 bytes=8
1.000000000 1 SE peer=0 tag=1 bytes=8
1.050000000 2 SE peer=0 tag=1 bytes=8
1.100000000 0 RE req=1 peer=1 tag=1 bytes=8
1.100000000 0 RE req=2 peer=2 tag=1 bytes=8
1.100000000 0 WE req=1,2 op=waitsome
1.200000000 0 WB req=3 op=waitsome
1.900000000 3 SB peer=0 tag=1 bytes=8
2.000000000 3 SE peer=0 tag=1 bytes=8
2.100000000 0 RE req=3 peer=3 tag=1 bytes=8
2.100000000 0 WE req=3 op=waitsome
3.000000000 0 MK
X
zero waitsome "$tmp/some.trc"
# 2 s before rank 2's send: it arrives at 3.05.  The first waitsome's
# two completions take the two first messages, rank 1's (1.0) at max(0.4
# + 0.7, 1) = 1.1 and rank 3's (2.0) at max(1.1, 2) = 2; the second
# waitsome, at 2.1, completes req=2 (the recording's req=3) at max(2.1 +
# 0.9, 3.05) = 3.05; the MK at 3.95.
cat >"$tmp/want" <<'X'
0.000000000 MK
0.100000000 RB peer=1 tag=1 bytes=8 req=1
0.200000000 RB peer=2 tag=1 bytes=8 req=2
0.300000000 RB peer=3 tag=1 bytes=8 req=3
0.400000000 WB req=1,2,3 op=waitsome
1.100000000 RE req=1 peer=1 tag=1 bytes=8
2.000000000 RE req=3 peer=3 tag=1 bytes=8
2.000000000 WE req=1,3 op=waitsome
2.100000000 WB req=2 op=waitsome
3.050000000 RE req=2 peer=2 tag=1 bytes=8
3.050000000 WE req=2 op=waitsome
3.950000000 MK
X
expect_exit 0 "waitsome: rank 2 late" -- trc-perturb -d call=send,ranks=2,delay=2 "$tmp/some.trc"
rank 0 "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  the first waitsome completes 1 and 3, the second 2"

# Two receives from any rank completed in one waitall (a halo exchange,
# issue 11): both messages were sent before rank 0 posted them, and
# the recording has the first take rank 2's, though rank 1's send ended
# first (MPI polled rank 2 first).  With no delay that choice stands.
cat >"$tmp/halo.trc" <<'X'
#trc 1 ranks=3 order=time
0.000000000 1 SB peer=0 tag=1 bytes=8 req=1
0.100000000 1 SE peer=0 tag=1 bytes=8 req=1
0.200000000 2 SB peer=0 tag=1 bytes=8 req=1
0.300000000 2 SE peer=0 tag=1 bytes=8 req=1
0.400000000 1 WB req=1 op=wait
0.400000000 1 WE req=1 op=wait
0.400000000 2 WB req=1 op=wait
0.400000000 2 WE req=1 op=wait
1.000000000 0 RB peer=* tag=1 bytes=8 req=1
1.000000000 0 RB peer=* tag=1 bytes=8 req=2
1.100000000 0 WB req=1,2 op=waitall
1.200000000 0 RE req=1 peer=2 tag=1 bytes=8
1.200000000 0 RE req=2 peer=1 tag=1 bytes=8
1.200000000 0 WE req=1,2 op=waitall
X
zero "halo, two receives from any rank" "$tmp/halo.trc"
# Rank 1's message keeps the 0.2 s that put it after rank 2's: it
# competes at 0.1 + 0.2 = 0.3, rank 2's at 0.3, a tie that the recorded
# choice wins.  0.1 s before rank 2's message leaves (its SE at 0.4)
# makes rank 1's the first: req=1 takes it, at max(1.1 + 0.1, 0.1) =
# 1.2, and req=2 rank 2's at 1.2.
expect_exit 0 "halo: rank 2's isend 0.1 s late" -- trc-perturb -d call=isend,ranks=2,delay=0.1 "$tmp/halo.trc"
is "$(rank 0 "$out" | awk '$2 == "RE"' | tr '\n' '|')" \
	"1.200000000 RE req=1 peer=1 tag=1 bytes=8|1.200000000 RE req=2 peer=2 tag=1 bytes=8|" \
	"  the first receive takes rank 1's message"
# Rank 1's 0.1 s late ties again (0.2 + 0.2 against 0.3 + 0.1): stable.
trc-perturb -d call=isend,ranks=1,delay=0.1 "$tmp/halo.trc" >"$tmp/p.trc"
expect_exit 0 "halo: rank 1's isend 0.1 s late: the recorded order" -- \
	trc-stable "$tmp/halo.trc" "$tmp/p.trc"

# Probe(ANY_SOURCE) then a receive from the probed source, twice.
cat >"$tmp/probe.trc" <<'X'
#trc 1 ranks=3 order=time
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.100000000 0 WB peer=* tag=5 op=probe
0.900000000 1 SB peer=0 tag=5 bytes=8
1.000000000 1 SE peer=0 tag=5 bytes=8
1.100000000 0 WE peer=1 tag=5 bytes=8 op=probe
1.200000000 0 RB peer=1 tag=5 bytes=64
1.300000000 0 RE peer=1 tag=5 bytes=8
1.400000000 0 WB peer=* tag=5 op=probe
1.900000000 2 SB peer=0 tag=5 bytes=16
2.000000000 2 SE peer=0 tag=5 bytes=16
2.100000000 0 WE peer=2 tag=5 bytes=16 op=probe
2.200000000 0 RB peer=2 tag=5 bytes=64
2.300000000 0 RE peer=2 tag=5 bytes=16
3.000000000 0 MK
3.000000000 1 MK
3.000000000 2 MK
X
zero probe "$tmp/probe.trc"
# 2 s before rank 1's send (SE at 3): the first probe sees rank 2's
# message at max(0.1 + 1, 2) = 2, and the receive that follows is from
# rank 2, its RE at max(2.1 + 0.1, 2) = 2.2; the second probe, at 2.3,
# sees rank 1's at max(2.3 + 0.7, 3) = 3, received at 3.2; MK at 3.9.
cat >"$tmp/want" <<'X'
0.000000000 MK
0.100000000 WB peer=* tag=5 op=probe
2.000000000 WE peer=2 tag=5 bytes=16 op=probe
2.100000000 RB peer=2 tag=5 bytes=64
2.200000000 RE peer=2 tag=5 bytes=16
2.300000000 WB peer=* tag=5 op=probe
3.000000000 WE peer=1 tag=5 bytes=8 op=probe
3.100000000 RB peer=1 tag=5 bytes=64
3.200000000 RE peer=1 tag=5 bytes=8
3.900000000 MK
X
expect_exit 0 "probe: rank 1 late" -- trc-perturb -v -d call=send,ranks=1,delay=2 "$tmp/probe.trc"
rank 0 "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  each probe sees the other message, and its receive follows it"
is "$(sed -n 's/.* events, \([0-9]*\) given another.*/\1/p' "$err")" 4 "  -v: two probes and their receives"

# An Iprobe polling loop: the same, with op=iprobe and polls=.
sed 's/op=probe/op=iprobe polls=9/' "$tmp/probe.trc" >"$tmp/iprobe.trc"
zero iprobe "$tmp/iprobe.trc"
expect_exit 0 "iprobe: rank 1 late" -- trc-perturb -d call=send,ranks=1,delay=2 "$tmp/iprobe.trc"
rank 0 "$out" >"$tmp/got"
sed 's/op=probe/op=iprobe polls=9/' "$tmp/want" >"$tmp/want.i"
is_file "$tmp/got" "$tmp/want.i" "  as the probe"

# A matched probe (MPI_ANY_SOURCE, MPI_ANY_TAG) and its mrecv, posted
# with the probe's wildcards: the mrecv takes what the probe saw.
cat >"$tmp/mprobe.trc" <<'X'
#trc 1 ranks=3 order=time
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.100000000 0 WB peer=* tag=* op=mprobe
0.900000000 1 SB peer=0 tag=5 bytes=8
1.000000000 1 SE peer=0 tag=5 bytes=8
1.100000000 0 WE peer=1 tag=5 bytes=8 op=mprobe
1.200000000 0 RB peer=* tag=* bytes=8 op=mrecv
1.300000000 0 RE peer=1 tag=5 bytes=8 op=mrecv
1.400000000 0 WB peer=* tag=* op=mprobe
1.900000000 2 SB peer=0 tag=6 bytes=16
2.000000000 2 SE peer=0 tag=6 bytes=16
2.100000000 0 WE peer=2 tag=6 bytes=16 op=mprobe
2.200000000 0 RB peer=* tag=* bytes=16 op=mrecv
2.300000000 0 RE peer=2 tag=6 bytes=16 op=mrecv
3.000000000 0 MK
X
zero mprobe "$tmp/mprobe.trc"
cat >"$tmp/want" <<'X'
0.000000000 MK
0.100000000 WB peer=* tag=* op=mprobe
2.000000000 WE peer=2 tag=6 bytes=16 op=mprobe
2.100000000 RB peer=* tag=* bytes=8 op=mrecv
2.200000000 RE peer=2 tag=6 bytes=16 op=mrecv
2.300000000 WB peer=* tag=* op=mprobe
3.000000000 WE peer=1 tag=5 bytes=8 op=mprobe
3.100000000 RB peer=* tag=* bytes=16 op=mrecv
3.200000000 RE peer=1 tag=5 bytes=8 op=mrecv
3.900000000 MK
X
expect_exit 0 "mprobe: rank 1 late" -- trc-perturb -d call=send,ranks=1,delay=2 "$tmp/mprobe.trc"
rank 0 "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  each mrecv takes the message its probe saw"

# MPI_ANY_TAG: from any rank, the first message to arrive whatever its
# tag; from a named rank, its messages in the order they were sent,
# which no delay changes (MPI's non-overtaking rule).
cat >"$tmp/tag.trc" <<'X'
#trc 1 ranks=3 order=time
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.100000000 0 RB peer=* tag=* bytes=64
0.900000000 1 SB peer=0 tag=5 bytes=8
1.000000000 1 SE peer=0 tag=5 bytes=8
1.100000000 0 RE peer=1 tag=5 bytes=8
1.200000000 0 RB peer=* tag=* bytes=64
1.900000000 2 SB peer=0 tag=6 bytes=16
2.000000000 2 SE peer=0 tag=6 bytes=16
2.100000000 0 RE peer=2 tag=6 bytes=16
3.000000000 0 MK
X
zero "any tag, any rank" "$tmp/tag.trc"
# Rank 1 2 s late: the first receive takes rank 2's at max(0.1 + 1, 2)
# = 2, the second rank 1's at max(2.1 + 0.9, 3) = 3; MK at 3.9.
expect_exit 0 "any tag, any rank: rank 1 late" -- trc-perturb -d call=send,ranks=1,delay=2 "$tmp/tag.trc"
is "$(rank 0 "$out" | awk '$2 == "RE" || $2 == "MK"' | tr '\n' '|')" \
	"0.000000000 MK|2.000000000 RE peer=2 tag=6 bytes=16|3.000000000 RE peer=1 tag=5 bytes=8|3.900000000 MK|" \
	"  the receives take the messages in their new order"
cat >"$tmp/tag1.trc" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 RB peer=1 tag=* bytes=64
0.900000000 1 SB peer=0 tag=5 bytes=8
1.000000000 1 SE peer=0 tag=5 bytes=8
1.100000000 0 RE peer=1 tag=5 bytes=8
1.200000000 0 RB peer=1 tag=* bytes=64
1.400000000 1 SB peer=0 tag=6 bytes=8
1.500000000 1 SE peer=0 tag=6 bytes=8
1.600000000 0 RE peer=1 tag=6 bytes=8
X
zero "any tag, one rank" "$tmp/tag1.trc"
# The first send 2 s late (SE at 3), the second after it (SE at 3.5):
# tag 5 first still, at max(0 + 1.1, 3) = 3, tag 6 at max(3.1 + 0.4,
# 3.5) = 3.5.
expect_exit 0 "any tag, one rank: its first send late" -- trc-perturb -d call=send,occ=1,delay=2 "$tmp/tag1.trc"
is "$(rank 0 "$out" | awk '$2 == "RE"' | tr '\n' '|')" \
	"3.000000000 RE peer=1 tag=5 bytes=8|3.500000000 RE peer=1 tag=6 bytes=8|" \
	"  the messages in the order sent"


# A choice whose message never comes: exit 2, the line of its event.
printf '#trc 1 ranks=3\n0.1 0 RB peer=1 tag=1 bytes=8 req=1\n0.2 0 RB peer=2 tag=1 bytes=8 req=2\n0.3 0 WB req=1,2 op=waitany\n1.1 0 RE req=1 peer=1 tag=1 bytes=8\n1.1 0 WE req=1 op=waitany\n' >"$tmp/bad.trc"
expect_exit 2 "waitany without a message" -- trc-perturb "$tmp/bad.trc"
is "$(cat "$err")" "trc-perturb: $tmp/bad.trc:5: receive completion req=1 of a wait for any has no matching send" \
	"  its message"
printf '#trc 1 ranks=3\n0.1 0 WB peer=* tag=5 op=probe\n1.1 0 WE peer=1 tag=5 bytes=8 op=probe\n' >"$tmp/bad.trc"
expect_exit 2 "probe without a message" -- trc-perturb "$tmp/bad.trc"
is "$(cat "$err")" "trc-perturb: $tmp/bad.trc:3: probe from any rank tag 5 comm 0 has no matching send" \
	"  its message"
printf '#trc 1 ranks=2\n0.1 0 RB peer=1 tag=* bytes=8\n1.1 0 RE peer=1 tag=4 bytes=8\n' >"$tmp/bad.trc"
expect_exit 2 "any tag without a message" -- trc-perturb "$tmp/bad.trc"
is "$(cat "$err")" "trc-perturb: $tmp/bad.trc:3: receive from rank 1 tag * comm 0 has no matching send" \
	"  its message"
printf '#trc 1 ranks=2\n0.1 0 RB peer=* tag=1 bytes=8\n0.9 1 SB peer=0 tag=1 bytes=8\n1.0 1 SE peer=0 tag=1 bytes=8\n1.1 0 RE tag=1 bytes=8\n' >"$tmp/bad.trc"
expect_exit 2 "a choice without its recorded peer=" -- trc-perturb "$tmp/bad.trc"
is "$(cat "$err")" "trc-perturb: $tmp/bad.trc:5: receive completion without actual peer= and tag=" \
	"  its message"

done_testing
