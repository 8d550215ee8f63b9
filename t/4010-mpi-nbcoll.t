#!/bin/sh
# libtrc-mpi: the collectives of issue 11 (t/mpi/nbcoll.c, 3 ranks):
# scan, exscan, reduce_scatter(_block), alltoallw and the neighbourhood
# ones as XB/XE; every nonblocking one as a point XB req=R at its call
# and an XE req=R inside the wait or test that completes it; and the
# tools read the trace, trc-scale with several at once and a barrier
# that does not block.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/nb.trc
trc-record -o "$tr" -- -np 3 "$MPIT/nbcoll" >"$out" 2>"$err"
ok $? "trc-record runs nbcoll on 3 ranks"
check_stream "$tr" 3
cp "$out" "$tmp/prog.out"

# Sizes from the comment of t/mpi/nbcoll.c; the ring is the run's only
# communicator made: comm=1, size=3.
check_events "$tr" <<'LIST'
1 0 XB op=scan bytes=8
1 2 XE op=scan bytes=8
1 1 XB op=exscan bytes=12
1 0 XB op=reduce_scatter bytes=4
1 1 XB op=reduce_scatter bytes=8
1 2 XB op=reduce_scatter bytes=12
1 2 XE op=reduce_scatter bytes=12
1 1 XB op=reduce_scatter_block bytes=8
1 0 XB op=alltoallw bytes=10
1 2 XB op=alltoallw bytes=10
1 0 XB op=neighbor_allgather bytes=4 comm=1 size=3
1 1 XB op=neighbor_allgatherv bytes=12 comm=1 size=3
1 2 XB op=neighbor_alltoall bytes=8 comm=1 size=3
1 2 XE op=neighbor_alltoall bytes=8 comm=1
1 0 XB op=neighbor_alltoallv bytes=12 comm=1 size=3
1 1 XB op=neighbor_alltoallw bytes=6 comm=1 size=3
2 0 XB op=ibarrier bytes=0
2 1 XB op=ibarrier bytes=0
1 2 XB op=ibcast bytes=20 root=1
1 0 XB op=ireduce bytes=24 root=2
1 1 XB op=iallreduce bytes=28
1 2 XB op=igather bytes=4 root=0
1 0 XB op=igatherv bytes=4 root=0
1 1 XB op=igatherv bytes=8 root=0
1 2 XB op=igatherv bytes=12 root=0
1 0 XB op=iscatter bytes=8 root=1
1 0 XB op=iscatterv bytes=4 root=2
1 2 XB op=iscatterv bytes=12 root=2
1 1 XB op=iallgather bytes=12
1 1 XB op=iallgatherv bytes=8
1 0 XB op=ialltoall bytes=8
1 1 XB op=ialltoallv bytes=8
1 2 XB op=ialltoallw bytes=10
1 1 XB op=ireduce_scatter bytes=8
1 0 XB op=ireduce_scatter_block bytes=8
1 2 XB op=iscan bytes=8
1 1 XB op=iexscan bytes=12
1 0 XB op=ineighbor_allgather bytes=4 comm=1 size=3
1 1 XB op=ineighbor_allgatherv bytes=12 comm=1 size=3
1 2 XB op=ineighbor_alltoall bytes=8 comm=1 size=3
1 0 XB op=ineighbor_alltoallv bytes=12 comm=1 size=3
1 1 XB op=ineighbor_alltoallw bytes=6 comm=1 size=3
# completed: four at once, by wait, test, waitany, waitsome, twelve at once
1 0 WB req=1,2,3,4 op=waitall
1 0 XE req=2 op=ibcast bytes=20 root=1
1 2 XE req=4 op=iallreduce bytes=28
1 1 XE req=6 op=igatherv bytes=8 root=0
1 0 WB req=7 op=test
1 0 XE req=7 op=iscatter bytes=8 root=1
1 1 WB req=8,9 op=waitany
1 2 XE req=10 op=iallgatherv bytes=12
1 0 WB req=11,12,13,14,15,16,17,18,19,20,21,22 op=waitall
1 1 XE req=22 op=ineighbor_alltoallw bytes=6 comm=1
1 0 SE peer=1 tag=80 bytes=4
1 1 RE peer=0 tag=80 bytes=4
LIST

# Every XB req=R has one XE req=R of the same rank, later, with the same
# op=, bytes=, root= and comm=, inside a WB ... WE whose req= lists R.
is "$(grep -v '^#' "$tr" | sort -s -n -k2,2 | awk '
	function a(k,   i) { for (i = 4; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "-" }
	$3 == "XB" && a("req") != "-" { n++; b[$2 " " a("req")] = a("op") " " a("bytes") " " a("root") " " a("comm") }
	$3 == "WB" { split(a("req"), l, ","); delete w; for (i in l) w[l[i]] = 1; inw = 1 }
	$3 == "WE" { inw = 0 }
	$3 == "XE" && a("req") != "-" { k = $2 " " a("req")
		if (!(k in b)) print "XE without XB:", $0
		else if (b[k] != a("op") " " a("bytes") " " a("root") " " a("comm")) print "XE unlike its XB:", $0
		else if (!inw || !(a("req") in w)) print "XE outside its wait:", $0
		delete b[k]; m++ }
	END { for (k in b) print "XB without XE:", k; print n, m }')" "69 69" \
	"23 nonblocking collectives on 3 ranks: each XB req= has its XE req= in its wait"
is "$(awk '$3 == "XB" && / req=/ && / (peer|tag)=/' "$tr")" "" "no peer= or tag= on them"
is "$(awk '$2 == 0 && $3 == "WB" && / op=test/' "$tr" | sed -n 's/.* polls=\([0-9]*\).*/\1/p')" \
	"$(sed -n 's/^polls iscatter //p' "$tmp/prog.out")" "the unsuccessful tests folded into polls="

# The tools read it; trc-sum counts the nonblocking ones with their bytes.
expect_exit 0 "trc-sum reads it" -- trc-sum "$tr"
sumrow() { awk -v op="$1" '$1 == op { print $2, $3 }' "$out"; }
is "$(sumrow iallreduce)" "3 84" "trc-sum: iallreduce 3 calls of 28 bytes"
is "$(sumrow ibarrier)" "6 0" "trc-sum: two ibarriers on 3 ranks"
is "$(sumrow ireduce_scatter)" "3 24" "trc-sum: ireduce_scatter 4 + 8 + 12 bytes"
is "$(sumrow alltoallw)" "3 30" "trc-sum: alltoallw 3 calls of 10 bytes"
expect_exit 0 "trc-scale predicts it" -- trc-scale --cpu-ratio 0.5 "$tr"
is "$(grep -c ' XE ' "$out")" "$(grep -c ' XE ' "$tr")" "every collective end predicted"
expect_exit 0 "trc-stable: the trace against itself" -- trc-stable -q "$tr" "$tr"
expect_exit 0 "trc-perturb delays the nonblocking ones by name" -- \
	trc-perturb -v -d call=iallreduce,delay=0.1 "$tr"
is "$(sed -n 's/^trc-perturb: \([0-9]*\) delays.*/\1/p' "$err")" "3" "one delay per rank"
done_testing
