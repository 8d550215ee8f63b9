#!/bin/sh
# trcb, the binary stream: files written by hand from trc-formats(5)
# read as the text they stand for; round trips trc -> trcb -> trc byte
# for byte on every trace of t/data the tools read, on trc-gen's
# patterns and on a hand-written stream of odd attributes; tools read
# it as they read text; bad input, each message pinned.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"

# The block checksum of trc-formats(5), from its words: the sum a of
# the code's 64-bit little-endian words (the last padded with zeros)
# and the sum b of a after each, modulo 2^64, a ^ b folded to 32 bits.
# sum.py HEX prints the 4 bytes in hex, little-endian.
cat > "$tmp/sum.py" <<'EOF'
import sys
def trcb_sum(code):
    a = b = 0
    for i in range(0, len(code), 8):
        a = (a + int.from_bytes(code[i:i + 8].ljust(8, b'\0'), 'little')) % 2**64
        b = (b + a) % 2**64
    x = a ^ b
    return ((x ^ (x >> 32)) & 0xffffffff).to_bytes(4, 'little')
if __name__ == '__main__':
    print(trcb_sum(bytes.fromhex(sys.argv[1])).hex())
EOF
# bytes FILE HEX...: write bytes; "crc" before a block's code is
# replaced by its checksum, then the code.
mk() {
	python3 - "$tmp" "$@" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from sum import trcb_sum
path = sys.argv[2]
out = bytearray()
for word in sys.argv[3:]:
    if word.startswith('"'):
        out += word.strip('"').encode()
    elif word.startswith('crc:'):
        code = bytes.fromhex(word[4:])
        out += trcb_sum(code) + code
    elif word == 'end':
        # the end: the offset of the last 'I' byte, then the end magic
        out += out.rindex(b'I').to_bytes(8, 'little') + b'TRCBEND\n'
    else:
        out += bytes.fromhex(word)
open(path, 'wb').write(out)
EOF
}

# uv N: N as a varint, in hex.  hx WORD...: the words as one hex
# string, a "quoted" word as its bytes.
uv() { python3 -c 'import sys
n = int(sys.argv[1]); o = b""
while n >= 128: o += bytes([n & 127 | 128]); n >>= 7
print((o + bytes([n])).hex())' "$1"; }
hx() { python3 -c 'import sys
print("".join(w[1:-1].encode().hex() if w[:1] == "\"" else w
    for w in sys.argv[1:]))' "$@"; }

# ---- A stream written by hand, byte by byte from trc-formats(5).
# Header: magic, version 5, flags 0, ranks=2, order time, no extra.
head='89545243420d0a1a 05 00 02 00 00'
# Block 1 at offset 13: 3 events, code of 40 (28) bytes, stored, tmin
# 0, tspan 5, ranks 0 to 0+1.  The code:
#  4 strings: "peer" (0), "tag" (1), "fn" (2), "main" (3)
#  2 runs: rank 0, 1 event, 7 bytes; rank 1, 2 events, 8 bytes
#  rank 0's: SB, mode keys (0x30), at place 0 (bit 6, 0x40): 70,
#    time +0, 2 attributes: key 0, integer 1 (zigzag 2, 2<<3|1 =
#    11), key 1, any (02)
#  rank 1's: RB, mode keys (32), place 1 (01), time +5 from tmin
#    (zigzag 0a), 1 attribute: key 2, string 3 (3<<3|3 = 1b);
#    RB, mode same (0x12) at the place after (0x40): 52, time +0
code=$(hx 04 04 '"peer"' 03 '"tag"' 02 '"fn"' 04 '"main"' \
    02 00 01 07 01 02 08 \
    70 00 02 00 11 01 02 \
    32 01 0a 01 02 1b 52 00)
is "$(( ${#code} / 2 ))" 40 "hand: the block's code is 40 bytes"
block="42 03 28 00 28 00 05 00 01 crc:$code"
# Index at 66: 1 block at offset 13, 3 events, tmin +0, tspan 5,
# ranks 0+1.
index='49 01 0d 03 00 05 00 01'
mk "$tmp/hand.trcb" $head $block $index end
cat > "$tmp/hand.want" <<'EOF'
#trc 1 ranks=2 order=time
0.000000000 0 SB peer=1 tag=*
0.000000005 1 RB fn=main
0.000000005 1 RB fn=main
EOF
expect_exit 0 "hand: trc-cat reads it" -- trc-cat "$tmp/hand.trcb"
is_file "$out" "$tmp/hand.want" "hand: the events the bytes say"
trc-cat < "$tmp/hand.trcb" > "$tmp/stdin.out" 2>&1
is_file "$tmp/stdin.out" "$tmp/hand.want" "hand: read from standard input"
gzip -c "$tmp/hand.trcb" > "$tmp/hand.trcb.gz"
trc-cat "$tmp/hand.trcb.gz" > "$tmp/gz.out" 2>&1
is_file "$tmp/gz.out" "$tmp/hand.want" "hand: gzip-compressed, inflated"
trc-sum "$tmp/hand.want" > "$tmp/sum.text"
trc-sum "$tmp/hand.trcb" > "$tmp/sum.trcb"
is_file "$tmp/sum.trcb" "$tmp/sum.text" "hand: trc-sum reads it as the text"
trc-cat --to trcb "$tmp/hand.want" > "$tmp/hand2.trcb"
is_file "$tmp/hand2.trcb" "$tmp/hand.trcb" "hand: trc-cat --to trcb writes those bytes"

# Two ranks' events interleaved: rank 0 at places 0 and 2, rank 1 at
# 1, 3 and 4, put back in stream order by trc-cat, taken a rank at a
# time by trc-sum.
# Block of 5 events, code of 65 (41) bytes, tmin 10 (zigzag 14), tspan
# 20 (14), ranks 0+1.  The code:
#  3 strings: "peer" (0), "tag" (1), "bytes" (2)
#  2 runs: rank 0, 2 events, 21 (15) bytes; rank 1, 3 events, 21
#  rank 0's: SB, keys, place 0 (bit 6): 70, time +0 from tmin, 3
#    attributes: key 0, 1 (11), key 1, 7 (zigzag 14, 14<<3|1 = 71),
#    key 2, 8 (zigzag 16, 16<<3|1 = 129: 81 01);
#    SE, keys (31), place 2 (0 + 1 + 01), time +10 (14), the same 3
#  rank 1's: RB, keys (32), place 1 (01, its first: the place
#    itself), time +2 from tmin (04), 2 attributes: key 0, 0 (01),
#    key 1, 7 (71);
#    RE, keys (33), place 3 (1 + 1 + 01), time +13 (1a), 3
#    attributes: 0, 7, 8;
#    MK, mode none, at the place after (0x40): 4a, time +5 (0a)
code2=$(hx 03 04 '"peer"' 03 '"tag"' 05 '"bytes"' \
    02 00 02 15 01 03 15 \
    70 00 03 00 11 01 71 02 8101 \
    31 01 14 03 00 11 01 71 02 8101 \
    32 01 04 02 00 01 01 71 \
    33 01 1a 03 00 01 01 71 02 8101 \
    4a 0a)
is "$(( ${#code2} / 2 ))" 65 "interleaved: the block's code is 65 bytes"
# The index at 91: offset 13, 5 events, tmin +10, tspan 20, ranks 0+1.
mk "$tmp/il.trcb" $head 42 05 41 00 41 14 14 00 01 crc:$code2 \
    49 01 0d 05 14 14 00 01 end
cat > "$tmp/il.want" <<'EOF'
#trc 1 ranks=2 order=time
0.000000010 0 SB peer=1 tag=7 bytes=8
0.000000012 1 RB peer=0 tag=7
0.000000020 0 SE peer=1 tag=7 bytes=8
0.000000025 1 RE peer=0 tag=7 bytes=8
0.000000030 1 MK
EOF
expect_exit 0 "interleaved: trc-cat reads it" -- trc-cat "$tmp/il.trcb"
is_file "$out" "$tmp/il.want" "interleaved: the events in stream order"
trc-sum "$tmp/il.want" > "$tmp/sum.text"
trc-sum "$tmp/il.trcb" > "$tmp/sum.trcb"
is_file "$tmp/sum.trcb" "$tmp/sum.text" "interleaved: trc-sum, by rank, as on the text"
trc-cat --to trcb "$tmp/il.want" > "$tmp/il2.trcb"
is_file "$tmp/il2.trcb" "$tmp/il.trcb" "interleaved: trc-cat --to trcb writes those bytes"

# Which slot an event is coded against (trc-formats(5)): a label that
# comes back repeats its own slot whole; an integer changed is coded
# against the slot it changes.  One rank, ranks=1, every time 0.
# Block of 5 events, code of 48 (30) bytes, tmin 0, tspan 0, ranks 0+0:
#  6 strings: "fn" (0), "a" (1), "b" (2), "op" (3), "x" (4), "bytes" (5)
#  1 run: rank 0, 5 events, 25 (19) bytes
#  PB (8), keys, slot 0, at place 0 (bit 6): 78, time +0, 1
#    attribute: key 0, string 1 (1<<3|3 = 0b)
#  PB fn=b, one string changed: keys in slot 1 (80 | 40 | 30 | 8 =
#    f8, which 01), time +0, key 0, string 2 (13)
#  PB fn=a: slot 0 as it is, mode same (58), time +0
#  XB (6), keys, slot 0 (76), time +0, 2 attributes: key 3, string 4
#    (23), key 5, integer 8 (zigzag 16, 16<<3|1 = 81 01)
#  XB bytes=9, one integer changed: values against slot 0 (66), time
#    +0, the values coded: bytes alone, value 1 (mask 1<<1 = 02), +1
#    (zigzag 2, 2<<3|1 = 11); op as the slot has it
code3=$(hx 06 02 '"fn"' 01 '"a"' 01 '"b"' 02 '"op"' 01 '"x"' 05 '"bytes"' \
    01 00 05 19 \
    78 00 01 00 0b \
    f8 01 00 01 00 13 \
    58 00 \
    76 00 02 03 23 05 8101 \
    66 00 02 11)
is "$(( ${#code3} / 2 ))" 48 "slots: the block's code is 48 bytes"
mk "$tmp/slots.trcb" 89545243420d0a1a 05 00 01 00 00 \
    42 05 30 00 30 00 00 00 00 crc:$code3 49 01 0d 05 00 00 00 00 end
cat > "$tmp/slots.want" <<'EOF'
#trc 1 ranks=1 order=time
0.000000000 0 PB fn=a
0.000000000 0 PB fn=b
0.000000000 0 PB fn=a
0.000000000 0 XB op=x bytes=8
0.000000000 0 XB op=x bytes=9
EOF
expect_exit 0 "slots: trc-cat reads it" -- trc-cat "$tmp/slots.trcb"
is_file "$out" "$tmp/slots.want" "slots: the events the bytes say"
trc-cat --to trcb "$tmp/slots.want" > "$tmp/slots2.trcb"
is_file "$tmp/slots2.trcb" "$tmp/slots.trcb" "slots: trc-cat --to trcb writes those bytes"

# ---- Round trips: trc-cat's text, through trcb and trcb-zstd, back.
# roundtrip NAME FILE [trc-cat options]: through trcb; NAME "data"
# alone, the traces of t/data (a hundred files, each trc-cat start
# dear under the sanitizers), not through trcb-zstd and trcb again,
# which code the same events as trcb does: the generated and odd
# streams below go those ways.
roundtrip() {
	_name=$1 _f=$2
	shift 2
	trc-cat "$@" "$_f" > "$tmp/rt.a" 2>/dev/null || return 3
	trc-cat --to trcb "$@" "$_f" > "$tmp/rt.b" &&
	    trc-cat "$tmp/rt.b" > "$tmp/rt.c" && cmp -s "$tmp/rt.a" "$tmp/rt.c" ||
	    return 1
	[ "$_name" = data ] && return 0
	trc-cat --to trcb-zstd -o "$tmp/rt.z" "$@" "$_f" &&
	    trc-cat "$tmp/rt.z" | cmp -s - "$tmp/rt.a" || return 1
	# and trcb to trcb again, the same bytes
	trc-cat --to trcb "$tmp/rt.b" | cmp -s - "$tmp/rt.b" || return 1
	return 0
}

n=0 bad=
for f in $(find "$T/data" -type f | sort); do
	roundtrip data "$f"
	case $? in
	0) n=$((n + 1)) ;;
	1) bad="$bad ${f#$T/}" ;;
	esac
