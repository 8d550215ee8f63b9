#!/bin/sh
# validate-bench.sh BIN BUILD - trc-bench against the programs it
# imitates (issue 17).  Part 1: every example and MPI test program
# traced, its benchmark made, compiled (mpicc -std=c11 -Wall -Wextra,
# no warning), run and traced, and the two execution graphs compared
# (trc-stable --equal kind,peer,tag,fn; for the programs that race,
# the benchmark --deterministic and --equal kind, which still compares
# every message's matching); the Paraver and OTF2 samples' benchmarks
# compiled and run on their ranks.  Part 2: run times of the same
# programs, at sizes that run long enough where they take one, the
# original against its benchmark (made from the trace of the median
# span of three with CPU times;
# --wall for those whose computation is a wait on the wall clock), run
# in turn REPS times (default 5), medians of the traced span (first to
# last event), with the load average; its output says what it shows.
#
# Environment: REPS (5), PART (both; 1 or 2 for one), ONLY (the
# names of the programs to run, as the output names them, blank
# separated: ONLY="calls comms"; default all; it was PROGS, which the
# Makefile's own PROGS replaced, so that make ran none), MAXLOAD and QUIETWAIT
# as validate-poll.sh: wait for a quieter machine first; OUT, the
# directory of the traces and benchmarks (BUILD/validate-bench): on a
# tmpfs (OUT=/dev/shm/vb) the tracers' writes of their buffers, which
# stall a rank for milliseconds when the disk is busy and so make the
# other wait, cost both runs alike; BUFSIZE (256M), each rank's tracer
# buffer in the timed runs, as trc-record --bufsize takes it: large
# enough that no rank writes it out before MPI_Finalize, outside the
# span.  With the tracer's 4 MB, t/mpi/sendrecv 60000 wrote 22 buffers
# a rank, each a stall of 1.7 ms on a quiet machine and of 10.6 ms in
# the runs that made its ratio swing from 0.99 to 1.49 (both programs
# alike, 22 stalls each, which the other rank waited for in its next
# MPI_Sendrecv): the machine's, not the benchmark's.
set -e
. benchmarks/fixed-layout.sh
bin=$1 build=$2
reps=${REPS:-5} part=${PART:-12} bufsize=${BUFSIZE:-256M}
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
mpit=$build/t/mpi
data=$(cd "$(dirname "$0")/../t/data" && pwd)
out=${OUT:-$build/validate-bench}
# validate-lib.sh's load, span and binding (a program and its benchmark
# bound alike); quiet and median are this script's own: no wait unless
# MAXLOAD is set, and six digits.
. benchmarks/validate-lib.sh
mkdir -p "$out"
cd "$out"

quiet() {
	w=0
	while awk -v m="${MAXLOAD:-100}" '{ exit !($1 >= m) }' /proc/loadavg &&
	    [ $w -lt "${QUIETWAIT:-300}" ]; do
		sleep 5
		w=$((w + 5))
	done
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# want NAME: NAME is one of ONLY, or ONLY is empty.
want() {
	[ -z "${ONLY:-}" ] && return 0
	case " $ONLY " in
	*" $1 "*) return 0;;
	esac
	return 1
}

fails=0
# make NAME NP DET -- PROGRAM ARGS: trace, benchmark, compile.  With
# TRACES=n (part 2: 3), the program is traced n times and the benchmark
# made from the trace of the median span: one run is a sample of the
# machine's moods, and the benchmark repeats that run's computation
# times in every one of its own.  A single trace of trc-heat -n 1024 on
# 2 ranks, the first run of a quiet machine, spanned 0.395 s where the
# next four spanned 0.326-0.340 (rank 0's Iterate 145 ms of CPU time
# against 106-118): the benchmark made from it ran 1.076 of the
# original, every run.
make_bench() {
	name=$1 np=$2 det=$3
	shift 4
	# With TRACES, a run first that is no sample: the first runs after a
	# pause are the slow ones (heat-2's 0.429 s, then 0.361 and 0.356,
	# the originals after 0.324 to 0.336).
	k=0
	[ "${TRACES:-1}" -le 1 ] ||
	    trc-record --clock cpu -o "$name.trc0" -- -np "$np" $(binding "$np") "$@" >/dev/null 2>&1 || :
	: >"$name.spans"
	while [ $k -lt "${TRACES:-1}" ]; do
		k=$((k + 1))
		trc-record --clock cpu -o "$name.trc$k" -- -np "$np" $(binding "$np") "$@" >/dev/null 2>"$name.err" ||
		    { echo "$name: the program failed"; fails=$((fails + 1)); return 1; }
		echo "$(span "$name.trc$k") $k" >>"$name.spans"
	done
	k=$(sort -g "$name.spans" | awk '{ k[NR] = $2 } END { print k[int((NR + 1) / 2)] }')
	mv "$name.trc$k" "$name.trc"
	rm -f "$name".trc[0-9]*
	trc-bench $det "$name.trc" >"$name.c" &&
	mpicc -std=c11 -Wall -Wextra -O2 -o "$name" "$name.c" 2>"$name.cc" ||
	    { echo "$name: no benchmark"; fails=$((fails + 1)); return 1; }
	[ ! -s "$name.cc" ] ||
	    { echo "$name: compiler warnings:"; head -5 "$name.cc"; fails=$((fails + 1)); }
}
# graph NAME NP DET -- PROGRAM ARGS: part 1 for one program.
graph() {
	name=$1 np=$2 det=$3
	want "$name" || return 0
	make_bench "$@" || return 0
	trc-record -o "$name-b.trc" -- -np "$np" $(binding "$np") "./$name" >/dev/null 2>>"$name.err" ||
	    { echo "$name: the benchmark failed"; fails=$((fails + 1)); return 0; }
	key=kind,peer,tag,fn
	[ -z "$det" ] || key=kind
	if trc-stable -q --equal $key "$name.trc" "$name-b.trc"; then
		printf '%-22s %2d ranks %-16s identical (--equal %s), %s bytes of C\n' \
		    "$name" "$np" "${det:-}" "$key" "$(wc -c <"$name.c")"
	else
		echo "$name: DIFFERENT graphs"; fails=$((fails + 1))
	fi
}

