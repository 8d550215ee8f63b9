#!/bin/sh
# Paraver (.prv + .pcf + .row): the Extrae samples read with counts taken
# by awk from the .prv itself; round trips through the writer for each
# trc-gen pattern and a hand-written stream of every kind; the
# Extrae-compatible part of written files read alone (trc's own types
# stripped with awk); bad input, each message pinned.
. "$(dirname "$0")/lib.sh"
D=$T/data/paraver

# count LABEL FILE: the count in trc-cat -v's line "N LABEL not in the stream"
count() {
	sed -n "s/^trc-cat: [^:]*: \([0-9]*\) $1 not in the stream\$/\1/p" "$2"
}

# ---- LULESH: 8 ranks in application 1, 12 counter tasks in application 2
zcat "$D/lulesh8.prv.gz" > "$tmp/lulesh8.prv"
cp "$D/lulesh8.pcf" "$tmp/"
expect_exit 0 "lulesh: exit 0" -- trc-cat -v "$D/lulesh8.prv.gz"
cp "$out" "$tmp/lu.trc"
cp "$err" "$tmp/lu.err"
# ranks: the largest task of application 1 in any record
ranks=$(awk -F: '$1 ~ /^[123]$/ && $3 == 1 && $4 > m { m = $4 } END { print m }' "$tmp/lulesh8.prv")
is "$ranks" 8 "lulesh: awk finds 8 tasks in application 1"
is "$(sed -n 1p "$tmp/lu.trc")" "#trc 1 ranks=$ranks order=time" "lulesh: ranks= is application 1's tasks"
# messages: communication records between tasks of application 1
awk -F: '$1 == 3 && $3 == 1 && $9 == 1 { n++; b += $14 } END { print n, b }' "$tmp/lulesh8.prv" > "$tmp/want"
awk '$3 == "SE" { n++; sub("bytes=", "", $6); b += $6 } END { print n, b }' "$tmp/lu.trc" > "$tmp/got"
is_file "$tmp/got" "$tmp/want" "lulesh: messages and bytes equal the communication records'"
is "$(awk '$3 == "RE"' "$tmp/lu.trc" | wc -l)" "$(awk '$3 == "SE"' "$tmp/lu.trc" | wc -l)" \
    "lulesh: as many receives as sends (none unmatched)"
is "$(count 'record of application 2' "$tmp/lu.err")" \
    "$(awk -F: '$1 ~ /^[123]$/ && $3 == 2' "$tmp/lulesh8.prv" | wc -l)" \
    "lulesh: -v counts application 2's records"
is "$(count 'state record' "$tmp/lu.err")" \
    "$(awk -F: '$1 == 1 && $3 == 1' "$tmp/lulesh8.prv" | wc -l)" \
    "lulesh: -v counts application 1's state records"
is "$(count 'MPI_Comm_rank call' "$tmp/lu.err")" \
    "$(awk -F: '$1 == 2 && $3 == 1 && $7 == 50000003 && $8 == 19' "$tmp/lulesh8.prv" | wc -l)" \
    "lulesh: -v counts MPI_Comm_rank calls"
# Isends cut off by the chop: Isend begins of application 1 less messages
is "$(count 'MPI_Isend call with no communication record' "$tmp/lu.err")" \
    "$(awk -F: '$1 == 2 && $3 == 1 && $7 == 50000001 && $8 == 3 { n++ } $1 == 3 && $3 == 1 { m++ } END { print n - m }' "$tmp/lulesh8.prv")" \
    "lulesh: -v counts Isends with no communication record"
is "$(count 'event type 42000050 (PAPI_TOT_INS)' "$tmp/lu.err")" \
    "$(awk -F: '$1 == 2 && $3 == 1 { for (i = 7; i < NF; i += 2) if ($i == 42000050) n++ } END { print n }' "$tmp/lulesh8.prv")" \
    "lulesh: -v counts a counter's values, named from the .pcf"
expect_exit 0 "lulesh: a plain .prv reads the same" -- trc-cat "$tmp/lulesh8.prv"
is_file "$out" "$tmp/lu.trc" "lulesh: .prv and .prv.gz give one stream"
expect_exit 0 "lulesh: trc-sum" -- trc-sum "$D/lulesh8.prv.gz"
expect_exit 0 "lulesh: trc-stable against itself" -- trc-stable "$D/lulesh8.prv.gz" "$D/lulesh8.prv.gz"
grep -q '^identical execution graphs' "$out"
ok $? "lulesh: identical"
expect_exit 0 "lulesh: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$D/lulesh8.prv.gz"

