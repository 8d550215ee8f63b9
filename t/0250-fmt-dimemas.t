#!/bin/sh
# Dimemas .dim output: a stream of every kind against the file worked
# out by hand, and trc-gen's patterns checked by a small parser of the
# grammar trc-formats(5) gives (header, communicators, records of each
# task together and starting with a CPU burst, offsets that point at
# them) and by counts taken with awk from the stream.
. "$(dirname "$0")/lib.sh"

# The grammar: prints "ok TASKS" and the counts, or the first fault.
cat > "$tmp/dim.awk" <<'EOF'
function fail(m) { print "line " NR ": " m; bad = 1; exit 1 }
BEGIN { pos = 0; state = "head" }
{ start = pos; pos += length($0) + 1 }
state == "head" {
	if ($0 !~ /^#DIMEMAS:"[^"]*":1,[0-9]+:[0-9]+\([0-9,]+\),[0-9]+,0,0 *$/)
		fail("bad header")
	split($0, h, ":"); split(h[3], o, ","); offoff = o[2] + 0
	tasks = h[4] + 0
	list = h[4]; sub(/^[0-9]+\(/, "", list); sub(/\).*/, "", list)
	if (split(list, th, ",") != tasks) fail("threads of " n " tasks, not " tasks)
	rest = h[4]; sub(/^[^)]*\),/, "", rest); comms = rest + 0
	state = "defs"; next
}
state == "defs" && /^d:/ {
	if ($0 !~ /^d:1:[0-9]+:[0-9]+(:[0-9]+)+$/) fail("bad communicator")
	m = split($0, d, ":")
	if (m - 4 != d[4]) fail("communicator of " m - 4 " tasks, not " d[4])
	defs++; next
}
state == "defs" { if (defs != comms) fail(defs " communicators, not " comms); state = "recs"; task = -1 }
state == "recs" && /^s:/ { state = "offs"; if (start != offoff) fail("offsets at " start ", not " offoff) }
state == "recs" {
	split($0, f, ":")
	if (f[2] + 0 != task) {
		if (f[2] + 0 != task + 1) fail("task " f[2] " after " task)
		task = f[2] + 0; first[task] = start
		if (f[1] != "1") fail("task " task " starts with a " f[1] " record")
	}
	if (f[1] == "1" && $0 ~ /^1:[0-9]+:0:[0-9]+\.[0-9]{9}$/) { nb++; sec[task] += f[4]; next }
	if (f[1] == "2" && $0 ~ /^2:[0-9]+:0:[0-9]+:-1:[0-9]+:[0-9]+:[0-9]+:[0-3]$/) { ns++; sb += f[6]; sync[f[9]]++; next }
	if (f[1] == "3" && $0 ~ /^3:[0-9]+:0:-?[0-9]+:-1:[0-9]+:[0-9]+:[0-9]+:[0-2]$/) { nr[f[9]]++; next }
	if (f[1] == "10" && $0 ~ /^10:[0-9]+:0:[0-9]+:[0-9]+:[0-9]+:0:[0-9]+:[0-9]+:1$/) { ng++; next }
	if (f[1] == "20" && $0 ~ /^20:[0-9]+:0:[0-9]+:[0-9]+$/) { ne++; next }
	fail("bad record")
}
state == "offs" {
	if ($0 !~ /^s:[0-9]+:[0-9]+$/) fail("bad offset line")
	split($0, s, ":")
	if (s[3] + 0 != first[s[2] + 0]) fail("task " s[2] " at " first[s[2] + 0] ", not " s[3])
	noff++
}
END {
	if (bad) exit 1
	if (task + 1 != tasks || noff != tasks) { print "tasks " task + 1 ", offsets " noff ", header " tasks; exit 1 }
	printf "ok %d tasks; bursts %d sends %d bytes %d; recv %d irecv %d wait %d; glop %d; events %d\n",
	    tasks, nb, ns, sb, nr[0], nr[1], nr[2], ng, ne
	for (t = 0; t < tasks; t++) printf "burst %d %.9f\n", t, sec[t] > "/dev/stderr"
}
EOF

