#!/bin/sh
# make bench-formats' short form: the script on 20000 events prints,
# for every format, the reader's rate against the text stream's and,
# for the text formats, the rate of wc -l over the same files (the
# most a reader of those bytes can reach); then peak memory of a fifth
# of the events and of all of them, each reader's.
. "$(dirname "$0")/lib.sh"
runstat=${TRC_BUILD:-$T/../build}/bench/runstat
[ -x "$runstat" ] || skip_all "no $runstat"
# Under the sanitizers, whose figures are not judged, each measured once.
[ -z "$TRC_SANITIZE" ] || export TRC_BENCH_RUNS=1

TRC_BENCH_EVENTS=20000 sh "$T/../benchmarks/formats-bench.sh" "$runstat" "$TRC_BIN" > "$out" 2> "$err"
ok $? "the script runs"
is "$(sed -n 's/^stream: \(.*\): [0-9]* events$/\1/p' "$out" | tr '\n' ';')" \
    "trc-gen -p halo -n 64 -e 20000;trc-gen -p ring -n 64 -e 20000;" "two streams, named"
# A row: name, cpu s, M events/s, peak MB, ratio ending in x.
row='[0-9.][0-9.]*  *[0-9.][0-9.]*  *[0-9.][0-9.]*  *[0-9.][0-9.]*x'
for f in prv simgrid dumpi otf2 sddf; do
	grep -q "^  $f ([1-9][0-9]* events)  *$row" "$out"
	ok $? "$f: a row with its rate against the text stream's"
done
# Each text format's row is followed by its bytes' row; OTF2's is not.
for f in prv simgrid dumpi sddf; do
	is "$(grep -A1 "^  $f (" "$out" | sed -n '2s/^    its bytes alone (wc -l)  *'"$row"'.*$/yes/p')" yes \
	    "$f: its bytes alone, wc -l"
done
is "$(grep -A1 '^  otf2 (' "$out" | grep -c 'bytes alone')" 0 "otf2, binary: no such row"
is "$(awk '/^peak memory/ { f = 1; next } f { print $1 }' "$out" | sort | tr '\n' ' ')" \
    "dumpi otf2 prv sddf simgrid trc trc " "peak memory of every reader"
done_testing
