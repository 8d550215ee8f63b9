#!/bin/sh
# Arithmetic that never wraps (issue 15): times past the engines'
# clock, ratios and costs past it, delays that add past it, each an
# error naming the event's line, exit 2; .fit files without an
# operation refused; trc-fit quadratic in its sizes; an observed span
# of 0 leaves --vs's error undefined.
. "$(dirname "$0")/lib.sh"

# The limit is INT64_MAX / 4 ns (trc.h): 9223372036854775807 / 4 =
# 2305843009213693951 ns.
lim="the clock's limit of 2305843009.213693951 s"

# The issue's case: the input's own times past the limit, scaled by 3.
printf '#trc 1 ranks=2\n9223372036.0 0 PB fn=a\n9223372036.8 0 PE fn=a\n' >"$tmp/a.trc"
expect_exit 2 "input past the limit" -- trc-scale --cpu-ratio 3 "$tmp/a.trc"
is "$(cat "$err")" "trc-scale: $tmp/a.trc:2: time past $lim" \
    "a time past the limit named by its line"

# 2305843008 + 3 x 0.8 = 2305843010.4: past it, on the PE's line.
printf '#trc 1\n2305843008.0 0 PB fn=a\n2305843008.8 0 PE fn=a\n' >"$tmp/b.trc"
expect_exit 2 "scaled past the limit" -- trc-scale --cpu-ratio 3 "$tmp/b.trc"
is "$(cat "$err")" "trc-scale: $tmp/b.trc:3: predicted time past $lim" \
    "a scaled interval past the limit named by its line"
# 2305843008 + 1.213693951 x 1 is the limit itself: written.
printf '#trc 1\n2305843008.0 0 PB fn=a\n2305843009.213693951 0 PE fn=a\n' >"$tmp/c.trc"
expect_exit 0 "up to the limit" -- trc-scale --cpu-ratio 1 "$tmp/c.trc"
is "$(tail -1 "$out")" "2305843009.213693951 0 PE fn=a t0=2305843009.213693951" \
    "the limit itself is a time"

# A ratio of 1e300 is no clamp: an error at the interval's end.
printf 'mode time\n.* all 1e300\n' >"$tmp/huge.tbl"
printf '#trc 1 ranks=1\n0 0 PB fn=a\n1 0 PE fn=a\n' >"$tmp/d.trc"
expect_exit 2 "ratio 1e300" -- trc-scale --cpu "$tmp/huge.tbl" "$tmp/d.trc"
is "$(cat "$err")" "trc-scale: $tmp/d.trc:3: predicted time past $lim" \
    "1 s x 1e300 is past the limit, not 2305843009.313693951"

# Communication costs past the limit: a send of 1e300 s, a receive.
cat >"$tmp/pp.trc" <<'X'
#trc 1 ranks=2
0 0 SB peer=1 tag=1 bytes=8
0 1 RB peer=0 tag=1 bytes=8
1 0 SE peer=1 tag=1 bytes=8
1 1 RE peer=0 tag=1 bytes=8
X
printf 'send 0 inf 1e300 0\nrecv 0 inf 1e-6 0\n' >"$tmp/s.fit"
expect_exit 2 "send cost 1e300" -- trc-scale -c "$tmp/s.fit" "$tmp/pp.trc"
is "$(cat "$err")" "trc-scale: $tmp/pp.trc:4: predicted arrival past $lim" \
    "a send's arrival past the limit named by the SE"
printf 'send 0 inf 1e-6 0\nrecv 0 inf 1e300 0\n' >"$tmp/r.fit"
expect_exit 2 "receive cost 1e300" -- trc-scale -c "$tmp/r.fit" "$tmp/pp.trc"
is "$(cat "$err")" "trc-scale: $tmp/pp.trc:5: predicted time past $lim" \
    "a receive past the limit named by the RE"
printf 'L 1e300\no 1e-7\nG 1e-9\n' >"$tmp/l.loggp"
expect_exit 2 "loggp L 1e300" -- trc-scale --model loggp:"$tmp/l.loggp" "$tmp/pp.trc"
is "$(cat "$err")" "trc-scale: $tmp/l.loggp:1: 'L' 1e300 is past 86400 s" \
    "a LogGP parameter over a day refused"
