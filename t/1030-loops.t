#!/bin/sh
# trc-loops: a hand-made nested loop and a rank-relative ring, their
# compressed forms written by hand from trc-loops(5); expansion gives
# the same execution graph, the same times when lossless and the same
# rank totals from statistics; trc-gen's patterns; bad input.
. "$(dirname "$0")/lib.sh"

# ---- Nested: 3 times (a marker, 2 times a region, a barrier), every
# event 1 ms after the one before.
awk 'BEGIN {
	print "#trc 1 ranks=1 order=time"
	for (k = 1; k <= 3; k++) {
		ev("MK iter=" k)
		for (j = 0; j < 2; j++) { ev("PB fn=a"); ev("PE fn=a") }
		ev("XB op=barrier"); ev("XE op=barrier")
	}
}
function ev(s) { t++; printf "0.%03d000000 0 %s\n", t, s }' > "$tmp/nested.trc"
cat > "$tmp/nested.want" <<'EOF'
#trc-loops 1 ranks=1 order=time timing=stats
group 0
  loop 3
    E0 MK iter=@v
    loop 2
      E1 PB fn=a
      E2 PE fn=a
    end
    E3 XB op=barrier
    E4 XE op=barrier
  end
rank 0
  E0 n=3 dt=1000000+0 v=1+1
  E1 n=6 dt=1000000+0
  E2 n=6 dt=1000000+0
  E3 n=3 dt=1000000+0
  E4 n=3 dt=1000000+0
EOF
expect_exit 0 "nested: exit 0" -- trc-loops "$tmp/nested.trc"
is_file "$out" "$tmp/nested.want" "nested: the loops written by hand"
cp "$out" "$tmp/nested.loops"
expect_exit 0 "nested: -x exits 0" -- trc-loops -x "$tmp/nested.loops"
is_file "$out" "$tmp/nested.trc" "nested: -x gives the stream back, byte for byte"

# ---- Ring: 4 ranks, 3 times SB to rank+1, SE, RB from rank-1, RE,
# each 1 ms after the one before; in the second round rank r's RE comes
# r us late, so its time and the next SB's are no progression.
awk 'BEGIN {
	print "#trc 1 ranks=4 order=time"
	split("SB SE RB RE", kind, " ")
	for (k = 0; k < 3; k++)
		for (e = 1; e <= 4; e++)
			for (r = 0; r < 4; r++) {
				us = (4 * k + e) * 1000 + (e == 4 && k == 1 ? r : 0)
				peer = e <= 2 ? (r + 1) % 4 : (r + 3) % 4
				printf "0.%06d000 %d %s peer=%d tag=0 bytes=8\n", us, r, kind[e], peer
			}
}' > "$tmp/ring.trc"
# Rank r's SB times: 1, 1, 1 - r/1000 ms; its RE times 1, 1 + r/1000, 1.
cat > "$tmp/ring.want" <<'EOF'
#trc-loops 1 ranks=4 order=time timing=stats
group 0-3
  loop 3
    E0 SB peer=@+1 tag=0 bytes=8
    E1 SE peer=@+1 tag=0 bytes=8
    E2 RB peer=@-1 tag=0 bytes=8
    E3 RE peer=@-1 tag=0 bytes=8
  end
rank 0
  E0 n=3 dt=1000000+0
  E1 n=3 dt=1000000+0
  E2 n=3 dt=1000000+0
  E3 n=3 dt=1000000+0
rank 1
  E0 n=3 sum=0.002999000 mean=0.000999666 min=0.000999000 max=0.001000000 first=0.001000000
  E1 n=3 dt=1000000+0
  E2 n=3 dt=1000000+0
  E3 n=3 sum=0.003001000 mean=0.001000333 min=0.001000000 max=0.001001000 first=0.001000000
rank 2
  E0 n=3 sum=0.002998000 mean=0.000999333 min=0.000998000 max=0.001000000 first=0.001000000
  E1 n=3 dt=1000000+0
  E2 n=3 dt=1000000+0
  E3 n=3 sum=0.003002000 mean=0.001000666 min=0.001000000 max=0.001002000 first=0.001000000
