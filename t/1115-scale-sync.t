#!/bin/sh
# trc-scale: blocking sends that wait for their receiver (send-sync
# sizes of the target, trc-fit(5)).  Expected times computed by hand:
# a waiting send ends at max(SB' + f2(b), RB' + g2(b)), its receive at
# max(RB' + g2(b), SE').  Target: f2 = 1 s, g2 = 0.5 s; --cpu-ratio 1.
. "$(dirname "$0")/lib.sh"

# The output's events by rank, each rank's in output order (ties between
# ranks go in the order the ranks produced them, not pinned here).
byrank() { awk 'NR > 1 { print $1, $2, $3 }' "$out" | sort -s -k2,2n; }

printf 'send 0 inf 1 0\nrecv 0 inf 0.5 0\nsend-sync 0 inf\n' >"$tmp/sync.fit"
printf 'send 0 inf 1 0\nrecv 0 inf 0.5 0\nsend-sync 100 inf\n' >"$tmp/eager.fit"

# 1. A late receiver: rank 1 computes 0-5 s, then receives.  Eager, the
# send would end at 0 + 1 = 1; waiting, at RB' + g2 = 5 + 0.5 = 5.5,
# with the receive; each rank's next event 1 s later, at 6.5.
cat >"$tmp/late.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 MK
1.000000000 0 SE peer=1 tag=1 bytes=8
2.000000000 0 MK
5.000000000 1 RB peer=0 tag=1 bytes=8
6.000000000 1 RE peer=0 tag=1 bytes=8
7.000000000 1 MK
X
expect_exit 0 "late receiver" -- trc-scale -v -c "$tmp/sync.fit" "$tmp/late.trc"
is "$(byrank)" "0.000000000 0 SB
5.500000000 0 SE
6.500000000 0 MK
0.000000000 1 MK
5.000000000 1 RB
5.500000000 1 RE
6.500000000 1 MK" "a send to a late receiver ends at RB' + g2(b) = 5.5, with its receive"
is "$(grep 'waited' "$err")" \
    "trc-scale: 1 sends waited for their receiver, total delay 4.500000000 s, 0 let go from a receiver held elsewhere, 0 of them exchanges" \
    "-v: one send waited 5.5 - 1 = 4.5 s"

# 2. The same sizes eager (send-sync from 100 bytes): the send ends at
# 1, its rank's marker at 2, the receive at max(5 + 0.5, 1) = 5.5.
expect_exit 0 "eager size" -- trc-scale -c "$tmp/eager.fit" "$tmp/late.trc"
is "$(awk '$2 == 0 { print $1, $3 }' "$out")" "0.000000000 SB
1.000000000 SE
2.000000000 MK" "a size outside send-sync ranges: the send ends on its own"
is "$(awk '$3 == "RE" { print $1 }' "$out")" "5.500000000" "its receive unchanged"
# and a file without send-sync lines predicts as before
printf 'send 0 inf 1 0\nrecv 0 inf 0.5 0\n' >"$tmp/old.fit"
trc-scale -c "$tmp/old.fit" "$tmp/late.trc" >"$tmp/old.out"
is_file "$tmp/old.out" "$out" "an old file: every send eager"

# 3. The late receiver again, its RE in the input before the SE (clock
# skew): the same prediction.
cat >"$tmp/skew.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 MK
5.000000000 1 RB peer=0 tag=1 bytes=8
6.000000000 1 RE peer=0 tag=1 bytes=8
7.000000000 0 SE peer=1 tag=1 bytes=8
7.000000000 1 MK
8.000000000 0 MK
X
expect_exit 0 "late receiver, skewed" -- trc-scale -c "$tmp/sync.fit" "$tmp/skew.trc"
is "$(awk '$3 == "SE" || $3 == "RE" { print $1, $2, $3 }' "$out")" "5.500000000 0 SE
5.500000000 1 RE" "its RE read first: the send still ends at 5.5"

