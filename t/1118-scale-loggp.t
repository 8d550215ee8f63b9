#!/bin/sh
# trc-scale --model loggp (trc-loggp(5)): point-to-point messages and
# every collective algorithm, each computed by hand from the formulas
# of trc-scale(1); what-if sweeps of latency and bandwidth move the
# prediction one way; errors.
. "$(dirname "$0")/lib.sh"

# t(b), one message: L + 2o + G b = 1.2 us + 1 ns per byte.
printf '# a network\nL 1e-6\no 1e-7  # each end\nG 1e-9\neager 4096\n' >"$tmp/p.loggp"
printf 'L 1e-6\no 1e-7\nG 1e-9\n' >"$tmp/c.loggp"

# ev FILE RANK KIND: the predicted times of RANK's KIND events.
ev() { awk -v r="$2" -v k="$3" '$2 == r && $3 == k { printf "%s ", $1 }' "$1"; }

# 1. Eager, the receiver waiting: SE at o = 0.1 us, RE at o + L + G b
# + o = 0.1 + 1 + 1 + 0.1 = 2.2 us (b = 1000).
cat >"$tmp/wait.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=1000
0.000000000 1 RB peer=0 tag=1 bytes=1000
0.000010000 0 SE peer=1 tag=1 bytes=1000
0.000020000 1 RE peer=0 tag=1 bytes=1000
0.000030000 0 MK
0.000030000 1 MK
X
expect_exit 0 "eager, receiver waiting" -- trc-scale --model loggp:"$tmp/p.loggp" "$tmp/wait.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 1 RE)" "0.000000100 0.000002200 " "  SE at o, RE at L + 2o + G b"
is "$(ev "$out" 0 MK)$(ev "$out" 1 MK)" "0.000020100 0.000012200 " "  computation after them as recorded"
# The receiver late (RB at 20 us): RE at RB + o = 20.1 us.
cat >"$tmp/late.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=1000
0.000000000 1 MK
0.000010000 0 SE peer=1 tag=1 bytes=1000
0.000020000 1 RB peer=0 tag=1 bytes=1000
0.000030000 1 RE peer=0 tag=1 bytes=1000
X
expect_exit 0 "eager, receiver late" -- trc-scale --model loggp:"$tmp/p.loggp" "$tmp/late.trc"
is "$(ev "$out" 1 RE)" "0.000020100 " "  RE at RB + o"

# 2. The gap: g = 5 us between two 8-byte sends.  The first leaves at
# 0.1, the second is called at 0.1 but leaves at 0.1 + 5 = 5.1 (a
# blocking send ends when it leaves), arriving 1 + 0.008 + 0.1 later.
cat >"$tmp/two.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 RB peer=0 tag=1 bytes=8
0.000010000 0 SE peer=1 tag=1 bytes=8
0.000010000 0 SB peer=1 tag=2 bytes=8
0.000020000 0 SE peer=1 tag=2 bytes=8
0.000020000 1 RE peer=0 tag=1 bytes=8
0.000020000 1 RB peer=0 tag=2 bytes=8
0.000030000 1 RE peer=0 tag=2 bytes=8
X
expect_exit 0 "gap" -- trc-scale --model loggp:"$tmp/p.loggp" --set g=5e-6 "$tmp/two.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 1 RE)" "0.000000100 0.000005100 0.000001208 0.000006208 " \
    "  the second send leaves g after the first"

# 3. Rendezvous (8192 bytes > eager 4096), the receiver waiting from 0:
# the request leaves at o = 0.1, is there at 1.1; the answer (o, L)
# and the sender's o: the data leaves at 1.1 + 1.2 = 2.3, the send
# ends when it has left, 2.3 + 8.192 = 10.492; RE at 2.3 + L + G b + o
# = 11.592 us.
sed 's/bytes=1000/bytes=8192/' "$tmp/wait.trc" >"$tmp/rdv.trc"
expect_exit 0 "rendezvous, receiver waiting" -- trc-scale -v --model loggp:"$tmp/p.loggp" "$tmp/rdv.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 1 RE)" "0.000010492 0.000011592 " "  SE at 10.492 us, RE at 11.592 us"
is "$(grep waited "$err")" \
    "trc-scale: 1 sends waited for their receiver, total delay 0.000010392 s, 0 let go from a receiver held elsewhere, 0 of them exchanges" \
    "  -v: the send waited 10.492 - 0.1 us"
