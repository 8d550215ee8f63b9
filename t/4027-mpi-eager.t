#!/bin/sh
# libtrc-mpi: sends that completed at once share one request handle
# under Open MPI's shared memory (its static "empty" request), and each
# still gets its own req=, begun once and ended once, whichever call
# waits for them (t/mpi/eager.c: 8 sends of rank 0 to rank 1, in pairs
# waited for by Waitall, Waitany twice, Testall, Waitsome).
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
[ -x "$MPIT/eager" ] || skip_all "t/mpi programs not built"

for btl in vader tcp; do
	tr=$tmp/$btl.trc
	trc-record -o "$tr" -- -np 2 --mca btl "self,$btl" "$MPIT/eager" >"$out" 2>"$err"
	ok $? "$btl: trc-record runs eager on 2 ranks"
	# The req= lists of rank 0's waits, in order, by hand: ids 1 to 8
	# in the order of the sends (the one to MPI_PROC_NULL has none).
	is "$(awk '!/^#/ && $2 == 0 && ($3 == "WB" || $3 == "WE") {
		for (i = 4; i <= NF; i++) if ($i ~ /^req=/) r = $i
		printf "%s %s %s\n", $3, r, $NF; r = "" }' "$tr")" "WB req=1,2 op=waitall
WE req=1,2 op=waitall
WB req=3,4 op=waitany
WE req=3 op=waitany
WB req=4 op=waitany
WE req=4 op=waitany
WB req=5,6 op=testall
WE req=5,6 op=testall
WB req=7,8 op=waitsome
WE req=7,8 op=waitsome" "$btl: every wait lists its own requests"
	is "$(awk '!/^#/ && $2 == 0 && $3 == "WE" { for (i = 4; i <= NF; i++)
		if ($i ~ /^req=/) { n = split(substr($i, 5), v, ","); for (j = 1; j <= n; j++) print v[j] } }' "$tr" |
		sort -n | tr '\n' ' ')" "1 2 3 4 5 6 7 8 " "$btl: each request ends once"
	expect_exit 0 "$btl: trc-scale takes the trace as it is" -- trc-scale "$tr"
	is "$(cat "$err")" "" "  without a word"
done
done_testing
