#!/bin/sh
# make replay-validate in short (issue 18): trc-heat, small and short,
# on 2 and 4 ranks, 2 turns.  Each turn replays every representative
# and then makes the full run (their traces' times say the order), so
# that a drift of the host falls on both; every representative's
# procedures get a line with the paired error, and both predictions
# (ratios from the replays, from the full runs) their error.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
command -v mpicc >/dev/null || skip_all "no mpicc"
[ -x "$TRC_BIN/trc-heat" ] || skip_all "trc-heat not built"

cd "$T/.." || exit 2
rv=$tmp/rv
# Under the sanitizers 2 ranks alone: the replay is the same code on 4
# (t/4025 replays a rank of a 4-rank run under them), and trc-scale's
# cores and switch have t/1147; the plain pass runs both.
nps="2 4"
[ -z "$TRC_SANITIZE" ] || nps=2
OUT=$rv REPS=2 PREPS=3 N=48 ITER=30 NPS="$nps" QUIETWAIT=0 \
	sh benchmarks/replay-validate.sh "$TRC_BIN" "$TRC_BUILD" >"$out" 2>"$err"
ok $? "replay-validate.sh runs"
[ -s "$err" ] && sed 's/^/# /' "$err"
grep -q '^# transport: .*btl=self,vader$' "$rv/target.meas"
ok $? "the target over shared memory, by default"
for np in $nps; do
	d=$rv/np$np
	# The order the turns make, from the representatives trc-cluster
	# chose: rep R.1 for each, obs.1, rep R.2 for each, obs.2.
	want=$(for i in 1 2; do
		awk -v i="$i" '{ print "rep" $1 "." i ".trc" }' "$d/reps"
		echo "obs.$i.trc"
	done | tr '\n' ' ')
	got=$(cd "$d" && ls -tr rep*.trc obs.*.trc | tr '\n' ' ')
	is "$got" "$want" "$np ranks: replays and full runs in turns"
	# The section of per-procedure lines: three procedures a
	# representative, each with both clocks and the paired error.
	awk -v h="== $np ranks: computation per procedure" \
	    'index($0, h) == 1 { f = 1; next } /^==/ { f = 0 } f' "$out" >"$tmp/procs$np"
	is "$(grep -cE '^   rank [0-9]+ (IterEdge|Iterate|Converged) +cpu: replayed [0-9.]+ s, full run [0-9.]+ s, [-+][0-9.]+% \(in pairs [-+][0-9.]+%; full runs [-+][0-9.]+% to [-+][0-9.]+%\);  wall: [0-9.]+ s, [0-9.]+ s, [-+][0-9.]+%;  share [0-9.]+%(  minor)?$' "$tmp/procs$np")" \
	    "$(awk 'END { print 3 * NR }' "$d/reps")" "$np ranks: a line per representative and procedure"
	# Each share is the full run's CPU time over the full runs'
	# median time (of two, their mean), "minor" under 2%: within the
	# share's last digit and what the CPU time's rounding to the
	# microsecond on the line moves it.
	m=$(awk '{ s += $1 } END { printf "%.9f", s / NR }' "$d/obs.spans")
	awk -v m="$m" '{ c = $0; sub(/.*full run /, "", c); sub(/ s,.*/, "", c)
		sh = $0; sub(/.*share /, "", sh); minor = sh ~ /minor/; sub(/%.*/, "", sh)
		want = 100 * c / m; tol = 0.051 + 100 * 0.0000005 / m
		if (sh - want > tol || want - sh > tol || minor != (sh + 0 < 2)) bad++ }
	    END { exit bad > 0 || NR == 0 }' "$tmp/procs$np"
	ok $? "$np ranks: each procedure's share of the time, minor under 2%"
	# The full runs' fastest is at or under their median, their
	# slowest at or over it.
	awk '{ s = $0; sub(/.*full runs /, "", s); split(s, v, "% to ")
		if (v[1] + 0 > 0 || v[2] + 0 < 0) bad++ } END { exit bad > 0 || NR == 0 }' "$tmp/procs$np"
	ok $? "$np ranks: the full runs' spread brackets their median"
	grep -qE "^== $np ranks: base [0-9.]+ s; predicted[^;]*[0-9.]+ s; observed [0-9.]+ s \\(median of 2: [0-9.]+ [0-9.]+\\); error [-+][0-9.]+%\$" "$out"
	ok $? "$np ranks: the prediction from the replays' ratios, with its error"
	is "$(wc -l <"$d/obs.spans")" 2 "$np ranks: two full runs measured"
done
is "$(grep -cE '^   with ratios from the full runs instead: predicted [0-9.]+ s, error [-+][0-9.]+%$' "$out")" \
	"$(echo $nps | wc -w)" "each rank count: the prediction from the full runs' ratios"
# More ranks than cores: the switch between a core's ranks measured,
# and the 4-rank prediction made with it (on two cores or more).
if [ "$nps" != 2 ] && [ "$(nproc)" -gt 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -lt 4 ]; then
	sw=$(sed -n 's/^   a switch between two ranks of one core: \([0-9.]*\) s .*/\1/p' "$out")
	ok "$(awk -v s="$sw" 'BEGIN { print !(s > 0 && s < 0.001) }')" "a switch measured: $sw s"
	grep -q "^== 4 ranks: base [0-9.]* s; predicted (--cores $(nproc) --bound --switch $sw) " "$out"
	ok $? "  the 4-rank prediction made with it"
fi
# The target over TCP (TARGET=tcp): the measured transport says so;
# another TARGET is refused before anything runs.
OUT=$rv.tcp TARGET=tcp REPS=1 PREPS=3 N=48 ITER=30 NPS=2 QUIETWAIT=0 \
	sh benchmarks/replay-validate.sh "$TRC_BIN" "$TRC_BUILD" >"$out.tcp" 2>"$err"
ok $? "TARGET=tcp: replay-validate.sh runs"
grep -q '^# transport: .*btl=self,tcp$' "$rv.tcp/target.meas"
ok $? "  its target over TCP"
grep -q '^== 2 ranks: base [0-9.]* s; predicted [0-9.]* s; observed ' "$out.tcp"
ok $? "  and its prediction"
OUT=$rv.bad TARGET=udp sh benchmarks/replay-validate.sh "$TRC_BIN" "$TRC_BUILD" >"$out.bad" 2>"$err"
is $? 2 "TARGET=udp: exit 2"
is "$(cat "$err")" "replay-validate.sh: TARGET is shm or tcp, not udp" "  with the reason"
ok "$([ ! -e "$rv.bad" ]; echo $?)" "  and nothing made"
done_testing
