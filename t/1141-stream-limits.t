#!/bin/sh
# Limits of the stream (issue 15, trc(5) "Limits"): a line of 200 MB
# and an attribute value of 10 MB read and written whole, in memory
# that grows with the line; past TRC_LINE_MAX a named error.
. "$(dirname "$0")/lib.sh"

# One event whose x= is 200 MiB of 'y', between two ordinary ones; the
# output is the same lines in the stream's own form (9 decimals).
awk 'BEGIN { s = "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	while (length(s) < 1048576) s = s s
	print "#trc 1"; print "0 0 MK"
	printf "0.5 0 MK x="; for (i = 0; i < 200; i++) printf "%s", s
	print " z=1"; print "1 0 MK" }' >"$tmp/big.trc"
is "$(wc -c <"$tmp/big.trc" | tr -d ' ')" 209715237 "the input: 200 MiB and 37 bytes of events and header"
/usr/bin/time -f %M -o "$tmp/mem" trc-cat "$tmp/big.trc" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "a 200 MB line: read"
awk 'NR == 1 { ok = $0 == "#trc 1 order=time" }
	NR == 2 { ok = ok && $0 == "0.000000000 0 MK" }
	NR == 3 { ok = ok && substr($0, 1, 20) == "0.500000000 0 MK x=y" &&
	    length($0) == 16 + 3 + 200 * 1048576 + 4 && substr($0, length($0) - 4) == "y z=1" }
	NR == 4 { ok = ok && $0 == "1.000000000 0 MK" }
	END { exit !(ok && NR == 4) }' "$out"
ok $? "a 200 MB line: written whole, byte for byte"
# The buffer doubles from 1 MiB to 256 MiB to hold it: at most 256 MiB
# and the program, 300 MB, where a copy of the line more would be 450.
if [ -z "$TRC_SANITIZE" ]; then
	[ "$(cat "$tmp/mem")" -lt 300000 ]
	ok $? "a 200 MB line in $(cat "$tmp/mem") KB, under 300000"
else
	ok 0 "memory not measured under the sanitizers"
fi
TRC_LINE_MAX=100M expect_exit 2 "past TRC_LINE_MAX=100M" -- trc-cat "$tmp/big.trc"
is "$(cat "$err")" "trc-cat: $tmp/big.trc:3: line longer than 104857600 bytes (TRC_LINE_MAX)" \
    "past TRC_LINE_MAX: the line named"
is "$(head -2 "$out")" "#trc 1 order=time
0.000000000 0 MK" "past TRC_LINE_MAX: the events before it written"
rm -f "$tmp/big.trc" "$out"

# A 10 MiB attribute value through the engines: trc-scale scales the
# interval it ends (1 s x 2) and keeps the value; trc-sum counts it.
awk 'BEGIN { s = "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"
	while (length(s) < 1048576) s = s s
	print "#trc 1 ranks=2"; print "0 0 PB fn=a"
	print "0 1 MK"
	printf "1 0 PE fn=a note="; for (i = 0; i < 10; i++) printf "%s", s
	print ""; print "2 1 MK" }' >"$tmp/attr.trc"
trc-scale --cpu-ratio 2 "$tmp/attr.trc" >"$out" 2>"$err"
is "$?:$(cat "$err")" "0:" "a 10 MB value: trc-scale reads it"
awk '{ $0 = substr($0, 1, 60) } 1' "$out" >"$tmp/got"
cat >"$tmp/want" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 PB fn=a t0=0.000000000
0.000000000 1 MK t0=0.000000000
2.000000000 0 PE fn=a note=vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv
4.000000000 1 MK t0=2.000000000
X
is_file "$tmp/got" "$tmp/want" "a 10 MB value: PE at 2 x 1 s, rank 1's MK at 2 x 2 s"
is "$(awk 'NR == 4 { print length($0) }' "$out")" $((27 + 10485760 + 15)) \
    "a 10 MB value: written whole, t0= after it (27 + 10 MiB + 15 bytes)"
trc-sum --section procs "$tmp/attr.trc" >"$out" 2>"$err"
grep -q '^a  *0  *1  *1\.000 s ' "$out"
ok $? "a 10 MB value: trc-sum counts the procedure"

# At most 32 attributes an event (trc(5), trc-faults(7)): 32 pass
# whole, a 33rd is an error naming the line, the events before it out.
awk 'BEGIN { print "#trc 1"; print "0 0 MK"
	printf "1 0 MK"; for (i = 1; i <= 32; i++) printf " a%d=%d", i, i; print ""
	printf "2 0 MK"; for (i = 1; i <= 33; i++) printf " a%d=%d", i, i; print "" }' >"$tmp/attrs.trc"
expect_exit 2 "33 attributes: exit 2" -- trc-cat "$tmp/attrs.trc"
is "$(cat "$err")" "trc-cat: $tmp/attrs.trc:4: more than 32 attributes" "33 attributes: the line named"
is "$(sed -n 3p "$out" | wc -w | tr -d ' ')" 35 "32 attributes: written whole"
# trc-scale adds t0=: 31 take it, 32 leave no room, said with the line.
awk 'BEGIN { print "#trc 1 ranks=1"; printf "1 0 MK"
	for (i = 1; i <= 31; i++) printf " a%d=%d", i, i; print ""
	printf "2 0 MK"; for (i = 1; i <= 32; i++) printf " a%d=%d", i, i; print "" }' >"$tmp/full.trc"
expect_exit 2 "32 attributes and t0=: exit 2" -- trc-scale --cpu-ratio 2 "$tmp/full.trc"
is "$(cat "$err")" "trc-scale: $tmp/full.trc:3: 32 attributes: no room for t0= (at most 32)" \
	"32 attributes and t0=: the line named"
sed 3d "$tmp/full.trc" | trc-scale --cpu-ratio 2 >"$out"
is "$(sed -n 2p "$out" | wc -w | tr -d ' ')" 35 "31 attributes and t0=: written whole"

# More than 9 fractional digits are rounded (trc(5)): to the nearest
# nanosecond, a tie to the even one.
printf '#trc 1\n0.0000000015 0 MK\n0.0000000025 0 MK\n0.00000000251 0 MK\n1.9999999995 0 MK\n' |
    trc-cat >"$out"
is "$(cat "$out")" "#trc 1 order=time
0.000000002 0 MK
0.000000002 0 MK
0.000000003 0 MK
2.000000000 0 MK" "picoseconds: 1.5 and 2.5 ns to 2, 2.51 to 3, 1.9999999995 s to 2 s"
done_testing
