#!/bin/sh
# trc-experiment on real runs: the heat solver is stable under a 2^3
# design with delays at three locations; the Figure 1 program and the
# master-worker program, which receive in arrival order, are unstable,
# with the factor responsible named; the stable Figure 1 program is
# stable.  Every delay that must change the arrival order beats the
# other message by 100 ms or more, and every order the baseline has is
# kept by a margin as large, so that a loaded machine does not decide.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
command -v make >/dev/null || skip_all "no make"
unset MAKEFLAGS MFLAGS MAKELEVEL
tab() { tr '|' '\t'; }

# The line of rank 0's first wildcard receive.
first_wild() { awk '$2 == 0 && $3 == "RB" && / peer=\*/ { print NR; exit }' "$1"; }
# The verdict: the lines from "verdict" on.
verdict() { sed -n '/^verdict/,$p' "$out"; }
# The verdict line and the factors of each run that changes the graph.
summary() {
	awk -F'\t' '/^verdict/ { v = 1 } !v { next } /^verdict/ { print; next }
		/^runs/ { r = 1; next } r { print $2, $4 }' "$1"
}
# offline DIR STATUS NAME: trc-perturb, from DIR's baseline alone, predicts
# the verdict and the runs that change the graph of the real runs.
offline() {
	command -v trc-perturb >/dev/null || return 0
	trc-experiment --offline "$1" >/dev/null 2>"$err"
	is "$?:$(summary "$1/offline-effects")" "$2:$(summary "$1/effects")" \
		"  $3: trc-perturb reaches the same verdict offline"
	took "$3 offline"
}
# The wall time of each workflow, as a comment.
t0=$(date +%s.%N)
took() { t1=$(date +%s.%N); echo "$t0 $t1" | awk -v n="$1" '{ printf "# %s: %.1f s\n", n, $2 - $1 }'; t0=$t1; }

# Heat: 5 ms delays in ten iterations at rank 1's sends, rank 2's
# receives and rank 0's reductions.  Its receives name their source:
# the graph cannot change, only the time.
cat >"$tmp/heat" <<'X'
send1   call=send ranks=1 occ=10-19 delay=0.005
recv2   call=recv ranks=2 occ=10-19 delay=0.005
allred0 call=allreduce ranks=0 occ=10-19 delay=0.005
X
expect_exit 0 "heat: stable under 2^3" -- trc-experiment -j 2 --keep all --factors "$tmp/heat" "$tmp/heat.exp" \
	-- -np 4 trc-heat -n 48 -i 40
took "heat, 2^3, -j 2"
is "$(verdict)" "verdict: stable under every perturbation" "  the verdict"
is "$(awk 'NR > 1 { n++; d += $(NF - 4) } END { print n, d }' "$tmp/heat.exp/runs.tsv")" "8 0" \
	"  eight runs, distance 0"
# Rank 1 sends 40 times, rank 2 receives twice per iteration: the
# delays are 10 of them each, 50 ms.
is "$(awk '$2 == 1 && $3 == "SB" && $0 !~ /req=/' "$tmp/heat.exp/run-2.trc" | wc -l)" 40 \
	"  rank 1's blocking sends"
is "$(awk '$2 == 1 && $3 == "SB" && $0 !~ /req=/ { n++; if (n == 10) b = $1 } $2 == 1 && $3 == "SE" && $0 !~ /req=/ { m++; if (m == 10) print ($1 - b >= 0.005) }' "$tmp/heat.exp/run-2.trc")" 1 \
	"  the tenth is delayed"
offline "$tmp/heat.exp" 0 heat

# Figure 1: task 1 computes nothing, task 2 100 ms; 200 ms before each
# send of task 1 makes task 2's message first; 200 ms before task 2's
# too restores the order.  Only sendA, alone, changes the graph.
cat >"$tmp/fig1" <<'X'
sendA call=send ranks=1 delay=0.2
sendB call=send ranks=2 delay=0.2
X
expect_exit 1 "fig1: unstable" -- trc-experiment --factors "$tmp/fig1" "$tmp/fig1.exp" \
	-- -np 3 trc-fig1 -i 2 -A 0 -B 0.1 -C 0
took "fig1, 2^2"
verdict >"$tmp/got"
# Two iterations, each with task 0's RB RE1 PB PE RB RE2 become
# RB RE2 RB RE1 PB PE: distance 2 each (t/2040 has the LCS).  The run
# without delay does not differ; run 2 first differs at task 0's first
# wildcard receive.
tab >"$tmp/want" <<X
verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ
A|33.33|sendA
B|33.33|sendB
AB|33.33|sendA x sendB
runs that change the graph (factors high, mean distance):
|A|4|sendA
first differing choice point: rank 0 recv $tmp/fig1.exp/base.trc:$(first_wild "$tmp/fig1.exp/base.trc") (run 2)
X
is_file "$tmp/got" "$tmp/want" "  sendA changes the graph"
offline "$tmp/fig1.exp" 1 fig1

expect_exit 0 "fig1 --stable: stable" -- trc-experiment --factors "$tmp/fig1" "$tmp/fig1s.exp" \
	-- -np 3 trc-fig1 --stable -i 2 -A 0 -B 0.1 -C 0
took "fig1 -s, 2^2"
is "$(verdict)" "verdict: stable under every perturbation" "  the verdict"
offline "$tmp/fig1s.exp" 0 "fig1 -s"

# Master-worker: tasks of 100, 200, 300 and 400 ms; task 0 goes to
# worker 1 and task 1 to worker 2, whose results come 100 ms apart.
# 350 ms before each of a worker's sends reverses that (worker 2 alone
# answers at 550 ms, after worker 1 finished task 2 at 400); before both
# workers' sends it keeps the order.
cat >"$tmp/mw" <<'X'
slow1 call=send ranks=1 delay=0.35
slow2 call=send ranks=2 delay=0.35
X
expect_exit 1 "master-worker: unstable" -- trc-experiment --factors "$tmp/mw" "$tmp/mw.exp" \
	-- -np 3 trc-master-worker --tasks 4 --work 0.1
took "master-worker, 2^2"
is "$(verdict | sed -n '/^runs/,$p' | grep -v '^first' | cut -f2,4 | tr '\t\n' ': ')" \
	"runs that change the graph (factors high, mean distance): A:slow1 B:slow2 " \
	"  each delay alone changes the graph, both together do not"
is "$(verdict | grep '^first')" \
	"first differing choice point: rank 0 recv $tmp/mw.exp/base.trc:$(first_wild "$tmp/mw.exp/base.trc") (run 2)" \
	"  at the master's first wildcard receive (run 3 differs at its second)"
is "$(awk 'NR > 1 { print ($(NF - 4) > 0) }' "$tmp/mw.exp/runs.tsv" | tr -d '\n')" 0110 \
	"  runs 2 and 3 differ from the baseline"
offline "$tmp/mw.exp" 1 master-worker

done_testing