# ---- EPOCH: 4 ranks, Sendrecv, Send/Recv, collectives with sizes
zcat "$D/epoch_4proc.prv.gz" > "$tmp/epoch.prv"
expect_exit 0 "epoch: exit 0" -- trc-cat -v "$D/epoch_4proc.prv.gz"
cp "$out" "$tmp/ep.trc"
cp "$err" "$tmp/ep.err"
ranks=$(awk -F: '$1 ~ /^[123]$/ && $3 == 1 && $4 > m { m = $4 } END { print m }' "$tmp/epoch.prv")
is "$(sed -n 1p "$tmp/ep.trc")" "#trc 1 ranks=$ranks order=time" "epoch: 4 ranks"
awk -F: '$1 == 3 && $3 == 1 && $9 == 1 { n++; b += $14 } END { print n, b }' "$tmp/epoch.prv" > "$tmp/want"
awk '$3 == "SE" { n++; for (i = 4; i <= NF; i++) if ($i ~ /^bytes=/) { sub("bytes=", "", $i); b += $i } } END { print n, b }' "$tmp/ep.trc" > "$tmp/got"
is_file "$tmp/got" "$tmp/want" "epoch: messages and bytes equal the communication records'"
is "$(awk '$3 == "RE"' "$tmp/ep.trc" | wc -l)" "$(awk '$3 == "SE"' "$tmp/ep.trc" | wc -l)" \
    "epoch: as many receives as sends"
# collectives: begin events of type 50000002 of application 1
is "$(awk '$3 == "XB"' "$tmp/ep.trc" | wc -l)" \
    "$(awk -F: '$1 == 2 && $3 == 1 && $7 == 50000002 && $8 != 0' "$tmp/epoch.prv" | wc -l)" \
    "epoch: every collective"
is "$(awk '$3 == "XB" && $4 == "op=bcast"' "$tmp/ep.trc" | wc -l)" \
    "$(awk -F: '$1 == 2 && $3 == 1 && $7 == 50000002 && $8 == 7' "$tmp/epoch.prv" | wc -l)" \
    "epoch: MPI_Bcast named from the .pcf"
# Sendrecv halves to MPI_PROC_NULL: calls less messages that came of them
sr=$(awk -F: '$1 == 2 && $3 == 1 && $7 == 50000001 && $8 == 41' "$tmp/epoch.prv" | wc -l)
srmsg=$(awk '$3 == "WB" && $NF == "op=sendrecv" && $4 ~ /^req=/ { n += split($4, a, ",") } END { print n }' "$tmp/ep.trc")
is "$(( $(count 'MPI_Sendrecv send with no communication record' "$tmp/ep.err") + \
    $(count 'MPI_Sendrecv receive with no communication record' "$tmp/ep.err") + srmsg ))" \
    "$((2 * sr))" "epoch: every Sendrecv half is a message or counted"
is "$(awk '$3 == "MK" && $4 == "mark=init"' "$tmp/ep.trc" | wc -l)" 4 "epoch: MPI_Init ends as MK mark=init"
# the bytes of a Bcast: the size its root sends, the others receive
awk -F: '$1 == 2 && $3 == 1 && $7 == 50000002 && $8 == 7 { s = 0; r = 0; for (i = 9; i < NF; i += 2) { if ($i == 50100001) s = $(i+1); if ($i == 50100002) r = $(i+1) } print $4 - 1, (s > 0 ? s : r) }' "$tmp/epoch.prv" | sort > "$tmp/want"
awk '$3 == "XB" && $4 == "op=bcast" { sub("bytes=", "", $5); print $2, $5 }' "$tmp/ep.trc" | sort > "$tmp/got"
is_file "$tmp/got" "$tmp/want" "epoch: Bcast sizes"
expect_exit 0 "epoch: trc-sum" -- trc-sum "$D/epoch_4proc.prv.gz"
expect_exit 0 "epoch: trc-stable against itself" -- trc-stable "$D/epoch_4proc.prv.gz" "$D/epoch_4proc.prv.gz"
expect_exit 0 "epoch: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$D/epoch_4proc.prv.gz"
zcat "$D/epoch_4proc.prv.gz" | trc-cat > "$out" 2>"$err"
ok $? "epoch: read from stdin (no .pcf)"
is "$(awk '$3 == "SE"' "$out" | wc -l)" "$(awk '$3 == "SE"' "$tmp/ep.trc" | wc -l)" \
    "epoch: stdin, Extrae's own call ids name the calls"

