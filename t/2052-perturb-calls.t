#!/bin/sh
# trc-perturb places each delay at the call the tracer would delay:
# the calls of issue 11 and 12 by their op= (sendrecv's parts are not
# an isend or an irecv, with or without op= on them; mrecv, imrecv,
# start, mprobe, nonblocking collectives), counted by hand.
. "$(dirname "$0")/lib.sh"

command -v trc-perturb >/dev/null || skip_all "trc-perturb not built (it needs lib/scale/)"
cat >"$tmp/c.trc" <<'X'
#trc 1 ranks=2 order=time
1.000000000 0 SB peer=1 tag=1 bytes=4 req=1 op=sendrecv
1.000000000 0 SE peer=1 tag=1 bytes=4 req=1 op=sendrecv
1.000000000 0 RB peer=1 tag=1 bytes=4 req=2 op=sendrecv
1.000000000 0 WB req=1,2 op=sendrecv
1.000000000 1 SB peer=0 tag=1 bytes=4 req=1 op=sendrecv
1.000000000 1 SE peer=0 tag=1 bytes=4 req=1 op=sendrecv
1.000000000 1 RB peer=0 tag=1 bytes=4 req=2 op=sendrecv
1.000000000 1 WB req=1,2 op=sendrecv
1.500000000 0 RE req=2 peer=1 tag=1 bytes=4 op=sendrecv
1.500000000 0 WE req=1,2 op=sendrecv
1.500000000 1 RE req=2 peer=0 tag=1 bytes=4 op=sendrecv
1.500000000 1 WE req=1,2 op=sendrecv
2.000000000 0 SB peer=1 tag=2 bytes=4 req=3
2.000000000 0 SE peer=1 tag=2 bytes=4 req=3
2.000000000 0 RB peer=1 tag=2 bytes=4 req=4
2.000000000 0 WB req=3,4 op=sendrecv
2.000000000 1 SB peer=0 tag=2 bytes=4 req=3
2.000000000 1 SE peer=0 tag=2 bytes=4 req=3
2.000000000 1 RB peer=0 tag=2 bytes=4 req=4
2.000000000 1 WB req=3,4 op=sendrecv
2.500000000 0 RE req=4 peer=1 tag=2 bytes=4
2.500000000 0 WE req=3,4 op=sendrecv
2.500000000 1 RE req=4 peer=0 tag=2 bytes=4
2.500000000 1 WE req=3,4 op=sendrecv
3.000000000 0 SB peer=1 tag=3 bytes=4
3.000000000 1 WB peer=* tag=* op=mprobe
3.100000000 0 SE peer=1 tag=3 bytes=4
3.200000000 1 WE peer=0 tag=3 bytes=4 op=mprobe
3.300000000 1 RB peer=* tag=* bytes=4 op=mrecv
3.400000000 1 RE peer=0 tag=3 bytes=4 op=mrecv
4.000000000 0 SB peer=1 tag=4 bytes=4
4.000000000 1 WB peer=* tag=* op=improbe
4.100000000 0 SE peer=1 tag=4 bytes=4
4.200000000 1 WE peer=0 tag=4 bytes=4 op=improbe
4.300000000 1 RB peer=* tag=* bytes=4 req=5 op=imrecv
4.400000000 1 WB req=5 op=wait
4.500000000 1 RE req=5 peer=0 tag=4 bytes=4 op=imrecv
4.500000000 1 WE req=5 op=wait
5.000000000 0 SB peer=1 tag=5 bytes=4 req=5 op=start
5.000000000 1 RB peer=0 tag=5 bytes=4 req=6 op=start
5.100000000 0 SE peer=1 tag=5 bytes=4 req=5 op=start
5.200000000 0 WB req=5 op=wait
5.200000000 1 WB req=6 op=wait
5.300000000 0 WE req=5 op=wait
5.300000000 1 RE req=6 peer=0 tag=5 bytes=4 op=start
5.300000000 1 WE req=6 op=wait
6.000000000 0 XB op=iallreduce bytes=8 req=6
6.000000000 1 XB op=iallreduce bytes=8 req=7
6.500000000 0 WB req=6 op=wait
6.500000000 1 WB req=7 op=wait
7.000000000 0 XE req=6 op=iallreduce bytes=8
7.000000000 0 WE req=6 op=wait
7.000000000 1 XE req=7 op=iallreduce bytes=8
7.000000000 1 WE req=7 op=wait
X
# The delays each call= places, from the trace by hand: two sendrecv
# calls per rank (the second in the form without op= on its parts),
# rank 0's two blocking sends, one mprobe, mrecv, imrecv on rank 1, a
# start on each rank, the waits of imrecv, the starts and the
# iallreduce, an iallreduce per rank.
while read -r call want; do
	expect_exit 0 "call=$call" -- trc-perturb -v -d "call=$call,delay=1" "$tmp/c.trc"
	is "$(sed -n 's/^trc-perturb: \([0-9]*\) delays*[ ,].*/\1/p' "$err")" "$want" "  $want delays"
done <<'X'
sendrecv 4
sendrecv_replace 4
isend 0
irecv 0
send 2
recv 0
mrecv 1
imrecv 1
start 2
mprobe 1
probe 0
wait 5
iallreduce 2
X
# improbe is a poll, never delayed: a factor on it could only come out
# "stable", so it is refused.
expect_exit 2 "call=improbe refused" -- trc-perturb -v -d "call=improbe,delay=1" "$tmp/c.trc"
is "$(cat "$err")" "trc-perturb: invalid delay 'call=improbe,delay=1': call 'improbe' is traced but never delayed (libtrc-mpi(7) lists the calls)" \
	"  with its reason"
done_testing
