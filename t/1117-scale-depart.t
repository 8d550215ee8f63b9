#!/bin/sh
# trc-scale: when a message leaves and arrives on the base machine.  A
# blocking send of a size the base fit marks send-sync departs when its
# receiver is ready, and a long eager send over TCP ends after its last
# bytes are written, so a receive that ends before the send's SE is
# the protocol, not clock skew: only one that ends before the send's
# SB is skew; depart= (SE) and arrive= (RE), the physical times some
# formats hold, say it outright.  Times computed by hand.
. "$(dirname "$0")/lib.sh"

# evtimes FILE: each event's time, rank and kind.
evtimes() { awk 'NR > 1 { print $1, $2, $3 }' "$1"; }

printf 'send 0 inf 1 0\nsend-sync 0 inf\n' >"$tmp/sync.fit"
printf 'send 0 inf 1 0\n' >"$tmp/eager.fit"
printf 'send 0 inf 0.5 0\nrecv 0 inf 0.1 0\n' >"$tmp/target.fit"
skew1="trc-scale: warning: 1 receive completion in the input before its send (clock skew), repaired"

# 1. Shared memory hands the message over inside the receive: rank 1
# is ready from 0, rank 0 sends from 1, the receive ends at 1.2, the
# send at 1.3, after it.
cat >"$tmp/hand.trc" <<'X'
#trc 1 ranks=2
0.000000000 1 RB peer=0 tag=1 bytes=8
1.000000000 0 SB peer=1 tag=1 bytes=8
1.200000000 1 RE peer=0 tag=1 bytes=8
1.300000000 0 SE peer=1 tag=1 bytes=8
X
# Predicted: SE at 1 + f2 = 1.5 (the base's send held a wait, f2 is
# not scaled), RE at max(0 + g2, 1.5) = 1.5.
cat >"$tmp/hand.want" <<'X'
0.000000000 1 RB
1.000000000 0 SB
1.500000000 0 SE
1.500000000 1 RE
X
expect_exit 0 "base marks the size send-sync" -- trc-scale -b "$tmp/sync.fit" -c "$tmp/target.fit" "$tmp/hand.trc"
is "$(cat "$err")" "" "  the receive before the SE is the protocol: no warning"
evtimes "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/hand.want" "  SE at SB + f2 = 1.5, the receive with it"
expect_exit 0 "-v" -- trc-scale -v -b "$tmp/sync.fit" -c "$tmp/target.fit" "$tmp/hand.trc"
is "$(sed -n 1p "$err")" "trc-scale: 0 receive completions in the input before their send (clock skew), repaired" \
    "  -v counts none"
# The same trace with a base whose sends end on their own, or none:
# the receive ends after the send began, which any protocol allows.
expect_exit 0 "base eager" -- trc-scale -b "$tmp/eager.fit" -c "$tmp/target.fit" "$tmp/hand.trc"
is "$(cat "$err")" "" "  the receive between SB and SE: no warning"
expect_exit 0 "no base" -- trc-scale -c "$tmp/target.fit" "$tmp/hand.trc"
is "$(cat "$err")" "" "  without a base the same"
evtimes "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/hand.want" "  and the same prediction"

# 2. A receive that ends before the send even began is skew whatever
# the protocol.
sed 's/^1.200000000 1 RE/0.900000000 1 RE/' "$tmp/hand.trc" | sort -s -n -k1,1 >"$tmp/early.trc"
expect_exit 0 "receive before the send's begin" -- trc-scale -b "$tmp/sync.fit" -c "$tmp/target.fit" "$tmp/early.trc"
is "$(cat "$err")" "$skew1" "  skew, send-sync or not"

# 3. Physical times.  depart=1.1 on the SE: the receive ending at 1.2
# came after the message left, whatever the base fit says.
sed 's/^\(1.300000000 0 SE .*\)$/\1 depart=1.100000000/' "$tmp/hand.trc" >"$tmp/dep.trc"
expect_exit 0 "depart= before the receive's end" -- trc-scale -c "$tmp/target.fit" "$tmp/dep.trc"
is "$(cat "$err")" "" "  no warning without a base fit"
evtimes "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/hand.want" "  the prediction does not move"
# depart=1.25, after the receive's end: skew, though the base fit
# would have allowed it.
sed 's/^\(1.300000000 0 SE .*\)$/\1 depart=1.25/' "$tmp/hand.trc" >"$tmp/late.trc"
expect_exit 0 "depart= after the receive's end" -- trc-scale -b "$tmp/sync.fit" -c "$tmp/target.fit" "$tmp/late.trc"
is "$(cat "$err")" "$skew1" "  skew: the physical time wins"
# arrive= on the RE: the message arrived at 1.05, before it left at 1.1.
sed 's/^\(1.200000000 1 RE .*\)$/\1 arrive=1.050000000/' "$tmp/dep.trc" >"$tmp/arr.trc"
expect_exit 0 "arrive= before depart=" -- trc-scale -c "$tmp/target.fit" "$tmp/arr.trc"
is "$(cat "$err")" "$skew1" "  skew"
sed 's/^\(1.200000000 1 RE .*\)$/\1 arrive=1.15/' "$tmp/dep.trc" >"$tmp/arr2.trc"
expect_exit 0 "arrive= after depart=" -- trc-scale -c "$tmp/target.fit" "$tmp/arr2.trc"
is "$(cat "$err")" "" "  no warning"
is "$(awk '$3 == "SE" || $3 == "RE" { print $NF }' "$out" | tr '\n' ' ')" "t0=1.300000000 t0=1.200000000 " \
    "  the attributes pass through, t0= after them"

