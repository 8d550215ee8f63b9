#!/bin/sh
# trc-scale: an eager exchange (MPI_Irecv, MPI_Send, MPI_Wait on two
# ranks at once, the target sending both eagerly), whose receives
# complete at the later send's begin plus the target's exchange-wait
# (trc-pingpong(1)), not at each send's begin plus a lone message's
# transfer.  Expected times computed by hand from the fit below:
# send 2 us, recv (a lone message's transfer) 15 us, recv-late 2 us,
# exchange-wait 9 us, no send-sync (every size eager); --cpu-ratio 1,
# and no computation of 20 us or more before a call (warm).
. "$(dirname "$0")/lib.sh"

printf 'send 0 inf 2e-6 0\nrecv 0 inf 15e-6 0\nrecv-late 0 inf 2e-6 0\nexchange-wait 0 inf 9e-6 0\n' >"$tmp/x.fit"
grep -v exchange-wait "$tmp/x.fit" >"$tmp/lone.fit"

# swap SB1 WB0 [LATE]: rank 0 posts its receive at 9 us and sends at
# 10-20 us of the recording, rank 1 posts at 9.5 and sends at SB1-20;
# rank 0's wait begins at WB0 us (its receive 1 us later), rank 1's at
# 21.  LATE: rank 0 posts its receive after its send instead.  The
# lines in time order.
swap() {
	rb0=0.000009000
	[ -z "${3:-}" ] || rb0=0.000020500
	echo "#trc 1 ranks=2"
	sort -s -g -k1,1 <<X
0.000000000 0 MK
0.000000000 1 MK
$rb0 0 RB peer=1 tag=1 bytes=8192 req=1
0.000010000 0 SB peer=1 tag=1 bytes=8192
0.000020000 0 SE peer=1 tag=1 bytes=8192
0.0000095 1 RB peer=0 tag=1 bytes=8192 req=1
$(awk -v t="$1" 'BEGIN { printf "%.9f", t / 1e6 }') 1 SB peer=0 tag=1 bytes=8192
0.000020000 1 SE peer=0 tag=1 bytes=8192
0.000021000 1 WB req=1 op=wait
0.000022000 1 RE req=1 peer=0 tag=1 bytes=8192
0.000022000 1 WE req=1 op=wait
$(awk -v t="$2" 'BEGIN { printf "%.9f", t / 1e6 }') 0 WB req=1 op=wait
$(awk -v t="$2" 'BEGIN { printf "%.9f", (t + 1) / 1e6 }') 0 RE req=1 peer=1 tag=1 bytes=8192
$(awk -v t="$2" 'BEGIN { printf "%.9f", (t + 1) / 1e6 }') 0 WE req=1 op=wait
X
}
xus() { awk '!/^#/ && ($3 == "SE" || $3 == "RE") { printf "%s %s %.1f\n", $2, $3, $1 * 1e6 }' "$out" | sort | tr '\n' ' '; }

# 1. Sends at once: rank 0's 10-12 us, rank 1's 11-13 (2 us each, from
# the recorded begins, the intervals before them as recorded).  Each
# took the other's message in its progress: both receives complete at
# max(10, 11) + 9 = 20, after their waits began (rank 0's 1 us after
# its send's end, 13; rank 1's, 14).
swap 11 21 >"$tmp/x.trc"
expect_exit 0 "an eager exchange" -- trc-scale -v -c "$tmp/x.fit" "$tmp/x.trc"
is "$(xus)" "0 RE 20.0 0 SE 12.0 1 RE 20.0 1 SE 13.0 " \
    "both receives at the later begin + exchange-wait"
is "$(grep 'eager exchange' "$err")" "trc-scale: 2 receives of an eager exchange, 0 of them the later sender's after its send, 0 that took their sender's next message too, 0 held to see it" "  -v: counted"
# The same without the exchange-wait row: each message alone, arriving
# at its send's begin + 15 us: rank 0's receive at max(13 + 2, 11 + 15)
# = 26, rank 1's at max(14 + 2, 10 + 15) = 25.
expect_exit 0 "no exchange-wait row" -- trc-scale -v -c "$tmp/lone.fit" "$tmp/x.trc"
is "$(xus)" "0 RE 26.0 0 SE 12.0 1 RE 25.0 1 SE 13.0 " "  each message alone"
is "$(grep 'eager exchange' "$err")" "trc-scale: 0 receives of an eager exchange, 0 of them the later sender's after its send, 0 that took their sender's next message too, 0 held to see it" "  -v: none"

# The later sender takes the other's message, there since before its
# send, in its wait after it: no earlier than its send's end plus the
# target's recv-late.  With recv-late 8 us, rank 1 (the later, sending
# 11-13) gets max(11 + 9, 13 + 8) = 21; rank 0, the earlier, still 20.
# (The recv-late of 2 us above: 13 + 2 = 15, under 20.)
sed 's/^recv-late .*/recv-late 0 inf 8e-6 0/' "$tmp/x.fit" >"$tmp/late.fit"
expect_exit 0 "the later sender's recv-late" -- trc-scale -v -c "$tmp/late.fit" "$tmp/x.trc"
is "$(xus)" "0 RE 20.0 0 SE 12.0 1 RE 21.0 1 SE 13.0 " \
    "the later sender's receive: its send's end + recv-late"
is "$(grep 'eager exchange' "$err")" "trc-scale: 2 receives of an eager exchange, 1 of them the later sender's after its send, 0 that took their sender's next message too, 0 held to see it" "  -v: counted"

# 2. Sends one after the other: rank 1 sends at 13-15 us, after rank 0's
# send ended at 12, which then waits (from 13) for a lone message:
# max(13 + 2, 13 + 15) = 28; rank 1's receive max(16 + 2, 10 + 15) = 25.
swap 13 21 >"$tmp/apart.trc"
expect_exit 0 "sends apart" -- trc-scale -c "$tmp/x.fit" "$tmp/apart.trc"
is "$(xus)" "0 RE 28.0 0 SE 12.0 1 RE 25.0 1 SE 15.0 " "sends that do not overlap: lone messages"

# 3. Rank 0 computes 20 us after its send: its wait begins at 12 + 20 =
# 32, after the exchange would have ended (20): the message waits there,
# taken by the wait at its own cost, max(32 + 2, 11 + 15) = 34.  Rank 1
# still took rank 0's message in the exchange: 20.
swap 11 40 >"$tmp/late.trc"
expect_exit 0 "wait after the exchange" -- trc-scale -c "$tmp/x.fit" "$tmp/late.trc"
is "$(xus)" "0 RE 34.0 0 SE 12.0 1 RE 20.0 1 SE 13.0 " "a wait begun after it: the message was there"

# 4. Rank 0 posts its receive after its send: no exchange, rank 0's
# message to rank 1 (posted) and rank 1's to rank 0 alike lone:
# rank 0's RE max(13 + 2, 11 + 15) = 26, rank 1's max(14 + 2, 25) = 25.
swap 11 21 late >"$tmp/post.trc"
expect_exit 0 "receive posted after the send" -- trc-scale -c "$tmp/x.fit" "$tmp/post.trc"
is "$(xus)" "0 RE 26.0 0 SE 12.0 1 RE 25.0 1 SE 13.0 " "a receive posted after its send: no exchange"

done_testing
