#!/bin/sh
# trc-gen: deterministic, sorted, causal, with the counts each pattern implies.
. "$(dirname "$0")/lib.sh"

# Every RE matched FIFO by (source, destination, tag) with an earlier SE.
causal='
/^#/ { next }
{ split($1, f, "."); t = f[1] * 1e9 + f[2]; peer = tag = ""
  for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "peer") peer = kv[2]; if (kv[1] == "tag") tag = kv[2] } }
$3 == "SE" { k = $2 SUBSEP peer SUBSEP tag; q[k, tail[k]++] = t }
$3 == "RE" { k = peer SUBSEP $2 SUBSEP tag
             if (head[k] >= tail[k]) { print "unmatched RE line " NR; bad++ }
             else if (q[k, head[k]++] > t) { print "RE before its SE line " NR; bad++ } }
END { for (k in tail) if (head[k] != tail[k]) { print "unmatched SE"; bad++ }; exit bad > 0 }'

for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 7 -i 25 -s 11 > "$tmp/a"
	trc-gen -p $p -n 7 -i 25 -s 11 > "$tmp/b"
	trc-gen -p $p -n 7 -i 25 -s 12 > "$tmp/c"
	cmp -s "$tmp/a" "$tmp/b"; ok $? "$p: the same seed gives the same stream"
	cmp -s "$tmp/a" "$tmp/c"; ok $((! $?)) "$p: another seed gives another"
	trc-cat "$tmp/a" > /dev/null; ok $? "$p: the stream is valid and sorted"
	awk "$causal" "$tmp/a" > "$out"; ok $? "$p: every receive completes after its send"
done

is "$(trc-gen -p ring -n 5 -i 3 | grep -vc '^#')" 105 "ring: 7 events per rank and iteration"
is "$(trc-gen -p allreduce -n 5 -i 3 | grep -vc '^#')" 75 "allreduce: 5 events per rank and iteration"
is "$(trc-gen -p master-worker -n 5 -i 3 | grep -c ' 0 RB peer=\*')" 12 \
	"master-worker: a wildcard receive per task"
# Six ranks make a grid of 2 columns (the largest divisor not above
# sqrt 6) by 3 rows: the middle row has 3 neighbours, the others 2.
is "$(trc-gen -p halo -n 6 -i 1 | awk '$3 == "SE" { n[$2]++ } END { for (r = 0; r < 6; r++) printf "%d", n[r] }')" \
	223322 "halo: sends per rank on a 2x3 grid"
is "$(trc-gen -p ring -n 3 -i 1 --bytes 100 | awk '$3 == "SE" { print $4, $6 }' | sort -u | tr '\n' ' ')" \
	"peer=0 bytes=100 peer=1 bytes=100 peer=2 bytes=100 " "ring: each rank sends right, -b bytes"
n=$(trc-gen -p ring -n 64 -e 100000 | grep -vc '^#')
[ "$n" -ge 100000 ] && [ "$n" -lt $((100000 + 7 * 64)) ]; ok $? "-e asks for at least that many events ($n)"

expect_exit 2 "unknown pattern" -- trc-gen -p mesh
is "$(cat "$err")" "trc-gen: unknown pattern 'mesh'" "unknown pattern: message"
expect_exit 2 "bad rank count" -- trc-gen -n 0
is "$(cat "$err")" "trc-gen: invalid rank count '0' (want an integer from 1 to 16777216)" "bad rank count: message"
expect_exit 2 "partly numeric" -- trc-gen -i 10x
expect_exit 2 "master-worker alone" -- trc-gen -p master-worker -n 1
expect_exit 2 "operands" -- trc-gen extra
done_testing
