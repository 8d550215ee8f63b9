#!/bin/sh
# The short form of make bench-race: trc-race against trc-stable on
# small generated streams over 64 ranks.  trc-race must take at most 3
# times trc-stable's CPU time (not held under the sanitizers, which
# slow the two unevenly), and its peak memory must not grow with the
# trace (a tenth of it against all of it, within 25% and 1 MB).
. "$(dirname "$0")/lib.sh"
runstat=${TRC_BUILD:-$T/../build}/bench/runstat
[ -x "$runstat" ] || skip_all "no $runstat"
TRC_BENCH_EVENTS=200000 sh "$T/../benchmarks/race-bench.sh" "$runstat" "$TRC_BIN" >"$out" 2>"$err"
ok $? "race-bench.sh runs"
sed 's/^/# /' "$out"
is "$(grep -c '^  trc-race CPU / trc-stable CPU' "$out")" "2" "two streams measured"
is "$(grep -c 'choice points race' "$out")" "2" "trc-race answered on both"
grep -q 'master-worker -n 64' "$out"; ok $? "master-worker over 64 ranks"
is "$(awk '/^  trc-race: / { print ($2 > 0) }' "$out" | head -1)" "1" "master-worker has races"
if [ -z "$TRC_SANITIZE" ]; then
	is "$(grep -c '(target <= 3): met' "$out")" "2" "trc-race within 3x trc-stable's CPU on both"
fi
is "$(awk '/events:.*KB.*events:.*KB/ { s = $4; b = $8
	if (b > s * 1.25 && b > s + 1024) print "grows", $0 }' "$out")" "" \
    "peak memory does not grow with the trace"
done_testing
