#!/bin/sh
# trc-bench --conceptual on hand-made streams: the whole coNCePTuaL
# program, worked out by hand from the language's reference (Pakin,
# the coNCePTuaL user's guide, "Grammar": task descriptions, SENDS ...
# TO UNSUSPECTING, RECEIVES ... FROM, ASYNCHRONOUSLY, AWAITS
# COMPLETION, REDUCES, COMPUTES FOR ... MICROSECONDS, FOR ...
# REPETITIONS { ... THEN ... }, statements ending with '.'), and the
# mapping of trc-bench(1); a wildcard takes the source and size of
# what it received; a collective of some ranks; what cannot be
# expressed is an error.  The
# toolchain is not needed: the text is compared.
. "$(dirname "$0")/lib.sh"

# Four ranks in pairs (0, 1) and (2, 3), times in microseconds; every
# rank marks init at 0.
# A ping-pong, three iterations i (b = 100 i): the even rank computes
# 40 (from the init or its last receive's end at b), sends 64 bytes,
# tag 7, to its odd partner from b+40 to b+41 and receives them back
# from b+41 to b+100; the odd rank receives from b to b+41 (no
# computation: at the init, or at its last send's end), computes 30,
# and sends from b+71 to b+100.
# An allreduce of 16 bytes, every rank computing 50 before (300 to
# 350), until 360.
# An exchange with the partner: Irecv and Isend of 1024 bytes, tag 9,
# at 360 (the Isend returns at 361), 10 of computation, a Waitall of
# both from 371 to 380, 20 of computation and the finalize marker at
# 400.
awk 'function ev(t, r, s) { printf "%.9f %d %s\n", t / 1e6, r, s }
BEGIN {
	print "#trc 1 ranks=4"
	for (r = 0; r < 4; r++) {
		p = r % 2 ? r - 1 : r + 1
		m = "peer=" p " tag=7 bytes=64"
		x = "peer=" p " tag=9 bytes=1024"
		ev(0, r, "MK mark=init")
		for (i = 0; i < 3; i++) {
			b = 100 * i
			if (r % 2 == 0) {
				ev(b + 40, r, "SB " m)
				ev(b + 41, r, "SE " m)
				ev(b + 41, r, "RB " m)
				ev(b + 100, r, "RE " m)
			} else {
				ev(b, r, "RB " m)
				ev(b + 41, r, "RE " m)
				ev(b + 71, r, "SB " m)
				ev(b + 100, r, "SE " m)
			}
		}
		ev(350, r, "XB op=allreduce bytes=16")
		ev(360, r, "XE op=allreduce bytes=16")
		ev(360, r, "RB " x " req=1")
		ev(360, r, "SB " x " req=2")
		ev(361, r, "SE " x " req=2")
		ev(371, r, "WB req=1,2 op=waitall")
		ev(380, r, "RE " x " req=1")
		ev(380, r, "WE req=1,2 op=waitall")
		ev(400, r, "MK mark=finalize")
	}
}' | sort -s -n -k1,1 >"$tmp/pairs.trc"

# Ranks 0 and 2 run one program, the peer their rank + 1, and 1 and 3
# another, their rank - 1: two groups.  The collective is one
# statement of all tasks; each group's calls before it, the loops of
# its ping-pong, are written group after group, and so are those
# after it.  16 bytes are 2 doublewords; each computation is the same
# on both ranks of a group, one statement for both.
cat >"$tmp/pairs.ncptl" <<EOT
# A coNCePTuaL benchmark made by trc-bench from $tmp/pairs.trc:
# the MPI calls of the traced run, rank by rank, and its computation;
# every receive from the source it took in the trace.
REQUIRE LANGUAGE VERSION "1.5".