# 4. An early receiver: rank 1 waits from 0 s; rank 0 computes 0-2 s,
# sends 2-3 s.  The send ends at max(2 + 1, 0 + 0.5) = 3, the receive
# at max(0 + 0.5, 3) = 3, rank 1's marker 0.5 s later.
cat >"$tmp/early.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 RB peer=0 tag=1 bytes=8
2.000000000 0 SB peer=1 tag=1 bytes=8
3.000000000 0 SE peer=1 tag=1 bytes=8
3.500000000 1 RE peer=0 tag=1 bytes=8
4.000000000 0 MK
4.000000000 1 MK
X
expect_exit 0 "early receiver" -- trc-scale -v -c "$tmp/sync.fit" "$tmp/early.trc"
is "$(byrank)" "0.000000000 0 MK
2.000000000 0 SB
3.000000000 0 SE
4.000000000 0 MK
0.000000000 1 RB
3.000000000 1 RE
3.500000000 1 MK" "a send to a waiting receiver ends at its own cost"
is "$(grep 'waited' "$err")" \
    "trc-scale: 0 sends waited for their receiver, total delay 0.000000000 s, 0 let go from a receiver held elsewhere, 0 of them exchanges" \
    "-v: none waited"

# 5. A chain: rank 0 sends to 1, which then sends to 2.  Rank 0: SE
# max(0 + 1, RB1' 2 + 0.5) = 2.5, MK 3.5.  Rank 1: RE max(2 + 0.5,
# 2.5) = 2.5, SB 2.5, SE max(2.5 + 1, RB2' 8 + 0.5) = 8.5, MK 9.5.
# Rank 2: RE max(8 + 0.5, 8.5) = 8.5, MK 9.5.
cat >"$tmp/chain.trc" <<'X'
#trc 1 ranks=3
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 MK
0.000000000 2 MK
1.000000000 0 SE peer=1 tag=1 bytes=8
2.000000000 0 MK
2.000000000 1 RB peer=0 tag=1 bytes=8
3.000000000 1 RE peer=0 tag=1 bytes=8
3.000000000 1 SB peer=2 tag=1 bytes=8
4.000000000 1 SE peer=2 tag=1 bytes=8
5.000000000 1 MK
8.000000000 2 RB peer=1 tag=1 bytes=8
9.000000000 2 RE peer=1 tag=1 bytes=8
10.000000000 2 MK
X
expect_exit 0 "chain" -- trc-scale -c "$tmp/sync.fit" "$tmp/chain.trc"
is "$(byrank)" "0.000000000 0 SB
2.500000000 0 SE
3.500000000 0 MK
0.000000000 1 MK
2.000000000 1 RB
2.500000000 1 RE
2.500000000 1 SB
8.500000000 1 SE
9.500000000 1 MK
0.000000000 2 MK
8.000000000 2 RB
8.500000000 2 RE
9.500000000 2 MK" "a chain of ranks: each send waits for the next receiver"

# 6. Two ranks send to each other, then receive: each send waits for a
# rank that is inside its own send from 0, so both end at max(0 + 1,
# 0 + 0.5) = 1, as on a target whose ranks take messages inside any
# call; the receives end at max(1 + 0.5, 1) = 1.5.
cat >"$tmp/cross.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 SB peer=0 tag=1 bytes=8
1.000000000 0 SE peer=1 tag=1 bytes=8
1.000000000 0 RB peer=1 tag=1 bytes=8
1.000000000 1 SE peer=0 tag=1 bytes=8
1.000000000 1 RB peer=0 tag=1 bytes=8
2.000000000 0 RE peer=1 tag=1 bytes=8
2.000000000 1 RE peer=0 tag=1 bytes=8
X
expect_exit 0 "sends to each other" -- trc-scale -v -c "$tmp/sync.fit" "$tmp/cross.trc"
is "$(byrank)" "0.000000000 0 SB
1.000000000 0 SE
1.000000000 0 RB
1.500000000 0 RE
0.000000000 1 SB
1.000000000 1 SE
1.000000000 1 RB
1.500000000 1 RE" "a cycle of waiting sends goes, each from its receiver's call"
is "$(grep 'waited' "$err")" \
    "trc-scale: 0 sends waited for their receiver, total delay 0.000000000 s, 2 let go from a receiver held elsewhere, 0 of them exchanges" \
    "-v: both let go"

