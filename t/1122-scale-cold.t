#!/bin/sh
# trc-scale: a send or receive after at least 20 us of computation on
# its rank since its last call that used the transport costs the cold
# fit of its operation (send-cold, recv-late-cold); one after less, or
# after polls, the warm one; a collective, when its last participant
# came from such a computation since its last collective, the cold
# (allreduce-cold), half way from the warm when that participant sent
# or received since, or with the base's fits as far between the
# target's as its recorded time lies between the base's.  Expected
# times computed by hand.
. "$(dirname "$0")/lib.sh"

# at_us KINDS FORMAT: "RANK KIND US " for each event of KINDS in $out,
# its time in microseconds by FORMAT.
at_us() {
	awk -v k=" $1 " -v f="%s %s $2 " '!/^#/ && index(k, " " $3 " ") {
		printf f, $2, $3, $1 * 1e6 }' "$out"
}

# Target: send 1 us, send-cold 3 us, recv-late 2 us, recv-late-cold
# 5 us; no recv row: a message arrives at its send's end.
cat >"$tmp/t.fit" <<'X'
send 0 inf 1e-6 0
send-cold 0 inf 3e-6 0
recv-late 0 inf 2e-6 0
recv-late-cold 0 inf 5e-6 0
X
cat >"$tmp/c.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000010000 0 SB peer=1 tag=1 bytes=8
0.000012000 0 SE peer=1 tag=1 bytes=8
0.000015000 1 RB peer=0 tag=1 bytes=8
0.000016000 1 RE peer=0 tag=1 bytes=8
0.000042000 0 SB peer=1 tag=2 bytes=8
0.000043000 0 SE peer=1 tag=2 bytes=8
0.000044000 0 RB peer=1 tag=3 bytes=8 req=5
0.000050000 1 RB peer=0 tag=2 bytes=8
0.000051000 1 RE peer=0 tag=2 bytes=8
0.000052000 1 SB peer=0 tag=3 bytes=8
0.000053000 1 SE peer=0 tag=3 bytes=8
0.000074000 0 SB peer=1 tag=4 bytes=8
0.000075000 0 SE peer=1 tag=4 bytes=8
0.000076000 0 WB req=5 op=wait
0.000080000 0 RE peer=1 tag=3 bytes=8 req=5
0.000080000 0 WE req=5 op=wait
0.000100000 1 RB peer=0 tag=4 bytes=8 polls=3
0.000101000 1 RE peer=0 tag=4 bytes=8
X
# Rank 0: 10 us of computation, a warm send: SE 10 + 1 = 11; 30 us
# more, cold: SB 41, SE 41 + 3 = 44; the Irecv 1 us later (45) uses no
# transport, so the send 30 us after the last SE is cold: SB 75, SE
# 78; the wait 1 us later (79), its receive warm: RE max(79 + 2, 58) =
# 81, WE 81.
# Rank 1: 15 us, a warm receive: RE max(15 + 2, 11) = 17; 34 us more,
# cold: RB 51, RE max(51 + 5, 44) = 56; a warm send 1 us later: SB 57,
# SE 58; 47 us of computation with polls (the transport used): a warm
# receive, RB 105, RE max(105 + 2, 78) = 107.
expect_exit 0 "cold and warm calls" -- trc-scale -c "$tmp/t.fit" "$tmp/c.trc"
is "$(awk '!/^#/ { printf "%s %s %s %.0f\n", $2, $3, $4, $1 * 1e6 }' "$out" | sort -s -k1,1n)" "0 MK t0=0.000000000 0
0 SB peer=1 10
0 SE peer=1 11
0 SB peer=1 41
0 SE peer=1 44
0 RB peer=1 45
0 SB peer=1 75
0 SE peer=1 78
0 WB req=5 79
0 RE peer=1 81
0 WE req=5 81
1 MK t0=0.000000000 0
1 RB peer=0 15
1 RE peer=0 17
1 RB peer=0 51
1 RE peer=0 56
1 SB peer=0 57
1 SE peer=0 58
1 RB peer=0 105
1 RE peer=0 107" "a call after 20 us of computation costs the cold fit"

