#!/bin/sh
# trc-scale: a blocking receive begun after its sender began its next
# message to the rank (a send to it, or a collective) takes that one
# too, as MPI's progress does (Open MPI over TCP: make bench-behind):
# the model's warm receive of the next message moves from the call
# that receives it to this one.  Expected times computed by hand from
# the fit below: send 2 us, a lone message's transfer (recv) 3 us,
# recv-late 2 us, allreduce 10 us; --cpu-ratio 1, and no computation
# of 20 us or more before a call (warm).
. "$(dirname "$0")/lib.sh"

printf 'send 0 inf 2e-6 0\nrecv 0 inf 3e-6 0\nrecv-late 0 inf 2e-6 0\nallreduce 0 inf 10e-6 0\n' >"$tmp/h.fit"
# Each rank's calls in its order (ties between ranks print either way).
us() { awk '!/^#/ && $3 != "MK" { printf "%s %s %.1f\n", $2, $3, $1 * 1e6 }' "$out" | sort -s -k1,1n | tr '\n' ' '; }

# coll XB0: rank 0 sends A (0-2 us) and enters an allreduce at XB0;
# rank 1 computes, receives A at 10-11 us and enters it at 12.
coll() {
	echo "#trc 1 ranks=2"
	sort -s -g -k1,1 <<X
0.000000000 0 MK
0.000000000 1 MK
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000002000 0 SE peer=1 tag=1 bytes=8
$1 0 XB op=allreduce bytes=4
0.000030000 0 XE op=allreduce bytes=4
0.000010000 1 RB peer=0 tag=1 bytes=8
0.000011000 1 RE peer=0 tag=1 bytes=8
0.000012000 1 XB op=allreduce bytes=4
0.000030000 1 XE op=allreduce bytes=4
X
}

# 1. Rank 0: SE 2, XB at 5.  Rank 1: its receive begins at 10, after
# rank 0's XB, so it takes the allreduce's message too: 10 + 2 + 2 =
# 14 (A arrived at 0 + 3); XB at 15; the allreduce ends at 15 + 10 =
# 25 for rank 0 and 2 us earlier for rank 1, 23.
coll 0.000005000 >"$tmp/c.trc"
expect_exit 0 "a receive after the sender's collective" -- trc-scale -v --cpu-ratio 1 -c "$tmp/h.fit" "$tmp/c.trc"
is "$(us)" "0 SB 0.0 0 SE 2.0 0 XB 5.0 0 XE 25.0 1 RB 10.0 1 RE 14.0 1 XB 15.0 1 XE 23.0 " \
    "  the receive takes the allreduce's message, the allreduce is the shorter"
is "$(grep 'took' "$err")" "trc-scale: 0 receives of an eager exchange, 0 of them the later sender's after its send, 1 that took their sender's next message too, 0 held to see it" \
    "  -v: counted"

# 2. Rank 0 enters the allreduce at 12.5, after rank 1's receive (12):
# the receive is its own, 10 + 2; XB 13; both end at 13 + 10 = 23.
# When the receive's end is read (11), rank 0 has computed since 2, 9
# us recorded: its next call no earlier than 11, after the receive's
# begin, so the receive need not wait to see it.
coll 0.000012500 >"$tmp/c2.trc"
expect_exit 0 "the sender's collective after the receive" -- trc-scale -v --cpu-ratio 1 -c "$tmp/h.fit" "$tmp/c2.trc"
is "$(us)" "0 SB 0.0 0 SE 2.0 0 XB 12.5 0 XE 23.0 1 RB 10.0 1 RE 12.0 1 XB 13.0 1 XE 23.0 " \
    "  each call its own"
is "$(grep 'took' "$err")" "trc-scale: 0 receives of an eager exchange, 0 of them the later sender's after its send, 0 that took their sender's next message too, 0 held to see it" \
    "  -v: none taken, none held"

# 3. Recorded before the receive (XB at 9.5) but predicted after it: a
# send of 6 us puts rank 0's SE at 6 and its XB at 6 + 7.5 = 13.5,
# after rank 1's receive began (10): its own, 12; rank 1's XB 13; both
# end at 13.5 + 10 = 23.5.
sed 's/^send .*/send 0 inf 6e-6 0/' "$tmp/h.fit" >"$tmp/slow.fit"
coll 0.000009500 >"$tmp/c3.trc"
expect_exit 0 "predicted after the receive" -- trc-scale --cpu-ratio 1 -c "$tmp/slow.fit" "$tmp/c3.trc"
is "$(us)" "0 SB 0.0 0 SE 6.0 0 XB 13.5 0 XE 23.5 1 RB 10.0 1 RE 12.0 1 XB 13.0 1 XE 23.5 " \
    "  the predicted order decides, not the recorded"

