#!/bin/sh
# trc-bench on hand-made streams: the calls it writes, the computation
# times (computed by hand below), ratios, --deterministic, the
# communicator table, the size of a run of ten times the iterations,
# and every error.  Compiling the program needs mpicc; running it is
# t/4030-bench-mpi.t.
. "$(dirname "$0")/lib.sh"

# Two ranks, three iterations 4 ms apart (b = 0, 4, 8 ms): rank 0
# opens region work at b+1, closes it at b+3 and sends 4096 bytes,
# tag 7, to rank 1 from b+3 to b+3.1; rank 1 receives it from b+2 to
# b+3.1.  Both finish at 12.5 ms.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	print "0.000000000 0 MK mark=init"
	print "0.000000000 1 MK mark=init"
	for (i = 0; i < 3; i++) {
		b = 4 * i
		printf "%.9f 0 PB fn=work\n", (b + 1) / 1000
		printf "%.9f 1 RB peer=0 tag=7 bytes=4096\n", (b + 2) / 1000
		printf "%.9f 0 PE fn=work\n", (b + 3) / 1000
		printf "%.9f 0 SB peer=1 tag=7 bytes=4096\n", (b + 3) / 1000
		printf "%.9f 0 SE peer=1 tag=7 bytes=4096\n", (b + 3.1) / 1000
		printf "%.9f 1 RE peer=0 tag=7 bytes=4096\n", (b + 3.1) / 1000
	}
	print "0.012500000 0 MK mark=finalize"
	print "0.012500000 1 MK mark=finalize"
}' >"$tmp/ring.trc"

expect_exit 0 "a benchmark of the hand-made run" -- trc-bench "$tmp/ring.trc"
cp "$out" "$tmp/ring.c"
is "$(grep -c 'for (long i1 = 0; i1 < 3; i1++) {' "$tmp/ring.c")" 2 \
	"each rank's three iterations are one loop"
is "$(grep -c 'MPI_Pcontrol(1, "work");' "$tmp/ring.c")" 1 "the region's begin"
is "$(grep -c 'MPI_Pcontrol(-1, "work");' "$tmp/ring.c")" 1 "the region's end"
is "$(grep -c 'MPI_Send(sbuf, 4096, MPI_BYTE, bench_peer(0, me + 1), 7, comm\[0\]);' "$tmp/ring.c")" 1 \
	"the send: size, peer relative to the rank, tag, the world"
is "$(grep -c 'bench_recv(4096, bench_peer(0, me + 1), 7, 0);' "$tmp/ring.c")" 1 \
	"the receive"
is "$(grep -c '^#define BENCH_RANKS	2$' "$tmp/ring.c")" 1 "two ranks"
# Rank 0 computes before PB 1 ms, then 1.9 ms (from SE at b+3.1 to the
# next PB): not a progression, so the first and the line through the
# rest, flat (1.9 ms + 0 k);
# 2 ms in work each time; 1.4 ms before finalize.  Rank 1 2 ms before
# its first RB, then 2.9 ms; 1.4 ms before finalize.  Times are in ns.
is "$(grep -A1 'T0\[1\]\[3\]' "$tmp/ring.c" | tail -1)" \
	"	{ { 1000000, 1900000, 0, 0 }, { 2000000, 0, 1, 0 }, { 1400000, 0, 1, 0 } }," \
	"rank 0's computation times"
is "$(grep -A1 'T1\[1\]\[2\]' "$tmp/ring.c" | tail -1)" \
	"	{ { 2000000, 2900000, 0, 0 }, { 1400000, 0, 1, 0 } }," \
	"rank 1's computation times"

expect_exit 0 "--cpu-ratio 2" -- trc-bench --cpu-ratio 2 "$tmp/ring.trc"
is "$(grep -A1 'T0\[1\]\[3\]' "$out" | tail -1)" \
	"	{ { 2000000, 3800000, 0, 0 }, { 4000000, 0, 1, 0 }, { 2800000, 0, 1, 0 } }," \
	"--cpu-ratio 2 doubles every computation"
printf 'mode time\nwork all 3\n' >"$tmp/ratios.tbl"
expect_exit 0 "--cpu with a ratio table" -- trc-bench --cpu "$tmp/ratios.tbl" "$tmp/ring.trc"
is "$(grep -A1 'T0\[1\]\[3\]' "$out" | tail -1)" \
	"	{ { 1000000, 1900000, 0, 0 }, { 6000000, 0, 1, 0 }, { 1400000, 0, 1, 0 } }," \
	"--cpu: only the computation inside work is tripled"
