#!/bin/sh
# make bench-compact's short form: the script on 20000 events of one
# pattern prints every size and rate; trcb is at most a fifth of the
# text and trc-loops' description far smaller; memory does not grow.
. "$(dirname "$0")/lib.sh"
runstat=${TRC_BUILD:-$T/../build}/bench/runstat
[ -x "$runstat" ] || skip_all "no $runstat"
# Under the sanitizers, whose figures are not judged, each measured once.
[ -z "$TRC_SANITIZE" ] || export TRC_BENCH_RUNS=1

TRC_BENCH_EVENTS=20000 TRC_BENCH_HEAT_ITERS=0 TRC_BENCH_PATTERNS=halo \
    sh "$T/../benchmarks/compact-bench.sh" "$runstat" "$TRC_BIN" > "$out" 2> "$err"
ok $? "the script runs"
is "$(sed -n 's/^stream: \(.*\): [0-9]* events$/\1/p' "$out")" "trc-gen -p halo -n 64 -e 20000" \
    "one stream, named"
for form in "text" "text + gzip" "trcb" "trcb-zstd" "trc-loops" "trc-loops --lossless"; do
	n=$(awk -v f="$form" 'substr($0, 3, 22) == sprintf("%-22s", f) { print $(NF - 1) }' "$out")
	[ -n "$n" ] && [ "$n" -gt 0 ]
	ok $? "size of $form: $n bytes"
done
ratio() {
	awk -v f="$1" 'substr($0, 3, 22) == sprintf("%-22s", f) { print $NF }' "$out"
}
awk -v r="$(ratio trcb)" 'BEGIN { exit !(r >= 5) }'
ok $? "trcb at most a fifth of the text (text/trcb $(ratio trcb))"
awk -v r="$(ratio trc-loops)" 'BEGIN { exit !(r >= 10) }'
ok $? "trc-loops at most a tenth, 300 events a rank (text/loops $(ratio trc-loops))"
for tool in sum scale stable; do
	for input in text trcb; do
		grep -q "^  trc-$tool, $input  *[0-9.]*  *[0-9.]*  *[0-9.]*" "$out"
		ok $? "trc-$tool on $input: a rate"
	done
done
# Peak memory of a fifth of the events and all of them: within 1 MB
# (not under the sanitizers, whose quarantine grows with the work).
[ -n "$TRC_SANITIZE" ] || awk '/^peak memory/ { f = 1 }
	f && /^  trc-cat, trcb|^  trc-sum, trcb|^  trc-cat --to trcb|^  trc-loops, text/ {
	d = $NF - $(NF - 1); if (d > 1024 || d < -1024) bad = 1; n++ }
	END { exit !(n == 4 && !bad) }' "$out"
ok $? "reading and writing trcb, trc-loops: memory flat in length${TRC_SANITIZE:+ (not measured under the sanitizers)}"
done_testing