done
is "$bad" "" "t/data: every trace the tools read goes round byte for byte"
[ "$n" -ge 20 ]; ok $? "t/data: $n traces read (at least 20)"

for p in ring halo allreduce master-worker; do
	for arg in "-n 4 -e 5000" "-n 13 -e 20000 -s 7 --bytes 100000"; do
		trc-gen -p $p $arg > "$tmp/gen.trc"
		roundtrip gen "$tmp/gen.trc"
		ok $? "trc-gen -p $p $arg: round trip byte for byte"
	done
done

# Attributes the text keeps as written: not canonical numbers stay
# strings, lists, big and negative numbers, unknown and repeated keys,
# empty values, 32 attributes, extra header lines, other orders.
cat > "$tmp/odd.trc" <<'EOF'
#trc 1 ranks=3 order=rank
# a comment kept as a header line
#clock source=test
0.5 2 SB peer=007 tag=05 bytes=4096 x=-0 y=00 z=-12 req=3
0.000000001 0 MK
0.000000002 0 MK iter=9223372036854775807 low=-9223372036854775808
0.000000003 0 MK iter=-1 low=1
0.6	2	SE   peer=1 tag=1 bytes=4096 req=3
0.7 2 WB req=3,4,5 op=waitall
0.8 2 WE req=3,05,6 op=waitall a= b==c
1.0 2 WB req=7,8,9,10 op=waitall fn=x fn=y peer=* peer=2
1.1 2 WB req=11,12 op=waitall
1.2 2 WB req=7,8,9,10 op=waitall fn=x fn=y peer=* peer=2
1.3 1 XB op=allreduce bytes=8 comm=0 root=0 a1=1 a2=2 a3=3 a4=4 a5=5 a6=6 a7=7 a8=8 a9=9 a10=10 a11=11 a12=12 a13=13 a14=14 a15=15 a16=16 a17=17 a18=18 a19=19 a20=20 a21=21 a22=22 a23=23 a24=24 a25=25 a26=26 a27=27 a28=28
0.000000004 0 MK iter=-1 low=1,-2,3
0.000000005 0 MK iter=-1 low=1,-2,3,-4
EOF
roundtrip odd "$tmp/odd.trc"
ok $? "odd attributes, order=rank: round trip byte for byte"
sed 's/order=rank/order=none/; s/^0.5 2/9.5 2/' "$tmp/odd.trc" > "$tmp/none.trc"
roundtrip none "$tmp/none.trc"
ok $? "order=none, times going back: round trip byte for byte"
printf '#trc 1\n' > "$tmp/empty.trc"
roundtrip empty "$tmp/empty.trc"
ok $? "no events: round trip byte for byte"
trc-gen -p halo -n 4 -e 200000 > "$tmp/big.trc"
roundtrip big "$tmp/big.trc"
ok $? "200000 events, several blocks: round trip byte for byte"
trc-cat -r 1,3 -k S,R "$tmp/big.trc" > "$tmp/sel.want"
trc-cat --to trcb "$tmp/big.trc" > "$tmp/big.trcb"
trc-cat -r 1,3 -k S,R "$tmp/big.trcb" > "$tmp/sel.got"
is_file "$tmp/sel.got" "$tmp/sel.want" "trc-cat -r -k select from trcb as from text"
[ "$(wc -c < "$tmp/big.trcb")" -le "$(( $(wc -c < "$tmp/big.trc") / 5 ))" ]
ok $? "trcb is at most a fifth of the text (halo, 200000 events)"
trc-stable "$tmp/big.trc" "$tmp/big.trcb" > /dev/null
ok $? "trc-stable: the text and its trcb are identical"
trc-sum "$tmp/big.trc" > "$tmp/s1"
trc-sum "$tmp/big.trcb" > "$tmp/s2"
is_file "$tmp/s2" "$tmp/s1" "trc-sum: the same summary from text and trcb"
# Blocks longer than the reader's 64 KiB buffer are read straight into
# the block's: from a pipe and gzip-inflated too, where a read returns
# less than asked.
cat "$tmp/big.trcb" | trc-cat > "$tmp/pipe.out"
is_file "$tmp/pipe.out" "$tmp/big.trc" "blocks over 64 KiB from a pipe: as the text"
gzip -c "$tmp/big.trcb" > "$tmp/big.trcb.gz"
trc-cat "$tmp/big.trcb.gz" > "$tmp/gzbig.out"
is_file "$tmp/gzbig.out" "$tmp/big.trc" "blocks over 64 KiB, gzip-compressed: as the text"
# The index, read by python (t/trcb_index.py): each block's offset and
# event count.
# Cut 1000 bytes into the second block's code.
python3 "$T/trcb_index.py" "$tmp/big.trcb" > "$tmp/index"
off2=$(sed -n '2s/ .*//p' "$tmp/index") nblocks=$(wc -l < "$tmp/index" | tr -d ' ')
[ "${nblocks:-0}" -ge 3 ]; ok $? "big.trcb: 3 blocks or more ($nblocks)"
head -c $(( off2 + 1000 )) "$tmp/big.trcb" > "$tmp/cutbig.trcb"
expect_exit 2 "cut in block 2, of over 64 KiB: exit 2" -- trc-cat "$tmp/cutbig.trcb"
is "$(cat "$err")" "trc-cat: $tmp/cutbig.trcb: block 2 at offset $off2: truncated block" \
    "cut in block 2, of over 64 KiB: message"
