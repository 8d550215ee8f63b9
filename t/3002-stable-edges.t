#!/bin/sh
# trc-stable: message matching, rank counts, empty ranks, regions, errors.
. "$(dirname "$0")/lib.sh"
cd "$T/data/stable" || exit 2

# recv-a: task 0 gets 1's message then 2's; recv-b the other way.  Under
# kind,peer task 0 is x a x b against x b x a: no 3 events common, LCS 2.
expect_exit 1 "receive order changed" -- trc-stable recv-a.trc recv-b.trc
is "$(awk '$1 == "0" || $1 == "total"' "$out")" \
"0               4          4          2          2
total           8          8          6          2" "kind,peer: rank 0 LCS 2"
# Under --equal kind the strings are RB RE RB RE on both, but both receives
# are matched to other sends: distance 2, not identical.
expect_exit 1 "-e kind: same strings, other matching, exit 1" -- \
    trc-stable --equal kind recv-a.trc recv-b.trc
is "$(awk '$1 == "0" || $1 == "total"' "$out")" \
"0               4          4          4          2
total           8          8          8          2" "-e kind: two receives matched otherwise"
expect_exit 1 "--equal kind -w" -- trc-stable --equal kind -w recv-a.trc recv-b.trc
is "$(grep '^[-+]' "$out")" \
"- recv-a.trc:8: 0.000001100 0 RE peer=1 tag=5 bytes=8
-     matched to rank 1's send 1 to it, recv-a.trc:4
+ recv-b.trc:8: 0.000001100 0 RE peer=2 tag=5 bytes=8
+     matched to rank 2's send 1 to it, recv-b.trc:6" "-w shows the first receive matched otherwise, and the sends"

# recv-c adds a marker before rank 1's send: rank 1 is 3 events against
# 2 (LCS 2); rank 0's receive now pairs with rank 1's event 3, not 2,
# but it is still rank 1's first send to rank 0, so not counted:
# n = 9, s = 8, d = 1, all of it rank 1's.
expect_exit 1 "an extra event before a send" -- trc-stable recv-a.trc recv-c.trc
is "$(awk '$1 == "0" || $1 == "1" || $1 == "total"' "$out")" \
"0               4          4          4          0
1               2          3          2          1
total           8          9          8          1" "shifted send index is not a difference"

# One distance for the rows and the total: under --equal kind recv-d's
# rank 0 has recv-a's string with both receives matched to the other
# sender (2), and rank 2 gains a marker (3 events against 2, LCS 2: 1).
# d = 2 + 0 + 1 = 3, n = 4 + 2 + 3 = 9, s = 4 + 2 + 2 = 8.
cat >"$tmp/want" <<'X'
rank      events1    events2        lcs   distance
0               4          4          4          2
1               2          2          2          0
2               2          3          2          1
total           8          9          8          3
similarity 0.888889 (8 of 9 events), distance 3
different execution graphs: unstable (distance 3 > 0)
X
expect_exit 1 "matched otherwise on one rank, other events on another" -- \
    trc-stable --equal kind recv-a.trc recv-d.trc
is_file "$out" "$tmp/want" "the rows sum to the total"
is "$(awk '$1 ~ /^[0-9]+$/ { d += $5 } $1 == "total" { print d == $5 }' "$out")" "1" \
    "the rows' distances add up"
expect_exit 1 "-w on a matching difference" -- trc-stable --equal kind -w recv-a.trc recv-d.trc
is "$(sed -n '/^rank 0:/,/^rank 2:/p' "$out" | grep '^[-+]')" \
"- recv-a.trc:8: 0.000001100 0 RE peer=1 tag=5 bytes=8
-     matched to rank 1's send 1 to it, recv-a.trc:4
+ recv-d.trc:11: 0.000001100 0 RE peer=2 tag=5 bytes=8
+     matched to rank 2's send 1 to it, recv-d.trc:8" "-w shows the two matched sends"