printf 'mode speed\n.* 1 4\n' >"$tmp/speed.tbl"
expect_exit 0 "--cpu, a speed table for rank 1" -- trc-bench --cpu "$tmp/speed.tbl" "$tmp/ring.trc"
is "$(grep -A1 'T1\[1\]\[2\]' "$out" | tail -1)" \
	"	{ { 500000, 725000, 0, 0 }, { 350000, 0, 1, 0 } }," \
	"--cpu: rank 1 four times as fast"

# CPU times (trc-record --clock cpu): each event's cpu= is half its
# gap here, so rank 0's times are halved; --wall takes the gaps.
awk 'NR == 1 { print; print "#clock source=realtime origin=1.000000000 cpu=thread"; next }
	{ c = $1 - ($2 in t ? t[$2] : $1); t[$2] = $1
	  printf "%s cpu=%.9f\n", $0, c / 2 }' "$tmp/ring.trc" >"$tmp/cpu.trc"
expect_exit 0 "a trace with CPU times" -- trc-bench "$tmp/cpu.trc"
is "$(grep -A1 'T0\[1\]\[3\]' "$out" | tail -1)" \
	"	{ { 500000, 950000, 0, 0 }, { 1000000, 0, 1, 0 }, { 700000, 0, 1, 0 } }," \
	"CPU times: the cpu= of each computation"
is "$(grep -c '^#define BENCH_CPU	1$' "$out")" 1 "CPU times: spent on the CPU clock"
expect_exit 0 "--wall" -- trc-bench --wall "$tmp/cpu.trc"
is "$(grep -A1 'T0\[1\]\[3\]' "$out" | tail -1)" \
	"	{ { 1000000, 1900000, 0, 0 }, { 2000000, 0, 1, 0 }, { 1400000, 0, 1, 0 } }," \
	"--wall: the gaps"
is "$(grep -c '^#define BENCH_CPU	0$' "$out")" 1 "--wall: spent on the wall clock"

# A trend: rank 0 computes 1, 2, 4, 5 ms before its four sends, 0.1 ms
# each.  The first exactly, then the least-squares line a + b k through
# (1, 2), (2, 4), (3, 5) ms: sums of k 6, of k^2 14, of x 11, of k x 25;
# b = (3 * 25 - 6 * 11) / (3 * 14 - 6^2) = 1.5 ms, a = (11 - 1.5 * 6) / 3
# = 0.666667 ms (2.17 + 3.67 + 5.17 = 11 ms, the trace's).
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	print "0.000000000 0 MK mark=init"
	print "0.000000000 1 MK mark=init"
	split("1 2 4 5", g, " ")
	t = 0
	for (i = 1; i <= 4; i++) {
		t += g[i]
		printf "%.9f 1 RB peer=0 tag=3 bytes=8\n", (t - 0.5) / 1000
		printf "%.9f 0 SB peer=1 tag=3 bytes=8\n", t / 1000
		t += 0.1
		printf "%.9f 0 SE peer=1 tag=3 bytes=8\n", t / 1000
		printf "%.9f 1 RE peer=0 tag=3 bytes=8\n", t / 1000
	}
	printf "%.9f 0 MK mark=finalize\n", (t + 1) / 1000
	printf "%.9f 1 MK mark=finalize\n", (t + 1) / 1000
}' >"$tmp/trend.trc"
expect_exit 0 "a computation that grows" -- trc-bench "$tmp/trend.trc"
is "$(grep -c 'for (long i1 = 0; i1 < 4; i1++) {' "$out")" 2 "four sends, one loop"
is "$(grep -A1 'T0\[1\]\[2\]' "$out" | tail -1)" \
	"	{ { 1000000, 666667, 0, 1500000 }, { 1000000, 0, 1, 0 } }," \
	"the first, then the line through the others"

