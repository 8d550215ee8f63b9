#!/bin/sh
# Memory follows the ranks present, not the largest rank number (issue
# 15): trc-scale and trc-perturb keep ranks in pages of 1024 as they
# come (lib/pages.c), about 600 bytes a rank present (trc-scale(1)).
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

# 2^17 ranks present, one marker each: all written, in about 600
# bytes a rank (the make target bench-ranks runs 2^21).
awk 'BEGIN { print "#trc 1 ranks=131072"; for (r = 0; r < 131072; r++) print "0 " r " MK" }' >"$tmp/r17.trc"
m=$(mem trc-scale "$tmp/r17.trc")
is "$?:$(grep -c ' MK t0=0.000000000$' "$out")" "0:131072" "2^17 ranks: every event written"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$m" -lt $((131072 * 800 / 1024 + 10000)) ]
	ok $? "2^17 ranks: $m KB, under 800 bytes a rank and 10 MB"
else
	ok 0 "memory not measured under the sanitizers"
fi
done_testing