rank 3
  E0 n=3 sum=0.002997000 mean=0.000999000 min=0.000997000 max=0.001000000 first=0.001000000
  E1 n=3 dt=1000000+0
  E2 n=3 dt=1000000+0
  E3 n=3 sum=0.003003000 mean=0.001001000 min=0.001000000 max=0.001003000 first=0.001000000
EOF
expect_exit 0 "ring: exit 0" -- trc-loops "$tmp/ring.trc"
is_file "$out" "$tmp/ring.want" "ring: one program for 4 ranks, peers relative, written by hand"
trc-loops -x "$tmp/ring.want" > "$tmp/ring.x"
trc-stable -q "$tmp/ring.trc" "$tmp/ring.x"
ok $? "ring: -x from statistics, execution graphs identical"
# Rank 1's SB: the first at 1 ms, the other two share 1.999 ms; its
# RE: the first 1 ms, the others 1.0005 ms each.
is "$(awk '$2 == 1 && $3 == "SB" { print $1 }' "$tmp/ring.x" | tr '\n' ' ')" \
    "0.001000000 0.004999500 0.008999500 " "ring: the first time, then equal shares"
sum_ranks() {
	trc-sum --section ranks -t "$1" | awk -F'\t' '$1 ~ /^[0-9]+$/ { print $1, $2, $3 }'
}
sum_ranks "$tmp/ring.trc" > "$tmp/tot.want"
sum_ranks "$tmp/ring.x" > "$tmp/tot.got"
is_file "$tmp/tot.got" "$tmp/tot.want" "ring: every rank's events and total time as the original's"
trc-loops --lossless "$tmp/ring.trc" > "$tmp/ring.ll"
ok $? "ring: --lossless exits 0"
is "$(sed -n 's/^  E0 n=3 dt=//p' "$tmp/ring.ll" | tr '\n' ' ')" \
    "1000000+0 1000000,1000000,999000 1000000,1000000,998000 1000000,1000000,997000 " \
    "ring: --lossless keeps SB's times, a progression or every one"
trc-loops -x "$tmp/ring.ll" > "$tmp/ring.lx"
is_file "$tmp/ring.lx" "$tmp/ring.trc" "ring: -x of --lossless gives the stream back, byte for byte"

# ---- trc-gen's patterns: graphs identical, lossless the same events.
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 6 -e 20000 > "$tmp/g.trc"
	trc-loops "$tmp/g.trc" > "$tmp/g.loops" && trc-loops -x "$tmp/g.loops" > "$tmp/g.x"
	trc-stable -q "$tmp/g.trc" "$tmp/g.x"
	ok $? "trc-gen -p $p: -x from statistics has an identical graph"
	sum_ranks "$tmp/g.trc" > "$tmp/tot.want"
	sum_ranks "$tmp/g.x" > "$tmp/tot.got"
	is_file "$tmp/tot.got" "$tmp/tot.want" "trc-gen -p $p: rank totals kept"
	trc-loops --lossless "$tmp/g.trc" | trc-loops -x | sort > "$tmp/g.lx"
	trc-cat "$tmp/g.trc" | sort | cmp -s - "$tmp/g.lx"
	ok $? "trc-gen -p $p: --lossless -x, the same lines"
done
trc-gen -p ring -n 8 -e 4000 > "$tmp/r1.trc"
trc-gen -p ring -n 8 -e 40000 > "$tmp/r10.trc"
a=$(trc-loops "$tmp/r1.trc" | wc -c) b=$(trc-loops "$tmp/r10.trc" | wc -c)
[ $((b * 10)) -le $((a * 12)) ]
ok $? "trc-gen ring, 10 times the events: $b bytes against $a, at most 1.2 times"
# The master's wildcard receives: sources kept (@p), replies to them
# (@w), so its loop is found.
trc-gen -p master-worker -n 8 -e 30000 > "$tmp/mw.trc"
trc-loops "$tmp/mw.trc" > "$tmp/mw.loops"
cat > "$tmp/mw.want" <<'EOF'
group 0
  loop N
    E0 RB peer=* tag=1 bytes=4096
    E1 RE peer=@p tag=1 bytes=4096
    E2 PB fn=collect
    E3 PE fn=collect
    E4 SB peer=@w tag=2 bytes=4096
    E5 SE peer=@w tag=2 bytes=4096
  end