if [ "${part#*1}" != "$part" ]; then
	echo "== part 1: execution graphs (load $(load))"
	graph heat 4 "" -- trc-heat -n 64 -i 50
	graph fig1-stable 3 "" -- trc-fig1 --stable -i 2 -A 0.08 -B 0 -C 0
	graph fig1 3 --deterministic -- trc-fig1 -i 2 -A 0.08 -B 0 -C 0
	graph mw-stable 3 "" -- trc-master-worker --stable --tasks 7 --work 0.002
	graph mw 3 --deterministic -- trc-master-worker --tasks 7 --work 0.002
	graph calls 3 --deterministic -- "$mpit/calls"
	graph comms 4 "" -- "$mpit/comms"
	graph halo-any 4 --deterministic -- "$mpit/halo-any" 10
	graph nbcoll 3 "" -- "$mpit/nbcoll"
	graph persist 3 --deterministic -- "$mpit/persist"
	graph polling 2 "" -- "$mpit/polling" 100
	graph self 2 "" -- "$mpit/self"
	graph sendrecv 2 "" -- "$mpit/sendrecv"
	graph subcomm 4 "" -- "$mpit/subcomm"
	for p in anytag iprobe probe recv-any testany waitany waitsome; do
		graph "nd-$p" 3 --deterministic -- "$mpit/nd/$p" unstable 100000
		graph "nd-$p-stable" 3 "" -- "$mpit/nd/$p" stable 100000
	done
	echo "== foreign formats: compiled and run on the sample's ranks"
	for s in "$data/paraver/epoch_4proc.prv.gz" "$data/paraver/lulesh8.prv.gz" \
	    "$data/otf2/pingpong/traces.otf2"; do
		n=$(basename "$s" | sed 's/\..*//')
		want "$n" || continue
		trc-bench "$s" >"$n.c" && mpicc -std=c11 -Wall -Wextra -O2 -o "$n" "$n.c" 2>"$n.cc" &&
		    [ ! -s "$n.cc" ] || { echo "$n: no benchmark"; fails=$((fails + 1)); continue; }
		np=$(sed -n 's/^#define BENCH_RANKS	//p' "$n.c")
		if trc-record -o "$n-b.trc" -- -np "$np" $(binding "$np") "./$n" >/dev/null 2>"$n.err"; then
			printf '%-22s %2d ranks ran; trc-stable --equal kind: %s\n' \
			    "$n" "$np" "$(trc-stable --equal kind "$s" "$n-b.trc" |
			    sed -n 's/^similarity [^ ]* (\(.*\)).*/\1/p')"
		else
			echo "$n: the benchmark failed on $np ranks"; fails=$((fails + 1))
		fi
	done
fi

# The computation's CPU time in a trace taken with --clock cpu, all
# ranks: cpu= less pollcpu= on the events that begin something.
compcpu() {
	awk '!/^#/ && $3 ~ /^(SB|RB|WB|XB|PB|PE|MK)$/ { c = p = 0
		for (i = 4; i <= NF; i++) {
			if ($i ~ /^cpu=/) c = substr($i, 5)
			if ($i ~ /^pollcpu=/) p = substr($i, 9)
		}
		s += c - p } END { printf "%.6f\n", s }' "$1"
}

