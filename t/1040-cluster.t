#!/bin/sh
# trc-cluster: a master and five workers, grouped by hand.  Rank 0
# computes 1 s in "collect"; ranks 1-5 compute 3.00, 3.05, 2.95, 3.12
# and 3.00 s in "task".  Relative distances |a-b|/max(|a|,|b|) from
# rank 1: .05/3.05 = 0.016393, .05/3 = 0.016667, .12/3.12 = 0.038462, 0;
# their sum 0.071522 is the workers' least (rank 2's is 0.088009; rank
# 5 ties, the lower wins); the master is sqrt(1 + 9)/3 = 1.054093 from
# rank 1.  Three groups: {1,4} costs .016393 + .016667 (rank 2 nearer
# rank 1 than rank 4's .07/3.12 = .022436), {1,2} .016667 + .022436.
. "$(dirname "$0")/lib.sh"

{
	echo '#trc 1 ranks=6'
	sort -s -n -k1,1 <<'EOF2'
0.000000000 0 PB fn=collect
1.000000000 0 PE fn=collect
0.000000000 1 PB fn=task
3.000000000 1 PE fn=task
0.000000000 2 PB fn=task
3.050000000 2 PE fn=task
0.000000000 3 PB fn=task
2.950000000 3 PE fn=task
0.000000000 4 PB fn=task
3.120000000 4 PE fn=task
0.000000000 5 PB fn=task
3.000000000 5 PE fn=task
EOF2
} >"$tmp/mw.trc"

tab=$(printf '\t')
cat >"$tmp/two" <<EOF2
# representative ranks: 2 groups of 6 ranks by computation per procedure (trc-cluster(1))
#group 0 representative=0 size=1 ranks=0
#group 1 representative=1 size=5 ranks=1-5
rank${tab}group${tab}representative${tab}distance${tab}seconds
0${tab}0${tab}0${tab}0.000000${tab}0.000000000
1${tab}1${tab}1${tab}0.000000${tab}0.000000000
2${tab}1${tab}1${tab}0.016393${tab}0.050000000
3${tab}1${tab}1${tab}0.016667${tab}0.050000000
4${tab}1${tab}1${tab}0.038462${tab}0.120000000
5${tab}1${tab}1${tab}0.000000${tab}0.000000000
EOF2
expect_exit 0 "-n 2" -- trc-cluster -n 2 "$tmp/mw.trc"
is_file "$out" "$tmp/two" "-n 2: master apart, rank 1 stands for the workers"
expect_exit 0 "default radius 0.05" -- trc-cluster "$tmp/mw.trc"
is_file "$out" "$tmp/two" "the fewest groups within 0.05 are the same two"
trc-cluster --radius 0.02 "$tmp/mw.trc" >"$out"
is "$(sed -n 's/^# representative ranks: \([0-9]*\) group.*/\1/p' "$out")" 3 \
	"--radius 0.02: rank 4 (0.038 away) needs a third group"
is "$(awk -F'\t' '$1 == 4 { print $3, $4 }' "$out")" "4 0.000000" \
	"--radius 0.02: rank 4 represents itself"
trc-cluster -n 1 <"$tmp/mw.trc" >"$out"
is "$(sed -n 's/^#group 0 //p' "$out")" "representative=1 size=6 ranks=0-5" \
	"-n 1 from stdin: rank 1 is the most central"
is "$(awk -F'\t' '$1 == 0 { print $4, $5 }' "$out")" "1.054093 3.162277660" \
	"-n 1: the master's distance, relative and in seconds"
trc-cluster -n 9 "$tmp/mw.trc" >"$out"
is "$(grep -c '^#group .* size=1 ' "$out")" 6 "-n beyond the ranks: one group each"
a=$(trc-cluster -n 2 "$tmp/mw.trc"); b=$(trc-cluster -n 2 "$tmp/mw.trc")
is "$a" "$b" "deterministic"

# Outside every region counts too: two ranks alike in "task" differ there.
printf '#trc 1 ranks=2\n0 0 PB fn=task\n0 1 PB fn=task\n1 0 PE fn=task\n1 1 PE fn=task\n3 0 MK\n' >"$tmp/out.trc"
trc-cluster "$tmp/out.trc" >"$out"
is "$(awk -F'\t' '$1 == 0 { print $4 }' "$out")" 0.000000 "rank 0 alone"
is "$(sed -n 's/^# representative ranks: \([0-9]*\).*/\1/p' "$out")" 2 \
	"2 s outside every region on rank 0 only: two groups"

expect_exit 2 "-n 0" -- trc-cluster -n 0 "$tmp/mw.trc"
is "$(cat "$err")" "trc-cluster: invalid group count '0' (want an integer from 1 to 2147483647)" "-n 0: message"
expect_exit 2 "--radius -1" -- trc-cluster --radius -1 "$tmp/mw.trc"
is "$(cat "$err")" "trc-cluster: invalid radius '-1'" "--radius -1: message"
printf '#trc 1 ranks=2\n0 0 PB fn=a\n0.5 0 PE fn=b\n' >"$tmp/bad.trc"
expect_exit 2 "mismatched region" -- trc-cluster "$tmp/bad.trc"
is "$(cat "$err")" "trc-cluster: $tmp/bad.trc:3: PE fn='b' closes region 'a'" "mismatched region: file:line"
printf '#trc 1 ranks=2\n' >"$tmp/empty.trc"
expect_exit 2 "no events" -- trc-cluster "$tmp/empty.trc"
is "$(cat "$err")" "trc-cluster: $tmp/empty.trc: no events" "no events: message"
expect_exit 2 "two files" -- trc-cluster a b
done_testing