EOF
sed -n '/^group 0$/,/^  end$/p' "$tmp/mw.loops" | sed '2s/loop [0-9]*$/loop N/' > "$tmp/mw.got"
is_file "$tmp/mw.got" "$tmp/mw.want" \
    "master-worker: the master's loop, RB peer=*, RE peer=@p, SB and SE peer=@w"
[ $(($(wc -c < "$tmp/mw.loops") * 20)) -le "$(wc -c < "$tmp/mw.trc")" ]
ok $? "master-worker: at most a twentieth of the text"
trc-cat --to trcb "$tmp/nested.trc" > "$tmp/nested.trcb"
trc-loops "$tmp/nested.trcb" > "$tmp/nb.loops"
is_file "$tmp/nb.loops" "$tmp/nested.want" "reads trcb as text"

# ---- Values holding '=' and '@' past their start are literal: only a
# value's first byte starts a placeholder (trc-loops(5)).  libFuzzer's
# stream (fuzz/regress/loops/compressed-does-not-expand) has the value
# "-0'y=@tag00", which the reader took for a placeholder "@t", so its
# description did not expand; "a=@+1" expanded to "a=1", silently.
# Its header word "rank\377...s=3" is no key a reader knows (dropped,
# as by trc-cat); the expansion is in time order.
tail -n +2 "$T/../fuzz/regress/loops/compressed-does-not-expand" > "$tmp/at.trc"
cat > "$tmp/at.want" <<'EOF'
#trc 1 order=rank
# a comment kept as a header line
#clock source=test
0.000000001 0 MK
0.000000002 0 MK iter=9223ter=-1 low=1
0.500000000 2 SB peer=007 tag=05 bytes=4096 x=-0'y=@tag00 z=-12 reqQ=3
EOF
expect_exit 0 "'=@' in a value: compresses" -- trc-loops "$tmp/at.trc"
cp "$out" "$tmp/at.loops"
expect_exit 0 "'=@' in a value: -x exits 0" -- trc-loops -x "$tmp/at.loops"
is_file "$out" "$tmp/at.want" "'=@' in a value: -x gives the events back"
cat > "$tmp/at2.trc" <<'EOF'
#trc 1 ranks=4 order=time
0.000000001 1 MK x=a=@+1 y=b=@w z=@v=@v w=@@ u=@ q=c=@p
0.000000003 1 MK x=a=@+1 y=b=@w z=@v=@v w=@@ u=@ q=c=@p
EOF
for mode in "" --lossless; do
	trc-loops $mode "$tmp/at2.trc" > "$tmp/at2.loops"
	expect_exit 0 "'=@' in values${mode:+, $mode}: -x exits 0" -- \
	    trc-loops -x "$tmp/at2.loops"
	is_file "$out" "$tmp/at2.trc" \
	    "'=@' in values${mode:+, $mode}: -x gives the events back"
done

# ---- @v values near the 64-bit limits: B = 2^63 - 9, the largest
# integer the stream reader takes (lib/parse.c).  B, 0, -B is a
# progression of stride -B, though 2 * -B is past the range; B, -B, B
# has no stride that fits (2B), kept whole when lossless; B + B is a
# sum no statistics can say: an error at the event that made the loop
# (libFuzzer: signed overflow in series_merge), in either mode.
M=9223372036854775799
printf '#trc 1 ranks=1 order=time\n0.000000001 0 MK v=%s\n0.000000002 0 MK v=0\n0.000000003 0 MK v=-%s\n' \
    $M $M > "$tmp/big1.trc"
printf '#trc 1 ranks=1 order=time\n0.000000001 0 MK v=%s\n0.000000002 0 MK v=-%s\n0.000000003 0 MK v=%s\n' \
    $M $M $M > "$tmp/big2.trc"
for mode in "" --lossless; do
	trc-loops $mode "$tmp/big1.trc" > "$tmp/big1.loops"
	grep -q "^  E0 n=3 dt=1+0 v=$M-$M\$" "$tmp/big1.loops"
	ok $? "B, 0, -B${mode:+, $mode}: a progression of stride -B"
	expect_exit 0 "B, 0, -B${mode:+, $mode}: -x exits 0" -- trc-loops -x "$tmp/big1.loops"
	is_file "$out" "$tmp/big1.trc" "B, 0, -B${mode:+, $mode}: -x gives the events back"
