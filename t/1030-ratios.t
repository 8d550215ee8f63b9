#!/bin/sh
# trc-ratios: computation speed ratios base/target from pairs of runs,
# medians over the pairs, the empty label and the defaults, the spread
# warning, and the table trc-scale reads back.
. "$(dirname "$0")/lib.sh"
cd "$T/data/ratios" || exit 2

# Pair (b1, t1): every ratio is 2 (b1's times are twice t1's).  Pair
# (b1, t2): rank 0's A is 2 / 0.5 = 4, A summed over ranks 4 / 1.5,
# all computation (3 + 2.5) / (1 + 1.25) = 22 / 9; the rest 2.
# Three pairs (t1, t2, t1): medians 2; spreads (max - min) / median:
# A rank 0 (4 - 2) / 2 = 100%, A all (8/3 - 2) / 2 = 33.3%, all
# computation (22/9 - 2) / 2 = 22.2%.
cat >"$tmp/want" <<'X'
# computation speed ratios base/target: the median of 3 pairs (trc-ratios(1))
mode speed
A           0    2          # 3 pairs, spread 100.0% (2 to 4)
A           1    2          # 3 pairs, spread 0.0% (2 to 2)
A           all  2          # 3 pairs, spread 33.3% (2 to 2.66667)
()          0    2          # 3 pairs, spread 0.0% (2 to 2), outside every region
()          1    2          # 3 pairs, spread 0.0% (2 to 2), outside every region
()          all  2          # 3 pairs, spread 0.0% (2 to 2), outside every region
.*          all  2          # 3 pairs, spread 22.2% (2 to 2.44444), all computation
X
expect_exit 0 "three pairs" -- trc-ratios --spread 50 b1.trc t1.trc b1.trc t2.trc b1.trc t1.trc
is_file "$out" "$tmp/want" "per label and rank, all, the empty label, the default"
is "$(cat "$err")" "trc-ratios: warning: label A rank 0: the ratios spread 100.0% over 3 pairs, more than 50%" \
    "a warning for the row beyond the spread"
expect_exit 0 "the default spread, 10%" -- trc-ratios b1.trc t1.trc b1.trc t2.trc b1.trc t1.trc
is "$(grep -c 'warning' "$err")" "3" "  three rows beyond it"

# Two pairs: the median is the mean of the middle two, (2 + 4) / 2.
expect_exit 0 "two pairs" -- trc-ratios --spread 1000 b1.trc t1.trc b1.trc t2.trc
is "$(awk '$1 == "A" && $2 == "0" { print $3 }' "$out")" "3" "  A on rank 0: 3"

# The table scales b1 into t1 exactly: rank 0's A ends at 1 / 2 + 2 / 2.
trc-ratios b1.trc t1.trc >"$tmp/r.tbl"
expect_exit 0 "trc-scale reads the table" -- trc-scale --cpu "$tmp/r.tbl" b1.trc
is "$(awk '!/^#/ { print $1, $2, $3 }' "$out")" "$(awk '!/^#/ { print $1, $2, $3 }' t1.trc | sort -s -n -k1,1)" \
    "  b1 predicted is t1"