# The tracer's own time: rank 0 sends tags 1 to 4 after 1 ms, 2, 3 and
# 2.5 us, and finalizes 1 ms after the last send's end.  Its least
# computation, 2 us, is short enough to be the tracer's; from it to
# twice it, 2, 3 and 2.5 us, mean 2.5 us, taken off every computation
# (none below 0).  Rank 1's computations are 20 us or more: none off.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	print "0.000000000 0 MK mark=init"
	print "0.000000000 1 MK mark=init"
	print "0.000500000 1 RB peer=0 tag=1 bytes=8"
	print "0.001000000 0 SB peer=1 tag=1 bytes=8"
	print "0.001010000 0 SE peer=1 tag=1 bytes=8"
	print "0.001010000 1 RE peer=0 tag=1 bytes=8"
	print "0.001012000 0 SB peer=1 tag=2 bytes=8"
	print "0.001020000 0 SE peer=1 tag=2 bytes=8"
	print "0.001023000 0 SB peer=1 tag=3 bytes=8"
	print "0.001030000 0 SE peer=1 tag=3 bytes=8"
	print "0.001030000 1 RB peer=0 tag=2 bytes=8"
	print "0.001032500 0 SB peer=1 tag=4 bytes=8"
	print "0.001040000 0 SE peer=1 tag=4 bytes=8"
	print "0.001040000 1 RE peer=0 tag=2 bytes=8"
	print "0.001060000 1 RB peer=0 tag=3 bytes=8"
	print "0.001070000 1 RE peer=0 tag=3 bytes=8"
	print "0.001090000 1 RB peer=0 tag=4 bytes=8"
	print "0.001100000 1 RE peer=0 tag=4 bytes=8"
	print "0.002040000 0 MK mark=finalize"
	print "0.002040000 1 MK mark=finalize"
}' >"$tmp/tracer.trc"
expect_exit 0 "short computations" -- trc-bench "$tmp/tracer.trc"
is "$(grep -A1 'T0\[1\]\[5\]' "$out" | tail -1)" \
	"	{ { 997500, 0, 1, 0 }, { 0, 0, 1, 0 }, { 500, 0, 1, 0 }, { 0, 0, 1, 0 }, { 997500, 0, 1, 0 } }," \
	"2.5 us, the tracer's, off each of rank 0's computations"
is "$(grep -A1 'T1\[1\]\[5\]' "$out" | tail -1)" \
	"	{ { 500000, 0, 1, 0 }, { 20000, 0, 1, 0 }, { 20000, 0, 1, 0 }, { 20000, 0, 1, 0 }, { 940000, 0, 1, 0 } }," \
	"none off rank 1's"

# Calls one after the other: both ranks, 4 times, a barrier, an
# allreduce and a bcast, each 10 us long, after 100, 2, 2.2, 2.4 us;
# 3, 3.6, 3.8, 4 us; and 6 us each.  The least computation, f, is 2
# us; from it to 2f (bins of 156.25 ns up to the one of 4 us, [3906.25,
# 4062.5)): 2, 2.2, 2.4, 3, 3.6, 3.8, 4 us, mean 3 us, the tracer's,
# off each computation.  The barrier's after its first, mean 2.2 us,
# and the allreduce's, mean 3.8 us, are at most 2f: calls one after the
# other, their times the tracer's and the program's around its calls,
# and none of them is spent (the line through them, 0.4 + 0.2 k us
# less 3, would spend 0.6, 0.8, 1 us of the allreduce's).  The bcast's,
# 6 us each, are more: 3 us off each, as before.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	print "0.000000000 0 MK mark=init"
	print "0.000000000 1 MK mark=init"
	split("100 2 2.2 2.4", g1, " ")
	split("3 3.6 3.8 4", g2, " ")
	t = 0
	for (i = 1; i <= 4; i++) {
		t += g1[i]
		coll("op=barrier bytes=0 comm=1")
		t += g2[i]
		coll("op=allreduce bytes=8 comm=1")
		t += 6
		coll("op=bcast bytes=8 root=0 comm=1")
	}
	t += 1000
	for (r = 0; r < 2; r++)
		printf "%.9f %d MK mark=finalize\n", t / 1e6, r
}
# A collective of both ranks at t us, 10 us long.
function coll(a,   r) {
	for (r = 0; r < 2; r++)
		printf "%.9f %d XB %s size=2\n", t / 1e6, r, a
	t += 10
	for (r = 0; r < 2; r++)
		printf "%.9f %d XE %s\n", t / 1e6, r, a
}' >"$tmp/b2b.trc"
expect_exit 0 "calls one after the other" -- trc-bench "$tmp/b2b.trc"
is "$(grep -c 'for (long i1 = 0; i1 < 4; i1++) {' "$out")" 1 "one loop of the three calls"
is "$(grep -A2 'T0\[2\]\[4\]' "$out" | tail -2)" \
	"	{ { 97000, 0, 0, 0 }, { 0, 0, 0, 0 }, { 3000, 0, 1, 0 }, { 997000, 0, 1, 0 } },
	{ { 97000, 0, 0, 0 }, { 0, 0, 0, 0 }, { 3000, 0, 1, 0 }, { 997000, 0, 1, 0 } }," \
	"none spent of the calls one after the other, 3 us off the others"