# R = 5 us more for the handshake.
expect_exit 0 "rendezvous cost" -- trc-scale --model loggp:"$tmp/p.loggp" --set R=5e-6 "$tmp/rdv.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 1 RE)" "0.000015492 0.000016592 " "  R adds to both"
# R = -(2L + 2o) = -2.2 us, a handover that costs nothing: the data
# leaves at 1.1 + 1.2 - 2.2 = 0.1, as if eager, the send ends at 8.292,
# the receive at 0.1 + 1 + 8.192 + 0.1 = 9.392.
expect_exit 0 "free handover" -- trc-scale --model loggp:"$tmp/p.loggp" --set R=-2.2e-6 "$tmp/rdv.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 1 RE)" "0.000008292 0.000009392 " "  R = -(2L + 2o): as eager"
expect_exit 2 "R below -(2L + 2o)" -- trc-scale --model loggp:"$tmp/p.loggp" --set R=-3e-6 "$tmp/rdv.trc"
is "$(cat "$err")" "trc-scale: R -3e-06 is below -(2L + 2o) = -2.2e-06" "  its message"
# The receiver late (RB at 20): the data leaves at 20 + 1.2 = 21.2, the
# send ends at 29.392, the receive at 30.492.
sed 's/bytes=1000/bytes=8192/' "$tmp/late.trc" >"$tmp/rdvlate.trc"
expect_exit 0 "rendezvous, receiver late" -- trc-scale --model loggp:"$tmp/p.loggp" "$tmp/rdvlate.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 1 RE)" "0.000029392 0.000030492 " "  the send waits for the receiver"
# With the free handover: the data "leaves" at 20 + 1.2 - 2.2 = 19, the
# send ends at 27.192, the receive at 28.292.
expect_exit 0 "free handover, receiver late" -- trc-scale --model loggp:"$tmp/p.loggp" --set R=-2.2e-6 "$tmp/rdvlate.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 1 RE)" "0.000027192 0.000028292 " "  the receive ends at RB + G b + o, as if it copied the data itself"
# Nonblocking on both sides: the Isend ends at o, its wait o later;
# the receive, ready from its wait at 0, as in the first case: 11.592,
# its wait o later.
cat >"$tmp/nb.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8192 req=1
0.000000000 1 RB peer=0 tag=1 bytes=8192 req=1
0.000000000 1 WB req=1 op=wait
0.000001000 0 SE peer=1 tag=1 bytes=8192 req=1
0.000001000 0 WB req=1 op=wait
0.000020000 1 RE peer=0 tag=1 bytes=8192 req=1
0.000020000 1 WE req=1 op=wait
0.000030000 0 WE req=1 op=wait
X
expect_exit 0 "rendezvous, nonblocking" -- trc-scale --model loggp:"$tmp/p.loggp" "$tmp/nb.trc"
is "$(ev "$out" 0 SE)$(ev "$out" 0 WE)$(ev "$out" 1 RE)$(ev "$out" 1 WE)" \
    "0.000000100 0.000000200 0.000011592 0.000011692 " "  Isend and wait at o each, the receive as blocking"