# Without the cold rows every call is warm: rank 0's sends take 1 us
# (SE 11, 42; the Irecv at 43, SB 73, SE 74; WB 75, RE max(75 + 2,
# 55) = 77), rank 1's receives 2 us (RE 17; RB 51, RE max(53, 42) = 53;
# SB 54, SE 55; RB 102, RE 104).
grep -v cold "$tmp/t.fit" >"$tmp/w.fit"
expect_exit 0 "no cold rows" -- trc-scale -c "$tmp/w.fit" "$tmp/c.trc"
is "$(awk '!/^#/ && ($3 == "SE" || $3 == "RE") { printf "%s %.0f ", $2, $1 * 1e6 }' "$out")" \
    "0 11 1 17 0 42 1 53 1 55 0 74 0 77 1 104 " "warm fits alone"

# A rendezvous (the target marks 4096 bytes send-sync): send 1 us,
# recv-late 2 us, recv-late-cold 5 us.  Rank 0 sends at 1 us; rank 1
# receives at 30 after 30 us of computation, after the send's eager end
# (1 + 1): the handover, the receiver's share, is cold: rank 0's SE at
# 30 + 5 = 35, rank 1's RE at the later of that and its own cold
# receive, 30 + 5.
printf 'send 0 inf 1e-6 0\nrecv-late 0 inf 2e-6 0\nrecv-late-cold 0 inf 5e-6 0\nsend-sync 4096 inf\n' >"$tmp/r.fit"
cat >"$tmp/r.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000001000 0 SB peer=1 tag=1 bytes=4096
0.000030000 1 RB peer=0 tag=1 bytes=4096
0.000031000 1 RE peer=0 tag=1 bytes=4096
0.000031000 0 SE peer=1 tag=1 bytes=4096
X
expect_exit 0 "a handover to a receiver from computation" -- trc-scale -c "$tmp/r.fit" "$tmp/r.trc"
is "$(at_us 'SE RE' %.1f)" \
    "0 SE 35.0 1 RE 35.0 " "  cold: recv-late-cold"
# The other way round: rank 1 waits in its receive from 29.5 us when
# rank 0 sends at 30: the receiver's share is warm, rank 0's SE at
# 29.5 + 2 = 31.5, after the send's own 30 + 1; rank 1's receive, begun
# after 29.5 us of computation, costs recv-late-cold itself: RE at
# 29.5 + 5 = 34.5.
cat >"$tmp/r2.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000029500 1 RB peer=0 tag=1 bytes=4096
0.000030000 0 SB peer=1 tag=1 bytes=4096
0.000031000 0 SE peer=1 tag=1 bytes=4096
0.000031000 1 RE peer=0 tag=1 bytes=4096
X
expect_exit 0 "a handover to a receiver waiting" -- trc-scale -c "$tmp/r.fit" "$tmp/r2.trc"
is "$(at_us 'SE RE' %.1f)" \
    "0 SE 31.5 1 RE 34.5 " "  warm: recv-late, the receiver waiting in the transport"

# A collective is cold when the participant that enters it last came
# from 20 us or more of computation since its last collective:
# allreduce 1 us, allreduce-cold 5 us; half way, 3 us, when that
# participant sent or received since the computation (the transport's
# part of the collective warm again, not its own); no send or recv
# rows, so the messages keep their recorded times.
printf 'allreduce 0 inf 1e-6 0\nallreduce-cold 0 inf 5e-6 0\n' >"$tmp/x.fit"
cat >"$tmp/x.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000008000 1 SB peer=0 tag=1 bytes=8
0.000009000 1 SE peer=0 tag=1 bytes=8
0.000025000 0 XB op=allreduce bytes=8
0.000027000 1 XB op=allreduce bytes=8
0.000029000 0 XE op=allreduce bytes=8
0.000029000 1 XE op=allreduce bytes=8
0.000030000 0 RB peer=1 tag=1 bytes=8
0.000031000 0 RE peer=1 tag=1 bytes=8
0.000034000 1 XB op=allreduce bytes=8
0.000061000 0 XB op=allreduce bytes=8
0.000063000 0 XE op=allreduce bytes=8
0.000063000 1 XE op=allreduce bytes=8
0.000065000 1 XB op=allreduce bytes=8
0.000070000 0 XB op=allreduce bytes=8
0.000072000 0 XE op=allreduce bytes=8
0.000072000 1 XE op=allreduce bytes=8
X
# The first: rank 0 enters at 25 after 25 us of computation, rank 1
# last at 27, after 26 us of computation but a send 18 us before:
# half way, both leave at 27 + 3 = 30.  Rank 0 receives from 31 to 32,
# computes 30 us and enters the second last, at 62, cold: 62 + 5 = 67
# (rank 1 entered at 30 + 5 = 35).  The third: rank 1 at 67 + 2 = 69,
# rank 0 last at 67 + 7 = 74, 7 us after its last collective: warm,
# 75.
expect_exit 0 "collectives, cold, half way and warm" -- trc-scale -c "$tmp/x.fit" "$tmp/x.trc"
is "$(at_us 'XB XE' %.0f)" \
    "0 XB 25 1 XB 27 0 XE 30 1 XE 30 1 XB 35 0 XB 62 0 XE 67 1 XE 67 1 XB 69 0 XB 74 0 XE 75 1 XE 75 " \
    "the last participant's computation decides"
