#!/bin/sh
# trc-fit --loggp: LogGP parameters recovered from synthetic trc-pingpong
# measurements made from known ones (the truth is in the awk program):
# recv = L + 2o + G b, plus 2L + 2o + R above the eager limit; isend =
# o (and a picosecond a byte); sends above 4096 bytes wait for the
# receiver, so that send-late marks them.
. "$(dirname "$0")/lib.sh"

awk 'BEGIN { L = 2e-6; o = 3e-7; G = 1e-9; R = 1e-6; E = 4096; srand(3)
	for (b = 1; b <= 4194304; b *= 2) for (r = 0; r < 9; r++) {
		t = L + 2 * o + G * b
		if (b > E) t += 2 * L + 2 * o + R
		# a few outliers, which the medians drop
		if (r < 2) t *= 1 + 3 * rand()
		printf "recv %d %.12g\n", b, t
		printf "isend %d %.12g\n", b, o + 1e-12 * b
		s = (b > E) ? t : o + 0.1e-9 * b
		u = (b > E) ? 5 * s + 1e-4 : s
		printf "send %d %.12g\nsend-late %d %.12g\n", b, s, b, u
	} }' >"$tmp/meas"
expect_exit 0 "fit" -- trc-fit --loggp "$tmp/meas"
cp "$out" "$tmp/net.loggp"
# param NAME: its value
param() { awk -v n="$1" '$1 == n { print $2 }' "$tmp/net.loggp"; }
# within GOT WANT RELATIVE-TOLERANCE
within() { awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = (g - w) / w; if (d < 0) d = -d; exit !(d <= t) }'; }
within "$(param L)" 2e-6 1e-4; ok $? "L = 2 us ($(param L))"
within "$(param o)" 3e-7 1e-4; ok $? "o = 0.3 us, isend of the smallest size ($(param o))"
within "$(param G)" 1e-9 1e-4; ok $? "G = 1 ns a byte ($(param G))"
within "$(param R)" 1e-6 1e-3; ok $? "R = 1 us ($(param R))"
is "$(param eager)" 8191 "eager: below 8192, the first size measured waiting"
is "$(grep -c '^#' "$tmp/net.loggp")" 2 "two comment lines"
# trc-scale reads it.
printf '#trc 1 ranks=2\n0 0 SB peer=1 tag=1 bytes=1000\n0 1 RB peer=0 tag=1 bytes=1000\n0.00001 0 SE peer=1 tag=1 bytes=1000\n0.00002 1 RE peer=0 tag=1 bytes=1000\n' >"$tmp/p.trc"
expect_exit 0 "trc-scale reads it" -- trc-scale --model loggp:"$tmp/net.loggp" "$tmp/p.trc"
# The receive: L + 2o + G b = 2 + 0.6 + 1 us
is "$(awk '$3 == "RE" { print $1 }' "$out")" "0.000003600" "  and predicts recv(1000) = 3.6 us"

# Without send-late every size is eager: one line through all.
grep -v '^send' "$tmp/meas" >"$tmp/m2"
expect_exit 0 "no send-late" -- trc-fit --loggp "$tmp/m2"
is "$(awk '$1 == "eager" { print $2 }' "$out")" inf "  eager inf"
is "$(grep '^# R' "$out")" "# R: fewer than 2 sizes beyond the eager limit" "  no R"

# oc: isend-cold less isend at the smallest size, 2 us here (the
# medians of 9, two of them outliers).
awk '$1 == "isend" { printf "isend-cold %d %.12g\n", $2, $3 + 2e-6 * (NR % 9 < 2 ? 5 : 1) } { print }' "$tmp/meas" >"$tmp/mc"
expect_exit 0 "with isend-cold" -- trc-fit --loggp "$tmp/mc"
is "$(awk '$1 == "oc" { printf "%.4g", $2 }' "$out")" 2e-06 "  oc = 2 us"
is "$(grep -c '^# oc: isend-cold less isend of 1 bytes' "$out")" 1 "  named"
is "$(grep -c '^oc' "$tmp/net.loggp")" 0 "no oc without isend-cold"
awk '!($1 == "isend-cold" && $2 == 1)' "$tmp/mc" >"$tmp/bad"
expect_exit 2 "isend-cold from another size" -- trc-fit --loggp "$tmp/bad"
is "$(cat "$err")" "trc-fit: isend-cold's smallest size is not isend's" "  its message"