# 4. Hops: H = 1 us a hop on a ring of 4 nodes.  Rank 0 to rank 2, two
# hops: RE at 2.2 + 2 = 4.2 us.  With 2 ranks a node, ranks 0 and 2 are
# one hop apart (3.2 us), ranks 0 and 1 none (2.2 us).
cat >"$tmp/hop.trc" <<'X'
#trc 1 ranks=4
0.000000000 0 SB peer=2 tag=1 bytes=1000
0.000000000 2 RB peer=0 tag=1 bytes=1000
0.000010000 0 SE peer=2 tag=1 bytes=1000
0.000020000 2 RE peer=0 tag=1 bytes=1000
X
expect_exit 0 "two hops" -- trc-scale --model loggp:"$tmp/p.loggp" --set H=1e-6,torus=4 "$tmp/hop.trc"
is "$(ev "$out" 2 RE)" "0.000004200 " "  L + 2 H"
expect_exit 0 "ppn=2" -- trc-scale --model loggp:"$tmp/p.loggp" --set H=1e-6,torus=4,ppn=2 "$tmp/hop.trc"
is "$(ev "$out" 2 RE)" "0.000003200 " "  one hop between nodes"
sed 's/ranks=2/ranks=4/' "$tmp/wait.trc" >"$tmp/node.trc"
expect_exit 0 "same node" -- trc-scale --model loggp:"$tmp/p.loggp" --set H=1e-6,torus=4,ppn=2 "$tmp/node.trc"
is "$(ev "$out" 1 RE)" "0.000002200 " "  no hop on a node"

# 4b. Contention: ranks 0 and 1 send 1000 bytes each to rank 2 at 0
# (G b = 1 us).  Without it both arrive at o + L + G b + o = 2.2 us:
# rank 2's receives end at 2.2 and 2.3 (RB + o).  With it, one node a
# rank, rank 2's link takes the first from 1.1 to 2.1 and the second
# from 2.1 to 3.1: it arrives at 3.2.  With 2 ranks a node, ranks 0
# and 1 share their node's outgoing link: the second leaves at 1.1
# (its send ends then), is in at 2.1 + 1 = 3.1, and arrives at 3.2.
# With 3 ranks a node nothing takes a link: as without.
cat >"$tmp/cont.trc" <<'X'
#trc 1 ranks=3
0.000000000 2 RB peer=0 tag=1 bytes=1000
0.000000000 0 SB peer=2 tag=1 bytes=1000
0.000000000 1 SB peer=2 tag=1 bytes=1000
0.000001000 0 SE peer=2 tag=1 bytes=1000
0.000002000 1 SE peer=2 tag=1 bytes=1000
0.000003000 2 RE peer=0 tag=1 bytes=1000
0.000003000 2 RB peer=1 tag=1 bytes=1000
0.000004000 2 RE peer=1 tag=1 bytes=1000
X
cont() { trc-scale --model loggp:"$tmp/p.loggp" "$@" "$tmp/cont.trc" >"$tmp/cont.out" &&
	awk '$3 == "SE" || $3 == "RE" { printf "%s%s %s ", $3, $2, $1 }' "$tmp/cont.out"; }
is "$(cont)" "SE0 0.000000100 SE1 0.000000100 RE2 0.000002200 RE2 0.000002300 " "no contention: both arrive at 2.2 us"
is "$(cont --set contention=off)" "SE0 0.000000100 SE1 0.000000100 RE2 0.000002200 RE2 0.000002300 " "  contention=off the same"
is "$(cont --set contention=on)" "SE0 0.000000100 SE1 0.000000100 RE2 0.000002200 RE2 0.000003200 " \
    "contention: the second waits for rank 2's incoming link, arrives at 3.2 us"
is "$(cont --set contention=on,ppn=2)" "SE0 0.000000100 SE1 0.000001100 RE2 0.000002200 RE2 0.000003200 " \
    "  2 ranks a node: the second leaves when the outgoing link is free, 1.1 us"
is "$(cont --set contention=on,ppn=3)" "SE0 0.000000100 SE1 0.000000100 RE2 0.000002200 RE2 0.000002300 " \
    "  one node: no link taken"
expect_exit 2 "contention neither on nor off" -- trc-scale --model loggp:"$tmp/p.loggp" --set contention=1 "$tmp/cont.trc"
is "$(cat "$err")" "trc-scale: --set: invalid value '1' for 'contention'" "  its message"

