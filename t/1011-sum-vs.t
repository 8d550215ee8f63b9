#!/bin/sh
# trc-sum --vs: predicted against observed lifetimes, as the paper's
# Table 2, with values computed by hand.
. "$(dirname "$0")/lib.sh"

# Predicted: A lasts 2 s then 4 s on rank 0; the send 1 s; rank 1's
# receive 3 s, then B 0.3 s; the run spans 10 s.
cat > "$tmp/pred.trc" <<'T'
#trc 1 ranks=2
0 0 PB fn=A
0 1 RB peer=0 tag=0 bytes=8
2 0 PE fn=A
2 0 PB fn=A
3 1 RE peer=0 tag=0 bytes=8
3 1 PB fn=B
3.3 1 PE fn=B
6 0 PE fn=A
6 0 SB peer=1 tag=0 bytes=8
7 0 SE peer=1 tag=0 bytes=8
10 0 MK
T
# Observed: A 1 s then 4 s; the send 2 s; the receive 3 s; B 0.1 s;
# 8 s in all.
cat > "$tmp/obs.trc" <<'T'
#trc 1 ranks=2
0 0 PB fn=A
0 1 RB peer=0 tag=0 bytes=8
1 0 PE fn=A
1 0 PB fn=A
3 1 RE peer=0 tag=0 bytes=8
3 1 PB fn=B
3.1 1 PE fn=B
5 0 PE fn=A
5 0 SB peer=1 tag=0 bytes=8
7 0 SE peer=1 tag=0 bytes=8
8 0 MK
T
trc-sum -t --vs "$tmp/obs.trc" "$tmp/pred.trc" > "$out"
cat > "$tmp/want" <<'T'
name	kind	rank	paired	ratio	predicted	observed	sum_ratio	share_percent	flag
A	procedure	0	2	1.500000	6.000000000	5.000000000	1.200000	62.50	-
B	procedure	1	1	3.000000	0.300000000	0.100000000	3.000000	1.25	minor
recv	operation	1	1	1.000000	3.000000000	3.000000000	1.000000	37.50	-
send	operation	0	1	0.500000	1.000000000	2.000000000	0.500000	25.00	-

predicted	observed	error_percent	unpaired
10.000000000	8.000000000	25.00	0
T
is_file "$out" "$tmp/want" "mean ratios (2/1 + 4/4) / 2 = 1.5, 0.3/0.1, 3/3, 1/2; sums 6/5; shares of the rank's 8 s: 5/8, 0.1/8 (minor), 3/8, 2/8; error (10 - 8) / 8"

trc-sum --vs "$tmp/obs.trc" < "$tmp/pred.trc" > "$out"
is "$(sed -n 1,2p "$out")" "predicted: <stdin>
observed:  $tmp/obs.trc" "human table: both runs named first"
grep -q '^A  *1\.50  *-  *1\.20  *6\.000 s  *5\.000 s  *31\.[23]%$' "$out"
ok $? "human table: A is 1.50 on rank 0, nothing on rank 1; sums 6/5 of 6 s and 5 s, 5 s of 2 x 8 s"
grep -q '^B  *-  *3\.00  *3\.00  *300\.000 ms  *100\.000 ms  *0\.6% minor$' "$out"
ok $? "human table: B 0.3 s against 0.1 s of 2 x 8 s, under 2%: minor"
grep -q '^send  *0\.50  *-  *0\.50  *1\.000 s  *2\.000 s  *12\.5%$' "$out"
ok $? "human table: send 1/2, 2 s of 16"
grep -q '^total time, first to last event: predicted 10\.000 s, observed 8\.000 s, error +25\.0%$' "$out"
ok $? "human table: the total times and the error"
grep -q '^error = (predicted - observed) / observed: the prediction is longer than the observed run (too slow)$' "$out"
ok $? "human table: the sign of the error said"

# The other way round the error is negative, and said so: (8 - 10) / 10.
trc-sum --vs "$tmp/pred.trc" "$tmp/obs.trc" > "$out"
is "$(sed -n 1,2p "$out")" "predicted: $tmp/obs.trc
observed:  $tmp/pred.trc" "swapped: the files named"
grep -q 'error -20\.0%$' "$out" && grep -q 'the prediction is shorter than the observed run (too fast)$' "$out"
ok $? "swapped: error -20%, shorter"

# --section picks what is compared: procs, ops, ranks (the totals).
trc-sum -t --section procs --vs "$tmp/obs.trc" "$tmp/pred.trc" | cut -f1,2 > "$out"
is "$(cat "$out")" "name	kind
A	procedure
B	procedure" "--section procs: only the procedures"
trc-sum -t --section ops,ranks --vs "$tmp/obs.trc" "$tmp/pred.trc" | cut -f1,2 > "$out"
is "$(cat "$out")" "name	kind
recv	operation
send	operation

predicted	observed
10.000000000	8.000000000" "--section ops,ranks: the operations and the totals"
trc-sum --section ranks --vs "$tmp/obs.trc" "$tmp/pred.trc" > "$out"
grep -q '^function' "$out"; is "$? $(grep -c '^total time' "$out")" "1 1" "--section ranks, for people: the totals, no table"
expect_exit 2 "--section sizes with --vs" -- trc-sum --section sizes --vs "$tmp/obs.trc" "$tmp/pred.trc"
is "$(cat "$err")" "trc-sum: --vs compares the sections ranks, procs and ops only" "  said"

# Under a microsecond: C lasts 60 ns predicted, 1.5 us observed.
printf '#trc 1\n0 0 PB fn=C\n0.00000006 0 PE fn=C\n0.001 0 MK\n' > "$tmp/p3.trc"
printf '#trc 1\n0 0 PB fn=C\n0.0000015 0 PE fn=C\n0.001 0 MK\n' > "$tmp/o3.trc"
trc-sum --vs "$tmp/o3.trc" "$tmp/p3.trc" > "$out"
grep -q '^C  *0\.04  *0\.04  *60 ns  *1\.500 us  *0\.1% minor$' "$out"
ok $? "sub-microsecond lifetimes shown: 60 ns against 1.5 us, 0.06/1.5 = 0.04"
trc-sum "$tmp/p3.trc" > "$out"
grep -q '^C  *0  *1  *60 ns  *60 ns  *60 ns  *60 ns  *60 ns  *1\.00  *0\.00$' "$out"
ok $? "the summary too: 60 ns, not 0.000000"

# One more occurrence in the prediction stays unpaired, and is said.
sed 's/^10 0 MK$/8 0 PB fn=A\n9 0 PE fn=A\n10 0 MK/' "$tmp/pred.trc" > "$tmp/pred2.trc"
trc-sum --vs "$tmp/obs.trc" "$tmp/pred2.trc" > "$out"
grep -q '^1 occurrences had no partner in the other run$' "$out"; ok $? "unpaired occurrences are reported"

printf '#trc 1\n1 0 SB\n0 0 SE\n' > "$tmp/bad.trc"
expect_exit 2 "a bad observed stream" -- trc-sum --vs "$tmp/bad.trc" "$tmp/pred.trc"
is "$(cat "$err")" "trc-sum: $tmp/bad.trc:3: time goes backwards ('0.000000000' after '1.000000000')" \
	"  names the observed file and line"
expect_exit 2 "a missing observed file" -- trc-sum --vs "$tmp/none" "$tmp/pred.trc"
done_testing
