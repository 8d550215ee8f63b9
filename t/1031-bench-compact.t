#!/bin/sh
# make bench-compact's short form: the script on 20000 events of one
# pattern prints every size and rate, and trc-sum's summary alone;
# trcb is at most a fifth of the text and trc-loops' description far
# smaller; memory does not grow.
. "$(dirname "$0")/lib.sh"
runstat=${TRC_BUILD:-$T/../build}/bench/runstat
[ -x "$runstat" ] || skip_all "no $runstat"
# Under the sanitizers, whose figures are not judged, each measured once.
[ -z "$TRC_SANITIZE" ] || export TRC_BENCH_RUNS=1

# Memory is compared on 200000 and 1000000 events, both past a block of
# trcb (131072 events on 64 ranks), within which a writer's grows.
TRC_BENCH_EVENTS=20000 TRC_BENCH_MEM_EVENTS=1000000 TRC_BENCH_HEAT_ITERS=0 \
    TRC_BENCH_PATTERNS=halo sh "$T/../benchmarks/compact-bench.sh" "$runstat" "$TRC_BIN" > "$out" 2> "$err"
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
# trc-sum's summary alone (sum-floor): its time is part of trc-sum's
# on either input, so under both; its events are the stream's.
floor=$(dirname "$runstat")/sum-floor
awk -v name="trc-sum's summary alone" '
	substr($0, 3, 30) == sprintf("%-30s", "trc-sum, text") { t = $(NF - 3) }
	substr($0, 3, 30) == sprintf("%-30s", "trc-sum, trcb") { b = $(NF - 3) }
	index($0, name) == 3 && / ns an event; reading, text [0-9.]*, trcb [0-9.]*; trcb at 3x leaves its reader -?[0-9.]*$/ {
		s = substr($0, 33) + 0; n++ }
	END { exit !(n == 1 && s > 0 && s < t && s < b) }' "$out"
ok $? "the summary alone: one line, its time under trc-sum's on text and on trcb"
# Peak memory of a fifth of the events and all of them: within 1 MB
# (not under the sanitizers, whose quarantine grows with the work).
[ -n "$TRC_SANITIZE" ] || awk '/^peak memory/ { f = 1 }
	f && /^  trc-cat, trcb|^  trc-sum, trcb|^  trc-cat --to trcb|^  trc-loops, text/ {
	d = $NF - $(NF - 1); if (d > 1024 || d < -1024) bad = 1; n++ }
	END { exit !(n == 4 && !bad) }' "$out"
ok $? "reading and writing trcb, trc-loops: memory flat in length${TRC_SANITIZE:+ (not measured under the sanitizers)}"
# sum-floor itself, on streams by hand (after the script's output is
# read: expect_exit writes $out).
printf '#trc 1 ranks=2\n0 0 PB fn=a\n5 1 MK\n9 0 PE fn=a\n' > "$tmp/f.trc"
expect_exit 0 "sum-floor: exit 0" -- "$floor" "$tmp/f.trc"
grep -q '^events=3 summary=[0-9.]*$' "$out"
ok $? "sum-floor: the stream's 3 events"
printf '#trc 1 ranks=1\n0 0 PB fn=a\n9 0 PE fn=b\n' > "$tmp/bad.trc"
expect_exit 2 "sum-floor, a region closed by another: exit 2" -- "$floor" "$tmp/bad.trc"
is "$(cat "$err")" "sum-floor: $tmp/bad.trc:3: PE fn='b' closes region 'a'" \
    "sum-floor, a region closed by another: file, line, message"
done_testing