# What the stream says the file must hold, counted from the stream:
# the calls, and a CPU burst at each call or region boundary after
# time passed (and one first for every task).
cat > "$tmp/want.awk" <<'EOF'
function ns(t,   a) { split(t, a, "."); return a[1] * 1000000000 + a[2] }
/^#trc/ { for (i = 2; i <= NF; i++) if ($i ~ /^ranks=/) { split($i, a, "="); ranks = a[2] } }
/^#/ { next }
{ t = ns($1); r = $2; k = $3; if (r + 1 > ranks) ranks = r + 1; req = ($0 ~ / req=/) }
k == "SB" { ns_++; split($0, x, " bytes="); split(x[2], y, " "); sb += y[1] }
k == "RB" && !req { nr0++ }
k == "RB" && req { nr1++ }
k == "RE" && req { nr2++ }
k == "XB" { ng++ }
k == "PB" || k == "PE" { ne++ }
k == "SB" || k == "RB" || k == "WB" || k == "XB" || k == "PB" || k == "PE" {
	if (!(r in started) || t > last[r]) { nb++; gap[r] += t - last[r] }
	started[r] = 1
}
k != "MK" { last[r] = t }
END {
	for (q = 0; q < ranks; q++) if (!(q in started)) nb++
	printf "ok %d tasks; bursts %d sends %d bytes %d; recv %d irecv %d wait %d; glop %d; events %d\n",
	    ranks, nb, ns_, sb, nr0, nr1, nr2, ng, ne
	for (q = 0; q < ranks; q++) printf "burst %d %d.%09d\n", q, int(gap[q] / 1000000000), gap[q] % 1000000000 > "/dev/stderr"
}
EOF