expect_exit 0 "calls one after the other, coNCePTuaL" -- trc-bench --conceptual "$tmp/b2b.trc"
is "$(grep COMPUTE "$out")" \
"	ALL TASKS COMPUTE FOR 24 MICROSECONDS THEN
	ALL TASKS COMPUTE FOR 3 MICROSECONDS THEN
ALL TASKS COMPUTE FOR 997 MICROSECONDS." \
	"coNCePTuaL: the first's (100 - 3) / 4 us over the barrier's iterations, none of the allreduce's (3 - 3), 3 us of the bcast's"

# Blocking collectives that read no arrays are called straight, as the
# program called them, not through bench_coll(): the reductions over
# the widest integer type whose size divides their bytes (12 bytes: 3
# MPI_INT32_T; 3: 3 MPI_BYTEs; 2: one MPI_INT16_T), roots as world
# ranks in the communicator; a nonblocking one and a v-collective
# still through bench_coll().
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	for (r = 0; r < 2; r++)
		printf "0.000000000 %d MK mark=init\n", r
	n = split("bcast:8:1 reduce:12:0 allgather:6:-1 scan:3:-1 reduce_scatter_block:2:-1 gather:16:1 iallreduce:8:-1 allgatherv:4:-1 barrier:0:-1", c, " ")
	t = 0
	for (i = 1; i <= n; i++) {
		split(c[i], a, ":")
		x = " op=" a[1] " bytes=" a[2] (a[3] >= 0 ? " root=" a[3] : "") " comm=1"
		q = a[1] ~ /^i/ ? " req=1" : ""
		for (r = 0; r < 2; r++)
			printf "%.9f %d XB%s size=2%s\n", ++t / 1e6, r, x, q
		for (r = 0; r < 2; r++)
			printf "%.9f %d XE%s%s\n", ++t / 1e6, r, x, q
		if (q != "") {
			for (r = 0; r < 2; r++)
				printf "%.9f %d WB op=wait req=1\n", ++t / 1e6, r
			for (r = 0; r < 2; r++)
				printf "%.9f %d WE op=wait req=1\n", ++t / 1e6, r
		}
	}
	for (r = 0; r < 2; r++)
		printf "%.9f %d MK mark=finalize\n", ++t / 1e6, r
}' >"$tmp/coll.trc"
expect_exit 0 "blocking collectives" -- trc-bench "$tmp/coll.trc"
is "$(sed -n '/^g0(int gi)/,/^}/p' "$out" | grep -v bench_compute | sed -n '6,$p')" \
"	MPI_Bcast(sbuf, 8, MPI_BYTE, bench_peer(1, 1), comm[1]);
	MPI_Reduce(sbuf, rbuf, 3, MPI_INT32_T, MPI_BOR, bench_peer(1, 0), comm[1]);
	MPI_Allgather(sbuf, 6, MPI_BYTE, rbuf, 6, MPI_BYTE, comm[1]);
	MPI_Scan(sbuf, rbuf, 3, MPI_BYTE, MPI_BOR, comm[1]);
	MPI_Reduce_scatter_block(sbuf, rbuf, 1, MPI_INT16_T, MPI_BOR, comm[1]);
	MPI_Gather(sbuf, 16, MPI_BYTE, rbuf, 16, MPI_BYTE, bench_peer(1, 1), comm[1]);
	R += 1;
	bench_coll(B_ALLREDUCE, 8, -1, 1, R);
	bench_wait(B_WAIT, 1, (const long[]){ R });
	bench_coll(B_ALLGATHERV, 4, -1, 1, 0);
	MPI_Barrier(comm[1]);
}" "called straight, but a nonblocking one and a v-collective"