# Different rank counts: task 0 RB* RE1 PB PE RB* RE2 against RB1 RE1,
# LCS 1; task 1 the same 4; task 2 missing: 4 against 0.  s = 5,
# d = 14 - 5 = 9.
cat >"$tmp/want" <<'X'
ranks differ: fig-m1.trc has 3, two-ranks.trc has 2
rank      events1    events2        lcs   distance
0               6          2          1          5
1               4          4          4          0
2               4          0          0          4
total          14          6          5          9
similarity 0.357143 (5 of 14 events), distance 9
different execution graphs: unstable (distance 9 > 0)
X
expect_exit 1 "3 ranks against 2" -- trc-stable fig-m1.trc two-ranks.trc
is_file "$out" "$tmp/want" "missing rank compares as empty"

cat >"$tmp/want" <<'X'
rank      events1    events2        lcs   distance
0               2          2          2          0
1               2          2          2          0
2               1          1          1          0
3               0          0          0          0
total           5          5          5          0
similarity 1.000000 (5 of 5 events), distance 0
identical execution graphs: stable
X
expect_exit 0 "empty rank 3 (ranks=4)" -- trc-stable empty-rank.trc empty-rank.trc
is_file "$out" "$tmp/want" "empty rank gets a row of zeros"

# iter-b adds a barrier (2 events) to rank 0's second iteration: rank 0
# 11 against 13 events, LCS 11; s = 11 + 9 = 20, d = 22 - 20 = 2.
expect_exit 1 "iterations, whole ranks" -- trc-stable iter-a.trc iter-b.trc
is "$(awk '$1 == "total"' "$out")" \
    "total          20         22         20          2" "whole-rank total"
# Region mode: region 0 is before the first MK (rank 0's setup), regions
# 1-3 the iterations; only rank 0's region 2 differs.
expect_exit 1 "--split mk" -- trc-stable --split mk iter-a.trc iter-b.trc
is "$(awk '$1 == "0" || $1 == "1" || $1 == "total"' "$out")" \
"0              11         13         11          2        4        1
1               9          9          9          0        4        0
total          20         22         20          2        8        1" "-s mk: table"
is "$(grep '^rank 0 differing' "$out")" "rank 0 differing regions: 2" \
    "-s mk: region 2 of rank 0 differs"
# Split at PB fn=setup: rank 0 has region 0 (empty) and 1 (all); rank 1
# has no split point, region 0 only.
expect_exit 1 "-s fn=setup" -- trc-stable --split fn=setup iter-a.trc iter-b.trc
is "$(grep '^rank 0 differing' "$out")" "rank 0 differing regions: 1" \
    "-s fn=setup: region 1 of rank 0"
is "$(awk '$1 == "total" { print $6, $7 }' "$out")" "3 1" "-s fn=setup: 3 regions, 1 differs"
expect_exit 0 "--split mk on identical traces" -- trc-stable --split mk iter-a.trc iter-a.trc

expect_exit 2 "invalid time" -- trc-stable fig-m1.trc bad-time.trc
is "$(cat "$err")" "trc-stable: bad-time.trc:3: invalid time '12x'" "invalid time: message"
expect_exit 2 "missing file" -- trc-stable fig-m1.trc nosuch.trc
is "$(cat "$err")" "trc-stable: nosuch.trc: No such file or directory" "missing file: message"
expect_exit 2 "one file" -- trc-stable fig-m1.trc
is "$(cat "$err")" "usage: trc-stable [-qw] [-f format] [--choice] [--equal key] [--flops rate] [--split split] [--threshold threshold] file1 file2 ..." \
    "one file: usage"
expect_exit 2 "bad key" -- trc-stable --equal peer,colour fig-m1.trc fig-m2.trc
is "$(cat "$err")" "trc-stable: invalid key 'peer,colour'" "bad key: message"
expect_exit 2 "key without kind" -- trc-stable --equal peer fig-m1.trc fig-m2.trc
expect_exit 2 "bad split" -- trc-stable --split fn= fig-m1.trc fig-m2.trc
is "$(cat "$err")" "trc-stable: invalid split 'fn='" "bad split: message"
expect_exit 2 "bad threshold" -- trc-stable --threshold 2x fig-m1.trc fig-m2.trc
expect_exit 0 "--help" -- trc-stable --help
is "$(head -1 "$out")" "usage: trc-stable [-qw] [-f format] [--choice] [--equal key] [--flops rate] [--split split] [--threshold threshold] file1 file2 ..." "--help: usage"
expect_exit 0 "--version" -- trc-stable --version
done_testing
