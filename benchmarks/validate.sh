#!/bin/sh
# validate.sh BIN BUILD - the paper's prediction experiment (Mendes,
# section 5) on this host.  Base machine: trc-heat built at -O0, Open
# MPI over TCP loopback; target machine: trc-heat at -O2 over shared
# memory (vader).  2 ranks (the core count) for every timed run, no
# oversubscription by us; the host is shared, so its load average is
# printed next to every run.
#
# 1. Communication: trc-pingpong on both machines up to 64 KiB (the
#    halo is (N+2)*8 bytes), fitted by trc-fit, send-late included so
#    that the fit marks the sizes whose sends wait for the receiver
#    (send-sync); the fit is checked against the send and receive
#    times the heat traces measure.
# 2. Computation: a reduced problem (N/2 x N/2, 2 ranks) traced on both
#    machines RREPS times; per procedure and rank, the median over the
#    pairs of base/target computation time is the speed ratio (Table 1).
# 3. REPS times: trace the full problem (N x N) on the base, predict it
#    with trc-scale, trace it on the target, compare (trc-sum --vs, the
#    paper's Table 2) and compute the total-time error.  Then the
#    median and spread of the error and of every mean ratio.
#
# Environment: REPS (7), N (480), ITER (2000), RN (N/2), RITER (ITER),
# RREPS (5), MPIOPT (--mca mpi_yield_when_idle 1), MPICC.  N = 480 keeps the halo row (3856 bytes) below the
# shared-memory transport's 4 KiB eager limit; see README, Validation.
set -e
bin=$1 build=$2
reps=${REPS:-7} n=${N:-480} it=${ITER:-2000}
rn=${RN:-$((n / 2))} rit=${RITER:-$it} rreps=${RREPS:-5}
np=2
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The host is shared with other jobs (its load average is printed):
# ranks that wait give the core away instead of spinning, on both.
mpiopt=${MPIOPT---mca mpi_yield_when_idle 1}
base="--mca btl self,tcp $mpiopt"
target="--mca btl self,vader $mpiopt"
out=$build/validate
heat0=$out/trc-heat-O0
mkdir -p "$out"
${MPICC:-mpicc} -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib -O0 -o "$heat0" \
	benchmarks/heat.c -lm

load() { cut -d' ' -f1-3 /proc/loadavg; }
# step TRACE: the median time of one step, between consecutive ends of
# rank 0's allreduce, in microseconds; preemptions by other jobs move
# the total time but hardly this.
step() {
	awk '!/^#/ && $2 == 0 && $3 == "XE" && $4 == "op=allreduce" { if (n++) print 1e6 * ($1 - l); l = $1 }' "$1" | median
}
# coupled TRACE: how rank 0's blocking sends to rank 1 end, paired in
# order with rank 1's receives of them: the median of SE minus the
# receiver's RB (us), and the share of sends that end after that RB.
# A send that completes locally ends long before the receive begins;
# one that waits for the receiver ends just after it.
coupled() {
	awk '!/^#/ && $2 == 0 && $0 !~ / req=/ && $4 == "peer=1" && $3 == "SE" { se[++ns] = $1 }
	    !/^#/ && $2 == 1 && $0 !~ / req=/ && $4 == "peer=0" && $3 == "RB" && $5 == "tag=2" { rb[++nr] = $1 }
	    END { for (i = 1; i <= ns && i <= nr; i++) { print 1e6 * (se[i] - rb[i]); if (se[i] > rb[i]) a++ }
		printf "%.0f\n", 100 * a / (i - 1) > "/dev/stderr" }' "$1" 2>"$out/after" | median | tr -d '\n'
	printf ' us, %s%% after' "$(cat "$out/after")"
}
span() { awk '!/^#/ { if (!s) { a = $1; s = 1 } z = $1 } END { printf "%.6f\n", z - a }' "$1"; }
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# fit FILE OP BYTES: the fitted time of OP at BYTES, in microseconds
fit() {
	awk -v op="$2" -v b="$3" '!/^#/ && $1 == op && b >= $2 && ($3 == "inf" || b < $3 + 0) {
	    printf "%.2f", 1e6 * ($4 + $5 * b); exit }' "$1"
}
# calls TRACE: per call kind and rank, the count and the median and
# mean duration (microseconds) of send, isend (SB to SE), recv (RB to
# RE of a blocking receive) and allreduce, from the trace itself.
calls() {
	awk '!/^#/ {
		r = $2; k = $3; req = ($0 ~ / req=/)
		if (k == "SB") { b[r] = $1; op[r] = req ? "isend" : "send" }
		else if (k == "RB" && !req) { b[r] = $1; op[r] = "recv" }
		else if (k == "XB" && $4 == "op=allreduce") { b[r] = $1; op[r] = "allreduce" }
		else if ((k == "SE" || (k == "RE" && op[r] == "recv") || (k == "XE" && op[r] == "allreduce")) && op[r] != "") {
			print op[r], r, 1e6 * ($1 - b[r]); op[r] = "" }
	}' "$1" | sort -k1,1 -k2,2n -k3,3g | awk '
		{ key = $1 " " $2; if (key != last) { flush(); last = key } v[++n] = $3; s += $3 }
		function flush() { if (n) printf "%-10s %d %6d %9.2f %9.2f\n", substr(last, 1, index(last, " ") - 1), substr(last, index(last, " ") + 1), n, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), s / n; n = 0; s = 0 }
		END { flush() }'
}

