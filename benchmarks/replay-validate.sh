#!/bin/sh
# replay-validate.sh BIN BUILD - PHANTOM's prediction on this host
# (issue 18): computation ratios from single-rank replays instead of a
# reduced problem run on both machines.  The machines are validate.sh's:
# the base "tcp" is trc-heat built at -O0 over Open MPI's TCP loopback,
# the target trc-heat at -O2 over shared memory (TARGET=tcp: over TCP
# too, the optimisation alone differing, and no shared memory between
# the ranks: trc-replay(1)'s caveats).
#
# For each rank count of NPS (2 4):
# 1. One full run on the base, traced, every rank logging (TRC_LOG=all).
# 2. trc-cluster groups its ranks; each group's representative is
#    replayed (trc-replay) with the target's binary REPS times, alone
#    on the core the full runs bind its rank to (NOPIN=1: any core),
#    as PHANTOM does.  ALONGSIDE=1 replays it beside replays of the
#    other representatives instead (--alongside: each group's
#    representative as many times as the group has ranks, less the one
#    traced), each giving its core up at every call (--yield), to share
#    the cores and caches as the full run's ranks do.  Alone is the
#    default even with more ranks than cores: replays beside each other
#    never wait for messages, so they load the node more than the full
#    run's ranks, which wait, each core's ranks computing in turn.
#    Measured here, the CPU time of Iterate against the full runs':
#    2 ranks, rank 0, medians of 7, +2.2% alone, +4.9% beside; 4 ranks
#    on 2 cores, three runs each, -2.9% to +3.5% alone (the runs whose
#    full runs were not disturbed), +5.7% to +24.9% beside.
# 3. trc-ratios of the representative's base events against each replay
#    (the median over the pairs, on the CPU clock) gives its ratios; its
#    rows are written for every rank of its group: the ratio table of
#    the target.
# 4. REPS full runs on the target, traced: the observed.  Steps 2 and
#    4 take turns (the representatives' i-th replays, then the i-th full
#    run), so that the host's drift falls on both alike.
# 5. Per representative and procedure: its computation time replayed
#    (median) against that rank's in the observed runs (median), and
#    the median of each replay against the full run of its turn, in CPU
#    time (what trc-ratios and trc-scale use when the traces carry it:
#    replays side by side on a full node wait their turn on the wall
#    clock, which ranks of a full run, yielding while they wait, seldom
#    do) and on the wall clock.
#    The full runs' own spread (fastest and slowest against their
#    median) is printed beside it: the host's noise floor; and its
#    share of the full run's time, "minor" under 2% as make validate
#    marks its rows.  Then
#    trc-scale predicts the target's run from the base trace with these
#    ratios and both machines' communication fits (trc-pingpong,
#    trc-fit), against the observed total time (median).  The same
#    prediction with ratios from the full runs themselves (base against
#    each observed run) says how much of the error is the model's.
#    With more ranks than cores the target shares them: the full runs
#    bind rank r to core r mod n (--map-by core), and trc-scale
#    predicts with --cores n --bound (trc-scale(1)), and --switch: the
#    cost of a core's passing between its ranks, measured here (half
#    an 8-byte receive with both ranks on one core, less on two).  The
#    observed runs are traced, so the prediction is of a traced run
#    (--traced): the tracer's readings of the CPU clock, 1.5-2.4 us
#    each on this toolkit's host and left out of cpu=, took 4-5 us an
#    iteration of each rank's time in heat.
#
# Every run is traced with TRC_CLOCK=both: each event also carries the
# CPU time of its rank since the one before (heat's regions hold
# computation alone, so a PE event's cpu= is the region's).
#
# Environment: TARGET (shm), REPS (5), N (480), ITER (2000), NPS ("2 4"), PREPS
# (100, trc-pingpong's repetitions), OUT (its files' directory,
# BUILD/replay-validate), MPICC, MAXLOAD (1.5), QUIETWAIT (30): each
# step waits that long at most for the load average to fall; it is
# printed with the numbers.
. benchmarks/fixed-layout.sh
set -e
bin=$1 build=$2
reps=${REPS:-5} n=${N:-480} it=${ITER:-2000} nps=${NPS:-2 4}
QUIETWAIT=${QUIETWAIT:-30}
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
TRC_CLOCK=both
export TRC_CLOCK
mpiopt=${MPIOPT---mca mpi_yield_when_idle 1}
mca_tcp="--mca btl self,tcp $mpiopt"
case ${TARGET:-shm} in
shm) mca_target="--mca btl self,vader $mpiopt" over="shared memory" ;;
tcp) mca_target=$mca_tcp over=TCP ;;
*) echo "replay-validate.sh: TARGET is shm or tcp, not $TARGET" >&2; exit 2 ;;
esac
out=${OUT:-$build/replay-validate}
heat0=$out/trc-heat-O0
mkdir -p "$out"
${MPICC:-mpicc} -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib -I"$build" -O0 -o "$heat0" \
	benchmarks/heat.c -lm

