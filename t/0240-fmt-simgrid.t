#!/bin/sh
# SimGrid time-independent traces: the real 32-rank sample (its index,
# one file per rank, no final newlines), both dialects written by hand
# with their streams worked out by hand, one file against an index,
# the writer's round trips, and every error with its exact message.
. "$(dirname "$0")/lib.sh"
D=$T/data/simgrid
S=$D/ti_traces_32_1

# Equal times may come in any rank order: compare sorted by time, each
# rank's events kept in their order.
tsort() { grep -v '^#' "$1" | sort -s -k1,1n -k2,2n; }

# --- The sample, read through SimGrid's own index.
expect_exit 0 "sample: read with --flops 1e9" -- trc-cat --flops 1e9 "$D/smpi_replay.txt"
mv "$out" "$tmp/s.trc"
s=$tmp/s.trc
is "$(head -2 "$s")" "#trc 1 ranks=32 order=time
#clock source=simgrid flops=1000000000" "sample: header"
is "$(awk '!/^#/ { r[$2] } END { print length(r) }' "$s")" 32 "sample: 32 ranks have events"

# Collectives: one XB and one XE per collective line of the files.
want=$(for f in "$S"/*.txt; do cat "$f"; echo; done |
    awk '$2 ~ /^(barrier|bcast|gather|alltoall|alltoallv|allreduce)$/ { n[$2]++ }
	END { for (k in n) print k, n[k] }' | sort)
got=$(awk '$3 == "XB" { sub("op=", "", $4); n[$4]++ } END { for (k in n) print k, n[k] }' "$s" | sort)
is "$got" "$want" "sample: XB per collective equal the files' lines"
is "$(awk '$3 == "XE"' "$s" | wc -l)" "$(awk '$3 == "XB"' "$s" | wc -l)" "sample: as many XE as XB"
is "$(awk '$3 == "SE" || $3 == "RE"' "$s" | wc -l | tr -d ' ')" 0 "sample: no message (the files have none)"

# Bytes: counts times the datatype's size; "0 init 1" makes the default
# MPI_DOUBLE (8), an explicit datatype 1 is MPI_INT (4); alltoallv says
# the mean block it sends, gather the block of this rank.
want=$(for f in "$S"/*.txt; do cat "$f"; echo; done | awk '
	$2 == "bcast" { b += $3 * 8 }
	$2 == "allreduce" { b += $3 * ($5 == "1" ? 4 : 8) }
	$2 == "alltoall" || $2 == "gather" { b += $3 * 8 }
	$2 == "alltoallv" { s = 0; for (i = 4; i < 4 + 32; i++) s += $i; b += int(s * 8 / 32) }
	END { printf "%d\n", b }')
got=$(awk '$3 == "XB" { split($5, a, "="); b += a[2] } END { printf "%d\n", b }' "$s")
is "$got" "$want" "sample: the collectives' bytes"

# Computation: each rank's gaps between calls add up to its compute
# amounts (1 flop = 1 ns at 1e9 flop/s, exactly).
want=$(for f in "$S"/*.txt; do cat "$f"; echo; done |
    awk '$2 == "compute" { c[$1] += $3 } END { for (r in c) printf "%d %d\n", r, c[r] }' | sort -n)
got=$(awk '!/^#/ { split($1, t, "."); ns = t[1] * 1000000000 + t[2] }
	$3 == "XB" || $3 == "MK" { c[$2] += ns - last[$2] }
	!/^#/ { last[$2] = ns }
	END { for (r in c) printf "%d %d\n", r, c[r] }' "$s" | sort -n)
is "$got" "$want" "sample: computation per rank equals its compute amounts"
# An allreduce's own amount (its third field) is spent inside it.
want=$(awk '$2 == "allreduce" { s += $4 } END { print s }' "$S/ti_trace0.txt")
got=$(awk '$2 == 0 && ($3 == "XB" || $3 == "XE") && $4 == "op=allreduce" {
	split($1, t, "."); ns = t[1] * 1000000000 + t[2]
	if ($3 == "XB") b = ns; else d += ns - b } END { print d }' "$s")
[ "$got" -ge "$want" ]; ok $? "sample: rank 0's allreduces last at least their amounts ($got >= $want ns)"

expect_exit 0 "sample: trc-sum" -- trc-sum "$s"
expect_exit 0 "sample: trc-stable against itself" -- trc-stable "$s" "$s"
grep -q "identical execution graphs" "$out"; ok $? "sample: identical execution graphs"
expect_exit 0 "sample: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$s"
is "$(grep -cv '^#' "$out")" "$(grep -cv '^#' "$s")" "sample: trc-scale keeps every event"

expect_exit 2 "sample without --flops: exit 2" -- trc-cat "$D/smpi_replay.txt"
is "$(cat "$err")" "trc-cat: $S/ti_trace0.txt:2: compute needs --flops" \
	"sample without --flops: message"
expect_exit 2 "one rank's file alone: exit 2" -- trc-cat --flops 1e9 "$S/ti_trace5.txt"
line=$(awk '$2 == "bcast" { print NR; exit }' "$S/ti_trace5.txt")
is "$(cat "$err")" "trc-cat: $S/ti_trace5.txt:$line: bcast never completes: rank 0 does not enter it" \
	"one rank's file alone: its first collective never completes"
gzip -c "$S/ti_trace7.txt" > "$tmp/ti_trace7.txt.gz"
sed "s|^ti_traces_32_1/ti_trace7.txt|$tmp/ti_trace7.txt.gz|; s|^ti|$S/../ti|" \
	"$D/smpi_replay.txt" > "$tmp/gz-index"
trc-cat --flops 1e9 "$tmp/gz-index" | cmp -s - "$s"
ok $? "sample: a gzipped rank file, absolute paths in the index: the same stream"

# --- The current dialect, one file for all ranks, worked out by hand.
cat > "$tmp/cur.txt" <<'EOF'
0 init
1 init
2 init 1
0 compute 1000
0 send 1 5 100
1 recv 0 5 100
1 compute 500
1 isend 2 7 40
1 irecv 2 8 16
1 waitall
2 compute 3000
2 recv 1 7 5
2 send 1 8 2
0 bcast 10 1
1 bcast 10 1
2 bcast 10 1 6
0 allreduce 4 2000
1 allreduce 4 1000
2 allreduce 4 0 1
0 comm_size 3
0 location foo.c 12
0 sleep 0.000001
0 isend 1 9 8
0 wait 0 1 9
1 irecv 0 9 8
1 test 0 1 9
1 compute 3000
1 test 0 1 9
1 wait 0 1 9
2 sendRecv 6 0 7 0
0 sendRecv 7 2 6 2 0 0
0 finalize
1 finalize
2 finalize
EOF
cat > "$tmp/cur.want" <<'EOF'
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
0.000000000 1 RB peer=0 tag=5 bytes=100
0.000000000 2 MK mark=init
0.000001000 0 SB peer=1 tag=5 bytes=100
0.000001000 0 SE peer=1 tag=5 bytes=100
0.000001000 0 XB op=bcast bytes=10 root=1
0.000001000 1 RE peer=0 tag=5 bytes=100
0.000001500 1 SB peer=2 tag=7 bytes=40 req=1
0.000001500 1 SE peer=2 tag=7 bytes=40 req=1
0.000001500 1 RB peer=2 tag=8 bytes=16 req=2
0.000001500 1 WB req=1,2 op=waitall
0.000003000 0 XE op=bcast bytes=10 root=1
0.000003000 0 XB op=allreduce bytes=4
0.000003000 1 RE peer=2 tag=8 bytes=16 req=2
0.000003000 1 WE req=1,2 op=waitall
0.000003000 1 XB op=bcast bytes=10 root=1
0.000003000 1 XE op=bcast bytes=10 root=1
0.000003000 1 XB op=allreduce bytes=4
0.000003000 2 RB peer=1 tag=7 bytes=40
0.000003000 2 RE peer=1 tag=7 bytes=40
0.000003000 2 SB peer=1 tag=8 bytes=16
0.000003000 2 SE peer=1 tag=8 bytes=16
0.000003000 2 XB op=bcast bytes=10 root=1
0.000003000 2 XE op=bcast bytes=10 root=1
0.000003000 2 XB op=allreduce bytes=16
0.000003000 2 XE op=allreduce bytes=16
0.000003000 2 SB peer=0 tag=0 bytes=48 req=1
0.000003000 2 SE peer=0 tag=0 bytes=48 req=1
0.000003000 2 RB peer=0 tag=0 bytes=56 req=2
0.000003000 2 WB req=1,2 op=sendrecv
0.000004000 1 XE op=allreduce bytes=4
0.000004000 1 RB peer=0 tag=9 bytes=8 req=3
0.000005000 0 XE op=allreduce bytes=4
0.000006000 0 SB peer=1 tag=9 bytes=8 req=1
0.000006000 0 SE peer=1 tag=9 bytes=8 req=1
0.000006000 0 WB req=1 op=wait
0.000006000 0 WE req=1 op=wait
0.000006000 0 SB peer=2 tag=0 bytes=56 req=2
0.000006000 0 SE peer=2 tag=0 bytes=56 req=2
0.000006000 0 RB peer=2 tag=0 bytes=48 req=3
0.000006000 0 WB req=2,3 op=sendrecv
0.000006000 0 RE peer=2 tag=0 bytes=48 req=3
0.000006000 0 WE req=2,3 op=sendrecv
0.000006000 0 MK mark=finalize
0.000006000 2 RE peer=0 tag=0 bytes=56 req=2
0.000006000 2 WE req=1,2 op=sendrecv
0.000006000 2 MK mark=finalize
0.000007000 1 WB req=3 op=test
0.000007000 1 RE peer=0 tag=9 bytes=8 req=3
0.000007000 1 WE req=3 op=test
0.000007000 1 MK mark=finalize
EOF
expect_exit 0 "current dialect: read" -- trc-cat -v --flops 1e9 "$tmp/cur.txt"
mv "$out" "$tmp/cur.trc"
tsort "$tmp/cur.trc" > "$out"
is_file "$out" "$tmp/cur.want" "current dialect: the stream worked out by hand"
is "$(head -1 "$tmp/cur.trc")" "#trc 1 ranks=3 order=time" "current dialect: ranks=3"
is "$(sort "$err")" "trc-cat: $tmp/cur.txt: 1 communicator actions (comm_size, comm_split, comm_dup) not in the stream
trc-cat: $tmp/cur.txt: 1 location actions not in the stream
trc-cat: $tmp/cur.txt: 1 sleeps (read as computation) not in the stream
trc-cat: $tmp/cur.txt: 1 tests that complete nothing not in the stream" \
	"current dialect: -v counts what the stream cannot say"

# A causal timeline: trc-scale finds no receive before its send.
trc-scale -v --cpu-ratio 0.5 "$tmp/cur.trc" > /dev/null 2> "$err"
grep -q "^trc-scale: 0 receive completions in the input before their send" "$err"
ok $? "current dialect: no receive completes before its send (trc-scale -v)"

# The same actions in one file per rank, through an index (relative
# names, a blank line), and on standard input: the same stream.
mkdir "$tmp/idx"
for r in 0 1 2; do awk -v r=$r '$1 == r' "$tmp/cur.txt" > "$tmp/idx/r$r.txt"; done
printf 'r0.txt\n\nr1.txt\nr2.txt' > "$tmp/idx/index"
trc-cat --flops 1e9 "$tmp/idx/index" | cmp -s - "$tmp/cur.trc"
ok $? "per-rank files and an index: the same stream as one file"
trc-cat --flops 1e9 < "$tmp/cur.txt" | cmp -s - "$tmp/cur.trc"
ok $? "one file on standard input: the same stream"
printf '%s\n' "$tmp/cur.txt" > "$tmp/one-index"
trc-cat --flops 1e9 "$tmp/one-index" | cmp -s - "$tmp/cur.trc"
ok $? "an index of one line names a file of all ranks, as smpirun reads it"
trc-cat --flops 1e9 -f simgrid "$tmp/cur.txt" | cmp -s - "$tmp/cur.trc"
ok $? "-f simgrid reads it too"

# --- The old dialect: "pN" ranks, no tags, camelCase, "wait" without
# arguments (the newest request), no final newline; 1 flop = 1 ns.
printf 'p0 init\np1 init\np0 compute 2e3\np0 Isend 1 64\np0 Isend 1 32 1\np1 Irecv 0 64
p1 compute 1000\np1 wait\np1 recv 0 128\np1 recv 0 128\np0 send 1 128\np0 waitAll
p0 allReduce 2 5e2\np1 allReduce 2 0\np0 finalize\np1 finalize' > "$tmp/old.txt"
cat > "$tmp/old.want" <<'EOF'
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
0.000000000 1 RB peer=0 tag=0 bytes=64 req=1
0.000001000 1 WB req=1 op=wait
0.000002000 0 SB peer=1 tag=0 bytes=64 req=1
0.000002000 0 SE peer=1 tag=0 bytes=64 req=1
0.000002000 0 SB peer=1 tag=0 bytes=128 req=2
0.000002000 0 SE peer=1 tag=0 bytes=128 req=2
0.000002000 0 SB peer=1 tag=0 bytes=128
0.000002000 0 SE peer=1 tag=0 bytes=128
0.000002000 0 WB req=1,2 op=waitall
0.000002000 0 WE req=1,2 op=waitall
0.000002000 0 XB op=allreduce bytes=2
0.000002000 1 RE peer=0 tag=0 bytes=64 req=1
0.000002000 1 WE req=1 op=wait
0.000002000 1 RB peer=0 tag=0 bytes=128
0.000002000 1 RE peer=0 tag=0 bytes=128
0.000002000 1 RB peer=0 tag=0 bytes=128
0.000002000 1 RE peer=0 tag=0 bytes=128
0.000002000 1 XB op=allreduce bytes=2
0.000002000 1 XE op=allreduce bytes=2
0.000002000 1 MK mark=finalize
0.000002500 0 XE op=allreduce bytes=2
0.000002500 0 MK mark=finalize
EOF
expect_exit 0 "old dialect: read" -- trc-cat --flops 1e9 "$tmp/old.txt"
tsort "$out" > "$tmp/old.got"
is_file "$tmp/old.got" "$tmp/old.want" "old dialect: the stream worked out by hand"

# --- Writing: trc -> simgrid -> trc.  A stream whose communication
# costs nothing comes back exactly; the files are as worked out by hand.
cat > "$tmp/rt.trc" <<'EOF'
#trc 1 ranks=2
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
0.000000000 1 RB peer=0 tag=0 bytes=64 req=1
0.000001000 1 WB req=1 op=wait
0.000002000 0 SB peer=1 tag=0 bytes=64 req=1
0.000002000 0 SE peer=1 tag=0 bytes=64 req=1
0.000002000 1 RE peer=0 tag=0 bytes=64 req=1
0.000002000 1 WE req=1 op=wait
0.000002000 0 SB peer=1 tag=3 bytes=128 req=2
0.000002000 0 SE peer=1 tag=3 bytes=128 req=2
0.000002000 0 SB peer=1 tag=4 bytes=100
0.000002000 0 SE peer=1 tag=4 bytes=100
0.000002000 0 WB req=1,2 op=waitall
0.000002000 0 WE req=1,2 op=waitall
0.000002000 0 XB op=allreduce bytes=8
0.000002500 1 RB peer=0 tag=3 bytes=128
0.000002500 1 RE peer=0 tag=3 bytes=128
0.000002500 1 RB peer=0 tag=4 bytes=100
0.000002500 1 RE peer=0 tag=4 bytes=100
0.000003000 1 XB op=allreduce bytes=8
0.000003000 0 XE op=allreduce bytes=8
0.000003000 1 XE op=allreduce bytes=8
0.000003000 1 XB op=bcast bytes=16 root=1
0.000004000 0 XB op=bcast bytes=16 root=1
0.000004000 0 XE op=bcast bytes=16 root=1
0.000004000 1 XE op=bcast bytes=16 root=1
0.000005000 0 MK mark=finalize
0.000005000 1 MK mark=finalize
EOF
mkdir "$tmp/rt"
expect_exit 0 "write: exit 0" -- trc-cat --flops 1e9 --to simgrid -o "$tmp/rt/run" "$tmp/rt.trc"
is "$(cat "$tmp/rt/run")" "run_0.txt
run_1.txt" "write: the index names one file per rank, next to it"
is "$(cat "$tmp/rt/run_0.txt")" "0 init
0 compute 2000
0 isend 1 0 64 6
0 isend 1 3 128 6
0 send 1 4 100 6
0 waitall
0 allreduce 8 0 6
0 compute 1000
0 bcast 16 1 6
0 compute 1000
0 finalize" "write: rank 0's actions, gaps as computation"
is "$(cat "$tmp/rt/run_1.txt")" "1 init
1 irecv 0 0 64 6
1 compute 1000
1 wait 0 1 0
1 compute 500
1 recv 0 3 128 6
1 recv 0 4 100 6
1 compute 500
1 allreduce 8 0 6
1 bcast 16 1 6
1 compute 1000
1 finalize" "write: rank 1's actions"
trc-cat --flops 1e9 "$tmp/rt/run" > "$tmp/rt.back"
tsort "$tmp/rt.back" > "$out"
tsort "$tmp/rt.trc" > "$tmp/want"
is_file "$out" "$tmp/want" "zero-cost stream: trc -> simgrid -> trc keeps every event and time"
trc-cat --flops 2.5e9 --to simgrid -o "$tmp/rt/slow" "$tmp/rt.trc"
is "$(sed -n 2p "$tmp/rt/slow_0.txt")" "0 compute 5000" "write: amounts are durations times the flop rate"
trc-cat --flops 2.5e9 "$tmp/rt/slow" | grep -v '^#' | cmp -s - "$(grep -v '^#' "$tmp/rt.back" > "$tmp/rt.nohdr"; echo "$tmp/rt.nohdr")"
ok $? "write and read at 2.5e9 flop/s: the same times"
trc-cat --flops 1e9 --to simgrid -o - "$tmp/rt.trc" > "$tmp/rt.one"
is "$(head -4 "$tmp/rt.one")" "0 init
1 init
1 irecv 0 0 64 6
1 compute 1000" "-o -: one file for all ranks, in time order"
trc-cat --flops 1e9 "$tmp/rt.one" | cmp -s - "$tmp/rt.back"
ok $? "-o -: read back, the same stream"

# What TI cannot say is counted; an irecv from any source is written
# where it was posted, with the source its completion names.
cat > "$tmp/all.trc" <<'EOF'
#trc 1 ranks=2
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
0.000001000 0 PB fn=main
0.000001000 1 RB peer=* tag=* bytes=32 req=1
0.000001000 1 SB peer=0 tag=1 bytes=8 req=2
0.000001000 1 SE peer=0 tag=1 bytes=8 req=2
0.000002000 0 SB peer=1 tag=6 bytes=32 op=ssend
0.000002000 0 SE peer=1 tag=6 bytes=32 op=ssend
0.000003000 1 WB req=1,2 op=waitsome
0.000003000 1 RE peer=0 tag=6 bytes=32 req=1
0.000003000 1 WE req=1 op=waitsome
0.000003500 0 WB peer=1 tag=1 op=probe
0.000003500 0 WE peer=1 tag=1 bytes=8
0.000004000 0 RB peer=1 tag=1 bytes=8
0.000004000 0 RE peer=1 tag=1 bytes=8
0.000004000 1 WB req=2 op=wait
0.000004000 1 WE req=2 op=wait
0.000005000 0 MK iter=1
0.000005000 0 XB op=bcast bytes=4 root=0 comm=2 size=2
0.000005000 1 XB op=bcast bytes=4 root=0 comm=2 size=2
0.000005000 0 XE op=bcast bytes=4 root=0 comm=2
0.000005000 1 XE op=bcast bytes=4 root=0 comm=2
0.000006000 0 PE fn=main
0.000006000 0 MK mark=finalize
0.000006000 1 MK mark=finalize
EOF
mkdir "$tmp/all"
trc-cat -v --flops 1e9 --to simgrid -o "$tmp/all/a" "$tmp/all.trc" 2> "$err"
is "$(sort "$err")" "trc-cat: $tmp/all/a: 1 markers not written
trc-cat: $tmp/all/a: 1 probes not written
trc-cat: $tmp/all/a: 1 send modes (written as send) not written
trc-cat: $tmp/all/a: 1 waits on some requests (written as waits) not written
trc-cat: $tmp/all/a: 2 collectives on communicators other than the world not written
trc-cat: $tmp/all/a: 2 region events not written" "-v counts what TI cannot say"
is "$(cat "$tmp/all/a_0.txt")" "0 init
0 compute 2000
0 send 1 6 32 6
0 compute 1500
0 compute 500
0 recv 1 1 8 6
0 compute 1000
0 compute 1000
0 finalize" "rank 0: a probe and a collective on another communicator leave their computation"
is "$(cat "$tmp/all/a_1.txt")" "1 init
1 compute 1000
1 irecv 0 6 32 6
1 isend 0 1 8 6
1 compute 2000
1 wait 0 1 6
1 compute 1000
1 wait 1 0 1
1 compute 1000
1 compute 1000
1 finalize" "rank 1: the irecv from any source names the source it matched"
expect_exit 0 "those files read back" -- trc-cat --flops 1e9 "$tmp/all/a"

# trc-gen's patterns: each rank's calls, peers, tags, sizes and the
# computation before each call come back; regions and markers, which TI
# cannot say, are counted; a receive from any source is written with
# its actual source.
cat > "$tmp/norm.awk" <<'EOF'
function attr(k,   i, a) {
	for (i = 4; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] }
	return ""
}
function ns(t,   a) { split(t, a, "."); return a[1] * 1000000000 + a[2] }
/^#/ { next }
{
	r = $2; k = $3; t = ns($1)
	if (k == "PB" || k == "PE" || (k == "MK" && attr("mark") == "")) next
	sig = k " peer=" attr("peer") " tag=" attr("tag") " bytes=" attr("bytes") \
	    " op=" attr("op") " root=" attr("root") " mark=" attr("mark")
	if (k == "RB" && attr("req") == "") { pend[r] = "C" (t - last[r]) " RB tag=" attr("tag") " bytes=" attr("bytes"); next }
	if (k == "WB") { wgap[r] = t - last[r]; next }
	if (k == "SB" || k == "XB" || k == "MK" || k == "RB") {
		print r, "C" (t - last[r]), sig
		if (k == "MK" || k == "RB") last[r] = t
		next
	}
	if (k == "RE" && attr("req") == "") { print r, pend[r], "RE peer=" attr("peer") " bytes=" attr("bytes"); last[r] = t; next }
	if (k == "RE") { print r, "RE peer=" attr("peer") " tag=" attr("tag") " bytes=" attr("bytes"); next }
	if (k == "WE") { print r, "C" wgap[r], "W n=" split(attr("req"), q, ","); last[r] = t; next }
	if (k == "SE" || k == "XE") last[r] = t
}
EOF
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 6 -e 4000 -s 3 > "$tmp/$p.trc"
	mkdir "$tmp/$p"
	trc-cat -v --flops 1e9 --to simgrid -o "$tmp/$p/t.txt" "$tmp/$p.trc" 2> "$err"
	want=$(awk '$3 == "PB" || $3 == "PE"' "$tmp/$p.trc" | wc -l | tr -d ' ')
	grep -qx "trc-cat: $tmp/$p/t.txt: $want region events not written" "$err"
	ok $? "$p: -v counts the $want region events"
	trc-cat --flops 1e9 "$tmp/$p/t.txt" > "$tmp/$p.back"
	awk -f "$tmp/norm.awk" "$tmp/$p.trc" | sort -s -n -k1,1 > "$tmp/want"
	awk -f "$tmp/norm.awk" "$tmp/$p.back" | sort -s -n -k1,1 > "$out"
	is_file "$out" "$tmp/want" "$p: calls, peers, tags, sizes and computation come back"
	is "$(ls "$tmp/$p" | wc -l | tr -d ' ')" 7 "$p: an index and 6 rank files (t_0.txt ...)"
	trc-scale -v --cpu-ratio 0.5 "$tmp/$p.back" > /dev/null 2> "$err"
	grep -q "^trc-scale: 0 receive completions in the input before their send" "$err"
	ok $? "$p: read back, no receive completes before its send"
done

# --- Errors: "trc-cat: file:line: message", exit 2.
bad() {	# NAME CONTENT WANT-STDERR [FLOPS]
	printf '%b' "$2" > "$tmp/bad.txt"
	expect_exit 2 "$1: exit 2" -- trc-cat ${4:+--flops $4} "$tmp/bad.txt"
	is "$(cat "$err")" "trc-cat: $tmp/bad.txt:$3" "$1: message"
}
bad "unknown action" '0 init\n0 frobnicate 3\n' "2: unknown action 'frobnicate'" 1e9
bad "missing argument" '0 init\n0 bcast\n' "2: 'bcast' needs 1 argument, has 0"
bad "missing arguments" '0 init\n1 init\n0 send 1\n' "3: 'send' needs 3 arguments, has 1"
bad "old-dialect arguments" '0 init\n1 init\n0 Isend 1\n0 wait\n' "3: 'Isend' needs 2 arguments, has 1"
bad "non-numeric amount" '0 init\n0 compute 12x\n' "2: invalid amount '12x'" 1e9
bad "compute without --flops" '0 init\n0 compute 12\n' "2: compute needs --flops"
bad "reduction flops without --flops" '0 init\n0 allreduce 4 100\n' "2: allreduce needs --flops"
bad "non-numeric size" '0 init\n0 bcast 1k\n' "2: invalid size '1k'"
bad "bad tag" '0 init\n1 init\n0 isend 1 x 4 6\n' "3: invalid tag 'x'"
bad "unknown datatype" '0 init\n0 bcast 4 0 77\n' "2: unknown datatype '77'"
bad "destination out of range" '0 init\n0 send 5 0 10\n' "2: destination 5 out of range (1 ranks)"
bad "a negative destination" '0 init\n0 send -1 0 10\n' "2: destination '-1' is not a rank"
bad "a recv from any rank never matched" '0 init\n1 init\n0 recv -1 0 10\n' \
	"3: recv from any rank (tag 0) never matched by a send"
bad "an irecv from any rank never matched" '0 init\n0 irecv -555 3 10\n' \
	"2: irecv from any rank (tag 3) never matched by a send"
# Rank 1's message matches the receive from any rank, posted first;
# rank 2's has no receive left that names it.
bad "a named irecv whose message a wildcard took" \
	'0 init\n1 init\n2 init\n0 irecv -1 0 8\n0 irecv 1 0 8\n0 waitall\n1 send 0 0 8\n2 send 0 0 8\n' \
	"6: waitall never completes: no send for its receive from rank 1 (tag 0)"
bad "bad rank field" '0 init\nx1 init\n' "2: invalid rank 'x1'"
bad "missing action" '0 init\n0\n' "2: missing action"
bad "a receive never matched" '0 init\n1 init\n0 recv 1 0 10\n' "3: recv from rank 1 (tag 0) never matched by a send"
bad "an irecv never matched" '0 init\n0 irecv 0 4 10\n' "2: irecv from rank 0 (tag 4) never matched by a send"
bad "a wait never completed" '0 init\n1 init\n1 irecv 0 0 4\n1 wait 0 1 0\n' \
	"4: wait never completes: no send for its receive from rank 0 (tag 0)"
bad "different collectives" '0 init\n1 init\n0 barrier\n1 bcast 5\n' \
	"4: 'bcast' where rank 0 entered 'barrier' ($tmp/bad.txt:3)"
bad "wait with nothing to wait for" '0 init\n0 wait 0 0 0\n' "2: 'wait' not preceded by any irecv or isend"
bad "the two dialects mixed" '0 init\n0 isend 0 0 1 6\n0 wait\n' \
	"3: 'wait' with 0 arguments is the old dialect, but $tmp/bad.txt:2 is the current one"

# --- Receives from any source (a negative source: SimGrid writes
# MPI_ANY_SOURCE): RB peer=*, and the replay decides the source, the
# send made first (by the clock) to that rank with that tag, unless a
# receive naming the source was posted before.  Streams worked out by
# hand, compute 1000 flops at 1e9 flop/s = 1 us.
printf '0 init\n1 init\n2 init\n0 recv -1 0 8\n0 recv -1 0 8\n1 compute 2000\n1 send 0 0 8\n2 compute 1000\n2 send 0 0 8\n' > "$tmp/any1.txt"
expect_exit 0 "any source, blocking: read" -- trc-cat --flops 1e9 "$tmp/any1.txt"
is "$(awk '$2 == 0 && $3 ~ /^R/' "$out")" "0.000000000 0 RB peer=* tag=0 bytes=8
0.000001000 0 RE peer=2 tag=0 bytes=8
0.000001000 0 RB peer=* tag=0 bytes=8
0.000002000 0 RE peer=1 tag=0 bytes=8" "any source, blocking: the earlier send first"
cp "$out" "$tmp/any1.trc"
expect_exit 0 "any source: written back" -- trc-cat --flops 1e9 --to simgrid -o "$tmp/any1w" "$tmp/any1.trc"
is "$(cat "$tmp/any1w_0.txt")" "0 init
0 recv 2 0 8 6
0 recv 1 0 8 6" "any source: written with the source the replay decided"
printf '0 init\n1 init\n2 init\n0 irecv 1 0 8\n0 irecv -1 0 8\n0 waitall\n1 send 0 0 8\n2 compute 1000\n2 send 0 0 8\n' > "$tmp/any2.txt"
expect_exit 0 "any source after a named irecv: read" -- trc-cat --flops 1e9 "$tmp/any2.txt"
is "$(awk '$2 == 0 && $3 ~ /^(R|W)/' "$out")" "0.000000000 0 RB peer=1 tag=0 bytes=8 req=1
0.000000000 0 RB peer=* tag=0 bytes=8 req=2
0.000000000 0 WB req=1,2 op=waitall
0.000001000 0 RE peer=1 tag=0 bytes=8 req=1
0.000001000 0 RE peer=2 tag=0 bytes=8 req=2
0.000001000 0 WE req=1,2 op=waitall" "any source after a named irecv: the named one takes its source's message"
printf '0 init\n1 init\n2 init\n0 irecv -1 0 8\n0 wait -1 0 0\n1 compute 3000\n1 send 0 0 8\n2 send 0 0 8\n0 recv 1 0 8\n' > "$tmp/any3.txt"
expect_exit 0 "any source, a message waiting: read" -- trc-cat --flops 1e9 "$tmp/any3.txt"
is "$(awk '$2 == 0 && $3 ~ /^R/' "$out")" "0.000000000 0 RB peer=* tag=0 bytes=8 req=1
0.000000000 0 RE peer=2 tag=0 bytes=8 req=1
0.000000000 0 RB peer=1 tag=0 bytes=8
0.000003000 0 RE peer=1 tag=0 bytes=8" "any source, a wait naming -1: rank 2's message, sent at once"
printf '0 init\n1 init\n0 sendRecv 8 1 8 -1\n1 sendRecv 8 0 8 -1\n' > "$tmp/any4.txt"
expect_exit 0 "sendRecv from any source: read" -- trc-cat --flops 1e9 "$tmp/any4.txt"
is "$(awk '$3 == "RE" { print $2, $4 }' "$out")" "0 peer=1
1 peer=0" "sendRecv from any source: each from the other"

printf 'a.txt\nb.txt\n' > "$tmp/index"
printf '0 init\n' > "$tmp/a.txt"
expect_exit 2 "a file the index names is missing: exit 2" -- trc-cat "$tmp/index"
is "$(cat "$err")" "trc-cat: $tmp/index:2: cannot open 'b.txt': No such file or directory" \
	"a file the index names is missing: message"
printf '0 init\n' > "$tmp/b.txt"
expect_exit 2 "a file of another rank: exit 2" -- trc-cat "$tmp/index"
is "$(cat "$err")" "trc-cat: $tmp/b.txt:1: rank 0 in the file of rank 1" \
	"a file of another rank: message"
printf '\n\n' > "$tmp/empty"
expect_exit 2 "a file of no action: exit 2" -- trc-cat -f simgrid "$tmp/empty"
is "$(cat "$err")" "trc-cat: $tmp/empty: no action" "a file of no action: message"
expect_exit 2 "writing without --flops: exit 2" -- trc-cat --to simgrid -o "$tmp/x" "$tmp/rt.trc"
is "$(cat "$err")" "trc-cat: writing simgrid needs --flops" "writing without --flops: message"
expect_exit 2 "writing into a missing folder: exit 2" -- \
	trc-cat --flops 1e9 --to simgrid -o "$tmp/nonesuch/run" "$tmp/rt.trc"
is "$(cat "$err")" "trc-cat: $tmp/nonesuch/run: No such file or directory" \
	"writing into a missing folder: message"
done_testing