# timing NAME NP OPTS -- PROGRAM ARGS: part 2 for one program, the
# original and its benchmark (trc-bench OPTS) run in turn REPS times.
timing() {
	name=$1 np=$2 opts=$3
	want "$name" || return 0
	TRACES=3 make_bench "$@" || return 0
	shift 4
	: >"$name.t0"
	: >"$name.t1"
	l0=$(load)
	for i in $(seq "$reps"); do
		quiet
		trc-record --bufsize "$bufsize" -o "$name-o$i.trc" -- -np "$np" $(binding "$np") "$@" \
		    >/dev/null 2>&1 && span "$name-o$i.trc" >>"$name.t0"
		trc-record --bufsize "$bufsize" -o "$name-b$i.trc" -- -np "$np" $(binding "$np") "./$name" \
		    >/dev/null 2>&1 && span "$name-b$i.trc" >>"$name.t1"
	done
	a=$(median <"$name.t0") b=$(median <"$name.t1")
	r=$(echo "$b $a" | awk '{ printf "%.3f", $1 / $2 }')
	v=$(echo "$r" | awk '{ d = $1 - 1; if (d < 0) d = -d
	    print d <= 0.05 ? "within 5%" : "OFF by over 5%" }')
	# The benchmark's computation against the trace it was made from,
	# both on the CPU clock: what the load changes least.
	c=-
	case $opts in
	*--wall*) ;;
	*)	trc-record --clock cpu -o "$name-bc.trc" -- -np "$np" $(binding "$np") "./$name" \
		    >/dev/null 2>&1 &&
		    c=$(echo "$(compcpu "$name-bc.trc") $(compcpu "$name.trc")" |
		    awk '{ printf "%.3f", ($2 > 0 ? $1 / $2 : 0) }');;
	esac
	printf '%-20s %2d  %9.4f  %9.4f  %6s  %-14s %5s  %s\n' \
	    "$name" "$np" "$a" "$b" "$r" "$v" "$c" "$l0 / $(load)"
}

if [ "${part#*2}" != "$part" ]; then
	cat <<EOF
== part 2: run times, original and benchmark traced in turn, $reps runs
each; the median span (first to last event, s), benchmark / original.
Benchmarks from traces with CPU times (trc-record --clock cpu; of three
traced runs, the one of the median span), spent
on the CPU clock, except --wall for the programs whose computation is a
wait on the wall clock (trc-fig1's and trc-master-worker's busy work
until a time, the nd programs' sleeps): the CPU time those got is what
the machine's load left them, not their work.  The MPI test programs
run their repetition argument's times (0.07 to 0.6 s on a quiet
machine; those of pure communication, the tracer's time mostly).  "cpu":
the benchmark's computation on the CPU clock over the trace's (one
more run; "-" for --wall), which a loaded machine changes little: near
1 with a ratio off means the machine's scheduling, not the benchmark.
Load average (1, 5, 15 min) before / after each program.  Start: $(load)
EOF
	printf '%-20s %2s  %9s  %9s  %6s  %-14s %5s  %s\n' program np original \
	    benchmark ratio verdict cpu load
	timing heat-2 2 "" -- trc-heat -n 1024 -i 300 --tolerance 0
	timing heat-4 4 "" -- trc-heat -n 1024 -i 300 --tolerance 0
	timing fig1-stable 3 --wall -- trc-fig1 --stable -i 20 -A 0.01 -B 0.005 -C 0.002
	timing fig1 3 "--deterministic --wall" -- trc-fig1 -i 20 -A 0.01 -B 0.005 -C 0.002
	timing mw-stable 3 --wall -- trc-master-worker --stable --tasks 40 --work 0.002
	timing mw 3 "--deterministic --wall" -- trc-master-worker --tasks 40 --work 0.002
	timing calls 3 --deterministic -- "$mpit/calls" 5
	timing comms 4 "--window 128" -- "$mpit/comms" 1500
	timing halo-any 4 --deterministic -- "$mpit/halo-any" 5000
	timing nbcoll 3 "" -- "$mpit/nbcoll" 5
	timing persist 3 --deterministic -- "$mpit/persist" 4
	timing polling 2 "" -- "$mpit/polling" 1000
	timing self 2 "" -- "$mpit/self" 1000000
	timing sendrecv 2 "" -- "$mpit/sendrecv" 60000
	timing subcomm 4 "" -- "$mpit/subcomm" 30000
	for p in anytag iprobe probe recv-any testany waitany waitsome; do
		timing "nd-$p" 3 "--deterministic --wall" -- "$mpit/nd/$p" unstable 200000
		timing "nd-$p-stable" 3 --wall -- "$mpit/nd/$p" stable 200000
	done
	echo "== end of part 2 (load $(load))"
fi
[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