# ---- round trips of trc-gen's patterns
# strip FILE: the .prv less trc's own types (91000000 and up)
strip() {
	awk -F: '$1 != 2 { print; next }
	    { o = $1; for (i = 2; i <= 6; i++) o = o ":" $i; n = 0
	      for (i = 7; i < NF; i += 2) if ($i < 91000000 || $i >= 92000000) { o = o ":" $i ":" $(i+1); n++ }
	      if (n) print o }' "$1"
}
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 8 -e 5000 > "$tmp/$p.trc"
	trc-cat "$tmp/$p.trc" > "$tmp/$p.want"
	expect_exit 0 "$p: written" -- trc-cat --to prv -o "$tmp/$p" "$tmp/$p.trc"
	ok $(test -s "$tmp/$p.prv" && test -s "$tmp/$p.pcf" && test -s "$tmp/$p.row"; echo $?) \
	    "$p: .prv, .pcf and .row"
	expect_exit 0 "$p: read back" -- trc-cat "$tmp/$p.prv"
	is_file "$out" "$tmp/$p.want" "$p: the same stream"
	# The Extrae-compatible records alone: what Extrae's reading says.
	mkdir -p "$tmp/x"
	strip "$tmp/$p.prv" > "$tmp/x/$p.prv"
	cp "$tmp/$p.pcf" "$tmp/x/"
	expect_exit 0 "$p: Extrae's part alone: exit 0" -- trc-cat "$tmp/x/$p.prv"
	# no markers there; receives name their source, requests are renumbered
	sed 's/^\(.* RB\) peer=[^ ]*/\1/; s/ req=[^ ]*//' "$out" | sort > "$tmp/got"
	awk '$3 != "MK"' "$tmp/$p.want" | sed 's/^\(.* RB\) peer=[^ ]*/\1/; s/ req=[^ ]*//' | sort > "$tmp/want"
	is_file "$tmp/got" "$tmp/want" "$p: Extrae's part alone: the same events"
done
# halo posts its receives at one instant: Extrae's part cannot tell
# which is which, so only the order above (sorted) was compared.

