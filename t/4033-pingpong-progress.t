#!/bin/sh
# trc-pingpong's send-busy against send-late, fitted by trc-fit: which
# waiting sends a receiver's progress in any call takes.  Over Open
# MPI's shared memory a blocking send from a few hundred bytes up to
# the eager limit (4 KiB with its header) waits for a computing
# receiver but not for one polling inside MPI; from the eager limit on
# (a rendezvous), and over TCP at every size, the polling receiver
# takes nothing before its receive.  So on shared memory the fit has a
# send-progress range from send-sync's first size to 4096, and over
# TCP none.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
[ -x "$TRC_BIN/trc-pingpong" ] || skip_all "trc-pingpong not built"

mpirun -np 2 --mca btl self,vader trc-pingpong --repetitions 9 -m 16384 \
    --operations send,send-late,send-busy >"$tmp/shm.meas" 2>"$err"
ok $? "shared memory: send, send-late and send-busy measured"
expect_exit 0 "shared memory: fitted" -- trc-fit "$tmp/shm.meas"
sync=$(awk '$1 == "send-sync" { print $2, $3 }' "$out")
prog=$(awk '$1 == "send-progress" { print $2, $3 }' "$out")
is "${sync#* }" "inf" "shared memory: sends wait for a late receiver from some size on"
is "$prog" "${sync% *} 4096" "shared memory: a polling receiver takes them from there up to the eager limit"

mpirun -np 2 --mca btl self,tcp trc-pingpong --repetitions 5 -m 131072 \
    --operations send,send-late,send-busy >"$tmp/tcp.meas" 2>"$err"
ok $? "TCP: measured"
expect_exit 0 "TCP: fitted" -- trc-fit "$tmp/tcp.meas"
is "$(awk '$1 == "send-sync" { print $3 }' "$out")" "inf" "TCP: sends wait for a late receiver from some size on (rendezvous)"
is "$(grep -c '^send-progress' "$out")" "0" "TCP: none a polling receiver takes"
done_testing
