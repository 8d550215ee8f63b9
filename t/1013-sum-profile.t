#!/bin/sh
# trc-sum --section profile: mpiP's view, every operation and the
# computation at its site, shares of the run time that add up to 100,
# and the imbalance over the ranks.
. "$(dirname "$0")/lib.sh"

# Rank 0: 1 s in A, a 0.5 s send in A, 0.5 s in A, 1 s outside, a 1 s
# barrier.  Rank 1: a 2 s receive, 1.5 s outside, a 0.5 s barrier.
# Run time 4 + 4 = 8 s: computation outside 1 + 1.5 = 2.5 (31.25%),
# recv 2 (25%), barrier 1 + 0.5 (18.75%), computation in A 1.5 + 0
# (18.75%), send in A 0.5 + 0 (6.25%); equal totals by name.
cat >"$tmp/p.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 PB fn=A
0.000000000 1 RB peer=0 tag=1 bytes=8
1.000000000 0 SB peer=1 tag=1 bytes=8
1.500000000 0 SE peer=1 tag=1 bytes=8
2.000000000 0 PE fn=A
2.000000000 1 RE peer=0 tag=1 bytes=8
3.000000000 0 XB op=barrier
3.500000000 1 XB op=barrier
4.000000000 0 XE op=barrier
4.000000000 1 XE op=barrier
X
tab=$(printf '\t')
sed "s/|/$tab/g" >"$tmp/want" <<'X'
operation|site|percent|total|max|mean|min
computation||31.25|2.500000000|1.500000000|1.250000000|1.000000000
recv||25.00|2.000000000|2.000000000|1.000000000|0.000000000
barrier||18.75|1.500000000|1.000000000|0.750000000|0.500000000
computation|A|18.75|1.500000000|1.500000000|0.750000000|0.000000000
send|A|6.25|0.500000000|0.500000000|0.250000000|0.000000000
X
expect_exit 0 "the profile" -- trc-sum -t --section profile "$tmp/p.trc"
is_file "$out" "$tmp/want" "  rows by hand"
expect_exit 0 "the profile, for people" -- trc-sum --section profile "$tmp/p.trc"
is "$(sed -n 3p "$out")" "computation  -                   31.25      2.500 s      1.500 s      1.250 s      1.000 s" \
    "  a row, '-' outside every region"
expect_exit 0 "not in the default sections" -- trc-sum "$tmp/p.trc"
ok "$(! grep -q '^profile' "$out"; echo $?)" "  no profile unless asked"

# On every trace the tests hold: the totals add up to the ranks' run
# times exactly (awk over the text), and the percentages to 100.
for f in "$T"/data/*/*.trc "$T"/../benchmarks/example/*.trc; do
	[ -f "$f" ] || continue
	trc-sum -t --section profile "$f" >"$out" 2>"$err" || continue
	got=$(awk -F'\t' 'NR > 1 { t += $4; p += $3 } END { printf "%.9f %d\n", t, (p > 99.9 && p < 100.1) || NR == 1 }' "$out")
	want=$(awk '!/^#/ { if (!($2 in a)) a[$2] = $1; z[$2] = $1 } END { for (r in a) s += z[r] - a[r]; printf "%.9f 1\n", s }' "$f")
	is "$got" "$want" "${f##*/}: totals add up to the run time, percentages to 100"
done
expect_exit 2 "an unknown section" -- trc-sum --section profiles "$tmp/p.trc"
done_testing
