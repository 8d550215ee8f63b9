#!/bin/sh
# trc-scale's limits on what waits (issue 15): messages in flight
# capped by TRC_MSG_MAX with an error naming the oldest unmatched; a
# deadlocked trace said with its ranks and lines.
. "$(dirname "$0")/lib.sh"

# 200000 sends from rank 0 that no receive takes (the make target
# bench-limits runs 5 million).
awk 'BEGIN { print "#trc 1 ranks=2"; for (i = 0; i < 200000; i++) {
	t = i * 1000; printf "%.9f 0 SB peer=1 tag=%d bytes=8\n%.9f 0 SE peer=1 tag=%d bytes=8\n", t / 1e9, i % 3, (t + 1) / 1e9, i % 3 } }' >"$tmp/u.trc"
# Past a cap of 100000 the 100001st send is refused, the error naming
# the first, line 3 (its SE): tag 0.
TRC_MSG_MAX=100000 /usr/bin/time -f %M -o "$tmp/mem" trc-scale "$tmp/u.trc" >"$out" 2>"$err"
is "$?:$(cat "$err")" "2:trc-scale: $tmp/u.trc:3: send to rank 1 tag 0 comm 0 still unmatched with 100001 messages in flight (TRC_MSG_MAX)" \
    "past TRC_MSG_MAX: the oldest unmatched send named"
if [ -z "$TRC_SANITIZE" ]; then
	[ "$(tail -1 "$tmp/mem")" -lt 60000 ]
	ok $? "past TRC_MSG_MAX: stopped in $(tail -1 "$tmp/mem") KB, under 60000"
else
	ok 0 "memory not measured under the sanitizers"
fi
# Under the default cap (4M) every send is written, each warned of.
trc-scale "$tmp/u.trc" >"$out" 2>"$err"
is "$?:$(grep -c ' SE ' "$out"):$(grep -c 'was never received$' "$err")" "0:200000:200000" \
    "under the cap: all written, every unmatched send warned of"
TRC_MSG_MAX=0 expect_exit 2 "TRC_MSG_MAX=0" -- trc-scale "$tmp/u.trc"
is "$(cat "$err")" "trc-scale: invalid TRC_MSG_MAX '0'" "TRC_MSG_MAX=0 is no cap"
# Receives waiting for sends count too.
printf '#trc 1 ranks=3\n0 1 RB peer=0 tag=1\n0 2 RB peer=0 tag=2\n1 1 RE peer=0 tag=1\n1 2 RE peer=0 tag=2\n2 0 MK\n' >"$tmp/r.trc"
TRC_MSG_MAX=1 expect_exit 2 "receives past TRC_MSG_MAX" -- trc-scale "$tmp/r.trc"
is "$(cat "$err")" "trc-scale: $tmp/r.trc:4: receive from rank 0 tag 1 comm 0 still unmatched with 2 messages in flight (TRC_MSG_MAX)" \
    "past TRC_MSG_MAX: the oldest waiting receive named"

# Deadlocks: each rank receives before it sends, in a ring of three;
# the receives are the lines 5, 6 and 7.
cat >"$tmp/d.trc" <<'X'
#trc 1 ranks=3
0 0 RB peer=1 tag=1
0 1 RB peer=2 tag=1
0 2 RB peer=0 tag=1
1 0 RE peer=1 tag=1
1 1 RE peer=2 tag=1
1 2 RE peer=0 tag=1
2 0 SB peer=2 tag=1
2 1 SB peer=0 tag=1
2 2 SB peer=1 tag=1
3 0 SE peer=2 tag=1
3 1 SE peer=0 tag=1
3 2 SE peer=1 tag=1
X
expect_exit 2 "a ring of three receives" -- trc-scale "$tmp/d.trc"
is "$(cat "$err")" "trc-scale: $tmp/d.trc:5: deadlock: rank 0 (line 5) waits for a send of rank 1, rank 1 (line 6) waits for a send of rank 2, rank 2 (line 7) waits for a send of rank 0" \
    "the ring said once, with its ranks and lines"
expect_exit 2 "trc-perturb: the same" -- trc-perturb "$tmp/d.trc"
is "$(cat "$err")" "trc-perturb: $tmp/d.trc:5: deadlock: rank 0 (line 5) waits for a send of rank 1, rank 1 (line 6) waits for a send of rank 2, rank 2 (line 7) waits for a send of rank 0" \
    "trc-perturb says it too"
# A pair in a deadlock beside a receive that no send satisfies: each
# said as what it is.
cat >"$tmp/d2.trc" <<'X'
#trc 1 ranks=3
0 0 RB peer=1 tag=1
0 1 RB peer=0 tag=1
0 2 RB peer=0 tag=9
1 0 RE peer=1 tag=1
1 1 RE peer=0 tag=1
1 2 RE peer=0 tag=9
2 0 SB peer=1 tag=1
2 1 SB peer=0 tag=1
3 0 SE peer=1 tag=1
3 1 SE peer=0 tag=1
X
expect_exit 2 "a pair and a lone receive" -- trc-scale "$tmp/d2.trc"
is "$(cat "$err")" "trc-scale: $tmp/d2.trc:5: deadlock: rank 0 (line 5) waits for a send of rank 1, rank 1 (line 6) waits for a send of rank 0
trc-scale: $tmp/d2.trc:7: receive from rank 0 tag 9 comm 0 has no matching send" \
    "the deadlock and the unmatched receive, each by its lines"
done_testing
