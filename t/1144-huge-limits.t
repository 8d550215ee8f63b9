#!/bin/sh
# The limits of issue 15 at a scale CI affords (the make target
# limits-long runs them whole: 2^21 ranks, a 200 MB line, a 10 MB value,
# 5 M unmatched sends): every tool that reads a stream gets the right
# output or its documented error, in the memory per rank present that
# trc-faults(7) gives for it.
. "$(dirname "$0")/lib.sh"

N=32768
# KB of peak memory of the command after it, its output in $out.
mem() {
	/usr/bin/time -f %M -o "$tmp/mem" "$@" >"$out" 2>"$err"
	_rc=$?
	tail -1 "$tmp/mem"
	return $_rc
}
# within NAME KB BYTES-PER-RANK [COUNT]: at most that much a rank (or
# a message, COUNT of them) and 8 MB for the program and its buffers
# (each takes 2.5 to 4 MB for a stream of 4 ranks).
within() {
	if [ -n "$TRC_SANITIZE" ]; then
		ok 0 "$1: memory not measured under the sanitizers"
		return
	fi
	_lim=$(( ${4:-$N} * $3 / 1024 + 8192 ))
	[ "$2" -le "$_lim" ]
	ok $? "$1: $2 KB, at most $3 bytes each and 8 MB ($_lim KB)"
}

# A ring of N ranks: each computes in fn=a from 0 to 1 s, sends to the
# next from 1 to 2 s, receives from the previous from 2 to 3 s.  Every
# send is in flight until the receives, as in a halo exchange.
awk -v N=$N 'BEGIN {
	printf "#trc 1 ranks=%d\n", N
	for (r = 0; r < N; r++) print "0 " r " PB fn=a"
	for (r = 0; r < N; r++) { print "1 " r " PE fn=a"; print "1 " r " SB peer=" (r + 1) % N " tag=1 bytes=8" }
	for (r = 0; r < N; r++) { print "2 " r " SE peer=" (r + 1) % N " tag=1 bytes=8"; print "2 " r " RB peer=" (r + N - 1) % N " tag=1 bytes=8" }
	for (r = 0; r < N; r++) print "3 " r " RE peer=" (r + N - 1) % N " tag=1 bytes=8" }' >"$tmp/ring.trc"
ring=$tmp/ring.trc

# trc-cat: the same events, 9 decimals; it keeps nothing per rank.
m=$(mem trc-cat "$ring")
is "$?:$(awk 'NR > 1 && $1 ~ /^[0-3]\.000000000$/ { n++ } END { print NR - 1, n }' "$out")" \
    "0:$((6 * N)) $((6 * N))" "ring of $N: trc-cat writes every event"
within "ring: trc-cat" "$m" 0

# trc-sum: each rank 6 events over 3 s, 1 s each of computation, send
# and receive.
m=$(mem trc-sum -t --section ranks "$ring")
is "$?:$(awk -F'\t' '$2 == 6 && $3 == "3.000000000" && $4 == "1.000000000" &&
    $5 == "1.000000000" && $6 == "1.000000000" && $7 == "0.000000000" { n++ }
    END { print n }' "$out")" "0:$N" "ring: trc-sum, every rank's row by hand"
within "ring: trc-sum" "$m" 400

# trc-scale, computation twice as long: fn=a ends at 2, the send takes
# its 1 s to 3, the receive its 1 s from 3 to 4 (the send was done at
# 3, so no repair).
m=$(mem trc-scale --cpu-ratio 2 "$ring")
is "$?:$(awk 'BEGIN { t["PB"] = 0; t["PE"] = 2; t["SB"] = 2; t["SE"] = 3; t["RB"] = 3; t["RE"] = 4 }
    NR > 1 { n++; bad += $1 != t[$3] ".000000000" } END { print n, bad }' "$out")" \
    "0:$((6 * N)) 0" "ring: trc-scale --cpu-ratio 2, times by hand"
within "ring: trc-scale" "$m" 1600

