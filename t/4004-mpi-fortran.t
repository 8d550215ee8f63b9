#!/bin/sh
# libtrc-mpi: a Fortran program (t/mpi/fcalls.f90) is traced through the
# wrapped mpi_*_ symbols, MPI_IN_PLACE and MPI_STATUSES_IGNORE included.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
[ -x "$MPIT/fcalls" ] || skip_all "no Fortran compiler"

tr=$tmp/f.trc
trc-record -o "$tr" -- -np 2 "$MPIT/fcalls" >"$out" 2>"$err"
ok $? "trc-record runs fcalls"
is "$(cat "$out")" "allreduce 2" "MPI_IN_PLACE still reaches MPI (1 + 1 = 2)"
check_stream "$tr" 2
check_events "$tr" <<'LIST'
1 0 SB peer=1 tag=41 bytes=40
1 1 RB peer=* tag=41 bytes=40
1 1 RE peer=0 tag=41 bytes=40
1 0 SB peer=1 tag=42 bytes=20 req=1
1 0 WB req=1 op=wait
1 1 RB peer=0 tag=42 bytes=40 req=1
1 1 RE req=1 peer=0 tag=42 bytes=20
1 1 WE req=1 op=waitall
1 0 XB op=barrier bytes=0
1 1 XB op=bcast bytes=32 root=1
1 0 XB op=allreduce bytes=24
1 1 XE op=allreduce bytes=24
1 1 MK mark=finalize
LIST
done_testing
