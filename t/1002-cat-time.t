#!/bin/sh
# trc-cat --time: a window cut out of a stream, kept a stream that
# trc-scale and trc-sum accept; what is open at its edges, by hand.
. "$(dirname "$0")/lib.sh"

# Rank 0 sends m1 (tag 1) at 1-1.5, rank 1 receives it 1.2-2.5; both
# enter an allreduce (3 and 3.5, out at 4); rank 0 sends m2 (tag 2) at
# 4.5-4.6, rank 1 receives it 5.2-5.5; rank 0 waits 4.8-6 for m3 (tag
# 3), which rank 1 sends at 5.8-5.9.  Regions: A, then C, on rank 0; B
# on rank 1.
cat > "$tmp/a.trc" <<'T'
#trc 1 ranks=2
0 0 PB fn=A
0 1 PB fn=B
1 0 SB peer=1 tag=1 bytes=8
1.2 1 RB peer=0 tag=1 bytes=8
1.5 0 SE peer=1 tag=1 bytes=8
1.8 0 PE fn=A
1.9 0 PB fn=C
2.5 1 RE peer=0 tag=1 bytes=8
3 0 XB op=allreduce bytes=8
3.5 1 XB op=allreduce bytes=8
4 0 XE op=allreduce bytes=8
4 1 XE op=allreduce bytes=8
4.5 0 SB peer=1 tag=2 bytes=8
4.6 0 SE peer=1 tag=2 bytes=8
4.8 0 RB peer=1 tag=3 bytes=8
5.2 1 RB peer=0 tag=2 bytes=8
5.5 1 RE peer=0 tag=2 bytes=8
5.8 1 SB peer=0 tag=3 bytes=8
5.9 1 SE peer=0 tag=3 bytes=8
6 0 RE peer=1 tag=3 bytes=8
6 0 PE fn=C
6 1 PE fn=B
T

# 2 to 5: at 2 rank 0 is in C with m1 in flight (sent again at 2),
# rank 1 in B waiting for it; at 5 rank 0 waits for m3, not yet sent
# (left open), m2 is not yet received, and C and B end.
expect_exit 0 "window 2-5" -- trc-cat --time 2-5 "$tmp/a.trc"
cat > "$tmp/want" <<'T'
#trc 1 ranks=2 order=time
2.000000000 0 PB fn=C
2.000000000 0 SB peer=1 tag=1 bytes=8
2.000000000 0 SE peer=1 tag=1 bytes=8
2.000000000 1 PB fn=B
2.000000000 1 RB peer=0 tag=1 bytes=8
2.500000000 1 RE peer=0 tag=1 bytes=8
3.000000000 0 XB op=allreduce bytes=8
3.500000000 1 XB op=allreduce bytes=8
4.000000000 0 XE op=allreduce bytes=8
4.000000000 1 XE op=allreduce bytes=8
4.500000000 0 SB peer=1 tag=2 bytes=8
4.600000000 0 SE peer=1 tag=2 bytes=8
4.800000000 0 RB peer=1 tag=3 bytes=8
5.000000000 0 PE fn=C
5.000000000 1 PE fn=B
T
is_file "$out" "$tmp/want" "  the events in it, what was open at 2 begun again, regions closed at 5"
is "$(cat "$err")" "trc-cat: --time 2-5: 1 messages sent before the window and received in it, sent at its start
trc-cat: --time 2-5: 1 messages sent in the window and not received in it
trc-cat: --time 2-5: 1 calls left open at the window's end" "  the messages crossing its edges said"
trc-cat --time 2,5 "$tmp/a.trc" 2>/dev/null | cmp -s - "$tmp/want"; ok $? "  2,5 is 2-5"
trc-cat --time 2-5 "$tmp/a.trc" 2>/dev/null | trc-scale --cpu-ratio 1 >/dev/null 2>"$err"
is "$?:$(cat "$err")" "0:trc-scale: <stdin>:13: warning: send to rank 1 tag 2 comm 0 was never received" \
    "  trc-scale takes it, m2 never received"

# 2 to 5.3: rank 1 waits for m2 at 5.3, sent in the window: it ends.
trc-cat --time 2-5.3 "$tmp/a.trc" 2>"$err" | tail -3 > "$out"
is "$(cat "$out")" "5.300000000 1 RE peer=0 tag=2 bytes=8
5.300000000 0 PE fn=C
5.300000000 1 PE fn=B" "window 2-5.3: the receive of m2 ends at 5.3"
grep -q '1 receives and 0 sends whose other end is in the window ended at its end$' "$err"; ok $? "  said"

# Up to 3.2: rank 0 is in the allreduce, rank 1 computes: it enters.
trc-cat --time -3.2 "$tmp/a.trc" 2>"$err" | tail -3 > "$out"
is "$(cat "$out")" "3.200000000 1 XB op=allreduce bytes=8
3.200000000 0 PE fn=C
3.200000000 1 PE fn=B" "window -3.2: rank 1 enters the allreduce at 3.2"
trc-cat --time -3.2 "$tmp/a.trc" 2>/dev/null | trc-scale --cpu-ratio 1 >/dev/null 2>"$err"
is "$?:$(cat "$err")" "0:" "  trc-scale takes it"

