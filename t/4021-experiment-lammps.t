#!/bin/sh
# make validate-balance in short: LAMMPS's melt (Debian's lammps and
# lammps-examples) under trc-experiment, small and short, with time-
# weighted load balancing (fix balance ... rcb weight time: the cuts
# follow each run's timing, and the bisection receives from any source)
# and without (messages to fixed neighbours).  The verdicts and their
# reasons: unstable without perturbation (the rerun of the baseline
# already differs, at a wildcard receive), and stable.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
melt=/usr/share/lammps/examples/melt/in.melt
command -v lmp >/dev/null || skip_all "lmp not installed (make deps: lammps)"
[ -r "$melt" ] || skip_all "$melt not installed (make deps: lammps-examples)"
command -v make >/dev/null || skip_all "no make"
unset MAKEFLAGS MFLAGS MAKELEVEL

cd "$tmp" || exit 2
sed -e 's/^region.*/region		box block 0 6 0 6 0 6/' -e 's/^run.*/run		30/' "$melt" >in.plain
sed -e 's/^region.*/region		box block 0 6 0 6 0 6/' -e 's/^run.*/comm_style	tiled\
fix		2 all balance 10 1.0 rcb weight time 1.0\
run		30/' "$melt" >in.balanced
grep -q '^fix		2 all balance 10 1.0 rcb weight time 1.0$' in.balanced; ok $? "in.balanced balances by time"
printf 'send1 call=send ranks=1 occ=10-19 delay=0.005\n' >factors

expect_exit 0 "plain melt: stable" -- trc-experiment -j 2 --factors factors plain.exp \
	-- -np 4 lmp -in in.plain -log none -screen none
is "$(sed -n '/^verdict/,$p' "$out")" "verdict: stable under every perturbation" "  the verdict"
grep -q "^	A	1	10	send1$" "$out"; ok $? "  its factor made 10 delays"
is "$(ls plain.exp/*.trc)" "plain.exp/base.trc" "  --keep diff: the baseline alone kept"

expect_exit 1 "balanced melt: unstable" -- trc-experiment -j 2 --factors factors balanced.exp \
	-- -np 4 lmp -in in.balanced -log none -screen none
is "$(grep '^verdict' "$out")" "verdict: unstable without perturbation: 1 of 1 repeated baseline runs differ" \
	"  without perturbation: the rerun differs"
# A choice point (trc-stable(1)): a wildcard receive, recv, irecv or
# another call's, or a probe, or a wait or test on any of its requests.
# The load decides which first takes another message: the balanced
# melt's 4 ranks post 62 receives from any source and 708 waitany a
# run, and on a loaded host the first to differ was not a receive.
grep -Eq "^first differing choice point: rank [0-3] ([a-z_]*recv|i?m?probe|(wait|test)(any|some)) balanced.exp/base.trc:[0-9]+ \(run" "$out"
rc=$?
ok $rc "  first at a choice point"
[ $rc -eq 0 ] || diag "$(grep "^first differing" "$out")" >&2
grep -q "^	A	1	10	send1$" "$out"; ok $? "  its factor made 10 delays"

done_testing
