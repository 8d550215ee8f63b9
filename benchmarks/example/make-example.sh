#!/bin/sh
# make-example.sh BIN - remake the bundled example run: the heat solver
# on 4 ranks, traced on a "base machine" (Open MPI over TCP loopback)
# and a "target machine" (Open MPI over shared memory) of this host,
# with both machines' communication fitted from trc-pingpong and the
# computation ratios measured on a reduced problem, as Mendes did.
# The files it writes are committed; make demo only reads them.
set -e
bin=$1
dir=$(cd "$(dirname "$0")" && pwd)
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	OMPI_MCA_rmaps_base_oversubscribe=1
base="--mca btl self,tcp --mca mpi_yield_when_idle 1"
target="--mca btl self,vader --mca mpi_yield_when_idle 1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Communication: the two machines' send and receive times by size.
mpirun -np 2 $base trc-pingpong -r 30 -m 1048576 > "$tmp/base.txt"
mpirun -np 2 $target trc-pingpong -r 30 -m 1048576 > "$tmp/target.txt"
trc-fit "$tmp/base.txt" > "$dir/base.fit"
trc-fit "$tmp/target.txt" > "$dir/target.fit"

# Computation: a reduced problem (32 x 32 on 2 ranks) on both machines;
# the ratio of each procedure's computation time is its speed ratio.
trc-record -o "$tmp/rb.trc" -- -np 2 $base trc-heat -n 32 -i 400 > /dev/null
trc-record -o "$tmp/rt.trc" -- -np 2 $target trc-heat -n 32 -i 400 > /dev/null
trc-sum -t -s procs "$tmp/rb.trc" > "$tmp/rb.tsv"
trc-sum -t -s procs "$tmp/rt.trc" > "$tmp/rt.tsv"
{
	echo "# speed ratios base/target from trc-heat -n 32 -i 400 on 2 ranks"
	echo "mode speed"
	awk -F'\t' 'NR == FNR { if (FNR > 1) t[$1] += $8; next }
	    FNR > 1 { b[$1] += $8 } END {
	    for (p in b) if (t[p] > 0) printf "%-10s all %.3f\n", p, b[p] / t[p] }' \
	    "$tmp/rt.tsv" "$tmp/rb.tsv" | sort
} > "$dir/ratios.tbl"

# The full problem, 64 x 64 on 4 ranks as in the paper, on both.
trc-record -o "$dir/heat-base.trc" -- -np 4 $base trc-heat -n 64 -i 100 > /dev/null
trc-record -o "$dir/heat-target.trc" -- -np 4 $target trc-heat -n 64 -i 100 > /dev/null