# 7. A waiting send whose receiver is in a collective of the world the
# sender enters only after the send: rank 1 enters the barrier at 0,
# rank 0 sends to 1 (0-1 s) first.  The send goes from the barrier's
# begin: max(0 + 1, 0 + 0.5) = 1; rank 0's barrier 1-1 (no barrier
# cost in the fit: the time after the last one entered, 0), rank 1's
# barrier end 1, its receive max(1 + 0.5, 1) = 1.5.
cat >"$tmp/coll.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 XB op=barrier
1.000000000 0 SE peer=1 tag=1 bytes=8
1.000000000 0 XB op=barrier
1.000000000 0 XE op=barrier
1.000000000 1 XE op=barrier
1.000000000 1 RB peer=0 tag=1 bytes=8
2.000000000 1 RE peer=0 tag=1 bytes=8
X
expect_exit 0 "receiver in a barrier" -- trc-scale -c "$tmp/sync.fit" "$tmp/coll.trc"
is "$(byrank)" "0.000000000 0 SB
1.000000000 0 SE
1.000000000 0 XB
1.000000000 0 XE
0.000000000 1 XB
1.000000000 1 XE
1.000000000 1 RB
1.500000000 1 RE" "a send held by a receiver in a world collective goes"

# 8. A waiting send never received: let go at its own cost at the end,
# with the warning.
cat >"$tmp/lost.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 MK
1.000000000 0 SE peer=1 tag=1 bytes=8
2.000000000 0 MK
X
expect_exit 0 "never received" -- trc-scale -c "$tmp/sync.fit" "$tmp/lost.trc"
is "$(awk '$2 == 0 { print $1, $3 }' "$out")" "0.000000000 SB
1.000000000 SE
2.000000000 MK" "a waiting send never received ends at its own cost"
is "$(cat "$err")" "trc-scale: $tmp/lost.trc:4: warning: send to rank 1 tag 1 comm 0 was never received" \
    "and is warned about"

# 9. Nonblocking sends never wait (their SB-SE is the call alone).
sed 's/SB peer=1 tag=1 bytes=8/SB peer=1 tag=1 bytes=8 req=1/; s/SE peer=1 tag=1 bytes=8/SE peer=1 tag=1 bytes=8 req=1/' \
    "$tmp/late.trc" >"$tmp/isend.trc"
expect_exit 0 "isend" -- trc-scale -c "$tmp/sync.fit" "$tmp/isend.trc"
is "$(awk '$2 == 0 && $3 == "SE" { print $1 }' "$out")" "1.000000000" "an Isend ends at its own cost"

# 10. With a base whose sends of this size waited too, the base's send
# time (1 s, of which the wait) is not scaled: the eager end is f2(b).
printf 'send 0 inf 0.25 0\nsend-sync 0 inf\n' >"$tmp/base.fit"
expect_exit 0 "base waited too" -- trc-scale -b "$tmp/base.fit" -c "$tmp/eager.fit" "$tmp/late.trc"
is "$(awk '$2 == 0 && $3 == "SE" { print $1 }' "$out")" "1.000000000" \
    "a send that waited on the base takes f2(b) = 1, not f2/f1 * S1 = 4"

is "$(awk 'NR > 1 { print $1 }' "$out" | sort -c -n && echo sorted)" sorted "output sorted by predicted time"

