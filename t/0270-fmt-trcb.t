#!/bin/sh
# trcb, the binary stream: a file written by hand from trc-formats(5)
# read as the text it stands for; round trips trc -> trcb -> trc byte
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

# ---- A stream written by hand, byte by byte from trc-formats(5).
# Header: magic, version 3, flags 0, ranks=2, order time, no extra.
head='89545243420d0a1a 03 00 02 00 00'
# Block 1 at offset 13: 3 events, code of 29 bytes, stored, tmin 0,
# tspan 5, ranks 0 to 0+1.
#  SB, mode keys (0x30), rank 0, time +0, 2 attributes:
#    new key "peer" (4<<1|1 = 09), integer 1 (zigzag 2, 2<<3|1 = 11),
#    new key "tag" (07), any (02)
#  RB, mode keys (0x32), rank 1, time +5 (zigzag 0a), 1 attribute:
#    new key "fn" (05), new string "main" (4<<3|4 = 24)
#  RB, mode same (0x10) on the rank before (0x40): 0x52, time +0
code='30 00 00 02 09"peer" 11 07"tag" 02 32 01 0a 01 05"fn" 24"main" 52 00'
code=$(echo "$code" | sed 's/"peer"/70656572/; s/"tag"/746167/; s/"fn"/666e/; s/"main"/6d61696e/; s/ //g')
is "$(( ${#code} / 2 ))" 29 "hand: the block's code is 29 bytes"
block="42 03 1d 00 1d 00 05 00 01 crc:$code"
# Index: 1 block at offset 13, 3 events, tmin +0, tspan 5, ranks 0+1.
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
# The index (trc-formats(5)), read here by python, not by the reader:
# index.py FILE prints each block's offset and event count, a line each.
cat > "$tmp/index.py" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
def uv(p):
    v = s = 0
    while True:
        v |= (d[p] & 0x7f) << s
        s += 7
        p += 1
        if d[p - 1] < 0x80:
            return v, p
i = int.from_bytes(d[-16:-8], 'little')
n, p = uv(i + 1)
off = 0
for k in range(n):
    delta, p = uv(p)
    off += delta
    count, p = uv(p)
    print(off, count)
    for j in range(4):
        _, p = uv(p)
EOF
# Cut 1000 bytes into the second block's code.
python3 "$tmp/index.py" "$tmp/big.trcb" > "$tmp/index"
off2=$(sed -n '2s/ .*//p' "$tmp/index") nblocks=$(wc -l < "$tmp/index" | tr -d ' ')
[ "${nblocks:-0}" -ge 3 ]; ok $? "big.trcb: 3 blocks or more ($nblocks)"
head -c $(( off2 + 1000 )) "$tmp/big.trcb" > "$tmp/cutbig.trcb"
expect_exit 2 "cut in block 2, of over 64 KiB: exit 2" -- trc-cat "$tmp/cutbig.trcb"
is "$(cat "$err")" "trc-cat: $tmp/cutbig.trcb: block 2 at offset $off2: truncated block" \
    "cut in block 2, of over 64 KiB: message"
# A block holds 1024 events a rank (65536 at least): on 100 ranks,
# 102400.  Version 2 allowed 65536.
trc-gen -p halo -n 100 -e 150000 > "$tmp/r100.trc"
trc-cat --to trcb -o "$tmp/r100.trcb" "$tmp/r100.trc"
n100=$(grep -vc '^#' "$tmp/r100.trc")
python3 "$tmp/index.py" "$tmp/r100.trcb" > "$tmp/index"
off1=$(sed -n '1s/ .*//p' "$tmp/index")
is "$(cut -d' ' -f2 "$tmp/index" | paste -sd' ' -)" "102400 $((n100 - 102400))" \
    "100 ranks: blocks of 102400 events"
trc-cat "$tmp/r100.trcb" | cmp -s - "$tmp/r100.trc"
ok $? "100 ranks: round trip byte for byte"
# The same bytes said to be version 2: its block is too long.
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[8] = 2; open(sys.argv[2], "wb").write(d)' \
    "$tmp/r100.trcb" "$tmp/r100v2.trcb"