. benchmarks/validate-lib.sh

# comp TSV LABEL RANK: computation seconds of LABEL on RANK (trc-sum -t)
comp() {
	awk -F'\t' -v l="$2" -v r="$3" '$1 == l && $2 == r { print $8 }' "$1"
}
# cpu TRACE LABEL RANK: the CPU seconds of LABEL's regions on RANK
# procs: heat's procedures, in the order cpus prints them
procs="IterEdge Iterate Converged" nprocs=3
# cpus TRACE RANK: the summed cpu= of RANK's PE events of each of
# $procs, on one line, in one pass over the trace
cpus() {
	awk -v r="$2" -v procs="$procs" '!/^#/ && $2 == r && $3 == "PE" {
	    for (i = 5; i <= NF; i++) if ($i ~ /^cpu=/) s[$4] += substr($i, 5) }
	    END { n = split(procs, p, " ")
		for (i = 1; i <= n; i++) printf "%.6f%s", s["fn=" p[i]], i < n ? " " : "\n" }' "$1"
}

echo "== replay-validate: heat $n x $n, $it steps, on $(nproc) cores;" \
	"base: -O0 over TCP, logged; target: -O2 over $over"
echo "   load average at start: $(load)"
quiet
ops=$heat_ops
mpirun -np 2 $mca_tcp trc-pingpong --repetitions "${PREPS:-100}" -m 65536 --operations $ops >"$out/tcp.meas"
mpirun -np 2 $mca_target trc-pingpong --repetitions "${PREPS:-100}" -m 65536 --operations $ops >"$out/target.meas"
trc-fit "$out/tcp.meas" >"$out/tcp.fit"
trc-fit "$out/target.meas" >"$out/target.fit"
# The target's switch between two ranks of one core (trc-scale
# --switch): half of what an 8-byte receive (recv, posted as the send
# begins) takes more with both ranks on core 0 than on two cores, its
# wait passing the core to the sender and back.
handover() {
	awk '$1 == "recv" && $2 == 8 { print $3 }' "$1" | median
}
switch=0
if [ "$(nproc)" -gt 1 ] && command -v taskset >/dev/null; then
	taskset -c 0 mpirun -np 2 --bind-to none $mca_target trc-pingpong --repetitions 200 \
	    -m 8 --operations recv >"$out/switch1.meas"
	mpirun -np 2 --map-by core --bind-to core $mca_target trc-pingpong --repetitions 200 \
	    -m 8 --operations recv >"$out/switch2.meas"
	switch=$(awk -v a="$(handover "$out/switch1.meas")" -v b="$(handover "$out/switch2.meas")" \
	    'BEGIN { printf "%.9f", (a > b ? (a - b) / 2 : 0) }')
	echo "   a switch between two ranks of one core: $switch s (half an 8-byte receive on one core less on two)"
fi