# 11. Streaming: 3000 rounds of case 6 (24000 events).  Each round
# takes 1.5 s on both ranks; cycles are let go as the input goes, so
# what is held stays small.
awk 'BEGIN { print "#trc 1 ranks=2"
	for (i = 0; i < 3000; i++) { t = 2 * i
		printf "%.9f 0 SB peer=1 tag=1 bytes=8\n%.9f 1 SB peer=0 tag=1 bytes=8\n", t, t
		printf "%.9f 0 SE peer=1 tag=1 bytes=8\n%.9f 0 RB peer=1 tag=1 bytes=8\n", t + 1, t + 1
		printf "%.9f 1 SE peer=0 tag=1 bytes=8\n%.9f 1 RB peer=0 tag=1 bytes=8\n", t + 1, t + 1
		printf "%.9f 0 RE peer=1 tag=1 bytes=8\n%.9f 1 RE peer=0 tag=1 bytes=8\n", t + 2, t + 2 } }' >"$tmp/cross3000.trc"
expect_exit 0 "3000 rounds" -- trc-scale -v -c "$tmp/sync.fit" "$tmp/cross3000.trc"
is "$(tail -2 "$out" | awk '{ print $1, $2, $3 }' | sort -k2,2n)" "4500.000000000 0 RE
4500.000000000 1 RE" "the last receives at 3000 * 1.5 = 4500 s"
is "$(awk '/held at most/ { print ($7 < 10000) }' "$err")" "1" "held events stay bounded"

# 12. A ring of 128 ranks, each sending to the next, then receiving
# from the one before, 100 rounds (51200 events): a cycle of 128
# waiting sends each round, each round 1.5 s as in case 6.
awk 'BEGIN { n = 128; print "#trc 1 ranks=" n
	for (i = 0; i < 100; i++) { t = 2 * i
		for (r = 0; r < n; r++) printf "%.9f %d SB peer=%d tag=1 bytes=8\n", t, r, (r + 1) % n
		for (r = 0; r < n; r++) printf "%.9f %d SE peer=%d tag=1 bytes=8\n%.9f %d RB peer=%d tag=1 bytes=8\n", t + 1, r, (r + 1) % n, t + 1, r, (r + n - 1) % n
		for (r = 0; r < n; r++) printf "%.9f %d RE peer=%d tag=1 bytes=8\n", t + 2, r, (r + n - 1) % n } }' >"$tmp/ring.trc"
expect_exit 0 "ring of 128" -- trc-scale -v -c "$tmp/sync.fit" "$tmp/ring.trc"
is "$(awk '$3 == "RE" { print $1 }' "$out" | sort -g | tail -1)" "150.000000000" \
    "the last receives at 100 * 1.5 = 150 s"
is "$(awk '/held at most/ { print ($7 < 10000) }' "$err")" "1" "a cycle longer than any chain limit is let go as the input goes"

# 13. send-progress (trc-fit(5)): a waiting send of those sizes needs
# only its receiver inside an MPI call that waits, whose progress
# takes the message.  Rank 1 waits in a receive from rank 2 from 0 s
# when rank 0 sends (2-3 s): rank 0's send ends at max(2 + 1,
# RB1' 0 + 0.5) = 3, its marker at 4.  Rank 2 sends 4-5 s to rank 1
# waiting: SE 5, MK 7.  Rank 1: RE max(0 + 0.5, 5) = 5, RB 5.5, RE
# max(5.5 + 0.5, 3) = 6, MK 6.5.  With send-sync alone rank 0 waits
# for RB 5.5: SE 5.5 + 0.5 = 6, MK 7, rank 1's times the same.
printf 'send 0 inf 1 0\nrecv 0 inf 0.5 0\nsend-sync 0 inf\nsend-progress 0 inf\n' >"$tmp/prog.fit"
cat >"$tmp/inrecv.trc" <<'X'
#trc 1 ranks=3
0.000000000 0 MK
0.000000000 1 RB peer=2 tag=2 bytes=8
0.000000000 2 MK
2.000000000 0 SB peer=1 tag=1 bytes=8
3.000000000 0 SE peer=1 tag=1 bytes=8
4.000000000 0 MK
4.000000000 2 SB peer=1 tag=2 bytes=8
5.000000000 2 SE peer=1 tag=2 bytes=8
5.500000000 1 RE peer=2 tag=2 bytes=8
6.000000000 1 RB peer=0 tag=1 bytes=8
6.500000000 1 RE peer=0 tag=1 bytes=8
7.000000000 1 MK
7.000000000 2 MK
X
expect_exit 0 "progress, receiver in another receive" -- trc-scale -v -c "$tmp/prog.fit" "$tmp/inrecv.trc"
is "$(byrank)" "0.000000000 0 MK
2.000000000 0 SB
3.000000000 0 SE
4.000000000 0 MK
0.000000000 1 RB
5.000000000 1 RE
5.500000000 1 RB
6.000000000 1 RE
6.500000000 1 MK
0.000000000 2 MK
4.000000000 2 SB
5.000000000 2 SE
7.000000000 2 MK" "a send-progress size: taken inside the receiver's other receive, at its own cost"
# -v counts both sends let go from rank 1's receive (rank 2's as well:
# the receive that takes it is the one rank 1 waits in), neither later
# than its own cost.
is "$(grep 'waited' "$err")" \
    "trc-scale: 0 sends waited for their receiver, total delay 0.000000000 s, 2 let go from a receiver held elsewhere, 0 of them exchanges" \
    "-v: two sends let go from the receiver's call, none waited"