# 5. Collectives: P ranks enter at 0 and leave at 1 s; each leaves at
# the predicted cost (no eager limit, t(b) = 1.2 us + 1 ns b).
coll() {
	awk -v op="$1" -v p="$2" -v b="$3" 'BEGIN { print "#trc 1 ranks=" p
		for (r = 0; r < p; r++) printf "0.000000000 %d XB op=%s bytes=%d\n", r, op, b
		for (r = 0; r < p; r++) printf "1.000000000 %d XE op=%s bytes=%d\n", r, op, b }' >"$tmp/c.trc"
	shift 3
	trc-scale --model loggp:"$tmp/c.loggp" "$@" "$tmp/c.trc" | awk '$3 == "XE" { print $1 }' | sort -u | tr '\n' ' '
}
# binomial bcast, 8 ranks: 3 rounds of t(1000) = 3 * 2.2 us
is "$(coll bcast 8 1000)" "0.000006600 " "bcast, binomial: 3 rounds of L + 2o + G b"
# scatter + ring allgather, 16 ranks, 2 MiB: t(m/2) + t(m/4) + t(m/8) +
# t(m/16) + 15 t(m/16) = 4.8 us + 1966.08 us + 18 us + 1966.08 us
is "$(coll bcast 16 2097152)" "0.003954960 " "bcast, scatter + allgather for 2 MiB on 16 ranks"
# binomial reduce, 8 ranks, gamma = 0.1 ns/byte: 3 (2.2 + 0.1) us
is "$(coll reduce 8 1000 --set gamma=1e-10)" "0.000006900 " "reduce, binomial with the reduction's cost"
# recursive doubling allreduce: 8 ranks, 3 rounds; 6 ranks, 2 rounds
# among 4 and 2 to fold and unfold the other 2
is "$(coll allreduce 8 1000)" "0.000006600 " "allreduce, recursive doubling, 8 ranks"
is "$(coll allreduce 6 1000)" "0.000008800 " "allreduce, recursive doubling, 6 ranks: 4 rounds"
# ring: 2 ranks, 20000 bytes: 2 rounds of t(10000) = 2 * 11.2 us.  The
# rule's ring for tiny counts (40 ranks, 64
# bytes: 16 elements of 4 bytes, fewer than the ranks) is Open MPI's
# recursive doubling: 5 rounds among 32 and 2 to fold and unfold the
# other 8, 7 t(64) = 7 * 1.264 us; 2 ranks and one 4-byte element
# (the heat's allreduce): one round, t(4) = 1.204 us
is "$(coll allreduce 2 20000)" "0.000022400 " "allreduce, ring, 2 ranks"
is "$(coll allreduce 40 64)" "0.000008848 " "allreduce, 64 bytes on 40 ranks: the ring's recursive doubling"
is "$(coll allreduce 2 4)" "0.000001204 " "allreduce, one element on 2 ranks: one round"
# Rabenseifner, 1 MiB: 8 ranks, 2 (t(m/2) + t(m/4) + t(m/8)) = 2 (3.6 +
# 917.504) us; 6 ranks, 2 (t(m/2) + t(m/4)) + 2 t(m) = 2 (2.4 + 786.432)
# + 2 (1.2 + 1048.576) us
is "$(coll allreduce 8 1048576)" "0.001842208 " "allreduce, Rabenseifner, 8 ranks"
is "$(coll allreduce 6 1048576)" "0.003677216 " "allreduce, Rabenseifner, 6 ranks"
# reduce then bcast, 200 ranks, 1000 bytes: 2 * 8 rounds of 2.2 us
is "$(coll allreduce 200 1000)" "0.000035200 " "allreduce, reduce + bcast, 200 ranks"
# allgather of 100 bytes a rank: 8 ranks, t(100) + t(200) + t(400) =
# 3.6 + 0.7 us; 6 ranks (Bruck), t(100) + t(200) + t(200) = 3.6 + 0.5 us
is "$(coll allgather 8 100)" "0.000004300 " "allgather, recursive doubling"
is "$(coll allgather 6 100)" "0.000004100 " "allgather, Bruck"
# ring allgather, 8 ranks of 10000 bytes: 7 t(10000) = 7 * 11.2 us
is "$(coll allgather 8 10000)" "0.000078400 " "allgather, ring"
# pairwise alltoall, 8 ranks: 7 t(1000); Bruck, 16 ranks of 100 bytes:
# 4 t(800) = 4 * 2 us
is "$(coll alltoall 8 1000)" "0.000015400 " "alltoall, pairwise"
is "$(coll alltoall 16 100)" "0.000008000 " "alltoall, Bruck"
# barrier: ceil(log2 p) rounds of t(0)
is "$(coll barrier 8 0)" "0.000003600 " "barrier, 8 ranks"
is "$(coll barrier 5 0)" "0.000003600 " "barrier, 5 ranks"
# binomial gather and scatter, blocks doubling: t(1000) + t(2000) +
# t(4000) = 3.6 + 7 us
is "$(coll gather 8 1000)" "0.000010600 " "gather, binomial"
is "$(coll scatterv 8 1000)" "0.000010600 " "scatterv, as scatter"
is "$(coll scan 8 1000)" "1.000000000 " "an operation not modelled keeps its recorded time"
# The cost grows with the ranks.
is "$(coll bcast 2 1000)$(coll bcast 64 1000)$(coll bcast 1024 1000)" \
    "0.000002200 0.000013200 0.000022000 " "bcast: 1, 6 and 10 rounds"