# trc-perturb without delays: the times stay.
m=$(mem trc-perturb "$ring")
is "$?:$(awk 'BEGIN { t["PB"] = 0; t["PE"] = 1; t["SB"] = 1; t["SE"] = 2; t["RB"] = 2; t["RE"] = 3 }
    NR > 1 { n++; bad += $1 != t[$3] ".000000000" } END { print n, bad }' "$out")" \
    "0:$((6 * N)) 0" "ring: trc-perturb, no delay, the times kept"
within "ring: trc-perturb" "$m" 1200

# trc-stable against itself: identical, N rows of 6 events.
m=$(mem trc-stable "$ring" "$ring")
is "$?:$(awk '$1 ~ /^[0-9]+$/ && $2 == 6 && $3 == 6 && $4 == 6 && $5 == 0 { n++ }
    END { print n }' "$out"):$(grep '^total' "$out" | tr -s ' ')" \
    "0:$N:total $((6 * N)) $((6 * N)) $((6 * N)) 0" "ring: trc-stable, identical, a row a rank"
grep -qx 'identical execution graphs: stable' "$out"
ok $? "ring: trc-stable says stable"
within "ring: trc-stable (two traces)" "$m" 700

# trc-loops: every rank runs the same program, peers relative.
m=$(mem trc-loops "$ring")
is "$?:$(grep '^group' "$out"):$(awk '/^group/ { g = 1 } /^rank/ { g = 0 } g && /^  E[0-9]+ / { n++ } END { print n }' "$out")" "0:group 0-$((N - 1)):6" \
    "ring: trc-loops, one group of 6 events"
within "ring: trc-loops" "$m" 1300

# trc-graph: 5 edges along each rank and one message edge.
m=$(mem trc-graph "$ring")
is "$?:$(grep -c -- '->' "$out"):$(grep -c 'color=blue' "$out")" "0:$((6 * N)):$N" \
    "ring: trc-graph, 6 edges a rank, one of them a message"
within "ring: trc-graph" "$m" 300

# trc-ratios of the ring with itself: 1 for fn=a on every rank.
m=$(mem trc-ratios "$ring" "$ring")
is "$?:$(awk '$1 == "a" && $2 ~ /^[0-9]+$/ && $3 == 1 { n++ } END { print n }' "$out")" \
    "0:$N" "ring: trc-ratios, 1 on every rank"
within "ring: trc-ratios (two traces)" "$m" 900

# The tools whose structures grow with the square of the ranks, or a
# picture with a lane each, refuse at once, naming the line.
expect_exit 2 "ring: trc-race refuses" -- trc-race "$ring"
is "$(cat "$err")" "trc-race: $ring:1: ranks=$N: trc-race takes at most 16384 ranks (vector clocks of ranks^2 entries, TRC_RACE_MAX)" \
    "ring: trc-race, its cap named"
printf '#trc 1\n0 0 SB peer=5 tag=1\n0 0 SE peer=5 tag=1\n' >"$tmp/p5.trc"
TRC_RACE_MAX=5 expect_exit 2 "TRC_RACE_MAX=5: a peer 5 refused" -- trc-race "$tmp/p5.trc"
is "$(cat "$err")" "trc-race: $tmp/p5.trc:3: rank 5: trc-race takes at most 5 ranks (vector clocks of ranks^2 entries, TRC_RACE_MAX)" \
    "TRC_RACE_MAX=5: its cap named"
TRC_RACE_MAX=6 expect_exit 0 "TRC_RACE_MAX=6: a peer 5 taken" -- trc-race "$tmp/p5.trc"
TRC_RACE_MAX=0 expect_exit 2 "TRC_RACE_MAX=0" -- trc-race "$tmp/p5.trc"
is "$(cat "$err")" "trc-race: invalid TRC_RACE_MAX '0'" "TRC_RACE_MAX=0 is no cap"
expect_exit 2 "ring: trc-cluster refuses" -- trc-cluster "$ring"
is "$(cat "$err")" "trc-cluster: $ring:1: ranks=$N: more than 8192 ranks to cluster (TRC_CLUSTER_MAX)" \
    "ring: trc-cluster, its cap named"