# A block holds 2048 events a rank (65536 at least): on 100 ranks,
# 204800.
trc-gen -p halo -n 100 -e 300000 > "$tmp/r100.trc"
trc-cat --to trcb -o "$tmp/r100.trcb" "$tmp/r100.trc"
n100=$(grep -vc '^#' "$tmp/r100.trc")
python3 "$T/trcb_index.py" "$tmp/r100.trcb" > "$tmp/index"
is "$(cut -d' ' -f2 "$tmp/index" | paste -sd' ' -)" "204800 $((n100 - 204800))" \
    "100 ranks: blocks of 204800 events"
trc-cat "$tmp/r100.trcb" | cmp -s - "$tmp/r100.trc"
ok $? "100 ranks: round trip byte for byte"
# trc-sum reads trcb by rank, most events in the reader's own way
# (r_run_usual: a slot as it was, integers and req= lists that step,
# deltas of mode values), the rest through r_run_any: every pattern, 16
# ranks, as from the text.
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 16 -e 30000 > "$tmp/p.trc"
	trc-cat --to trcb "$tmp/p.trc" > "$tmp/p.trcb"
	trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/p.trc" > "$tmp/s1"
	trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/p.trcb" > "$tmp/s2"
	is_file "$tmp/s2" "$tmp/s1" "trc-sum -t, every section: $p, trcb as text"
done
# On n ranks a rank's events are some n places apart: places of two
# varint bytes (128 and on) and ranks past the first page of rank
# states (1024 and on, lib/trc.h's TRC_PAGE) take that way too; of
# three bytes (16384 and on), r_run_any's.
for n in 300 1100 16500; do
	trc-gen -p halo -n $n -e 40000 > "$tmp/p.trc"
	trc-cat --to trcb "$tmp/p.trc" > "$tmp/p.trcb"
	trc-sum -t --section ranks,procs,ops,sizes "$tmp/p.trc" > "$tmp/s1"
	trc-sum -t --section ranks,procs,ops,sizes "$tmp/p.trcb" > "$tmp/s2"
	is_file "$tmp/s2" "$tmp/s1" "trc-sum -t: halo on $n ranks, trcb as text"
done

# Values that change between a string, "*" and integers in one slot
# (mode values: more labels and operations than a kind has slots), a
# receive from any and then from a rank; trc-sum on trcb as on text.
awk 'BEGIN {
	print "#trc 1 ranks=4 order=time"
	for (i = 0; i < 300; i++) {
		t = i * 10
		printf "%d 0 PB fn=f%d\n", t, i % 11
		printf "%d 0 RB peer=%s tag=%d\n", t + 1, i % 3 ? "*" : i % 4, i % 5
		printf "%d 0 RE peer=%d tag=%d bytes=%d\n", t + 2, i % 4, i % 5, 8 * i
		printf "%d 0 XB op=op%d\n", t + 3, i % 13
		printf "%d 0 XE op=op%d bytes=%d\n", t + 4, i % 13, i
		printf "%d 0 PE fn=f%d\n", t + 5, i % 11
	}
}' > "$tmp/mix.raw"
trc-cat "$tmp/mix.raw" > "$tmp/mix.trc"
trc-cat --to trcb "$tmp/mix.trc" > "$tmp/mix.trcb"
trc-cat "$tmp/mix.trcb" > "$tmp/mix.back"
is_file "$tmp/mix.back" "$tmp/mix.trc" "strings, * and integers in turn: round trip"
trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/mix.trc" > "$tmp/s1"
trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/mix.trcb" > "$tmp/s2"
is_file "$tmp/s2" "$tmp/s1" "strings, * and integers in turn: trc-sum on trcb as on text"