done
trc-loops --lossless "$tmp/big2.trc" > "$tmp/big2.loops"
grep -q "^  E0 n=3 dt=1+0 v=$M,-$M,$M\$" "$tmp/big2.loops"
ok $? "B, -B, B, --lossless: every value"
expect_exit 0 "B, -B, B, --lossless: -x exits 0" -- trc-loops -x "$tmp/big2.loops"
is_file "$out" "$tmp/big2.trc" "B, -B, B, --lossless: -x gives the events back"
printf '#trc 1 ranks=1 order=time\n0.000000001 0 MK v=%s\n0.000000002 0 MK v=%s\n' $M $M > "$tmp/big3.trc"
for mode in "" --lossless; do
	expect_exit 2 "B + B${mode:+, $mode}: exit 2" -- trc-loops $mode "$tmp/big3.trc"
	is "$(cat "$err")" "trc-loops: $tmp/big3.trc:3: the values of 'MK v=@v' sum past the 64-bit range" \
	    "B + B${mode:+, $mode}: message"
done
M=9223372036854775807	# 2^63 - 1
# A description trc-loops did not write: values past the range of
# 64 bits (M = 2^63 - 1).
# big NAME TEMPLATE DATA [MESSAGE]: $tmp/big.loops, rank 1 running
# TEMPLATE twice with DATA, fails -x at the template's line, 4, with
# MESSAGE, by default that of a value past the range.
big() {
	printf '#trc-loops 1 order=time timing=stats\ngroup 1\n  loop 2\n    E0 %s\n  end\nrank 1\n  E0 n=2 %s\n' \
	    "$2" "$3" > "$tmp/big.loops"
	expect_exit 2 "-x, $1: exit 2" -- trc-loops -x "$tmp/big.loops"
	is "$(cat "$err")" "trc-loops: $tmp/big.loops:4: rank 1: E0: ${4:-a value or time past the 64-bit range}" \
	    "-x, $1: message"
}
big "M + 1 in a progression" "MK v=@v" "dt=1+0 v=$M+1"
big "a sum less its first past the range" "MK" \
    "sum=-9223372036.854775807 mean=0.000000000 min=0.000000000 max=0.000000000 first=9223372036.854775807"
big "a time past the range" "MK" "dt=$M+0"
big "a peer past the range" "SB peer=@+$M" "dt=1+0"
big "a request past the range" "SB req=@r+$M,+1" "dt=1+0"
# Times whose first is more than their sum: the second would come 800 ns
# before the first (libFuzzer: an expansion that went back in time,
# fuzz/regress/loops/first-past-sum).
big "a first more than its sum" "MK" \
    "sum=0.000000100 mean=0.000000050 min=0.000000000 max=0.000000900 first=0.000000900" \
    "a time before the rank's time before"

# ---- Bad input.
printf '#trc 1 order=none\n0.1 0 MK\n' > "$tmp/none.trc"
expect_exit 2 "order=none: exit 2" -- trc-loops "$tmp/none.trc"
is "$(cat "$err")" "trc-loops: $tmp/none.trc: a stream of order=none has no times per rank in order" \
    "order=none: message"
