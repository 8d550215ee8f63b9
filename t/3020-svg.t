#!/bin/sh
# trc-svg: the pictures' structure, read with an XML parser (t/svg.py):
# well-formed, a lane per rank, an arrow per matched message, a legend
# entry per procedure, the highlighted events of --diff adding up to
# trc-stable's distance, the error of --vs in the title, the charts'
# bars.  Expected numbers are worked out by hand in the comments.
# The pictures are made first, then read by one python3 start.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "python3 is not installed"
d=$T/data/svg
pic() { cp "$out" "$tmp/$1.svg"; }	# keeps the last output as NAME.svg
field() { sed -n "s/^$2 //p" "$tmp/$1.svg.info"; }

# small.trc (see its comments): 3 ranks, 2 messages, procedures solve
# (first to begin) and setup.
expect_exit 0 "timeline" -- trc-svg "$d/small.trc"; pic small
is "$(cat "$err")" "" "nothing on stderr"
# The same in another format (Paraver, by trc-cat --to prv).
trc-cat --to prv -o "$tmp/smallp" "$d/small.trc"
expect_exit 0 "a Paraver trace" -- trc-svg "$tmp/smallp.prv"; pic prv
# -r and --time: rank 1 alone, from 1 ms to 3 ms.
expect_exit 0 "-r 1 --time" -- trc-svg -r 1 --time 0.001-0.003 "$d/small.trc"; pic sel
expect_exit 0 "-o" -- trc-svg -o "$tmp/o.svg" "$d/small.trc"
is "$(wc -c <"$out")" "0" "-o: nothing on stdout"
cmp -s "$tmp/o.svg" "$tmp/small.svg"; ok $? "-o: the same picture as on stdout"
is "$(ls "$tmp" | grep -c 'o.svg.tmp')" "0" "-o: no temporary left behind"
# --vs: the predicted run is small.trc with every time times 1.2.
awk '/^#/ { print; next } { $1 = sprintf("%.9f", $1 * 1.2); print }' \
    "$d/small.trc" >"$tmp/pred.trc"
expect_exit 0 "--vs" -- trc-svg --vs "$d/small.trc" "$tmp/pred.trc"; pic vs
expect_exit 0 "--diff" -- trc-svg --diff "$d/race-a.trc" "$d/race-b.trc"; pic diff
expect_exit 0 "--diff --equal kind, same strings" -- \
    trc-svg --diff --equal kind "$d/race-a.trc" "$d/race-c.trc"; pic diffc
expect_exit 0 "--diff --equal kind" -- \
    trc-svg --diff --equal kind "$d/race-a.trc" "$d/race-b.trc"; pic diffk
expect_exit 0 "--diff of a run with itself" -- trc-svg --diff "$d/race-a.trc" "$d/race-a.trc"; pic self
# Ranks that differ the other way round: rank 0 has 3 events in o1
# and 1 in o2, rank 1 1 and 3; LCS 1 each.  trc-stable's distance is
# the ranks' summed, (3 - 1) + (3 - 1) = 4, its n 3 + 3 = 6: not
# max(4, 4) - 2 = 2 over the runs' totals.
printf '#trc 1 ranks=2\n0.1 0 MK\n0.2 0 MK\n0.3 0 MK\n0.4 1 MK\n' > "$tmp/o1.trc"
printf '#trc 1 ranks=2\n0.1 0 MK\n0.4 1 MK\n0.5 1 MK\n0.6 1 MK\n' > "$tmp/o2.trc"
expect_exit 0 "--diff of ranks that differ the other way round" -- \
    trc-svg --diff "$tmp/o1.trc" "$tmp/o2.trc"; pic oppo
expect_exit 0 "--chart procs" -- trc-svg --chart procs "$d/small.trc"; pic procs
expect_exit 0 "--chart sizes" -- trc-svg --chart sizes "$d/small.trc"; pic sizes
expect_exit 0 "--chart ratios" -- trc-svg --chart ratios --vs "$d/small.trc" "$tmp/pred.trc"; pic ratios
# trc-effects' output, numbers by hand: A 89.01% and B 9.89% of the
# time's variation, B 100% of the distance's.
printf 'design: 2^2\n\nresponse: time\neffect\testimate\tsum_sq\tpercent\taliases\nmean\t12.75\t-\t-\tI\nA\t2.25\t20.25\t89.01\tA\nB\t0.75\t2.25\t9.89\tB\nAB\t0.25\t0.25\t1.10\tAB\ntotal\t-\t22.75\t100.00\t-\n\nresponse: distance\neffect\testimate\tsum_sq\tpercent\taliases\nmean\t1\t-\t-\tI\nA\t0\t0\t0.00\tA\nB\t1\t4\t100.00\tB\nAB\t0\t0\t0.00\tAB\ntotal\t-\t4\t100.00\t-\n\nverdict: unstable\nB\t100.00\n' >"$tmp/eff.txt"
expect_exit 0 "--chart effects" -- trc-svg --chart effects "$tmp/eff.txt"; pic effects
# Ten thousand messages.
trc-gen -p ring -n 4 -i 2500 >"$tmp/ring.trc"
expect_exit 0 "a ring of 10000 messages" -- trc-svg "$tmp/ring.trc"; pic ring

