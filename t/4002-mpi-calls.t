#!/bin/sh
# libtrc-mpi: every wrapped C call with known peers, tags and sizes
# (t/mpi/calls.c, 3 ranks), wildcards resolved, regions, polls folded,
# communicator ids, and sends matching receives.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/calls.trc
trc-record -o "$tr" -- -np 3 "$MPIT/calls" >"$out" 2>"$err"
ok $? "trc-record runs calls on 3 ranks"
check_stream "$tr" 3

# Expected events, from the comments in t/mpi/calls.c.
check_events "$tr" <<'LIST'
1 0 MK mark=init
1 2 MK mark=finalize
1 1 PB fn=Outer
1 1 PB fn=Inner
1 1 PE fn=Inner
1 1 PE fn=Outer
# Send/Recv, Ssend, Rsend into an Irecv completed by Wait
1 0 SB peer=1 tag=10 bytes=100
1 0 SE peer=1 tag=10 bytes=100
1 1 RB peer=0 tag=10 bytes=100
1 1 RE peer=0 tag=10 bytes=100
1 1 SB peer=2 tag=11 bytes=64 op=ssend
1 2 RE peer=1 tag=11 bytes=64
1 0 SE peer=2 tag=12 bytes=3 op=rsend
1 2 RB peer=0 tag=12 bytes=3 req=1
1 2 WB req=1 op=wait
1 2 RE req=1 peer=0 tag=12 bytes=3
1 2 WE req=1 op=wait
# wildcards: posted as *, resolved to the sender, actual size
2 0 RB peer=* tag=* bytes=64
1 0 RE peer=1 tag=13 bytes=16
1 0 RE peer=2 tag=14 bytes=16
# Sendrecv as Isend + Irecv + wait
1 0 SB peer=1 tag=15 bytes=20 req=1
1 0 RB peer=2 tag=15 bytes=20 req=2
1 0 WB req=1,2 op=sendrecv
1 0 RE req=2 peer=2 tag=15 bytes=20
1 0 WE req=1,2 op=sendrecv
# Isend/Irecv/Waitall, any source on rank 1
1 0 SB peer=1 tag=16 bytes=32 req=3
1 0 WE req=3 op=waitall
1 1 RB peer=* tag=16 bytes=32 req=3
1 1 RB peer=2 tag=17 bytes=32 req=4
1 1 WB req=3,4 op=waitall
1 1 RE req=3 peer=0 tag=16 bytes=32
1 1 RE req=4 peer=2 tag=17 bytes=32
1 1 WE req=3,4 op=waitall
# Waitany: each completes one, in the order the messages came
1 1 WB req=5,6 op=waitany
1 1 RE req=5 peer=0 tag=18 bytes=16
1 1 RE req=6 peer=2 tag=19 bytes=16
2 1 WE op=waitany
# Waitsome
1 2 RB peer=0 tag=20 bytes=8 req=5
1 2 RE req=5 peer=0 tag=20 bytes=8
1 2 RE req=6 peer=1 tag=21 bytes=8
# Test, Testall, Testany, Testsome, Probe, Iprobe
1 0 RB peer=1 tag=22 bytes=24 req=4
1 0 WB req=4 op=test
1 0 RE req=4 peer=1 tag=22 bytes=24
1 0 WE req=4 op=test
1 0 WB req=5,6 op=testall
1 0 RE req=5 peer=2 tag=23 bytes=4
1 0 RE req=6 peer=1 tag=24 bytes=4
1 1 WB req=7 op=testany
1 1 RE req=7 peer=0 tag=27 bytes=12
1 2 WB req=7 op=testsome
1 2 RE req=7 peer=1 tag=28 bytes=12
1 1 WB peer=* tag=25 op=probe
1 1 WE peer=2 tag=25 bytes=12 op=probe
1 2 WB peer=0 tag=26 op=iprobe
1 2 WE peer=0 tag=26 bytes=7 op=iprobe
1 2 RE peer=0 tag=26 bytes=7
# collectives on every rank
5 0 XB op=barrier bytes=0
1 1 XB op=bcast bytes=40 root=1
1 2 XE op=reduce bytes=24 root=2
1 0 XB op=allreduce bytes=16
1 1 XB op=gather bytes=8 root=0
1 0 XB op=gatherv bytes=4 root=0
1 1 XB op=gatherv bytes=8 root=0
1 2 XB op=gatherv bytes=12 root=0
1 0 XB op=scatter bytes=12 root=1
1 2 XB op=scatterv bytes=12 root=2
1 1 XB op=allgather bytes=4
1 2 XB op=allgatherv bytes=12
1 2 XB op=alltoall bytes=8
1 0 XB op=alltoallv bytes=4
1 1 XE op=alltoallv bytes=8
# a split communicator: peers are world ranks, comm= is not 0
1 2 SB peer=0 tag=29 bytes=4 comm=1
1 0 RB peer=* tag=29 bytes=4 comm=1
1 0 RE peer=2 tag=29 bytes=4 comm=1
LIST

