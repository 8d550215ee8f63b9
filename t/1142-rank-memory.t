#!/bin/sh
# Memory follows the ranks present, not the largest rank number (issue
# 15): trc-scale and trc-perturb keep ranks in pages of 1024 as they
# come (lib/pages.c), about 850 bytes a rank present (trc-scale(1));
# trc-sum, trc-loops, trc-stable and the SimGrid reader likewise.
. "$(dirname "$0")/lib.sh"

mem() {	# KB of peak memory of the command after it
	/usr/bin/time -f %M -o "$tmp/mem" "$@" >"$out" 2>"$err"
	_rc=$?
	tail -1 "$tmp/mem"
	return $_rc
}

# One message between rank 0 and rank 2,000,000, in a stream without
# ranks=: times by hand, the ratio 2 on fn=a and 3 on fn=b.
cat >"$tmp/sp.trc" <<'X'
#trc 1
0 0 PB fn=a
0 2000000 PB fn=b
1 0 PE fn=a
1 0 SB peer=2000000 tag=1 bytes=8
1 2000000 PE fn=b
1 2000000 RB peer=0 tag=1 bytes=8
2 0 SE peer=2000000 tag=1 bytes=8
3 2000000 RE peer=0 tag=1 bytes=8
X
printf 'mode time\na all 2\nb all 3\n' >"$tmp/ab.tbl"
m=$(mem trc-scale --cpu "$tmp/ab.tbl" "$tmp/sp.trc")
is "$?:$(cat "$err")" "0:" "rank 2000000: trc-scale runs"
# a ends at 2, the send 1 s later at 3; b ends at 3, the receive 2 s
# after it at 5, its send being done at 3.
# (Events of one time in any order: compared sorted.)
is "$(cut -d' ' -f1-3 "$out" | sort)" "$(sort <<'X'
#trc 1 order=time
0.000000000 0 PB
0.000000000 2000000 PB
2.000000000 0 PE
2.000000000 0 SB
3.000000000 0 SE
3.000000000 2000000 PE
3.000000000 2000000 RB
5.000000000 2000000 RE
X
)" "rank 2000000: the times by hand"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m" -lt 30000 ]
	ok $? "rank 2000000: trc-scale in $m KB, under 30000 (2M ranks' worth was 1 GB)"
	m=$(mem trc-perturb -d call=send,delay=1 "$tmp/sp.trc")
	[ "$m" -lt 30000 ]
	ok $? "rank 2000000: trc-perturb in $m KB, under 30000"
else
	ok 0 "memory not measured under the sanitizers"
	ok 0 "memory not measured under the sanitizers"
fi

# trc-sum walks the ranks present: one region on rank 2,000,000 gives
# one row per table, its lifetime 1 s by hand.
printf '#trc 1\n0 2000000 PB fn=a\n1 2000000 PE fn=a\n' >"$tmp/s2m.trc"
m=$(mem trc-sum -t --section ranks,procs,profile "$tmp/s2m.trc")
is "$?:$(grep -v '^rank\|^procedure\|^operation\|^$' "$out")" "0:2000000	2	1.000000000	1.000000000	0.000000000	0.000000000	0.000000000	0.000000000
a	2000000	1	1.000000000	1.000000000	1.000000000	1.000000000	1.000000000	1	0.000000
computation	a	100.00	1.000000000	1.000000000	1.000000000	1.000000000" \
	"trc-sum, rank 2000000: a row for the rank present"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m" -lt 30000 ]
	ok $? "trc-sum, rank 2000000: $m KB, under 30000 (it was 314 MB)"
else
	ok 0 "memory not measured under the sanitizers"
fi

# trc-loops keeps its ranks in pages too: one group, one rank.
m=$(mem trc-loops "$tmp/s2m.trc")
is "$?:$(grep -c '^rank ' "$out"):$(grep '^group' "$out")" "0:1:group 2000000" \
	"trc-loops, rank 2000000: one group of the one rank"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m" -lt 30000 ]
	ok $? "trc-loops, rank 2000000: $m KB, under 30000 (it was 141 MB)"
else
	ok 0 "memory not measured under the sanitizers"
