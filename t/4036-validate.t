#!/bin/sh
# make validate in short: trc-heat small and short, 2 turns of the
# reduced and the full problem on both machines (tcp, shm), each full
# run predicted from the other's.  Per direction the errors of the
# two predictions (the ratios measured with the base runs' delays left
# out, and of whole times) and the summed rows; per machine its full runs'
# median total time and their spread about it, the host's noise,
# checked against the spans of the traces the script kept.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
command -v mpicc >/dev/null || skip_all "no mpicc"
[ -x "$TRC_BIN/trc-heat" ] || skip_all "trc-heat not built"

cd "$T/.." || exit 2
v=$tmp/v
mkdir -p "$v"
OUT=$v REPS=2 RREPS=2 PREPS=3 N=48 ITER=50 RITER=20 QUIETWAIT=0 \
	sh benchmarks/validate.sh "$TRC_BIN" "$TRC_BUILD" >"$out" 2>"$err"
ok $? "validate.sh runs"
[ -s "$err" ] && sed 's/^/# /' "$err"
grep -q '^== validate: heat 48 x 48, 50 steps, 2 ranks' "$out"
ok $? "its title names the problem"
for d in tcp-shm shm-tcp; do
	for w in "" " with the runs' whole times"; do
		grep -qE "^== $d: total-time error$w over 2 runs: [-+][0-9.]+%, [-+][0-9.]+%; median [-+][0-9.]+%, spread [-+][0-9.]+% to [-+][0-9.]+%\$" "$out"
		ok $? "$d: the errors$w"
	done
	is "$(wc -l <"$v/$d.errors")" 2 "$d: an error a run"
	grep -q "^== $d: skew warnings per run: 0 0 \$" "$out"
	ok $? "$d: no skew warning"
done
# Each direction's rows with the whole times' ratios (those of 2% or
# more printed: under the sanitizers the short run's Iterate may be
# less), from every run's summed ratios, Iterate's among them.
is "$(grep -c "^   with the runs' whole times, the rows of 2% or more:\$" "$out")" 2 \
    "the rows with the whole times' ratios, each direction"
for d in tcp-shm shm-tcp; do
	is "$(awk '$2 == "Iterate" && $3 == "procedure" { print $1 }' "$v/$d.wrows" | tr '\n' ' ')" "1 2 " \
	    "  $d: Iterate's summed ratio in each run"
	# The headline's table was measured with the delays left out.
	is "$(grep -v '^#' "$v/ratios.$d" | sed -n 2p)" "outliers drop" "  $d: its ratios say outliers drop"
	ok "$(grep -c '^outliers' "$v/wratios.$d" | grep -qx 0; echo $?)" "  $d: the whole times' do not"
done
# The noise: the median and extremes of the spans, first event to
# last, to the microsecond as the script prints them, of each
# machine's full runs.
span() { awk '!/^#/ { if (!s) { a = $1; s = 1 } z = $1 } END { printf "%.6f\n", z - a }' "$1"; }
for m in tcp shm; do
	a=$(span "$v/$m.1.trc") b=$(span "$v/$m.2.trc")
	line=$(grep "^== $m: the full runs took " "$out")
	ok $? "$m: the noise line"
	med=$(echo "$line" | sed -n 's/.* took \([0-9.e-]*\) s (median of 2), from .*/\1/p')
	lo=$(echo "$line" | sed -n 's/.*, from \([-+][0-9.]*\)% to .*/\1/p')
	hi=$(echo "$line" | sed -n 's/.*% to \([-+][0-9.]*\)% of it$/\1/p')
	ok "$(awk -v a="$a" -v b="$b" -v m="$med" 'BEGIN { x = (a + b) / 2
		print !(m > 0 && (m - x) / x < 1e-3 && (x - m) / x < 1e-3) }')" \
	    "$m: its median $med s is the mean of the two spans, $a and $b"
	ok "$(awk -v a="$a" -v b="$b" -v m="$med" -v lo="$lo" -v hi="$hi" 'BEGIN {
		s = a < b ? a : b; l = a < b ? b : a
		want_lo = 100 * (s - m) / m; want_hi = 100 * (l - m) / m
		d1 = lo - want_lo; d2 = hi - want_hi
		print !(d1 * d1 < 0.0101 && d2 * d2 < 0.0101 && lo <= 0 && hi >= 0) }')" \
	    "$m: its spread $lo% to $hi%, the shorter and longer span against it"
done
done_testing