ASSERT THAT "the benchmark runs on 4 tasks" WITH num_tasks = 4.
FOR 3 REPETITIONS {
	TASKS {0, 2} COMPUTE FOR 40 MICROSECONDS THEN
	TASKS t SUCH THAT t IS IN {0, 2} SEND A 64 BYTE MESSAGE USING TAG 7 TO UNSUSPECTING TASK t+1 THEN
	TASKS t SUCH THAT t IS IN {0, 2} RECEIVE A 64 BYTE MESSAGE USING TAG 7 FROM TASK t+1
}
FOR 3 REPETITIONS {
	TASKS t SUCH THAT t IS IN {1, 3} RECEIVE A 64 BYTE MESSAGE USING TAG 7 FROM TASK t-1 THEN
	TASKS {1, 3} COMPUTE FOR 30 MICROSECONDS THEN
	TASKS t SUCH THAT t IS IN {1, 3} SEND A 64 BYTE MESSAGE USING TAG 7 TO UNSUSPECTING TASK t-1
}
TASKS {0, 2} COMPUTE FOR 50 MICROSECONDS.
TASKS {1, 3} COMPUTE FOR 50 MICROSECONDS.
ALL TASKS REDUCE 2 DOUBLEWORDS.
TASKS t SUCH THAT t IS IN {0, 2} ASYNCHRONOUSLY RECEIVE A 1024 BYTE MESSAGE USING TAG 9 FROM TASK t+1.
TASKS t SUCH THAT t IS IN {0, 2} ASYNCHRONOUSLY SEND A 1024 BYTE MESSAGE USING TAG 9 TO UNSUSPECTING TASK t+1.
TASKS {0, 2} COMPUTE FOR 10 MICROSECONDS.
TASKS {0, 2} AWAIT COMPLETION.
TASKS {0, 2} COMPUTE FOR 20 MICROSECONDS.
TASKS t SUCH THAT t IS IN {1, 3} ASYNCHRONOUSLY RECEIVE A 1024 BYTE MESSAGE USING TAG 9 FROM TASK t-1.
TASKS t SUCH THAT t IS IN {1, 3} ASYNCHRONOUSLY SEND A 1024 BYTE MESSAGE USING TAG 9 TO UNSUSPECTING TASK t-1.
TASKS {1, 3} COMPUTE FOR 10 MICROSECONDS.
TASKS {1, 3} AWAIT COMPLETION.
TASKS {1, 3} COMPUTE FOR 20 MICROSECONDS.
EOT
expect_exit 0 "--conceptual: the pairs' program" -- trc-bench --conceptual "$tmp/pairs.trc"
is_file "$out" "$tmp/pairs.ncptl" "the ping-pong loops, the allreduce, the exchange"

# Two ranks: rank 0 sends 8 bytes, tag 3, at 20; rank 1 receives from
# any source with any tag into 100 bytes from 0 to 30 (after its init
# at 0, no computation), then both make a barrier at 50 (rank 0
# computing 30 after its send's end at 20, rank 1 20) and a broadcast
# of 12 bytes from rank 1 at 50 (none).  The receive names the
# source, tag and size it took, one task acts alone (TASK 1 RECEIVES),
# the root multicasts to the other tasks.
awk 'function ev(t, r, s) { printf "%.9f %d %s\n", t / 1e6, r, s }
BEGIN {
	print "#trc 1 ranks=2"
	ev(0, 0, "MK mark=init")
	ev(0, 1, "MK mark=init")
	ev(0, 1, "RB peer=* tag=* bytes=100")
	ev(20, 0, "SB peer=1 tag=3 bytes=8")
	ev(20, 0, "SE peer=1 tag=3 bytes=8")
	ev(30, 1, "RE peer=0 tag=3 bytes=8")
	ev(50, 0, "XB op=barrier bytes=0")
	ev(50, 1, "XB op=barrier bytes=0")
	ev(50, 0, "XE op=barrier bytes=0")
	ev(50, 1, "XE op=barrier bytes=0")
	ev(50, 0, "XB op=bcast bytes=12 root=1")
	ev(50, 1, "XB op=bcast bytes=12 root=1")
	ev(60, 0, "XE op=bcast bytes=12 root=1")
	ev(60, 1, "XE op=bcast bytes=12 root=1")
}' >"$tmp/any.trc"
cat >"$tmp/any.ncptl" <<EOT
# A coNCePTuaL benchmark made by trc-bench from $tmp/any.trc:
# the MPI calls of the traced run, rank by rank, and its computation;
# every receive from the source it took in the trace.
REQUIRE LANGUAGE VERSION "1.5".