# ---- a hand-written stream with every kind
cat > "$tmp/every.trc" <<'EOF'
#trc 1 ranks=3 order=time
# a hand-written stream with every kind
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
0.000000000 2 MK mark=init iter=0
0.000001000 0 PB fn=main
0.000001000 1 PB fn=main
0.000001000 2 PB fn=main
0.000002000 0 PB fn=solve
0.000003000 0 SB peer=1 tag=7 bytes=4096 op=ssend comm=2
0.000003500 1 RB peer=* tag=* bytes=8192
0.000004000 0 SE peer=1 tag=7 bytes=4096 op=ssend comm=2 depart=0.000003900
0.000005000 1 RE peer=0 tag=7 bytes=4096 comm=2 arrive=0.000004800
0.000006000 2 RB peer=0 tag=9 bytes=100 req=1
0.000006000 0 SB peer=2 tag=9 bytes=100 req=1
0.000006500 0 SE peer=2 tag=9 bytes=100 req=1 polls=3
0.000007000 0 WB req=1 op=wait
0.000007000 2 WB req=1 op=waitall
0.000008000 0 WE req=1 op=wait
0.000008000 2 RE req=1 peer=0 tag=9 bytes=100
0.000008000 2 WE req=1 op=waitall
0.000009000 1 SB peer=2 tag=3 bytes=16 req=1
0.000009000 1 SE peer=2 tag=3 bytes=16 req=1
0.000009000 1 RB peer=2 tag=4 bytes=16 req=2
0.000009000 1 WB req=1,2 op=sendrecv
0.000009100 2 SB peer=1 tag=4 bytes=16 req=2
0.000009100 2 SE peer=1 tag=4 bytes=16 req=2
0.000009100 2 RB peer=1 tag=3 bytes=16 req=3
0.000009100 2 WB req=2,3 op=sendrecv
0.000010000 1 RE req=2 peer=2 tag=4 bytes=16
0.000010000 1 WE req=1,2 op=sendrecv
0.000010100 2 RE req=3 peer=1 tag=3 bytes=16
0.000010100 2 WE req=2,3 op=sendrecv
0.000011000 0 PE fn=solve
0.000012000 0 XB op=bcast bytes=64 root=1
0.000012000 1 XB op=bcast bytes=64 root=1
0.000012000 2 XB op=bcast bytes=64 root=1
0.000013000 0 XE op=bcast bytes=64 root=1
0.000013000 1 XE op=bcast bytes=64 root=1
0.000013000 2 XE op=bcast bytes=64 root=1
0.000014000 1 XB op=allreduce bytes=8 comm=3 size=2
0.000014000 2 XB op=allreduce bytes=8 comm=3 size=2
0.000015000 1 XE op=allreduce bytes=8 comm=3
0.000015000 2 XE op=allreduce bytes=8 comm=3
0.000016000 0 XB op=barrier bytes=0 comm=4 t0=0.000015500
0.000016000 1 XB op=barrier bytes=0 comm=4
0.000016000 2 XB op=barrier bytes=0 comm=4
0.000017000 0 XE op=barrier bytes=0 comm=4
0.000017000 1 XE op=barrier bytes=0 comm=4
0.000017000 2 XE op=barrier bytes=0 comm=4
0.000018000 2 WB peer=* tag=5 op=probe
0.000018000 0 SB peer=2 tag=5 bytes=12 note=a,b,c list=1,2,3
0.000018500 0 SE peer=2 tag=5 bytes=12
0.000019000 2 WE peer=0 tag=5 bytes=12 op=probe
0.000019000 2 RB peer=0 tag=5 bytes=12
0.000019500 2 RE peer=0 tag=5 bytes=12
0.000020000 0 PE fn=main
0.000020000 1 PE fn=main
0.000020000 2 PE fn=main
0.000021000 0 MK mark=finalize
0.000021000 1 MK mark=finalize
0.000021000 2 MK mark=finalize
EOF
trc-cat "$tmp/every.trc" > "$tmp/want"
expect_exit 0 "every kind: written (PATH.prv names the triple)" -- trc-cat -v --to paraver -o "$tmp/every.prv" "$tmp/every.trc"
is "$(cat "$err")" "" "every kind: nothing the writer could not say"
expect_exit 0 "every kind: read back" -- trc-cat -v "$tmp/every.prv"
is_file "$out" "$tmp/want" "every kind: the same stream"
is "$(cat "$err")" "" "every kind: nothing dropped"
# The communication records: 3:cpu:1:task:1:lsend:psend:cpu:1:task:1:lrecv:precv:size:tag,
# physical times from depart= and arrive=, else the SE's and RE's.
grep '^3:' "$tmp/every.prv" > "$out"
cat > "$tmp/want" <<'EOF'
3:1:1:1:1:3000:3900:2:1:2:1:3500:4800:4096:7
3:1:1:1:1:6000:6500:3:1:3:1:6000:8000:100:9
3:2:1:2:1:9000:9000:3:1:3:1:9100:10100:16:3
3:3:1:3:1:9100:9100:2:1:2:1:9000:10000:16:4
3:1:1:1:1:18000:18500:3:1:3:1:19000:19500:12:5
EOF
is_file "$out" "$tmp/want" "every kind: communication records by hand"
# Each right after its send's end (and that end's state record).
awk -F: '$1 == 2 { se[$4] = $7 == 91000000 && $8 == 1 }
    $1 == 3 && !se[$4] { bad++ }
    END { exit bad > 0 }' "$tmp/every.prv"
ok $? "every kind: each record follows its send's end, as Extrae places them"
is "$(sed -n 1p "$tmp/every.prv" | sed 's/^#Paraver ([^)]*)//')" \
    ":21000_ns:1(3):1:3(1:1,1:1,1:1),3" "every kind: header (duration, tasks, communicators)"
is "$(sed -n '2,4p' "$tmp/every.prv" | tr '\n' ' ')" "c:1:1:3:1:2:3 c:1:4:2:2:3 c:1:5:3:1:2:3 " \
    "every kind: communicator lines"
is "$(sed -n 1p "$tmp/every.row")" "LEVEL CPU SIZE 3" "every kind: .row"
# Extrae's part alone: depart= and arrive= come from the physical times.
mkdir -p "$tmp/y"
strip "$tmp/every.prv" > "$tmp/y/every.prv"
cp "$tmp/every.pcf" "$tmp/y/"
expect_exit 0 "every kind, Extrae's part: exit 0" -- trc-cat "$tmp/y/every.prv"
is "$(grep ' 0 SE ' "$out" | head -1)" \
    "0.000004000 0 SE peer=1 tag=7 bytes=4096 op=ssend depart=0.000003900" \
    "every kind, Extrae's part: depart= from the physical send"