# A fit's collective, measured on 2 ranks, grows the same way: with
# recv as its message, t(b) = 1 us + 1 ns b, a bcast of 10 us on 2
# ranks (one round) takes 3 rounds on 8; an allreduce of 1 MiB, 1 ms on
# 2 ranks (Rabenseifner, 2 t(m/2) = 1050.576 us), on 8 takes
# 2 (t(m/2) + t(m/4) + t(m/8)) = 1841.008 us of it: 1.7523796 ms.
printf 'recv 0 inf 1e-6 1e-9\nbcast 0 inf 1e-5 0\nallreduce 0 inf 1e-3 0\n' >"$tmp/c.fit"
fcoll() {
	coll "$@" >/dev/null
	trc-scale -c "$tmp/c.fit" "$tmp/c.trc" | awk '$3 == "XE" { print $1 }' | sort -u | tr '\n' ' '
}
is "$(fcoll bcast 2 1000)$(fcoll bcast 8 1000)" "0.000010000 0.000030000 " "fit: bcast as fitted on 2 ranks, 3 times on 8"
is "$(fcoll allreduce 8 1048576)" "0.001752380 " "fit: allreduce scaled by Rabenseifner on 8 against 2"

# Cold: the ranks compute from 0 to AT before the collective; from
# 20 us on, the last one in comes cold.  loggp adds oc once; a fit
# costs its cold row (allreduce-cold), scaled to the ranks as the warm
# one, or the warm one where it has none (bcast).
ccoll() {
	awk -v op="$1" -v p="$2" -v b="$3" -v at="$4" 'BEGIN { print "#trc 1 ranks=" p
		for (r = 0; r < p; r++) printf "0.000000000 %d MK\n", r
		for (r = 0; r < p; r++) printf "%s %d XB op=%s bytes=%d\n", at, r, op, b
		for (r = 0; r < p; r++) printf "1.000000000 %d XE op=%s bytes=%d\n", r, op, b }' >"$tmp/c.trc"
	shift 4
	trc-scale "$@" "$tmp/c.trc" | awk '$3 == "XE" { print $1 }' | sort -u | tr '\n' ' '
}
# bcast on 8 ranks, 6.6 us, after 30 us: + 5 us of oc; after 10 us, warm
is "$(ccoll bcast 8 1000 0.000030000 --model loggp:"$tmp/c.loggp" --set oc=5e-6)" "0.000041600 " \
    "loggp: a collective after 30 us of computation costs oc more"
is "$(ccoll bcast 8 1000 0.000010000 --model loggp:"$tmp/c.loggp" --set oc=5e-6)" "0.000016600 " \
    "  after 10 us, not"
printf 'allreduce-cold 0 inf 2e-3 0\n' >>"$tmp/c.fit"
# 2 ms on 2 ranks, on 8 2 ms x 1841.008 / 1050.576 = 3504.7592 us
is "$(ccoll allreduce 8 1048576 0.000030000 -c "$tmp/c.fit")" "0.003534759 " \
    "fit: a cold allreduce costs allreduce-cold, scaled to 8 ranks"
