#!/bin/sh
# libtrc-mpi: a Fortran program (t/mpi/fcalls.f90) is traced through the
# wrapped mpi_*_ symbols, MPI_IN_PLACE and MPI_STATUSES_IGNORE included,
# communicators made in Fortran and the calls of issue 11.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
[ -x "$MPIT/fcalls" ] || skip_all "no Fortran compiler"

tr=$tmp/f.trc
trc-record -o "$tr" -- -np 2 "$MPIT/fcalls" >"$out" 2>"$err"
ok $? "trc-record runs fcalls"
is "$(cat "$out")" "$(printf 'allreduce 2\nwaitany 1')" "MPI_IN_PLACE still reaches MPI (1 + 1 = 2); waitany's index from 1"
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
# the world's barrier, then the split's and SELF's below
3 0 XB op=barrier bytes=0
1 1 XB op=bcast bytes=32 root=1
1 0 XB op=allreduce bytes=24
1 1 XE op=allreduce bytes=24
1 1 MK mark=finalize
# Communicators made in Fortran, ids (B - 1) * 2 + L + 1: the split
# B = 1, L = 0; the 2 x 1 cart B = 2, L = 0; its rows {0} B = 3 and {1}
# B = 1 (rank 1's first); MPI_COMM_SELF at its first use, rank 0 B = 4,
# rank 1 B = 2.
1 0 XB op=barrier bytes=0 comm=1 size=2
1 1 XB op=barrier bytes=0 comm=1 size=2
1 0 XB op=allreduce bytes=8 comm=3 size=2
1 1 XB op=allreduce bytes=8 comm=3 size=2
1 0 XB op=allreduce bytes=12 comm=5 size=1
1 1 XB op=allreduce bytes=12 comm=2 size=1
1 0 XB op=barrier bytes=0 comm=7 size=1
1 1 XB op=barrier bytes=0 comm=4 size=1
# and the calls added
1 0 SB peer=1 tag=43 bytes=16 req=2 op=sendrecv
1 1 RE req=3 peer=0 tag=43 bytes=16 op=sendrecv
1 0 XB op=scan bytes=20
1 1 XB op=iallreduce bytes=24 req=4
1 1 XE req=4 op=iallreduce bytes=24
1 0 WB req=5 op=waitany
1 0 RE req=5 peer=1 tag=44 bytes=4
1 0 WE req=5 op=waitany
LIST
expect_exit 0 "trc-scale predicts it" -- trc-scale --cpu-ratio 0.5 "$tr"
done_testing