is "$(grep ' 1 RE ' "$out" | head -1)" \
    "0.000005000 1 RE peer=0 tag=7 bytes=4096 arrive=0.000004800" \
    "every kind, Extrae's part: arrive= from the physical receive"
is "$(grep ' 1 XB ' "$out" | head -1)" "0.000012000 1 XB op=bcast bytes=64 root=1" \
    "every kind, Extrae's part: the root marks itself"
is "$(grep ' 1 XB ' "$out" | sed -n 2p)" "0.000014000 1 XB op=allreduce bytes=8 comm=4 size=2" \
    "every kind, Extrae's part: a communicator of its c: line, with its size"
expect_exit 2 "every kind without its .pcf: exit 2" -- sh -c "trc-cat < '$tmp/every.prv'"
is "$(cat "$err")" "trc-cat: <stdin>:5: value 1 of trc attribute mark has no label (is the .pcf missing?)" \
    "every kind without its .pcf: message"

# ---- writing errors
expect_exit 2 "--to prv without -o" -- trc-cat --to prv "$tmp/every.trc"
is "$(cat "$err")" "trc-cat: the prv format writes three files (.prv, .pcf, .row): give -o PATH" \
    "--to prv without -o: message"
expect_exit 2 "--to prv into a missing folder" -- trc-cat --to prv -o "$tmp/no/such" "$tmp/every.trc"
is "$(cat "$err")" "trc-cat: $tmp/no/such.prv: No such file or directory" \
    "--to prv into a missing folder: message"

# ---- bad input
H='#Paraver (01/01/2020 at 10:00):1000_ns:1(2):1:2(1:1,1:1),1'
C='c:1:1:2:1:2'
bad() {	# NAME CONTENT MESSAGE
	printf '%b' "$2" > "$tmp/bad.prv"
	expect_exit 2 "$1: exit 2" -- trc-cat "$tmp/bad.prv"
	is "$(cat "$err")" "trc-cat: $tmp/bad.prv:$3" "$1: message"
}
bad "bad header" "#Paraver (01/01/2020 at 10:00):1000_ns:1(2):1:2(1:1,1:1\n" \
    "1: invalid Paraver header: bad task list"
bad "bad time unit" "#Paraver (01/01/2020 at 10:00):1000_xs:1(2):1:2(1:1,1:1),1\n" \
    "1: invalid time unit '_xs'"
bad "bad duration" "#Paraver (01/01/2020 at 10:00):1x_ns:1(2):1:2(1:1,1:1),1\n" \
    "1: invalid trace duration '1x'"
bad "too few fields" "$H\n$C\n2:1:1:1:1:100\n" \
    "3: event record with 6 fields (want at least 8)"
bad "a type without its value" "$H\n$C\n2:1:1:1:1:100:50000001:1:42000050\n" \
    "3: event record with 9 fields (want type:value pairs)"
bad "non-numeric field" "$H\n$C\n2:1:1:1:1:1x0:50000001:1\n" \
    "3: invalid number '1x0' in field 6"
bad "task out of range" "$H\n$C\n2:1:1:3:1:100:50000001:1\n" \
    "3: task 3 out of range (application 1 has 2)"
bad "application out of range" "$H\n$C\n2:1:2:1:1:100:50000001:1\n" \
    "3: application 2 out of range (the header has 1)"
bad "thread out of range" "$H\n$C\n1:1:1:1:2:0:100:1\n" \
    "3: thread 2 out of range (task 1 of application 1 has 1)"
bad "communication record too short" "$H\n$C\n3:1:1:1:1:100:100:2:1:2:1:100:200:8\n" \
    "3: communication record with 14 fields (want 15)"
bad "state ends before it begins" "$H\n$C\n1:1:1:1:1:100:50:1\n" \
    "3: state ends before it begins"
bad "out of time order" "$H\n$C\n2:1:1:1:1:100:50000001:1\n2:1:1:1:1:50:50000001:0\n" \
    "4: event record out of time order ('0.000000050' after '0.000000100')"
bad "unknown record" "$H\n$C\n5:1:1:1:1:100\n" "3: unknown record type '5'"
bad "nested MPI calls" "$H\n$C\n2:1:1:1:1:100:50000001:1\n2:1:1:1:1:150:50000001:2\n" \
    "4: MPI_Recv begins inside MPI_Send"