is "$(ccoll allreduce 8 1048576 0.000010000 -c "$tmp/c.fit")" "0.001762380 " \
    "  after 10 us, allreduce"
is "$(ccoll bcast 8 1000 0.000030000 -c "$tmp/c.fit")" "0.000060000 " \
    "  without a bcast-cold row, bcast"

# 6. What-if sweeps on generated programs: latency x0.1 .. x100 and
# bandwidth x0.1 .. x10 (G x10 .. x0.1) move the predicted end of the
# run one way only.
printf 'L 2e-6\no 5e-7\ng 1e-6\nG 2e-10\neager 65536\n' >"$tmp/w.loggp"
# end FILE: the latest predicted time
end() { awk '!/^#/ && $1 > m { m = $1 } END { print m }' "$1"; }
# sweep NAME TRACE V1 V2 ...: the ends, one a line
sweep() {
	n=$1 f=$2
	shift 2
	for v in "$@"; do
		trc-scale --model loggp:"$tmp/w.loggp" --set "$n=$v" "$f" >"$tmp/s.out" || echo fail
		end "$tmp/s.out"
	done
}
# up FILE: 1 when its numbers never decrease and the last exceeds the first
up() { awk 'NR > 1 && $1 < p { bad = 1 } { if (NR == 1) f = $1; p = $1 } END { print (!bad && p > f) }' "$1"; }
for pat in halo allreduce master-worker ring; do
	trc-gen -p $pat -n 8 -e 20000 --bytes 4096 -s 7 >"$tmp/g.trc"
	sweep L "$tmp/g.trc" 2e-7 6e-7 2e-6 6e-6 2e-5 6e-5 2e-4 >"$tmp/lat"
	is "$(up "$tmp/lat")" 1 "$pat: latency x0.1 .. x100, the end never earlier"
	sweep G "$tmp/g.trc" 2e-11 6e-11 2e-10 6e-10 2e-9 >"$tmp/bw"
	is "$(up "$tmp/bw")" 1 "$pat: bandwidth x10 .. x0.1, the end never earlier"
done

# With contention, 2 ranks a node: the links only add waits, which
# grow with latency and the bytes' time.
printf 'L 2e-6\no 5e-7\ng 1e-6\nG 2e-10\neager 65536\nppn 2\ncontention on\n' >"$tmp/w.loggp"
for pat in halo master-worker; do
	trc-gen -p $pat -n 8 -e 20000 --bytes 4096 -s 7 >"$tmp/g.trc"
	sweep L "$tmp/g.trc" 2e-7 6e-7 2e-6 6e-6 2e-5 6e-5 2e-4 >"$tmp/lat"
	is "$(up "$tmp/lat")" 1 "$pat with contention: latency x0.1 .. x100, the end never earlier"
	sweep G "$tmp/g.trc" 2e-11 6e-11 2e-10 6e-10 2e-9 >"$tmp/bw"
	is "$(up "$tmp/bw")" 1 "$pat with contention: bandwidth x10 .. x0.1, the end never earlier"
done
# The bundled heat run (2 ranks, an eager halo and an allreduce a step)
# on a network like the host's TCP, swept the same way.
ex=$T/../benchmarks/example
printf 'L 1.5e-5\no 5e-6\nG 2e-10\neager 65535\n' >"$tmp/w.loggp"
hsweep() {
	n=$1
	shift
	for v in "$@"; do
		trc-scale --cpu "$ex/ratios.tbl" -b "$ex/base.fit" --model loggp:"$tmp/w.loggp" \
		    --set "$n=$v" "$ex/heat-base.trc" >"$tmp/s.out" || echo fail
		end "$tmp/s.out"
	done
}
hsweep L 1.5e-6 4.5e-6 1.5e-5 4.5e-5 1.5e-4 4.5e-4 1.5e-3 >"$tmp/lat"
is "$(up "$tmp/lat")" 1 "heat example: latency x0.1 .. x100, the end never earlier"
hsweep G 2e-11 6e-11 2e-10 6e-10 2e-9 >"$tmp/bw"
is "$(up "$tmp/bw")" 1 "heat example: bandwidth x10 .. x0.1, the end never earlier"