# G at its largest, 86400 s a byte: 10^6 bytes take 8.64e19 ns, past
# the limit; the sums of the wire's times stay at the limit instead of
# wrapping (fuzz/regress/fit), and the SE is named.
printf 'L 1e-6\no 1e-7\nG 86400\n' >"$tmp/g.loggp"
sed 's/bytes=8/bytes=1000000/' "$tmp/pp.trc" >"$tmp/big.trc"
expect_exit 2 "loggp G 86400, 10^6 bytes" -- trc-scale --model loggp:"$tmp/g.loggp" "$tmp/big.trc"
is "$(cat "$err")" "trc-scale: $tmp/big.trc:4: predicted arrival past $lim" \
    "a message past the limit on the wire named by the SE"

# Delays: the issue's 20 delays of 999999999 s add past the limit at
# the third send (3 x 999999999 s > 2305843009 s); twenty specs on one
# send add up past INT64_MAX and are said at the first.
{
	echo '#trc 1 ranks=2'
	for i in $(seq 1 20); do
		echo "$i 0 SB peer=1 tag=1 bytes=1"
		echo "$i 0 SE peer=1 tag=1 bytes=1"
		echo "$i 1 RB peer=0 tag=1 bytes=1"
		echo "$i 1 RE peer=0 tag=1 bytes=1"
	done
} >"$tmp/p.trc"
expect_exit 2 "delays past the limit" -- trc-perturb -d 'call=send,delay=999999999' "$tmp/p.trc"
is "$(cat "$err")" "trc-perturb: $tmp/p.trc:11: delayed time past $lim" \
    "the third delayed send's end named"
specs=$(for i in $(seq 1 20); do printf 'call=send,delay=999999999;'; done)
expect_exit 2 "twenty delays on one send" -- trc-perturb -d "${specs%;}" "$tmp/p.trc"
is "$(cat "$err")" "trc-perturb: $tmp/p.trc:3: delayed time past $lim" \
    "twenty delays of one send do not wrap"

# A .fit file with no operation.
: >"$tmp/empty.fit"
expect_exit 2 "empty .fit" -- trc-scale -c "$tmp/empty.fit" "$tmp/pp.trc"
is "$(cat "$err")" "trc-scale: $tmp/empty.fit: no operations (rows 'OP LO HI A B')" \
    "an empty .fit refused"
printf 'send-sync 0 inf\n' >"$tmp/sync.fit"
expect_exit 2 "send-sync alone" -- trc-scale -c "$tmp/sync.fit" "$tmp/pp.trc"
is "$(cat "$err")" "trc-scale: $tmp/sync.fit: no operations (rows 'OP LO HI A B')" \
    "a .fit of send-sync lines alone refused"

# trc-fit on 128 KB of measurements, 6000 sizes: two lines crossing at
# 24000 bytes, by construction.  The cubic search took 30 s for half
# of them; the quadratic one well under a second.
awk 'BEGIN { for (k = 1; k <= 6000; k++) { b = 8 * k
	printf "send %d %.9g\n", b, b < 24000 ? 2e-6 + 1e-9 * b : 15e-6 + 0.5e-9 * b } }' >"$tmp/m"
expect_exit 0 "trc-fit, 6000 sizes" -- timeout 60 trc-fit "$tmp/m"
is "$(grep -v '^#' "$out")" "send 0 24000 2e-06 1e-09
send 24000 inf 1.5e-05 5e-10" "6000 sizes: the two lines and their break"

# --vs against a run of no length: the error is undefined, not +0.0%.
printf '#trc 1 ranks=1\n1 0 MK\n' >"$tmp/z.trc"
expect_exit 0 "--vs, zero span" -- trc-sum --vs "$tmp/z.trc" "$tmp/z.trc"
is "$(tail -1 "$out")" "total time, first to last event: predicted 0, observed 0, error undefined (the observed span is 0)" \
    "the error against a span of 0 is undefined"
expect_exit 0 "--vs -t, zero span" -- trc-sum -t --vs "$tmp/z.trc" "$tmp/z.trc"
is "$(tail -1 "$out")" "0.000000000	0.000000000	-	0" "-t: '-' for the error"
done_testing
