#!/bin/sh
# trc-effects: the stability verdict, and bad input.
. "$(dirname "$0")/lib.sh"

tab() { tr '|' '\t'; }
cat >"$tmp/f" <<'X'
send0	call=MPI_Send ranks=0 delay=0.001
recv	call=MPI_Recv region=Iterate delay=0.002
bar	call=MPI_Barrier occ=1-3 delay=0.5
X

# Stable: distance 0 everywhere, whatever the time does.
trc-design -t -n 3 | awk -v OFS='\t' 'NR == 1 { print $0, "distance", "time"; next }
	{ print $0, 0, 1 + NR / 10 }' >"$tmp/in"
expect_exit 0 "stable: exit 0" -- trc-effects --factors "$tmp/f" "$tmp/in"
is "$(tail -1 "$out")" "verdict: stable under every perturbation" "stable verdict"
is "$(grep -c '^response' "$out")" 2 "a table for each response"
is "$(awk -F'\t' '$1 == "B" && NF == 5 { print $2 }' "$out" | tail -1)" 0.1 \
	"time: qB = 0.1 (time rises 0.1 per run; B high runs are 0.2 later on average)"

# Unstable: the graph changes by 6 events when B is high, 8 with A too.
# (1) a b ab c ac bc abc = 0 0 6 8 0 0 6 8: q0 = 28/8 = 3.5, qA = 4/8 =
# 0.5, qB = 28/8 = 3.5, qAB = 4/8 = 0.5, C and its interactions 0 (each
# column's plus and minus sums are 14 and 14).  SS = 8 q^2: A 2, B 98,
# AB 2, SST 102: B 96.08%, A 1.96%, AB 1.96%.
tab >"$tmp/in" <<'X'
run|std|A|B|C|distance|time
1|1|-1|-1|-1|0|1.0
2|2|+1|-1|-1|0|1.1
3|3|-1|+1|-1|6|1.2
4|4|+1|+1|-1|8|1.3
5|5|-1|-1|+1|0|1.4
6|6|+1|-1|+1|0|1.5
7|7|-1|+1|+1|6|1.6
8|8|+1|+1|+1|8|1.7
X
expect_exit 1 "unstable: exit 1" -- trc-effects --factors "$tmp/f" "$tmp/in"
sed -n '/^verdict/,$p' "$out" >"$tmp/got"
tab >"$tmp/want" <<'X'
verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ
B|96.08|recv
A|1.96|send0
AB|1.96|send0 x recv
runs that change the graph (factors high, mean distance):
|B|6|recv
|AB|8|send0 recv
|BC|6|recv bar
|ABC|8|send0 recv bar
X
is_file "$tmp/got" "$tmp/want" "the factors that change the graph, by variation explained"
expect_exit 1 "without -f" -- trc-effects "$tmp/in"
is "$(sed -n '/^verdict/,/^runs/p' "$out" | sed '$d' | cut -f1 | tr '\n' ' ')" "verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ B A AB " "without names"
is "$(sed -n '/^runs/,$p' "$out" | sed 1d | tr '\t\n' ': ')" ":B:6 :AB:8 :BC:6 :ABC:8 " "  the changed runs, without names"
sed 's/distance/d/' "$tmp/in" >"$tmp/in2"
expect_exit 0 "no distance column: no verdict" -- trc-effects "$tmp/in2"
ok "$(grep -c verdict "$out")" "  and no verdict line"
expect_exit 1 "--distance names the distance column" -- trc-effects --distance d "$tmp/in2"

# A fraction names the chain.  C = AB has no run with every factor low
# (C is high there): nothing repeats the baseline, and the verdict says so.
trc-design -t -g C=AB "$tmp/f" | awk -v OFS='\t' 'NR == 1 { print $0, "distance"; next }
	{ print $0, $4 == "+1" ? 4 : 0 }' >"$tmp/in"
expect_exit 1 "2^(3-1) unstable" -- trc-effects --factors "$tmp/f" "$tmp/in"
is "$(sed -n '/^verdict/,$p' "$out")" "$(printf 'verdict: unstable under perturbation: no run without delay repeats the baseline\nB = AC\t100.00\trecv\nruns that change the graph (factors high, mean distance):\n\tB\t4\trecv\n\tABC\t4\tsend0 recv bar')" \
	"the responsible chain, B = AC"

