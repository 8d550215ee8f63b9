#!/bin/sh
# trc-scale --switch: on bound cores shared by ranks, what a core's
# passing from one rank to another costs, s: a computation interval
# placed on its core after another rank took it last pays s; so does
# the end of a call that waited for another rank (a receive completed
# by its message's arrival, a send that waited for its receiver), and a
# collective's end pays s for each of its rounds (log2 of its ranks,
# rounded up); a rank that pays so has taken the core.  Ranks alone on
# their core pay nothing.  Expected times computed by hand from those
# rules and trc-scale(1)'s (the fit's send 1 s, recv 0.5 s; an eager
# message arrives at its send's end; intervals take the core in the
# order the input gives their ends).
. "$(dirname "$0")/lib.sh"

# byrank [all]: the output's events by rank, with their XBs when asked.
byrank() { awk -v all="${1:-}" '!/^#/ && (all != "" || $3 != "XB") { print $2, $3, $1 }' "$out" |
    sort -s -k1,1n | tr '\n' ';'; }
printf 'send 0 inf 1 0\nrecv 0 inf 0.5 0\n' >"$tmp/f.fit"

# 1. Two ranks on one core, s = 0.25.  Rank 1's 1 s before its RB takes
# the core first, [0, 1] (the core's first taker pays nothing); rank
# 0's 4 s before its SB then [1, 5.25], the core passing: SB 5.25, SE
# 6.25 (the send's 1 s), its message there.  Rank 0's MK comes first in
# the input: 1 s from 6.25, the core still its own: 7.25.  Rank 1's
# RE waited for the message: 6.25 + 0.25 = 6.5, and it has the core;
# its MK: 1 s from 6.5 when the core is free, at 7.25: 8.25.
# Without --switch: SB 5, SE 6, MK 7; RE 6, MK 8.
cat >"$tmp/p2p.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
1.000000000 1 RB peer=0 tag=1 bytes=8
4.000000000 0 SB peer=1 tag=1 bytes=8
5.000000000 0 SE peer=1 tag=1 bytes=8
6.000000000 0 MK
6.000000000 1 RE peer=0 tag=1 bytes=8
7.000000000 1 MK
X
expect_exit 0 "--switch, a receive that waited" -- trc-scale -c "$tmp/f.fit" --cores 1 --bound --switch 0.25 "$tmp/p2p.trc"
is "$(byrank)" "0 MK 0.000000000;0 SB 5.250000000;0 SE 6.250000000;0 MK 7.250000000;1 MK 0.000000000;1 RB 1.000000000;1 RE 6.500000000;1 MK 8.250000000;" \
    "a computation after another rank's and a receive that waited pay s"
expect_exit 0 "without --switch" -- trc-scale -c "$tmp/f.fit" --cores 1 --bound "$tmp/p2p.trc"
is "$(byrank)" "0 MK 0.000000000;0 SB 5.000000000;0 SE 6.000000000;0 MK 7.000000000;1 MK 0.000000000;1 RB 1.000000000;1 RE 6.000000000;1 MK 8.000000000;" \
    "without it: no switch"
expect_exit 0 "--switch, a core each" -- trc-scale -c "$tmp/f.fit" --cores 2 --bound --switch 0.25 "$tmp/p2p.trc"
is "$(byrank)" "0 MK 0.000000000;0 SB 4.000000000;0 SE 5.000000000;0 MK 6.000000000;1 MK 0.000000000;1 RB 1.000000000;1 RE 5.000000000;1 MK 6.000000000;" \
    "a rank alone on its core pays nothing"

# 2. An allreduce of 4 ranks on 2 cores (0 and 2 on core 0, 1 and 3 on
# core 1), no fit row for it: its recorded 1 s after the last entry,
# and 2 rounds.  All enter at 0; of each core's ranks the one the input
# gives last, 2 and 3, holds the core past the collective's end (it
# still runs there when the last rank enters): XE 1 + 2 x 0.25 = 1.5,
# and the MKs, 1 s each, [1.5, 2.5] (the core last theirs).  Ranks 0
# and 1 end theirs when the holder next waits in a call, here when the
# input ends, its time 2.5: XE 2.5 + 2 x 0.25 = 3, MK [3, 4], the core
# theirs since their XE.  Without --switch: XE 1, MK 2; XE 2, MK 3.
cat >"$tmp/coll.trc" <<'X'
#trc 1 ranks=4
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.000000000 3 MK
0.000000000 0 XB op=allreduce bytes=4
0.000000000 1 XB op=allreduce bytes=4
0.000000000 2 XB op=allreduce bytes=4
0.000000000 3 XB op=allreduce bytes=4
1.000000000 0 XE op=allreduce bytes=4
1.000000000 1 XE op=allreduce bytes=4
1.000000000 2 XE op=allreduce bytes=4
1.000000000 3 XE op=allreduce bytes=4
2.000000000 0 MK
2.000000000 1 MK
2.000000000 2 MK
2.000000000 3 MK
X
expect_exit 0 "--switch, a collective" -- trc-scale -c "$tmp/f.fit" --cores 2 --bound --switch 0.25 "$tmp/coll.trc"
is "$(byrank)" "0 MK 0.000000000;0 XE 3.000000000;0 MK 4.000000000;1 MK 0.000000000;1 XE 3.000000000;1 MK 4.000000000;2 MK 0.000000000;2 XE 1.500000000;2 MK 2.500000000;3 MK 0.000000000;3 XE 1.500000000;3 MK 2.500000000;" \
    "a collective of 4 pays 2 rounds; the holders go on, the others after them"
