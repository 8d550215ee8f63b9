#!/bin/sh
# libtrc-mpi: the clock origin is read after a barrier in MPI_Init, so
# every rank's stream starts near 0 (no startup skew and no connection
# set-up before the first event), and the #clock line stays truthful:
# origin plus a recorded time is a time of the run on the shared clock.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/c.trc
before=$(date +%s)
# TCP loopback: its connections are set up lazily, by the first
# message, which took about 10 ms here before the origin moved.
trc-record -o "$tr" -- -np 2 --mca btl self,tcp "$TRC_BIN/trc-heat" -n 8 -i 3 >/dev/null 2>"$err"
ok $? "trc-record runs trc-heat over TCP"
after=$(date +%s)
for r in 0 1; do
	is "$(awk -v r=$r '!/^#/ && $2 == r { print $3, $4; exit }' "$tr")" \
		"MK mark=init" "rank $r: first event is the init mark"
	is "$(awk -v r=$r '!/^#/ && $2 == r { print ($1 >= 0 && $1 < 0.005); exit }' "$tr")" \
		"1" "rank $r: first event within 5 ms of the origin"
done
o=$(sed -n 's/^#clock source=realtime origin=\([0-9]*\)\.[0-9]*\( .*\)\{0,1\}$/\1/p' "$tr")
is "$(awk -v o="$o" -v a="$before" -v b="$after" \
	'BEGIN { print (o >= a - 1 && o <= b + 1) }')" "1" \
	"origin lies within the run on the wall clock"
done_testing
