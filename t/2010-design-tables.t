#!/bin/sh
# trc-design: run tables and alias structures against the textbooks
# (Montgomery, Design and Analysis of Experiments, Table 8.3 and
# section 8.5; Jain ch. 19).  Expected run tables are computed here by
# awk from the generators, independently of the program.
. "$(dirname "$0")/lib.sh"

# Levels of A..C in Yates order, then the generated columns.
yates() {	# yates NBASE AWK-EXPRESSIONS-FOR-GENERATED...
	awk -v q="$1" -v gens="$2" -v names="$3" 'BEGIN {
		printf "run\tstd"
		n = split(names, nm, " ")
		for (j = 1; j <= n; j++) printf "\t%s", nm[j]
		printf "\n"
		ng = split(gens, g, " ")
		for (i = 0; i < 2 ^ q; i++) {
			printf "%d\t%d", i + 1, i + 1
			for (j = 0; j < q; j++) {
				l[j] = int(i / 2 ^ j) % 2 ? 1 : -1
				printf "\t%+d", l[j]
			}
			for (k = 1; k <= ng; k++) {
				v = 1
				for (c = 1; c <= length(g[k]); c++)
					v *= l[index("ABCDEFGH", substr(g[k], c, 1)) - 1]
				printf "\t%+d", v
			}
			printf "\n"
		}
	}'
}

# 2^(4-1), D = ABC
yates 3 "ABC" "A B C D" >"$tmp/want"
trc-design -t -n 4 -g D=ABC >"$out" 2>"$err"
ok $? "2^(4-1) table runs"
is_file "$out" "$tmp/want" "2^(4-1) run table, D = ABC"

trc-design -n 4 -g D=ABC >"$out"
sed -n '/^defining relation/,$p' "$out" >"$tmp/got"
cat >"$tmp/want" <<'X'
defining relation: I = ABCD
alias chains:
	A = BCD
	B = ACD
	C = ABD
	D = ABC
	AB = CD
	AC = BD
	AD = BC
resolution: IV
X
is_file "$tmp/got" "$tmp/want" "2^(4-1): I = ABCD, the textbook's alias pairs, resolution IV"
is "$(sed -n 1p "$out")" "design: 2^(4-1), 8 runs, 1 replication, standard order" "design line"
is "$(grep '^generators' "$out")" "generators: D = ABC" "generators line"
# Montgomery Table 8.3: (1) ad bd ab cd ac bc abcd
is "$(awk -F'\t' '/^[0-9]/ && NF == 6 { s = ""
	for (j = 3; j <= 6; j++) if ($j == "+") s = s tolower(substr("ABCD", j - 2, 1))
	printf "%s ", s == "" ? "(1)" : s }' "$out")" "(1) ad bd ab cd ac bc abcd " \
	"treatment combinations of Table 8.3"

# The other half fraction.
trc-design -n 4 -g D=-ABC >"$out"
is "$(grep -c -e '^defining relation: I = -ABCD$' -e '	A = -BCD$' -e '	AB = -CD$' "$out")" 3 \
	"D = -ABC: I = -ABCD, A = -BCD, AB = -CD"

# 2^(7-4), resolution III (Montgomery 8.5): D = AB, E = AC, F = BC, G = ABC.
yates 3 "AB AC BC ABC" "A B C D E F G" >"$tmp/want"
trc-design -t -n 7 -g D=AB -g E=AC -g F=BC -g G=ABC >"$out"
is_file "$out" "$tmp/want" "2^(7-4) run table"
trc-design -n 7 -g D=AB,E=AC,F=BC,G=ABC >"$out"
# Products of the four generator words ABD ACE BCF ABCG, worked by hand.
is "$(grep '^defining' "$out")" "defining relation: I = ABD = ACE = AFG = BCF = BEG = CDG = DEF = ABCG = ABEF = ACDF = ADEG = BCDE = BDFG = CEFG = ABCDEFG" \
	"2^(7-4) defining relation, 16 words"
is "$(grep -c '^	' "$out")" 7 "7 alias chains"
is "$(grep '	A = ' "$out")" "	A = BD = CE = FG = BCG = BEF = CDF = DEG = ABCF = ABEG = ACDG = ADEF = ABCDE = ABDFG = ACEFG = BCDEFG" \
	"alias chain of A: A = BD = CE = FG (to two-factor interactions)"
is "$(grep '	G = ' "$out" | cut -d' ' -f1-7)" "	G = AF = BE = CD" "G = AF = BE = CD"
is "$(tail -1 "$out")" "resolution: III" "2^(7-4) is resolution III"

# 2^(5-1) with E = ABCD is resolution V; 2^(5-2) D = AB, E = AC is III.
is "$(trc-design -n 5 -g E=ABCD | tail -1)" "resolution: V" "2^(5-1), E = ABCD: resolution V"
trc-design -n 5 -g D=AB -g E=AC >"$out"
is "$(grep '^defining' "$out")" "defining relation: I = ABD = ACE = BCDE" "2^(5-2) defining relation"
is "$(trc-design -n 3 | sed -n '/^defining/,$p')" "defining relation: I
resolution: full" "full factorial: no aliases"
is "$(trc-design -n 3 | grep -c '^[0-9]')" 8 "2^3 has 8 runs"

# Generators may name any factors: C = AB leaves A, B, D as the base.
yates 3 "" "A B D" | awk -F'\t' -v OFS='\t' 'NR == 1 { print "run", "std", "A", "B", "C", "D"; next }
	{ print $1, $2, $3, $4, sprintf("%+d", $3 * $4), $5 }' >"$tmp/want"
trc-design -t -n 4 -g C=AB >"$out"
is_file "$out" "$tmp/want" "C = AB: base factors A, B, D"

done_testing