expect_exit 0 "without --switch" -- trc-scale -c "$tmp/f.fit" --cores 2 --bound "$tmp/coll.trc"
is "$(byrank)" "0 MK 0.000000000;0 XE 2.000000000;0 MK 3.000000000;1 MK 0.000000000;1 XE 2.000000000;1 MK 3.000000000;2 MK 0.000000000;2 XE 1.000000000;2 MK 2.000000000;3 MK 0.000000000;3 XE 1.000000000;3 MK 2.000000000;" \
    "without it: the collective as recorded, the holders first"
expect_exit 0 "-v counts the switches" -- trc-scale -v -c "$tmp/f.fit" --cores 2 --bound --switch 0.25 "$tmp/coll.trc"
# 4 ranks x 2 rounds; each MK on a core its rank took last.
is "$(grep -c '^trc-scale: 8 switches of a core between ranks (--switch)$' "$err")" 1 "-v: 8 switches"

# 3. The holder gives the core up at its next call that may wait.  Two
# ranks on one core, no --switch.  Rank 0 enters a barrier at 0, rank 1
# after 1 s of computation, [0, 1]: rank 1 holds the core.  The barrier
# ends at 1 + its recorded 1 s = 2.  Rank 1 computes [2, 4] and waits
# in its RB at 4: rank 0's XE is 4, not 2.  Its 1 s before its SB then
# [4, 5]: SB 5, SE 6 (the send's 1 s), the message there at 6: rank 1's
# RE 6.  The MKs, in the input's order: rank 0's 2 s [6, 8], rank 1's
# 1 s after it, [8, 9].
cat >"$tmp/hold.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000000000 0 XB op=barrier bytes=0
1.000000000 1 XB op=barrier bytes=0
2.000000000 0 XE op=barrier bytes=0
2.000000000 1 XE op=barrier bytes=0
3.000000000 0 SB peer=1 tag=1 bytes=8
4.000000000 0 SE peer=1 tag=1 bytes=8
4.000000000 1 RB peer=0 tag=1 bytes=8
5.000000000 1 RE peer=0 tag=1 bytes=8
6.000000000 0 MK
6.000000000 1 MK
X
expect_exit 0 "a hold given up in a receive" -- trc-scale -c "$tmp/f.fit" --cores 1 --bound "$tmp/hold.trc"
is "$(byrank all)" "0 MK 0.000000000;0 XB 0.000000000;0 XE 4.000000000;0 SB 5.000000000;0 SE 6.000000000;0 MK 8.000000000;1 MK 0.000000000;1 XB 1.000000000;1 XE 2.000000000;1 RB 4.000000000;1 RE 6.000000000;1 MK 9.000000000;" \
    "the other rank ends its barrier when the holder waits"
# Unbound, the ranks wait for no one's core: XE 2 both.
expect_exit 0 "unbound, no hold" -- trc-scale -c "$tmp/f.fit" --cores 1 "$tmp/hold.trc"
is "$(awk '$3 == "XE" { print $2, $1 }' "$out" | sort | tr '\n' ';')" "0 2.000000000;1 2.000000000;" "unbound: both end at 2"

# 4. Bad uses: exit 2, named.
expect_exit 2 "--switch without --bound" -- trc-scale --cores 2 --switch 0.25 "$tmp/coll.trc"
is "$(cat "$err")" "trc-scale: --switch needs --bound" "  named"
expect_exit 2 "--switch not a time" -- trc-scale --cores 2 --bound --switch 2us "$tmp/coll.trc"
is "$(cat "$err")" "trc-scale: invalid switch time '2us'" "  named"
expect_exit 2 "--switch negative" -- trc-scale --cores 2 --bound --switch -1 "$tmp/coll.trc"
is "$(cat "$err")" "trc-scale: invalid switch time '-1'" "  named"

done_testing