# With the base's fits, allreduce 1 us and allreduce-cold 3 us: each
# allreduce took 2 us on the base from its last entry, half way, so
# the cold ones cost half way on the target too, 3 us, the receive or
# not: the first ends at 27 + 3 = 30, the second at 62 + 3 = 65, the
# third, warm, at 65 + 7 + 1 = 73.
printf 'allreduce 0 inf 1e-6 0\nallreduce-cold 0 inf 3e-6 0\n' >"$tmp/xb.fit"
expect_exit 0 "collectives, as cold as on the base" -- trc-scale -b "$tmp/xb.fit" -c "$tmp/x.fit" "$tmp/x.trc"
is "$(at_us 'XB XE' %.0f)" \
    "0 XB 25 1 XB 27 0 XE 30 1 XE 30 1 XB 35 0 XB 62 0 XE 65 1 XE 65 1 XB 67 0 XB 72 0 XE 73 1 XE 73 " \
    "the base's recorded time places the cost between the target's fits"
grep -v cold "$tmp/x.fit" >"$tmp/xw.fit"
expect_exit 0 "no allreduce-cold row" -- trc-scale -c "$tmp/xw.fit" "$tmp/x.trc"
is "$(awk '!/^#/ && $3 == "XE" { printf "%.0f ", $1 * 1e6 }' "$out")" "28 28 61 61 69 69 " \
    "  warm: 1 us each (the third: rank 0 last at 61 + 7)"
# How cold a rank's calls run, the base run measured: each call of its
# own length after 20 us of computation (an eager send, a receive of a
# message sent before it began) placed between the base's warm and cold
# fits, and the rank's later cold calls costed as far between the
# target's.  Base: send 1 us, send-cold 5, recv-late 1, recv-late-cold
# 5, 4096 bytes and up send-sync; target: send 2, send-cold 10,
# recv-late 2, recv-late-cold 10, all eager.
printf 'send 0 inf 1e-6 0\nsend-cold 0 inf 5e-6 0\nrecv-late 0 inf 1e-6 0\nrecv-late-cold 0 inf 5e-6 0\nsend-sync 4096 inf\n' >"$tmp/lb.fit"
printf 'send 0 inf 2e-6 0\nsend-cold 0 inf 10e-6 0\nrecv-late 0 inf 2e-6 0\nrecv-late-cold 0 inf 10e-6 0\n' >"$tmp/lt.fit"
cat >"$tmp/l.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000030000 0 SB peer=1 tag=1 bytes=8
0.000033000 0 SE peer=1 tag=1 bytes=8
0.000040000 1 RB peer=0 tag=1 bytes=8
0.000042000 1 RE peer=0 tag=1 bytes=8
0.000063000 0 SB peer=1 tag=2 bytes=4096
0.000075000 1 RB peer=0 tag=2 bytes=4096
0.000080000 0 SE peer=1 tag=2 bytes=4096
0.000080000 1 RE peer=0 tag=2 bytes=4096
X
# Rank 0's first send, eager on the base, took 3 us after 30 us of
# computation: (3 - 1) / (5 - 1) = 0.5 of the way, so rank 0's cold
# calls cost half way: f1 = 3 us, f2 = 6, the send 6 / 3 x 3 = 6 us, SE
# at 36.  Rank 1's first receive began at 40, after its message's send
# ended (33), 40 us after a call: cold, 2 us long, (2 - 1) / 4 = 0.25:
# RE at 40 + 2 + 0.25 x 8 = 44.  Rank 0's second send waited for its
# receiver on the base (send-sync), so it teaches nothing and costs the
# target's send half way, 6 us: SB at 36 + 30 = 66, SE 72.  Rank 1's
# second receive began before its message left (80): nothing learned;
# after 33 us, cold for rank 1, 4 us: RB at 44 + 33 = 77, RE 81.
expect_exit 0 "coldness measured on the base" -- trc-scale -b "$tmp/lb.fit" -c "$tmp/lt.fit" "$tmp/l.trc"
is "$(at_us 'SB SE RB RE' %.0f)" "0 SB 30 0 SE 36 1 RB 40 1 RE 44 0 SB 66 0 SE 72 1 RB 77 1 RE 81 " \
    "each rank's cold calls as cold as its calls ran on the base"