fi
# and -x reads it back the same way: the stream again, byte for byte.
cp "$out" "$tmp/s2m.loops"
m2=$(mem trc-loops -x "$tmp/s2m.loops")
trc-cat "$tmp/s2m.trc" > "$tmp/s2m.want"
is "$?:$(cmp "$out" "$tmp/s2m.want" && echo same)" "0:same" "trc-loops -x, rank 2000000: the stream back"
# A group line naming 10,000,000 ranks (18 bytes) and no data: counted
# as ranges, not a state per rank before the data says they are absent.
printf '#trc-loops 1 order=time timing=stats\ngroup 0-9999999\n  E0 MK\n' > "$tmp/g10m.loops"
m=$(mem trc-loops -x "$tmp/g10m.loops")
is "$?:$(cat "$err")" "2:trc-loops: $tmp/g10m.loops: rank 0 has no data" \
	"trc-loops -x, a group of 10,000,000 ranks without data: exit 2"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m2" -lt 30000 ]
	ok $? "trc-loops -x, rank 2000000: $m2 KB, under 30000"
	[ "$m" -lt 30000 ]
	ok $? "trc-loops -x, a group of 10,000,000 ranks: $m KB, under 30000 (it took 862 MB)"
else
	ok 0 "memory not measured under the sanitizers"
fi

# trc-stable: the ranks with events in either trace (and those a header
# declares) get rows; rank 2,000,000 sends to rank 0 in both, 2 events
# each, the same: distance 0.
printf '#trc 1\n0 2000000 SB peer=0 tag=1 bytes=8\n0 2000000 SE peer=0 tag=1 bytes=8\n1 0 RB peer=2000000 tag=1 bytes=8\n1 0 RE peer=2000000 tag=1 bytes=8\n' >"$tmp/g2m.trc"
m=$(mem trc-stable "$tmp/g2m.trc" "$tmp/g2m.trc")
is "$?:$(awk '$1 ~ /^[0-9]/ { print $1, $2, $3, $4, $5 }' "$out" | tr '\n' ';')" \
	"0:0 2 2 2 0;2000000 2 2 2 0;" "trc-stable, rank 2000000: rows for ranks 0 and 2000000"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m" -lt 30000 ]
	ok $? "trc-stable, rank 2000000: $m KB, under 30000 (it was 570 MB)"
else
	ok 0 "memory not measured under the sanitizers"
fi

# SimGrid: one file naming ranks 0 and 100,000,000 (fuzz/regress/simgrid
# has the input libFuzzer found): the reader keeps the ranks in pages.
printf '0 init\n0 send 100000000 8\n100000000 init\n100000000 recv 0 8\n' >"$tmp/sg.txt"
m=$(mem trc-cat -f simgrid "$tmp/sg.txt")
is "$?:$(cut -d' ' -f2,3 "$out" | tr '\n' ' ')" "0:1 ranks=100000001 0 MK 0 SB 0 SE 100000000 MK 100000000 RB 100000000 RE " \
	"SimGrid rank 100000000: read"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m" -lt 30000 ]
	ok $? "SimGrid rank 100000000: $m KB, under 30000 (it asked for a state per rank number, gigabytes)"
else
	ok 0 "memory not measured under the sanitizers"
fi

# 2^17 ranks present, one marker each: all written, in about 850
# bytes a rank (trc-scale(1); the make target bench-ranks runs 2^21).
awk 'BEGIN { print "#trc 1 ranks=131072"; for (r = 0; r < 131072; r++) print "0 " r " MK" }' >"$tmp/r17.trc"
m=$(mem trc-scale "$tmp/r17.trc")
is "$?:$(grep -c ' MK t0=0.000000000$' "$out")" "0:131072" "2^17 ranks: every event written"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m" -lt $((131072 * 900 / 1024 + 10000)) ]
	ok $? "2^17 ranks: $m KB, under 900 bytes a rank and 10 MB"
else
	ok 0 "memory not measured under the sanitizers"
fi
# An order=rank stream: the reader keeps each rank's last time in pages
# (libFuzzer: a rank of 808005002 made it zero 6.4 GB,
# fuzz/regress/stream/order-rank-808005002); a rank going backwards
# is still found.
printf '#trc 1 order=rank\n0.1 1000000000 MK mark=a\n0.2 1000000000 MK mark=b\n0.3 5 MK mark=c\n' >"$tmp/or.trc"
m=$(mem trc-cat "$tmp/or.trc")
is "$?:$(grep -c MK "$out")" "0:3" "order=rank, rank 1000000000: trc-cat reads it"
[ "$m" -lt 40000 ]
ok $? "  in $m KB, under 40000 (8 GB zeroed before; 34 MB under the sanitizers)"
printf '0.2 5 MK mark=d\n' >>"$tmp/or.trc"
expect_exit 2 "  a rank's time going backwards: exit 2" -- trc-cat "$tmp/or.trc"
is "$(cat "$err")" "trc-cat: $tmp/or.trc:5: time goes backwards on rank 5 ('0.200000000' after '0.300000000')" "  said"
done_testing