ASSERT THAT "the benchmark runs on 2 tasks" WITH num_tasks = 2.
TASK 0 COMPUTES FOR 20 MICROSECONDS.
TASK 0 SENDS A 8 BYTE MESSAGE USING TAG 3 TO UNSUSPECTING TASK 1.
TASK 1 RECEIVES A 8 BYTE MESSAGE USING TAG 3 FROM TASK 0.
TASK 0 COMPUTES FOR 30 MICROSECONDS.
TASK 1 COMPUTES FOR 20 MICROSECONDS.
ALL TASKS SYNCHRONIZE.
TASK 1 MULTICASTS A 12 BYTE MESSAGE TO ALL OTHER TASKS.
EOT
expect_exit 0 "--conceptual: a wildcard receive" -- trc-bench --conceptual "$tmp/any.trc"
is_file "$out" "$tmp/any.ncptl" "the source, tag and size it took; a barrier; a broadcast"

# A collective of some ranks: ranks 0 and 2 (one program) broadcast 4
# bytes from rank 0 on communicator 5 at 10, until 20, and mark the
# finalize at 40; rank 1 opens and closes a region at 30 (a region is
# no statement, its computation is).  The statement names the
# communicator's members, and only they need to reach it.
awk 'function ev(t, r, s) { printf "%.9f %d %s\n", t / 1e6, r, s }
BEGIN {
	print "#trc 1 ranks=3"
	for (r = 0; r < 3; r++)
		ev(0, r, "MK mark=init")
	for (r = 0; r < 3; r += 2)
		ev(10, r, "XB op=bcast bytes=4 root=0 comm=5")
	for (r = 0; r < 3; r += 2)
		ev(20, r, "XE op=bcast bytes=4 root=0 comm=5")
	ev(30, 1, "PB fn=idle")
	ev(30, 1, "PE fn=idle")
	ev(40, 0, "MK mark=finalize")
	ev(40, 2, "MK mark=finalize")
}' >"$tmp/sub.trc"
cat >"$tmp/sub.ncptl" <<EOT
# A coNCePTuaL benchmark made by trc-bench from $tmp/sub.trc:
# the MPI calls of the traced run, rank by rank, and its computation;
# every receive from the source it took in the trace.
REQUIRE LANGUAGE VERSION "1.5".

ASSERT THAT "the benchmark runs on 3 tasks" WITH num_tasks = 3.
TASK 1 COMPUTES FOR 30 MICROSECONDS.
TASKS {0, 2} COMPUTE FOR 10 MICROSECONDS.
TASK 0 MULTICASTS A 4 BYTE MESSAGE TO TASK 2.
TASKS {0, 2} COMPUTE FOR 20 MICROSECONDS.
EOT
expect_exit 0 "--conceptual: a collective of some ranks" -- trc-bench --conceptual "$tmp/sub.trc"
is_file "$out" "$tmp/sub.ncptl" "the broadcast to the other member"

# What cannot be expressed: rank 0 makes a barrier, then an
# allreduce; rank 1 the allreduce first (one statement cannot be
# before and after the other), and a neighbour collective.
printf '#trc 1 ranks=2\n0.000010000 0 XB op=barrier bytes=0\n0.000011000 0 XE op=barrier bytes=0\n0.000020000 0 XB op=allreduce bytes=8\n0.000021000 0 XE op=allreduce bytes=8\n0.000010000 1 XB op=allreduce bytes=8\n0.000011000 1 XE op=allreduce bytes=8\n0.000020000 1 XB op=barrier bytes=0\n0.000021000 1 XE op=barrier bytes=0\n' |
	sort -s -n -k1,1 >"$tmp/order.trc"
expect_exit 2 "--conceptual: collectives in different orders refused" -- trc-bench --conceptual "$tmp/order.trc"
is "$(cat "$err")" "trc-bench: $tmp/order.trc: cannot express in coNCePTuaL: the collectives of rank 0 and others come in different orders or loops" \
	"saying why"
printf '#trc 1 ranks=2\n0.000001000 0 XB op=neighbor_alltoall bytes=4 comm=2\n0.000001000 1 XB op=neighbor_alltoall bytes=4 comm=2\n' >"$tmp/nb.trc"
expect_exit 2 "--conceptual: a neighbour collective refused" -- trc-bench --conceptual "$tmp/nb.trc"
is "$(cat "$err")" "trc-bench: $tmp/nb.trc: cannot express op=neighbor_alltoall in coNCePTuaL" \
	"saying why"
done_testing
