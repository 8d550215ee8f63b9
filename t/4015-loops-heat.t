#!/bin/sh
# trc-loops on traces of trc-heat: 10 times the iterations make a
# description at most 1.2 times the size; expansion, with a histogram
# of the times or without, has the same execution graph and the same
# rank totals, and lossless the same events and times.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
[ -x "$TRC_BIN/trc-heat" ] || skip_all "trc-heat not built"

for i in 20 200; do
	trc-record -o "$tmp/h$i.trc" -- -np 4 trc-heat -n 16 -i $i --tolerance 0 >"$out" 2>"$err"
	ok $? "trc-record runs trc-heat -i $i"
	trc-loops "$tmp/h$i.trc" > "$tmp/h$i.loops"
	ok $? "trc-loops: -i $i"
done
a=$(wc -c < "$tmp/h20.loops") b=$(wc -c < "$tmp/h200.loops")
[ $((b * 10)) -le $((a * 12)) ]
ok $? "10 times the iterations: $b bytes against $a, at most 1.2 times"
t1=$(wc -c < "$tmp/h200.trc")
[ $((b * 20)) -le "$t1" ]
ok $? "-i 200: $b bytes against the trace's $t1, at most a twentieth"
is "$(grep -c '^ *loop 200$' "$tmp/h200.loops")" 3 "-i 200: a loop of 200 for each of the 3 programs (first, middle, last rank)"
is "$(sed -n 's/^group //p' "$tmp/h200.loops" | tr '\n' ' ')" "0 1-2 3 " \
    "-i 200: ranks 1 and 2 share a program"
trc-loops -x "$tmp/h200.loops" > "$tmp/h200.x"
trc-stable -q "$tmp/h200.trc" "$tmp/h200.x"
ok $? "-x: the execution graph is the trace's"
sum_ranks() {
	trc-sum --section ranks -t "$1" | awk -F'\t' '$1 ~ /^[0-9]+$/ { print $1, $2, $3 }'
}
sum_ranks "$tmp/h200.trc" > "$tmp/tot.want"
sum_ranks "$tmp/h200.x" > "$tmp/tot.got"
is_file "$tmp/tot.got" "$tmp/tot.want" "-x: every rank's events and total time"
trc-loops --histogram 8 "$tmp/h200.trc" | trc-loops -x > "$tmp/hx"
trc-stable -q "$tmp/h200.trc" "$tmp/hx"
ok $? "--histogram 8 -x: the execution graph is the trace's"
sum_ranks "$tmp/hx" > "$tmp/tot.got"
is_file "$tmp/tot.got" "$tmp/tot.want" "--histogram 8 -x: every rank's events and total time"
trc-loops --lossless "$tmp/h200.trc" | trc-loops -x | sort > "$tmp/lx"
trc-cat "$tmp/h200.trc" | sort | cmp -s - "$tmp/lx"
ok $? "--lossless -x: the same events at the same times"
done_testing
