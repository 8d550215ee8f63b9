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

# make validate-lammps in short: 2 runs of 30 steps a machine, each
# beside a round of trc-pingpong (2 repetitions of 4 in all), the
# machines fitted once from both rounds.
cd "$T/.." || exit 2
v=$tmp/v
OUT=$v REPS=2 PREPS=4 RUN=30 MAXB=65536 QUIETWAIT=0 \
	sh benchmarks/validate-lammps.sh "$TRC_BIN" "$TRC_BUILD" >"$out" 2>"$err"
ok $? "validate-lammps.sh runs"
[ -s "$err" ] && sed 's/^/# /' "$err"
grep -q '^== runs, each beside a round of trc-pingpong on its transport (2 repetitions, up to 65536 bytes)$' "$out"
ok $? "  a round of 2 repetitions beside each run"
for m in tcp shm; do
	is "$(grep -c '^# repetitions: 2,' "$v/$m.meas")" 2 "  $m: two rounds measured"
	is "$(awk '$1 == "send" && $2 == 1024 { n++ } END { print n }' "$v/$m.meas")" 4 \
	    "  $m: pooled, 2 repetitions a round of each size"
	grep -q '^# send: 128 measurements, 32 sizes, ' "$v/$m.fit"
	ok $? "  $m: fitted once from both (32 sizes to 64 KiB, 4 each)"
	[ -s "$v/$m.1.trc" ] && [ -s "$v/$m.2.trc" ]
	ok $? "  $m: each run's trace kept"
done
grep -q '^# send-late: 128 measurements, [0-9]* sizes outside send-sync, ' "$v/tcp.fit"
ok $? "  tcp: send-late fitted where sends do not wait"
for d in tcp-shm shm-tcp; do
	is "$(wc -l <"$v/$d.errors")" 2 "$d: an error a run"
	grep -q "^== $d: skew warnings per run: 0 0 \$" "$out"
	ok $? "$d: no skew warning"
	grep -qE "^   (send|wait) +sums " "$out"
	ok $? "$d: the summed rows"
done
done_testing