expect_exit 0 "send-sync alone" -- trc-scale -c "$tmp/sync.fit" "$tmp/inrecv.trc"
is "$(awk '$2 == 0 { print $1, $3 }' "$out")" "0.000000000 MK
2.000000000 SB
6.000000000 SE
7.000000000 MK" "send-sync alone: the same send waits for its receive, RB 5.5 + 0.5"

# 14. The receiver computes (0-4 s) when the send begins (2 s), then
# waits in a receive from rank 2: rank 0's send ends with that call's
# begin, max(2 + 1, 4 + 0.5) = 4.5, its marker 2 s later at 6.5.  Rank
# 2 sends 6-7 s: SE max(7, 4 + 0.5) = 7, MK 9.  Rank 1: RE max(4.5, 7)
# = 7, RB 7.5, RE max(7.5 + 0.5, 4.5) = 8, MK 8.5.  With send-sync
# alone rank 0 waits for RB 7.5: SE 8, MK 10.
cat >"$tmp/later.trc" <<'X'
#trc 1 ranks=3
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
2.000000000 0 SB peer=1 tag=1 bytes=8
3.000000000 0 SE peer=1 tag=1 bytes=8
4.000000000 1 RB peer=2 tag=2 bytes=8
5.000000000 0 MK
6.000000000 2 SB peer=1 tag=2 bytes=8
7.000000000 2 SE peer=1 tag=2 bytes=8
7.500000000 1 RE peer=2 tag=2 bytes=8
8.000000000 1 RB peer=0 tag=1 bytes=8
8.500000000 1 RE peer=0 tag=1 bytes=8
9.000000000 1 MK
9.000000000 2 MK
X
expect_exit 0 "progress, receiver computing first" -- trc-scale -c "$tmp/prog.fit" "$tmp/later.trc"
is "$(byrank)" "0.000000000 0 MK
2.000000000 0 SB
4.500000000 0 SE
6.500000000 0 MK
0.000000000 1 MK
4.000000000 1 RB
7.000000000 1 RE
7.500000000 1 RB
8.000000000 1 RE
8.500000000 1 MK
0.000000000 2 MK
6.000000000 2 SB
7.000000000 2 SE
9.000000000 2 MK" "a send-progress size: taken when its receiver enters a call that waits, 4 + 0.5"
expect_exit 0 "send-sync alone" -- trc-scale -c "$tmp/sync.fit" "$tmp/later.trc"
is "$(awk '$2 == 0 { print $1, $3 }' "$out")" "0.000000000 MK
2.000000000 SB
8.000000000 SE
10.000000000 MK" "send-sync alone: it waits for the receive, 7.5 + 0.5"

# 15. A receiver that computes until its receive (case 1) takes a
# send-progress size there, as a send-sync one: the same prediction.
trc-scale -c "$tmp/sync.fit" "$tmp/late.trc" >"$out"
byrank >"$tmp/late.sync"
expect_exit 0 "progress, late receiver" -- trc-scale -c "$tmp/prog.fit" "$tmp/late.trc"
is "$(byrank)" "$(cat "$tmp/late.sync")" "a receiver in no call before its receive: as send-sync"

