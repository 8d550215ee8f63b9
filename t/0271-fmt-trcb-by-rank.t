#!/bin/sh
# trc-sum reads trcb by rank (trc_by_rank): each block's runs, one rank
# at a time, not the ranks interleaved as in the stream.  What it
# prints and every error it reports must still be what the text gives:
# labels and operations listed as they first appear in the stream,
# and of several errors in one block the first in stream order, at its
# line, whichever rank's run is read first.
. "$(dirname "$0")/lib.sh"

# same_sum NAME FILE: trc-sum on FILE and on its trcb print the same.
same_sum() {
	trc-cat --to trcb "$2" > "$2.trcb"
	trc-sum -t --section ranks,procs,ops,sizes,profile "$2" > "$tmp/s1"
	trc-sum -t --section ranks,procs,ops,sizes,profile "$2.trcb" > "$tmp/s2"
	is_file "$tmp/s2" "$tmp/s1" "$1: trc-sum on trcb as on the text"
}

# sum_fails NAME FILE LINE MESSAGE [ORDER]: trc-sum on FILE and on its
# trcb exits 2 with "trc-sum: FILE:LINE: MESSAGE".  With ORDER, FILE
# says order=none, which trc-cat writes whatever the times; the text
# and the trcb are then made to promise ORDER (the trcb header's order
# byte, the 12th, has no checksum), which their times break.
sum_fails() {
	trc-cat --to trcb "$2" > "$2.trcb"
	if [ -n "${5:-}" ]; then
		sed -i "1s/order=none/order=$5/" "$2"
		case $5 in time) o=00 ;; rank) o=01 ;; esac
		printf "\\$(printf %o 0x$o)" |
		    dd of="$2.trcb" bs=1 seek=11 conv=notrunc 2>/dev/null
	fi
	for f in "$2" "$2.trcb"; do
		expect_exit 2 "$1: ${f##*.}, exit 2" -- trc-sum "$f"
		is "$(cat "$err")" "trc-sum: $f:$3: $4" "$1: ${f##*.}, line $3"
	done
}

# ---- First appearances.  Rank 1 names label b at line 2 and
# completes operation y at line 4, rank 0 label a at 5 and x at 7: the
# text lists b before a and y before x, though rank 0's run comes
# first in the block.
cat > "$tmp/first.trc" <<'EOF'
#trc 1 ranks=2 order=time
0 1 PB fn=b
1 1 XB op=y
2 1 XE op=y
3 0 PB fn=a
4 0 XB op=x
5 0 XE op=x
6 0 PE fn=a
7 1 PE fn=b
EOF
same_sum "labels and operations by first line" "$tmp/first.trc"
trc-cat --to trcb "$tmp/first.trc" | trc-sum --section procs,ops > "$out"
is "$(awk '$1 == "a" || $1 == "b" || $1 == "x" || $1 == "y" { print $1 }' "$out" |
    uniq | paste -sd' ' -)" "b a y x" "b before a, y before x"

# The same on trc-gen's patterns over several blocks (16 ranks, 30000
# events: blocks of 65536 events hold them all; 80 ranks, 200000: two
# blocks and more), each rank's labels first met in other blocks.
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 16 -e 30000 -s 5 > "$tmp/g.trc"
	same_sum "$p, 16 ranks" "$tmp/g.trc"
	trc-gen -p $p -n 80 -e 200000 -s 5 > "$tmp/g.trc"
	same_sum "$p, 80 ranks" "$tmp/g.trc"
done
# 160 ranks (runs of the next ranks' slots asked ahead, from 128 runs
# a block), over three blocks of 163840 events.
trc-gen -p halo -n 160 -e 400000 -s 5 > "$tmp/g.trc"
same_sum "halo, 160 ranks" "$tmp/g.trc"

# A message's size that changes by a value of three bytes, coded
# against its slot (mode values): 8 to 30000 is +29992, zigzag 59984,
# 59984<<3|1 = 479873, three bytes of uvarint; then 29640 (-360, two)
# and 8 again (three), the sizes of LAMMPS's exchanges and its small
# messages in turn.  Read by rank in the usual events' loop, their
# sizes as the text's.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	for (i = 0; i < 40; i++) {
		b = i % 3 == 0 ? 8 : i % 3 == 1 ? 30000 : 29640
		printf "%d 0 SB peer=1 tag=0 bytes=%d\n", 10 * i, b
		printf "%d 0 SE peer=1 tag=0 bytes=%d\n", 10 * i + 1, b
		printf "%d 1 RB peer=0 tag=0 bytes=%d\n", 10 * i + 2, b
		printf "%d 1 RE peer=0 tag=0 bytes=%d\n", 10 * i + 3, b
	}
}' > "$tmp/sizes.trc"
same_sum "sizes changed by three bytes of code" "$tmp/sizes.trc"

