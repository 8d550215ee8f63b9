#!/bin/sh
# trc-bench on real runs: the benchmark of trc-heat, of the
# master-worker example and of the MPI test programs (calls, comms,
# nbcoll, persist, self, sendrecv, subcomm) compiles without a
# warning, runs, and its own trace has the original's execution graph
# (--deterministic for the programs that race, compared by kind and
# matching); trc-heat at 10 times the iterations gives at most 1.2
# times the program; an OTF2 sample's benchmark runs on its ranks; the
# busy wait spends the time it is asked.
# The whole set, with run times, is 'make validate-bench'.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
command -v mpicc >/dev/null || skip_all "no mpicc"
[ -x "$TRC_BIN/trc-heat" ] || skip_all "trc-heat not built"

# bench NAME NP KEY [--deterministic] -- PROGRAM ARGS: trace it, make
# its benchmark, compile, trace that, compare with --equal KEY.
bench() {
	name=$1 np=$2 key=$3
	shift 3
	det=
	[ "$1" = --deterministic ] && det=$1 && shift
	shift
	trc-record -o "$tmp/$name.trc" -- -np "$np" "$@" >"$out" 2>"$err"
	ok $? "$name: traced"
	trc-bench $det "$tmp/$name.trc" >"$tmp/$name.c"
	ok $? "$name: trc-bench $det"
	mpicc -std=c11 -Wall -Wextra -O2 -o "$tmp/$name" "$tmp/$name.c" >"$out" 2>&1
	ok $? "$name: compiled"
	is "$(cat "$out")" "" "$name: without a warning"
	trc-record -o "$tmp/$name-b.trc" -- -np "$np" "$tmp/$name" >"$out" 2>"$err"
	ok $? "$name: the benchmark runs"
	trc-stable -q --equal "$key" "$tmp/$name.trc" "$tmp/$name-b.trc"
	ok $? "$name: the same execution graph (--equal $key)"
}

strict=kind,peer,tag,fn
bench h20 4 $strict -- trc-heat -n 16 -i 20 --tolerance 0
bench comms 4 $strict -- "$MPIT/comms"
bench calls 3 kind --deterministic -- "$MPIT/calls"
bench mw 3 kind --deterministic -- trc-master-worker --tasks 7 --work 0.002
# The other MPI test programs, at a few of their repetitions.
bench self 2 $strict -- "$MPIT/self" 1000
bench sendrecv 2 $strict -- "$MPIT/sendrecv" 50
bench subcomm 4 $strict -- "$MPIT/subcomm" 50
bench nbcoll 3 $strict -- "$MPIT/nbcoll" 2
bench persist 3 kind --deterministic -- "$MPIT/persist" 2
# Each rank of self 1000 makes 1000 barriers on its own MPI_COMM_SELF
# (a communicator id of its own): one program each, a loop of 1000.
is "$(grep -c 'for (long i1 = 0; i1 < 1000; i1++) {' "$tmp/self.c")" 2 \
	"self 1000: a loop of 1000 barriers in each of the 2 programs"

# Every event of comms the same, communicator ids included, but times
# and polls.
for f in comms comms-b; do
	grep -v '^#' "$tmp/$f.trc" | cut -d' ' -f2- | sort -s -n -k1,1 >"$tmp/$f.ev"
done
is_file "$tmp/comms-b.ev" "$tmp/comms.ev" "comms: the same events, comm= ids too"
# Without --deterministic a race stays one: the calls' wildcards.
is "$(sed -n '/^\/\* ranks/,$p' "$tmp/calls.c" | grep -c 'ANY_SOURCE')" 0 \
	"calls --deterministic: no wildcard"
trc-bench "$tmp/calls.trc" | sed -n '/^\/\* ranks/,$p' | grep -c 'bench_recv(64, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);' >"$out"
is "$(cat "$out")" 1 "calls: the wildcards stay"

# The size: 10 times the iterations of trc-heat.
trc-record -o "$tmp/h200.trc" -- -np 4 trc-heat -n 16 -i 200 --tolerance 0 >"$out" 2>"$err"
ok $? "trc-heat -i 200 traced"
trc-bench "$tmp/h200.trc" >"$tmp/h200.c"
ok $? "trc-bench: -i 200"
a=$(wc -c <"$tmp/h20.c") b=$(wc -c <"$tmp/h200.c")
ok "$([ $((b * 10)) -le $((a * 12)) ]; echo $?)" \
	"trc-heat, 10 times the iterations: $b bytes against $a, at most 1.2 times"
is "$(grep -c 'for (long i1 = 0; i1 < 200; i1++) {' "$tmp/h200.c")" 3 \
	"a loop of 200 in each of the 3 programs (first, middle, last rank)"

