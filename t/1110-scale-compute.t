#!/bin/sh
# trc-scale: computation intervals (Mendes, section 4.2.1, Figure 4).
# Expected times computed by hand from C2 = K * C1.
. "$(dirname "$0")/lib.sh"

# Figure 4a: one ratio, 0.5, halves every computation interval.
cat >"$tmp/a.trc" <<'X'
#trc 1 ranks=1
1.000000000 0 PB fn=A
3.000000000 0 PE fn=A
7.000000000 0 MK
7.500000000 0 PB fn=B
8.500000000 0 PE fn=B
X
cat >"$tmp/a.want" <<'X'
#trc 1 ranks=1 order=time
1.000000000 0 PB fn=A t0=1.000000000
2.000000000 0 PE fn=A t0=3.000000000
4.000000000 0 MK t0=7.000000000
4.250000000 0 PB fn=B t0=7.500000000
4.750000000 0 PE fn=B t0=8.500000000
X
expect_exit 0 "--cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$tmp/a.trc"
is_file "$out" "$tmp/a.want" "Figure 4a: every interval halved, t0= keeps the original"
expect_exit 0 "--cpu-ratio 0.5 from stdin" -- trc-scale --cpu-ratio 0.5 <"$tmp/a.trc"
is_file "$out" "$tmp/a.want" "-k is --cpu-ratio"

# With no ratio at all the trace comes back unchanged (plus t0=).
expect_exit 0 "identity" -- trc-scale "$tmp/a.trc"
is "$(awk 'NR > 1 { sub(/^[^ ]* /, ""); sub(/ t0=/, " "); print }' "$out" |
    awk '{ t = $NF; $NF = ""; print t, $0 }' | sed 's/ $//')" \
    "$(sed 1d "$tmp/a.trc")" "no ratio: predicted = original"

# Figure 4b: a ratio per module, with nesting: the innermost label
# decides, and the interval after a PE belongs to the enclosing one.
cat >"$tmp/b.tbl" <<'X'
mode time
A   all 0.5
B   all 0.25
.*  all 2
X
cat >"$tmp/b.trc" <<'X'
#trc 1 ranks=1
0.000000000 0 PB fn=A
1.000000000 0 PB fn=B
5.000000000 0 PE fn=B
7.000000000 0 PE fn=A
8.000000000 0 MK
X
# A: 1 * 0.5; B: 4 * 0.25; A again: 2 * 0.5; no label (.*): 1 * 2
cat >"$tmp/b.want" <<'X'
#trc 1 ranks=1 order=time
0.000000000 0 PB fn=A t0=0.000000000
0.500000000 0 PB fn=B t0=1.000000000
1.500000000 0 PE fn=B t0=5.000000000
2.500000000 0 PE fn=A t0=7.000000000
4.500000000 0 MK t0=8.000000000
X
expect_exit 0 "--cpu table" -- trc-scale --cpu "$tmp/b.tbl" "$tmp/b.trc"
is_file "$out" "$tmp/b.want" "Figure 4b: ratio per procedure, innermost label"

# The paper's Table 1, speed ratios per procedure and node: 14.2 means
# 14.2 times faster.  Each interval is chosen as ratio * 0.1 s so that
# every predicted interval is 0.1 s.
cat >"$tmp/t1.tbl" <<'X'
# Mendes, Table 1
mode speed
IterEdge   0 14.2
IterEdge   1 14.4
Converged  0 8.5
Converged  1 7.8
Iterate    0 21.3
Iterate    1 20.9
X
cat >"$tmp/t1.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 PB fn=IterEdge
0.000000000 1 PB fn=IterEdge
1.420000000 0 PE fn=IterEdge
1.420000000 0 PB fn=Iterate
1.440000000 1 PE fn=IterEdge
1.440000000 1 PB fn=Converged
2.220000000 1 PE fn=Converged
3.550000000 0 PE fn=Iterate
3.550000000 0 PB fn=Converged
4.400000000 0 PE fn=Converged
X
cat >"$tmp/t1.want" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 PB fn=IterEdge t0=0.000000000
0.000000000 1 PB fn=IterEdge t0=0.000000000
0.100000000 0 PE fn=IterEdge t0=1.420000000
0.100000000 0 PB fn=Iterate t0=1.420000000
0.100000000 1 PE fn=IterEdge t0=1.440000000
0.100000000 1 PB fn=Converged t0=1.440000000
0.200000000 1 PE fn=Converged t0=2.220000000
0.200000000 0 PE fn=Iterate t0=3.550000000
0.200000000 0 PB fn=Converged t0=3.550000000
0.300000000 0 PE fn=Converged t0=4.400000000
X
expect_exit 0 "Table 1" -- trc-scale --cpu "$tmp/t1.tbl" "$tmp/t1.trc"
is_file "$out" "$tmp/t1.want" "Table 1: speed ratios per procedure and rank, ties in input order"

# A label no row matches keeps its duration; -v counts it.
printf 'mode time\nA 0 0.5\n' >"$tmp/c.tbl"
printf '#trc 1 ranks=2\n0 1 PB fn=A\n2.000000000 1 PE fn=A\n' >"$tmp/c.trc"
expect_exit 0 "row for another rank" -- trc-scale -v --cpu "$tmp/c.tbl" "$tmp/c.trc"
is "$(sed -n 3p "$out")" "2.000000000 1 PE fn=A t0=2.000000000" "rank 1 has no row: unchanged"
is "$(grep -c '1 computation intervals without a ratio row' "$err")" 1 "-v counts labels without a row"

# A warm-up row, first=2: the first two intervals of a label on a
# rank, counted from the interval its first event ends (the first
# event ends none), then the steady row.  Rank 0: 10 us outside, then
# A's three of 10 us: 10, 10, then 5.  Rank 1 counts its own: A's
# first 10 us at 1, its second at 1 (t 30 -> 30), no steady row for
# rank 1: the third unchanged.
printf 'mode time\nA all 1 first=2\nA 0 0.5\n() all 0.1\n' >"$tmp/w.tbl"
cat >"$tmp/w.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 PB fn=A
0.000010000 0 PB fn=A
0.000010000 1 MK
0.000020000 0 MK
0.000020000 1 MK
0.000030000 0 MK
0.000030000 1 MK
0.000040000 0 PE fn=A
X
# Rank 0: MK 0; PB at 10 x 0.1 = 1; MK 11, 21 (first=2), PE 21 + 5 = 26.
# Rank 1: PB 0; its A intervals 10, 10 (first=2), then no steady row
# for rank 1: 10 more.
expect_exit 0 "warm-up rows" -- trc-scale --cpu "$tmp/w.tbl" "$tmp/w.trc"
is "$(awk '!/^#/ { printf "%s %s %.0f ", $2, $3, $1 * 1e6 }' "$out")" \
    "0 MK 0 1 PB 0 0 PB 1 1 MK 10 0 MK 11 1 MK 20 0 MK 21 0 PE 26 1 MK 30 " \
    "the first two intervals of A on each rank at their first=2 ratio"

# A trace already scaled keeps its first t0=, the observed time.
trc-scale --cpu-ratio 0.5 "$tmp/a.trc" | trc-scale --cpu-ratio 0.5 >"$tmp/twice"
is "$(sed -n 3p "$tmp/twice")" "1.500000000 0 PE fn=A t0=3.000000000" "scaling twice: 0.25 overall, t0 kept"

done_testing