# A slot of integers only (values_int's) whose values turn to a string
# or "*" and back: an unknown key's value 1, a, 2, ... and a receive's
# peer 0 or *, each event's size and request changed too.  Read by
# rank, every size and request as the text's.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	for (i = 0; i < 60; i++) {
		b = i % 4 == 0 ? 8 : 30000 - i
		n = i % 5 == 2 ? "a" i : i
		p = i % 7 == 3 ? "*" : 0
		printf "%d 0 SB peer=1 tag=0 bytes=%d note=%s\n", 10 * i, b, n
		printf "%d 0 SE peer=1 tag=0 bytes=%d req=%d note=%s\n", 10 * i + 1, b, i, n
		printf "%d 1 RB peer=%s tag=0 bytes=%d req=%d\n", 10 * i + 2, p, b, i
		printf "%d 1 RE peer=0 tag=0 bytes=%d req=%d\n", 10 * i + 3, b + i % 2, i
		printf "%d 1 WB req=%d op=wait\n", 10 * i + 4, i
		printf "%d 1 WE req=%d op=wait\n", 10 * i + 5, i
	}
}' > "$tmp/mixed.trc"
same_sum "integers to strings and back" "$tmp/mixed.trc"

# ---- Errors.  steps N: N steps of ranks 0 and 1, 8 lines each after
# the header (lines 2 to 8N+1), rank 0's at even lines, rank 1's odd.
steps() {
	awk -v n="$1" 'BEGIN {
		print "#trc 1 ranks=2 order=time"
		split("PB fn=f,SB peer=@ tag=1 bytes=64,SE peer=@ tag=1 " \
		    "bytes=64,PE fn=f", ev, ",")
		for (i = 0; i < n; i++)
			for (k = 1; k <= 4; k++)
				for (r = 0; r < 2; r++) {
					e = ev[k]
					sub(/@/, 1 - r, e)
					printf "0.%09d %d %s\n", i * 100 + k * 10, r, e
				}
	}'
}
steps 500 > "$tmp/ok.trc"
# Step i's PE are lines 8i + 8 (rank 0) and 8i + 9 (rank 1), at
# i * 100 + 40 ns: line 3001 is rank 1's of step 374, 3600 rank 0's
# of step 449.
is "$(sed -n '3001p;3600p' "$tmp/ok.trc" | paste -sd' ' -)" \
    "0.000037440 1 PE fn=f 0.000044940 0 PE fn=f" "lines 3001 and 3600 are two ends"
# Two regions closed badly, rank 0's at line 3600, rank 1's before it
# at 3001: rank 0's run is read first, rank 1's error is reported.
sed '3001s/fn=f/fn=g/; 3600s/fn=f/fn=h/' "$tmp/ok.trc" > "$tmp/two.trc"
sum_fails "two ranks' errors" "$tmp/two.trc" 3001 "PE fn='g' closes region 'f'"
# Rank 1's alone, and rank 0's alone.
sed '3001s/fn=f/fn=g/' "$tmp/ok.trc" > "$tmp/one1.trc"
sum_fails "rank 1's error" "$tmp/one1.trc" 3001 "PE fn='g' closes region 'f'"
sed '3600s/fn=f/fn=h/' "$tmp/ok.trc" > "$tmp/one0.trc"
sum_fails "rank 0's error" "$tmp/one0.trc" 3600 "PE fn='h' closes region 'f'"
# Time going back between ranks, each rank's own times in order: rank
# 1's event at line 3001 set before rank 0's at 3000 (0.000037440),
# and rank 0's error later at 3600: the reader's, the first, wins.
sed '1s/order=time/order=none/; 3001s/^0.000037440/0.000037435/; 3600s/fn=f/fn=h/' \
    "$tmp/ok.trc" > "$tmp/back.trc"
sum_fails "time back before an error" "$tmp/back.trc" 3001 \
    "time goes backwards ('0.000037435' after '0.000037440')" time
# The summary's error first (rank 1's at 2001), the time going back
# after it: the summary's.
sed '1s/order=time/order=none/; 2001s/fn=f/fn=g/; 3001s/^0.000037440/0.000037435/' \
    "$tmp/ok.trc" > "$tmp/back2.trc"
sum_fails "an error before time back" "$tmp/back2.trc" 2001 \
    "PE fn='g' closes region 'f'" time
# Time back alone, order=time: the reader's error.
sed '1s/order=time/order=none/; 3001s/^0.000037440/0.000037435/' \
    "$tmp/ok.trc" > "$tmp/back3.trc"
sum_fails "time back" "$tmp/back3.trc" 3001 \
    "time goes backwards ('0.000037435' after '0.000037440')" time

