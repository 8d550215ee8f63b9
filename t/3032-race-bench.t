#!/bin/sh
# The short form of make bench-race: trc-race against trc-stable on
# small generated streams over 64 ranks.  trc-race must take at most 3
# times trc-stable's CPU time, and its peak memory must not grow with
# the trace (a tenth of it against all of it, within 25% and 1 MB).
# Under the sanitizers, which slow the two unevenly and keep freed
# memory in quarantine, only a smaller run, without the figures.
. "$(dirname "$0")/lib.sh"
runstat=${TRC_BUILD:-$T/../build}/bench/runstat
[ -x "$runstat" ] || skip_all "no $runstat"
# Under the sanitizers, whose figures are not judged, each measured once.
[ -z "$TRC_SANITIZE" ] || export TRC_BENCH_RUNS=1
events=200000
[ -n "$TRC_SANITIZE" ] && events=30000
TRC_BENCH_EVENTS=$events sh "$T/../benchmarks/race-bench.sh" "$runstat" "$TRC_BIN" >"$out" 2>"$err"
ok $? "race-bench.sh runs"
sed 's/^/# /' "$out"
is "$(grep -c '^  trc-race CPU / trc-stable CPU' "$out")" "2" "two streams measured"
is "$(grep -c 'choice points race' "$out")" "2" "trc-race answered on both"
grep -q "master-worker -n 64 -e $events" "$out"; ok $? "master-worker over 64 ranks"
is "$(awk '/^  trc-race: / { print ($2 > 0) }' "$out" | head -1)" "1" "master-worker has races"
[ -n "$TRC_SANITIZE" ] && done_testing && exit
# A receive that loses every waitany of the run (t/data/race/term.awk)
# keeps only the waits not yet settled: memory flat in their number.
for k in 20000 200000; do
	awk -v k=$k -v racy=0 -f "$T/data/race/term.awk" >"$tmp/t.trc"
	"$runstat" trc-race "$tmp/t.trc" 2>&1 >/dev/null | sed -n 's/.*maxrss=//p' >"$tmp/peak.$k"
done
is "$(awk -v s="$(cat "$tmp/peak.20000")" -v b="$(cat "$tmp/peak.200000")" \
    'BEGIN { print (b <= s * 1.25 || b <= s + 1024) ? "flat" : s " KB to " b " KB" }')" "flat" \
    "a receive losing 200000 waits: memory as for 20000"
# A rank past MPI_Finalize is not waited for (t/data/race/silent.awk).
for k in 20000 200000; do
	awk -v k=$k -v fin=1 -f "$T/data/race/silent.awk" >"$tmp/t.trc"
	"$runstat" trc-race "$tmp/t.trc" 2>&1 >/dev/null | sed -n 's/.*maxrss=//p' >"$tmp/peak.$k"
done
is "$(awk -v s="$(cat "$tmp/peak.20000")" -v b="$(cat "$tmp/peak.200000")" \
    'BEGIN { print (b <= s * 1.25 || b <= s + 1024) ? "flat" : s " KB to " b " KB" }')" "flat" \
    "a finalized rank: memory for 200000 choices as for 20000"
# The target, 3x trc-stable's CPU, is make bench's to judge on a quiet
# host (2.8 to 2.9 on master-worker here since trc-stable's reader got
# faster, 2026-11-28): on a shared host a timed test of it flips with
# the load, so the suite guards against a gross regression, 5x.
is "$(awk '/trc-race CPU \/ trc-stable CPU:/ { n += ($6 + 0 <= 5) } END { print n + 0 }' "$out")" "2" \
	"trc-race within 5x trc-stable's CPU on both ($(sed -n 's/.*trc-stable CPU: \([0-9.]*\).*/\1/p' "$out" | tr '\n' ' '))"
is "$(awk '/events:.*KB.*events:.*KB/ { s = $4; b = $8
	if (b > s * 1.25 && b > s + 1024) print "grows", $0 }' "$out")" "" \
    "peak memory does not grow with the trace"
done_testing
