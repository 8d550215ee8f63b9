#!/bin/sh
# trc-loops --histogram: a hand-made loop whose description and
# expansion are worked out by hand from trc-loops(5); on trc-gen's
# patterns, every rank's times fall in the same buckets as the
# original's, counted by awk from the format's definition of a bucket
# (statistics alone do not); bad input and options.
. "$(dirname "$0")/lib.sh"

# ---- One rank, 8 times a region then 1 us to the next; the regions
# last 1000, 1000, 3000, 1000, 1001, 3000, 1000 and 1200 ns.  With one
# bucket a doubling, a bucket is [2^k, 2^(k+1)): the PE times after the
# first (1000, given by first=) are 1000, 3000, 1000, 1001, 3000, 1000
# in [512, 1024) four times, sum 4001; 1200 in [1024, 2048); 3000 twice
# in [2048, 4096), sum 6000.
# regions LENGTHS: the stream of one rank whose regions last LENGTHS
# (ns), the first from 1 us, each next 1 us after the one before.
regions() {
	awk -v lens="$1" 'BEGIN {
		print "#trc 1 ranks=1 order=time"
		n = split(lens, len, " ")
		t = 1000
		for (k = 1; k <= n; k++) {
			printf "0.%09d 0 PB fn=a\n", t; t += len[k]
			printf "0.%09d 0 PE fn=a\n", t; t += 1000
		}
	}'
}
regions "1000 1000 3000 1000 1001 3000 1000 1200" > "$tmp/a.trc"
cat > "$tmp/a.want" <<'EOF'
#trc-loops 1 ranks=1 order=time timing=stats hist=1
group 0
  loop 8
    E0 PB fn=a
    E1 PE fn=a
  end
rank 0
  E0 n=8 dt=1000+0
  E1 n=8 sum=0.000012201 mean=0.000001525 min=0.000001000 max=0.000003000 first=0.000001000 hist=512:4:4001,1024:1:1200,2048:2:6000
EOF
expect_exit 0 "exit 0" -- trc-loops --histogram 1 "$tmp/a.trc"
is_file "$out" "$tmp/a.want" "the description written by hand"
cp "$out" "$tmp/a.loops"
# Expanded, the buckets take turns by smooth weighted round robin
# (counts 4, 1, 2 of 7; credits start at 0, each grows by its count,
# the highest gives a value and loses 7): turns 1-7 go to [512, 1024),
# [2048, 4096), [512, 1024), [1024, 2048), [512, 1024), [2048, 4096),
# [512, 1024).  [512, 1024)'s 4001 ns is 1000 each and 1 more for the
# first; so the regions last 1000 (first=), 1001, 3000, 1000, 1200,
# 1000, 3000 and 1000 ns: the same total.
regions "1000 1001 3000 1000 1200 1000 3000 1000" > "$tmp/a.x"
expect_exit 0 "-x exits 0" -- trc-loops -x "$tmp/a.loops"
is_file "$out" "$tmp/a.x" "-x: the times worked out by hand"
expect_exit 0 "--histogram 4: exit 0" -- trc-loops --histogram 4 "$tmp/a.trc"
# Four buckets a doubling, each a quarter of it: [896, 1024) holds 1000
# and 1001, [1024, 1280) 1200, [2560, 3072) 3000.
is "$(sed -n 's/^  E1 .* hist=//p' "$out")" "896:4:4001,1024:1:1200,2560:2:6000" \
    "--histogram 4: the buckets worked out by hand"
is "$(head -1 "$out")" "#trc-loops 1 ranks=1 order=time timing=stats hist=4" \
    "--histogram 4: the header says hist=4"