# The CPU clock.  Base: A's interval is 20 us on the wall but 8 us of
# CPU (the rank shared its core), then 6 us (CPU 5) outside; target:
# A 4 us wall and CPU, outside 5 us wall, 2.5 CPU.  Both declare cpu=,
# so A is 8 / 4 = 2, outside 5 / 2.5 = 2, all (8 + 5) / (4 + 2.5) = 2;
# by the wall clock A is 20 / 4 = 5, outside 6 / 5 = 1.2, all 26 / 9.
cat >"$tmp/cb.trc" <<'X'
#trc 1 ranks=1
#clock source=realtime origin=0.0 cpu=thread
0.000000000 0 PB fn=A cpu=0.000000100
0.000020000 0 PE fn=A cpu=0.000008000
0.000026000 0 MK mark=end cpu=0.000005000
X
cat >"$tmp/ct.trc" <<'X'
#trc 1 ranks=1
#clock source=realtime origin=0.0 cpu=thread
0.000000000 0 PB fn=A cpu=0.000000100
0.000004000 0 PE fn=A cpu=0.000004000
0.000009000 0 MK mark=end cpu=0.000002500
X
rows() { awk '!/^#/ && $1 != "mode" { printf "%s %s %s; ", $1, $2, $3 }' "$out"; }
expect_exit 0 "cpu= in both runs" -- trc-ratios "$tmp/cb.trc" "$tmp/ct.trc"
is "$(rows)" "A 0 2; A all 2; () 0 2; () all 2; .* all 2; " "  timed by CPU time"
is "$(sed -n 2p "$out")" "# computation timed by its CPU time (cpu=)" "  and said"
expect_exit 0 "--wall" -- trc-ratios --wall "$tmp/cb.trc" "$tmp/ct.trc"
is "$(rows)" "A 0 5; A all 5; () 0 1.2; () all 1.2; .* all 2.88889; " "  timed by the wall clock"
sed 's/ cpu=thread//' "$tmp/ct.trc" >"$tmp/ct-wall.trc"
expect_exit 0 "cpu= in one run of the pair" -- trc-ratios "$tmp/cb.trc" "$tmp/ct-wall.trc"
is "$(rows)" "A 0 5; A all 5; () 0 1.2; () all 1.2; .* all 2.88889; " "  the wall clock for both"
expect_exit 0 "pairs on either clock" -- trc-ratios --spread 1000 "$tmp/cb.trc" "$tmp/ct.trc" "$tmp/cb.trc" "$tmp/ct-wall.trc"
is "$(sed -n 2p "$out")" "# computation timed by its CPU time (cpu=) in 1 of the pairs, by the wall clock in the others" "  said"
sed 's/cpu=0.000008000/cpu=x/' "$tmp/cb.trc" >"$tmp/cbad.trc"
expect_exit 2 "a bad cpu=" -- trc-ratios "$tmp/cbad.trc" "$tmp/ct.trc"
is "$(cat "$err")" "trc-ratios: $tmp/cbad.trc:4: invalid cpu 'x'" "  file:line"

# A label is matched as itself, not as a pattern.
expect_exit 0 "a label with metacharacters" -- trc-ratios dot.trc dot.trc
is "$(awk '$2 == "0" && !/^#/ { print $1 }' "$out" | head -1)" 'it\.1' "  escaped"

# Errors.
expect_exit 2 "an odd number of files" -- trc-ratios b1.trc
is "$(head -1 "$err")" "usage: trc-ratios [-f format] [--flops rate] [--outliers scale|drop] [--spread percent] [--strict] [--wall] [--warmup fraction] base target [base target ...]" \
    "  the usage"