echo "== validate: heat $n x $n, $it steps, $np ranks on $(nproc) cores" \
	"(no oversubscription); base -O0 over TCP, target -O2 over shared memory"
echo "   load average at start: $(load)"

echo "== communication: trc-pingpong on both machines, fitted"
ops=send,recv,send-late,isend,barrier,reduce,allreduce
mpirun -np $np $base trc-pingpong --repetitions 200 -m 65536 --operations $ops >"$out/base.meas"
mpirun -np $np $target trc-pingpong --repetitions 200 -m 65536 --operations $ops >"$out/target.meas"
trc-fit "$out/base.meas" >"$out/base.fit"
trc-fit "$out/target.meas" >"$out/target.fit"
halo=$(((n + 2) * 8))
printf '   fitted at the halo size %d bytes (us): base send %s isend %s recv %s, target send %s isend %s recv %s; allreduce of 4 bytes: base %s target %s\n' \
	"$halo" "$(fit "$out/base.fit" send $halo)" "$(fit "$out/base.fit" isend $halo)" "$(fit "$out/base.fit" recv $halo)" \
	"$(fit "$out/target.fit" send $halo)" "$(fit "$out/target.fit" isend $halo)" "$(fit "$out/target.fit" recv $halo)" \
	"$(fit "$out/base.fit" allreduce 4)" "$(fit "$out/target.fit" allreduce 4)"

echo "== computation: reduced problem ($rn x $rn, $rit steps, $np ranks) on both, $rreps times"
: >"$out/ratios.all"
i=1
while [ $i -le "$rreps" ]; do
	trc-record -o "$out/rb.trc" -- -np $np $base "$heat0" -n "$rn" -i "$rit" -t 0 >/dev/null
	trc-record -o "$out/rt.trc" -- -np $np $target trc-heat -n "$rn" -i "$rit" --tolerance 0 >/dev/null
	trc-sum -t --section procs "$out/rb.trc" >"$out/rb.tsv"
	trc-sum -t --section procs "$out/rt.trc" >"$out/rt.tsv"
	awk -F'\t' 'NR == FNR { if (FNR > 1) t[$1 " " $2] = $8; next }
	    FNR > 1 && t[$1 " " $2] > 0 { print $1, $2, $8 / t[$1 " " $2] }' \
	    "$out/rt.tsv" "$out/rb.tsv" >>"$out/ratios.all"
	i=$((i + 1))
