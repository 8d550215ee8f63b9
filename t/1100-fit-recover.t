#!/bin/sh
# trc-fit recovers a known piecewise-linear cost, breakpoints included,
# from synthetic measurements with 2% noise and 10% outliers (awk with
# a fixed seed; the truth is written in the awk program, not taken
# from trc-fit).
. "$(dirname "$0")/lib.sh"

awk 'BEGIN {
	srand(7)
	n = split("1 2 4 8 16 32 64 128 256 512 768 1024 1536 2048 4096 " \
	    "8192 12288 16384 24576 32768 49152 65536 98304 131072 " \
	    "262144 524288 1048576 2097152 4194304", s, " ")
	for (i = 1; i <= n; i++) for (r = 0; r < 15; r++) {
		b = s[i]
		# send: eager below 16384, rendezvous from 16384
		t = b < 16384 ? 2e-6 + 1e-9 * b : 15e-6 + 0.25e-9 * b
		t *= 1 + 0.04 * (rand() - 0.5)
		if (rand() < 0.1) t *= 3 + 7 * rand()
		printf "send %d %.9g\n", b, t
		# recv: one line
		u = (1e-6 + 0.3e-9 * b) * (1 + 0.04 * (rand() - 0.5))
		printf "recv %d %.9g\n", b, u
		# bcast: three regimes, switching at 1024 and 65536
		v = b < 1024 ? 3e-6 + 4e-9 * b : \
		    b < 65536 ? 8e-6 + 1e-9 * b : 40e-6 + 0.6e-9 * b
		v *= 1 + 0.04 * (rand() - 0.5)
		if (rand() < 0.1) v *= 2 + 5 * rand()
		printf "bcast %d %.9g\n", b, v
	}
}' >"$tmp/m"
# a comment and a blank line are allowed
{ echo '# OPERATION BYTES SECONDS'; echo; cat "$tmp/m"; } >"$tmp/meas"

expect_exit 0 "fits the measurements" -- trc-fit -v "$tmp/meas"
cp "$out" "$tmp/fit"
grep -v '^#' "$tmp/fit" >"$tmp/rows"

# within(GOT WANT TOL-RELATIVE)
within() {
	awk -v g="$1" -v w="$2" -v tol="$3" \
	    'BEGIN { d = (g - w) / w; if (d < 0) d = -d; exit !(d <= tol) }'
}
row() { awk -v op="$1" -v k="$2" '$1 == op && ++n == k' "$tmp/rows"; }

is "$(awk '{ print $1, $2, $3 }' "$tmp/rows")" "send 0 16384
send 16384 inf
recv 0 inf
bcast 0 1024
bcast 1024 65536
bcast 65536 inf" "segments and breakpoints found by the fit"

check() {	# op k a b
	r=$(row "$1" "$2")
	set -- "$1" "$2" "$3" "$4" $r
	within "$8" "$3" 0.03; ok $? "$1 segment $2: a = $8 ~ $3"
	within "$9" "$4" 0.03; ok $? "$1 segment $2: b = $9 ~ $4"
}
check send 1 2e-6 1e-9
check send 2 15e-6 0.25e-9
check recv 1 1e-6 0.3e-9
check bcast 1 3e-6 4e-9
check bcast 2 8e-6 1e-9
check bcast 3 40e-6 0.6e-9

# goodness of fit: as comments in the file and, with -v, on stderr
is "$(grep -c '^trc-fit: send \[0, 16384): 17 sizes, r2 ' "$err")" 1 \
    "-v reports each segment on stderr"
r2=$(sed -n 's/^# recv 0 inf: 29 sizes, r2 \([0-9.]*\),.*/\1/p' "$tmp/fit")
within "$r2" 1 0.001; ok $? "recv r2 $r2 close to 1"

# the output is a valid .fit file: trc-fit reads stdin, --segments 1 forces one line
trc-fit --segments 1 <"$tmp/meas" >"$tmp/one"
is "$(grep -v '^#' "$tmp/one" | awk '{ print $1, $2, $3 }' | sort | tr '\n' ' ')" \
    "bcast 0 inf recv 0 inf send 0 inf " "-k 1 gives one segment per operation"