TRC_CLUSTER_MAX=0 expect_exit 2 "TRC_CLUSTER_MAX=0" -- trc-cluster "$ring"
is "$(cat "$err")" "trc-cluster: invalid TRC_CLUSTER_MAX '0'" "TRC_CLUSTER_MAX=0 is no cap"
# Rank 4096's first event is line 4098 (the header, then ranks 0-4095);
# the lanes it filled before take at most 210 KB each.
m=$(mem trc-svg -o "$tmp/ring.svg" "$ring")
is "$?:$(cat "$err")" "2:trc-svg: $ring:4098: more than 4096 lanes to draw (TRC_LANES_MAX): choose ranks with -r" \
    "ring: trc-svg, the lane too many named"
within "ring: trc-svg stopped at 4096 lanes, 210 KB each" "$m" 215000 4096
[ ! -e "$tmp/ring.svg" ]
ok $? "ring: trc-svg wrote no picture"
m=$(mem trc-svg -r 0-3 "$ring")
is "$?:$(grep -c 'class="lane"' "$out")" "0:4" "ring: trc-svg -r 0-3 draws 4 lanes"
within "ring: trc-svg -r 0-3" "$m" 0
printf '#trc 1 ranks=5000\n0 0 MK\n' >"$tmp/h.trc"
expect_exit 2 "ranks=5000 in the header: trc-svg refuses" -- trc-svg "$tmp/h.trc"
is "$(cat "$err")" "trc-svg: $tmp/h.trc: 5000 lanes to draw, more than 4096 (TRC_LANES_MAX): choose ranks with -r" \
    "ranks=5000: the lanes counted"
TRC_LANES_MAX=x expect_exit 2 "TRC_LANES_MAX=x" -- trc-svg "$tmp/h.trc"
is "$(cat "$err")" "trc-svg: invalid TRC_LANES_MAX 'x'" "TRC_LANES_MAX=x is no cap"
rm -f "$ring"

# trc-stable -w where rank 2,000,000 differs (it read the rank number as
# an index into the ranks compared, and crashed): its 2 events in a,
# the MK b adds after them, at b's line 4.
printf '#trc 1\n0 2000000 SB peer=0 tag=1 bytes=8\n0 2000000 SE peer=0 tag=1 bytes=8\n1 0 RB peer=2000000 tag=1 bytes=8\n1 0 RE peer=2000000 tag=1 bytes=8\n' >"$tmp/a.trc"
printf '#trc 1\n0 2000000 SB peer=0 tag=1 bytes=8\n0 2000000 SE peer=0 tag=1 bytes=8\n0 2000000 MK\n1 0 RB peer=2000000 tag=1 bytes=8\n1 0 RE peer=2000000 tag=1 bytes=8\n' >"$tmp/b.trc"
trc-stable -w "$tmp/a.trc" "$tmp/b.trc" >"$out" 2>"$err"
is "$?:$(sed -n '/^rank 2000000:/,$p' "$out")" "1:rank 2000000:
@@ -3,0 +3,1 @@
  $tmp/a.trc:2: 0.000000000 2000000 SB peer=0 tag=1 bytes=8
  $tmp/a.trc:3: 0.000000000 2000000 SE peer=0 tag=1 bytes=8
+ $tmp/b.trc:4: 0.000000000 2000000 MK" "trc-stable -w, rank 2000000: the MK added, with its context"

# 200000 sends from rank 0 that no receive takes (limits-long: 5 M):
# past TRC_MSG_MAX=100000 every tool that matches names the first, at
# line 3 (its SE), tag 0.
awk 'BEGIN { print "#trc 1 ranks=2"; for (i = 0; i < 200000; i++) {
	t = i * 1000; printf "%.9f 0 SB peer=1 tag=%d bytes=8\n%.9f 0 SE peer=1 tag=%d bytes=8\n", t / 1e9, i % 3, (t + 1) / 1e9, i % 3 } }' >"$tmp/u.trc"