expect_exit 2 "a missing file" -- trc-ratios b1.trc nosuch.trc
ok "$(grep -q '^trc-ratios: nosuch.trc' "$err"; echo $?)" "  names it"
printf '#trc 1 ranks=1\n0.0 0 PB fn=A\nbad line\n' >"$tmp/bad.trc"
expect_exit 2 "a malformed trace" -- trc-ratios b1.trc "$tmp/bad.trc"
ok "$(grep -q "^trc-ratios: $tmp/bad.trc:3: " "$err"; echo $?)" "  file:line"
printf '#trc 1 ranks=1\n0.0 0 MK\n' >"$tmp/none.trc"
expect_exit 2 "no computation in common" -- trc-ratios "$tmp/none.trc" "$tmp/none.trc"
is "$(cat "$err")" "trc-ratios: $tmp/none.trc, $tmp/none.trc: no computation measured on both" "  said"
expect_exit 2 "a bad spread" -- trc-ratios --spread -1 b1.trc t1.trc
# A NUL byte in a table or a factor file is an error, not the end of
# its line.
printf 'mode speed\nA 0 2\0 x\n.* all 3\n' >"$tmp/nul.tbl"
expect_exit 2 "a NUL in a ratio table" -- trc-scale --cpu "$tmp/nul.tbl" b1.trc
is "$(cat "$err")" "trc-scale: $tmp/nul.tbl:2: NUL byte in line" "  said with its line"
printf 'A call=send delay=0.1\0 ranks=1\n' >"$tmp/nul.f"
expect_exit 2 "a NUL in a factor file" -- trc-design --delays "$tmp/nul.f"
is "$(cat "$err")" "trc-design: $tmp/nul.f:1: NUL byte in line" "  said with its line"
# --warmup: rank 0 computes 16 intervals inside A, the first 10 us on
# both machines (a first touch of memory, which the target does not
# speed up), the other 15 of 4 us on the base and 2 us on the target;
# then 4 intervals outside, 3 us against 1 us.  Whole: A 70 / 40 =
# 1.75, outside 12 / 4 = 3, all 82 / 44.  --warmup f leaves out A's
# first 2^k intervals, the largest power of two not over 16 f: f =
# 0.1 (1.6) the first, 60 / 30 = 2; 0.125 (2) the first two, 56 / 28 =
# 2, all (56 + 12) / (28 + 4) = 2.125; 0.25 (4) four, 48 / 24 = 2;
# 0.05 (0.8) none, 1.75.  Outside (4 intervals): 0.25 leaves out one,
# 9 / 3 = 3; the others none.
# warm FILE D O: the trace, the later intervals in A D us long, those
# outside O us
warm() {
	awk -v d="$2" -v o="$3" 'BEGIN {
		print "#trc 1 ranks=1"; t = 0
		printf "%.9f 0 PB fn=A\n", t
		t += 10; printf "%.9f 0 MK mark=w\n", t / 1e6
		for (i = 2; i <= 15; i++) { t += d; printf "%.9f 0 MK mark=w\n", t / 1e6 }
		t += d; printf "%.9f 0 PE fn=A\n", t / 1e6
		for (i = 1; i <= 4; i++) { t += o; printf "%.9f 0 MK mark=o\n", t / 1e6 }
	}' >"$1"
}
warm "$tmp/wb.trc" 4 3
warm "$tmp/wt.trc" 2 1
# row LABEL: LABEL's ratio on rank 0; warmrow LABEL: its warm-up's
# ratio and first=, or nothing
row() { awk -v l="$1" '$1 == l && $2 == "0" && $4 !~ /^first=/ { print $3 }' "$out"; }
warmrow() { awk -v l="$1" '$1 == l && $2 == "0" && $4 ~ /^first=/ { print $3, $4 }' "$out"; }
expect_exit 0 "no warm-up left out" -- trc-ratios "$tmp/wb.trc" "$tmp/wt.trc"
is "$(row A) $(row '()') $(awk '$1 == ".*" { print $3 }' "$out")" "1.75 3 1.86364" "  A 70 / 40, outside 12 / 4, all 82 / 44"
# The intervals left out, a row of their own before the steady one:
# 0.1, A's first, 10 / 10 = 1; 0.125, A's first two, 14 / 12; 0.25,
# A's first four, 22 / 16 = 1.375, and outside one, 3 / 1.
for fw in "0.05 1.75 3 -:-" "0.1 2 3 1_first=1:-" "0.125 2 3 1.16667_first=2:-" \
    "0.25 2 3 1.375_first=4:3_first=1"; do
	set -- $fw
	expect_exit 0 "--warmup $1" -- trc-ratios --warmup "$1" "$tmp/wb.trc" "$tmp/wt.trc"
	is "$(row A) $(row '()')" "$2 $3" "  A $2, outside $3"
	w=$(warmrow A | tr ' ' _):$(warmrow '()' | tr ' ' _)
	is "$(echo "$w" | sed 's/^:/-:/; s/:$/:-/')" "$4" "  warm-up rows (A:outside) $4"
done
# The warm-up row comes first, so that trc-scale reads it first.
trc-ratios --warmup 0.25 "$tmp/wb.trc" "$tmp/wt.trc" >"$out"
is "$(awk '$1 == "A" && $2 == "0" { print ($4 ~ /^first=/) ? "warm" : "steady" }' "$out" | tr '\n' ' ')" "warm steady " \
    "  A's warm-up row before its steady row"
expect_exit 0 "--warmup 0.125" -- trc-ratios --warmup 0.125 "$tmp/wb.trc" "$tmp/wt.trc"
is "$(awk '$1 == ".*" { print $3 }' "$out")" "2.125" "  all (56 + 12) / (28 + 4)"
grep -q '^# warm-up left out: each label.s first intervals on each rank, a power of two up to 12.5% of them (--warmup),$' "$out" &&
    grep -q '^# and given a row of its own, first=N$' "$out"
ok $? "  said in a comment line"
for bad in 1 -0.1 x 1.5; do
	expect_exit 2 "--warmup $bad: refused" -- trc-ratios --warmup "$bad" "$tmp/wb.trc" "$tmp/wt.trc"
done
is "$(cat "$err")" "trc-ratios: invalid warm-up fraction '1.5' (want 0 to below 1)" "  said"