# A broadcast whose root leaves before the window while rank 1 enters
# in it; a receive posted before it, its message in flight.
cat > "$tmp/b.trc" <<'T'
#trc 1 ranks=2
0 0 XB op=bcast root=0 bytes=8
0 1 RB peer=0 tag=4 bytes=8 req=0
0.1 0 XE op=bcast root=0 bytes=8
0.2 0 SB peer=1 tag=4 bytes=8 req=0
0.3 0 SE peer=1 tag=4 bytes=8 req=0
1 1 XB op=bcast root=0 bytes=8
1.1 1 XE op=bcast root=0 bytes=8
1.5 1 WB req=0 op=wait
1.6 1 RE peer=0 tag=4 bytes=8 req=0
1.6 1 WE req=0 op=wait
1.7 0 WB req=0 op=wait
1.7 0 WE req=0 op=wait
T
expect_exit 0 "window 0.8-: a broadcast and a posted receive open" -- trc-cat --time 0.8- "$tmp/b.trc"
cat > "$tmp/want" <<'T'
#trc 1 ranks=2 order=time
0.800000000 0 XB op=bcast root=0 bytes=8
0.800000000 0 XE op=bcast root=0 bytes=8
0.800000000 0 SB peer=1 tag=4 bytes=8 req=0
0.800000000 0 SE peer=1 tag=4 bytes=8 req=0
0.800000000 1 RB peer=0 tag=4 bytes=8 req=0
1.000000000 1 XB op=bcast root=0 bytes=8
1.100000000 1 XE op=bcast root=0 bytes=8
1.500000000 1 WB req=0 op=wait
1.600000000 1 RE peer=0 tag=4 bytes=8 req=0
1.600000000 1 WE req=0 op=wait
1.700000000 0 WB req=0 op=wait
1.700000000 0 WE req=0 op=wait
T
is_file "$out" "$tmp/want" "  the root's broadcast made again at 0.8, the receive posted again, the message sent again"
is "$(cat "$err")" "trc-cat: --time 0.8-: 1 messages sent before the window and received in it, sent at its start
trc-cat: --time 0.8-: 1 collective calls left before the window by ranks whose partners enter in it, made again at its start" "  said"
trc-scale --cpu-ratio 1 "$out" >/dev/null 2>"$err"; is "$?:$(cat "$err")" "0:" "  trc-scale takes it"

# Generated runs, windows everywhere: every event in the window kept,
# and trc-scale and trc-sum take the cut (exit 0).
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 4 -i 20 -s 2 > "$tmp/g.trc"
	end=$(tail -1 "$tmp/g.trc" | cut -d' ' -f1)
	bad=
	for f in 0.1 0.23 0.37 0.5 0.61 0.77 0.9; do
		w=$(awk -v e="$end" -v f=$f 'BEGIN { printf "%.9f-%.9f", e * f, e * (f + 0.13) }')
		trc-cat --time "$w" "$tmp/g.trc" >"$tmp/w.trc" 2>/dev/null || bad="$bad cat:$f"
		awk -v w="$w" 'BEGIN { split(w, b, "-") } !/^#/ && $1 + 0 >= b[1] + 0 && $1 + 0 <= b[2] + 0' \
		    "$tmp/g.trc" | sort >"$tmp/in"
		grep -v '^#' "$tmp/w.trc" | sort >"$tmp/cut"
		[ -z "$(comm -23 "$tmp/in" "$tmp/cut")" ] || bad="$bad kept:$f"
		trc-scale --cpu-ratio 1 "$tmp/w.trc" >/dev/null 2>&1 || bad="$bad scale:$f"
		trc-sum "$tmp/w.trc" >/dev/null 2>&1 || bad="$bad sum:$f"
	done
	is "$bad" "" "$p: 7 windows, every event kept, trc-scale and trc-sum take them"
done

# The bundled run: a window predicted.
ex=$T/../benchmarks/example
trc-cat --time 0.03-0.05 "$ex/heat-base.trc" 2>/dev/null |
    trc-scale --cpu "$ex/ratios.tbl" --base "$ex/base.fit" --comm "$ex/target.fit" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "the bundled run, 30 to 50 ms, predicted"

expect_exit 2 "a reversed window" -- trc-cat --time 5-2 "$tmp/a.trc"
is "$(cat "$err")" "trc-cat: invalid time range '5-2'" "  said"
expect_exit 2 "a window of no time" -- trc-cat --time x "$tmp/a.trc"
printf '#trc 1 ranks=2 order=rank\n0 0 MK\n' > "$tmp/r.trc"
expect_exit 2 "a stream not sorted by time" -- trc-cat --time 1-2 "$tmp/r.trc"
is "$(cat "$err")" "trc-cat: --time needs streams sorted by time (order=time): sort -s -n -k1,1 first" "  said"
done_testing
