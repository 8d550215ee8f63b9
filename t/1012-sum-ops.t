#!/bin/sh
# trc-sum's operations: a message counts under its op= when it has one;
# a sendrecv's parts add their bytes to the sendrecv its WE counts; a
# nonblocking collective counts at its XE inside the wait, its time
# the wait's.  Expected table by hand.
. "$(dirname "$0")/lib.sh"

# Rank 0: an ssend (0.5 s), a sendrecv with rank 1 (1 s, 40 bytes out,
# 24 in), a persistent send started (0.25 s), an iallreduce posted and
# waited for (0.5 s).  Rank 1: the sendrecv, an mrecv (0.5 s), the
# persistent receive completed by a wait, the iallreduce.
cat >"$tmp/ops.trc" <<'T'
#trc 1 ranks=2
0 0 SB peer=1 tag=1 bytes=100 op=ssend
0 1 RB peer=0 tag=1 bytes=100
0.5 0 SE peer=1 tag=1 bytes=100 op=ssend
0.5 1 RE peer=0 tag=1 bytes=100
1 0 SB peer=1 tag=2 bytes=40 req=1 op=sendrecv
1 0 SE peer=1 tag=2 bytes=40 req=1 op=sendrecv
1 0 RB peer=1 tag=2 bytes=64 req=2 op=sendrecv
1 0 WB req=1,2 op=sendrecv
1 1 SB peer=0 tag=2 bytes=24 req=1 op=sendrecv
1 1 SE peer=0 tag=2 bytes=24 req=1 op=sendrecv
1 1 RB peer=0 tag=2 bytes=64 req=2 op=sendrecv
1 1 WB req=1,2 op=sendrecv
2 0 RE req=2 peer=1 tag=2 bytes=24 op=sendrecv
2 0 WE req=1,2 op=sendrecv
2 1 RE req=2 peer=0 tag=2 bytes=40 op=sendrecv
2 1 WE req=1,2 op=sendrecv
2 1 RB peer=* tag=* bytes=64 op=mrecv
2.5 1 RE peer=0 tag=3 bytes=8 op=mrecv
3 0 SB peer=1 tag=4 bytes=16 req=3 op=start
3 1 RB peer=0 tag=4 bytes=16 req=3 op=start
3.25 0 SE peer=1 tag=4 bytes=16 req=3 op=start
3.25 1 WB req=3 op=wait
3.5 1 RE req=3 peer=0 tag=4 bytes=16 op=start
3.5 1 WE req=3 op=wait
4 0 XB op=iallreduce bytes=8 req=4
4 1 XB op=iallreduce bytes=8 req=4
4.5 0 WB req=4 op=wait
4.5 1 WB req=4 op=wait
5 0 XE req=4 op=iallreduce bytes=8
5 0 WE req=4 op=wait
5 1 XE req=4 op=iallreduce bytes=8
5 1 WE req=4 op=wait
T
cat >"$tmp/want" <<'T'
operation	count	bytes	time	mean
recv	1	100	0.500000000	0.500000000
wait	3	0	1.250000000	0.416666666
ssend	1	100	0.500000000	0.500000000
sendrecv	2	128	2.000000000	1.000000000
mrecv	1	8	0.500000000	0.500000000
start	2	32	0.250000000	0.125000000
iallreduce	2	16	0.000000000	0.000000000
T
trc-sum -t --section ops "$tmp/ops.trc" >"$out" 2>"$err"
ok $? "trc-sum reads every shape"
is_file "$out" "$tmp/want" "the operations, by hand"

# The time between a nonblocking collective's post and its wait is the
# rank's own computation (0.5 s on each), none is collective: rank 0
# computes 0.5 + 1 + 0.75 + 0.5 s, rank 1 0.5 + 0.5 + 0.25 + 0.5 + 0.5.
trc-sum -t --section ranks "$tmp/ops.trc" >"$out"
is "$(awk '$1 == 0 || $1 == 1 { print $1, $4, $8 }' "$out")" \
	"$(printf '0 2.750000000 0.000000000\n1 2.250000000 0.000000000')" "computation and collective time per rank"
done_testing