# desc NAME LINE MESSAGE: the description in $tmp/d.loops fails -x.
desc() {
	expect_exit 2 "-x, $1: exit 2" -- trc-loops -x "$tmp/d.loops"
	is "$(cat "$err")" "trc-loops: $tmp/d.loops:$2: $3" "-x, $1: message"
}
printf '#trc 1 ranks=1\n' > "$tmp/d.loops"
desc "no header" 1 "missing '#trc-loops 1' header"
# A '#h' line holds a '#' line of the stream's header, nothing else
# (libFuzzer's '#h 1 raeank' expanded to an event line).
printf '#trc-loops 1 order=time timing=stats\n#h 1 raeank\n' > "$tmp/d.loops"
desc "#h without #" 2 "'#h' holds no '#' line of the stream's header"
sed 's/^  loop 3/  loop x/' "$tmp/nested.want" > "$tmp/d.loops"
desc "bad loop count" 3 "invalid loop count 'x'"
sed '11d' "$tmp/nested.want" > "$tmp/d.loops"
desc "loop without end" 11 "'loop' without 'end'"
sed 's/^  E0 n=3 dt=1000000+0 v=1+1/  E0 n=3 dt=1000000+0 v=1+1 w=2/' "$tmp/nested.want" > "$tmp/d.loops"
desc "unknown field" 13 "unknown field 'w'"
# A template that makes no valid event (libFuzzer's 'ReB', in
# fuzz/regress/loops) is an error at its line, not a bad stream written.
sed 's/^      E1 PB fn=a/      E1 PXB fn=a/' "$tmp/nested.want" > "$tmp/d.loops"
desc "bad kind" 6 "rank 0: E1 gives an invalid event: unknown kind 'PXB'"
# A placeholder is its value whole: "@vx" used a value its template
# was not counted for, past the rank's data (a crash).
sed -e 's/^    E0 MK iter=@v$/    E0 MK iter=@vx/' \
    -e 's/^  E0 n=3 dt=1000000+0 v=1+1$/  E0 n=3 dt=1000000+0/' \
    "$tmp/nested.want" > "$tmp/d.loops"
desc "@vx" 4 "bad template 'MK iter=@vx'"
sed 's/^      E1 PB fn=a/      E1 PB fn=@wx/' "$tmp/nested.want" > "$tmp/d.loops"
desc "@wx" 6 "bad template 'PB fn=@wx'"
# Times given twice (libFuzzer: the first list leaked,
# fuzz/regress/loops/dt-twice).
sed 's/^  E1 n=6 dt=1000000+0$/  E1 n=6 dt=1,2,3,4,5,6 dt=1000000+0/' "$tmp/nested.want" > "$tmp/d.loops"
desc "dt twice" 14 "E1: times given twice"
sed 's/^  E1 n=6/  E1 n=5/' "$tmp/nested.want" > "$tmp/d.loops"
expect_exit 2 "-x, count: exit 2" -- trc-loops -x "$tmp/d.loops"
is "$(cat "$err")" "trc-loops: $tmp/d.loops: rank 0: E1 runs other than its n= times" "-x, count: message"
sed 's/^rank 0/rank 1/' "$tmp/nested.want" > "$tmp/d.loops"
desc "rank not in the group" 12 "rank '1' not in the group"
# A group's ranks as ranges in any order; each rank in one group, with
# its data once.
ring_group() {	# RANKS [SED]: ring.want with its group line RANKS
	sed -e "s/^group 0-3\$/group $1/" ${2:+-e "$2"} "$tmp/ring.want" > "$tmp/d.loops"
}
ring_group "2-3,0-1"
expect_exit 0 "-x, ranks 2-3,0-1: exit 0" -- trc-loops -x "$tmp/d.loops"
is_file "$out" "$tmp/ring.x" "-x, ranks 2-3,0-1: as 0-3"
ring_group "0-2,2-3"
desc "ranks twice in the group" 2 "rank 2 twice in the group"
# A rank past the header's ranks= would write a stream its readers
# refuse (libFuzzer: fuzz/regress/loops/rank-past-ranks).
ring_group "0-4"
desc "rank past ranks=" 2 "rank 4 out of range (ranks=4)"
ring_group "0-4" 's/ ranks=4//'
expect_exit 2 "-x, a rank without data: exit 2" -- trc-loops -x "$tmp/d.loops"
is "$(cat "$err")" "trc-loops: $tmp/d.loops: rank 4 has no data" "-x, a rank without data: message"
ring_group "0-3" 's/^rank 3$/rank 2/'
desc "data twice" 24 "rank 2 given data twice"
sed '$d' "$tmp/nested.want" > "$tmp/d.loops"
desc "data cut short" 17 "rank data ends before E4"
expect_exit 2 "-x, no file: exit 2" -- trc-loops -x "$tmp/nonexistent"
is "$(cat "$err")" "trc-loops: $tmp/nonexistent: No such file or directory" "-x, no file: message"
expect_exit 2 "--window 1: exit 2" -- trc-loops --window 1 "$tmp/ring.trc"
expect_exit 2 "two files: exit 2" -- trc-loops "$tmp/ring.trc" "$tmp/ring.trc"
done_testing