# 4. Bad physical times.
sed 's/^\(1.300000000 0 SE .*\)$/\1 depart=1.x/' "$tmp/hand.trc" >"$tmp/bad.trc"
expect_exit 2 "invalid depart=" -- trc-scale "$tmp/bad.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad.trc:5: invalid depart '1.x'" "  its message"
sed 's/^\(1.200000000 1 RE .*\)$/\1 arrive=/' "$tmp/hand.trc" >"$tmp/bad.trc"
expect_exit 2 "empty arrive=" -- trc-scale "$tmp/bad.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad.trc:4: invalid arrive ''" "  its message"

# 5. The bundled example's shared-memory run (trc-heat, 2 ranks): its
# halo rows of 3856 bytes are sent send-sync there (target.fit marks
# 384 bytes on).  Counted from the trace, pairing each channel's sends
# and receives in order: receives that end before their send's SE, and
# before its SB.
ex=$T/../benchmarks/example
counts=$(awk '!/^#/ { r = $2; k = $3; p = ""; g = ""
	for (i = 4; i <= NF; i++) { if ($i ~ /^peer=/) p = substr($i, 6); if ($i ~ /^tag=/) g = substr($i, 5) }
	if (k == "SB") sb[r] = $1
	if (k == "SE") { c = r " " p " " g; n = ++ns[c]; se[c, n] = $1; sbt[c, n] = sb[r] }
	if (k == "RE") { c = p " " r " " g; n = ++nr[c]; re[c, n] = $1 } }
    END { for (c in nr) for (i = 1; i <= nr[c]; i++) { if (re[c, i] < se[c, i]) a++; if (re[c, i] < sbt[c, i]) b++ }
	print a + 0, b + 0 }' "$ex/heat-target.trc")
is "$counts" "300 0" "example: 300 receives end before their SE, none before their SB"
expect_exit 0 "example, shared memory to TCP, no base" -- trc-scale -c "$ex/base.fit" "$ex/heat-target.trc"
is "$(cat "$err")" "" "  none before its SB: no warning"
expect_exit 0 "example, with its base" -- trc-scale -b "$ex/target.fit" -c "$ex/base.fit" "$ex/heat-target.trc"
is "$(cat "$err")" "" "  none: the protocol"

# 5. recv-late, h2(b) = 0.1: the message arrives g2(b) = 0.3 after its
# send began (f2 = 0.1 ends the send at 1.1); a receive waiting from 0
# ends at max(0 + 0.1, 1 + 0.3) = 1.3, one posted at 5 at 5 + 0.1 =
# 5.1.  Without recv-late the message arrives at the send's end, 1.1,
# and the first receive ends then.
printf 'send 0 inf 0.1 0\nrecv 0 inf 0.3 0\nrecv-late 0 inf 0.1 0\n' >"$tmp/rl.fit"
printf 'send 0 inf 0.1 0\nrecv 0 inf 0.3 0\n' >"$tmp/norl.fit"
cat >"$tmp/rl.trc" <<'X'
#trc 1 ranks=2
0.000000000 1 RB peer=0 tag=1 bytes=8
1.000000000 0 SB peer=1 tag=1 bytes=8
1.100000000 0 SE peer=1 tag=1 bytes=8
1.400000000 1 RE peer=0 tag=1 bytes=8
1.400000000 1 MK
5.000000000 1 RB peer=0 tag=2 bytes=8
5.000000000 0 SB peer=1 tag=2 bytes=8
5.000000000 0 SE peer=1 tag=2 bytes=8
5.200000000 1 RE peer=0 tag=2 bytes=8
X
# The second send: SB at 1.1 + 3.9 = 5.0 predicted, SE 5.1, its
# receive posted at 1.3 + 0 + 3.6 = 4.9, ending at max(4.9 + 0.1, 5.0 +
# 0.3) = 5.3; without recv-late the receive is posted at 1.1 + 3.6 =
# 4.7 and ends at max(4.7 + 0.3, 5.1) = 5.1.
expect_exit 0 "recv-late" -- trc-scale -c "$tmp/rl.fit" "$tmp/rl.trc"
is "$(awk '$3 == "RE" { printf "%s ", $1 }' "$out")" "1.300000000 5.300000000 " \
    "  RE at SB + g2 when the receiver waited, else RB + h2, whichever later"
expect_exit 0 "no recv-late" -- trc-scale -c "$tmp/norl.fit" "$tmp/rl.trc"
is "$(awk '$3 == "RE" { printf "%s ", $1 }' "$out")" "1.100000000 5.100000000 " \
    "  RE at RB + g2, or the send's end"

done_testing