expect_exit 0 "  -v" -- trc-scale -v -b "$tmp/lb.fit" -c "$tmp/lt.fit" "$tmp/l.trc"
is "$(grep 'of the way from warm to cold' "$err")" \
    "trc-scale: calls after a computation ran 0.25 (rank 1) to 0.50 (rank 0) of the way from warm to cold on the base, mean 0.38 over 2 ranks, 2 calls measured" \
    "  -v says how cold each rank's calls ran"
# Without the base every cold call costs the cold fit: SE 30 + 10 = 40,
# RE 40 + 10 = 50, SB 70, SE 80, RB 83, RE 93.
expect_exit 0 "coldness unmeasured" -- trc-scale -c "$tmp/lt.fit" "$tmp/l.trc"
is "$(at_us 'SE RE' %.0f)" "0 SE 40 1 RE 50 0 SE 80 1 RE 93 " "  without the base: the cold fits"
# The loggp model the same way: o 1 us, oc 8 us, no latency, gap or
# bandwidth.  Rank 0's send at 30 + 1 + 0.5 x 8 = 35, its message there
# 1 us later; rank 1's receive at 40 + 1 + 0.25 x 8 = 43; the second
# send at 35 + 30 + 5 = 70, the second receive at 43 + 33 + 3 = 79.
printf 'L 0\no 1e-6\noc 8e-6\ng 0\nG 0\n' >"$tmp/l.loggp"
expect_exit 0 "loggp, coldness measured on the base" -- trc-scale -b "$tmp/lb.fit" --model loggp:"$tmp/l.loggp" "$tmp/l.trc"
is "$(at_us 'SE RE' %.0f)" "0 SE 35 1 RE 43 0 SE 70 1 RE 79 " "  loggp: o + the rank's part of oc"

# A collective its rank entered last straight from a computation
# measures the rank too (each participant's call weighs half on 2
# ranks): base allreduce 1 us, allreduce-cold 5; rank 1 enters last at
# 30 after 30 us, the allreduce ends 2 us later: 0.25.  Its send after
# 30 us more, send-sync on the base: 2 + 0.25 x 8 = 4 us on the target.
printf 'allreduce 0 inf 1e-6 0\nallreduce-cold 0 inf 5e-6 0\nsend 0 inf 1e-6 0\nsend-cold 0 inf 5e-6 0\nsend-sync 4096 inf\n' >"$tmp/cb.fit"
printf 'allreduce 0 inf 1e-6 0\nallreduce-cold 0 inf 5e-6 0\nsend 0 inf 2e-6 0\nsend-cold 0 inf 10e-6 0\n' >"$tmp/ct.fit"
cat >"$tmp/cl.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000010000 0 XB op=allreduce bytes=8
0.000030000 1 XB op=allreduce bytes=8
0.000032000 0 XE op=allreduce bytes=8
0.000032000 1 XE op=allreduce bytes=8
0.000062000 1 SB peer=0 tag=1 bytes=4096
0.000070000 0 RB peer=1 tag=1 bytes=4096
0.000072000 1 SE peer=0 tag=1 bytes=4096
0.000072000 0 RE peer=1 tag=1 bytes=4096
X
# The allreduce: 30 + 1 + 0.25 x 4 = 32; the send from 62 to 66.
expect_exit 0 "a collective measures its last participant" -- trc-scale -b "$tmp/cb.fit" -c "$tmp/ct.fit" "$tmp/cl.trc"
is "$(at_us 'XE SB SE' %.0f)" "0 XE 32 1 XE 32 1 SB 62 1 SE 66 " \
    "  the send as cold as the allreduce ran"
expect_exit 0 "  -v" -- trc-scale -v -b "$tmp/cb.fit" -c "$tmp/ct.fit" "$tmp/cl.trc"
is "$(grep 'of the way from warm to cold' "$err")" \
    "trc-scale: calls after a computation ran 0.25 (rank 1) to 0.25 (rank 1) of the way from warm to cold on the base, mean 0.25 over 1 rank, 1 call measured" \
    "  -v: the allreduce once, half for each of its participants' ends"
done_testing
