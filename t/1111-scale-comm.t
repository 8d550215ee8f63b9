#!/bin/sh
# trc-scale: sends, receives and causality repair (Mendes, section
# 4.2.2, Figure 5).  Expected times computed by hand.
. "$(dirname "$0")/lib.sh"

# A send of 1000 bytes: f1 = 1e-6 + 1e-9 * 1000 = 2e-6 s on the base,
# f2 = 0.5e-6 + 0.25e-9 * 1000 = 0.75e-6 s on the target.
printf 'send 0 inf 1e-6 1e-9\n' >"$tmp/base.fit"
printf 'send 0 inf 0.5e-6 0.25e-9\n' >"$tmp/target.fit"
cat >"$tmp/s.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=3 bytes=1000
0.000008000 0 SE peer=1 tag=3 bytes=1000
0.000010000 0 MK
0.000100000 1 RB peer=0 tag=3 bytes=1000
0.000200000 1 RE peer=0 tag=3 bytes=1000
X
# S1 = 8 us, S2 = f2/f1 * S1 = 0.375 * 8 = 3 us
expect_exit 0 "send with base and target" -- trc-scale --base "$tmp/base.fit" --comm "$tmp/target.fit" "$tmp/s.trc"
is "$(sed -n 3,4p "$out")" "0.000003000 0 SE peer=1 tag=3 bytes=1000 t0=0.000008000
0.000005000 0 MK t0=0.000010000" "send scaled by f2(b)/f1(b), later events shifted"
# The other way, target slower (f2 = 2 us, f1 = 0.75 us): the ratio
# 8/3 applies to the recorded send up to f1, what it took beyond at
# most as recorded: S1 = 8 us gives f2 + (8 - 0.75) = 9.25 us, not 8/3
# * 8 = 21.333 us; S1 = 0.6 us (under f1) gives 8/3 * 0.6 = 1.6 us.
expect_exit 0 "send, target slower" -- trc-scale --base "$tmp/target.fit" --comm "$tmp/base.fit" "$tmp/s.trc"
is "$(sed -n 3p "$out")" "0.000009250 0 SE peer=1 tag=3 bytes=1000 t0=0.000008000" \
    "  the excess over f1 kept as recorded"
sed 's/^0.000008000 0 SE/0.000000600 0 SE/' "$tmp/s.trc" >"$tmp/s6.trc"
expect_exit 0 "send under f1, target slower" -- trc-scale --base "$tmp/target.fit" --comm "$tmp/base.fit" "$tmp/s6.trc"
is "$(sed -n 3p "$out")" "0.000001600 0 SE peer=1 tag=3 bytes=1000 t0=0.000000600" \
    "  scaled by f2/f1"
# target only: S2 = f2(b) = 0.75 us (nanosecond resolution: 750 ns)
expect_exit 0 "send with target only" -- trc-scale -c "$tmp/target.fit" "$tmp/s.trc"
is "$(sed -n 3p "$out")" "0.000000750 0 SE peer=1 tag=3 bytes=1000 t0=0.000008000" "send takes f2(b)"
# no recv in the fits: the receive keeps its 100 us
is "$(sed -n 6p "$out")" "0.000200000 1 RE peer=0 tag=3 bytes=1000 t0=0.000200000" "receive without g2 keeps its duration"

# A receive completed by g2(b) = 2e-6 + 1e-9 * 1000 = 3 us.
printf 'recv 0 inf 2e-6 1e-9\n' >"$tmp/g.fit"
expect_exit 0 "receive with g2" -- trc-scale -c "$tmp/g.fit" "$tmp/s.trc"
is "$(sed -n 6p "$out")" "0.000103000 1 RE peer=0 tag=3 bytes=1000 t0=0.000200000" "t'(RE) = t'(RB) + g2(b)"

