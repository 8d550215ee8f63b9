#!/bin/sh
# trc-svg's pictures as a browser draws them: every kind rendered by
# headless Chromium, in one start, to a PNG of a fixed size, read back
# (t/svg.py: zlib and struct) - not blank, and the expected colours in
# the expected lanes and bars.  The colours expected in lanes are the
# legend's, so the drawing and its legend must agree.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "python3 is not installed"
browser=$(command -v chromium || command -v chromium-browser) ||
	skip_all "chromium is not installed (make deps installs it)"
d=$T/data/svg
cd "$tmp" || exit 2

# small.trc by hand: rank 0 solve 0-4 ms, send 4-6, computation 6-10;
# rank 1 setup 0-2, receive 2-7, solve 7-10; rank 2 receive 0-8, solve
# 8-10.  The prediction is the same times 1.2.
awk '/^#/ { print; next } { $1 = sprintf("%.9f", $1 * 1.2); print }' \
    "$d/small.trc" >pred.trc
printf 'response: time\neffect\testimate\tsum_sq\tpercent\taliases\nA\t2.25\t20.25\t89.01\tA\nB\t0.75\t2.25\t9.89\tB\n' >eff.txt
trc-svg -o tl.svg "$d/small.trc" &&
trc-svg -o vs.svg --vs "$d/small.trc" pred.trc &&
trc-svg -o diff.svg --diff "$d/race-a.trc" "$d/race-b.trc" &&
trc-svg -o procs.svg --chart procs "$d/small.trc" &&
trc-svg -o sizes.svg --chart sizes "$d/small.trc" &&
trc-svg -o ratios.svg --chart ratios --vs "$d/small.trc" pred.trc &&
trc-svg -o effects.svg --chart effects eff.txt
ok $? "seven pictures made"
# The demo's pictures of the bundled example, kept under build/ (half
# size; make demo writes them whole).
ex=$T/../benchmarks/example
trc-scale --cpu "$ex/ratios.tbl" --base "$ex/base.fit" --comm "$ex/target.fit" \
    "$ex/heat-base.trc" >heat-pred.trc &&
trc-svg -o heat-base.svg "$ex/heat-base.trc" &&
trc-svg -o heat-vs.svg --vs "$ex/heat-target.trc" heat-pred.trc &&
trc-svg -o heat-stable.svg --diff "$ex/heat-base.trc" "$ex/heat-target.trc"
ok $? "the demo's three pictures made"

python3 "$T/svg.py" page page.html tl.svg vs.svg diff.svg procs.svg sizes.svg \
    ratios.svg effects.svg heat-base.svg heat-vs.svg heat-stable.svg >offsets
h=$(sed -n 's/^height //p' offsets)
sandbox=
[ "$(id -u)" = 0 ] && sandbox=--no-sandbox
timeout 120 "$browser" --headless $sandbox --disable-gpu --hide-scrollbars \
    --force-color-profile=srgb --user-data-dir="$tmp/profile" \
    --screenshot="$tmp/shot.png" --window-size="640,$h" \
    "file://$tmp/page.html" >/dev/null 2>&1
[ -s shot.png ]; ok $? "chromium drew the page"
[ -n "$TRC_BUILD" ] && mkdir -p "$TRC_BUILD/t/svg" && cp shot.png "$TRC_BUILD/t/svg/all.png"

