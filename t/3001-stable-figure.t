#!/bin/sh
# trc-stable on Mendes' Figure 1-2 program: three tasks, task 0 receiving
# in arrival order.  Expected tables computed by hand (comments).
. "$(dirname "$0")/lib.sh"
cd "$T/data/stable" || exit 2

# Task 0 under kind,peer: M1 = RB* RE1 PB PE RB* RE2, M2 = RB* RE2 RB* RE1
# PB PE; no 5 events are common (removing one from each never makes them
# equal), RB* RE1 PB PE is common: LCS 4, distance 6 - 4 = 2.  Tasks 1
# and 2 are PB PE SB0 SE0 in both.  s = 4 + 4 + 4 = 12, d = 14 - 12 = 2.
cat >"$tmp/want" <<'X'
rank      events1    events2        lcs   distance
0               6          6          4          2
1               4          4          4          0
2               4          4          4          0
total          14         14         12          2
similarity 0.857143 (12 of 14 events), distance 2
different execution graphs: unstable (distance 2 > 0)
X
expect_exit 1 "arrival-order receives: two timings differ, exit 1" -- \
    trc-stable fig-m1.trc fig-m2.trc
is_file "$out" "$tmp/want" "per-rank table, totals and verdict"
is "$(cat "$err")" "" "nothing on stderr"

# With --equal kind task 0 is RCR-like: RB RE PB PE RB RE against RB RE RB RE
# PB PE, LCS still 4.
expect_exit 1 "--equal kind: still unstable" -- trc-stable --equal kind fig-m1.trc fig-m2.trc
is "$(awk '$1 == "total"' "$out")" \
    "total          14         14         12          2" "-e kind: total"

cat >"$tmp/want" <<'X'
rank      events1    events2        lcs   distance
0               6          6          6          0
1               4          4          4          0
2               4          4          4          0
total          14         14         14          0
similarity 1.000000 (14 of 14 events), distance 0
identical execution graphs: stable
X
expect_exit 0 "receives naming their source: identical graphs, exit 0" -- \
    trc-stable src-m1.trc src-m2.trc
is_file "$out" "$tmp/want" "identical: d = 0"
expect_exit 0 "a trace against itself" -- trc-stable fig-m2.trc fig-m2.trc
is "$(tail -1 "$out")" "identical execution graphs: stable" "itself: identical"
expect_exit 0 "-e kind,peer,tag,fn on named sources" -- \
    trc-stable --equal kind,peer,tag,fn src-m1.trc src-m2.trc

expect_exit 1 "-q: unstable" -- trc-stable -q fig-m1.trc fig-m2.trc
is "$(cat "$out")" "" "-q prints nothing"
expect_exit 0 "-q: stable" -- trc-stable --quiet src-m1.trc src-m2.trc

expect_exit 0 "--threshold 2: distance 2 is within" -- trc-stable --threshold 2 fig-m1.trc fig-m2.trc
is "$(tail -1 "$out")" \
    "different execution graphs, within threshold: stable (distance 2 <= 2)" \
    "within threshold verdict"
expect_exit 1 "-t 1: distance 2 is not" -- trc-stable --threshold 1 fig-m1.trc fig-m2.trc
# 15% of 14 events is 2.1, floor 2; 10% is 1.4, floor 1.
expect_exit 0 "--threshold 15%" -- trc-stable --threshold 15% fig-m1.trc fig-m2.trc
expect_exit 1 "--threshold 10%" -- trc-stable --threshold 10% fig-m1.trc fig-m2.trc

expect_exit 1 "stdin as the first trace" -- sh -c 'trc-stable - fig-m2.trc < fig-m1.trc'
is "$(awk '$1 == "total"' "$out")" \
    "total          14         14         12          2" "stdin: same total"

expect_exit 1 "three traces: each against the first" -- \
    trc-stable src-m1.trc src-m2.trc fig-m2.trc
is "$(grep -c '^== ' "$out")" 2 "two comparisons, each with a banner"
is "$(grep '^== ' "$out" | head -1)" "== src-m1.trc src-m2.trc" "banner names both"

# --where: a minimal alignment of task 0 deletes 2 and inserts 2 events
# (6 + 6 - 2 * 4 = 4 edits), all of them task 0's receive events.
expect_exit 1 "--where" -- trc-stable --where fig-m1.trc fig-m2.trc
is "$(grep -c '^- fig-m1.trc:[0-9]*: [0-9.]* 0 R[BE] ' "$out")" 2 \
    "--where: two events of task 0 only in M1, with file, line and time"
is "$(grep -c '^+ fig-m2.trc:[0-9]*: [0-9.]* 0 R[BE] ' "$out")" 2 \
    "--where: two events of task 0 only in M2"
is "$(grep -c '^rank [0-9]*:$' "$out")" 1 "--where: only rank 0 differs"
is "$(grep -c '^@@ ' "$out")" 2 "--where: two hunks"
expect_exit 2 "--where needs files" -- sh -c 'trc-stable -w - fig-m2.trc < fig-m1.trc'
is "$(cat "$err")" "trc-stable: -w reads its inputs twice: give files, not stdin" \
    "--where on stdin: message"
done_testing
