#!/bin/sh
# trc-sum against a hand-computed example and an independent awk pass.
. "$(dirname "$0")/lib.sh"

# By hand: rank 0 computes 1 s in A (with 0.5 s of B inside), sends
# for 0.25 s, waits 0.25 s; rank 1 receives 2 s after posting.
cat > "$tmp/hand.trc" <<'T'
#trc 1 ranks=2
0 0 PB fn=A
0 1 RB peer=0 tag=1 bytes=100
0.25 0 PB fn=B
0.75 0 PE fn=B
1 0 PE fn=A
1 0 SB peer=1 tag=1 bytes=100 req=0
1.25 0 SE peer=1 tag=1 bytes=100 req=0
1.25 0 WB req=0 op=wait
1.5 0 WE req=0 op=wait
2 1 RE peer=0 tag=1 bytes=100
2 1 XB op=barrier
2.5 1 XE op=barrier
T
trc-sum -t "$tmp/hand.trc" > "$out"
cat > "$tmp/want" <<'T'
rank	events	total	comp	send	recv	wait	coll
0	8	1.500000000	1.000000000	0.250000000	0.000000000	0.250000000	0.000000000
1	4	2.500000000	0.000000000	0.000000000	2.000000000	0.000000000	0.500000000

procedure	rank	count	total	mean	min	max	comp	max/min	cv
A	0	1	1.000000000	1.000000000	1.000000000	1.000000000	0.500000000	1	0.000000
B	0	1	0.500000000	0.500000000	0.500000000	0.500000000	0.500000000	1	0.000000

operation	count	bytes	time	mean
isend	1	100	0.250000000	0.250000000
recv	1	100	2.000000000	2.000000000
wait	1	0	0.250000000	0.250000000
barrier	1	0	0.500000000	0.500000000

min	max	messages	bytes
64	127	1	100
T
is_file "$out" "$tmp/want" "the hand-computed example, -t"
trc-sum -t --section procs "$tmp/hand.trc" | head -2 | tail -1 > "$out"
is "$(cat "$out")" "A	0	1	1.000000000	1.000000000	1.000000000	1.000000000	0.500000000	1	0.000000" "-s procs"
trc-sum "$tmp/hand.trc" > "$out"
grep -q '^all  *12 *2\.500 s *1\.000 s *250\.000 ms *2\.000 s *250\.000 ms *500\.000 ms$' "$out"
ok $? "the human table has an 'all' row, each time in the unit that suits it"

# An independent pass in awk over every pattern, in integer nanoseconds.
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 5 -i 30 -s 3 > "$tmp/g.trc"
	awk '
	/^#/ { next }
	{
		split($1, f, "."); t = f[1] * 1000000000 + substr(f[2] "000000000", 1, 9)
		r = $2; k = $3; req = ($0 ~ / req=/)
		if (!(r in n)) { first[r] = t; cur[r] = "comp"; last[r] = t }
		if (r + 1 > nr) nr = r + 1
		a[r, cur[r]] += t - last[r]; last[r] = t; n[r]++
		if (k == "SB") cur[r] = "send"
		else if (k == "RB" && !req) cur[r] = "recv"
		else if (k == "WB") cur[r] = "wait"
		else if (k == "XB") cur[r] = "coll"
		else if (k == "SE" || k == "WE" || k == "XE" || (k == "RE" && cur[r] == "recv")) cur[r] = "comp"
	}
	END {
		for (r = 0; r < nr; r++) {
			printf "%d\t%d\t%.0f", r, n[r], last[r] - first[r]
			split("comp send recv wait coll", c, " ")
			for (i = 1; i <= 5; i++) printf "\t%.0f", a[r, c[i]]
			printf "\n"
		}
	}' "$tmp/g.trc" > "$tmp/want"
	trc-sum -t --section ranks "$tmp/g.trc" | awk -F'\t' 'NR > 1 {
		printf "%s\t%s", $1, $2
		for (i = 3; i <= 8; i++) { split($i, f, "."); printf "\t%.0f", f[1] * 1e9 + f[2] }
		printf "\n" }' > "$out"
	is_file "$out" "$tmp/want" "$p: per-rank times agree with awk to the nanosecond"
	is "$(trc-sum -t --section ops "$tmp/g.trc" | awk -F'\t' 'NR > 1 { c += $2; b += $3 } END { print c, b }')" \
	   "$(awk '$3 == "SE" || $3 == "RE" || $3 == "WE" || $3 == "XE" { c++; if (match($0, /bytes=[0-9]+/)) b += substr($0, RSTART + 6, RLENGTH - 6) } END { print c, b }' "$tmp/g.trc")" \
	   "$p: operation counts and bytes agree with awk"
