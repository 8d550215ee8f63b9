#!/bin/sh
# validate-lammps.sh BIN BUILD - the prediction experiment on a real
# program: LAMMPS's Lennard-Jones melt (Debian's lammps and its
# examples; in.melt with RUN steps, 2 ranks), traced by libtrc-mpi over
# Open MPI's TCP loopback ("tcp") and over shared memory ("shm"), the
# same binary on the same cores: the computation is the same on both
# sides (ratio 1), only the transport differs.  Each machine is
# predicted from the other (tcp -> shm, shm -> tcp) REPS times; per
# direction the median total-time error, the skew warnings, and the
# summed predicted/observed lifetime per procedure and operation.
# The machines are measured (trc-pingpong) in REPS rounds, each beside
# its run on the same transport, and fitted once from all rounds: on a
# shared host the transport's costs drift by a quarter between minutes
# (TCP, 28 KB: a send fitted at 5.9 us in one pingpong, 7.9 in
# another, 8.4 in the runs of a third series), so a fit measured once,
# before the runs, judged the host's drift as the model's error.
#
# Environment: REPS (5), PREPS (100, trc-pingpong's repetitions in all,
# REPS rounds of PREPS / REPS), PEROCT (trc-pingpong's --per-octave),
# FITOPT (trc-fit's options), OUT (BUILD/validate-lammps), RUN (1000),
# MAXB (262144), MPIOPT (--mca mpi_yield_when_idle 1), LMP (lmp), MELT
# (Debian's in.melt), MAXLOAD (1.5) and QUIETWAIT (300): each run waits
# for the load to fall.
set -e
. benchmarks/fixed-layout.sh
bin=$1 build=$2
reps=${REPS:-5} steps=${RUN:-1000} maxb=${MAXB:-262144}
np=2
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpiopt=${MPIOPT---mca mpi_yield_when_idle 1}
mca_tcp="--mca btl self,tcp $mpiopt"
mca_shm="--mca btl self,vader $mpiopt"
lmp=${LMP:-lmp}
melt=${MELT:-/usr/share/lammps/examples/melt/in.melt}
out=${OUT:-$build/validate-lammps}
mkdir -p "$out"
command -v "$lmp" >/dev/null || { echo "validate-lammps: $lmp not installed (make deps)" >&2; exit 2; }
[ -r "$melt" ] || { echo "validate-lammps: $melt: not found (lammps-examples)" >&2; exit 2; }
sed "s/^run[ 	].*/run $steps/" "$melt" >"$out/in.melt"

. benchmarks/validate-lib.sh

# melt MACHINE TRACE
melt() {
	eval "mca=\$mca_$1"
	(cd "$out" && trc-record -o "$2" -- -np $np $mca "$lmp" -in in.melt -log none -screen none >/dev/null)
}

echo "== validate-lammps: melt, $steps steps, $np ranks on $(nproc) cores; tcp -> shm and shm -> tcp"
echo "   load average at start: $(load)"
ops=send,recv,send-late,send-busy,recv-late,isend,exchange,exchange-wait,send-cold,isend-cold,recv-late-cold,barrier,bcast,reduce,allreduce,barrier-cold,bcast-cold,reduce-cold,allreduce-cold
preps=${PREPS:-100}
round=$(((preps + reps - 1) / reps))
echo "== runs, each beside a round of trc-pingpong on its transport ($round repetitions, up to $maxb bytes)"
for m in tcp shm; do
	: >"$out/$m.meas"
done
r=1
while [ $r -le "$reps" ]; do
	quiet
	echo "== run $r of $reps, load average $(load)"
	for m in tcp shm; do
		eval "mca=\$mca_$m"
		mpirun -np $np $mca trc-pingpong --repetitions $round ${PEROCT:+--per-octave $PEROCT} -m "$maxb" --operations $ops >>"$out/$m.meas"
		melt $m "$out/$m.$r.trc"
	done
	r=$((r + 1))
done
echo "== communication: both machines fitted from the $reps rounds"
for m in tcp shm; do
	trc-fit ${FITOPT:-} "$out/$m.meas" >"$out/$m.fit"
	printf '   %s send-sync: %s send-progress: %s\n' "$m" \
	    "$(awk '$1 == "send-sync" { printf "%s..%s ", $2, $3 }' "$out/$m.fit")" \
	    "$(awk '$1 == "send-progress" { printf "%s..%s ", $2, $3 }' "$out/$m.fit")"
done
for d in tcp-shm shm-tcp; do
	: >"$out/$d.errors"
	: >"$out/$d.rows"
	: >"$out/$d.skew"
done
r=1
while [ $r -le "$reps" ]; do
	cp "$out/tcp.$r.trc" "$out/tcp.trc"
	cp "$out/shm.$r.trc" "$out/shm.trc"
	for d in tcp-shm shm-tcp; do
		b=${d%-*} t=${d#*-}
		trc-scale -b "$out/$b.fit" -c "$out/$t.fit" --cpu-ratio 1 \
		    "$out/$b.trc" >"$out/$d.pred" 2>"$out/$d.err" || { cat "$out/$d.err" >&2; exit 2; }
		skew=$(sed -n 's/.* \([0-9]*\) receive completions\{0,1\} in the input before .*/\1/p' "$out/$d.err" | head -1)
		echo "${skew:-0}" >>"$out/$d.skew"
		trc-sum -t --vs "$out/$t.trc" "$out/$d.pred" >"$out/$d.vs"
		rows "$out/$d.vs" $np | sed "s/^/$r /" >>"$out/$d.rows"
		bs=$(span "$out/$b.trc") p=$(span "$out/$d.pred") o=$(span "$out/$t.trc")
		e=$(pct "$p" "$o")
		echo "$e" >>"$out/$d.errors"
		printf '   %s: base %s s, predicted %s s, observed %s s, error %s%%, skew warnings %s\n' \
		    "$d" "$bs" "$p" "$o" "$e" "${skew:-0}"
	done
	r=$((r + 1))
done
echo "== calls measured in the last run's traces (us): kind rank count median mean"
for f in tcp.trc shm.trc tcp-shm.pred shm-tcp.pred; do
	calls "$out/$f" | sed "s/^/   $f /"
done
for d in tcp-shm shm-tcp; do
	echo "== $d: summed predicted/observed lifetime over both ranks per operation,"
	echo "   median over $reps runs (min to max); rows under 2% of the time marked minor"
	summarize "$out/$d.rows"
	printf '== %s: skew warnings per run: %s\n' "$d" "$(tr '\n' ' ' <"$out/$d.skew")"
	med_line "$d: total-time error" "$out/$d.errors"
done
echo "== load average at end: $(load)"