# ---- trc-gen's patterns with random computation: the times of each
# rank's events of a kind and label (a union of whole templates) fall
# in the buckets of the original's, as many in each; statistics alone
# (the control) spread them evenly and do not.
# buckets BITS FILE: "rank kind fn= op= lo count", sorted.
buckets() {
	awk -v bits="$1" '
	function lo(x,   e, b) {
		if (x <= 0) return x
		for (b = 0; 2 ^ b <= x; b++) ;	# the bit length of x
		e = b - bits - 1
		return e <= 0 ? x : int(x / 2 ^ e) * 2 ^ e
	}
	/^#/ { next }
	{
		split($1, s, "."); t = s[1] * 1000000000 + s[2]
		key = $2 " " $3
		for (i = 4; i <= NF; i++) if ($i ~ /^(fn|op)=/) key = key " " $i
		n[key " " lo(t - (($2 in last) ? last[$2] : 0))]++
		last[$2] = t
	}
	END { for (k in n) print k, n[k] }' "$2" | sort
}
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 8 -i 100 > "$tmp/$p.trc"
	trc-loops --histogram 8 "$tmp/$p.trc" > "$tmp/$p.loops"
	ok $? "$p: --histogram 8 exits 0"
	trc-loops -x "$tmp/$p.loops" > "$tmp/$p.x"
	ok $? "$p: -x exits 0"
	trc-stable -q "$tmp/$p.trc" "$tmp/$p.x"
	ok $? "$p: the execution graph is the original's"
	buckets 3 "$tmp/$p.trc" > "$tmp/$p.want"
	buckets 3 "$tmp/$p.x" > "$tmp/$p.got"
	is_file "$tmp/$p.got" "$tmp/$p.want" "$p: each rank's times in the original's buckets"
	trc-loops "$tmp/$p.trc" | trc-loops -x > "$tmp/$p.x0"
	! buckets 3 "$tmp/$p.x0" | cmp -s - "$tmp/$p.want"
	ok $? "$p: statistics alone put them elsewhere"
done
sum_ranks() {
	trc-sum --section ranks -t "$1" | awk -F'\t' '$1 ~ /^[0-9]+$/ { print $1, $2, $3 }'
}
sum_ranks "$tmp/halo.trc" > "$tmp/tot.want"
sum_ranks "$tmp/halo.x" > "$tmp/tot.got"
is_file "$tmp/tot.got" "$tmp/tot.want" "halo: every rank's events and total time"

# ---- Options.
expect_exit 2 "--histogram 3: exit 2" -- trc-loops --histogram 3 "$tmp/a.trc"
is "$(cat "$err")" "trc-loops: invalid histogram '3' (want a power of two from 1 to 64)" \
    "--histogram 3: message"
expect_exit 2 "--histogram 128: exit 2" -- trc-loops --histogram 128 "$tmp/a.trc"
expect_exit 2 "--histogram with --lossless: exit 2" -- \
    trc-loops --histogram 8 --lossless "$tmp/a.trc"
expect_exit 2 "--histogram with -x: exit 2" -- trc-loops --histogram 8 -x "$tmp/a.loops"

# ---- Bad descriptions.
# desc NAME LINE MESSAGE SED: a.want edited by SED fails -x.
desc() {
	sed "$4" "$tmp/a.want" > "$tmp/d.loops"
	expect_exit 2 "-x, $1: exit 2" -- trc-loops -x "$tmp/d.loops"
	is "$(cat "$err")" "trc-loops: $tmp/d.loops:$2: $3" "-x, $1: message"
	is "$(cat "$out")" "" "-x, $1: nothing written"
}
desc "hist=3 in the header" 1 "hist= is not a power of two from 1 to 64" \
    '1s/hist=1/hist=3/'
desc "hist= not in the header" 9 \
    "E1: hist= needs hist= in the header and sum= before it, once" '1s/ hist=1//'
desc "hist= before sum=" 9 \
    "E1: hist= needs hist= in the header and sum= before it, once" \
    's/ sum=0.000012201\(.*\)$/\1 sum=0.000012201/'
desc "hist= twice" 9 \
    "E1: hist= needs hist= in the header and sum= before it, once" \
    '9s/hist=\(.*\)$/hist=\1 hist=\1/'
desc "hist= with dt=" 8 \
    "E0: hist= needs hist= in the header and sum= before it, once" \
    's/^  E0 n=8 dt=1000+0$/  E0 n=8 dt=1000+0 hist=512:7:7000/'
desc "a bucket that does not start one" 9 "invalid hist" 's/hist=512:/hist=513:/'
desc "a sum past its bucket" 9 "invalid hist" 's/2048:2:6000/2048:2:8192/'
desc "a sum under its bucket" 9 "invalid hist" 's/2048:2:6000/2048:2:4095/'
desc "buckets out of order" 9 "invalid hist" \
    '9s/hist=.*/hist=1024:1:1200,512:4:4001,2048:2:6000/'
desc "an empty bucket" 9 "invalid hist" 's/1024:1:1200/1024:0:0/'
desc "a bucket's count and sum cut" 9 "invalid hist" 's/2048:2:6000/2048:2/'
desc "counts not n less first" 9 "E1: hist= is not its count and sum less first=" \
    's/2048:2:6000/2048:1:3000/'
desc "sums not sum less first" 9 "E1: hist= is not its count and sum less first=" \
    's/512:4:4001/512:4:4000/'
done_testing
