#!/bin/sh
# libtrc-mpi: persistent requests (each MPI_Start a post with a new
# req=), matched probes and their receives, and the points where MPI
# chooses by timing (wildcard probes, MPI_Waitany, MPI_Testsome) with
# what was asked and what was chosen (t/mpi/persist.c, 3 ranks).
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

tr=$tmp/ps.trc
trc-record -o "$tr" -- -np 3 "$MPIT/persist" >"$out" 2>"$err"
ok $? "trc-record runs persist on 3 ranks"
check_stream "$tr" 3
cp "$out" "$tmp/prog.out"

# From the comment of t/mpi/persist.c.  Rank 1's requests in the order
# it makes them: the starts 1 to 6, the imrecv 7, the waitany's 8 and
# 9, the testsome's 10 and 11.
check_events "$tr" <<'LIST'
3 0 SB peer=1 tag=60 bytes=40 op=start
3 0 SE peer=1 tag=60 bytes=40 op=start
3 2 SB peer=1 tag=61 bytes=40 op=start
3 2 SE peer=1 tag=61 bytes=40 op=start
3 0 WB op=wait
3 1 RB peer=* tag=60 bytes=64 op=start
3 1 RB peer=2 tag=61 bytes=64 op=start
3 1 RE peer=0 tag=60 bytes=40 op=start
3 1 RE peer=2 tag=61 bytes=40 op=start
1 1 WB req=1,2 op=waitall
1 1 WB req=5,6 op=waitall
1 1 RE req=6 peer=2 tag=61 bytes=40 op=start
1 1 WB peer=* tag=* op=mprobe
1 1 RB peer=* tag=* bytes=64 op=mrecv
1 1 WB peer=* tag=* op=improbe
1 1 RB peer=* tag=* bytes=64 req=7 op=imrecv
1 1 WB req=7 op=wait
1 1 RE peer=0 tag=62 bytes=12
1 1 RE peer=2 tag=63 bytes=20
1 1 WB peer=0 tag=* op=probe
1 1 WE peer=0 tag=64 bytes=8 op=probe
1 1 RB peer=0 tag=* bytes=64
1 1 RE peer=0 tag=64 bytes=8
1 1 RB peer=0 tag=65 bytes=4 req=8
1 1 RB peer=2 tag=66 bytes=4 req=9
1 1 WB req=8,9 op=waitany
1 1 RE req=8 peer=0 tag=65 bytes=4
1 1 RE req=9 peer=2 tag=66 bytes=4
1 1 WB req=10,11 op=testsome
1 1 RE req=10 peer=0 tag=67 bytes=4
1 1 RE req=11 peer=2 tag=68 bytes=4
LIST
is "$(awk '$2 == 0 && $3 == "SB" && / op=start/ { sub(/.* req=/, ""); sub(/ .*/, ""); printf "%s ", $0 }' "$tr")" "1 2 3 " \
	"each start a new req="

# Rank 1's events in order, attributes by name.
grep -v '^#' "$tr" | awk '$2 == 1' >"$tmp/r1"
A='function a(k,   i) { for (i = 4; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "-" }'
# A probe that matched a message, then the receive of that message.
for p in mprobe improbe; do
	r=$([ $p = mprobe ] && echo mrecv || echo imrecv)
	is "$(awk "$A"'
		$3 == "WE" && a("op") == p { got = a("peer") " " a("tag") " " a("bytes") }
		$3 == "RE" && a("op") == r { print (got == a("peer") " " a("tag") " " a("bytes")) ? "same" : "not " got }' \
		p=$p r=$r "$tmp/r1")" "same" "$p: the message it chose is the one $r receives"
done
is "$(awk "$A"'$3 == "WE" && (a("op") == "mprobe" || a("op") == "improbe") { print a("peer"), a("tag") }' "$tmp/r1" | sort | tr '\n' ' ')" \
	"0 62 2 63 " "the two probes chose the two messages"

# The any-of waits: the candidates at WB, the one chosen at WE, whose RE
# is inside; then the others.
is "$(awk "$A"'
	$3 == "WB" && a("op") ~ /^(waitany|testsome)$/ { wb = a("req"); re = "" }
	$3 == "RE" && wb != "" { re = re (re == "" ? "" : ",") a("req") }
	$3 == "WE" && wb != "" { print a("op"), wb, a("req"), (re == a("req")) ? "ok" : "RE " re; wb = "" }' "$tmp/r1" |
	awk '{ n = split($2, c, ","); split($3, d, ","); for (i in d) { f = 0; for (j in c) if (c[j] == d[i]) f = 1; if (!f) $4 = "not a candidate" }
		print $1, n, split($3, d, ","), $4 }')" "$(printf 'waitany 2 1 ok\nwaitany 1 1 ok\ntestsome 2 1 ok\ntestsome 1 1 ok')" \
	"any-of waits: every candidate listed, the completed one chosen from them, its RE inside"

# Unsuccessful polls folded, as counted by the program.
is "$(awk "$A"'$3 == "WB" && a("op") == "improbe" { print a("polls") == "-" ? 0 : a("polls") }' "$tmp/r1")" \
	"$(sed -n 's/^polls improbe \([0-9]*\).*/\1/p' "$tmp/prog.out")" "improbe polls folded"
is "$(awk "$A"'$3 == "WB" && a("op") == "testsome" && a("polls") != "-" { n += a("polls") } END { print n + 0 }' "$tmp/r1")" \
	"$(sed -n 's/.* testsome \([0-9]*\)$/\1/p' "$tmp/prog.out")" "testsome polls folded"

expect_exit 0 "trc-sum reads it" -- trc-sum "$tr"
sumrow() { awk -v op="$1" '$1 == op { print $2, $3 }' "$out"; }
is "$(sumrow start)" "12 480" "trc-sum: 6 messages started each side, 40 bytes"
is "$(sumrow mrecv) $(sumrow imrecv)" "$(awk '/ op=mrecv/ && $3 == "RE" { sub(/.* bytes=/, ""); sub(/ .*/, ""); printf "1 %s ", $0 }
	/ op=imrecv/ && $3 == "RE" { sub(/.* bytes=/, ""); sub(/ .*/, ""); printf "1 %s", $0 }' "$tr")" "trc-sum: mrecv, imrecv"
expect_exit 0 "trc-scale predicts it" -- trc-scale -v --cpu-ratio 0.5 "$tr"
is "$(grep -c 'no matching send\|never received' "$err")" "0" "every message matched"
expect_exit 0 "trc-stable: the trace against itself" -- trc-stable -q "$tr" "$tr"
expect_exit 0 "trc-perturb delays each start" -- trc-perturb -v -d call=start,delay=0.01 "$tr"
is "$(sed -n 's/^trc-perturb: \([0-9]*\) delays.*/\1/p' "$err")" "12" "12 requests started"

# The tracer delays each start too, after its SB.
trc-record -o "$tr" -d 'call=start,ranks=0,delay=0.02' -- -np 3 "$MPIT/persist" >"$out" 2>"$err"
ok $? "a run with call=start delayed on rank 0"
is "$(awk '$2 == 0 && / op=start/ && $3 == "SB" { t = $1 } $2 == 0 && / op=start/ && $3 == "SE" { print ($1 - t >= 0.02) }' "$tr" | tr -d '\n')" \
	"111" "rank 0's three starts take at least the delay"
done_testing
