#!/bin/sh
# trc-scale: a wait on sends alone may be predicted shorter than it has
# lasted in the input so far (fit_wait scales it by f2(b)/f1(b)), so it
# bounds its rank's next event no later than the model says, not by
# the time read since its WB; with that bound the output, written a
# part at a time (every 4096 events or so, up to the least time any
# rank may still produce), stayed in time order.  Found on make
# validate's heat over TCP predicted on shared memory: a WE written
# after another rank's later event, which trc-sum refused.
. "$(dirname "$0")/lib.sh"

# Each 200 us: rank 1 sends 1000 bytes (Isend), waits on it from 2 us
# to 150 us; rank 0 receives it at 140 us and sends 8 bytes back,
# which rank 1 receives after its wait.  Base send 100 us, target 1 us:
# the wait on the send is predicted 1.5 us long; computation halved.
awk 'BEGIN { print "#trc 1 ranks=2 order=time"
	for (i = 0; i < 3000; i++) {
		T = i * 200
		e(T, "1 SB peer=0 tag=1 bytes=1000 req=1")
		e(T + 1, "1 SE peer=0 tag=1 bytes=1000 req=1")
		e(T + 2, "1 WB req=1 op=wait")
		e(T + 140, "0 RB peer=1 tag=1 bytes=1000")
		e(T + 141, "0 RE peer=1 tag=1 bytes=1000")
		e(T + 142, "0 SB peer=1 tag=2 bytes=8")
		e(T + 143, "0 SE peer=1 tag=2 bytes=8")
		e(T + 150, "1 WE req=1 op=wait")
		e(T + 151, "1 RB peer=0 tag=2 bytes=8")
		e(T + 152, "1 RE peer=0 tag=2 bytes=8")
	} }
	function e(us, s) { printf "%d.%09d %s\n", int(us / 1e6), (us % 1e6) * 1000, s }' >"$tmp/w.trc"
printf 'send 0 inf 100e-6 0\n' >"$tmp/b.fit"
printf 'send 0 inf 1e-6 0\n' >"$tmp/t.fit"
expect_exit 0 "predicted" -- trc-scale --cpu-ratio 0.5 -b "$tmp/b.fit" -c "$tmp/t.fit" "$tmp/w.trc"
is "$(grep -vc '^#' "$out")" 30000 "every event written"
is "$(awk '!/^#/ { if ($1 + 0 < last) { print NR ": " $1 " after " last; exit } last = $1 + 0 }' "$out")" "" \
    "in time order"
cp "$out" "$tmp/p.trc"
expect_exit 0 "which trc-sum reads" -- trc-sum "$tmp/p.trc"
done_testing