# --points: with 12 points a segment, bcast's middle regime (9 sizes) cannot stand
trc-fit --points 12 "$tmp/meas" | grep -c '^bcast' >"$tmp/c"
ok $([ "$(cat "$tmp/c")" -lt 3 ]; echo $?) "-m 12 allows fewer bcast segments"

# --penalty 0: no penalty, so the least squares keep every cut they may
is "$(trc-fit --penalty 0 "$tmp/meas" | grep -c '^send')" 4 "--penalty 0 cuts send into --segments 4 segments"

# send-late: sends that wait for the receiver at 512 to 4096 bytes (a
# transport that hands over inside the receiver's call) and from 65536
# (rendezvous), with the receiver late by max(4 send, 20 us); eager
# elsewhere, where send-late costs what send does.  Noise 4%, and
# outliers 3 times as long in 2 of the 15 repetitions, fewer than the
# quarter that makes a send wait.
awk 'BEGIN {
	srand(11)
	n = split("1 4 16 64 256 512 1024 4096 8192 16384 65536 131072", s, " ")
	for (i = 1; i <= n; i++) for (r = 0; r < 15; r++) {
		b = s[i]
		t = 2e-6 + 1e-9 * b
		late = 4 * t < 20e-6 ? 20e-6 : 4 * t
		w = (b >= 512 && b <= 4096) || b >= 65536
		printf "send %d %.9g\n", b, t * (1 + 0.04 * (rand() - 0.5))
		u = (w ? late + t : t) * (1 + 0.04 * (rand() - 0.5))
		if (r % 7 == 3) u *= 3
		printf "send-late %d %.9g\n", b, u
	}
}' >"$tmp/late"
expect_exit 0 "fits send and send-late" -- trc-fit "$tmp/late"
is "$(grep -v '^#' "$out" | grep -v '^send \|^send-late ')" "send-sync 512 8192
send-sync 65536 inf" "send-sync from 512 to the next eager size, and from 65536 on"
# send-late is fitted at the sizes whose sends do not wait, 1 to 256,
# 8192 and 16384, where it costs what send does: 2 us + 1 ns a byte.
is "$(grep '^# send-late:' "$out")" "# send-late: 180 measurements, 7 sizes outside send-sync, 1 segment" "send-late fitted at the 7 sizes that do not wait"
is "$(awk 'function off(x, want) { x = x / want - 1; return x < 0 ? -x : x }
    $1 == "send-late" { printf "%s %s %d %d", $2, $3, off($4, 2e-6) < 0.02, off($5, 1e-9) < 0.02 }' "$out")" "0 inf 1 1" \
    "  its line: 2 us and 1 ns a byte, within 2%"
# send is one line, but its segments end where the protocol switches:
# at 512 and 8192 (65536 has 2 sizes above it, fewer than --points 3,
# and is no cut).
is "$(awk '$1 == "send" { printf "%s %s, ", $2, $3 }' "$out")" "0 512, 512 8192, 8192 inf, " \
    "  send's segments cut where its protocol switches"
cp "$out" "$tmp/both.fit"

printf '#trc 1 ranks=1\n0.000000000 0 MK\n' >"$tmp/one.trc"
expect_exit 0 "trc-scale reads the file" -- trc-scale -c "$tmp/both.fit" "$tmp/one.trc"

# send-busy, the receiver polling instead of computing: at 512 to 4096
# it costs what send does (the receiver's progress takes the message),
# from 65536 on it waits as send-late (a rendezvous waits for the
# receive).  So send-progress 512 8192, cut as send-sync's ranges are.
awk '$1 == "send-late" { b = $2; u = $3
	if (b >= 512 && b <= 4096) { t = 2e-6 + 1e-9 * b; u = t * (1 + 0.01 * (NR % 3)) }
	print "send-busy", b, u }' "$tmp/late" >"$tmp/busy"