# rank-order.trc: rank 0 solve 5-10 ms, rank 1 setup 0-5 ms, listed
# rank by rank.  The plot is 1024 pixels from x = 120 for 10 ms, so
# each lane is one rectangle of 512 pixels, rank 0's from 632; solve,
# the first procedure, is class k6, setup k7.
expect_exit 0 "a stream in rank order" -- trc-svg "$d/rank-order.trc"; pic order
is "$(grep -o '<rect class="k[0-9]*" x="[0-9]*" width="[0-9]*"' "$out" | tr '\n' ' ')" \
    '<rect class="k6" x="632" width="512" <rect class="k7" x="120" width="512" ' \
    "rank order: bins grown to the left, each lane exact"

# 100000 cycles of 10 ns in 1 ms: region a for 7 ns, then computation
# outside regions for 3 (and the other way round).  Each pixel column
# (977 ns) holds about 98 cycles, so a dominates every column: one
# rectangle of class k6 (the first procedure) over the 1024 pixels; and
# k0 (computation) when a takes 3 ns of 10.
for a in 7 3; do
	awk -v a=$a 'BEGIN { print "#trc 1 ranks=1"; for (i = 0; i < 100000; i++)
		printf "%.9f 0 PB fn=a\n%.9f 0 PE fn=a\n", i * 10e-9, (i * 10 + a) * 1e-9
		printf "%.9f 0 MK\n", 1e-3 }' >"$tmp/mix$a.trc"
done
expect_exit 0 "a region 7 ns of 10, 200000 events" -- trc-svg "$tmp/mix7.trc"
is "$(grep -o '<rect class="k[0-9]*" x="[0-9]*" width="[0-9]*"' "$out")" \
    '<rect class="k6" x="120" width="1024"' "the dominant activity per column: the region"
expect_exit 0 "a region 3 ns of 10" -- trc-svg "$tmp/mix3.trc"
is "$(grep -o '<rect class="k[0-9]*" x="[0-9]*" width="[0-9]*"' "$out")" \
    '<rect class="k0" x="120" width="1024"' "the dominant activity per column: computation"

python3 "$T/svg.py" infos "$tmp"/*.svg
for f in "$tmp"/*.svg.info; do
	! grep -q '^not well-formed' "$f"; ok $? "${f##*/}: well-formed XML"
done

is "$(field small lanes)" "0:0 1:0 2:0" "one lane per rank"
is "$(field small messages)" "2 drawn 2" "an arrow per matched message"
is "$(field small 'legend proc')" "solve,setup" "a legend entry per procedure"
is "$(field small title)" "$d/small.trc: 0.010000 s" "the title has the span"
is "$(field prv lanes)" "0:0 1:0 2:0" "Paraver: a lane per rank"
is "$(field prv 'legend proc')" "solve,setup" "Paraver: the procedures"
is "$(field prv messages)" "2 drawn 2" "Paraver: the messages"
# No message has both ends on rank 1, so no arrow.
is "$(field sel lanes)" "1:0" "-r 1: rank 1's lane only"
is "$(field sel messages)" "0 drawn 0" "-r 1: no arrow"
is "$(sed -n 's/.*data-t0="\([0-9]*\)" data-t1="\([0-9]*\)".*/\1 \2/p' "$tmp/sel.svg")" \
    "1000000 3000000" "--time: the axis spans the window"

# --vs: spans 12 ms and 10 ms, error +20.0%.
is "$(field vs lanes)" "0:0 0:1 1:0 1:1 2:0 2:1" "--vs: a pair of lanes per rank"
is "$(field vs title)" \
    "predicted $tmp/pred.trc: 0.012000 s, observed $d/small.trc: 0.010000 s, error +20.0%" \
    "--vs: the title has both totals and the error"
is "$(field vs messages)" "4 drawn 4" "--vs: both runs' messages"