done

# Variability per occurrence: lifetimes 1, 2 and 6 s have mean 3,
# population deviation sqrt((4 + 1 + 9) / 3) = 2.160247, cv 0.720082,
# max/min 6; one occurrence has cv 0.
printf '#trc 1\n0 0 PB fn=V\n1 0 PE fn=V\n1 0 PB fn=V\n3 0 PE fn=V\n3 0 PB fn=V\n9 0 PE fn=V\n' > "$tmp/v.trc"
is "$(trc-sum -t --section procs "$tmp/v.trc" | cut -f1,3,9,10 | tail -1)" "V	3	6	0.720082" "max/min and cv of the lifetimes, by hand"
trc-sum --section procs "$tmp/v.trc" > "$out"
grep -q '^V  *0  *3 .*  *6\.00  *0\.72$' "$out"; ok $? "  for people"

# Regions that do not nest are an error naming the line.
printf '#trc 1\n0 0 PB fn=A\n1 0 PB fn=B\n2 0 PE fn=A\n' > "$tmp/bad.trc"
expect_exit 2 "crossed regions: exit 2" -- trc-sum "$tmp/bad.trc"
is "$(cat "$err")" "trc-sum: $tmp/bad.trc:4: PE fn='A' closes region 'B'" "crossed regions: message"
# Names compared a word at a time (summary.c, same_bytes): a PE whose
# label differs from its PB's in one byte, first or last, or is one
# longer or shorter, at every length up to 17, closes another region.
bad=
for n in 1 2 3 4 5 7 8 9 15 16 17; do
	name=$(printf '%*s' $n '' | tr ' ' a)
	for pe in "b${name#a}" "${name%a}b" "${name}a" "${name#a}"; do
		[ -n "$pe" ] || continue
		printf '#trc 1\n0 0 PB fn=%s\n1 0 PE fn=%s\n' "$name" "$pe" > "$tmp/bad.trc"
		trc-sum "$tmp/bad.trc" > /dev/null 2> "$err"
		[ "$?:$(cat "$err")" = "2:trc-sum: $tmp/bad.trc:3: PE fn='$pe' closes region '$name'" ] ||
		    bad="$bad $name/$pe"
	done
	printf '#trc 1\n0 0 PB fn=%s\n1 0 PE fn=%s\n' "$name" "$name" > "$tmp/ok.trc"
	trc-sum -t --section procs "$tmp/ok.trc" > "$out" 2>&1 &&
	    [ "$(cut -f1,3 "$out" | tail -1)" = "$name	1" ] || bad="$bad $name"
done
is "$bad" "" "a label one byte off closes another region, at lengths 1 to 17"
# Labels and operations that alternate (the last two are remembered):
# 'task1' and 'task2' three times each, op= 'bcastx' and 'bcasty'.
printf '#trc 1\n' > "$tmp/alt.trc"
for i in 0 1 2; do
	printf '%d 0 PB fn=task1\n%d 0 PE fn=task1\n%d 0 PB fn=task2\n%d 0 PE fn=task2\n' \
	    $((4 * i)) $((4 * i + 1)) $((4 * i + 2)) $((4 * i + 3)) >> "$tmp/alt.trc"
done
for i in 0 1 2; do
	printf '%d 0 XB op=bcastx\n%d 0 XE op=bcastx\n%d 0 XB op=bcasty\n%d 0 XE op=bcasty\n' \
	    $((12 + 4 * i)) $((12 + 4 * i)) $((12 + 4 * i + 2)) $((12 + 4 * i + 3)) >> "$tmp/alt.trc"