# The same distance in every run: the run without delay, a repeat of
# the baseline, differs too.  The program is unstable by itself; the
# effects would rank noise, so none is ranked.
trc-design -t -n 2 | awk -v OFS='\t' 'NR == 1 { print $0, "distance"; next } { print $0, 3 }' >"$tmp/in"
expect_exit 1 "constant nonzero distance" -- trc-effects "$tmp/in"
is "$(sed -n '/^verdict/,$p' "$out")" \
	'verdict: unstable without perturbation: 1 of 1 repeated baseline runs differ' \
	"unstable without perturbation, nothing ranked"

# Replications that differ at the point without delay: 1 of 2 repeats.
trc-design -t -n 1 --replications 2 | awk -v OFS='\t' 'NR == 1 { print $0, "distance"; next } { print $0, (NR > 3) }' >"$tmp/in"
expect_exit 1 "replications differ" -- trc-effects "$tmp/in"
is "$(sed -n '/^verdict/,$p' "$out")" \
	'verdict: unstable without perturbation: 1 of 2 repeated baseline runs differ' \
	"  1 of the 2 runs without delay differs"

# Replications that differ elsewhere only: the error term is ranked.
# Distances 0 0 at A low, 0 1 at A high: qA = 0.25, SSA = 4 * 0.0625 =
# 0.25, SSE = 2 * 0.25 = 0.5, SST = 0.75: A 33.33%, error 66.67%.
tab >"$tmp/in" <<'X'
run|std|A|distance
1|1|-1|0
2|2|+1|0
3|1|-1|0
4|2|+1|1
X
expect_exit 1 "replications differ, with delay" -- trc-effects "$tmp/in"
is "$(sed -n '/^verdict/,$p' "$out")" "$(printf '%s\n' \
	'verdict: unstable under perturbation: 0 of 2 repeated baseline runs differ' \
	'error	66.67	replications differ' 'A	33.33' \
	'runs that change the graph (factors high, mean distance):' '	A	0.5')" \
	"  error term named"

# A fraction without the point of no delay (C = AB), with two runs at
# that point after the design's own (as trc-experiment adds them):
# repeats of the baseline, not part of the effects.  Distance 2 where A
# is high (runs 2 6, and 4 8 with B and C): A = BC explains it all.
trc-design -t -g C=AB --replications 2 "$tmp/f" | awk -v OFS='\t' '
	NR == 1 { print $0, "distance"; next } { print $0, ($3 == "+1") * 2 }
	END { print 9, 0, -1, -1, -1, 0; print 10, 0, -1, -1, -1, 0 }' >"$tmp/in"
expect_exit 1 "a fraction with repeats of the baseline" -- trc-effects "$tmp/in"
is "$(sed -n '1,2p;/^verdict/,/^runs/p' "$out")" "$(printf '%s\n' \
	'design: 2^(3-1), 4 points, 2 replications, resolution III' \
	'# 2 runs without delay, outside the design: repeats of the baseline' \
	'verdict: unstable under perturbation: 0 of 2 repeated baseline runs differ' \
	'A = BC	100.00' 'runs that change the graph (factors high, mean distance):')" \
	"  kept apart, counted, not in the effects"
awk -v OFS='\t' '$1 == 10 { $6 = 1 } { print }' "$tmp/in" >"$tmp/in2"
expect_exit 1 "  one of them differs" -- trc-effects "$tmp/in2"
is "$(sed -n '/^verdict/,$p' "$out")" \
	'verdict: unstable without perturbation: 1 of 2 repeated baseline runs differ' "  its verdict"