# sum_fails BASE LINE MESSAGE: BASE.trc made trcb (BASE.trcb), trc-sum
# on each exits 2 with "trc-sum: FILE:LINE: MESSAGE".
sum_fails() {
	trc-cat --to trcb "$1.trc" > "$1.trcb"
	for f in "$1.trc" "$1.trcb"; do
		expect_exit 2 "trc-sum, $3: ${f##*.}, exit 2" -- trc-sum "$f"
		is "$(cat "$err")" "trc-sum: $f:$2: $3" \
		    "trc-sum, $3: ${f##*.} names line $2"
	done
}

# A stream of no order promised (order=none) is taken in brief too, its
# ranks checked: trc-sum on trcb as on the text; and a rank whose time
# goes back deep in a block (4 of the 16 ranks kept), named at its line
# by both.
trc-gen -p halo -n 16 -e 30000 | sed '1s/order=time/order=none/' > "$tmp/none.trc"
trc-cat --to trcb "$tmp/none.trc" > "$tmp/none.trcb"
trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/none.trc" > "$tmp/s1"
trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/none.trcb" > "$tmp/s2"
is_file "$tmp/s2" "$tmp/s1" "order=none: trc-sum on trcb as on the text"
awk 'NR == 1 { print "#trc 1 ranks=4 order=none"; next }
	NR == 20002 { $1 = "0.000000001" } { print }' "$tmp/none.trc" |
    awk 'NR <= 2 || $2 < 4' > "$tmp/back.trc"
line=$(awk '$1 == "0.000000001" { print NR }' "$tmp/back.trc")
rank=$(awk '$1 == "0.000000001" { print $2 }' "$tmp/back.trc")
sum_fails "$tmp/back" "$line" "time goes backwards on rank $rank (order=none streams must keep each rank's events in time order)"

# trc-sum adds the events of trcb where the reader decoded them, a
# rank's many at a time (trc_next_run): an error in the middle of such
# a run names the event's own line, as from the text.  375 steps of 2 ranks,
# 8 lines each after the header, then a bad end of a region at line
# 3002 (or a region begun there, and ended badly at 3003), deep in a
# block, and more steps after it.
for bad in "0 PE fn=g" "1 PE fn=f"; do
	awk -v bad="$bad" 'function steps(from, n,   i, k, r) {
		split("PB fn=f,SB peer=@ tag=1 bytes=64,SE peer=@ tag=1 " \
		    "bytes=64,PE fn=f", ev, ",")
		for (i = from; i < from + n; i++)
			for (k = 1; k <= 4; k++)
				for (r = 0; r < 2; r++) {
					e = ev[k]
					sub(/@/, 1 - r, e)
					printf "0.%09d %d %s\n", i * 100 + k * 10, r, e
				}
	}
	BEGIN {
		print "#trc 1 ranks=2 order=time"
		steps(0, 375)
		if (bad ~ /fn=g/)
			printf "0.%09d 0 PB fn=f\n", 375 * 100
		printf "0.%09d %s\n", 375 * 100 + 5, bad
		steps(376, 100)
	}' > "$tmp/e.trc"
	case $bad in
	0*)	msg="PE fn='g' closes region 'f'" line=3003 ;;
	*)	msg="PE fn='f' with no open region" line=3002 ;;
	esac
	sum_fails "$tmp/e" "$line" "$msg"
done

# By rank the summary knows a PB's or PE's label by where its fields lie
# in the batch, once compared: a PE whose fields are those of one that
# closed 'a' closes 'a' only.  One rank, 100 steps of a (b nested) then
# b alone, 5 lines each from line 2; then PB fn=b (line 502) and PE
# fn=a (line 503), its fields an earlier PE's, within the batch.
awk 'BEGIN {
	print "#trc 1 ranks=1 order=time"
	for (i = 0; i < 100; i++) {
		t = i * 100
		printf "0.%09d 0 PB fn=a\n", t
		printf "0.%09d 0 PB fn=b\n", t + 10
		printf "0.%09d 0 PE fn=b\n", t + 20
		printf "0.%09d 0 PE fn=a\n", t + 30
		printf "0.%09d 0 MK\n", t + 40
	}
	printf "0.%09d 0 PB fn=b\n", 100 * 100
	printf "0.%09d 0 PE fn=a\n", 100 * 100 + 10
}' > "$tmp/k.trc"
sum_fails "$tmp/k" 503 "PE fn='a' closes region 'b'"
# And the same labels nested and alone, no error: as on the text.
awk 'BEGIN {
	print "#trc 1 ranks=2 order=time"
	for (i = 0; i < 300; i++) {
		t = i * 100
		f = i % 3 ? "a" : "b"
		g = f == "a" ? "b" : "a"
		o = i % 2 ? "x" : "y"
		for (r = 0; r < 2; r++)
			printf "0.%09d %d PB fn=%s\n", t, r, f
		for (r = 0; r < 2; r++)
			printf "0.%09d %d PB fn=%s\n", t + 10, r, g
		for (r = 0; r < 2; r++)
			printf "0.%09d %d XB op=%s\n", t + 15, r, o
		for (r = 0; r < 2; r++)
			printf "0.%09d %d XE op=%s\n", t + 17, r, o
		for (r = 0; r < 2; r++)
			printf "0.%09d %d PE fn=%s\n", t + 20, r, g
		for (r = 0; r < 2; r++)
			printf "0.%09d %d PE fn=%s\n", t + 30, r, f
	}
}' > "$tmp/k2.trc"
trc-cat --to trcb "$tmp/k2.trc" > "$tmp/k2.trcb"
trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/k2.trc" > "$tmp/s1"
trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/k2.trcb" > "$tmp/s2"
is_file "$tmp/s2" "$tmp/s1" "labels and operations known by their fields: trc-sum on trcb as on text"