# --diff, race-a against race-b, default key (kind and peer).  Rank 1
# of b runs a region more (2 events); rank 2 takes its two messages
# in the other order: a R* E0 R* E1, b R* E1 R* E0, LCS 2.  So a has
# 2 events without a partner, b 2 + 2, and the distance is
# max(8, 10) - 6 = 4.  First differences: rank 1 in b, rank 2 in both.
is "$(field diff unmatched)" "2 4" "--diff: highlighted events per run"
is "$(field diff first)" "1:1 2:0 2:1" "--diff: first differences marked"
dist=$(trc-stable "$d/race-a.trc" "$d/race-b.trc" | awk '$1 == "total" { print $5 }')
is "$dist" "4" "trc-stable's distance is the hand count"
is "$(field diff unmatched | awk '{ print ($1 > $2 ? $1 : $2) }')" "$dist" \
    "--diff: the larger run's highlighted events are trc-stable's distance"
field diff title | grep -q "distance 4,"; ok $? "--diff: the distance in the title"
is "$(field diff lanes)" "0:0 0:1 1:0 1:1 2:0 2:1" "--diff: a pair of lanes per rank"
# --equal kind: every string is the same in race-a and race-c, and
# both receives of rank 2 are matched to other sends: distance 2, both
# highlighted in both runs.  race-a against race-b: rank 1's strings
# differ (b's region, 2 events, counted through the LCS), rank 2's are
# the same with both receives matched otherwise (2 in each run): the
# distance 2 + 2 = 4, rank by rank as trc-stable counts it.
is "$(field diffc unmatched)" "2 2" "--equal kind: the receives matched otherwise"
is "$(trc-stable --equal kind "$d/race-a.trc" "$d/race-c.trc" | awk '$1 == "total" { print $5 }')" \
    "2" "trc-stable agrees: 2"
is "$(field diffk unmatched)" "2 4" "--equal kind: the region and rank 2's receives"
is "$(trc-stable --equal kind "$d/race-a.trc" "$d/race-b.trc" | awk '$1 == "total" { print $5 }')" \
    "4" "trc-stable agrees: 4"
field diffk title | grep -q "distance 4,"; ok $? "--equal kind: the distance 4 in the title"
is "$(field oppo unmatched)" "2 2" "the other way round: 2 highlighted in each run"
field oppo title | grep -q "distance 4, similarity 0.333333 (2 of 6 events)"
rc=$?
ok $rc "the other way round: the title has trc-stable's distance and similarity"
[ $rc -eq 0 ] || diag "$(field oppo title)"
is "$(trc-stable "$tmp/o1.trc" "$tmp/o2.trc" | sed -n 's/^similarity //p')" \
    "0.333333 (2 of 6 events), distance 4" "trc-stable agrees"
is "$(field self unmatched)" "0 0" "itself: nothing highlighted"
field self title | grep -q 'distance 0,.*identical$'; ok $? "itself: identical in the title"

# procs: per rank the time of each procedure, then the activities
# that took time: rank 0 solve 4 ms, send 2, other computation 4 (6 to
# 10); rank 1 setup 2, solve 3, receive 5; rank 2 solve 2, receive 8.
is "$(field procs 'legend series')" "solve,setup,computation,send,receive" \
    "procs: a series per procedure, then the activities"
is "$(field procs categories)" "rank 0,rank 1,rank 2" "procs: a bar per rank"
is "$(field procs bar | tr '\n' ' ')" \
    "0 0 0.004 0 1 0 0 2 0.004 0 3 0.002 0 4 0 1 0 0.003 1 1 0.002 1 2 0 1 3 0 1 4 0.005 2 0 0.002 2 1 0 2 2 0 2 3 0 2 4 0.008 " \
    "procs: the stacked times"
# sizes: 100 bytes in [64, 128), 2000 in [1K, 2K): five classes.
is "$(field sizes categories)" "64-128,128-256,256-512,512-1K,1K-2K" "sizes: power-of-two classes"
is "$(field sizes bar | awk '{ printf "%s ", $3 }')" "1 0 0 0 1 " "sizes: the counts"
# ratios: every lifetime of the prediction is 1.2 times the observed.
is "$(field ratios 'legend series')" "rank 0,rank 1,rank 2" "ratios: a series per rank"
is "$(field ratios bar | awk '{ printf "%.4f\n", $3 }' | sort -u)" "1.2000" "ratios: every bar at 1.2"
grep -q 'class="ref"' "$tmp/ratios.svg"; ok $? "ratios: the line at 1"
is "$(field effects categories)" "A,B,AB" "effects: a group per effect, no mean, no total"
is "$(field effects 'legend series')" "time,distance" "effects: a series per response"
is "$(field effects bar | tr '\n' ' ')" "0 0 89.01 0 1 0 1 0 9.89 1 1 100 2 0 1.1 2 1 0 " \
    "effects: the percentages"
# 10000 messages: arrows thinned, the count kept.
is "$(field ring messages | cut -d' ' -f1)" "10000" "thinned: every message counted"
[ "$(field ring messages | cut -d' ' -f3)" -lt 2000 ]; ok $? "thinned: fewer arrows drawn"
done_testing