# 16. --cores: computations share the target's cores.  Two ranks each
# compute 0-1 s: on one core the one met first runs 0-1, the other
# 1-2; on two, both 0-1.
cat >"$tmp/two.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
1.000000000 0 MK
1.000000000 1 MK
X
expect_exit 0 "one core" -- trc-scale --cores 1 "$tmp/two.trc"
is "$(byrank)" "0.000000000 0 MK
1.000000000 0 MK
0.000000000 1 MK
2.000000000 1 MK" "one core: the second computation waits for the first"
expect_exit 0 "two cores" -- trc-scale --cores 2 "$tmp/two.trc"
is "$(byrank)" "0.000000000 0 MK
1.000000000 0 MK
0.000000000 1 MK
1.000000000 1 MK" "two cores: both at once"

# 17. One core, a computation cut in two: rank 1 computes 0-1 s (met
# first), rank 0 0-2 s, rank 1 again 1-2 s.  Rank 1's first: 0-1.
# Rank 0's: the core is free from 1, so 1-3.  Rank 1's second, from 1:
# busy to 3, so 3-4.
cat >"$tmp/cut.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
1.000000000 1 MK
2.000000000 0 MK
2.000000000 1 MK
X
expect_exit 0 "one core, three computations" -- trc-scale --cores 1 "$tmp/cut.trc"
is "$(byrank)" "0.000000000 0 MK
3.000000000 0 MK
0.000000000 1 MK
1.000000000 1 MK
4.000000000 1 MK" "each computation where the core is free, in the order met"
# A call needs no core: rank 1 computes 0-1 s (met first: 0-1), sends
# 1-2 s, computes 2-4 s; rank 0 computes 0-3 s, then receives.  Rank
# 0's computation: the core is free from 1, so 1-4, its RB and RE at 4
# (the message came at 2).  Rank 1's send 1-2 while rank 0 computes;
# its second computation from 2: busy to 4, so 4-6.
cat >"$tmp/gap.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
1.000000000 1 SB peer=0 tag=1 bytes=8
2.000000000 1 SE peer=0 tag=1 bytes=8
3.000000000 0 RB peer=1 tag=1 bytes=8
3.000000000 0 RE peer=1 tag=1 bytes=8
4.000000000 1 MK
X
expect_exit 0 "one core, a call between" -- trc-scale --cores 1 "$tmp/gap.trc"
is "$(byrank)" "0.000000000 0 MK
4.000000000 0 RB
4.000000000 0 RE
0.000000000 1 MK
1.000000000 1 SB
2.000000000 1 SE
6.000000000 1 MK" "a call needs no core; a computation waits for one"
expect_exit 2 "--cores 0" -- trc-scale --cores 0 "$tmp/two.trc"
is "$(cat "$err")" "trc-scale: invalid cores '0' (want an integer from 1 to 2147483647)" "--cores 0: named"