# Polling: rank 0 posts a receive 1 ms after its previous event and
# tests it 4, 2, then 3 times in vain over 4, 2, 3 ms, 0.4, 0.2, 0.3 ms
# of which in the tests (pollt=): 8.1 ms of computation over 9 polls,
# 0.9 ms a poll, and 3 polls a call: 2.7 ms of each call's computation
# is its polls' (the benchmark spends 0.9 ms after each of its own
# unsuccessful polls), none before the first.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	print "#clock source=realtime origin=1.000000000 pollt=wall"
	print "0.000000000 0 MK mark=init"
	print "0.000000000 1 MK mark=init"
	split("4 2 3", g, " ")
	for (i = 1; i <= 3; i++) {
		b = 10 * (i - 1)
		printf "%.9f 0 RB peer=1 tag=1 bytes=8 req=%d\n", (b + 1) / 1000, i
		printf "%.9f 1 SB peer=0 tag=1 bytes=8\n", (b + 0.5 + g[i]) / 1000
		printf "%.9f 1 SE peer=0 tag=1 bytes=8\n", (b + 0.6 + g[i]) / 1000
		printf "%.9f 0 WB req=%d op=test polls=%d pollt=%.9f\n", (b + 1 + g[i]) / 1000, i, g[i], g[i] / 10000
		printf "%.9f 0 RE peer=1 tag=1 bytes=8 req=%d\n", (b + 1.1 + g[i]) / 1000, i
		printf "%.9f 0 WE req=%d op=test\n", (b + 1.1 + g[i]) / 1000, i
	}
	print "0.030000000 0 MK mark=finalize"
	print "0.030000000 1 MK mark=finalize"
}' >"$tmp/poll.trc"
expect_exit 0 "polls" -- trc-bench "$tmp/poll.trc"
is "$(grep '^const long long bench_slice' "$out")" \
	"const long long bench_slice[BENCH_RANKS] = { 900000, 0 };" \
	"rank 0 computed 0.9 ms a poll, rank 1 never polled"
is "$(grep -A1 'W0\[1\]\[1\]' "$out" | tail -1)" "	{ 2700000 }," \
	"3 polls a call at 0.9 ms"
is "$(grep -c 'bench_compute_polling(&t\[[0-9]*\], n\[[0-9]*\]++, w\[0\]);' "$out")" 1 \
	"the test's computation spent around its polls"

# Wildcards: rank 0 takes rank 1's message, then rank 2's; a wait for
# any of two receives completes the second.
cat >"$tmp/any.trc" <<'EOF'
#trc 1 ranks=3
0.000000000 0 RB peer=* tag=5 bytes=8
0.000000000 1 SB peer=0 tag=5 bytes=8
0.000000100 1 SE peer=0 tag=5 bytes=8
0.000000200 0 RE peer=1 tag=5 bytes=8
0.000000300 0 RB peer=* tag=* bytes=8
0.000000300 2 SB peer=0 tag=6 bytes=8
0.000000400 2 SE peer=0 tag=6 bytes=8
0.000000500 0 RE peer=2 tag=6 bytes=8
0.000000600 0 RB peer=1 tag=8 bytes=8 req=1
0.000000600 0 RB peer=2 tag=8 bytes=8 req=2
0.000000700 0 WB req=1,2 op=waitany
0.000000700 2 SB peer=0 tag=8 bytes=8
0.000000800 2 SE peer=0 tag=8 bytes=8
0.000000900 0 RE req=2 peer=2 tag=8 bytes=8
0.000000900 0 WE req=2 op=waitany
0.000001000 0 WB req=1 op=wait
0.000001000 1 SB peer=0 tag=8 bytes=8
0.000001100 1 SE peer=0 tag=8 bytes=8
0.000001200 0 RE req=1 peer=1 tag=8 bytes=8
0.000001200 0 WE req=1 op=wait
EOF
expect_exit 0 "wildcards" -- trc-bench "$tmp/any.trc"
is "$(grep -c 'bench_recv(8, MPI_ANY_SOURCE, 5, 0);' "$out")" 1 "a wildcard source stays one"
is "$(grep -c 'bench_recv(8, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);' "$out")" 1 "a wildcard tag too"
is "$(grep -c 'bench_wait(B_WAITANY, 2, (const long\[\]){ R - 1, R });' "$out")" 1 \
	"a wait for any of both requests"
