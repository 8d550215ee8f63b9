#!/bin/sh
# libtrc-mpi: every way of making a communicator (t/mpi/comms.c, 4
# ranks) gives it a comm= id that its members agree on and no other
# communicator has, with size= its members; point to point on them
# names world ranks; MPI_COMM_SELF on 2 ranks (t/mpi/self.c) reads.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/self.trc
trc-record -o "$tr" -- -np 2 "$MPIT/self" >"$out" 2>"$err"
ok $? "trc-record runs MPI_Barrier(MPI_COMM_SELF) on 2 ranks"
check_stream "$tr" 2
# (B - 1) * N + L + 1 with B = 1 (each rank's first), N = 2, L its rank.
check_events "$tr" <<'LIST'
1 0 XB op=barrier bytes=0 comm=1 size=1
1 0 XE op=barrier bytes=0 comm=1
1 1 XB op=barrier bytes=0 comm=2 size=1
1 1 XE op=barrier bytes=0 comm=2
LIST
expect_exit 0 "trc-sum reads it" -- trc-sum "$tr"
is "$(awk '$1 == "barrier" { print $2 }' "$out")" "2" "two barriers summed"
expect_exit 0 "trc-scale predicts it" -- trc-scale --cpu-ratio 0.5 "$tr"
expect_exit 0 "trc-stable reads it" -- trc-stable -q "$tr" "$tr"

tr=$tmp/comms.trc
trc-record -o "$tr" -- -np 4 "$MPIT/comms" >"$out" 2>"$err"
ok $? "trc-record runs comms on 4 ranks"
check_stream "$tr" 4
is "$(grep -c ' comm=-' "$tr")" "0" "no comm= is negative"

# comm= of rank R's allreduce of K ints, or of an event of KIND with tag T.
cid() {
	awk -v r="$1" -v b="bytes=$(($2 * 4))" '$2 == r && $3 == "XB" &&
		$4 == "op=allreduce" && $5 == b { sub(/.* comm=/, ""); sub(/ .*/, ""); print }' "$tr"
}
tcid() {
	awk -v r="$1" -v k="$2" -v t="tag=$3" '$2 == r && $3 == k && index($0, " " t " ") {
		sub(/.* comm=/, ""); sub(/ .*/, ""); print }' "$tr"
}

# The members of each communicator of the K-th allreduce, grouped by
# comm=, groups in the order of their least rank; and their size=.
groups() {
	awk -v b="bytes=$(($1 * 4))" '$3 == "XB" && $4 == "op=allreduce" && $5 == b {
			c = $0; sub(/.* comm=/, "", c); sub(/ .*/, "", c)
			if (!(c in m)) { order[++n] = c; m[c] = $2 } else m[c] = m[c] "," $2
		}
		END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), m[order[i]]; print "" }' "$tr.byrank"
}
sizes() {
	awk -v b="bytes=$(($1 * 4))" '$3 == "XB" && $4 == "op=allreduce" && $5 == b {
		s = $0; sub(/.* size=/, "", s); printf "%s%s", (n++ ? " " : ""), s } END { print "" }' "$tr.byrank"
}
grep -v '^#' "$tr" | sort -s -n -k2,2 >"$tr.byrank"
# K, what made it, its groups (from the comment of t/mpi/comms.c), its
# members' size= in rank order.
while read -r k what want wsize; do
	is "$(groups "$k")" "$(echo "$want" | tr '|' ' ')" "$what: members agree on one id per group"
	is "$(sizes "$k")" "$(echo "$wsize" | tr '|' ' ')" "$what: size= its members"
done <<'LIST'
1 MPI_COMM_SELF 0|1|2|3 1|1|1|1
2 MPI_Comm_dup 0,1,2,3 4|4|4|4
3 MPI_Comm_split 0,1|2,3 2|2|2|2
4 MPI_Comm_split_type 0,1,2,3 4|4|4|4
5 MPI_Comm_create 1,2,3 3|3|3
6 MPI_Comm_create_group 0,3 2|2
7 MPI_Cart_create 0,1,2,3 4|4|4|4
8 MPI_Cart_sub(rows) 0,1|2,3 2|2|2|2
9 MPI_Cart_sub(columns) 0,2|1,3 2|2|2|2
10 MPI_Graph_create 0,1,2 3|3|3
11 MPI_Dist_graph_create_adjacent 0,1,2,3 4|4|4|4
12 MPI_Dist_graph_create 0,1,2,3 4|4|4|4
13 MPI_Intercomm_create 0,1,2,3 4|4|4|4
14 MPI_Intercomm_merge 0,1,2,3 4|4|4|4
15 MPI_Comm_idup(world) 0,1,2,3 4|4|4|4
16 MPI_Comm_idup(split) 0,1|2,3 2|2|2|2
17 PMPI_Comm_split(unseen) 0,2|1,3 2|2|2|2
LIST
is "$(awk '$3 == "XB" && $4 == "op=allreduce" && $5 == "bytes=68" { c = $0; sub(/.* comm=/, "", c); sub(/ .*/, "", c); print (c >= 1073741824) }' "$tr" | sort -u)" \
	"1" "a communicator made unseen: a hash of its members, at or above 2^30"
# No id is shared by two communicators: 25 groups above, 25 ids.
is "$(awk '$3 == "XB" && $4 == "op=allreduce" { c = $0; sub(/.* comm=/, "", c); sub(/ .*/, "", c)
	g[$5 " " c] = 1; id[c] = 1 } END { for (k in g) n++; for (k in id) m++; print n, m }' "$tr")" "25 25" \
	"25 communicators, 25 ids"
is "$(awk '/ comm=/ { c = $0; sub(/.* comm=/, "", c); sub(/ .*/, "", c); if (c !~ /^[1-9][0-9]*$/) print }' "$tr")" "" \
	"every comm= a positive id"

# Point to point names world ranks, with the id of its communicator.
for r in 0 1 2 3; do
	case $r in 0) p50=1 p51=3 ;; 1) p50=0 p51=2 ;; 2) p50=3 p51=1 ;; 3) p50=2 p51=0 ;; esac
	k=SB; [ $((r % 2)) -eq 1 ] && k=RE
	is "$(count "$tr" $r $k "peer=$p50 tag=50 bytes=4 comm=$(cid $r 8)")" "1" "rank $r: $k on a Cart_sub row, peer=$p50"
	is "$(count "$tr" $r $k "peer=$p51 tag=51 bytes=4 comm=$(cid $r 13)")" "1" "rank $r: $k across the intercommunicator, peer=$p51"
	is "$(count "$tr" $r RE "peer=$r tag=52 bytes=4 comm=$(cid $r 1) op=sendrecv")" "1" "rank $r: a sendrecv with itself on MPI_COMM_SELF"
	is "$(count "$tr" $r XB "op=barrier bytes=0 comm=$(cid $r 1) size=1")" "1" "rank $r: MPI_Barrier(MPI_COMM_SELF) has SELF's id"
done
is "$(tcid 0 RB 51)" "" "the intercommunicator's any-source receive (not on rank 0)"
is "$(count "$tr" 1 RB "peer=* tag=51 bytes=4 comm=$(cid 1 13)")" "1" "rank 1 posts peer=* on the intercommunicator"

expect_exit 0 "trc-sum reads it" -- trc-sum "$tr"
expect_exit 0 "trc-scale predicts it" -- trc-scale --cpu-ratio 0.5 "$tr"
is "$(grep -c ' XE ' "$out")" "$(grep -c ' XE ' "$tr")" "every collective end predicted"
expect_exit 0 "trc-stable: the trace against itself" -- trc-stable -q "$tr" "$tr"
done_testing