head -9 "$tmp/in" >"$tmp/in2"
printf '9\t0\t-1\t-1\t-1\t0\n10\t0\t+1\t+1\t-1\t0\n' >>"$tmp/in2"
expect_exit 2 "  a run outside the design with delays is an error" -- trc-effects "$tmp/in2"
is "$(cat "$err")" "trc-effects: $tmp/in2:11: a run outside the design (std 0) with a factor high" "  its message"
head -9 "$tmp/in" >"$tmp/in2"
printf '9\t5\t-1\t-1\t-1\t0\n' >>"$tmp/in2"
expect_exit 2 "  a run at the point of no delay, in the design's std order, is not one" -- trc-effects "$tmp/in2"
is "$(cat "$err")" "trc-effects: $tmp/in2: not a two-level factorial design: no run at point 4 of the 8 (high: AB)" "  its message"
printf 'std\tA\tdistance\n0\t-1\t0\n' >"$tmp/in2"
expect_exit 2 "  only runs outside the design" -- trc-effects "$tmp/in2"
is "$(cat "$err")" "trc-effects: $tmp/in2: no runs in the design, only runs outside it (std 0)" "  its message"

# Where: the choice column holds each run's first differing choice
# point (RANK:CALL:FILE:LINE, or -).  The earliest line of the
# baseline among the runs that differ is named, with the runs that
# differ first there.  Unstable without perturbation: only the repeats
# of the baseline count (run 5's line 3 is a run with delay).
tab >"$tmp/in" <<'X'
run|std|A|distance|choice
1|1|-1|3|0:recv:b.trc:9
2|2|+1|5|1:waitany:b.trc:7
3|1|-1|0|-
4|2|+1|0|-
5|1|-1|2|0:recv:b.trc:9
6|2|+1|2|2:probe:b.trc:3
X
expect_exit 1 "choice points, unstable without perturbation" -- trc-effects "$tmp/in"
is "$(sed -n '/^verdict/,$p' "$out")" "$(printf '%s\n' \
	'verdict: unstable without perturbation: 2 of 3 repeated baseline runs differ' \
	'first differing choice point: rank 0 recv b.trc:9 (runs 1 5)')" \
	"  where the repeats of the baseline differ"

# Unstable under perturbation: every run that differs counts; run
# numbers from the run column, in any row order.
tab >"$tmp/in" <<'X'
run|std|A|B|distance|choice
4|4|+1|+1|2|3:testany:exp/base.trc:40
1|1|-1|-1|0|-
2|2|+1|-1|2|1:iprobe:exp/base.trc:12
3|3|-1|+1|2|1:iprobe:exp/base.trc:12
X
expect_exit 1 "choice points, unstable under perturbation" -- trc-effects "$tmp/in"
is "$(sed -n '/^first differing/p' "$out")" \
	'first differing choice point: rank 1 iprobe exp/base.trc:12 (runs 2 3)' \
	"  the earliest in the baseline, and the runs that differ there"
is "$(sed -n '/^verdict/p' "$out")" \
	'verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ' "  its verdict"
tab >"$tmp/in" <<'X'
std|A|distance|choice
1|-1|0|-
2|+1|4|-
X
expect_exit 1 "a run differs, no choice point does" -- trc-effects "$tmp/in"
is "$(tail -1 "$out")" 'first differing choice point: none' "  says none"
tab >"$tmp/in" <<'X'
std|A|distance|choice
1|-1|0|-
2|+1|0|-
X
expect_exit 0 "stable with a choice column" -- trc-effects "$tmp/in"
is "$(sed -n '/^verdict/,$p' "$out")" 'verdict: stable under every perturbation' "  no where"

# Bad input: the exact message and exit 2.
bad() {	# bad NAME MESSAGE, input in $tmp/bad
	expect_exit 2 "$1" -- trc-effects "$tmp/bad"
	is "$(cat "$err")" "trc-effects: $tmp/bad$2" "  $1: message"
}
printf 'run\tA\tB\tdistance\ttime\n1\t-1\t-1\t0\t1.5\n2\t+1\t-1\t0\n' >"$tmp/bad"
	bad "wrong number of responses" ":3: expected 5 fields, found 4"
printf 'run\tA\tB\tdistance\ttime\n1\t-1\t-1\t0\t1.5\n2\t+1\t-1\t0\t1.5\t7\n' >"$tmp/bad"
	bad "too many responses" ":3: expected 5 fields, found 6"