expect_exit 0 "--deterministic" -- trc-bench --deterministic "$tmp/any.trc"
is "$(grep -c 'bench_recv(8, bench_peer(0, me + 1), 5, 0);' "$out")" 1 \
	"--deterministic: the source taken, rank 1"
is "$(grep -c 'bench_recv(8, bench_peer(0, me - 1), 6, 0);' "$out")" 1 \
	"--deterministic: the source and tag taken, rank 2"
is "$(grep -c 'bench_wait(B_WAITANY, 1, (const long\[\]){ R });' "$out")" 1 \
	"--deterministic: the wait for any waits for the request it took"
is "$(sed -n '/^\/\* ranks/,$p' "$out" | grep -c 'ANY_SOURCE\|ANY_TAG')" 0 \
	"--deterministic: no wildcard left"

# Communicators: for 4 ranks, id 6 is the second (B = 2) made by its
# least member L = 1 ((B - 1) * 4 + L + 1); id 2 (L = 1, B = 1) is not
# in the trace, so one of rank 1 alone is made and freed before it.
# Id 3 (L = 2, B = 1) needs none.  Members: 1 and 3; 2 and 3.
cat >"$tmp/comm.trc" <<'EOF'
#trc 1 ranks=4
0.000000000 1 XB op=allreduce bytes=8 comm=6 size=2
0.000000000 3 XB op=allreduce bytes=8 comm=6 size=2
0.000001000 1 XE op=allreduce bytes=8 comm=6
0.000001000 3 XE op=allreduce bytes=8 comm=6
0.000002000 2 SB peer=3 tag=1 bytes=16 comm=3
0.000002000 3 RB peer=2 tag=1 bytes=16 comm=3
0.000003000 2 SE peer=3 tag=1 bytes=16 comm=3
0.000003000 3 RE peer=2 tag=1 bytes=16 comm=3
0.000004000 0 MK
EOF
expect_exit 0 "communicators" -- trc-bench "$tmp/comm.trc"
is "$(sed -n '/^const struct bench_comm bench_comms/,/^};/p' "$out" | sed 1d | sed '$d')" \
"	{ 2, BENCH_SKIP, 1, 0 },
	{ 3, BENCH_TRACED, 2, 1 },
	{ 6, BENCH_TRACED, 2, 3 }," "made in the order of their ids, a gap filled"
is "$(grep '^const int bench_members' "$out")" \
	"const int bench_members[] = { 1, 2, 3, 1, 3, 0 };" "their members"
is "$(grep -c 'MPI_Allreduce(sbuf, rbuf, 1, MPI_INT64_T, MPI_BOR, comm\[3\]);' "$out")" 2 \
	"the allreduce on comm 6, the table's third, on ranks 1 and 3"
is "$(grep -c 'MPI_Send(sbuf, 16, MPI_BYTE, bench_peer(2, me + 1), 1, comm\[2\]);' "$out")" 1 \
	"the send on comm 3, the table's second"
is "$(grep '^const int bench_group' "$out")" \
	"const int bench_group[BENCH_RANKS] = { 0, 1, 2, 3 };" "four programs"

# The size: ten times the iterations adds a few digits.
trc-gen -p halo -n 4 -i 20 -s 1 >"$tmp/h1.trc"
trc-gen -p halo -n 4 -i 200 -s 1 >"$tmp/h10.trc"
trc-bench "$tmp/h1.trc" >"$tmp/h1.c" && trc-bench "$tmp/h10.trc" >"$tmp/h10.c"
ok $? "trc-gen halo at 1x and 10x"
s1=$(wc -c <"$tmp/h1.c") s10=$(wc -c <"$tmp/h10.c")
ok "$([ $((s10 * 10)) -le $((s1 * 12)) ]; echo $?)" \
	"10x the iterations, at most 1.2x the size ($s1, $s10 bytes)"

# Compiled, without a warning.
if command -v mpicc >/dev/null; then
	trc-bench "$tmp/cpu.trc" >"$tmp/cpu.c"
	for f in ring cpu any comm h1; do
		[ -f "$tmp/$f.c" ] || trc-bench --deterministic "$tmp/$f.trc" >"$tmp/$f.c"
		mpicc -std=c11 -Wall -Wextra -c -o "$tmp/$f.o" "$tmp/$f.c" >"$out" 2>&1
		ok $? "$f: mpicc compiles it"
		is "$(cat "$out")" "" "$f: without a warning"
	done
