#!/bin/sh
# libtrc-mpi: MPI_Sendrecv's parts say op=sendrecv (t/mpi/sendrecv.c,
# 2 ranks), so trc-sum counts its calls and bytes as sendrecv, not as
# isend and irecv, and call=sendrecv delays it where call=isend does
# not, in the tracer and in trc-perturb alike (issue 12).
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/sr.trc
trc-record -o "$tr" -- -np 2 "$MPIT/sendrecv" >"$out" 2>"$err"
ok $? "trc-record runs sendrecv on 2 ranks"
check_stream "$tr" 2
# Per rank: 4 calls of 100 bytes each way (tag 70), 1 of 40 (tag 71).
check_events "$tr" <<'LIST'
4 0 SB peer=1 tag=70 bytes=100 op=sendrecv
4 0 SE peer=1 tag=70 bytes=100 op=sendrecv
4 0 RB peer=1 tag=70 bytes=100 op=sendrecv
4 0 RE peer=1 tag=70 bytes=100 op=sendrecv
1 1 SE peer=0 tag=71 bytes=40 op=sendrecv
1 1 RE peer=0 tag=71 bytes=40 op=sendrecv
5 1 WB op=sendrecv
5 1 WE op=sendrecv
LIST
is "$(awk '!/^#/ && ($3 == "SB" || $3 == "SE" || $3 == "RB" || $3 == "RE") && !/ op=sendrecv/' "$tr")" "" \
	"every part says op=sendrecv"

# trc-sum: 10 calls; bytes sent and received, 2 x 2 x (4 x 100 + 40).
expect_exit 0 "trc-sum reads it" -- trc-sum "$tr"
is "$(awk '$1 == "sendrecv" { print $2, $3 }' "$out")" "10 1760" "sendrecv: 10 calls, 1760 bytes"
is "$(awk '$1 == "isend" || $1 == "irecv" || $1 == "send" || $1 == "recv"' "$out")" "" "no isend, irecv, send or recv"
is "$(awk '/^sent message sizes/ { s = 1; next } s && /^[0-9]/ { n += $3 } END { print n }' "$out")" "10" \
	"the 10 sent messages in the sizes"

# Durations of rank R's sendrecv calls, WB to WE.
durations() {
	awk -v r="$2" '$2 == r && $3 == "WB" { t = $1 } $2 == r && $3 == "WE" { printf "%d", ($1 - t >= 0.02) }' "$1"
}
trc-record -o "$tr" -d 'call=isend,delay=0.02;call=irecv,delay=0.02' -- -np 2 "$MPIT/sendrecv" >"$out" 2>"$err"
ok $? "a run with call=isend and call=irecv delayed"
is "$(durations "$tr" 0)" "00000" "no sendrecv delayed by call=isend or call=irecv"
expect_exit 0 "trc-perturb with call=isend and call=irecv" -- \
	trc-perturb -v -d 'call=isend,delay=0.02;call=irecv,delay=0.02' "$tr"
is "$(sed -n 's/^trc-perturb: \([0-9]*\) delays.*/\1/p' "$err")" "0" "no delay placed either"
trc-record -o "$tr" -d 'call=sendrecv,ranks=0,occ=2-3,delay=0.02' -- -np 2 "$MPIT/sendrecv" >"$out" 2>"$err"
ok $? "a run with call=sendrecv delayed"
is "$(durations "$tr" 0)" "01100" "rank 0's sendrecv calls 2 and 3 take at least the delay"
expect_exit 0 "trc-perturb with call=sendrecv" -- trc-perturb -v -d 'call=sendrecv,delay=0.02' "$tr"
is "$(sed -n 's/^trc-perturb: \([0-9]*\) delays.*/\1/p' "$err")" "10" "one delay per call"
expect_exit 0 "trc-scale predicts it" -- trc-scale --cpu-ratio 0.5 "$tr"
done_testing