printf 'run\tA\tdistance\ttime\n1\t-1\t0\tabc\n' >"$tmp/bad"
	bad "non-numeric response" ":2: invalid number 'abc' in column 'time'"
printf 'run\tA\ttime\n1\t-1\t1.5s\n' >"$tmp/bad"
	bad "partly numeric response" ":2: invalid number '1.5s' in column 'time'"
printf 'run\tA\ttime\n1\t-1\tnan\n' >"$tmp/bad"
	bad "NaN response" ":2: invalid number 'nan' in column 'time'"
printf 'run\tA\ttime\n1\t0\t1\n' >"$tmp/bad"
	bad "bad level" ":2: invalid level '0' in column 'A'"
for c in 0:recv 0:recv:b.trc x:recv:b.trc:9 -1:recv:b.trc:9 0::b.trc:9 \
    0:recv:b.trc:0 0:recv:b.trc:x 0:recv::9 :recv:b.trc:9; do
	printf 'A\tdistance\tchoice\n-1\t0\t-\n+1\t1\t%s\n' "$c" >"$tmp/bad"
	bad "bad choice point $c" ":3: invalid choice point '$c' in column 'choice'"
done
printf 'run\ttime\n1\t1\n' >"$tmp/bad"
	bad "no factor columns" ":1: no factor columns (A, B, ...)"
printf '# x\nA\tC\ttime\n' >"$tmp/bad"
	bad "missing factor column" ":2: no column for factor 'B'"
printf 'A\tB\n' >"$tmp/bad"
	bad "no responses" ":1: no response columns"
printf 'A\ttime\ttime\n' >"$tmp/bad"
	bad "duplicate column" ":1: duplicate column 'time'"
printf 'A\ttime\n' >"$tmp/bad"
	bad "no runs" ": no runs"
printf '' >"$tmp/bad"
	bad "empty" ": no header row"
printf 'A\ttime\n-1\t1\n+1\t2\n-1\t3\n' >"$tmp/bad"
	bad "unbalanced" ": unbalanced replication: 2 runs at point 1, 1 at point 2"
printf 'A\tB\ttime\n-1\t-1\t1\n+1\t-1\t2\n-1\t+1\t3\n' >"$tmp/bad"
	bad "incomplete design" ": not a two-level factorial design: no run at point 4 of the 4 (high: AB)"
printf 'A\tB\ttime\n-1\t-1\t1\n+1\t-1\t2\n' >"$tmp/bad"
	bad "constant factor" ": factor 'B' has one level in every run"
printf 'A\tB\ttime\n-1\t-1\t1\n+1\t-1\t2\n-1\t+1\t3\n+1\t+1\t4\n' >"$tmp/two"
expect_exit 2 "factor file of another size" -- trc-effects --factors "$tmp/f" "$tmp/two"
is "$(cat "$err")" "trc-effects: $tmp/f: 3 factors, but $tmp/two has 2" "  its message"
expect_exit 2 "bad confidence" -- trc-effects --confidence 100 "$tmp/two"
is "$(cat "$err")" "trc-effects: invalid confidence '100' (want a percentage between 0 and 100)" "  its message"
expect_exit 2 "missing file" -- trc-effects "$tmp/nonesuch"
is "$(cat "$err")" "trc-effects: $tmp/nonesuch: No such file or directory" "  its message"
expect_exit 2 "two files" -- trc-effects "$tmp/two" "$tmp/two"
expect_exit 0 "-h" -- trc-effects -h
expect_exit 0 "--version" -- trc-effects --version

man=$T/../man/man1/trc-effects.1
syn=$(groff -mandoc -Tascii -P-cbou -rLL=300n "$man" 2>/dev/null |
	sed -n '/^SYNOPSIS/{n;p;}' | sed 's/^ *//')
is "usage: $syn" "$(trc-effects -h | head -1)" "usage line is the SYNOPSIS"
groff -mandoc -ww -z "$man" "$T/../man/man5/trc-factors.5" 2>"$err"
is "$(cat "$err")" "" "man pages are clean"

done_testing