# ---- Bad input.
# bad NAME FILE MESSAGE: trc-cat exits 2 with "trc-cat: FILE: MESSAGE".
# bad2: and trc-sum, which reads trcb by rank, its own way, with the
# same message.
bad() {
	expect_exit 2 "$1: exit 2" -- trc-cat "$2"
	is "$(cat "$err")" "trc-cat: $2: $3" "$1: message"
}
bad2() {
	bad "$@"
	expect_exit 2 "$1, trc-sum: exit 2" -- trc-sum "$2"
	is "$(cat "$err")" "trc-sum: $2: $3" "$1, trc-sum: message"
}
# one FILE EVENTS TSPAN RMIN RSPAN CODE: $head, then one block of that
# code at offset 13, stored, tmin 0, and its index.
one() {
	_len=$(( ${#6} / 2 ))
	mk "$1" $head 42 $(uv $2) $(uv $_len) 00 $(uv $_len) 00 $(uv $3) \
	    $(uv $4) $(uv $5) crc:$6 49 01 0d $(uv $2) 00 $(uv $3) $(uv $4) \
	    $(uv $5) end
}
# Versions 1 to 4 (1 to 3: their events in stream order; 4: mode
# values coded each value of the slot) are no longer read; 6 is none
# yet.  The header alone refuses them.
for v in 1 2 3 4; do
	mk "$tmp/v$v.trcb" 89545243420d0a1a 0$v 00 02 00 00 $block $index end
	bad "version $v" "$tmp/v$v.trcb" \
	    "trcb version $v is no longer read (convert it with the trc-cat that wrote it)"
done
mk "$tmp/v6.trcb" 89545243420d0a1a 06 00 02 00 00 $block $index end
bad "version 6" "$tmp/v6.trcb" "unsupported trcb version 6"
# A block's events at most, 1048576: at the limit, the header passes
# (and the runs count 3); one over, refused.
mk "$tmp/nev.trcb" $head 42 $(uv 1048576) 28 00 28 00 05 00 01 crc:$code $index end
bad "a block said of 1048576 events" "$tmp/nev.trcb" \
    "block 1 at offset 13: runs of 3 events, not 1048576"
mk "$tmp/nev1.trcb" $head 42 $(uv 1048577) 28 00 28 00 05 00 01 crc:$code $index end
bad "a block of 1048577 events" "$tmp/nev1.trcb" \
    "block 1 at offset 13: invalid event count 1048577"
# A block's code at most (trc-formats(5)): 16 bytes for each event its
# version allows and one event's largest, 6 x 65536: 1048576 x 16 +
# 393216 = 17170432.  At the limit, the header passes and the code is
# missing; a byte over, refused before the code.
lim=17170432
for n in $lim $((lim + 1)); do
	mk "$tmp/raw$n.trcb" $head \
	    42 03 $(uv $n) 00 $(uv $n) 00 05 00 01 crc:$code $index end
done
bad "a block of $lim bytes" "$tmp/raw$lim.trcb" \
    "block 1 at offset 13: truncated block"
bad "a block of $((lim + 1)) bytes" "$tmp/raw$((lim + 1)).trcb" \
    "block 1 at offset 13: block of $((lim + 1)) bytes, more than $lim"
mk "$tmp/magic.trcb" 89545243420d0a1a
head -c 7 "$tmp/magic.trcb" > "$tmp/short.trcb"
trc-cat -f trcb "$tmp/short.trcb" > "$out" 2> "$err"
is "$?:$(cat "$err")" "2:trc-cat: $tmp/short.trcb: offset 7: truncated header" \
    "a 7-byte file named trcb: truncated header"
trc-cat -f trcb "$tmp/hand.want" > "$out" 2> "$err"
is "$?:$(cat "$err")" "2:trc-cat: $tmp/hand.want: not a trcb stream (bad magic)" \
    "-f trcb on text: bad magic"
# hand.trcb: its block at 13 to 65, the index at 66 to 73, the end at
# 74 to 89.
head -c 40 "$tmp/hand.trcb" > "$tmp/cut.trcb"
bad "cut in a block" "$tmp/cut.trcb" "block 1 at offset 13: truncated block"
head -c 66 "$tmp/hand.trcb" > "$tmp/noend.trcb"
bad "no index" "$tmp/noend.trcb" "offset 66: truncated stream (no index and end)"
head -c 70 "$tmp/hand.trcb" > "$tmp/cutidx.trcb"
bad "cut in the index" "$tmp/cutidx.trcb" "offset 70: truncated index"
head -c 80 "$tmp/hand.trcb" > "$tmp/cutend.trcb"
bad "cut in the end" "$tmp/cutend.trcb" "offset 80: truncated end"
cp "$tmp/hand.trcb" "$tmp/more.trcb"
printf 'x' >> "$tmp/more.trcb"
bad "data after the end" "$tmp/more.trcb" "offset 90: data after the end"
mk "$tmp/idx.trcb" $head $block 49 01 0d 04 00 05 00 01 end
bad "index's count" "$tmp/idx.trcb" "offset 74: index counts 4 events, not 3"
# A run's rank of 11 varint bytes, all continued.
one "$tmp/varint.trcb" 1 0 0 0 $(hx 00 01 ffffffffffffffffffffff 01 02 4a 00)
bad2 "bad varint" "$tmp/varint.trcb" "block 1 at offset 13: bad run table"
# A place of 11 varint bytes: MK, mode none, at byte 5 (0a), the place
# at 6 to 16, time +0; a run of 13 bytes.
one "$tmp/varint2.trcb" 1 0 0 0 $(hx 00 01 00 01 0d 0a ffffffffffffffffffffff 00)
bad2 "bad varint in a place" "$tmp/varint2.trcb" \
    "block 1 at offset 13: bad place (event 1 of the block, byte 6)"
# The code with a byte changed after its checksum was taken (5 strings).
mk "$tmp/crc.trcb" $head 42 03 28 00 28 00 05 00 01 \
    "$(python3 "$tmp/sum.py" "$code")05$(echo "$code" | cut -c3-)" \
    $index end
bad "checksum" "$tmp/crc.trcb" "block 1 at offset 13: checksum mismatch"
# Codec zstd: the frame of 'zstd -c' of "hello world ..." with its
# block header's size byte changed, checksum right.
mk "$tmp/zstd.trcb" $head 42 03 1d 01 1f 00 05 00 01 \
    crc:28b52ffd0458ff00006068656c6c6f20776f726c64200100af4b126e2139f3 $index end
bad "corrupt zstd" "$tmp/zstd.trcb" \
    "block 1 at offset 13: corrupt zstd data: Data corruption detected"
mk "$tmp/codec.trcb" $head 42 03 28 07 28 00 05 00 01 crc:$code $index end
bad "unknown codec" "$tmp/codec.trcb" "block 1 at offset 13: unknown codec 7"
# peer= with a string value: refused as the text reader refuses it.
# Strings "peer", "x7"; a run of rank 0, 1 event, 5 bytes: SB, keys,
# place 0 (70), time +0, 1 attribute: key 0, string 1 (1<<3|3 = 0b).
one "$tmp/peer.trcb" 1 0 0 0 \
    $(hx 02 04 '"peer"' 02 '"x7"' 01 00 01 05 70 00 01 00 0b)
bad2 "invalid peer" "$tmp/peer.trcb" \
    "block 1 at offset 13: invalid peer 'x7' (line 2)"
# peer= an integer past int32, 2^32 (zigzag 2^33, code 2^36|1, a varint
# of 6 bytes): its text in the message, also from trc-sum, which reads
# fields only and has the reader make no text until then.
one "$tmp/bigpeer.trcb" 1 0 0 0 \
    $(hx 01 04 '"peer"' 01 00 01 0a 70 00 01 00 818080808002)
bad2 "peer past int32" "$tmp/bigpeer.trcb" \
    "block 1 at offset 13: invalid peer '4294967296' (line 2)"
# A value that steps (trc-formats(5)): peer=2147483646 (keys), then
# 2147483647 (values, 60: value 0 coded, mask 01, +1, zigzag 2, code
# 2<<3|1 = 11, the step 1), then mode same (50), which predicts
# 2147483648: past int32, refused as the text would be, by trc-cat and
# by trc-sum (which reads fields only).  A run of 3 events, 15 bytes,
# each at the place after (0x40).
one "$tmp/step.trcb" 3 0 0 0 \
    $(hx 01 04 '"peer"' 01 00 03 0f 70 00 01 00 e1ffffff7f 60 00 01 11 50 00)
bad "a step past int32" "$tmp/step.trcb" \
    "block 1 at offset 13: invalid peer '2147483648' (line 4)"
head -n 3 "$out" > "$tmp/step.got"
printf '%s\n' '#trc 1 ranks=2 order=time' '0.000000000 0 SB peer=2147483646' \
    '0.000000000 0 SB peer=2147483647' > "$tmp/step.want"
is_file "$tmp/step.got" "$tmp/step.want" "a step: the events before it, the second moved by 1"
expect_exit 2 "a step past int32, trc-sum: exit 2" -- trc-sum "$tmp/step.trcb"
is "$(cat "$err")" \
    "trc-sum: $tmp/step.trcb: block 1 at offset 13: invalid peer '2147483648' (line 4)" \
    "a step past int32, trc-sum: message"
# A request that steps below 0, where trc-sum (no_match) leaves its
# field unread but checks it all the same: req=1 (keys, 2<<3|1 = 11),
# 0 (values, mask 01, -1: zigzag 1, 1<<3|1 = 09, the step -1), then
# mode same, which predicts -1.  A run of 3 events, 11 bytes.
one "$tmp/reqstep.trcb" 3 0 0 0 \
    $(hx 01 03 '"req"' 01 00 03 0b 70 00 01 00 11 60 00 01 09 50 00)
bad2 "a request stepping below 0" "$tmp/reqstep.trcb" \
    "block 1 at offset 13: invalid req '-1' (line 4)"
# The same, past int32 by a delta of mode values, where trc-sum's
# reader takes the usual event itself (values_fast), four MK events of
# mode none (4a) after it in the run: peer=2147483646 (keys), +1
# (values, mask 01), +1 again: refused with the same message by
# trc-cat and trc-sum.  A run of 7 events, 25 bytes.
one "$tmp/vals.trcb" 7 0 0 0 \
    $(hx 01 04 '"peer"' 01 00 07 19 70 00 01 00 e1ffffff7f 60 00 01 11 \
    60 00 01 11 4a 00 4a 00 4a 00 4a 00)
bad2 "a delta past int32" "$tmp/vals.trcb" \
    "block 1 at offset 13: invalid peer '2147483648' (line 4)"
# A wait's req= list that steps below 0: 2,3 (WB, keys, 74: a list of
# 2, 2<<3|6 = 16, zigzag 4 then +1, 2), each -1 (values, 64: mask 01,
# 16 01 01), mode same (54: 0,1), mode same again (-1,0): refused as
# the text would be.  A run of 8 events, 25 bytes.
one "$tmp/reqs.trcb" 8 0 0 0 \
    $(hx 01 03 '"req"' 01 00 08 19 74 00 01 00 16 04 02 64 00 01 16 01 01 \
    54 00 54 00 4a 00 4a 00 4a 00 4a 00)
bad "a req= list below 0" "$tmp/reqs.trcb" \
    "block 1 at offset 13: invalid req '-1,0' (line 5)"
head -n 4 "$out" > "$tmp/reqs.got"
printf '%s\n' '#trc 1 ranks=2 order=time' '0.000000000 0 WB req=2,3' \
    '0.000000000 0 WB req=1,2' '0.000000000 0 WB req=0,1' > "$tmp/reqs.want"
is_file "$tmp/reqs.got" "$tmp/reqs.want" "a req= list: the events before it, each moved by -1"
expect_exit 2 "a req= list below 0, trc-sum: exit 2" -- trc-sum "$tmp/reqs.trcb"
is "$(cat "$err")" \
    "trc-sum: $tmp/reqs.trcb: block 1 at offset 13: invalid req '-1,0' (line 5)" \
    "a req= list below 0, trc-sum: message"
# Steps put off: where trc-sum (no_match) never reads a field that
# steps, its reader moves the value only when something reads it, as
# many steps as it knows safe, and the step that would leave the
# field's range is still refused at its line.  peer=2147483640 (keys,
# zigzag 2^32 - 16, code 81ffffff7f), +1 (values: 2147483641, step 1),
# then seven of mode same: 2147483642 to 2147483647 put off, the
# seventh, line 10, 2147483648.  A run of 9 events, 27 bytes.
one "$tmp/defer.trcb" 9 0 0 0 \
    $(hx 01 04 '"peer"' 01 00 09 1b 70 00 01 00 81ffffff7f 60 00 01 11 \
    50 00 50 00 50 00 50 00 50 00 50 00 50 00)
bad2 "steps put off, then past int32" "$tmp/defer.trcb" \
    "block 1 at offset 13: invalid peer '2147483648' (line 10)"
# Steps put off, then made good before mode values reads the slot:
# strings "bytes" (0), "req" (1); RB bytes=1 req=6 (keys, 72: 11, 61),
# req -2 (values, mask 02, zigzag 3: 19): 4, its step -2; mode same
# twice (52): 2, 0; then values of bytes alone (mask 01, +1: 11), req
# predicted -2, refused at line 6 (not 2, as two steps left out would
# give).  A run of 5 events, 19 bytes.
one "$tmp/defer2.trcb" 5 0 0 0 \
    $(hx 02 05 '"bytes"' 03 '"req"' 01 00 05 13 72 00 02 00 11 01 61 \
    62 00 02 19 52 00 52 00 62 00 01 11)
bad2 "steps put off, then a value of the slot" "$tmp/defer2.trcb" \
    "block 1 at offset 13: invalid req '-2' (line 6)"
# A wait's req= list put off: 4,5 (keys, 74: a list of 2, 16, zigzag
# 8 then +1, 2), each -1 (values, mask 01, 16 01 01): 3,4; mode same
# (54) four times: 2,3 1,2 0,1 put off, then -1,0 at line 7.  A run of
# 6 events, 21 bytes.
one "$tmp/defer3.trcb" 6 0 0 0 \
    $(hx 01 03 '"req"' 01 00 06 15 74 00 01 00 16 08 02 64 00 01 16 01 01 \
    54 00 54 00 54 00 54 00)
bad2 "a req= list's steps put off, then below 0" "$tmp/defer3.trcb" \
    "block 1 at offset 13: invalid req '-1,0' (line 7)"
# Mode values codes the values its mask names, the others as the slot
# predicts them (trc-formats(5)).  Strings "peer" (0), "bytes" (1),
# "req" (2), 16 bytes; a run of rank 0, 3 events, 19 (13) bytes, at
# byte 16, its events from byte 20:
#  RB (2), keys, at the place after (0x40): 72, time +0, 3 attributes:
#    peer 1 (zigzag 2, 2<<3|1 = 11), bytes 8 (zigzag 16, 16<<3|1 = 129:
#    81 01), req 5 (zigzag 10, 10<<3|1 = 51)
#  RB, values (62), time +0, mask 04 (req alone), +1 (11): req=6, its
#    step 1
#  RB, values, time +0, mask 03 (peer and bytes), peer +1 (11), bytes
#    +4 (zigzag 8, 8<<3|1 = 41); req not coded, moved by its step: 7
# Read by trc-cat (r_values) and by trc-sum (values_int) as the text.
_keys=$(hx 03 04 '"peer"' 05 '"bytes"' 03 '"req"')
_rb=$(hx 72 00 03 00 11 01 8101 02 51)
one "$tmp/mask.trcb" 3 0 0 0 $(hx $_keys 01 00 03 13 $_rb 62 00 04 11 \
    62 00 03 11 41)
printf '%s\n' '#trc 1 ranks=2 order=time' \
    '0.000000000 0 RB peer=1 bytes=8 req=5' \
    '0.000000000 0 RB peer=1 bytes=8 req=6' \
    '0.000000000 0 RB peer=2 bytes=12 req=7' > "$tmp/mask.want"
expect_exit 0 "a mask of values: trc-cat reads it" -- trc-cat "$tmp/mask.trcb"
is_file "$out" "$tmp/mask.want" "a mask of values: the values coded moved, the one not coded by its step"
trc-sum "$tmp/mask.want" > "$tmp/sum.text"
trc-sum "$tmp/mask.trcb" > "$tmp/sum.trcb"
is_file "$tmp/sum.trcb" "$tmp/sum.text" "a mask of values: trc-sum reads it as the text"
# The first two events, as trc-cat --to trcb writes them: those bytes.
one "$tmp/mask2.trcb" 2 0 0 0 $(hx $_keys 01 00 02 0e $_rb 62 00 04 11)
head -n 3 "$tmp/mask.want" > "$tmp/mask2.trc"
trc-cat --to trcb "$tmp/mask2.trc" > "$tmp/mask3.trcb"
is_file "$tmp/mask3.trcb" "$tmp/mask2.trcb" "a mask of values: trc-cat --to trcb writes it"
# The second event's mask bad, reported at its byte, 32: none (00); a
# value past the slot's three (08); a value coded 0 (version 4's
# same), not a value, reported past it (byte 34).
one "$tmp/mask0.trcb" 2 0 0 0 $(hx $_keys 01 00 02 0d $_rb 62 00 00)
bad2 "a mask of no value" "$tmp/mask0.trcb" \
    "block 1 at offset 13: bad attribute value (event 2 of the block, byte 32)"
one "$tmp/mask8.trcb" 2 0 0 0 $(hx $_keys 01 00 02 0e $_rb 62 00 08 11)
bad2 "a mask past the slot's values" "$tmp/mask8.trcb" \
    "block 1 at offset 13: bad attribute value (event 2 of the block, byte 32)"
one "$tmp/mask00.trcb" 2 0 0 0 $(hx $_keys 01 00 02 0e $_rb 62 00 01 00)
bad2 "a value coded 0" "$tmp/mask00.trcb" \
    "block 1 at offset 13: bad attribute value (event 2 of the block, byte 34)"
# The rest of the code by hand: no strings, a run of rank 0 (rank 3
# below), 1 event, 2 bytes, at byte 5: MK (0x0a) at place 0 (0x40).
# Mode same (5a) with nothing before it; its attributes at byte 7.
one "$tmp/same.trcb" 1 0 0 0 $(hx 00 01 00 01 02 5a 00)
bad2 "same without a slot" "$tmp/same.trcb" \
    "block 1 at offset 13: bad attribute (event 1 of the block, byte 7)"
# A time past the block's tspan, 5: +10 (zigzag 14).
one "$tmp/time.trcb" 1 5 0 0 $(hx 00 01 00 01 02 4a 14)
bad2 "time out of the block" "$tmp/time.trcb" \
    "block 1 at offset 13: time outside the block's range (event 1 of the block, byte 7)"
# A time past 2^63 - 1 on the way: a block from tmin 2^63 - 6 to
# 2^63 - 1 (tspan 5), rank 0's MK at tmin, then its next 2^34 - 1
# later (zigzag 2^35 - 2, five bytes, the most the usual way reads):
# refused by both readers, not wrapped round to a time in range.  Its
# head is byte 7 of the code, its time bytes 8 to 12; the message
# names the byte after the time, as above.
_tmin=$(uv $(python3 -c 'print(2 * (2**63 - 6))'))
_code=$(hx 00 01 00 02 08 4a 00 4a $(uv $(python3 -c 'print(2**35 - 2)')))
mk "$tmp/wrap.trcb" $head 42 02 0d 00 0d $_tmin 05 00 00 crc:$_code \
    49 01 0d 02 $_tmin 05 00 00 end
bad2 "a time past 2^63 - 1" "$tmp/wrap.trcb" \
    "block 1 at offset 13: time outside the block's range (event 2 of the block, byte 13)"
# A head of kind 11, none.
one "$tmp/kind.trcb" 1 0 0 0 $(hx 00 01 00 01 02 4b 00)
bad2 "kind 11" "$tmp/kind.trcb" \
    "block 1 at offset 13: bad event head (event 1 of the block, byte 6)"
# A run of rank 3, in the block's range 0 to 0+3, past the header's
# ranks=2: named at the line the event has in the text, by trc-cat
# (in stream order) and by trc-sum (by rank).
one "$tmp/rank.trcb" 1 0 0 3 $(hx 00 01 03 01 02 4a 00)
for tool in trc-cat trc-sum; do
	expect_exit 2 "rank out of range, $tool: exit 2" -- $tool "$tmp/rank.trcb"
	is "$(cat "$err")" "$tool: $tmp/rank.trcb:2: rank 3 out of range (ranks=2)" \
	    "rank out of range, $tool: the line the event has in the text"
done
# The block's strings and runs (trc-formats(5)), each rule broken.  A
# string is a word of the text or empty, a value's ("a="), never a
# key's: MK, mode keys, 1 attribute, key string 0 (empty), value 0,
# refused as the key is read (byte 10 of the code).
one "$tmp/str0.trcb" 1 0 0 0 $(hx 01 00 01 00 01 05 7a 00 01 00 01)
bad2 "a key of 0 bytes" "$tmp/str0.trcb" \
    "block 1 at offset 13: bad attribute (event 1 of the block, byte 10)"
one "$tmp/strsp.trcb" 1 0 0 0 $(hx 01 03 '"a"' 20 '"b"' 01 00 01 02 4a 00)
bad2 "a string with a blank" "$tmp/strsp.trcb" "block 1 at offset 13: bad string table"
# The runs' counts sum to the block's events: 1 of 2; a run of 2 in a
# block of 1.
one "$tmp/few.trcb" 2 0 0 1 $(hx 00 01 00 01 02 4a 00)
bad2 "runs of fewer events than the block's" "$tmp/few.trcb" \
    "block 1 at offset 13: runs of 1 events, not 2"
one "$tmp/many.trcb" 1 0 0 0 $(hx 00 01 00 02 04 4a 00 4a 00)
bad2 "a run of more events than the block's" "$tmp/many.trcb" \
    "block 1 at offset 13: bad run table"
# Their sizes sum to the rest of the code: 2 of 3.
one "$tmp/size.trcb" 1 0 0 0 $(hx 00 01 00 01 02 4a 00 00)
bad2 "runs of fewer bytes than the code's" "$tmp/size.trcb" \
    "block 1 at offset 13: runs of 2 bytes, not 3"
# Ranks increasing: rank 1's run (its event at place 0) before rank
# 0's (place 1: 0a 01 00).
one "$tmp/order.trcb" 2 0 0 1 $(hx 00 02 01 01 02 00 01 03 4a 00 0a 01 00)
bad2 "runs of ranks not increasing" "$tmp/order.trcb" \
    "block 1 at offset 13: bad run table"
# Each place one event: ranks 0 and 1 each at place 0 (4a, bit 6), the
# second's head at byte 10.
one "$tmp/twice.trcb" 2 0 0 1 $(hx 00 02 00 01 02 01 01 02 4a 00 4a 00)
bad2 "two events at place 0" "$tmp/twice.trcb" \
    "block 1 at offset 13: two events at one place (event 1 of the block, byte 11)"
# The same past each rank's first event, where each reader takes the
# usual events in its own loop: rank 0 at places 0 (4a) and 2 (0a 01),
# rank 1 at 1 (0a 01) and 2 again (4a, its head at byte 16).  In
# stream order, rank 1's next place is found owned; by rank (trc-sum),
# whose loop does not look, place 3 is found without an event at the
# block's end.
one "$tmp/twice2.trcb" 4 0 0 1 $(hx 00 02 00 02 05 01 02 05 4a 00 0a 01 00 0a 01 00 4a 00)
bad "two events at place 2" "$tmp/twice2.trcb" \
    "block 1 at offset 13: two events at one place (event 3 of the block, byte 17)"
expect_exit 2 "two events at place 2, trc-sum: exit 2" -- trc-sum "$tmp/twice2.trcb"
is "$(cat "$err")" \
    "trc-sum: $tmp/twice2.trcb: block 1 at offset 13: no event at place 3 of the block, two at another" \
    "two events at place 2, trc-sum: the place left without one"
# The same in a stream of no order (no time order to find it by): the
# order byte made 2.
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[11] = 2; open(sys.argv[2], "wb").write(d)' \
    "$tmp/twice2.trcb" "$tmp/twice2n.trcb"
expect_exit 2 "two events at place 2, order=none, trc-sum: exit 2" -- trc-sum "$tmp/twice2n.trcb"
is "$(cat "$err")" \
    "trc-sum: $tmp/twice2n.trcb: block 1 at offset 13: no event at place 3 of the block, two at another" \
    "two events at place 2, order=none, trc-sum: the place left without one"
# Places below the block's events: rank 1's first at place 2 (0a 02)
# of 2; its place read at byte 11, before any (event 1).
one "$tmp/past.trcb" 2 0 0 1 $(hx 00 02 00 01 02 01 01 03 4a 00 0a 02 00)
bad2 "a place past the block's events" "$tmp/past.trcb" \
    "block 1 at offset 13: bad place (event 1 of the block, byte 12)"
# A place written, 0 (0a 00), where bit 6 would say it: 1 or more.
one "$tmp/place0.trcb" 1 0 0 0 $(hx 00 01 00 01 03 0a 00 00)
bad2 "a place of 0 written" "$tmp/place0.trcb" \
    "block 1 at offset 13: bad place (event 1 of the block, byte 7)"
# A run of 1 event and 3 bytes: a byte (ff, at 7) after the event.
one "$tmp/left.trcb" 1 0 0 0 $(hx 00 01 00 01 03 4a 00 ff)
bad2 "a byte after a rank's last event" "$tmp/left.trcb" \
    "block 1 at offset 13: bytes after a rank's last event (event 1 of the block, byte 7)"
# Strings past the table, of 1 ("x"): MK, keys (7a), time +0, 1
# attribute, from byte 9: key 1, or key 0 and string 1 (0b); and value
# code 4 (0c), version 3's new string "7", no longer used.
one "$tmp/key.trcb" 1 0 0 0 $(hx 01 01 '"x"' 01 00 01 05 7a 00 01 01 11)
bad2 "a key past the strings" "$tmp/key.trcb" \
    "block 1 at offset 13: bad attribute (event 1 of the block, byte 11)"
one "$tmp/val.trcb" 1 0 0 0 $(hx 01 01 '"x"' 01 00 01 05 7a 00 01 00 0b)
bad2 "a value past the strings" "$tmp/val.trcb" \
    "block 1 at offset 13: bad attribute value (event 1 of the block, byte 12)"
one "$tmp/new.trcb" 1 0 0 0 $(hx 01 01 '"x"' 01 00 01 06 7a 00 01 00 0c 37)
bad2 "value code 4" "$tmp/new.trcb" \
    "block 1 at offset 13: bad attribute value (event 1 of the block, byte 12)"
# Fuzz: 36 copies of two trcb streams, a few bytes changed, cut, or
# bytes inserted (the same each run), each read to the end: every one
# either reads (0) or is refused (2) with one message, never a crash.
# Most fail their block's checksum; the fuzz target (fuzz/trcb.c, its
# corpus replayed by t/0900) mends the checksums to reach the decoder.
trc-gen -p master-worker -n 5 -e 3000 | trc-cat --to trcb > "$tmp/fz.trcb"
trc-gen -p halo -n 3 -e 200 | trc-cat --to trcb-zstd > "$tmp/fz2.trcb"
mkdir "$tmp/fz"
python3 - "$tmp/fz.trcb" "$tmp/fz2.trcb" "$tmp/fz" <<'EOF'
import random, sys
rnd = random.Random(16)
srcs = [open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()]
for i in range(36):
    b = bytearray(srcs[i % 2])
    how = i % 3
    if how == 0:
        for _ in range(rnd.randint(1, 4)):
            b[rnd.randrange(8, len(b))] = rnd.randrange(256)
    elif how == 1:
        del b[rnd.randrange(9, len(b)):]
    else:
        p = rnd.randrange(9, len(b))
        b[p:p] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 9)))
    open('%s/%03d.trcb' % (sys.argv[3], i), 'wb').write(b)
