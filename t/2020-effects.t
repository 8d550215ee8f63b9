#!/bin/sh
# trc-effects against hand-computed examples: Jain's 2^2 (Example
# 17.1), a 2^3 worked here, Jain's replicated 2^2 (Example 18.1).
. "$(dirname "$0")/lib.sh"

tab() { tr '|' '\t'; }

# Jain Example 17.1: y = 15 45 25 75; q0 = 40, qA = 20, qB = 10, qAB = 5;
# SST = 4 (20^2 + 10^2 + 5^2) = 2100: 76.19%, 19.05%, 4.76%.
tab >"$tmp/in" <<'X'
run|std|A|B|mips
1|1|-1|-1|15
2|2|+1|-1|45
3|3|-1|+1|25
4|4|+1|+1|75
X
tab >"$tmp/want" <<'X'
design: 2^2, 4 points, 1 replication, resolution full

response: mips
effect|estimate|sum_sq|percent|aliases
mean|40|-|-|I
A|20|1600|76.19|A
B|10|400|19.05|B
AB|5|100|4.76|AB
total|-|2100|100.00|-
X
expect_exit 0 "Jain 17.1, no distance column: exit 0" -- trc-effects "$tmp/in"
is_file "$out" "$tmp/want" "Jain 17.1: q = 40 20 10 5, variation 76%, 19%, 5%"
trc-effects <"$tmp/in" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "from stdin"

# The 2^3 of t/c/2001-design.c, rows shuffled, levels as - and +:
# (1) a b ab c ac bc abc = 14 22 10 34 46 58 50 86.  Effects (column sums
# over 8): q0 = 320/8 = 40, qA = 80/8 = 10, qB = 40/8 = 5, qAB = 5,
# qC = 160/8 = 20, qAC = 16/8 = 2, qBC = 24/8 = 3, qABC = 8/8 = 1.
# SS = 8 q^2 = 800 200 200 3200 32 72 8; SST = 4512; percent = SS/SST.
tab >"$tmp/in" <<'X'
# a comment, then the header
A|B|C|y
+|+|+|86
-|-|-|14

-|+|-|10
+|-|+|58
+|-|-|22
-|-|+|46
-|+|+|50
+|+|-|34
X
tab >"$tmp/want" <<'X'
design: 2^3, 8 points, 1 replication, resolution full

response: y
effect|estimate|sum_sq|percent|aliases
mean|40|-|-|I
A|10|800|17.73|A
B|5|200|4.43|B
AB|5|200|4.43|AB
C|20|3200|70.92|C
AC|2|32|0.71|AC
BC|3|72|1.60|BC
ABC|1|8|0.18|ABC
total|-|4512|100.00|-
X
trc-effects "$tmp/in" >"$out"
is_file "$out" "$tmp/want" "hand-computed 2^3, any row order"

# Jain Example 18.1: three replications; q = 41 21.5 9.5 5, SSE = 102,
# SST = 7032; 90% intervals (Jain, with t[0.95; 8] = 1.86): (39.08,
# 42.92) (19.58, 23.42) (7.58, 11.42) (3.08, 6.92).
trc-design -t -n 2 --replications 3 | awk -v OFS='\t' '
	BEGIN { split("15 45 25 75 18 48 28 75 12 51 19 81", y, " ") }
	NR == 1 { print $0, "mips"; next } { print $0, y[NR - 1] }' >"$tmp/in"
trc-effects "$tmp/in" >"$out"
is "$(awk -F'\t' '$1 ~ /^(mean|A|B|AB)$/ { printf "%s %s %.2f %.2f %s %s|", $1, $2, $3, $4, $5, $6 }' "$out")" \
	"mean 41 39.08 42.92 - -|A 21.5 19.58 23.42 5547 78.88|B 9.5 7.58 11.42 1083 15.40|AB 5 3.08 6.92 300 4.27|" \
	"Jain 18.1: effects, 90% intervals, variation"
is "$(grep '^error' "$out")" "$(printf 'error\t-\t-\t-\t102\t1.45\t-')" "error term: SSE = 102, 1.45%"
is "$(grep '^total' "$out")" "$(printf 'total\t-\t-\t-\t7032\t100.00\t-')" "SST = 7032"
is "$(grep '^#' "$out")" "# s_e = 3.5707142 with 8 degrees of freedom, s_q = 1.0307764, 90% confidence intervals" \
	"s_e = sqrt(102/8), s_q = s_e/sqrt(12)"
trc-effects --confidence 95 "$tmp/in" >"$out"
# t[0.975; 8] = 2.306: 21.5 -+ 2.306 * 1.0308 = 19.12, 23.88
is "$(awk -F'\t' '$1 == "A" { printf "%.2f %.2f", $3, $4 }' "$out")" "19.12 23.88" "-c 95"

# A fraction: 2^(4-1) with D = ABC, effects named by the chain.
trc-design -t -n 4 -g D=ABC | awk -v OFS='\t' 'NR == 1 { print $0, "y"; next }
	{ print $0, 50 + 10 * $3 + 3 * $6 }' >"$tmp/in"
trc-effects "$tmp/in" >"$out"
is "$(sed -n 1p "$out")" "design: 2^(4-1), 8 points, 1 replication, resolution IV" "fraction recognized"
is "$(awk -F'\t' 'NR > 5 && $1 != "total" { printf "%s=%s:%s ", $1, $2, $5 }' "$out")" \
	"A=10:A = BCD B=0:B = ACD AB=0:AB = CD C=0:C = ABD AC=0:AC = BD AD=0:AD = BC D=3:D = ABC " \
	"2^(4-1): qA = 10, qD = 3, the chains as aliases"
is "$(grep '^mean' "$out" | cut -f5)" "I = ABCD" "the mean's chain is the defining relation"

done_testing