expect_exit 0 "fits send, send-late and send-busy" -- trc-fit "$tmp/late" "$tmp/busy"
is "$(grep -v '^#' "$out" | grep -v '^send \|^send-late ')" "send-sync 512 8192
send-sync 65536 inf
send-progress 512 8192" "send-progress: the send-sync sizes a polling receiver takes"
is "$(grep -c '^send-busy' "$out")" "0" "send-busy is not fitted as an operation"
# An operation of one size (poll, trc-pingpong's, at 0 bytes) is still
# a row of its median, beside send-late's at the sizes that do not wait.
printf 'poll 0 1e-7\npoll 0 1.2e-7\npoll 0 0.9e-7\n' | cat - "$tmp/late" >"$tmp/poll"
expect_exit 0 "one size and send-late" -- trc-fit "$tmp/poll"
is "$(grep '^poll ' "$out")" "poll 0 inf 1e-07 0" "  poll: its median, a constant"
cp "$out" "$tmp/prog.fit"
expect_exit 0 "trc-scale reads it" -- trc-scale -c "$tmp/prog.fit" "$tmp/one.trc"
# A send that waits on every other repetition, as Open MPI's shared
# memory does from 384 bytes to 3 KiB with its receiver late (its fast
# box holds one message at a time; measured on this toolkit's host),
# waits: in 7 of 15 here, so its median does not, its upper quartile
# does.  From 4096 every send waits, a receiver polling or not; below
# 384 none does.  So send-sync from 384 on, send-progress 384 to 4096.
awk 'BEGIN {
	n = split("64 128 256 384 512 1024 2048 3072 4096 8192", s, " ")
	for (i = 1; i <= n; i++) for (r = 0; r < 15; r++) {
		b = s[i]
		t = 3e-6 * (1 + 0.01 * (r % 3))
		half = b >= 384 && b < 4096
		all = b >= 4096
		printf "send %d %.9g\n", b, t
		printf "send-late %d %.9g\n", b, all || (half && r % 2) ? t + 20e-6 : t
		printf "send-busy %d %.9g\n", b, all ? t + 20e-6 : t
	}
}' >"$tmp/half"
expect_exit 0 "fits sends that wait on every other repetition" -- trc-fit "$tmp/half"
is "$(grep -v '^#' "$out" | grep -v '^send ')" "send-late 0 inf 3.03e-06 0
send-sync 384 inf
send-progress 384 4096" "a send that waits in 7 of 15 repetitions waits"
# (send-late at 64 to 256 bytes, which do not wait: the median of 3,
# 3.03 and 3.06 us, 5 times each.)
expect_exit 2 "send-busy without send-late" -- trc-fit "$tmp/busy"
is "$(cat "$err")" "trc-fit: send-busy needs send-late measurements" "send-busy without send-late: named"

# A dip at one size, as shared memory's recv-late-cold measured once
# (3072 bytes at 1 us between 4.4 + 0.75 ns b below and 15.5 + 0.06 ns b
# above): no segment's line may fall to zero or below over its sizes,
# from its first measured size to the next segment's first (to the
# largest measured for the last); one cut through 2048, 3072 and 4096
# went to -2.6 us at 4095 bytes.
awk 'BEGIN { for (b = 1; b <= 1048576; b *= 2) { s[++n] = b; if (b >= 1024 && b < 1048576) s[++n] = b * 3 / 2 }
	for (k = 1; k <= n; k++) { b = s[k]
		t = b <= 2048 ? 4.4e-6 + 0.75e-9 * b : b == 3072 ? 1e-6 : 15.5e-6 + 0.06e-9 * b
		for (r = 0; r < 5; r++) printf "recv-late-cold %d %.12g\n", b, t * (1 + 0.01 * r) } }' >"$tmp/dip"
expect_exit 0 "fits a dip" -- trc-fit "$tmp/dip"
is "$(awk '$1 == "recv-late-cold" { lo = $2 < 1 ? 1 : $2; hi = $3 == "inf" ? 1048576 : $3
	if (!($4 + $5 * lo > 0 && $4 + $5 * hi > 0)) printf "%s %s: %.3g at %d, %.3g at %d\n", $2, $3, $4 + $5 * lo, lo, $4 + $5 * hi, hi }' "$out")" "" \
    "  every segment above zero over its sizes"

done_testing