# --outliers drop: the base runs' intervals far past their label's
# median count as the median; the target's count whole.  Base: A 40
# times 1 ms, then 12 times (1, 1, 4), 1 ms outside between; target:
# the same 76 intervals and 75 gaps, all 0.5 ms.
{
	echo "#trc 1 ranks=1"
	awk 'BEGIN { t = 0; for (i = 1; i <= 76; i++) {
		d = (i > 40 && (i - 40) % 3 == 0) ? 4 : 1
		printf "%.9f 0 PB fn=A\n%.9f 0 PE fn=A\n", t / 1000, (t + d) / 1000
		t += d + 1 } }'
} >"$tmp/ob.trc"
{
	echo "#trc 1 ranks=1"
	awk 'BEGIN { t = 0; for (i = 1; i <= 76; i++) {
		printf "%.9f 0 PB fn=A\n%.9f 0 PE fn=A\n", t / 1000, (t + 0.5) / 1000
		t += 1 } }'
} >"$tmp/ot.trc"
expect_exit 0 "--outliers scale, the default" -- trc-ratios "$tmp/ob.trc" "$tmp/ot.trc"
is "$(row A) $(row '()')" "2.94737 2" "  A (64 + 48) / 38, outside 75 / 37.5"
ok "$(grep -c '^outliers' "$out" | grep -qx 0; echo $?)" "  no outliers line"
expect_exit 0 "--outliers drop" -- trc-ratios --outliers drop "$tmp/ob.trc" "$tmp/ot.trc"
# The 12 of 4 ms count as the running median, a little over 1 ms
# (P-squared's estimate): A (64 + 12 x 1) / 38 = 2, a little more.
ok "$(awk -v x="$(row A)" 'BEGIN { exit !(x >= 2 && x < 2.005) }'; echo $?)" "  A 76 / 38 = 2 ($(row A))"
is "$(row '()')" 2 "  outside as it was: alike, none past"
is "$(grep -v '^#' "$out" | sed -n 2p)" "outliers drop" "  the table says so, after its mode line"
grep -q "^# 12 of them, 0.03[5-6][0-9]* s left out\$" "$out"
ok $? "  a comment says how many and how long"
cp "$out" "$tmp/drop.tbl"
# The target's intervals count whole: the pair turned round, A 38 / 112.
expect_exit 0 "--outliers drop, the target disturbed" -- trc-ratios --outliers drop "$tmp/ot.trc" "$tmp/ob.trc"
is "$(row A)" "0.339286" "  A 38 / 112: the target's counted whole"
# trc-scale given the table drops the same intervals from the base
# trace, so A's 76 intervals take 76 m / (76 m / 38) = 38 ms (m the
# median, the same estimate on the same intervals), the gaps 37.5:
# 75.5 ms; told --outliers scale, A's 112 ms / 2.00x = 55.9 ms or so.
expect_exit 0 "trc-scale with the table" -- trc-scale -v --cpu "$tmp/drop.tbl" "$tmp/ob.trc"
ok "$(awk -v x="$(tail -1 "$out" | cut -d' ' -f1)" 'BEGIN { exit !(x > 0.075499 && x < 0.075501) }'; echo $?)" \
    "  75.5 ms ($(tail -1 "$out" | cut -d' ' -f1))"
ok "$(grep -c "^trc-scale: 12 computation intervals past its label's fence (--outliers drop)" "$err" | grep -qx 1; echo $?)" \
    "  -v: the table's outliers drop, 12 intervals"
expect_exit 0 "trc-scale with the table, --outliers scale" -- trc-scale --outliers scale --cpu "$tmp/drop.tbl" "$tmp/ob.trc"
ok "$(awk -v x="$(tail -1 "$out" | cut -d' ' -f1)" 'BEGIN { exit !(x > 0.0933 && x < 0.0935) }'; echo $?)" \
    "  the option wins: 37.5 + 112 / 2.00x ms ($(tail -1 "$out" | cut -d' ' -f1))"
# Bad tables and options.
printf 'mode speed\nA 0 2\noutliers delay\n' >"$tmp/bad1.tbl"
expect_exit 2 "a table's unknown outliers mode" -- trc-scale --cpu "$tmp/bad1.tbl" "$tmp/ob.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad1.tbl:3: invalid outliers mode 'delay' (want 'scale' or 'drop')" "  said with its line"
printf 'mode speed\noutliers drop\nA 0 2\n\noutliers drop\n' >"$tmp/bad2.tbl"
expect_exit 2 "a second outliers line" -- trc-scale --cpu "$tmp/bad2.tbl" "$tmp/ob.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad2.tbl:5: second 'outliers' line" "  said with its line"
expect_exit 2 "trc-ratios --outliers delay" -- trc-ratios --outliers delay "$tmp/ob.trc" "$tmp/ot.trc"
is "$(cat "$err")" "trc-ratios: invalid outliers mode 'delay' (want 'scale' or 'drop')" "  said"
is "$(cat "$out")" "" "  no table"
done_testing
