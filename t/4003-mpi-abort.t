#!/bin/sh
# libtrc-mpi: a run that does not reach MPI_Finalize (MPI_Abort, a
# signal, an exit without MPI_Finalize) leaves a "#trc-partial" trace
# that says why each rank stopped, never one that looks complete.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/a.trc
trc-record -o "$tr" -- -np 2 "$MPIT/abort" abort >/dev/null 2>"$err"
st=$?
ok "$([ $st -ne 0 ]; echo $?)" "MPI_Abort: trc-record fails"
is "$(tail -1 "$err")" "trc-record: the run did not finish; partial trace in $tr" "MPI_Abort: says so"
is "$(head -1 "$tr")" "#trc-partial 1 ranks=2" "MPI_Abort: marked partial in the first line"
ok "$(grep -qx '# rank 1: truncated: MPI_Abort errorcode=3' "$tr"; echo $?)" "MPI_Abort: rank 1's reason"
ok "$(grep -q '^# rank 0: truncated: signal\|^# rank 0: killed' "$tr"; echo $?)" "MPI_Abort: rank 0's end"
is "$(tail -1 "$tr")" "# truncated" "MPI_Abort: a final truncated line"
is "$(count "$tr" 1 PE fn=Step)" "5" "MPI_Abort: rank 1's events before the abort are kept"
is "$(count "$tr" 0 RB 'peer=1 tag=0 bytes=4')" "1" "MPI_Abort: rank 0's pending receive is kept"
is "$(awk '!/^#/ && $1 + 0 < last { print NR } !/^#/ { last = $1 + 0 }' "$tr")" "" "MPI_Abort: sorted"
ok "$(! ls -d "$tr".ranks.* >/dev/null 2>&1; echo $?)" "MPI_Abort: rank files merged and removed"

trc-record -o "$tr" -- -np 2 "$MPIT/abort" signal >/dev/null 2>"$err"
ok "$([ $? -ne 0 ]; echo $?)" "SIGSEGV: trc-record fails"
is "$(head -1 "$tr")" "#trc-partial 1 ranks=2" "SIGSEGV: marked partial"
ok "$(grep -qx '# rank 1: truncated: signal 11' "$tr"; echo $?)" "SIGSEGV: rank 1's reason"
is "$(count "$tr" 1 PE fn=Step)" "5" "SIGSEGV: rank 1's events kept"

trc-record -o "$tr" -- -np 2 "$MPIT/abort" noexit >/dev/null 2>"$err"
ok "$([ $? -ne 0 ]; echo $?)" "no MPI_Finalize: trc-record fails"
ok "$(grep -qx '# rank 0: truncated: exit without MPI_Finalize' "$tr"; echo $?)" "no MPI_Finalize: said"
is "$(count "$tr" 0 PE fn=Step)$(count "$tr" 1 PE fn=Step)" "55" "no MPI_Finalize: every event kept"

# Without trc-record, the output is the placeholder naming the rank files.
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/b.trc mpirun -np 2 "$MPIT/abort" abort >/dev/null 2>&1
is "$(head -1 "$tmp/b.trc")" "#trc-partial 1 ranks=2" "preloaded alone: marked partial"
d=$(sed -n 's/^# events are in \(.*\); trc-record merges.*/\1/p' "$tmp/b.trc")
ok "$(grep -q '^# truncated: MPI_Abort errorcode=3' "$d/rank.1"; echo $?)" "preloaded alone: the rank file says why"
done_testing