bad "negative time" "$H\n$C\n2:1:1:1:1:-5:50000001:1\n" \
    "3: invalid time '-5' in field 6"
# A message of -8 bytes: the send and the receive carried it, exit 0,
# which no reader takes (libFuzzer: fuzz/regress/paraver/size-negative).
bad "negative message size" "$H\n$C\n3:1:1:1:1:100:100:2:1:2:1:200:200:-8:1\n" \
    "3: invalid size '-8' in field 14"
# A trace trc wrote (its kinds as 91000000) whose XB gives root (key 5)
# in the class "any" (91000000 + 8 * 5 + 1): no root is '*', as the
# stream's reader says; the fast path of such traces took it for one
# like peer's and tag's and wrote "XB root=*" (libFuzzer,
# fuzz/regress/paraver/root-any).
# A .pcf naming a trc attribute "a=b": no key can be it, as "a=b=1"
# reads back as the key a (libFuzzer: fuzz/regress/paraver/key-with-equals).
printf '%b' "$H\n$C\n2:1:1:1:1:100:91000000:10:91000128:1\n" > "$tmp/key.prv"
printf 'EVENT_TYPE\n0    91000128    trc attribute a=b int\n\n' > "$tmp/key.pcf"
expect_exit 2 "a key holding '=': exit 2" -- trc-cat "$tmp/key.prv"
is "$(cat "$err")" "trc-cat: $tmp/key.prv:3: trc attribute type 91000128 has no name a key can be (is the .pcf missing?)" \
    "a key holding '=': message"
sed 's/a=b/ab/' "$tmp/key.pcf" > "$tmp/key.new" && mv "$tmp/key.new" "$tmp/key.pcf"
expect_exit 0 "the key ab: exit 0" -- trc-cat "$tmp/key.prv"
is "$(tail -1 "$out")" "0.000000100 0 MK ab=1" "the key ab: read"
# A req= list with a negative element, after an event whose list the
# reader keeps (libFuzzer: fuzz/regress/paraver/req-list-negative): it
# wrote "WB req=2,3,-4,5", exit 0, which no reader takes.
printf '%s\n%s\n%s\n' '#Paraver (01/01/2020 at 10:00):16_ns:1(3):1:3(1:1,1:1,1:1),2' \
    '2:3:1:3:1:8:91000000:4:91000060:2:91000060:3:91000060:4:91000060:5' \
    '2:3:1:3:1:8:91000000:4:91000060:2:91000060:3:91000060:-4:91000060:5' > "$tmp/negreq.prv"
expect_exit 2 "a negative request in a req= list: exit 2" -- trc-cat "$tmp/negreq.prv"
is "$(cat "$err")" "trc-cat: $tmp/negreq.prv:3: invalid req '2,3,-4,5'" \
    "a negative request in a req= list: message"
sed '3s/:2:91000060:3:91000060:-4:/:-2:91000060:3:91000060:4:/' "$tmp/negreq.prv" > "$tmp/negreq1.prv"
expect_exit 2 "a negative first request: exit 2" -- trc-cat "$tmp/negreq1.prv"
is "$(cat "$err")" "trc-cat: $tmp/negreq1.prv:3: invalid req '-2,3,4,5'" \
    "a negative first request: message"
# A CR inside the name, which the stream's reader takes for a blank
# (libFuzzer: fuzz/regress/paraver/key-with-cr).
printf 'EVENT_TYPE\n0    91000128    trc attribute a\rb int\n\n' > "$tmp/key.pcf"
expect_exit 2 "a key holding a CR: exit 2" -- trc-cat "$tmp/key.prv"
is "$(cat "$err")" "trc-cat: $tmp/key.prv:3: trc attribute type 91000128 has no name a key can be (is the .pcf missing?)" \
    "a key holding a CR: message"
bad "root as any" "$H\n$C\n2:1:1:1:1:100:91000000:10\n2:1:1:1:1:200:91000000:6:91000041:0\n" \
    "4: invalid root '*'"
# times in microseconds when the header names no unit
printf '%s\n' '#Paraver (01/01/2020 at 10:00):1000:1(2):1:2(1:1,1:1),1' \
    "$C" 2:1:1:1:1:7:60000019:3 2:1:1:1:1:9:60000019:0 > "$tmp/us.prv"