# 18. --bound: rank r computes on core r mod n only.  Three ranks on 2
# cores: ranks 0 and 2 on core 0, rank 1 on core 1.  Rank 1 computes
# 0-0.5 s and sends to rank 0 0.5-1; rank 0 receives 0-1 and computes
# 1-2 (met at 2); rank 2 computes 0-3 (met at 3, after rank 0's).
# Shared: rank 2 finds a core free all along, 0-3.  Bound: core 0 is
# rank 0's 1-2, so rank 2 computes 0-1 and 2-4, though core 1 is free
# from 0.5.
cat >"$tmp/bound.trc" <<'X'
#trc 1 ranks=3
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.000000000 0 RB peer=1 tag=1 bytes=8
0.500000000 1 SB peer=0 tag=1 bytes=8
1.000000000 1 SE peer=0 tag=1 bytes=8
1.000000000 0 RE peer=1 tag=1 bytes=8
1.000000000 1 MK
2.000000000 0 MK
3.000000000 2 MK
X
expect_exit 0 "two cores shared" -- trc-scale --cores 2 "$tmp/bound.trc"
is "$(awk '$2 == 2 { print $1 }' "$out" | tail -1)" "3.000000000" "shared: rank 2 on the free core, 0-3"
expect_exit 0 "two cores, bound" -- trc-scale --cores 2 --bound "$tmp/bound.trc"
is "$(byrank)" "0.000000000 0 MK
0.000000000 0 RB
1.000000000 0 RE
2.000000000 0 MK
0.000000000 1 MK
0.500000000 1 SB
1.000000000 1 SE
1.000000000 1 MK
0.000000000 2 MK
4.000000000 2 MK" "bound: rank 2 waits for core 0, 0-1 and 2-4"
expect_exit 0 "three cores, bound" -- trc-scale --cores 3 --bound "$tmp/bound.trc"
is "$(awk '$2 == 2 { print $1 }' "$out" | tail -1)" "3.000000000" "a core each: as unshared"
expect_exit 2 "--bound without --cores" -- trc-scale --bound "$tmp/bound.trc"
is "$(cat "$err")" "trc-scale: --bound needs --cores" "  named"

# An exchange: each rank posts the receive of the other's message, then
# sends its own, 8192 bytes, send-sync, both held.  Target: send 1 us,
# recv-late 2 us, exchange 3 us.  Rank 0 sends from 10 us, rank 1 from
# 14 (recorded, as predicted: no ratio); both end at max(10, 14) + 3 =
# 17, and each message, taken by that send, costs its wait nothing: the
# waits 1 us later end as they begin, at 18.
printf 'send 0 inf 1e-6 0\nrecv-late 0 inf 2e-6 0\nexchange 0 inf 3e-6 0\nsend-sync 4096 inf\n' >"$tmp/x.fit"
cat >"$tmp/x.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000009000 0 RB peer=1 tag=1 bytes=8192 req=1
0.000010000 0 SB peer=1 tag=1 bytes=8192
0.000013000 1 RB peer=0 tag=1 bytes=8192 req=1
0.000014000 1 SB peer=0 tag=1 bytes=8192
0.000020000 0 SE peer=1 tag=1 bytes=8192
0.000020000 1 SE peer=0 tag=1 bytes=8192
0.000021000 0 WB req=1 op=wait
0.000021000 1 WB req=1 op=wait
0.000022000 0 RE req=1 peer=1 tag=1 bytes=8192
0.000022000 0 WE req=1 op=wait
0.000022000 1 RE req=1 peer=0 tag=1 bytes=8192
0.000022000 1 WE req=1 op=wait
X
xus() { awk '!/^#/ && ($3 == "SE" || $3 == "RE") { printf "%s %s %.0f\n", $2, $3, $1 * 1e6 }' "$out" | sort | tr '\n' ' '; }
expect_exit 0 "an exchange" -- trc-scale -v -c "$tmp/x.fit" "$tmp/x.trc"
is "$(xus)" "0 RE 18 0 SE 17 1 RE 18 1 SE 17 " "both sends end by the exchange's cost, their receives free"
is "$(grep 'waited' "$err")" \
    "trc-scale: 0 sends waited for their receiver, total delay 0.000000000 s, 2 let go from a receiver held elsewhere, 2 of them exchanges" \
    "  -v: counted"
# Without the exchange row each is handed over alone from the other's
# send: rank 0's at max(10 + 1, 14 + 2) = 16, rank 1's at max(14 + 1,
# 10 + 2) = 15; the waits begin 1 us later and take recv-late: rank 0's
# RE at max(17 + 2, 15) = 19, rank 1's at max(16 + 2, 16) = 18.
grep -v exchange "$tmp/x.fit" >"$tmp/nx.fit"
expect_exit 0 "no exchange row" -- trc-scale -c "$tmp/nx.fit" "$tmp/x.trc"
is "$(xus)" "0 RE 19 0 SE 16 1 RE 18 1 SE 15 " "  each handed over alone"

done_testing