for np in $nps; do
	d=$out/np$np
	rm -rf "$d"
	# More ranks than cores: each bound to core r mod n, and so
	# predicted (validate-lib.sh's binding).
	bind=$(binding "$np") cores=
	[ -z "$bind" ] || cores="--cores $(nproc) --bound --switch $switch"
	mkdir -p "$d/logs"
	quiet
	echo "== $np ranks: the base run, logged (load average $(load))"
	TRC_LOG=all TRC_LOGDIR=$d/logs trc-record -o "$d/base.trc" -- -np "$np" \
	    $bind $mca_tcp "$heat0" -n "$n" -i "$it" --tolerance 0 >/dev/null
	for f in "$d"/logs/rank.*.log; do
		printf '   %s: %d bytes\n' "${f##*/}" "$(wc -c <"$f")"
	done
	trc-cluster "$d/base.trc" >"$d/groups"
	grep '^#' "$d/groups" | sed 's/^/   /'
	sed -n 's/^#group [0-9]* representative=\([0-9]*\) .* ranks=\(.*\)/\1 \2/p' \
	    "$d/groups" >"$d/reps"

	# Each rank with its representative ("rep rank"): the node's slots,
	# each filled by its representative, and the rows of the table.
	while read -r r members; do
		echo "$members" | tr , '\n' | awk -v r="$r" -F- \
		    '{ for (k = $1; k <= ($2 == "" ? $1 : $2); k++) print r, k }'
	done <"$d/reps" >"$d/members"
	side=${ALONGSIDE:-}
	how=alone
	[ -n "$side" ] && how="beside the other representatives (a node's worth, $np processes)"
	# The replays and the full runs in turns (every representative's
	# i-th replay, then the i-th full run), so that the host's drift
	# over the minutes they take falls on both alike: on this shared
	# host all the replays first and then all the full runs put a
	# drift of 10 to 30% between them (2026-11-29).
	echo "== $np ranks: each representative replayed at -O2 $how, and the" \
	    "target's full runs, in turns, $reps times (load average $(load))"
	while read -r r _; do
		trc-cat -r "$r" "$d/base.trc" >"$d/b$r.trc"
	done <"$d/reps"
	i=1
	while [ $i -le "$reps" ]; do
		while read -r r _; do
			others=
			[ -z "$side" ] || others=$(awk -v r="$r" '$1 == r && !skip { skip = 1; next }
			    { print $1 }' "$d/members" | paste -sd, -)
			# Alone, on the core the full runs bind rank r to
			# (r mod the cores: Open MPI's default on 2 ranks,
			# --map-by core past them), so that the two measure
			# the rank alike; NOPIN=1 lets it go to any core.
			pin=
			[ -z "$others" ] && [ -z "${NOPIN:-}" ] && [ "$(nproc)" -gt 1 ] &&
			    command -v taskset >/dev/null && pin="taskset -c $((r % $(nproc)))"
			$pin trc-replay -r "$r" ${others:+--alongside "$others" --yield} --log "$d/logs" \
			    -o "$d/rep$r.$i.trc" -- trc-heat -n "$n" -i "$it" --tolerance 0 >/dev/null </dev/null
		done <"$d/reps"
		trc-record -o "$d/obs.$i.trc" -- -np "$np" $bind $mca_target trc-heat -n "$n" \
		    -i "$it" --tolerance 0 >/dev/null </dev/null
		trc-sum -t --section procs "$d/obs.$i.trc" >"$d/obs.$i.tsv"
		span "$d/obs.$i.trc" >>"$d/obs.spans"
		i=$((i + 1))
	done
	{ echo "# speed ratios base/target from replays (replay-validate.sh)"; echo "mode speed"; } >"$d/ratios.tbl"
	while read -r r _; do
		pairs=
		for i in $(seq "$reps"); do pairs="$pairs $d/b$r.trc $d/rep$r.$i.trc"; done
		# shellcheck disable=SC2086
		trc-ratios $pairs >"$d/ratios.$r" 2>"$d/ratios.$r.warn"
		[ -s "$d/ratios.$r.warn" ] && echo "   rank $r: trc-ratios warns of $(wc -l <"$d/ratios.$r.warn") rows spread over 10% ($d/ratios.$r.warn)"
		# Rank r's rows for every rank of its group; the first
		# group's ".* all" is the default.
		awk -v r="$r" 'NR == FNR { if ($1 == r) m[++n] = $2; next }
		    /^#/ || $1 == "mode" { next }
		    $2 == r { for (i = 1; i <= n; i++) printf "%-12s %-4d %s\n", $1, m[i], $3 }' \
		    "$d/members" "$d/ratios.$r" >>"$d/ratios.tbl"
		[ -s "$d/default" ] || awk '$1 == ".*" && $2 == "all" { print }' "$d/ratios.$r" >"$d/default"
	done <"$d/reps"
	cat "$d/default" >>"$d/ratios.tbl"
	sed 's/^/   /' "$d/ratios.tbl"

	echo "== $np ranks: computation per procedure, replayed against the full runs (medians of $reps)"
	while read -r r members; do
		# A line a turn: the replay's CPU time per procedure, then
		# the full run's.
		i=1
		while [ $i -le "$reps" ]; do
			trc-sum -t --section procs "$d/rep$r.$i.trc" >"$d/rep$r.$i.tsv"
			echo "$(cpus "$d/rep$r.$i.trc" "$r") $(cpus "$d/obs.$i.trc" "$r")"
			i=$((i + 1))
		done >"$d/cpu.$r"
		k=1
		for l in $procs; do
			rv=$(for i in $(seq "$reps"); do comp "$d/rep$r.$i.tsv" "$l" "$r"; done | median)
			ov=$(for i in $(seq "$reps"); do comp "$d/obs.$i.tsv" "$l" "$r"; done | median)
			rc=$(cut -d' ' -f$k "$d/cpu.$r" | median)
			oc=$(cut -d' ' -f$((k + nprocs)) "$d/cpu.$r" | median)
			e=$(pct "$rv" "$ov") ec=$(pct "$rc" "$oc")
			# each replay against the full run beside it
			pc=$(cut -d' ' -f$k,$((k + nprocs)) "$d/cpu.$r" | while read -r a b; do
				pct "$a" "$b"
			done | median)
			# the full runs' own spread about their median: how
			# far apart two runs of the same thing fall on this host
			lo=$(cut -d' ' -f$((k + nprocs)) "$d/cpu.$r" | sort -g | head -1)
			hi=$(cut -d' ' -f$((k + nprocs)) "$d/cpu.$r" | sort -g | tail -1)
			k=$((k + 1))
			# its share of the full run's time, "minor" under 2%
			# as in make validate: a procedure of a few tens of
			# nanoseconds a call is mostly the tracer's clock
			sh=$(awk -v c="$oc" -v s="$(median <"$d/obs.spans")" 'BEGIN { printf "%.1f", 100 * c / s }')
			printf '   rank %s %-10s cpu: replayed %.6f s, full run %.6f s, %s%% (in pairs %+.1f%%; full runs %s%% to %s%%);  wall: %.6f s, %.6f s, %s%%;  share %s%%%s\n' \
			    "$r" "$l" "$rc" "$oc" "$ec" "$pc" "$(pct "$lo" "$oc")" "$(pct "$hi" "$oc")" "$rv" "$ov" "$e" "$sh" \
			    "$(awk -v x="$sh" 'BEGIN { if (x < 2) printf "  minor" }')"
		done
	done <"$d/reps"

	# shellcheck disable=SC2086
	trc-scale $cores --traced -b "$out/tcp.fit" -c "$out/target.fit" --cpu "$d/ratios.tbl" \
	    "$d/base.trc" >"$d/pred.trc"
	p=$(span "$d/pred.trc") o=$(median <"$d/obs.spans")
	echo "== $np ranks: base $(span "$d/base.trc") s; predicted${cores:+ ($cores)} $p s; observed $o s" \
	    "(median of $reps: $(tr '\n' ' ' <"$d/obs.spans" | sed 's/ $//')); error $(pct "$p" "$o")%"
	# The same prediction with the ratios measured against the full
	# runs themselves: what the model makes of exact ratios, so that
	# the error replay adds is the difference of the two.
	pairs=
	for i in $(seq "$reps"); do pairs="$pairs $d/base.trc $d/obs.$i.trc"; done
	# shellcheck disable=SC2086
	trc-ratios $pairs >"$d/ratios.full" 2>/dev/null
	# shellcheck disable=SC2086
	trc-scale $cores --traced -b "$out/tcp.fit" -c "$out/target.fit" --cpu "$d/ratios.full" \
	    "$d/base.trc" >"$d/pred.full.trc" 2>/dev/null
	pf=$(span "$d/pred.full.trc")
	echo "   with ratios from the full runs instead: predicted $pf s, error $(pct "$pf" "$o")%"
	echo "   load average: $(load)"
done
echo "== load average at end: $(load)"
