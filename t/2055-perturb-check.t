#!/bin/sh
# trc-perturb --check: each factor alone against a trace, with the
# calls of its name on its ranks, the delays it would make, and why one
# never fires or fires only in part.  By hand: rank 0 sends to rank 1
# three times inside region Loop and once after it; rank 1 receives
# the four; two ranks.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/t.trc" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 PB fn=Loop
0.000001000 0 SB peer=1 tag=1 bytes=8
0.000001000 1 RB peer=0 tag=1 bytes=8
0.000002000 0 SE peer=1 tag=1 bytes=8
0.000003000 1 RE peer=0 tag=1 bytes=8
0.000004000 0 SB peer=1 tag=1 bytes=8
0.000004000 1 RB peer=0 tag=1 bytes=8
0.000005000 0 SE peer=1 tag=1 bytes=8
0.000006000 1 RE peer=0 tag=1 bytes=8
0.000007000 0 SB peer=1 tag=1 bytes=8
0.000007000 1 RB peer=0 tag=1 bytes=8
0.000008000 0 SE peer=1 tag=1 bytes=8
0.000009000 1 RE peer=0 tag=1 bytes=8
0.000010000 0 PE fn=Loop
0.000011000 0 SB peer=1 tag=1 bytes=8
0.000011000 1 RB peer=0 tag=1 bytes=8
0.000012000 0 SE peer=1 tag=1 bytes=8
0.000013000 1 RE peer=0 tag=1 bytes=8
X
tab() { tr '|' '\t'; }

cat >"$tmp/good" <<'X'
all    call=send delay=1
loop   call=send region=Loop delay=1
occ    call=send ranks=0 occ=2-3 delay=0.5
recv1  call=recv ranks=1 delay=1
X
expect_exit 0 "factors that fire: exit 0" -- trc-perturb --check "$tmp/good" "$tmp/t.trc"
tab >"$tmp/want" <<'X'
factor|calls|fired|spec
all|4|4|call=send,delay=1
loop|4|3|call=send,region=Loop,delay=1
occ|4|2|call=send,ranks=0,occ=2-3,delay=0.5
recv1|4|4|call=recv,ranks=1,delay=1
X
is_file "$out" "$tmp/want" "  calls and delays by hand"
is "$(cat "$err")" "" "  no warning"

cat >"$tmp/bad" <<'X'
occ5   call=send occ=3-6 delay=1
r5     call=recv ranks=5 delay=1
r05    call=recv ranks=0-5 delay=1
nope   call=bcast delay=1
inreg  call=recv region=Loop delay=1
noreg  call=send region=Other delay=1
late   call=send occ=5- delay=1
X
expect_exit 1 "factors that cannot fire: exit 1" -- trc-perturb --check "$tmp/bad" - <"$tmp/t.trc"
tab >"$tmp/want" <<'X'
factor|calls|fired|spec
occ5|4|2|call=send,occ=3-6,delay=1
r5|0|0|call=recv,ranks=5,delay=1
r05|4|4|call=recv,ranks=0-5,delay=1
nope|0|0|call=bcast,delay=1
inreg|4|0|call=recv,region=Loop,delay=1
noreg|4|0|call=send,region=Other,delay=1
late|4|0|call=send,occ=5-,delay=1
X
is_file "$out" "$tmp/want" "  calls and delays by hand"
cat >"$tmp/want" <<X
trc-perturb: $tmp/bad:1: factor occ5 fires only in part in <stdin>: occ=3-6, but a rank makes at most 4 matching calls
trc-perturb: $tmp/bad:2: factor r5 never fires in <stdin>: rank 5 not in the trace, which has ranks 0-1
trc-perturb: $tmp/bad:3: factor r05 fires only in part in <stdin>: ranks 2-5 not in the trace, which has ranks 0-1
trc-perturb: $tmp/bad:4: factor nope never fires in <stdin>: no call bcast on any rank in the trace
trc-perturb: $tmp/bad:5: factor inreg never fires in <stdin>: no call recv inside region Loop in the trace
trc-perturb: $tmp/bad:6: factor noreg never fires in <stdin>: region Other never opens in the trace
trc-perturb: $tmp/bad:7: factor late never fires in <stdin>: occ=5-, but a rank makes at most 4 matching calls
X
is_file "$err" "$tmp/want" "  each says why"

expect_exit 2 "no factor file" -- trc-perturb --check "$tmp/none" "$tmp/t.trc"
is "$(head -c 12 "$err")" "trc-perturb:" "  an error"
printf 'x call=sned delay=1\n' >"$tmp/typo"
expect_exit 2 "a typo'd call" -- trc-perturb --check "$tmp/typo" "$tmp/t.trc"
is "$(cat "$err")" "trc-perturb: $tmp/typo:1: unknown call 'sned' (did you mean send? libtrc-mpi(7) lists the calls)" "  refused"
printf '#trc 1 ranks=2 order=time\n0.1 0 ZZ\n' >"$tmp/broken.trc"
expect_exit 2 "a broken trace" -- trc-perturb --check "$tmp/good" "$tmp/broken.trc"
is "$(cut -d: -f1-3 "$err")" "trc-perturb: $tmp/broken.trc:2" "  file and line"

done_testing