# occ: a collective's cold overhead, allreduce-cold less allreduce, the
# median over their 5 smallest common sizes (here 4, 16 and 64 bytes:
# 25 us + 1 ns b, 25.016 us at 16); barrier's, 12 - 4 = 8 us, only
# without the allreduces; none without either.
awk 'BEGIN { for (b = 4; b <= 64; b *= 4) for (r = 0; r < 5; r++) {
		printf "allreduce %d %.12g\n", b, 5e-6 + 1e-9 * b
		printf "allreduce-cold %d %.12g\n", b, 30e-6 + 2e-9 * b
	}
	for (r = 0; r < 5; r++)
		printf "barrier 0 4e-6\nbarrier-cold 0 %g\n", r == 0 ? 1e-3 : 12e-6 }' >"$tmp/coll"
cat "$tmp/meas" "$tmp/coll" >"$tmp/mcc"
expect_exit 0 "with allreduce-cold and barrier-cold" -- trc-fit --loggp "$tmp/mcc"
is "$(awk '$1 == "occ" { printf "%.5g", $2 }' "$out")" 2.5016e-05 "  occ = 25.016 us, the allreduce's"
is "$(grep -c '^# occ: allreduce-cold less allreduce, the median over 3 sizes from 4 bytes' "$out")" 1 "  named"
grep -v '^allreduce' "$tmp/mcc" >"$tmp/mb"
expect_exit 0 "with barrier-cold alone" -- trc-fit --loggp "$tmp/mb"
is "$(awk '$1 == "occ" { printf "%.4g", $2 }' "$out")" 8e-06 "  occ = 8 us, the barrier's (the median of 5)"
is "$(grep -c '^occ' "$tmp/net.loggp")" 0 "no occ without a cold collective"
# One size measured astray (warm) does not decide it: 4 bytes at 5 us.
awk '$1 == "allreduce-cold" && $2 == 4 { $3 = 5e-6 } { print }' "$tmp/mcc" >"$tmp/astray"
expect_exit 0 "one cold size measured warm" -- trc-fit --loggp "$tmp/astray"
is "$(awk '$1 == "occ" { printf "%.5g", $2 }' "$out")" 2.5016e-05 "  occ = 25.016 us, the median of 0, 25.016 and 25.064"
awk '$1 == "allreduce-cold" { $2 = $2 + 1 } { print }' "$tmp/mcc" >"$tmp/bad"
expect_exit 2 "allreduce-cold at sizes allreduce has not" -- trc-fit --loggp "$tmp/bad"
is "$(cat "$err")" "trc-fit: allreduce-cold: no size measured by allreduce too" "  its message"

# Errors.
grep -v '^recv' "$tmp/meas" >"$tmp/bad"
expect_exit 2 "no recv" -- trc-fit --loggp "$tmp/bad"
is "$(cat "$err")" "trc-fit: --loggp needs recv measurements" "  its message"
grep -v '^isend' "$tmp/meas" >"$tmp/bad"
expect_exit 2 "no isend" -- trc-fit --loggp "$tmp/bad"
is "$(cat "$err")" "trc-fit: --loggp needs isend measurements" "  its message"
awk '$2 == 1 || $2 >= 8192' "$tmp/meas" >"$tmp/bad"
expect_exit 2 "one eager size" -- trc-fit --loggp "$tmp/bad"
is "$(cat "$err")" "trc-fit: recv: 1 size up to the eager limit, 2 needed" "  its message"
grep -v '^send ' "$tmp/meas" >"$tmp/bad"
expect_exit 2 "send-late alone" -- trc-fit --loggp "$tmp/bad"
is "$(cat "$err")" "trc-fit: send-late needs send measurements" "  its message"

done_testing