expect_exit 2 "version 2, a block of 102400 events: exit 2" -- trc-cat "$tmp/r100v2.trcb"
is "$(cat "$err")" "trc-cat: $tmp/r100v2.trcb: block 1 at offset $off1: invalid event count 102400" \
    "version 2, a block of 102400 events: message"
# trc-sum reads most events of trcb in r_next's own way (a slot as it
# was, integers and req= lists that step, deltas of mode values), the
# rest through r_next_any: every pattern, 16 ranks, as from the text.
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 16 -e 30000 > "$tmp/p.trc"
	trc-cat --to trcb "$tmp/p.trc" > "$tmp/p.trcb"
	trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/p.trc" > "$tmp/s1"
	trc-sum -t --section ranks,procs,ops,sizes,profile "$tmp/p.trcb" > "$tmp/s2"
	is_file "$tmp/s2" "$tmp/s1" "trc-sum -t, every section: $p, trcb as text"
done
# Ranks of two varint bytes (128 and on) and past the first page of
# rank states (1024 and on, lib/trc.h's TRC_PAGE) take that way too; of
# three bytes (16384 and on), r_next_any's.
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

# trc-sum adds most events of trcb where the reader decoded them, many
# at a time (trc_next_brief): an error in the middle of such a run
# names the event's own line, as from the text.  375 steps of 2 ranks,
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

