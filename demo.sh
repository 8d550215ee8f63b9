#!/bin/sh
# demo.sh BIN - the main job on the bundled example: the paper's heat
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