# Figure 5.  Two tasks, computation ratio 0.5, sends and receives of
# equal cost on both machines, g2(b) = 1.
#   task 1 (rank 0): send 0-1, compute 1-9, send 9-12
#   task 2 (rank 1): receive 0-2, compute 2-8, receive 8-13
# Predicted: rank 0 SB 0, SE 1, SB 1 + 8/2 = 5, SE 5 + 3 = 8;
# rank 1 RB 0, RE max(0 + 1, 1) = 1 (the interval E2^1-E2^2 halved),
# RB 1 + 6/2 = 4, RE max(4 + 1, 8) = 8: E2^4 waits for the send's end.
cat >"$tmp/f5.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 RB peer=0 tag=1 bytes=8
1.000000000 0 SE peer=1 tag=1 bytes=8
2.000000000 1 RE peer=0 tag=1 bytes=8
8.000000000 1 RB peer=0 tag=2 bytes=8
9.000000000 0 SB peer=1 tag=2 bytes=8
12.000000000 0 SE peer=1 tag=2 bytes=8
13.000000000 1 RE peer=0 tag=2 bytes=8
X
cat >"$tmp/f5.want" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 SB peer=1 tag=1 bytes=8 t0=0.000000000
0.000000000 1 RB peer=0 tag=1 bytes=8 t0=0.000000000
1.000000000 0 SE peer=1 tag=1 bytes=8 t0=1.000000000
1.000000000 1 RE peer=0 tag=1 bytes=8 t0=2.000000000
4.000000000 1 RB peer=0 tag=2 bytes=8 t0=8.000000000
5.000000000 0 SB peer=1 tag=2 bytes=8 t0=9.000000000
8.000000000 0 SE peer=1 tag=2 bytes=8 t0=12.000000000
8.000000000 1 RE peer=0 tag=2 bytes=8 t0=13.000000000
X
printf 'send 0 inf 1 0\nrecv 0 inf 1 0\n' >"$tmp/one.fit"
expect_exit 0 "Figure 5" -- trc-scale -v --cpu-ratio 0.5 -b "$tmp/one.fit" -c "$tmp/one.fit" "$tmp/f5.trc"
is_file "$out" "$tmp/f5.want" "Figure 5: E2^4 delayed to the send's end at 8"
is "$(grep 'repaired, total' "$err")" \
    "trc-scale: 8 events, 1 receive completions repaired, total delay 3.000000000 s" \
    "-v: one repair of 8 - 5 = 3 s"

# A repair delay shifts the rest of the rank: add a marker 1 s after
# E2^4 on rank 1 (1 s * 0.5 after the repaired 8).
{ cat "$tmp/f5.trc"; echo "14.000000000 1 MK"; } >"$tmp/f5b.trc"
trc-scale --cpu-ratio 0.5 -b "$tmp/one.fit" -c "$tmp/one.fit" "$tmp/f5b.trc" >"$out"
is "$(tail -1 "$out")" "8.500000000 1 MK t0=14.000000000" "the delay shifts later events of the rank"

# Messages on one channel pair in FIFO order; tags keep channels
# apart.  The second tag-1 send comes late (12-13 s), after rank 1's
# receive of it in the input (6.0 s): clock skew, so rank 1 is held.
cat >"$tmp/fifo.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
1.000000000 0 SE peer=1 tag=1 bytes=8
1.000000000 0 SB peer=1 tag=2 bytes=8
2.000000000 0 SE peer=1 tag=2 bytes=8
5.000000000 1 RB peer=* tag=1 bytes=8
5.100000000 1 RE peer=0 tag=1 bytes=8
5.100000000 1 RB peer=0 tag=1 bytes=8
6.000000000 1 RE peer=0 tag=1 bytes=8
6.000000000 1 RB peer=0 tag=2 bytes=8
6.100000000 1 RE peer=0 tag=2 bytes=8
12.000000000 0 MK
12.000000000 0 SB peer=1 tag=1 bytes=8
13.000000000 0 SE peer=1 tag=1 bytes=8
X
# f2 = g2 = 0.5 s.  Rank 0: SE 0.5 (tag 1), SE 1.0 (tag 2), MK 11,
# SE 11.5 (tag 1).  Rank 1: RE max(5 + 0.5, 0.5) = 5.5, RE max(5.5 +
# 0.5, 11.5) = 11.5, RE max(11.5 + 0.5, 1.0) = 12.
printf 'send 0 inf 0.5 0\nrecv 0 inf 0.5 0\n' >"$tmp/h.fit"
expect_exit 0 "FIFO" -- trc-scale -c "$tmp/h.fit" "$tmp/fifo.trc"
is "$(awk '$3 == "RE" { print $1, $NF }' "$out")" "5.500000000 t0=5.100000000
11.500000000 t0=6.000000000
12.000000000 t0=6.100000000" "FIFO per (source, destination, tag, comm); wildcard RB matched by RE's source"
is "$(cat "$err")" "trc-scale: warning: 1 receive completion in the input before its send (clock skew), repaired" \
    "clock skew in the input is reported"
is "$(awk 'NR > 1 { print $1 }' "$out" | sort -c -n && echo sorted)" sorted "output sorted by predicted time"

done_testing