# 7. fit:FILE is -c FILE.
trc-scale --cpu "$ex/ratios.tbl" -b "$ex/base.fit" -c "$ex/target.fit" "$ex/heat-base.trc" >"$tmp/c.out"
expect_exit 0 "--model fit:FILE" -- trc-scale --cpu "$ex/ratios.tbl" -b "$ex/base.fit" --model fit:"$ex/target.fit" "$ex/heat-base.trc"
is_file "$out" "$tmp/c.out" "  the same prediction as -c"
expect_exit 0 "the example with loggp" -- trc-scale --cpu "$ex/ratios.tbl" -b "$ex/base.fit" --model loggp:"$tmp/w.loggp" "$ex/heat-base.trc"
is "$(cat "$err")" "" "  no warnings"

# 8. Errors.
expect_exit 2 "missing file" -- trc-scale --model loggp:"$tmp/nonesuch" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/nonesuch: No such file or directory" "  its message"
printf 'L 1e-6\no 1e-7\n' >"$tmp/bad"
expect_exit 2 "missing parameter" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad: missing parameter 'G'" "  its message"
printf 'L 1e-6\no 1e-7x\nG 0\n' >"$tmp/bad"
expect_exit 2 "bad number" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad:2: invalid value '1e-7x' for 'o'" "  its message"
printf 'L -1e-6\n' >"$tmp/bad"
expect_exit 2 "negative" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad:1: invalid value '-1e-6' for 'L'" "  its message"
printf 'L 1e-6\nQ 1\n' >"$tmp/bad"
expect_exit 2 "unknown parameter" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad:2: unknown parameter 'Q'" "  its message"
printf 'L 1e-6\nL 2e-6\n' >"$tmp/bad"
expect_exit 2 "twice" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad:2: 'L' given twice" "  its message"
printf 'L 1e-6 2e-6\n' >"$tmp/bad"
expect_exit 2 "three fields" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad:1: expected NAME VALUE, found 3 fields" "  its message"
printf 'L 1e-6\no 0\nG 0\ntorus 4x0\n' >"$tmp/bad"
expect_exit 2 "bad torus" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad:4: invalid value '4x0' for 'torus'" "  its message"
printf 'L 1e-6\no 0\nG 0\neager 1.5\n' >"$tmp/bad"
expect_exit 2 "bad eager limit" -- trc-scale --model loggp:"$tmp/bad" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad:4: invalid value '1.5' for 'eager'" "  its message"
expect_exit 2 "--set unknown" -- trc-scale --model loggp:"$tmp/p.loggp" --set L=1,Q=2 "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: --set: unknown parameter 'Q'" "  its message"
expect_exit 2 "--set without =" -- trc-scale --model loggp:"$tmp/p.loggp" --set L "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: --set: expected NAME=VALUE, found 'L'" "  its message"
expect_exit 2 "--set bad value" -- trc-scale --model loggp:"$tmp/p.loggp" --set G=fast "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: --set: invalid value 'fast' for 'G'" "  its message"
expect_exit 2 "--set on a fit" -- trc-scale -c "$ex/target.fit" --set L=1 "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: model 'fit' has no parameters to set" "  its message"
expect_exit 2 "loggp without a file" -- trc-scale --model loggp "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: model 'loggp' needs a file: loggp:FILE" "  its message"
expect_exit 2 "unknown model" -- trc-scale --model logp:"$tmp/p.loggp" "$tmp/wait.trc"
is "$(cat "$err")" "trc-scale: unknown model 'logp'" "  its message"
expect_exit 2 "-c and --model" -- trc-scale -c "$ex/target.fit" --model loggp:"$tmp/p.loggp" "$tmp/wait.trc"
is "$(cat "$err")" "$(trc-scale --help | head -1)" "  usage"

done_testing