EOF
bad=
for f in "$tmp"/fz/*.trcb; do
	trc-cat "$f" > /dev/null 2> "$err"
	rc=$?
	if [ $rc -ne 0 ] && { [ $rc -ne 2 ] || [ "$(wc -l < "$err")" -ne 1 ] ||
	    ! grep -q "^trc-cat: $f" "$err"; }; then
		bad="$bad ${f##*/}:$rc"
	fi
done
is "$bad" "" "fuzz: 36 damaged streams read or refused with one message"
expect_exit 2 "--to trcb, bad path: exit 2" -- trc-cat --to trcb -o /nonexistent/x.trcb "$tmp/hand.want"
is "$(cat "$err")" "trc-cat: /nonexistent/x.trcb: No such file or directory" "--to trcb, bad path: message"
if [ -w /dev/full ]; then
	trc-cat --to trcb "$tmp/big.trc" > /dev/full 2> "$err"
	is "$?:$(cat "$err")" "2:trc-cat: <stdout>: write error: No space left on device" "--to trcb on a full disk"
fi
# A header line that is no '#' line (the third of the text form, "# cd"
# made "x cd"; the header holds no checksum): refused, as it would be
# written before the events.
printf '#trc 1 ranks=1\n# ab\n# cd\n0 0 PB fn=a\n1 0 PE fn=a\n' > "$tmp/h.trc"
trc-cat --to trcb -o "$tmp/h.trcb" "$tmp/h.trc"
printf '#trc 1 ranks=1 order=time\n# ab\n# cd\n0.000000000 0 PB fn=a\n1.000000000 0 PE fn=a\n' > "$tmp/h.want"
expect_exit 0 "two header lines: read back" -- trc-cat "$tmp/h.trcb"
is_file "$out" "$tmp/h.want" "two header lines: the same stream"
perl -pi -e 's/^# cd$/x cd/' "$tmp/h.trcb"
# the offset: the header's end, "x cd\n" its last line
off=$(( $(grep -obUa 'x cd' "$tmp/h.trcb" | cut -d: -f1) + 5 ))
expect_exit 2 "a header line of no '#': exit 2" -- trc-cat "$tmp/h.trcb"
is "$(cat "$err")" "trc-cat: $tmp/h.trcb: offset $off: header line 3 does not begin with '#'" \
    "a header line of no '#': message"
done_testing
