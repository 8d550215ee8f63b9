#!/bin/sh
# trc-effects with the fired and limit columns of trc-experiment: the
# delays each factor made, a "stable" refused when a factor made none,
# runs stopped by their time limit never stable; bad values refused.
. "$(dirname "$0")/lib.sh"
tab() { tr '|' '\t'; }

printf 'sendA call=send ranks=1 delay=1\nrecvB call=recv ranks=2 delay=1\n' >"$tmp/f"
# A 2^2 design, every distance 0: A made 3 delays in each of its two
# runs, B none in its two.
tab >"$tmp/t" <<'X'
run|std|A|B|distance|time|choice|fired|limit
1|1|-1|-1|0|1|-|-|0
2|2|+1|-1|0|1|-|3|0
3|3|-1|+1|0|1|-|0|0
4|4|+1|+1|0|1|-|3,0|0
X
expect_exit 2 "a factor that made no delay: no stable verdict" -- trc-effects --factors "$tmp/f" "$tmp/t"
is "$(cat "$err")" "trc-effects: $tmp/t: factor B (recvB) made no delay in its runs: no verdict of stable rests on it (--force gives one)" "  says which"
tab >"$tmp/want" <<'X'
delays made (factor, runs at its high level, delays):
|A|2|6|sendA
|B|2|0|recvB
X
sed -n '/^delays made/,/^$/p' "$out" | sed '/^$/d' >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  the delays made: A 3 + 3, B shown with 0"
expect_exit 0 "--force: stable" -- trc-effects --force "$tmp/t"
is "$(sed -n '/^verdict/,$p' "$out")" "verdict: stable under every perturbation
forced: factor B made no delay" "  and says it was forced"

# Counts not known: no refusal; a sum over the runs that say, +?.
sed -e 's/	3,0	0$/	3,?	0/' "$tmp/t" >"$tmp/t2"
expect_exit 2 "3,? is not a count" -- trc-effects "$tmp/t2"
is "$(cat "$err")" "trc-effects: $tmp/t2:5: invalid count '3,?' in column 'fired' (want - with no factor high, ?, or a count per factor high)" "  its message"
sed -e 's/	3,0	0$/	?	0/' -e 's/	0	0$/	?	0/' "$tmp/t" >"$tmp/t3"
expect_exit 0 "unknown counts: stable" -- trc-effects "$tmp/t3"
is "$(sed -n '/^delays made/,/^$/p' "$out" | sed -n '2,3p')" "$(printf '\tA\t2\t3+?\n\tB\t2\t?')" "  A 3+?, B ?"

# Bad values, each on its line.
for bad in "2|2|+1|-1|0|1|-|3,4|0:3,4" "2|2|+1|-1|0|1|-|-|0:-" "2|2|+1|-1|0|1|-|x|0:x" "1|1|-1|-1|0|1|-|0|0:0"; do
	r=${bad%:*} v=${bad##*:}
	{ head -1 "$tmp/t"; echo "$r" | tab; } >"$tmp/b"
	expect_exit 2 "fired '$v' refused" -- trc-effects "$tmp/b"
	is "$(cat "$err")" "trc-effects: $tmp/b:2: invalid count '$v' in column 'fired' (want - with no factor high, ?, or a count per factor high)" "  its message"
done
{ head -1 "$tmp/t"; echo "1|1|-1|-1|0|1|-|-|2" | tab; } >"$tmp/b"
expect_exit 2 "limit 2 refused" -- trc-effects "$tmp/b"
is "$(cat "$err")" "trc-effects: $tmp/b:2: invalid limit '2' in column 'limit' (want 0 or 1)" "  its message"

# A run stopped by its time limit differs, whatever its distance.
sed -e 's/^3	3	-1	+1	0	1	-	0	0$/3	3	-1	+1	0	1	-	0	1/' "$tmp/t" >"$tmp/t4"
expect_exit 1 "a run stopped by its limit: unstable" -- trc-effects "$tmp/t4"
is "$(grep '^runs stopped\|^verdict' "$out")" "runs stopped by their time limit, never stable: 3
verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ" "  named, never stable"

done_testing
