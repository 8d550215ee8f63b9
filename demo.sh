#!/bin/sh
# demo.sh BIN [PICTURES] - the main job on the bundled example: the paper's heat
# solver (480 x 480 grid, 2 ranks) traced on a base machine, checked for
# stability, predicted for a target machine, and compared with the run
# observed there.  benchmarks/example/make-example.sh made the files.
set -e
PATH=$1:$PATH
ex=$(dirname "$0")/benchmarks/example
cd "$ex"

echo "== The base run: trc-heat (built at -O0) -n 480 -i 300 on 2 ranks, Open MPI over TCP loopback"
echo "\$ trc-sum --section ranks heat-base.trc"
trc-sum --section ranks heat-base.trc
echo
echo "== Is the program stable?  Its execution graph on the target machine"
echo "\$ trc-stable heat-base.trc heat-target.trc"
trc-stable heat-base.trc heat-target.trc
echo
echo "== The prediction for the target (Open MPI over shared memory)"
echo "\$ trc-cat heat-base.trc | trc-scale --cpu ratios.tbl --base base.fit --comm target.fit | trc-sum --section ranks,procs"
trc-cat heat-base.trc | trc-scale --cpu ratios.tbl --base base.fit --comm target.fit |
	trc-sum --section ranks,procs
echo
echo "== Predicted against observed on the target, as the paper's Table 2"
echo "\$ trc-scale --cpu ratios.tbl --base base.fit --comm target.fit heat-base.trc | trc-sum --vs heat-target.trc"
trc-scale --cpu ratios.tbl --base base.fit --comm target.fit heat-base.trc |
	trc-sum --vs heat-target.trc
echo
echo "== Pictures (trc-svg): the base run, predicted against observed, where two runs differ"
pics=${2:-$(cd ../.. && pwd)/build/demo}
mkdir -p "$pics"
echo "\$ trc-svg -o $pics/heat-base.svg heat-base.trc"
trc-svg -o "$pics/heat-base.svg" heat-base.trc
echo "\$ trc-scale --cpu ratios.tbl --base base.fit --comm target.fit heat-base.trc > $pics/heat-predicted.trc"
echo "\$ trc-svg --vs heat-target.trc -o $pics/heat-vs.svg $pics/heat-predicted.trc"
trc-scale --cpu ratios.tbl --base base.fit --comm target.fit heat-base.trc > "$pics/heat-predicted.trc"
trc-svg --vs heat-target.trc -o "$pics/heat-vs.svg" "$pics/heat-predicted.trc"
trc-svg --chart ratios --vs heat-target.trc -o "$pics/heat-table2.svg" "$pics/heat-predicted.trc"
trc-svg --chart procs -o "$pics/heat-procs.svg" heat-base.trc
echo "\$ trc-svg --diff heat-base.trc heat-target.trc -o $pics/heat-stable.svg"
trc-svg --diff -o "$pics/heat-stable.svg" heat-base.trc heat-target.trc
# An unstable program for contrast: a master takes results from any
# worker, and two runs see them in another order.
trc-gen -p master-worker -n 4 -i 5 -s 1 > "$pics/mw-1.trc"
trc-gen -p master-worker -n 4 -i 5 -s 2 > "$pics/mw-2.trc"
echo "\$ trc-svg --diff mw-1.trc mw-2.trc -o $pics/mw-diff.svg    (master-worker, two seeds)"
trc-svg --diff -o "$pics/mw-diff.svg" "$pics/mw-1.trc" "$pics/mw-2.trc"
browser=$(command -v chromium || command -v chromium-browser || true)
for f in heat-base heat-vs heat-stable heat-table2 heat-procs mw-diff; do
	if [ -n "$browser" ]; then
		size=$(sed -n '2s/.* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$pics/$f.svg")
		timeout 120 "$browser" --headless $([ "$(id -u)" = 0 ] && echo --no-sandbox) \
		    --disable-gpu --hide-scrollbars --force-color-profile=srgb \
		    --user-data-dir="$pics/.chromium" --screenshot="$pics/$f.png" \
		    --window-size="$size" "file://$pics/$f.svg" >/dev/null 2>&1 || true
	fi
done
rm -rf "$pics/.chromium"
echo "pictures in $pics:"
ls "$pics" | grep -E '\.(svg|png)$' | sed 's/^/    /'