u=$tmp/u.trc
msg="$u:3: send to rank 1 tag 0 comm 0 still unmatched with 100001 messages in flight (TRC_MSG_MAX)"
TRC_MSG_MAX=100000 expect_exit 2 "unmatched: trc-stable past the cap" -- trc-stable "$u" "$u"
is "$(cat "$err")" "trc-stable: $msg" "unmatched: trc-stable names the oldest"
TRC_MSG_MAX=100000 expect_exit 2 "unmatched: trc-graph past the cap" -- trc-graph "$u"
is "$(cat "$err")" "trc-graph: $msg" "unmatched: trc-graph names the oldest"
TRC_MSG_MAX=100000 expect_exit 2 "unmatched: trc-race past the cap" -- trc-race "$u"
is "$(cat "$err")" "trc-race: $msg" "unmatched: trc-race names the oldest"
TRC_MSG_MAX=100000 expect_exit 2 "unmatched: trc-svg past the cap" -- trc-svg "$u"
is "$(cat "$err")" "trc-svg: $msg" "unmatched: trc-svg names the oldest"
TRC_MSG_MAX=100000 expect_exit 2 "unmatched: trc-perturb past the cap" -- trc-perturb "$u"
is "$(tail -1 "$err")" "trc-perturb: $msg" "unmatched: trc-perturb names the oldest"
for p in "trc-stable $u" trc-graph trc-race trc-svg; do
	TRC_MSG_MAX=1x expect_exit 2 "TRC_MSG_MAX=1x: ${p%% *}" -- $p "$u"
	is "$(cat "$err")" "${p%% *}: invalid TRC_MSG_MAX '1x'" "TRC_MSG_MAX=1x: ${p%% *} says so"
done
# Under the default cap (4M): the same runs compared, in about 100
# bytes a message in flight for each of the two traces.
m=$(mem trc-stable "$u" "$u")
is "$?:$(grep '^total' "$out" | tr -s ' ')" "0:total 400000 400000 400000 0" \
    "unmatched, under the cap: trc-stable compares"
within "unmatched: trc-stable" "$m" 200 200000
m=$(mem trc-graph "$u")
is "$?:$(grep -c -- '->' "$out")" "0:399999" "unmatched, under the cap: trc-graph, the rank's edges alone"
within "unmatched: trc-graph" "$m" 100 200000
rm -f "$u"

# A 10 MiB attribute value through the tools t/1141 leaves out: each
# reads it; trc-loops, which writes events in fixed buffers, refuses it
# by name (trc(5)).
awk 'BEGIN { s = "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"
	while (length(s) < 1048576) s = s s
	print "#trc 1 ranks=2"; print "0 0 PB fn=a"; print "0 1 MK"
	printf "1 0 PE fn=a note="; for (i = 0; i < 10; i++) printf "%s", s
	print ""; print "2 1 MK" }' >"$tmp/attr.trc"
a=$tmp/attr.trc
trc-stable "$a" "$a" >"$out" 2>"$err"
is "$?:$(tail -1 "$out")" "0:identical execution graphs: stable" "10 MB value: trc-stable"
trc-perturb "$a" >"$out" 2>"$err"
is "$?:$(awk 'NR == 4 { print length($0) }' "$out")" "0:$((27 + 10485760 + 15))" \
    "10 MB value: trc-perturb writes it whole, t0= after it"
trc-race "$a" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "10 MB value: trc-race"
trc-graph "$a" >"$out" 2>"$err"
is "$?:$(grep -c -- '->' "$out")" "0:2" "10 MB value: trc-graph, 2 edges"
trc-cluster "$a" >"$out" 2>"$err"
is "$?:$(grep -c '^#group' "$out")" "0:2" "10 MB value: trc-cluster, rank 0 computes, rank 1 does not"
trc-ratios "$a" "$a" >"$out" 2>"$err"
is "$?:$(awk '$1 == "a" && $2 == "all" { print $3 }' "$out")" "0:1" "10 MB value: trc-ratios"
trc-bench "$a" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "10 MB value: trc-bench"
trc-svg "$a" >"$out" 2>"$err"
is "$?:$(grep -c 'class="lane"' "$out")" "0:2" "10 MB value: trc-svg, 2 lanes"
expect_exit 2 "10 MB value: trc-loops refuses" -- trc-loops "$a"
is "$(cat "$err")" "trc-loops: $a:4: event longer than 65536 bytes" "10 MB value: trc-loops names the line"
done_testing