# Time back at each of places 1 to 8 of the first block, four in the
# middle of it and places 0 to 3 of the second (lines 65538 on: blocks
# of 65536 events), which r_block_end checks four at a time: line l
# (at 10 (l - 1) ns) set 5 ns before line l - 1, after its rank's event
# before (line l - 2, 10 ns before l - 1).
awk 'BEGIN { print "#trc 1 ranks=2 order=none"
	for (i = 1; i <= 70000; i++)
		printf "0.%09d %d MK iter=%d\n", 10 * i, i % 2, i }' > "$tmp/tick.trc"
for l in 3 4 5 6 7 8 9 10 3001 3002 3003 3004 65538 65539 65540 65541; do
	t=$(( 10 * (l - 2) - 5 ))
	awk -v l=$l -v t=$t 'NR == l { $1 = sprintf("0.%09d", t) } { print }' \
	    "$tmp/tick.trc" > "$tmp/tback.trc"
	sum_fails "time back at line $l" "$tmp/tback.trc" $l \
	    "time goes backwards ('$(printf '0.%09d' $t)' after '$(printf '0.%09d' $(( 10 * (l - 2) )))')" time
done

# The same in blocks of more than 2^31 - 2 ns (events 10 ms apart),
# whose places' times r_block_end checks in 64 bits, not 32.
awk 'BEGIN { print "#trc 1 ranks=2 order=none"
	for (i = 1; i <= 70000; i++)
		printf "%d.%09d %d MK iter=%d\n", int(i / 100), i % 100 * 10000000,
		    i % 2, i }' > "$tmp/wtick.trc"
for l in 3 6 3003 65538 65541; do
	t=$(( 10000000 * (l - 2) - 5 ))
	awk -v l=$l -v t=$t 'NR == l { $1 = sprintf("%d.%09d", int(t / 1e9), t % 1e9) } { print }' \
	    "$tmp/wtick.trc" > "$tmp/tback.trc"
	sum_fails "time back at line $l, blocks of over 2^31 ns" "$tmp/tback.trc" $l \
	    "time goes backwards ('$(printf '%d.%09d' $(( t / 1000000000 )) $(( t % 1000000000 )))' after '$(printf '%d.%09d' $(( (l - 2) / 100 )) $(( (l - 2) % 100 * 10000000 )))')" time
done

# Time deltas of one to six bytes (zigzag under 2^7, 2^14, 2^21, 2^28,
# 2^35, and over: the usual events' way reads five at most), each rank's.
awk 'BEGIN { print "#trc 1 ranks=2 order=time"
	split("1 100 20000 3000000 400000000 20000000000", g, " ")
	t = 0
	for (i = 0; i < 60; i++) {
		t += g[i % 6 + 1]
		printf "%d.%09d 0 SB peer=1 tag=0 bytes=%d\n", t / 1e9, t % 1e9, i
		printf "%d.%09d 1 RB peer=0 tag=0 bytes=%d\n", t / 1e9, t % 1e9, i
	} }' > "$tmp/gaps.trc"
same_sum "time deltas of 1 to 6 bytes" "$tmp/gaps.trc"
trc-cat "$tmp/gaps.trc.trcb" > "$tmp/gaps.back"
is_file "$tmp/gaps.back" "$tmp/gaps.trc" "time deltas of 1 to 6 bytes: the text again"

# ---- order=rank: each rank's events in turn, the text's rank 0 then
# rank 1; a rank's time going back is named at its line, within a block
# (line 70001) and at a block's first event, against the block before
# (line 65538: blocks of 65536 events, 80000 events a rank).
steps 20000 | sed '1s/order=time/order=rank/' > "$tmp/s.trc"
{ sed -n 1p "$tmp/s.trc"; awk 'NR > 1 && $2 == 0' "$tmp/s.trc";
    awk 'NR > 1 && $2 == 1' "$tmp/s.trc"; } > "$tmp/rank.trc"
same_sum "order=rank" "$tmp/rank.trc"
for l in 70001 65538; do
	awk -v l=$l 'NR == 1 { sub(/order=rank/, "order=none") }
	    NR == l { $1 = "0.000000001" } { print }' "$tmp/rank.trc" > "$tmp/rback.trc"
	is "$(sed -n ${l}p "$tmp/rback.trc" | cut -d' ' -f2)" 0 "line $l is rank 0's"
	sum_fails "order=rank, time back at line $l" "$tmp/rback.trc" $l \
	    "time goes backwards on rank 0 ('0.000000001' after '$(sed -n $((l - 1))p "$tmp/rank.trc" | cut -d' ' -f1)')" rank
done
trc-cat --to trcb "$tmp/rank.trc" > "$tmp/rank.trcb"
python3 "$T/trcb_index.py" "$tmp/rank.trcb" | cut -d' ' -f2 > "$tmp/first"
is "$(head -1 "$tmp/first")" 65536 "order=rank: the first block holds 65536 events"

done_testing
