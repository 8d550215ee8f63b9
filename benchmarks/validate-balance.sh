#!/bin/sh
# validate-balance.sh BIN BUILD - trc-experiment on a real program
# (issue 12): LAMMPS's Lennard-Jones melt (Debian's lammps and
# lammps-examples, in.melt with RUN steps) on 4 ranks, oversubscribed
# when the host has fewer cores, with and without
#	fix balance 25 1.0 rcb weight time 1.0
# (comm_style tiled), which cuts the box anew every 25 steps by the time
# each rank measured: its decomposition, so its messages, follow the
# run's timing, and the recursive bisection receives from any source.
# Without it melt's messages go to fixed neighbours: stable.  Each
# experiment is a 2^2 design of 5 ms delays (rank 1's sends, rank 2's
# allreduces), run by trc-experiment with --keep diff.  Checked: the
# verdict and its reason (balanced: unstable without perturbation, the
# rerun of the baseline already differs; plain: stable), under
# MAXTIME seconds (120) and MAXMB megabytes of traces kept (10) each.
#
# Environment: RUN (100), LMP (lmp), MELT (Debian's in.melt), NP (4).
set -e
bin=$1 build=$2
steps=${RUN:-100} np=${NP:-4} maxtime=${MAXTIME:-120} maxmb=${MAXMB:-10}
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
lmp=${LMP:-lmp}
melt=${MELT:-/usr/share/lammps/examples/melt/in.melt}
out=$build/validate-balance
command -v "$lmp" >/dev/null || { echo "validate-balance: $lmp not installed (make deps)" >&2; exit 2; }
[ -r "$melt" ] || { echo "validate-balance: $melt: not found (lammps-examples)" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
sed "s/^run[ 	].*/run		$steps/" "$melt" >"$out/in.plain"
sed "s/^run[ 	].*/comm_style	tiled\\
fix		2 all balance 25 1.0 rcb weight time 1.0\\
run		$steps/" "$melt" >"$out/in.balanced"
cat >"$out/factors" <<'X'
send1   call=send ranks=1 occ=100-199 delay=0.005
allred2 call=allreduce ranks=2 occ=20-39 delay=0.005
X

echo "== validate-balance: melt, $steps steps, $np ranks on $(nproc) cores, 2^2 design, --keep diff"
fail=0
for v in plain balanced; do
	e=$out/$v.exp
	t0=$(date +%s.%N)
	set +e
	(cd "$out" && trc-experiment --keep diff --factors factors "$e" \
	    -- -np "$np" "$lmp" -in "in.$v" -log none -screen none) >"$out/$v.out" 2>"$out/$v.err"
	status=$?
	set -e
	t1=$(date +%s.%N)
	secs=$(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }')
	kb=$(cat "$e"/*.trc | wc -c | awk '{ printf "%.2f", $1 / 1048576 }')
	ntrc=$(ls "$e"/*.trc | wc -l)
	echo "== $v: exit $status, $secs s, $ntrc traces kept, $kb MB"
	sed -n '/^delays made/,$p' "$out/$v.out" | sed 's/^/   /'
	case $v in
	plain) want=0 reason='^verdict: stable under every perturbation$' ;;
	balanced) want=1 reason='^verdict: unstable without perturbation: [1-9][0-9]* of [0-9]* repeated baseline runs differ$' ;;
	esac
	if [ "$status" -ne "$want" ] || ! grep -q "$reason" "$out/$v.out"; then
		echo "   FAIL: want exit $want and a verdict matching $reason"
		sed 's/^/   stderr: /' "$out/$v.err" | tail -5
		fail=1
	fi
	if [ "$(echo "$secs $maxtime" | awk '{ print ($1 < $2) }')" != 1 ]; then
		echo "   FAIL: over $maxtime s"; fail=1
	fi
	if [ "$(echo "$kb $maxmb" | awk '{ print ($1 < $2) }')" != 1 ]; then
		echo "   FAIL: over $maxmb MB of traces"; fail=1
	fi
done
exit $fail
