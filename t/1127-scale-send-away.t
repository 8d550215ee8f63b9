#!/bin/sh
# trc-scale: a blocking send begun while its receiver was in no send,
# receive or wait (computing, or in another call) costs the fit's
# send-late, what trc-pingpong's send-late measures (the receiver late);
# one whose receiver waits in its receive costs send.  Over TCP
# loopback at 24 KiB the two are 5.0 and 6.8 us.  Expected times by
# hand from the fits below; --cpu-ratio 1, the intervals between calls
# as recorded, and none of 20 us or more before a send (warm).
. "$(dirname "$0")/lib.sh"

printf 'send 0 inf 6e-6 0\nsend-late 0 inf 4e-6 0\nrecv 0 inf 10e-6 0\n' >"$tmp/t.fit"
grep -v send-late "$tmp/t.fit" >"$tmp/nolate.fit"
printf 'send 0 inf 3e-6 0\nsend-late 0 inf 2e-6 0\nrecv 0 inf 5e-6 0\n' >"$tmp/b.fit"
grep -v send-late "$tmp/b.fit" >"$tmp/bnolate.fit"

# trace RB1 SE0 [ORDER]: rank 0 sends 8 bytes to rank 1 at 10 us (its
# SE at SE0 us); rank 1 computes from 0 and begins its blocking receive
# at RB1 us, its RE 1 us after the later of that and SE0.
trace() {
	echo "#trc 1 ranks=2 order=${3:-time}"
	awk -v rb="$1" -v se="$2" 'BEGIN {
		re = (rb > se ? rb : se) + 1
		printf "0 0 MK\n0 1 MK\n"
		printf "%.9f 0 SB peer=1 tag=1 bytes=8\n", 10e-6
		printf "%.9f 0 SE peer=1 tag=1 bytes=8\n", se / 1e6
		printf "%.9f 1 RB peer=0 tag=1 bytes=8\n", rb / 1e6
		printf "%.9f 1 RE peer=0 tag=1 bytes=8\n", re / 1e6
	}' | if [ "${3:-time}" = time ]; then sort -s -g -k1,1
	else sort -s -k2,2n -k1,1g; fi
}
se0() { awk '$2 == 0 && $3 == "SE" { printf "%.1f", $1 * 1e6 }' "$out"; }

# 1. The receiver computes until 30 us: away, 10 + 4 = 14.
trace 30 13 >"$tmp/away.trc"
expect_exit 0 "a send to a receiver away" -- trc-scale -v -c "$tmp/t.fit" "$tmp/away.trc"
is "$(se0)" "14.0" "  costs send-late: 10 + 4 us"
is "$(grep 'blocking sends' "$err")" "trc-scale: 1 blocking sends begun with their receiver in no send, receive or wait" "  -v: counted"
# Without a send-late row, send: 10 + 6.
expect_exit 0 "no send-late row" -- trc-scale -c "$tmp/nolate.fit" "$tmp/away.trc"
is "$(se0)" "16.0" "  send: 10 + 6 us"

# 2. The receiver in its receive since 5 us: send, 10 + 6 = 16.
trace 5 13 >"$tmp/there.trc"
expect_exit 0 "a send to a receiver waiting" -- trc-scale -v -c "$tmp/t.fit" "$tmp/there.trc"
is "$(se0)" "16.0" "  costs send: 10 + 6 us"
is "$(grep 'blocking sends' "$err")" "trc-scale: 0 blocking sends begun with their receiver in no send, receive or wait" "  -v: none"

# 3. A stream not in time order: what the receiver did when the send
# began is not known as it is read, so send, 16.
trace 30 13 rank >"$tmp/rank.trc"
expect_exit 0 "order=rank" -- trc-scale -c "$tmp/t.fit" "$tmp/rank.trc"
is "$(se0)" "16.0" "  not known: send, 10 + 6 us"

# 4. With the base's fits: the recorded 2.5 us scaled by the send-late
# rows, 2.5 * 4 / 2 = 5, but what it holds beyond the base's 2 us no
# more than as recorded: 4 + 0.5 = 4.5, SE at 14.5.  The base without a
# send-late row: send rows on both sides, 2.5 * 6 / 3 = 5, SE at 15.
trace 30 12.5 >"$tmp/scaled.trc"
expect_exit 0 "scaled, both send-late rows" -- trc-scale -b "$tmp/b.fit" -c "$tmp/t.fit" "$tmp/scaled.trc"
is "$(se0)" "14.5" "  by send-late's rows: 10 + 4.5 us"
expect_exit 0 "scaled, the base without" -- trc-scale -b "$tmp/bnolate.fit" -c "$tmp/t.fit" "$tmp/scaled.trc"
is "$(se0)" "15.0" "  by send's rows: 10 + 5 us"

# 5. A size the target marks send-sync waits for its receiver whatever
# it is doing: send-late does not apply.  Receiver ready at 30, its
# share of the transfer (recv, 10 us): SE at 40 either way; and a
# nonblocking send (req=) is never away (isend row, here send's: 16).
printf 'send-sync 0 inf\n' | cat "$tmp/t.fit" - >"$tmp/sync.fit"
expect_exit 0 "send-sync" -- trc-scale -v -c "$tmp/sync.fit" "$tmp/away.trc"
is "$(se0)" "40.0" "  waits for the receiver: 30 + 10 us"
sed 's/0 SB peer=1 tag=1 bytes=8/& req=1/; s/0 SE peer=1 tag=1 bytes=8/& req=1/' "$tmp/away.trc" >"$tmp/isend.trc"
expect_exit 0 "an isend" -- trc-scale -v -c "$tmp/t.fit" "$tmp/isend.trc"
is "$(grep 'blocking sends' "$err")" "trc-scale: 0 blocking sends begun with their receiver in no send, receive or wait" "  an isend: not counted"

# Bad input as before: a send-late row whose line is not a number.
printf 'send 0 inf 6e-6 0\nsend-late 0 inf x 0\n' >"$tmp/bad.fit"
expect_exit 2 "a bad send-late row" -- trc-scale -c "$tmp/bad.fit" "$tmp/away.trc"
is "$(sed 's/:[^:]*$//' "$err")" "trc-scale: $tmp/bad.fit:2" "  file:line named"

done_testing
