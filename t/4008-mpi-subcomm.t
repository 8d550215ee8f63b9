#!/bin/sh
# libtrc-mpi: collectives on communicators other than the world carry
# size= on their begin (t/mpi/subcomm.c, 4 ranks split by parity), the
# two halves of one split get different comm= ids, and trc-scale
# predicts the trace, which it cannot without size=.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/sub.trc
trc-record -o "$tr" -- -np 4 "$MPIT/subcomm" >"$out" 2>"$err"
ok $? "trc-record runs subcomm on 4 ranks"
check_stream "$tr" 4
# ids: (B - 1) * N + L + 1 with B = 1, N = 4, L the least world rank of
# the half: 1 for {0, 2}, 2 for {1, 3}.
check_events "$tr" <<'LIST'
1 0 XB op=barrier bytes=0 comm=1 size=2
1 2 XB op=barrier bytes=0 comm=1 size=2
1 1 XB op=barrier bytes=0 comm=2 size=2
1 3 XB op=barrier bytes=0 comm=2 size=2
1 0 XB op=allreduce bytes=4 comm=1 size=2
1 3 XB op=allreduce bytes=4 comm=2 size=2
1 2 XB op=bcast bytes=8 root=0 comm=1 size=2
0 1 XB op=bcast
1 1 XE op=allreduce bytes=4 comm=2
LIST
is "$(awk '!/^#/ && $3 == "XE" && / size=/' "$tr")" "" "size= on begins only"
is "$(awk '!/^#/ && $3 == "XB" && !/ comm=/ && / size=/' "$tr")" "" "no size= on world collectives"
expect_exit 0 "trc-scale predicts the trace" -- trc-scale -v --cpu-ratio 0.5 "$tr"
is "$(grep -c ' XE ' "$out")" "$(grep -c ' XE ' "$tr")" "every collective end predicted"
# Without size= trc-scale refuses the trace, naming the first line.
sed 's/ size=2//' "$tr" >"$tmp/nosize.trc"
first=$(awk '$3 == "XB" && / comm=/ { for (i = 4; i <= NF; i++) if ($i ~ /^comm=/) print NR, substr($i, 6); exit }' "$tmp/nosize.trc")
expect_exit 2 "without size= it cannot" -- trc-scale "$tmp/nosize.trc"
is "$(tail -1 "$err")" "trc-scale: $tmp/nosize.trc:${first% *}: collective on comm ${first#* } needs size=" \
	"the error names the line"
done_testing
