#!/bin/sh
# make-example.sh BIN - remake the bundled example run, the experiment
# of make validate in small: the heat solver traced on a "base machine"
# (built at -O0, Open MPI over TCP loopback) and a "target machine"
# (built at -O2, Open MPI over shared memory) of this host, with both
# machines' communication fitted from trc-pingpong and the computation
# ratios measured on a reduced problem, as Mendes did.  The full
# problem (480 x 480, 300 steps) runs on 2 ranks, one per core of this
# host: with more ranks than cores the observed time is mostly ranks
# waiting for the scheduler, which no machine model holds.
# The files it writes are committed; make demo only reads them.
set -e
# One memory layout for every run, as the validate scripts (the -O0
# heat is bimodal with address-space randomization).
. "$(dirname "$0")/../fixed-layout.sh"
bin=$1
dir=$(cd "$(dirname "$0")" && pwd)
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	OMPI_MCA_rmaps_base_oversubscribe=1
base="--mca btl self,tcp --mca mpi_yield_when_idle 1"
target="--mca btl self,vader --mca mpi_yield_when_idle 1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
heat0=$tmp/trc-heat-O0
${MPICC:-mpicc} -std=c11 -D_POSIX_C_SOURCE=200809L -I"$dir/../../lib" \
	-I"$dir/../../${O:-build}" -O0 \
	-o "$heat0" "$dir/../heat.c" -lm

# Communication: the two machines' send and receive times by size.
ops=send,recv,send-late,isend,barrier,reduce,allreduce
mpirun -np 2 $base trc-pingpong --repetitions 100 -m 65536 --operations $ops > "$tmp/base.txt"
mpirun -np 2 $target trc-pingpong --repetitions 100 -m 65536 --operations $ops > "$tmp/target.txt"
trc-fit "$tmp/base.txt" > "$dir/base.fit"
trc-fit "$tmp/target.txt" > "$dir/target.fit"

# Computation: a reduced problem (128 x 128 on 2 ranks) on both machines,
# three times; trc-ratios gives each procedure's and rank's speed ratio,
# the median over the pairs, and warns of a run that looks disturbed.
for i in 1 2 3; do
	trc-record -o "$tmp/rb$i.trc" -- -np 2 $base "$heat0" -n 128 -i 1000 > /dev/null
	trc-record -o "$tmp/rt$i.trc" -- -np 2 $target trc-heat -n 128 -i 1000 > /dev/null
done
trc-ratios "$tmp/rb1.trc" "$tmp/rt1.trc" "$tmp/rb2.trc" "$tmp/rt2.trc" \
	"$tmp/rb3.trc" "$tmp/rt3.trc" > "$dir/ratios.tbl"

# The full problem, 480 x 480 for 300 steps on 2 ranks, on both.
trc-record -o "$dir/heat-base.trc" -- -np 2 $base "$heat0" -n 480 -i 300 > /dev/null
trc-record -o "$dir/heat-target.trc" -- -np 2 $target trc-heat -n 480 -i 300 > /dev/null
