#!/bin/sh
# trc-scale: nonblocking sends and receives completed by waits, and
# collectives.  Expected times computed by hand.
. "$(dirname "$0")/lib.sh"

# Rank 0: Isend (SB/SE req=1), computes 1 s, waits for it.
# Rank 1: Irecv (a point RB req=1), computes 2 s, waits: the RE req=1
# inside the wait completes the receive.
cat >"$tmp/nb.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=5 bytes=100 req=1
0.000000000 1 RB peer=0 tag=5 bytes=100 req=1
0.100000000 0 SE peer=1 tag=5 bytes=100 req=1
0.100000000 0 PB fn=work
1.100000000 0 PE fn=work
1.100000000 0 WB req=1 op=wait
1.200000000 0 WE req=1 op=wait
2.000000000 1 WB req=1 op=wait
2.500000000 1 RE req=1 peer=0 tag=5 bytes=100
2.600000000 1 WE req=1 op=wait
X
# K = 0.5, f2 = 0.05 s, g2 = 0.2 s.
# rank 0: SB 0, SE 0 + f2 = 0.05, PB 0.05, PE 0.55, WB 0.55, WE 0.65
#   (a wait on a send keeps its 0.1 s)
# rank 1: RB 0, WB 0 + 2 * 0.5 = 1.0, RE max(1.0 + 0.2, 0.05) = 1.2,
#   WE 1.2 + 0.1 = 1.3
printf 'send 0 inf 0.05 0\nrecv 0 inf 0.2 0\n' >"$tmp/t.fit"
cat >"$tmp/nb.want" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 SB peer=1 tag=5 bytes=100 req=1 t0=0.000000000
0.000000000 1 RB peer=0 tag=5 bytes=100 req=1 t0=0.000000000
0.050000000 0 SE peer=1 tag=5 bytes=100 req=1 t0=0.100000000
0.050000000 0 PB fn=work t0=0.100000000
0.550000000 0 PE fn=work t0=1.100000000
0.550000000 0 WB req=1 op=wait t0=1.100000000
0.650000000 0 WE req=1 op=wait t0=1.200000000
1.000000000 1 WB req=1 op=wait t0=2.000000000
1.200000000 1 RE req=1 peer=0 tag=5 bytes=100 t0=2.500000000
1.300000000 1 WE req=1 op=wait t0=2.600000000
X
expect_exit 0 "isend, irecv, waits" -- trc-scale --cpu-ratio 0.5 -c "$tmp/t.fit" "$tmp/nb.trc"
is_file "$out" "$tmp/nb.want" "nonblocking: RE inside the wait follows the receive rule"

# An isend row in the fit is preferred for nonblocking sends.
printf 'send 0 inf 0.05 0\nisend 0 inf 0.02 0\nrecv 0 inf 0.2 0\n' >"$tmp/i.fit"
trc-scale --cpu-ratio 0.5 -c "$tmp/i.fit" "$tmp/nb.trc" >"$out"
is "$(sed -n 4p "$out")" "0.020000000 0 SE peer=1 tag=5 bytes=100 req=1 t0=0.100000000" "isend cost for SB/SE with req="

# Causality inside a wait: the send ends late (rank 0 computes 3 s
# first), so the RE in rank 1's waitall is delayed to the send's end,
# and the second receive of the waitall, from rank 2, comes after it
# (its req= list in the order of the REs, as trc(5) wants).
cat >"$tmp/w.trc" <<'X'
#trc 1 ranks=3
0.000000000 1 RB peer=0 tag=1 bytes=8 req=1
0.000000000 1 RB peer=2 tag=1 bytes=8 req=2
0.000000000 2 SB peer=1 tag=1 bytes=8
0.100000000 2 SE peer=1 tag=1 bytes=8
0.500000000 1 WB req=2,1 op=waitall
0.600000000 1 RE req=2 peer=2 tag=1 bytes=8
0.700000000 0 MK
3.700000000 0 SB peer=1 tag=1 bytes=8
3.800000000 0 SE peer=1 tag=1 bytes=8
3.900000000 1 RE req=1 peer=0 tag=1 bytes=8
4.000000000 1 WE req=2,1 op=waitall
X
# No ratio, f2 = g2 = 0.1 s:
# rank 2: SB 0, SE 0.1.  rank 0: MK 0.7, SB 3.7, SE 3.8.
# rank 1: WB 0.5, RE(req 2) max(0.5 + 0.1, 0.1) = 0.6,
#   RE(req 1) max(0.6 + 0.1, 3.8) = 3.8, WE 3.8 + 0.1 = 3.9
printf 'send 0 inf 0.1 0\nrecv 0 inf 0.1 0\n' >"$tmp/w.fit"
expect_exit 0 "waitall" -- trc-scale -v -c "$tmp/w.fit" "$tmp/w.trc"
is "$(awk '$2 == 1 && NR > 1 { print $1, $3 }' "$out" | tr '\n' ' ')" \
    "0.000000000 RB 0.000000000 RB 0.500000000 WB 0.600000000 RE 3.800000000 RE 3.900000000 WE " \
    "waitall: the late receive waits for its send, the rest of the rank shifts"
is "$(grep 'repaired, total' "$err")" \
    "trc-scale: 11 events, 1 receive completions repaired, total delay 3.100000000 s" \
    "-v: one repair of 3.8 - 0.7 s"