# Every check on one python3 start; answers in order.
python3 "$T/svg.py" checks shot.png offsets >answers <<'X'
tl.svg ink
tl.svg legend solve
tl.svg legend setup
tl.svg legend receive
tl.svg legend send
tl.svg legend computation
tl.svg at 0 0 0.002
tl.svg at 0 0 0.0045
tl.svg at 0 0 0.008
tl.svg at 1 0 0.001
tl.svg at 1 0 0.0045
tl.svg at 1 0 0.0085
tl.svg at 2 0 0.004
tl.svg at 2 0 0.009
vs.svg ink
vs.svg at 1 0 0.011
vs.svg at 1 1 0.011
vs.svg at 0 0 0.0053
vs.svg at 0 1 0.0053
diff.svg ink
diff.svg count 1 1 #ff00ff
diff.svg count 0 0 #ff00ff
diff.svg count 0 1 #ff00ff
diff.svg count 2 1 #ff00ff
procs.svg ink
procs.svg bar 0 0
procs.svg bar 1 1
procs.svg bar 2 4
sizes.svg ink
sizes.svg bar 0 0
ratios.svg ink
ratios.svg bar 1 2
effects.svg ink
effects.svg bar 0 0
heat-base.svg ink
heat-vs.svg ink
heat-stable.svg ink
heat-base.svg hue 0 0 #2ca02c
heat-base.svg legend Iterate
X
a() { sed -n "$1p" answers; }
for i in 1 15 20 25 29 31 33 35 36 37; do
	awk -v v="$(a $i)" 'BEGIN { exit !(v >= 0.05) }'
	ok $? "check $i: not blank ($(a $i) of the pixels drawn)"
done
solve=$(a 2) setup=$(a 3) recv=$(a 4) send=$(a 5) comp=$(a 6)
is "$solve $setup $recv $send $comp" "#1f77b4 #2ca02c #d62728 #ff7f0e #c8c8c8" \
    "the legend's colours"
is "$(a 7)" "$solve" "rank 0 at 2 ms: solve"
is "$(a 8)" "$send" "rank 0 at 4.5 ms: send"
is "$(a 9)" "$comp" "rank 0 at 8 ms: computation outside regions"
is "$(a 10)" "$setup" "rank 1 at 1 ms: setup"
is "$(a 11)" "$recv" "rank 1 at 4.5 ms: receive"
is "$(a 12)" "$solve" "rank 1 at 8.5 ms: solve"
is "$(a 13)" "$recv" "rank 2 at 4 ms: receive"
is "$(a 14)" "$solve" "rank 2 at 9 ms: solve"
# --vs at 11 ms: the prediction (to 12 ms) still solves, the observed
# run (to 10 ms) is over; at 5.3 ms predicted rank 0 sends (4.8-7.2),
# observed computes (6-10 is after, 4-6 is the send: 5.3 sends too).
is "$(a 16)" "$solve" "--vs: predicted rank 1 at 11 ms solves"
is "$(a 17)" "#ffffff" "--vs: observed rank 1 at 11 ms is over"
is "$(a 18) $(a 19)" "$send $send" "--vs: rank 0 at 5.3 ms sends in both"
# --diff: rank 1 of b holds the extra region's 2 events, highlighted;
# rank 0 matches in both runs, rank 2 of b has 2 unmatched events.
[ "$(a 21)" -gt 0 ]; ok $? "--diff: magenta in rank 1's b lane ($(a 21) pixels)"
is "$(a 22) $(a 23)" "0 0" "--diff: no magenta in rank 0's lanes"
[ "$(a 24)" -gt 0 ]; ok $? "--diff: magenta in rank 2's b lane ($(a 24) pixels)"
# Bars: the pixel in the middle of a bar is its fill.
for i in 26 27 28 30 32 34; do
	set -- $(a $i)
	is "$1" "$2" "bar of line $i drawn in its colour ($2)"
done
# Most of the base run's rank 0 is Iterate (trc-sum: 79 of 128 ms), so
# more than a third of its lane's row (512 pixels at half size) is
# green, though blended with thin gold stripes and faint arrows.
is "$(a 39)" "#2ca02c" "the demo's base run: Iterate's colour"
[ "$(a 38)" -gt 170 ]; ok $? "the demo's base run: Iterate on rank 0 ($(a 38) pixels)"
if [ -n "$TRC_BUILD" ]; then
	mkdir -p "$TRC_BUILD/t/svg"
	for f in tl vs diff procs sizes ratios effects heat-base heat-vs heat-stable; do
		echo "$f.svg crop $TRC_BUILD/t/svg/$f.png"
	done | python3 "$T/svg.py" checks shot.png offsets >/dev/null
	[ -s "$TRC_BUILD/t/svg/heat-vs.png" ]; ok $? "the PNGs kept in $TRC_BUILD/t/svg"
fi
done_testing