# Every sent message is received: SE counts by (from, to, tag) equal RE
# counts by (from, to, tag).
is "$(awk '!/^#/ && ($3 == "SE" || $3 == "RE") {
		for (i = 4; i <= NF; i++) { split($i, kv, "="); a[kv[1]] = kv[2] }
		if ($3 == "SE") n[$2 " " a["peer"] " " a["tag"]]++
		else n[a["peer"] " " $2 " " a["tag"]]--
	} END { for (k in n) if (n[k] != 0) print k, n[k] }' "$tr")" "" "every SE has its RE"
is "$(awk '!/^#/ && ($3 == "SE" || $3 == "RE")' "$tr" | wc -l | tr -d ' ')" "44" "22 messages (tags 10 to 29, tag 15 three times)"
# Balanced begins and ends per rank.
is "$(awk '!/^#/ { k = substr($3, 1, 1); e = substr($3, 2) }
	!/^#/ && k != "M" && !($3 == "RB" && / req=/) { d[$2 k] += (e == "B") ? 1 : -1 }
	!/^#/ && $3 == "RE" && / req=/ { d[$2 "R"]++ }
	END { for (x in d) if (d[x]) print x, d[x] }' "$tr")" "" "begins and ends balance"

# Unsuccessful polls are folded, as counted by the program.
p() { sed -n "s/.*polls.* $1 \([0-9]*\).*/\1/p" "$out"; }
is "$(awk '!/^#/ && $2 == 0 && / op=test / && $3 == "WB"' "$tr" | sed -n 's/.*polls=\([0-9]*\).*/\1/p')" "$(p test)" "MPI_Test polls folded"
is "$(awk '!/^#/ && $2 == 0 && / op=testall/ && $3 == "WB"' "$tr" | sed -n 's/.*polls=\([0-9]*\).*/\1/p')" "$(p testall)" "MPI_Testall polls folded"
is "$(awk '!/^#/ && $2 == 1 && / op=testany/ && $3 == "WB"' "$tr" | sed -n 's/.*polls=\([0-9]*\).*/\1/p')" "$(p testany)" "MPI_Testany polls folded"
is "$(awk '!/^#/ && $2 == 2 && / op=iprobe/ && $3 == "WB"' "$tr" | sed -n 's/.*polls=\([0-9]*\).*/\1/p')" "$(p iprobe)" "MPI_Iprobe polls folded"
ok "$([ "$(p test)" -gt 0 ]; echo $?)" "the program did poll"
is "$(grep -c polls= "$tr")" "5" "polls= only on the events after polls"
ok "$([ ! -e "$tr.tmp" ] && ! ls -d "$tr".ranks.* >/dev/null 2>&1; echo $?)" "no rank files left"
done_testing