# --- Every kind, against the file worked out by hand.
cat > "$tmp/hand.trc" <<'EOF'
#trc 1 ranks=4
0.000000000 0 MK mark=init
0.000001000 0 PB fn=main
0.000001500 1 RB peer=* tag=5 bytes=100
0.000002000 0 SB peer=1 tag=5 bytes=100 op=ssend
0.000002500 0 SE peer=1 tag=5 bytes=100 op=ssend
0.000003000 1 RE peer=0 tag=5 bytes=100
0.000003000 2 RB peer=* tag=* bytes=64 req=1
0.000003500 0 SB peer=2 tag=7 bytes=64 req=1
0.000003600 0 SE peer=2 tag=7 bytes=64 req=1
0.000004000 2 SB peer=1 tag=9 bytes=8 req=2 op=irsend
0.000004000 2 SE peer=1 tag=9 bytes=8 req=2 op=irsend
0.000004100 1 RB peer=2 tag=9 bytes=8 req=1
0.000004200 1 WB req=1 op=wait
0.000004300 1 RE peer=2 tag=9 bytes=8 req=1
0.000004300 1 WE req=1 op=wait
0.000005000 2 WB req=1,2 op=waitall
0.000005000 2 RE peer=0 tag=7 bytes=64 req=1
0.000005000 2 WE req=1,2 op=waitall
0.000006000 0 XB op=reduce bytes=32 root=2
0.000006000 1 XB op=reduce bytes=32 root=2
0.000006000 2 XB op=reduce bytes=32 root=2
0.000006500 0 XE op=reduce bytes=32 root=2
0.000006500 1 XE op=reduce bytes=32 root=2
0.000006500 2 XE op=reduce bytes=32 root=2
0.000007000 1 XB op=bcast bytes=16 root=1 comm=3 size=2
0.000007000 2 XB op=bcast bytes=16 root=1 comm=3 size=2
0.000007200 1 XE op=bcast bytes=16 root=1 comm=3
0.000007200 2 XE op=bcast bytes=16 root=1 comm=3
0.000008000 0 PE fn=main
0.000008000 0 XB op=barrier bytes=0
0.000008000 1 XB op=barrier bytes=0
0.000008000 2 XB op=barrier bytes=0
0.000008000 0 XE op=barrier bytes=0
0.000008000 1 XE op=barrier bytes=0
0.000008000 2 XE op=barrier bytes=0
0.000009000 0 MK mark=finalize
EOF
# The communicators (the world is 1, comm=3 is 4), then the tasks.
cat > "$tmp/body" <<'EOF'
d:1:1:4:0:1:2:3
d:1:4:2:1:2
1:0:0:0.000001000
20:0:0:60000019:1
1:0:0:0.000001000
2:0:0:1:-1:100:5:1:1
1:0:0:0.000001000
2:0:0:2:-1:64:7:1:2
1:0:0:0.000002400
10:0:0:10:1:2:0:32:32:1
1:0:0:0.000001500
20:0:0:60000019:0
10:0:0:0:1:0:0:0:0:1
1:1:0:0.000001500
3:1:0:0:-1:100:5:1:0
1:1:0:0.000001100
3:1:0:2:-1:8:9:1:1
1:1:0:0.000000100
3:1:0:2:-1:8:9:1:2
1:1:0:0.000001700
10:1:0:10:1:2:0:32:32:1
1:1:0:0.000000500
10:1:0:1:4:1:0:16:16:1
1:1:0:0.000000800
10:1:0:0:1:0:0:0:0:1
1:2:0:0.000003000
3:2:0:0:-1:64:7:1:1
1:2:0:0.000001000
2:2:0:1:-1:8:9:1:3
1:2:0:0.000001000
3:2:0:0:-1:64:7:1:2
1:2:0:0.000001000
10:2:0:10:1:2:0:32:32:1
1:2:0:0.000000500
10:2:0:1:4:0:0:16:16:1
1:2:0:0.000000800
10:2:0:0:1:0:0:0:0:1
1:3:0:0.000000000
EOF
# The header: '#DIMEMAS:"trc":1,', the offsets' offset in 15
# characters (digits, then blanks at the end), ':4(1,1,1,1),2,0,0'.
head='#DIMEMAS:"trc":1,'
tail=':4(1,1,1,1),2,0,0'
hlen=$(( ${#head} + 15 + ${#tail} + 1 ))
off=$(( hlen + $(wc -c < "$tmp/body") ))
{
	printf '%s%s%s%*s\n' "$head" "$off" "$tail" $((15 - ${#off})) ""
	cat "$tmp/body"
	awk -v h=$hlen 'BEGIN { p = h } { split($0, f, ":")
		if ($1 !~ /^d:/ && !(f[2] in s)) { s[f[2]] = p; print "s:" f[2] ":" p > "/dev/stderr" }
		p += length($0) + 1 }' "$tmp/body" 2>&1 >/dev/null
} > "$tmp/hand.want"
expect_exit 0 "every kind: exit 0" -- trc-cat -v --to dimemas -o "$tmp/trc.dim" "$tmp/hand.trc"
is_file "$tmp/trc.dim" "$tmp/hand.want" "every kind: the .dim worked out by hand"
is "$(sort "$err")" "trc-cat: $tmp/trc.dim: 1 region names (written as event values) not written
trc-cat: $tmp/trc.dim: 2 markers not written" "every kind: -v counts what .dim cannot say"
awk -f "$tmp/dim.awk" "$tmp/trc.dim" > "$out" 2> /dev/null
is "$(cat "$out")" "ok 4 tasks; bursts 18 sends 3 bytes 172; recv 1 irecv 2 wait 2; glop 8; events 2" \
	"every kind: the grammar parser accepts it"
trc-cat --to dimemas -o - "$tmp/hand.trc" > "$out"
cmp -s "$out" "$tmp/hand.want"; ok $? "-o -: the same on standard output (named trc)"

# --- trc-gen's patterns: the parser's counts are the stream's.
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 5 -e 3000 -s 11 > "$tmp/$p.trc"
	trc-cat --to dimemas -o "$tmp/$p.dim" "$tmp/$p.trc"
	awk -f "$tmp/dim.awk" "$tmp/$p.dim" > "$out" 2> "$tmp/got.bursts"
	ok $? "$p: the grammar parser accepts it"
	awk -f "$tmp/want.awk" "$tmp/$p.trc" > "$tmp/want" 2> "$tmp/want.bursts"
	is_file "$out" "$tmp/want" "$p: records of each kind as many as the stream's calls"
	is_file "$tmp/got.bursts" "$tmp/want.bursts" "$p: each task's CPU time is its computation"
	# Receives from any source are written with the source they had.
	awk -F: '$1 == 3 && $9 == 0 { print $2, $4, $7, $6 }' "$tmp/$p.dim" | sort > "$out"
	awk '$3 == "RE" && !/ req=/ { split($4, a, "="); split($5, b, "="); split($6, c, "=");
		print $2, a[2], b[2], c[2] }' "$tmp/$p.trc" | sort > "$tmp/want"
	is_file "$out" "$tmp/want" "$p: receives name the sources they matched"
done

# Tasks are put together in blocks from a temporary file: a big trace
# comes out whole.
trc-gen -p halo -n 8 -e 200000 -s 5 > "$tmp/big.trc"
trc-cat --to dimemas -o "$tmp/big.dim" "$tmp/big.trc"
awk -f "$tmp/dim.awk" "$tmp/big.dim" > "$out" 2> "$tmp/got.bursts"
awk -f "$tmp/want.awk" "$tmp/big.trc" > "$tmp/want" 2> "$tmp/want.bursts"
is_file "$out" "$tmp/want" "200000 events: every record, tasks in order"
is_file "$tmp/got.bursts" "$tmp/want.bursts" "200000 events: the CPU times"

expect_exit 2 "a missing folder: exit 2" -- trc-cat --to dimemas -o "$tmp/no/x.dim" "$tmp/hand.trc"
is "$(cat "$err")" "trc-cat: $tmp/no/x.dim: No such file or directory" "a missing folder: message"
expect_exit 2 "dimemas is not read: exit 2" -- trc-cat -f dimemas "$tmp/trc.dim"
is "$(cat "$err")" "trc-cat: format 'dimemas' is written, not read" "dimemas is not read: message"

# Tasks that ranks= counts and no event names: each a burst of 0, made
# as the file is written, not kept (a header of 2 M ranks took 8 GB,
# 500000 2 GB).
printf '#trc 1 ranks=5\n0.000001 0 XB op=barrier comm=3 size=2\n0.000001 2 XB op=barrier comm=3 size=2\n0.000002 0 XE op=barrier comm=3\n0.000002 2 XE op=barrier comm=3\n' > "$tmp/absent.trc"
trc-cat --to dimemas -o "$tmp/absent.dim" "$tmp/absent.trc"
ok $? "ranks=5, events of ranks 0 and 2: written"
awk -f "$tmp/dim.awk" "$tmp/absent.dim" > "$out" 2>/dev/null
ok $? "  as the grammar says, offsets included: $(head -1 "$out")"
is "$(grep -c '^d:' "$tmp/absent.dim")" 2 "  the world and the communicator of ranks 0 and 2"
is "$(grep '^d:1:1:' "$tmp/absent.dim")" "d:1:1:5:0:1:2:3:4" "  the world: the five tasks"
is "$(grep -E '^1:(1|3|4):' "$tmp/absent.dim" | tr '\n' ' ')" \
    "1:1:0:0.000000000 1:3:0:0.000000000 1:4:0:0.000000000 " "  tasks 1, 3 and 4: a burst of 0 each"
printf '#trc 1 ranks=500000\n0.000001 0 MK\n' > "$tmp/wide.trc"
/usr/bin/time -f %M -o "$tmp/wide.kb" trc-cat --to dimemas -o "$tmp/wide.dim" "$tmp/wide.trc"
ok $? "ranks=500000, one event: written (2 GB of memory before)"
ok "$(awk '{ exit !($1 < 65536) }' "$tmp/wide.kb"; echo $?)" "  in $(cat "$tmp/wide.kb") KB, under 64 MB"
awk -f "$tmp/dim.awk" "$tmp/wide.dim" > "$out" 2>/dev/null
ok $? "  as the grammar says: $(head -1 "$out")"
done_testing