# Collectives: three ranks enter an allreduce at 1.0, 2.0 and 2.5 s.
cat >"$tmp/c.trc" <<'X'
#trc 1 ranks=3
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
1.000000000 0 XB op=allreduce bytes=8 comm=0
2.000000000 1 XB op=allreduce bytes=8 comm=0
2.500000000 2 XB op=allreduce bytes=8 comm=0
3.000000000 0 XE op=allreduce bytes=8 comm=0
3.000000000 1 XE op=allreduce bytes=8 comm=0
3.100000000 2 XE op=allreduce bytes=8 comm=0
X
# K = 0.5: predicted begins 0.5, 1.0, 1.25; with a target cost of
# 0.1 s, measured on 2 ranks, all complete at 1.25 + 0.1 * 3 = 1.55:
# an allreduce of 8 bytes is recursive doubling, 1 round on 2 ranks,
# on 3 one round and two to fold the third rank in and out.
printf 'allreduce 0 inf 0.1 0\n' >"$tmp/ar.fit"
expect_exit 0 "allreduce with a cost" -- trc-scale --cpu-ratio 0.5 -c "$tmp/ar.fit" "$tmp/c.trc"
is "$(awk '$3 == "XE" { print $1, $2 }' "$out" | tr '\n' ' ')" \
    "1.550000000 0 1.550000000 1 1.550000000 2 " "collective ends at max begin + target cost, scaled to 3 ranks"
# Without a cost for the operation: each rank keeps the time it spent
# after the last participant entered: 1.25 + 0.5, 1.25 + 0.5, 1.25 + 0.6
expect_exit 0 "allreduce without a cost" -- trc-scale --cpu-ratio 0.5 "$tmp/c.trc"
is "$(awk '$3 == "XE" { print $1, $2 }' "$out" | tr '\n' ' ')" \
    "1.750000000 0 1.750000000 1 1.850000000 2 " "no cost: time after the last entry is kept"
# The identity: no ratio, no cost, times unchanged.
trc-scale "$tmp/c.trc" | awk 'NR > 1 { print $1 }' >"$tmp/id"
sed 1d "$tmp/c.trc" | awk '{ print $1 }' >"$tmp/orig"
is_file "$tmp/id" "$tmp/orig" "collectives: identity without ratio or cost"

# A sub-communicator needs size=; XE of one rank before the XB of
# another in the input (skew) is held until all have entered.
cat >"$tmp/sub.trc" <<'X'
#trc 1 ranks=3
0.000000000 0 XB op=bcast bytes=64 root=0 comm=3 size=2
0.100000000 0 XE op=bcast bytes=64 root=0 comm=3 size=2
0.100000000 0 MK
0.500000000 2 XB op=bcast bytes=64 root=0 comm=3 size=2
0.600000000 2 XE op=bcast bytes=64 root=0 comm=3 size=2
X
printf 'bcast 0 1024 0.01 0\nbcast 1024 inf 0.02 0\n' >"$tmp/bc.fit"
# begins 0 and 0.5: both end at 0.5 + 0.01; rank 0's MK follows at once
expect_exit 0 "bcast on comm 3" -- trc-scale -c "$tmp/bc.fit" "$tmp/sub.trc"
is "$(awk 'NR > 1 { print $1, $2, $3 }' "$out" | tr '\n' ' ')" \
    "0.000000000 0 XB 0.500000000 2 XB 0.510000000 0 XE 0.510000000 0 MK 0.510000000 2 XE " \
    "collective on a sub-communicator, held until complete"

# MPI_Sendrecv at the edge of a halo exchange, its other side
# MPI_PROC_NULL, as libtrc-mpi(7) writes it: a send that is a point
# (SB/SE req=1) and a wait on it alone that holds the whole send, 40 ms
# on the base.  With both fits the wait is scaled as the send would be,
# by f2/f1 = 2 ms / 10 ms: 8 ms (beyond f1 at most as recorded: no
# bound at 2 + 30 ms); rank 0 then computes its 10 ms.  Rank 1's
# receive ends at max(0 + g2, arrival at the send's end 0) = 1 ms.
cat >"$tmp/sr.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=1000 req=1 op=sendrecv
0.000000000 0 SE peer=1 tag=1 bytes=1000 req=1 op=sendrecv
0.000000000 0 WB req=1 op=sendrecv
0.000000000 1 RB peer=0 tag=1 bytes=1000 req=1 op=sendrecv
0.000000000 1 WB req=1 op=sendrecv
0.030000000 1 RE req=1 peer=0 tag=1 bytes=1000 op=sendrecv
0.030000000 1 WE req=1 op=sendrecv
0.040000000 0 WE req=1 op=sendrecv
0.050000000 0 MK
X
printf 'send 0 inf 0.010 0\nrecv 0 inf 0.010 0\n' >"$tmp/srb.fit"
printf 'send 0 inf 0.002 0\nrecv 0 inf 0.001 0\n' >"$tmp/srt.fit"
expect_exit 0 "sendrecv to one side, both fits" -- trc-scale -b "$tmp/srb.fit" -c "$tmp/srt.fit" "$tmp/sr.trc"
is "$(awk 'NR > 1 { print $1, $2, $3 }' "$out" | tr '\n' ' ')" \
    "0.000000000 0 SB 0.000000000 0 SE 0.000000000 0 WB 0.000000000 1 RB 0.000000000 1 WB 0.001000000 1 RE 0.001000000 1 WE 0.008000000 0 WE 0.018000000 0 MK " \
    "a wait on a send alone scaled by the send rows, f2/f1 of 40 ms = 8 ms"
# The target's fit alone: the send's point becomes f2 = 2 ms and the
# wait keeps its 40 ms, ending at 42 ms.
trc-scale -c "$tmp/srt.fit" "$tmp/sr.trc" >"$out"
is "$(awk '$2 == 0 && $3 == "WE" { print $1 }' "$out")" "0.042000000" \
    "without the base's fit, a wait on a send alone as recorded"

done_testing