done
{
	echo "# speed ratios base/target: median of $rreps runs of trc-heat -n $rn -i $rit on $np ranks"
	echo "mode speed"
	for key in $(awk '{ print $1 ":" $2 }' "$out/ratios.all" | sort -u); do
		p=${key%:*} r=${key#*:}
		printf '%-10s %s %.3f\n' "$p" "$r" "$(awk -v p="$p" -v r="$r" '$1 == p && $2 == r { print $3 }' "$out/ratios.all" | median)"
	done
} >"$out/ratios.tbl"
cat "$out/ratios.tbl"
echo "   load average: $(load)"

: >"$out/errors"
: >"$out/steperrors"
: >"$out/fullratios"
: >"$out/vs.all"
r=1
while [ $r -le "$reps" ]; do
	echo "== run $r of $reps: full problem ($n x $n, $it steps, $np ranks), load average $(load)"
	trc-record -o "$out/base.trc" -- -np $np $base "$heat0" -n "$n" -i "$it" -t 0 >/dev/null
	trc-scale -b "$out/base.fit" -c "$out/target.fit" --cpu "$out/ratios.tbl" \
	    "$out/base.trc" >"$out/pred.trc" 2>"$out/scale.err" || { cat "$out/scale.err" >&2; exit 2; }
	trc-record -o "$out/obs.trc" -- -np $np $target trc-heat -n "$n" -i "$it" --tolerance 0 >/dev/null
	trc-sum --vs "$out/obs.trc" "$out/pred.trc" | sed '/^total time/d'
	trc-sum -t --vs "$out/obs.trc" "$out/pred.trc" | awk -F'\t' -v r=$r 'NR > 1 && $7 > 0 { print r, $1, $3, $5, $6 / $7 }' >>"$out/vs.all"
	sed 's/^/   /' "$out/scale.err"
	b=$(span "$out/base.trc") p=$(span "$out/pred.trc") o=$(span "$out/obs.trc")
	e=$(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	echo "total: base $b s, predicted $p s, observed $o s, error $e%"
	sb=$(step "$out/base.trc") sp=$(step "$out/pred.trc") so=$(step "$out/obs.trc")
	se=$(awk -v p="$sp" -v o="$so" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
	echo "median step: base $sb us, predicted $sp us, observed $so us, error $se%"
	echo "$se" >>"$out/steperrors"
	echo "rank 0's blocking send ends, relative to rank 1's receive begin: base $(coupled "$out/base.trc"), observed $(coupled "$out/obs.trc"), predicted $(coupled "$out/pred.trc")"
	echo "$e" >>"$out/errors"
	trc-sum -t --section procs "$out/base.trc" >"$out/fb.tsv"
	trc-sum -t --section procs "$out/obs.trc" >"$out/ft.tsv"
	awk -F'\t' 'NR == FNR { if (FNR > 1) t[$1 " " $2] = $8; next }
	    FNR > 1 && t[$1 " " $2] > 0 { print $1, $2, $8 / t[$1 " " $2] }' \
	    "$out/ft.tsv" "$out/fb.tsv" >>"$out/fullratios"
	r=$((r + 1))
done
echo "== calls measured in the last run's traces (us): kind rank count median mean"
for f in base obs pred; do
	calls "$out/$f.trc" | sed "s/^/   $f /"
done
echo "== speed ratios base/target: the reduced problem's (used) against the full runs' own (median of $reps)"
for key in $(awk '{ print $1 ":" $2 }' "$out/fullratios" | sort -u); do
	p=${key%:*} k=${key#*:}
	printf '   %-10s rank %s  reduced %6.3f  full %6.3f\n' "$p" "$k" \
	    "$(awk -v p="$p" -v k="$k" '$1 == p && $2 == k { print $3 }' "$out/ratios.tbl")" \
	    "$(awk -v p="$p" -v k="$k" '$1 == p && $2 == k { print $3 }' "$out/fullratios" | median)"
done
echo "== predicted/observed per procedure or call and rank over $reps runs: median (min to max)"
echo "   of the mean ratio per occurrence (Table 2), and of the ratio of the summed lifetimes"
for key in $(awk '{ print $2 ":" $3 }' "$out/vs.all" | sort -u); do
	p=${key%:*} k=${key#*:}
	awk -v p="$p" -v k="$k" '$2 == p && $3 == k { print $4, $5 }' "$out/vs.all" |
	    awk -v p="$p" -v k="$k" '{ a[NR] = $1; b[NR] = $2 }
		function med(v, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
			lo = v[1]; hi = v[n]
			return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
		END { m = med(a, NR); l1 = lo; h1 = hi; s = med(b, NR)
		printf "   %-10s rank %s  mean %6.2f (%.2f to %.2f)   sums %6.2f (%.2f to %.2f)\n", p, k, m, l1, h1, s, lo, hi }'
done
sort -g "$out/errors" | awk -v l="$(load)" '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "== total-time error over %d runs: %s; median %.1f%%, spread %s%% to %s%%; load average at end %s\n",
	    NR, list, m, v[1], v[NR], l }' list="$(tr '\n' ' ' <"$out/errors" | sed 's/ $//; s/ /%, /g; s/$/%/')"
sort -g "$out/steperrors" | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "== median-step error over %d runs: %s; median %.1f%%, spread %s%% to %s%%\n",
	    NR, list, m, v[1], v[NR] }' list="$(tr '\n' ' ' <"$out/steperrors" | sed 's/ $//; s/ /%, /g; s/$/%/')"