expect_exit 0 "no unit: microseconds" -- trc-cat "$tmp/us.prv"
is "$(sed -n 2p "$out")" "0.000007000 0 PB fn=60000019:3" "no unit: microseconds, a function with no .pcf"
# a truncated gzip file: the events before, then exit 2
gzip -c "$tmp/ring.prv" | head -c 20000 > "$tmp/cut.prv.gz"
cp "$tmp/ring.pcf" "$tmp/cut.pcf"
expect_exit 2 "truncated gzip: exit 2" -- trc-cat "$tmp/cut.prv.gz"
grep -q "^trc-cat: $tmp/cut.prv.gz:[0-9]*: truncated gzip data\$" "$err"
ok $? "truncated gzip: message"
[ "$(wc -l < "$out")" -gt 100 ]
ok $? "truncated gzip: the events before are written"
# The stream's extra header lines ride in the .pcf as "#trc-extra LINE";
# read back they are written before the events as they are, so a LINE
# that is no '#' line is refused (the fuzz targets check every header).
printf '#trc 1 ranks=1\n# a=1\n0 0 PB fn=f\n1 0 PE fn=f\n' > "$tmp/x.trc"
trc-cat --to prv -o "$tmp/x" "$tmp/x.trc"
expect_exit 0 "#trc-extra: read back" -- trc-cat "$tmp/x.prv"
is "$(sed -n 2p "$out")" "# a=1" "#trc-extra: the header line"
n=$(grep -n '^#trc-extra # a=1$' "$tmp/x.pcf" | cut -d: -f1)
sed 's/^#trc-extra # a=1$/#trc-extra a=1/' "$tmp/x.pcf" > "$tmp/x.new" && mv "$tmp/x.new" "$tmp/x.pcf"
expect_exit 2 "#trc-extra of no '#' line: exit 2" -- trc-cat "$tmp/x.prv"
is "$(cat "$err")" "trc-cat: $tmp/x.pcf:$n: '#trc-extra' holds no '#' line" "#trc-extra of no '#' line: message"
# Numbers of every length the fast path of trc's own records reads in
# pieces of eight digits (times and values of 1 to 18 digits, at a
# line's end and before more fields), and past it (19 digits): a
# round trip keeps each, and the 19-digit time is refused as too big.
digits=123456789012345678
{
	echo '#trc 1 ranks=2 order=time'
	k=1
	while [ $k -le 18 ]; do
		v=$(printf '%.*s' $k $digits)
		ns=$(printf '%0*d' 18 0 | sed "s/0\{$k\}\$//")$(printf '%.*s' $k 999999999999999999)
		t=$(printf '%s' "$ns" | sed 's/^\(.........\)\(.........\)$/\1.\2/; s/^0*\([0-9]\)/\1/')
		echo "$t 0 MK x=$v"
		echo "$t 1 XB op=bcast bytes=$v root=0"
		k=$((k + 1))
	done
} > "$tmp/digits.trc"
trc-cat --to prv -o "$tmp/digits" "$tmp/digits.trc"
expect_exit 0 "numbers of 1 to 18 digits: exit 0" -- trc-cat "$tmp/digits.prv"
is_file "$out" "$tmp/digits.trc" "numbers of 1 to 18 digits: the stream as it was"
sed 's/^2:2:1:2:1:999999999999999999:/2:2:1:2:1:9999999999999999999:/' "$tmp/digits.prv" > "$tmp/d19.prv"
cp "$tmp/digits.pcf" "$tmp/d19.pcf"
n=$(grep -n '^2:2:1:2:1:9999999999999999999:' "$tmp/d19.prv" | cut -d: -f1)
expect_exit 2 "a time of 19 digits: exit 2" -- trc-cat "$tmp/d19.prv"
is "$(cat "$err")" "trc-cat: $tmp/d19.prv:$n: invalid number '9999999999999999999' in field 6" \
    "a time of 19 digits: message"
# Leading zeros, which trc never writes: read as the numbers they are.
sed '3s/^2:1:1:1:1:9:/2:1:1:1:1:0000000000009:/' "$tmp/digits.prv" > "$tmp/d0.prv"
cp "$tmp/digits.pcf" "$tmp/d0.pcf"
expect_exit 0 "a time with leading zeros: exit 0" -- trc-cat "$tmp/d0.prv"
is_file "$out" "$tmp/digits.trc" "a time with leading zeros: read as the number"
done_testing
