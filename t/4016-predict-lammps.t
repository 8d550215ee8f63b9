#!/bin/sh
# make validate-lammps in short: LAMMPS's melt (Debian's lammps and
# lammps-examples), 2 ranks, traced over TCP and over shared memory,
# each predicted from the other with fits of trc-pingpong on both.
# Timings on a shared host are no test; what is: both predictions run,
# keep every event, pair every occurrence with the observed run's, and
# raise no clock-skew warning on traces libtrc-mpi wrote on one host
# (issue 10: 3,032 such warnings shm -> tcp).  The errors are printed
# as comments.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
melt=/usr/share/lammps/examples/melt/in.melt
command -v lmp >/dev/null || skip_all "lmp not installed (make deps: lammps)"
[ -r "$melt" ] || skip_all "$melt not installed (make deps: lammps-examples)"

cd "$tmp" || exit 2
sed -e 's/^region.*/region		box block 0 6 0 6 0 6/' -e 's/^run.*/run		100/' "$melt" >in.melt
grep -q '^run		100$' in.melt; ok $? "in.melt, 100 steps"
ops=send,recv,send-late,recv-late,isend,barrier,bcast,reduce,allreduce
for m in tcp shm; do
	case $m in tcp) btl=self,tcp ;; shm) btl=self,vader ;; esac
	mpirun -np 2 --mca btl $btl trc-pingpong --repetitions 10 -m 65536 --operations $ops >$m.meas 2>"$err"
	ok $? "trc-pingpong over $m"
	trc-fit $m.meas >$m.fit 2>"$err"
	ok $? "  fitted"
	trc-record -o $m.trc -- -np 2 --mca btl $btl lmp -in in.melt -log none -screen none >"$out" 2>"$err"
	ok $? "melt traced over $m"
done
for d in tcp-shm shm-tcp; do
	b=${d%-*} t=${d#*-}
	expect_exit 0 "$d: predicted" -- trc-scale -b $b.fit -c $t.fit --cpu-ratio 1 $b.trc
	# A disturbed run (a busy host) is warned of apart: not skew.
	is "$(grep -v ': the run looks disturbed: ' "$err")" "" "  no clock-skew warning"
	is "$(grep -vc '^#' "$out")" "$(grep -vc '^#' $b.trc)" "  every event"
	cp "$out" $d.pred
	trc-sum -t --vs $t.trc $d.pred >"$tmp/vs"
	is "$(awk -F'\t' 'NF == 4 && $1 != "predicted" { print $4 }' "$tmp/vs")" 0 \
	    "  every occurrence paired with the observed run's"
	echo "# $d: $(awk -F'\t' 'NF == 4 && $1 != "predicted" { printf "predicted %.4f s, observed %.4f s, error %+.1f%%", $1, $2, $3 }' "$tmp/vs")"
done
done_testing