done
is "$(trc-sum -t --section procs "$tmp/alt.trc" | cut -f1,3,4 | tail -2 | tr '\n' ' ')" \
    "task1	3	3.000000000 task2	3	3.000000000 " "alternating labels: 3 of 1 s each"
is "$(trc-sum -t --section ops "$tmp/alt.trc" | grep bcast | cut -f1,2,4 | tr '\n' ' ')" \
    "bcastx	3	0.000000000 bcasty	3	3.000000000 " "alternating operations: 3 each, bcasty 1 s each"
printf '#trc 1\n0 0 PE fn=A\n' > "$tmp/bad.trc"
expect_exit 2 "unopened region: exit 2" -- trc-sum "$tmp/bad.trc"
is "$(cat "$err")" "trc-sum: $tmp/bad.trc:2: PE fn='A' with no open region" "unopened region: message"
printf '#trc 1\n0 0 PB fn=A\n' > "$tmp/bad.trc"
expect_exit 2 "unclosed region: exit 2" -- trc-sum "$tmp/bad.trc"
is "$(cat "$err")" "trc-sum: $tmp/bad.trc: rank 0: region 'A' not closed at the end" "unclosed region: message"
printf '#trc 1\n0.5 0 SB\n0.1 0 SE\n' > "$tmp/bad.trc"
expect_exit 2 "reader errors pass through" -- trc-sum "$tmp/bad.trc"
expect_exit 2 "bad section" -- trc-sum --section everything "$tmp/hand.trc"
is "$(cat "$err")" "trc-sum: invalid section list 'everything'" "bad section: message"
expect_exit 2 "two files" -- trc-sum "$tmp/hand.trc" "$tmp/hand.trc"
# A rank near 2^31 in a stream without ranks=: the per-rank tables
# would need more than any memory, which is said, not looped on (the
# sanitizer's allocator told to say so too).
for r in 1073741824 2147483647; do
	printf '#trc 1\n0.5 %s MK\n' "$r" >"$tmp/big.trc"
	expect_exit 2 "rank $r: exit 2" -- env ASAN_OPTIONS=allocator_may_return_null=1 timeout 60 trc-sum "$tmp/big.trc"
	is "$(cat "$err")" "trc-sum: $tmp/big.trc:2: out of memory for the rows of ranks up to $r" "  said"
done
# An order=none stream whose rank goes back in time: refused, not
# summed into negative durations.
printf '#trc 1 order=none\n1.0 0 PB fn=A\n0.5 0 PE fn=A\n' >"$tmp/on.trc"
expect_exit 2 "order=none, a rank backwards: exit 2" -- trc-sum "$tmp/on.trc"
is "$(cat "$err")" "trc-sum: $tmp/on.trc:3: time goes backwards on rank 0 (order=none streams must keep each rank's events in time order)" "  said"
is "$(cat "$out")" "" "  nothing printed"
# Ends without their begins took no time of their own: two sends, the
# first 0.0001 s from its SB, the second without one (5 s after the
# first's SB, which must not count).
printf '#trc 1\n0 0 SB peer=1 tag=1\n0.0001 0 SE peer=1 tag=1\n5 0 MK\n5.0001 0 SE peer=1 tag=1\n5.5 0 RE peer=1 tag=1\n6 0 WE op=wait\n' >"$tmp/nob.trc"
expect_exit 0 "ends without begins" -- trc-sum -t --section ops "$tmp/nob.trc"
is "$(awk -F'\t' 'NR > 1 { print $1, $2, $4 }' "$out")" "send 2 0.000100000
recv 1 0.000000000
wait 1 0.000000000" "  no time of their own"
# Ranks' times whose sum passes 2^63 ns: said before anything is printed.
printf '#trc 1\n0.0 0 MK\n0.0 1 MK\n5000000000.0 0 MK\n5000000000.0 1 MK\n' >"$tmp/ov.trc"
expect_exit 2 "sums past the clock" -- trc-sum "$tmp/ov.trc"
is "$(cat "$err")" "trc-sum: $tmp/ov.trc: the ranks' times summed overflow the clock (over 292 years)" "  said"
is "$(cat "$out")" "" "  nothing printed"
done_testing