# 3b. Recorded after the receive (XB at 12.5, read after rank 1's RE)
# but predicted before it: rank 0 computes at twice the speed (a ratio
# table per rank), its XB at 2 + 10.5 / 2 = 7.25, before rank 1's
# receive begins (10).  The receive waits to see it, and takes it: 10
# + 2 + 2 = 14, XB 15, rank 0 ends at 15 + 10 = 25, rank 1 at 23.
printf 'mode time\n.* 0 0.5\n.* 1 1\n' >"$tmp/half0.tbl"
{
	echo "#trc 1 ranks=2"
	coll 0.000012500 | grep -v '^#' | sort -s -g -k1,1
} >"$tmp/c4.trc"
expect_exit 0 "read after the receive, predicted before it" -- trc-scale -v --cpu "$tmp/half0.tbl" -c "$tmp/h.fit" "$tmp/c4.trc"
is "$(us)" "0 SB 0.0 0 SE 2.0 0 XB 7.2 0 XE 25.0 1 RB 10.0 1 RE 14.0 1 XB 15.0 1 XE 23.0 " \
    "  the receive takes the allreduce's message read after it"
is "$(grep 'took' "$err")" "trc-scale: 0 receives of an eager exchange, 0 of them the later sender's after its send, 1 that took their sender's next message too, 1 held to see it" \
    "  -v: held, then taken"

# 3c. The sender waits before its next event can pass the receive's
# begin: rank 0 computes at twice the speed, then receives from rank 1
# (RB at 12, predicted 2 + 10 / 2 = 7) what rank 1 sends after its
# receive (SB 11.5).  Rank 1's receive, held to see rank 0's next call,
# goes on when rank 0's receive waits for rank 1's held send: its own,
# 10 + 2; SB 12.5, SE 14.5; rank 0's receive ends when the message
# arrives, 12.5 + 3 = 15.5.
cat >"$tmp/w.trc" <<X
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000002000 0 SE peer=1 tag=1 bytes=8
0.000010000 1 RB peer=0 tag=1 bytes=8
0.000011000 1 RE peer=0 tag=1 bytes=8
0.000011500 1 SB peer=0 tag=2 bytes=8
0.000012000 0 RB peer=1 tag=2 bytes=8
0.000012500 1 SE peer=0 tag=2 bytes=8
0.000020000 0 RE peer=1 tag=2 bytes=8
X
expect_exit 0 "the sender waits on the receiver" -- trc-scale -v --cpu "$tmp/half0.tbl" -c "$tmp/h.fit" "$tmp/w.trc"
is "$(us)" "0 SB 0.0 0 SE 2.0 0 RB 7.0 0 RE 15.5 1 RB 10.0 1 RE 12.0 1 SB 12.5 1 SE 14.5 " \
    "  no deadlock: the held receive goes on when its sender waits"
is "$(grep 'took' "$err")" "trc-scale: 0 receives of an eager exchange, 0 of them the later sender's after its send, 0 that took their sender's next message too, 1 held to see it" \
    "  -v: held, none taken"

# 4. A send next: rank 0 sends A (tag 1, 0-2 us) and B (tag 2, 5-7);
# rank 1 receives A at 10-11 and B at 11-11.5.  A's receive takes B:
# 10 + 2 + 2 = 14; B's begins at 14 and owes its 2 us back: 14 + 2 - 2
# = 14 (B arrived at 5 + 3 = 8).  Without the rule: 12 and 14.
cat >"$tmp/p.trc" <<X
#trc 1 ranks=2
0.000000000 0 MK
0.000000000 1 MK
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000002000 0 SE peer=1 tag=1 bytes=8
0.000005000 0 SB peer=1 tag=2 bytes=8
0.000007000 0 SE peer=1 tag=2 bytes=8
0.000010000 1 RB peer=0 tag=1 bytes=8
0.000011000 1 RE peer=0 tag=1 bytes=8
0.000011000 1 RB peer=0 tag=2 bytes=8
0.000011500 1 RE peer=0 tag=2 bytes=8
X
expect_exit 0 "a send next" -- trc-scale --cpu-ratio 1 -c "$tmp/h.fit" "$tmp/p.trc"
is "$(us)" "0 SB 0.0 0 SE 2.0 0 SB 5.0 0 SE 7.0 1 RB 10.0 1 RE 14.0 1 RB 14.0 1 RE 14.0 " \
    "  the first receive takes the second's message, which costs nothing more"

# 5. The same messages received the other way round (B first, by its
# tag): B's receive takes nothing (no message after it), and A's
# finds its sender's last send received already: 10 + 2, 12 + 2.
sed 's/1 RB peer=0 tag=1/1 RB peer=0 tag=9/; s/1 RE peer=0 tag=1/1 RE peer=0 tag=9/' "$tmp/p.trc" |
    sed 's/1 R\(.\) peer=0 tag=2/1 R\1 peer=0 tag=1/; s/tag=9/tag=2/' >"$tmp/p2.trc"
expect_exit 0 "the next message received first" -- trc-scale --cpu-ratio 1 -c "$tmp/h.fit" "$tmp/p2.trc"
is "$(us)" "0 SB 0.0 0 SE 2.0 0 SB 5.0 0 SE 7.0 1 RB 10.0 1 RE 12.0 1 RB 12.0 1 RE 14.0 " \
    "  a message received already is not taken again"

# 6. The recorded model (trc-perturb's replay) keeps every call as
# recorded: no receive of its own to move.
expect_exit 0 "the recorded model" -- trc-scale "$tmp/c.trc"
is "$(us)" "0 SB 0.0 0 SE 2.0 0 XB 5.0 0 XE 30.0 1 RB 10.0 1 RE 11.0 1 XB 12.0 1 XE 30.0 " \
    "  as recorded"

done_testing
