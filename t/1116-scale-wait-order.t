#!/bin/sh
# trc-scale: the RE lines inside a wait come in the order of the
# wait's req= list (trc(5)); a stream that breaks it is refused, naming
# the line.  Expected times by hand.
. "$(dirname "$0")/lib.sh"

# Rank 0 posts receives 1 (from rank 1) and 2 (from rank 2) and waits
# for both from 1 s; rank 1 sends at 0-0.5 s, rank 2 at 2-2.5 s.  With
# g2 = 0.25 s and the sends kept (no send cost): RE 1 at max(1 + 0.25,
# 0.5) = 1.25, RE 2 at max(1.25 + 0.25, 2.5) = 2.5, WE 2.5 + 0.
cat >"$tmp/ok.trc" <<'X'
#trc 1 ranks=3
0.000000000 0 RB peer=1 tag=1 bytes=8 req=1
0.000000000 0 RB peer=2 tag=1 bytes=8 req=2
0.000000000 1 SB peer=0 tag=1 bytes=8
0.500000000 1 SE peer=0 tag=1 bytes=8
1.000000000 0 WB req=1,2 op=waitall
2.000000000 2 SB peer=0 tag=1 bytes=8
2.500000000 2 SE peer=0 tag=1 bytes=8
3.000000000 0 RE req=1 peer=1 tag=1 bytes=8
3.000000000 0 RE req=2 peer=2 tag=1 bytes=8
3.000000000 0 WE req=1,2 op=waitall
X
printf 'recv 0 inf 0.25 0\n' >"$tmp/g.fit"
expect_exit 0 "REs in the list's order" -- trc-scale -c "$tmp/g.fit" "$tmp/ok.trc"
is "$(awk '$2 == 0 && ($3 == "RE" || $3 == "WE") { print $1, $3, $4 }' "$out")" "1.250000000 RE req=1
2.500000000 RE req=2
2.500000000 WE req=1,2" "each RE after the one before it, its message, and g2"

# The same wait with its REs swapped: refused at line 9, the RE of
# request 2 while request 1, first in the list, is still due.
sed 's/^\(3.000000000 0 RE req=1 .*\)$/X1/; s/^\(3.000000000 0 RE req=2 .*\)$/\1\n3.000000000 0 RE req=1 peer=1 tag=1 bytes=8/; /^X1$/d' \
    "$tmp/ok.trc" >"$tmp/swap.trc"
is "$(awk '$3 == "RE" { print $4 }' "$tmp/swap.trc" | tr '\n' ' ')" "req=2 req=1 " "the swapped stream"
expect_exit 2 "REs swapped in a waitall" -- trc-scale -c "$tmp/g.fit" "$tmp/swap.trc"
is "$(cat "$err")" "trc-scale: $tmp/swap.trc:9: receive completion req=2 out of the order of its wait's req= list" \
    "a waitall's RE that skips an earlier receive of its list is named"

# waitsome may complete some, in order: 1 and 3 of 1,2,3 is fine, 3
# then 1 is not.
cat >"$tmp/some.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 RB peer=1 tag=1 bytes=8 req=1
0.000000000 0 RB peer=1 tag=2 bytes=8 req=2
0.000000000 0 RB peer=1 tag=3 bytes=8 req=3
0.000000000 1 SB peer=0 tag=1 bytes=8
0.100000000 1 SE peer=0 tag=1 bytes=8
0.100000000 1 SB peer=0 tag=3 bytes=8
0.200000000 1 SE peer=0 tag=3 bytes=8
1.000000000 0 WB req=1,2,3 op=waitsome
2.000000000 0 RE req=1 peer=1 tag=1 bytes=8
2.000000000 0 RE req=3 peer=1 tag=3 bytes=8
2.000000000 0 WE req=1,3 op=waitsome
2.000000000 1 SB peer=0 tag=2 bytes=8
2.100000000 1 SE peer=0 tag=2 bytes=8
3.000000000 0 WB req=2 op=wait
3.000000000 0 RE req=2 peer=1 tag=2 bytes=8
3.000000000 0 WE req=2 op=wait
X
expect_exit 0 "waitsome skipping one" -- trc-scale -c "$tmp/g.fit" "$tmp/some.trc"
awk '{ if ($0 ~ /RE req=1 /) { l = $0; next } print; if ($0 ~ /RE req=3 /) print l }' "$tmp/some.trc" >"$tmp/some2.trc"
expect_exit 2 "waitsome out of order" -- trc-scale -c "$tmp/g.fit" "$tmp/some2.trc"
is "$(cat "$err")" "trc-scale: $tmp/some2.trc:11: receive completion req=1 out of the order of its wait's req= list" \
    "a waitsome's RE before one it follows in the list is named"
done_testing