# The busy wait spends what it is asked, not that and the cost of its
# clock: rank 0 opens and closes a region 2000 times, 20 us of CPU
# time before each (40 ms), or none (the same calls).  The difference
# of the two benchmarks' CPU time on rank 0 (the sum of its events'
# cpu= in their traces) is the 40 ms, within 15%; reading the thread's
# CPU clock costs one to a few microseconds a call on some machines.
for g in 20 0; do
	awk -v g=$g 'BEGIN {
		print "#trc 1 ranks=2 order=time"
		print "#clock source=realtime origin=1.000000000 cpu=thread"
		print "0.000000000 0 MK mark=init cpu=0.000001000"
		print "0.000000000 1 MK mark=init cpu=0.000001000"
		for (i = 1; i <= 2000; i++) {
			printf "%.9f 0 PB fn=w cpu=%.9f\n", i * g / 1e6, g / 1e6
			printf "%.9f 0 PE fn=w cpu=0.000000000\n", i * g / 1e6
		}
		printf "%.9f 0 MK mark=finalize cpu=0.000000000\n", (2000 * g + 1) / 1e6
		printf "%.9f 1 MK mark=finalize cpu=%.9f\n", (2000 * g + 1) / 1e6, (2000 * g + 1) / 1e6
	}' >"$tmp/spend$g.trc"
	trc-bench "$tmp/spend$g.trc" >"$tmp/spend$g.c" &&
	    mpicc -std=c11 -O2 -o "$tmp/spend$g" "$tmp/spend$g.c" &&
	    trc-record --clock cpu -o "$tmp/spend$g-b.trc" -- -np 2 "$tmp/spend$g" >"$out" 2>"$err"
	ok $? "2000 computations of $g us: made and run"
done
cpu0() { awk '!/^#/ && $2 == 0 && n++ { for (i = 4; i <= NF; i++) if ($i ~ /^cpu=/) s += substr($i, 5) } END { printf "%.6f\n", s }' "$1"; }
d=$(echo "$(cpu0 "$tmp/spend20-b.trc") $(cpu0 "$tmp/spend0-b.trc")" | awk '{ printf "%.1f", ($1 - $2) * 1000 }')
ok "$(echo "$d" | awk '{ exit !($1 >= 34 && $1 <= 46) }'; echo $?)" \
	"2000 x 20 us of CPU time spent in $d ms, 34 to 46"

# Reductions go over the widest integer type whose size divides their
# bytes (so that their count is a program's): 8 and 16 bytes as
# int64_t, 12 as int32_t, 6 as int16_t, 3 as bytes; whatever the type,
# each moves the bytes the trace has.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	n = split("allreduce:8 allreduce:12 reduce:6 allreduce:3 scan:16 exscan:4", c, " ")
	t = 0
	for (k = 1; k <= n; k++) {
		split(c[k], f, ":")
		root = f[1] == "reduce" ? " root=0" : ""
		for (r = 0; r < 2; r++)
			printf "%.9f %d XB op=%s bytes=%s%s\n", t + 1e-6, r, f[1], f[2], root
		for (r = 0; r < 2; r++)
			printf "%.9f %d XE op=%s bytes=%s%s\n", t + 2e-6, r, f[1], f[2], root
		t += 1e-5
	}
}' >"$tmp/red.trc"
trc-bench "$tmp/red.trc" >"$tmp/red.c" &&
    mpicc -std=c11 -Wall -Wextra -O2 -o "$tmp/red" "$tmp/red.c" >"$out" 2>&1 &&
    trc-record -o "$tmp/red-b.trc" -- -np 2 "$tmp/red" >"$out" 2>"$err"
ok $? "reductions of 3 to 16 bytes: made and run"
xe() { awk '!/^#/ && $3 == "XE" { print $2, $4, $5 }' "$1" | sort; }
is "$(xe "$tmp/red-b.trc")" "$(xe "$tmp/red.trc")" "  each moves the trace's bytes"

# A foreign format: the OTF2 ping-pong sample, 2 ranks.
s=$T/data/otf2/pingpong/traces.otf2
trc-bench "$s" >"$tmp/otf2.c"
ok $? "trc-bench reads the OTF2 sample"
mpicc -std=c11 -Wall -Wextra -O2 -o "$tmp/otf2" "$tmp/otf2.c" >"$out" 2>&1
ok $? "OTF2: compiled"
is "$(cat "$out")" "" "OTF2: without a warning"
trc-record -o "$tmp/otf2-b.trc" -- -np 2 "$tmp/otf2" >"$out" 2>"$err"
ok $? "OTF2: runs on the sample's 2 ranks"
# The sample's markers are not where the tracer puts its own.
trc-cat -k S,R,X,P "$s" >"$tmp/otf2.k"
trc-cat -k S,R,X,P "$tmp/otf2-b.trc" >"$tmp/otf2-b.k"
trc-stable -q --equal $strict "$tmp/otf2.k" "$tmp/otf2-b.k"
ok $? "OTF2: the same messages and regions"
mpirun -np 3 "$tmp/otf2" >"$out" 2>"$err"
ok "$([ $? -ne 0 ]; echo $?)" "OTF2: on 3 ranks it stops"
ok "$(grep -q 'run on 2 ranks, not 3' "$err"; echo $?)" "OTF2: saying why"
done_testing