fi

# Errors.
expect_exit 2 "two files: usage" -- \
	trc-bench "$T/data/ratios/t1.trc" "$tmp/ring.trc"
printf '#trc 1 ranks=2\n0.0 0 XB op=frobnicate bytes=8\n' >"$tmp/e1.trc"
expect_exit 2 "an unknown collective" -- trc-bench "$tmp/e1.trc"
is "$(cat "$err")" "trc-bench: $tmp/e1.trc:2: cannot reproduce XB op=frobnicate" \
	"an unknown collective: the line named"
printf '#trc 1 ranks=2\n0.0 0 XB op=neighbor_allgather bytes=8\n' >"$tmp/e2.trc"
expect_exit 2 "a neighbour collective on the world" -- trc-bench "$tmp/e2.trc"
is "$(cat "$err")" "trc-bench: $tmp/e2.trc:2: cannot reproduce a neighbour collective on the world (its topology is not traced)" \
	"a neighbour collective on the world: why"
printf '#trc 1 ranks=2\n0.0 0 SB peer=1 tag=1 bytes=3000000000\n' >"$tmp/e3.trc"
expect_exit 2 "a size beyond int" -- trc-bench "$tmp/e3.trc"
is "$(cat "$err")" "trc-bench: $tmp/e3.trc:2: bytes=3000000000 too large for MPI's int counts" \
	"a size beyond int: named"
printf '#trc 1 ranks=2\n0.0 0 SB tag=1 bytes=8\n' >"$tmp/e4.trc"
expect_exit 2 "a send without peer" -- trc-bench "$tmp/e4.trc"
is "$(cat "$err")" "trc-bench: $tmp/e4.trc:2: a send without peer=" "a send without peer: named"
printf '#trc 1 ranks=2\n0.0 0 SB peer=1 tag=1 bytes=8 req=1 op=bsend\n' >"$tmp/e5.trc"
expect_exit 2 "a nonblocking send of a blocking mode" -- trc-bench "$tmp/e5.trc"
is "$(cat "$err")" "trc-bench: $tmp/e5.trc:2: cannot reproduce SB op=bsend (nonblocking)" \
	"a nonblocking bsend: named"
printf '#trc 1 ranks=2\n0.0 0 SB peer=1 tag=1 bytes=x\n' >"$tmp/e6.trc"
expect_exit 2 "a stream that does not parse" -- trc-bench "$tmp/e6.trc"
ok "$(grep -q "^trc-bench: $tmp/e6.trc:2: " "$err"; echo $?)" "the bad line named"
printf '#trc 1 ranks=2 order=none\n0.0 0 MK\n' >"$tmp/e7.trc"
expect_exit 2 "order=none" -- trc-bench "$tmp/e7.trc"
is "$(cat "$err")" "trc-bench: $tmp/e7.trc: a stream of order=none has no times per rank in order" \
	"order=none: why"
printf '#trc 1\n' >"$tmp/e8.trc"
expect_exit 2 "no events" -- trc-bench "$tmp/e8.trc"
is "$(cat "$err")" "trc-bench: $tmp/e8.trc: no events" "no events: said"
expect_exit 2 "no such file" -- trc-bench "$tmp/none.trc"
expect_exit 2 "--cpu-ratio 0" -- trc-bench --cpu-ratio 0 "$tmp/ring.trc"
is "$(cat "$err")" "trc-bench: invalid ratio '0'" "--cpu-ratio 0: refused"
expect_exit 2 "--cpu and --cpu-ratio" -- \
	trc-bench --cpu "$tmp/ratios.tbl" --cpu-ratio 2 "$tmp/ring.trc"
printf 'mode time\n( all 3\n' >"$tmp/bad.tbl"
expect_exit 2 "a bad ratio table" -- trc-bench --cpu "$tmp/bad.tbl" "$tmp/ring.trc"
ok "$(grep -q "^trc-bench: $tmp/bad.tbl:2: " "$err"; echo $?)" "the table's line named"
expect_exit 2 "--window 1" -- trc-bench --window 1 "$tmp/ring.trc"
trc-bench "$tmp/ring.trc" >/dev/full 2>"$err"
is "$?" "2" "a full disk is an error"
done_testing
