#!/bin/sh
# validate-poll.sh BIN BUILD - polling as waiting (issue 10, item 5).
# t/mpi/polling (two ranks that wait by an MPI_Test loop and an
# MPI_Iprobe loop, a little work after every poll) traced over TCP and
# over shared memory, 2 ranks, same binary; each predicted from the
# other, both directions, with each of trc-scale's --poll modes (wait,
# cost, comp; wait-b: wait with the base's fit as well), against the
# observed time of the same repetition.  The host is shared:
# the load average is printed, and every figure is a median of REPS.
#
# Environment: REPS (5), STEPS (1000), WORK (1000000), LITTLE (300),
# MPIOPT (empty: ranks spin, as the program's own polling does).
# MAXLOAD (1.5), QUIETWAIT (300): each run waits, QUIETWAIT seconds at
# most, for the 1-minute load average to fall under MAXLOAD, as make
# validate does: another job's preemptions stretch a run, inside a poll
# as often as not, and no prediction holds them.
set -e
. benchmarks/fixed-layout.sh
bin=$1 build=$2
reps=${REPS:-5} steps=${STEPS:-1000} work=${WORK:-1000000} little=${LITTLE:-300}
PATH=$bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpiopt=${MPIOPT-}
tcp="--mca btl self,tcp $mpiopt"
shm="--mca btl self,vader $mpiopt"
prog=$build/t/mpi/polling
out=$build/validate-poll
mkdir -p "$out"

. benchmarks/validate-lib.sh
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# polls TRACE: unsuccessful polls and their median cost (us)
polls() { awk '!/^#/ && / polls=/ { n = $0; sub(/.* polls=/, "", n); sub(/ .*/, "", n)
	t = $0; sub(/.* pollt=/, "", t); sub(/ .*/, "", t); N += n; T += t }
	END { printf "%d polls, %.3f us each", N, N ? 1e6 * T / N : 0 }' "$1"; }

echo "== validate-poll: $prog $steps steps, work $work, little $little; 2 ranks on $(nproc) cores; load $(load)"
quiet
echo "== poll cost and communication: trc-pingpong on both transports, fitted"
ops=send,recv,send-late,isend,barrier,poll,iprobe
for m in tcp shm; do
	eval opt=\$$m
	mpirun -np 2 $opt trc-pingpong --repetitions 100 -m 4096 --operations $ops >"$out/$m.meas"
	trc-fit "$out/$m.meas" >"$out/$m.fit"
	printf '   %s: poll %s us, iprobe %s us (median of 100 x 1000 calls)\n' "$m" \
	    "$(awk '$1 == "poll" { print 1e6 * $3 }' "$out/$m.meas" | median)" \
	    "$(awk '$1 == "iprobe" { print 1e6 * $3 }' "$out/$m.meas" | median)"
done

: >"$out/errors"
rm -f "$out"/obs.*
r=1
while [ "$r" -le "$reps" ]; do
	quiet
	echo "== run $r of $reps, load $(load)"
	for m in tcp shm; do
		eval opt=\$$m
		trc-record -o "$out/$m.trc" -- -np 2 $opt "$prog" "$steps" "$work" "$little" >/dev/null
		echo "$m $(span "$out/$m.trc")" >>"$out/obs.$r"
		echo "   $m: observed $(span "$out/$m.trc") s, $(polls "$out/$m.trc")"
	done
	for dir in tcp:shm shm:tcp; do
		b=${dir%:*} t=${dir#*:}
		o=$(awk -v m="$t" '$1 == m { print $2 }' "$out/obs.$r")
		# The target's fit alone (f2(b) for a send): with the base's
		# too, a send scales by f2/f1, which the 50 ns fitted for a
		# small blocking send over shared memory blows up 100-fold.
		for mode in wait cost comp wait-b; do
			case $mode in
			*-b) trc-scale --poll ${mode%-b} -b "$out/$b.fit" -c "$out/$t.fit" "$out/$b.trc" >"$out/pred.trc" 2>/dev/null ;;
			*) trc-scale --poll $mode -c "$out/$t.fit" "$out/$b.trc" >"$out/pred.trc" 2>/dev/null ;;
			esac
			p=$(span "$out/pred.trc")
			e=$(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.1f", 100 * (p - o) / o }')
			echo "$b-$t $mode $e" >>"$out/errors"
			printf '   %s to %s, --poll %s: predicted %s s, observed %s s, error %s%%\n' "$b" "$t" "$mode" "$p" "$o" "$e"
		done
	done
	r=$((r + 1))
done
echo "== total-time error, median over $reps runs (min to max); load at end $(load)"
for dir in tcp-shm shm-tcp; do
	for mode in wait cost comp wait-b; do
		awk -v d="$dir" -v m="$mode" '$1 == d && $2 == m { print $3 }' "$out/errors" | sort -g |
		    awk -v d="$dir" -v m="$mode" '{ v[NR] = $1 } END {
			printf "   %s --poll %-4s median %6.1f%% (%s%% to %s%%)\n", d, m,
			    NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
	done
done