# ---- Bad input.
# bad NAME FILE MESSAGE: trc-cat exits 2 with "trc-cat: FILE: MESSAGE".
bad() {
	expect_exit 2 "$1: exit 2" -- trc-cat "$2"
	is "$(cat "$err")" "trc-cat: $2: $3" "$1: message"
}
mk "$tmp/v1.trcb" 89545243420d0a1a 01 00 02 00 00 $block $index end
bad "version 1" "$tmp/v1.trcb" "unsupported trcb version 1"
mk "$tmp/v4.trcb" 89545243420d0a1a 04 00 02 00 00 $block $index end
bad "version 4" "$tmp/v4.trcb" "unsupported trcb version 4"
# Version 2, of blocks of 64 Ki events at most, is read as before.
mk "$tmp/v2.trcb" 89545243420d0a1a 02 00 02 00 00 $block $index end
expect_exit 0 "version 2: read" -- trc-cat "$tmp/v2.trcb"
is_file "$out" "$tmp/hand.want" "version 2: the same events"
# A block's code at most (trc-formats(5)): 16 bytes for each event its
# version allows and one event's largest, 6 x 65536: in version 2
# 65536 x 16 + 393216 = 1441792, since 1048576 x 16 + 393216 =
# 17170432.  At the limit, the header passes and the code is missing;
# a byte over, refused before the code.  uv N: N as a varint, in hex.
uv() { python3 -c 'import sys
n = int(sys.argv[1]); o = b""
while n >= 128: o += bytes([n & 127 | 128]); n >>= 7
print((o + bytes([n])).hex())' "$1"; }
for vl in 02:1441792 03:17170432; do
	v=${vl%:*} lim=${vl#*:}
	for n in $lim $((lim + 1)); do
		mk "$tmp/raw$n.trcb" 89545243420d0a1a $v 00 02 00 00 \
		    42 03 $(uv $n) 00 $(uv $n) 00 05 00 01 crc:$code $index end
	done
	bad "version ${v#0}, a block of $lim bytes" "$tmp/raw$lim.trcb" \
	    "block 1 at offset 13: truncated block"
	bad "version ${v#0}, a block of $((lim + 1)) bytes" "$tmp/raw$((lim + 1)).trcb" \
	    "block 1 at offset 13: block of $((lim + 1)) bytes, more than $lim"
done
mk "$tmp/magic.trcb" 89545243420d0a1a
head -c 7 "$tmp/magic.trcb" > "$tmp/short.trcb"
trc-cat -f trcb "$tmp/short.trcb" > "$out" 2> "$err"
is "$?:$(cat "$err")" "2:trc-cat: $tmp/short.trcb: offset 7: truncated header" \
    "a 7-byte file named trcb: truncated header"
trc-cat -f trcb "$tmp/hand.want" > "$out" 2> "$err"
is "$?:$(cat "$err")" "2:trc-cat: $tmp/hand.want: not a trcb stream (bad magic)" \
    "-f trcb on text: bad magic"
head -c 40 "$tmp/hand.trcb" > "$tmp/cut.trcb"
bad "cut in a block" "$tmp/cut.trcb" "block 1 at offset 13: truncated block"
head -c 55 "$tmp/hand.trcb" > "$tmp/noend.trcb"
bad "no index" "$tmp/noend.trcb" "offset 55: truncated stream (no index and end)"
head -c 60 "$tmp/hand.trcb" > "$tmp/cutidx.trcb"
bad "cut in the index" "$tmp/cutidx.trcb" "offset 60: truncated index"
head -c 70 "$tmp/hand.trcb" > "$tmp/cutend.trcb"
bad "cut in the end" "$tmp/cutend.trcb" "offset 70: truncated end"
cp "$tmp/hand.trcb" "$tmp/more.trcb"
printf 'x' >> "$tmp/more.trcb"
bad "data after the end" "$tmp/more.trcb" "offset 79: data after the end"
mk "$tmp/idx.trcb" $head $block 49 01 0d 04 00 05 00 01 end
bad "index's count" "$tmp/idx.trcb" "offset 63: index counts 4 events, not 3"
# A rank of 11 varint bytes, all continued.
c2=30ffffffffffffffffffffff00
mk "$tmp/varint.trcb" $head 42 01 0d 00 0d 00 05 00 01 crc:$c2 $index end
bad "bad varint" "$tmp/varint.trcb" \
    "block 1 at offset 13: bad rank (event 1 of the block, byte 1)"
# The code with a byte changed after its checksum was taken.
mk "$tmp/crc.trcb" $head 42 03 1d 00 1d 00 05 00 01 \
    "$(python3 "$tmp/sum.py" "$code")31$(echo "$code" | cut -c3-)" \
    $index end
bad "checksum" "$tmp/crc.trcb" "block 1 at offset 13: checksum mismatch"
# Codec zstd: the frame of 'zstd -c' of "hello world ..." with its
# block header's size byte changed, checksum right.
mk "$tmp/zstd.trcb" $head 42 03 1d 01 1f 00 05 00 01 \
    crc:28b52ffd0458ff00006068656c6c6f20776f726c64200100af4b126e2139f3 $index end
bad "corrupt zstd" "$tmp/zstd.trcb" \
    "block 1 at offset 13: corrupt zstd data: Data corruption detected"
mk "$tmp/codec.trcb" $head 42 03 1d 07 1d 00 05 00 01 crc:$code $index end
bad "unknown codec" "$tmp/codec.trcb" "block 1 at offset 13: unknown codec 7"
# peer= with a string value: refused as the text reader refuses it.
c3=$(echo '30 00 00 01 09 70656572 14 7837' | tr -d ' ')
mk "$tmp/peer.trcb" $head 42 01 0c 00 0c 00 05 00 01 crc:$c3 \
    49 01 0d 01 00 05 00 01 end
bad "invalid peer" "$tmp/peer.trcb" \
    "block 1 at offset 13: invalid peer 'x7' (line 2)"
# peer= an integer past int32, 2^32 (zigzag 2^33, code 2^36|1, a varint
# of 6 bytes): its text in the message, also from trc-sum, which reads
# fields only and has the reader make no text until then.
c4=$(echo '30 00 00 01 09 70656572 818080808002' | tr -d ' ')
mk "$tmp/bigpeer.trcb" $head 42 01 0f 00 0f 00 05 00 01 crc:$c4 \
    49 01 0d 01 00 05 00 01 end
bad "peer past int32" "$tmp/bigpeer.trcb" \
    "block 1 at offset 13: invalid peer '4294967296' (line 2)"
expect_exit 2 "peer past int32, trc-sum: exit 2" -- trc-sum "$tmp/bigpeer.trcb"
is "$(cat "$err")" \
    "trc-sum: $tmp/bigpeer.trcb: block 1 at offset 13: invalid peer '4294967296' (line 2)" \
    "peer past int32, trc-sum: message"
# A value that steps (trc-formats(5)): peer=2147483646 (keys), then
# 2147483647 (values, +1: zigzag 2, code 2<<3|1 = 11, the step 1), then
# mode same, which predicts 2147483648: past int32, refused as the text
# would be, by trc-cat and by trc-sum (which reads fields only).
c5=$(echo '30 00 00 01 09 70656572 e1ffffff7f 60 00 11 50 00' | tr -d ' ')
mk "$tmp/step.trcb" $head 42 03 13 00 13 00 00 00 00 crc:$c5 \
    49 01 0d 03 00 00 00 00 end
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
# The same, past int32 by a delta of mode values, where r_next reads the
# usual event itself (eight bytes and more left in the block, so four
# MK events of mode none after it): peer=2147483646 (keys), +1 (values),
# +1 again: refused with the same message by trc-cat and trc-sum.
c6=$(echo '30 00 00 01 09 70656572 e1ffffff7f 60 00 11 60 00 11' \
    '4a 00 4a 00 4a 00 4a 00' | tr -d ' ')
mk "$tmp/vals.trcb" $head 42 07 1c 00 1c 00 00 00 00 crc:$c6 \
    49 01 0d 07 00 00 00 00 end
bad "a delta past int32" "$tmp/vals.trcb" \
    "block 1 at offset 13: invalid peer '2147483648' (line 4)"
expect_exit 2 "a delta past int32, trc-sum: exit 2" -- trc-sum "$tmp/vals.trcb"
is "$(cat "$err")" \
    "trc-sum: $tmp/vals.trcb: block 1 at offset 13: invalid peer '2147483648' (line 4)" \
    "a delta past int32, trc-sum: message"
# A wait's req= list that steps below 0: 2,3 (keys: a list of 2, 2<<3|6
# = 16, zigzag 4 then +1, 2), each -1 (values: 16 01 01), mode same
# (0,1), mode same again (-1,0): refused as the text would be.
c7=$(echo '34 00 00 01 07 726571 16 04 02 64 00 16 01 01 54 00 54 00' \
    '4a 00 4a 00 4a 00 4a 00' | tr -d ' ')
mk "$tmp/reqs.trcb" $head 42 08 1c 00 1c 00 00 00 00 crc:$c7 \
    49 01 0d 08 00 00 00 00 end
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
# Mode same with nothing before it.
mk "$tmp/same.trcb" $head 42 01 03 00 03 00 05 00 01 crc:100000 \
    49 01 0d 01 00 05 00 01 end
bad "same without a slot" "$tmp/same.trcb" \
    "block 1 at offset 13: bad attribute (event 1 of the block, byte 3)"
# A time past the block's tspan.
mk "$tmp/time.trcb" $head 42 01 03 00 03 00 05 00 01 crc:000014 \
    49 01 0d 01 00 05 00 01 end
bad "time out of the block" "$tmp/time.trcb" \
    "block 1 at offset 13: time outside the block's range (event 1 of the block, byte 3)"
# A rank past the header's ranks=2 (the block says so too).
mk "$tmp/rank.trcb" $head 42 01 03 00 03 00 05 00 03 crc:000300 \
    49 01 0d 01 00 05 00 03 end
expect_exit 2 "rank out of range: exit 2" -- trc-cat "$tmp/rank.trcb"
is "$(cat "$err")" "trc-cat: $tmp/rank.trcb:2: rank 3 out of range (ranks=2)" \
    "rank out of range: the line the event has in the text"
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
