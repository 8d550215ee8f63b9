#!/bin/sh
# OTF2: the Score-P sample read, with counts and times taken from
# otf2-print's text; archives written for each trc-gen pattern and for
# hand-written streams of every kind, read back equal and shown by
# otf2-print with as many records of each type as awk counts in the
# stream; bad archives and bad uses, each message pinned.
. "$(dirname "$0")/lib.sh"
command -v otf2-print >/dev/null || skip_all "otf2-print not installed (make deps)"
D=$T/data/otf2

# count LABEL FILE: the count in trc-cat -v's line "N LABEL not in the stream"
count() {
	sed -n "s/^trc-cat: [^:]*: \([0-9]*\) $1 not in the stream\$/\1/p" "$2"
}

# records FILE: "TYPE COUNT" for every record type otf2-print shows
records() {
	otf2-print "$1" | awk 'NR > 4 && $1 ~ /^[A-Z_0-9]+$/ && $2 ~ /^[0-9]+$/ { c[$1]++ }
	    END { for (k in c) print k, c[k] }' | sort
}

# expect STREAM: the records the writer makes of each event, by kind
expect() {
	awk '$1 !~ /^#/ && NF >= 3 {
		k = $3; req = ""
		for (i = 4; i <= NF; i++) if ($i ~ /^req=/) { req = substr($i, 5); break }
		if (k ~ /^(PB|SB|RB|WB|XB)$/) c["ENTER"]++
		if (k ~ /^(PE|SE|WE|XE)$/ || (k == "RE" && req == "") || (k == "RB" && req != "")) c["LEAVE"]++
		if (k == "SB" && req == "") c["MPI_SEND"]++
		if (k == "SB" && req != "") { c["MPI_ISEND"]++; open[$2 " " req] = 1 }
		if (k == "RB" && req != "") c["MPI_IRECV_REQUEST"]++
		if (k == "RE" && req == "") c["MPI_RECV"]++
		if (k == "RE" && req != "") c["MPI_IRECV"]++
		if (k == "WE") {
			n = split(req, a, ",")
			for (j = 1; j <= n; j++)
				if (($2 " " a[j]) in open) { c["MPI_ISEND_COMPLETE"]++; delete open[$2 " " a[j]] }
		}
		if (k == "XB") c["MPI_COLLECTIVE_BEGIN"]++
		if (k == "XE") c["MPI_COLLECTIVE_END"]++
		if (k == "MK") c["PARAMETER_UINT64"]++
	} END { for (k in c) print k, c[k] }' "$1" | sort
}

# ---- the Score-P sample: 2 ranks, blocking ping-pong
S=$D/pingpong/traces.otf2
otf2-print "$S" > "$tmp/print"
otf2-print -G "$S" > "$tmp/defs"
expect_exit 0 "pingpong: exit 0" -- trc-cat -v "$S"
cp "$out" "$tmp/pp.trc"
cp "$err" "$tmp/pp.err"
ranks=$(awk '$1 == "LOCATION_GROUP" && /Type: PROCESS/' "$tmp/defs" | wc -l)
is "$ranks" 2 "pingpong: otf2-print shows 2 processes"
is "$(sed -n 1p "$tmp/pp.trc")" "#trc 1 ranks=$ranks order=time" "pingpong: ranks= is the processes"
awk '$1 == "MPI_SEND" { n++; for (i = 1; i < NF; i++) if ($i == "Length:") b += $(i + 1) } END { print n, b }' \
    "$tmp/print" > "$tmp/want"
awk '$3 == "SE" { n++; for (i = 4; i <= NF; i++) if ($i ~ /^bytes=/) b += substr($i, 7) } END { print n, b }' \
    "$tmp/pp.trc" > "$tmp/got"
is "$(cat "$tmp/got")" "$(cat "$tmp/want")" "pingpong: messages and bytes equal otf2-print's MPI_SEND records"
is "$(awk '$3 == "RE"' "$tmp/pp.trc" | wc -l)" "$(awk '$3 == "SE"' "$tmp/pp.trc" | wc -l)" \
    "pingpong: as many receives as sends (none unmatched)"
# Times: ticks less the global offset over the resolution, in whole
# nanoseconds, by long division (awk's doubles hold the ticks exactly).
cat > "$tmp/ns.awk" <<'EOF'
function ns(t, o, r,   d, q, rem, f, i, k) {
	d = t - o; q = int(d / r); rem = d - q * r; f = 0
	for (i = 0; i < 3; i++) {
		rem *= 1000; k = int(rem / r); rem -= k * r
		if (rem < 0) { k--; rem += r }
		f = f * 1000 + k
	}
	return sprintf("%d.%09d", q, f)
}
$1 == "CLOCK_PROPERTIES" { sub(",", "", $5); sub(",", "", $8); tps = $5; off = $8 }
$1 == "ENTER" && $5 == "\"MPI_Send\"" { print ns($3, off, tps), $2 }
EOF
cat "$tmp/defs" "$tmp/print" | awk -f "$tmp/ns.awk" > "$tmp/want"
awk '$3 == "SB" { print $1, $2 }' "$tmp/pp.trc" > "$tmp/got"
is_file "$tmp/got" "$tmp/want" "pingpong: SB times are the Enters of MPI_Send in nanoseconds"
is "$(count 'MPI_Comm_rank call' "$tmp/pp.err")" \
    "$(grep -c '^ENTER .*Region: "MPI_Comm_rank"' "$tmp/print")" "pingpong: -v counts MPI_Comm_rank calls"
is "$(count 'PROGRAM_BEGIN event' "$tmp/pp.err")" "$(grep -c '^PROGRAM_BEGIN' "$tmp/print")" \
    "pingpong: -v counts PROGRAM_BEGIN records"
is "$(awk '$3 == "MK" && $4 == "mark=init"' "$tmp/pp.trc" | wc -l)" 2 "pingpong: MPI_Init's end as MK mark=init"
is "$(awk '$3 == "PB"' "$tmp/pp.trc" | sed -n 1p)" "0.000030083 1 PB fn=int_main(int,_char**)" \
    "pingpong: a user region, blanks made _"
expect_exit 0 "pingpong: trc-sum" -- trc-sum "$S"
expect_exit 0 "pingpong: trc-stable against itself" -- trc-stable "$S" "$S"
grep -q '^identical execution graphs' "$out"
ok $? "pingpong: identical"
expect_exit 0 "pingpong: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$S"

# ---- round trips of trc-gen's patterns
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 8 -e 5000 > "$tmp/$p.trc"
	trc-cat "$tmp/$p.trc" > "$tmp/$p.want"
	expect_exit 0 "$p: written" -- trc-cat -v --to otf2 -o "$tmp/$p" "$tmp/$p.trc"
	is "$(cat "$err")" "" "$p: nothing the writer could not say"
	ok $(test -s "$tmp/$p/traces.otf2" && test -s "$tmp/$p/traces.def" &&
	    test -s "$tmp/$p/traces/7.evt"; echo $?) "$p: anchor, definitions, a file per rank"
	expect_exit 0 "$p: read back" -- trc-cat -v "$tmp/$p/traces.otf2"
	is_file "$out" "$tmp/$p.want" "$p: the same stream"
	is "$(cat "$err")" "" "$p: nothing dropped"
	records "$tmp/$p/traces.otf2" > "$tmp/got"
	expect "$tmp/$p.trc" > "$tmp/want"
	is_file "$tmp/got" "$tmp/want" "$p: otf2-print shows the records of each event"
done
expect_exit 0 "halo: trc-stable of the archive and the stream" -- \
    trc-stable "$tmp/halo/traces.otf2" "$tmp/halo.trc"

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
0.000010200 0 SB peer=1 tag=1 bytes=8 req=2
0.000010200 0 SE peer=1 tag=1 bytes=8 req=2
0.000010200 0 SB peer=2 tag=1 bytes=8 req=3
0.000010200 0 SE peer=2 tag=1 bytes=8 req=3
0.000010300 1 RB peer=0 tag=* bytes=8 req=3
0.000010400 2 RB peer=* tag=1 bytes=8 req=4
0.000010500 0 WB req=2,3 op=waitany
0.000010600 1 WB req=3 op=test
0.000010700 1 RE req=3 peer=0 tag=1 bytes=8
0.000010700 1 WE req=3 op=test
0.000010800 0 WE req=3 op=waitany
0.000010900 0 WB req=2 op=waitsome
0.000010900 2 WB req=4 op=waitsome
0.000011000 0 WE req=2 op=waitsome
0.000011000 2 RE req=4 peer=0 tag=1 bytes=8
0.000011000 2 WE req=4 op=waitsome
0.000011100 0 PE fn=solve
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
0.000017500 0 XB op=gather bytes=32 root=0
0.000017500 1 XB op=gather bytes=32 root=0
0.000017500 2 XB op=gather bytes=32 root=0
0.000017600 0 XE op=gather bytes=32 root=0
0.000017600 1 XE op=gather bytes=32 root=0
0.000017600 2 XE op=gather bytes=32 root=0
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
expect_exit 0 "every kind: written (PATH.otf2 names the anchor)" -- \
    trc-cat -v --to otf2 -o "$tmp/e/run.otf2" "$tmp/every.trc"
is "$(cat "$err")" "" "every kind: nothing the writer could not say"
ok $(test -s "$tmp/e/run.otf2" && test -s "$tmp/e/run.def" && test -d "$tmp/e/run"; echo $?) \
    "every kind: run.otf2, run.def, run/"
expect_exit 0 "every kind: read back" -- trc-cat -v "$tmp/e/run.otf2"
is_file "$out" "$tmp/want" "every kind: the same stream"
is "$(cat "$err")" "" "every kind: nothing dropped"
records "$tmp/e/run.otf2" > "$tmp/got"
expect "$tmp/every.trc" > "$tmp/want"
is_file "$tmp/got" "$tmp/want" "every kind: otf2-print shows the records of each event"
otf2-print "$tmp/e/run.otf2" > "$tmp/print"
is "$(grep -c '^MPI_SEND .*Receiver: 1 .*Communicator: "comm 2" .*Tag: 7, Length: 4096$' "$tmp/print")" 1 \
    "every kind: an Ssend on communicator 2, as MPI_SEND"
is "$(grep -c '^MPI_COLLECTIVE_END .*Operation: BCAST, .*Root: 1 ' "$tmp/print")" 3 \
    "every kind: the bcast's root"
is "$(otf2-print -G "$tmp/e/run.otf2" | grep -c '^REGION .*Name: "MPI_Ssend"')" 1 \
    "every kind: a region per call, MPI_Ssend"
expect_exit 0 "every kind: written again over the old archive" -- \
    trc-cat --to otf2 -o "$tmp/e/run.otf2" "$tmp/every.trc"
expect_exit 0 "every kind: read again" -- trc-cat "$tmp/e/run.otf2"
trc-cat "$tmp/every.trc" > "$tmp/want"
is_file "$out" "$tmp/want" "every kind: the same stream again"

# ---- a stream no tracer writes: odd orders, repeats, ends without begins
cat > "$tmp/odd.trc" <<'EOF'
#trc 1
# no ranks=; PE and PB without fn=; ends with no begin; keys twice
0.000000000 0 PB
0.000000000 0 PE
0.000000001 1 SE peer=0 tag=1 bytes=5
0.000000002 1 RE peer=0 tag=1 bytes=5 req=7 x=
0.000000002 0 RE bytes=9 peer=1
0.000000003 0 WE op=waitall
0.000000003 0 XE op=AllReduce bytes=3
0.000000004 0 PB fn=a
0.000000004 0 PB fn=b
0.000000005 0 PE fn=a
0.000000005 0 PE fn=b
0.000000006 2 SB tag=* peer=* bytes=1 op=isend
0.000000006 2 SE tag=* peer=* bytes=1
0.000000007 2 SB peer=70000 tag=3 bytes=10 req=1 req=2
0.000000007 2 SE peer=70000 tag=3 bytes=10 req=2
0.000000008 2 WB req=2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40 op=waitsome
0.000000008 2 WB req=1 op=wait
0.000000008 2 RE req=3 peer=0 tag=1 bytes=1
0.000000009 2 WE req=1 op=wait
0.000000009 2 WE req=3,2 op=waitsome t0=0.000000001 z=1,2 z=3,4 q=-0 w=00
0.000000010 0 MK
0.000000010 0 MK a=b a=b a=c iter=3 iter=4
0.000000011 1 XB op=bcast root=2 bytes=8 comm=5 size=3
0.000000011 1 XE root=2 op=bcast bytes=8 comm=5
0.000000012 1 XB op=scan bytes=922337203685477580
0.000000013 1 RB peer=* tag=* bytes=4
0.000000014 1 PB fn=inside
0.000000015 1 RE peer=2 tag=9 bytes=4
0.000000015 1 PE fn=inside
0.000000016 0 SB peer=1 tag=4 bytes=2 comm=9
EOF
trc-cat "$tmp/odd.trc" > "$tmp/want"
expect_exit 0 "odd stream: written" -- trc-cat --to otf2 -o "$tmp/odd" "$tmp/odd.trc"
expect_exit 0 "odd stream: read back" -- trc-cat "$tmp/odd/traces.otf2"
is_file "$out" "$tmp/want" "odd stream: the same, unfinished calls and all"

# ---- bad archives
mk() {	# a copy of the sample to break
	rm -rf "$tmp/c"
	cp -r "$D/pingpong" "$tmp/c"
	chmod -R u+w "$tmp/c"
}
bad() {	# NAME MESSAGE: trc-cat of the broken copy
	expect_exit 2 "$1: exit 2" -- trc-cat "$tmp/c/traces.otf2"
	is "$(cat "$err")" "trc-cat: $tmp/c/traces.otf2: $2" "$1: message"
}
expect_exit 2 "no archive: exit 2" -- trc-cat "$tmp/none.otf2"
is "$(cat "$err")" "trc-cat: $tmp/none.otf2: No such file or directory" "no archive: message"
mk; head -c 100 "$D/pingpong/traces.otf2" > "$tmp/c/traces.otf2"
# libotf2 leaks what it made of an anchor it could not read.
expect_exit 2 "truncated anchor: exit 2" -- \
    env LSAN_OPTIONS="suppressions=$D/lsan.supp:print_suppressions=0" trc-cat "$tmp/c/traces.otf2"
is "$(cat "$err")" "trc-cat: $tmp/c/traces.otf2: cannot open the OTF2 archive: libotf2: searching for string's terminating null byte failed" \
    "truncated anchor: message"
mk; head -c 400 "$D/pingpong/traces/1.evt" > "$tmp/c/traces/1.evt"
bad "truncated event file" "location 1, event 28: cannot read the event: libotf2: this is no chunk header"
mk; { head -c 300 "$D/pingpong/traces/1.evt"; printf '\377\377\377\377\377\377\377\377\377\377'
    tail -c +311 "$D/pingpong/traces/1.evt"; } > "$tmp/c/traces/1.new"
mv "$tmp/c/traces/1.new" "$tmp/c/traces/1.evt"
bad "corrupted event file" \
    "location 1, event 21: cannot read the event: libotf2: could not read record. Not enough memory left in buffer"
mk; rm "$tmp/c/traces/1.evt"
bad "missing event file" \
    "location 1: cannot open its events: libotf2: POSIX: '$tmp/c/traces/1.evt': File or directory does not exist"
mk; head -c 3000 "$D/pingpong/traces.def" > "$tmp/c/traces.def"
bad "truncated definitions" "cannot read the definitions: libotf2: this is no chunk header"
mk; rm "$tmp/c/traces.def"
bad "missing definitions" \
    "cannot read the definitions: libotf2: POSIX: '$tmp/c/traces.def': File or directory does not exist"
mk
expect_exit 2 "an event file given: exit 2" -- trc-cat "$tmp/c/traces/0.evt"
is "$(cat "$err")" \
    "trc-cat: $tmp/c/traces/0.evt: one file of an OTF2 archive: read the archive's anchor file (NAME.otf2)" \
    "an event file given: message"
expect_exit 2 "standard input: exit 2" -- sh -c "trc-cat < '$S'"
is "$(cat "$err")" \
    "trc-cat: <stdin>: OTF2 is read from an archive's anchor file (NAME.otf2), not from standard input" \
    "standard input: message"
echo 'not an archive' > "$tmp/text.otf2"
expect_exit 2 "a text file named .otf2: exit 2" -- trc-cat "$tmp/text.otf2"
is "$(cat "$err")" "trc-cat: $tmp/text.otf2: not an OTF2 anchor file" "a text file named .otf2: message"

# ---- bad uses of the writer
expect_exit 2 "--to otf2 without -o" -- trc-cat --to otf2 "$tmp/ring.trc"
is "$(cat "$err")" "trc-cat: OTF2 is an archive of files: name its directory with -o" \
    "--to otf2 without -o: message"
expect_exit 2 "--to otf2 into a missing folder" -- trc-cat --to otf2 -o "$tmp/no/such" "$tmp/ring.trc"
is "$(cat "$err")" "trc-cat: $tmp/no/such/traces.otf2: $tmp/no/such: No such file or directory" \
    "--to otf2 into a missing folder: message"
mkdir -p "$tmp/busy/traces"
echo keep > "$tmp/busy/traces/notes.txt"
expect_exit 2 "--to otf2 over a folder that is not an archive's" -- trc-cat --to otf2 -o "$tmp/busy" "$tmp/ring.trc"
is "$(cat "$err")" \
    "trc-cat: $tmp/busy/traces.otf2: $tmp/busy/traces: not an OTF2 archive's directory ('notes.txt'), not replaced" \
    "--to otf2 over a folder that is not an archive's: message"
is "$(cat "$tmp/busy/traces/notes.txt")" keep "--to otf2 over a folder that is not an archive's: left alone"
# ---- an anchor whose count of properties would make libotf2 allocate
# 9.6 GB (fuzz/regress/otf2/anchor-calloc-9gb): refused before it is
# read.  The count is the uint32 after the description (anchor format
# 3, little-endian here): 0x24000000 properties of two strings each
# cannot fit in the bytes after it.
trc-cat --to otf2 -o "$tmp/anc" "$tmp/ring.trc"
a=$tmp/anc/traces.otf2
off=$(grep -obUa 'a trc stream' "$a" | head -1 | cut -d: -f1)
at=$((off + 13))
printf '\000\000\000\044' | dd of="$a" bs=1 seek=$at conv=notrunc 2>/dev/null
size=$(wc -c < "$a" | tr -d ' ')
expect_exit 2 "an anchor with 603979776 properties" -- trc-cat "$a"
is "$(cat "$err")" \
    "trc-cat: $a: broken anchor file: 603979776 properties in $((size - at - 4)) bytes" \
    "an anchor with 603979776 properties: message"
# ---- libFuzzer's archive fuzz/regress/otf2raw/collend-use-after-free, its
# six files cut at the first five "%%file%%" as fuzz/otf2raw.c does: an
# MPI_COLLECTIVE_END on communicator 23 where only 0 is defined, the
# 8th event of location 1 as otf2-print lists them.  The error was
# recorded but the callback went on to index the communicators (a
# crash of the release build, heap-use-after-free under ASan).
f=$T/../fuzz/regress/otf2raw/collend-use-after-free
mkdir -p "$tmp/uaf/traces"
set -- traces.otf2 traces.def traces/0.def traces/0.evt traces/1.def traces/1.evt
start=0
for at in $(grep -obUa '%%file%%' "$f" | cut -d: -f1 | head -5) $(wc -c < "$f"); do
	tail -c +$((start + 1)) "$f" | head -c $((at - start)) > "$tmp/uaf/$1"
	shift
	start=$((at + 8))
done
expect_exit 2 "a collective on an undefined communicator: exit 2" -- \
    trc-cat "$tmp/uaf/traces.otf2"
is "$(cat "$err")" \
    "trc-cat: $tmp/uaf/traces.otf2: location 1, event 8: undefined communicator 23" \
    "a collective on an undefined communicator: message"

# ---- trc's own properties, checked whole.  The archives are written by
# libotf2 from programs of fuzz/otf2.c's encoding (its header comment):
# flags 013, the prelude of 2 ranks in a trc archive; rank 1 enters
# region 0 ("main", a trc region) at 1 ns and leaves it at 2 ns; then
# the property WHICH (0 TRC::STREAM, 1 TRC::RANKS, 2 TRC::COMMS,
# 3 TRC::HEADER) of the value given.
: "${TRC_BUILD:=$T/../build}"
W=$TRC_BUILD/fuzz/otf2.replay
# prop NAME WHICH VALUE [EVENTS]: the archive $tmp/NAME/traces.otf2
prop() {
	printf '\013e\001\001\000l\001\001\000' > "$tmp/$1.prog"
	# shellcheck disable=SC2059
	[ -z "${4:-}" ] || printf "$4" >> "$tmp/$1.prog"
	printf "Y\\$(printf '%03o' "$2")\\$(printf '%03o' ${#3})" >> "$tmp/$1.prog"
	printf '%s' "$3" >> "$tmp/$1.prog"
	FUZZ_OTF2_DIR=$tmp/$1 "$W" "$tmp/$1.prog" > /dev/null
}
prop hdr 3 "$(printf '# a=1\n# b\n.')"	# the '.' keeps the newline from $( )
printf '#trc 1 ranks=2 order=time\n# a=1\n# b\n0.000000001 1 PB fn=main\n0.000000002 1 PE fn=main\n' > "$tmp/want"
expect_exit 2 "TRC::HEADER ending in a line that is no '#' line: exit 2" -- trc-cat "$tmp/hdr/traces.otf2"
is "$(cat "$err")" "trc-cat: $tmp/hdr/traces.otf2: property TRC::HEADER: not lines beginning with '#'" \
    "TRC::HEADER ending in a line that is no '#' line: message"
prop hdr 3 "$(printf '# a=1\n# b\n')
"
expect_exit 0 "TRC::HEADER of two lines: exit 0" -- trc-cat "$tmp/hdr/traces.otf2"
is_file "$out" "$tmp/want" "TRC::HEADER of two lines: the header's extra lines"
for v in abc '# a' '# a|b'; do
	prop hdr 3 "$(printf '%s' "$v" | tr '|' '\n')"
	expect_exit 2 "TRC::HEADER '$v' ('|' a newline): exit 2" -- trc-cat "$tmp/hdr/traces.otf2"
	is "$(cat "$err")" "trc-cat: $tmp/hdr/traces.otf2: property TRC::HEADER: not lines beginning with '#'" \
	    "TRC::HEADER '$v': message"
	is "$(cat "$out")" "" "TRC::HEADER '$v': no stream written"
done
prop ranks 1 3
expect_exit 0 "TRC::RANKS 3: exit 0" -- trc-cat "$tmp/ranks/traces.otf2"
is "$(sed -n 1p "$out")" "#trc 1 ranks=3 order=time" "TRC::RANKS 3: ranks=3"
# 4294967298 is 2 modulo 2^32: it was read as 2.
for v in 4294967298 2147483648 -1 2x ' '; do
	prop ranks 1 "$v"
	expect_exit 2 "TRC::RANKS '$v': exit 2" -- trc-cat "$tmp/ranks/traces.otf2"
	is "$(cat "$err")" "trc-cat: $tmp/ranks/traces.otf2: property TRC::RANKS: invalid ranks '$v'" \
	    "TRC::RANKS '$v': message"
done
# A message of rank 0 to itself on communicator 1 (MPI_COMM_SELF),
# called 7 in the stream by TRC::COMMS: MPI_Send entered at 1 ns, its
# MpiSend at 2, left at 3.
self='e\000\001\001s\000\001\000\001\005\001l\000\001\001'
prop comms 2 '0 7' "$self"
expect_exit 0 "TRC::COMMS '0 7': exit 0" -- trc-cat "$tmp/comms/traces.otf2"
printf '#trc 1 ranks=2 order=time\n0.000000001 0 SB peer=0 tag=5 bytes=1 comm=7\n0.000000001 1 PB fn=main\n0.000000002 1 PE fn=main\n0.000000003 0 SE peer=0 tag=5 bytes=1 comm=7\n' > "$tmp/want"
is_file "$out" "$tmp/want" "TRC::COMMS '0 7': the message on communicator 7"
for v in '0 99999999999' '0 2147483648' '0 -7' '0 7x' 'x'; do
	prop comms 2 "$v" "$self"
	expect_exit 2 "TRC::COMMS '$v': exit 2" -- trc-cat "$tmp/comms/traces.otf2"
	bad=${v#0 }
	is "$(cat "$err")" "trc-cat: $tmp/comms/traces.otf2: property TRC::COMMS: invalid communicator id '$bad'" \
	    "TRC::COMMS '$v': message"
done
# MPI_COMM_WORLD (communicator 0, redefined) on group 9, which is not
# defined though below the groups' count (3 defined, room for 16), and
# on group 2^32-1 past them: the ranks are the MPI locations, 0 and 1
# (fuzz/regress/otf2/world-group-undefined: "no MPI ranks" before).
printf '#trc 1 ranks=2 order=time\n# otf2: unknown creator, 1000000000 ticks per second\n0.000000001 1 PB fn=main\n0.000000002 1 PE fn=main\n' > "$tmp/want"
for g in 011 344; do
	# shellcheck disable=SC2059
	printf "\\003M\\000\\001\\$g\\344e\\001\\001\\000l\\001\\001\\000" > "$tmp/world.prog"
	rm -rf "$tmp/world"
	FUZZ_OTF2_DIR=$tmp/world "$W" "$tmp/world.prog" > /dev/null
	expect_exit 0 "world on an undefined group ($g): exit 0" -- trc-cat "$tmp/world/traces.otf2"
	is_file "$out" "$tmp/want" "world on an undefined group ($g): the locations' ranks"
done
# Definitions are kept by id: an id may be at most 65536 past 4 times
# the definitions before it (fuzz/regress/otf2/region-id-15204613: a
# region of that id took 1.2 GB).  No prelude: a clock, strings 0 ""
# and 1 "work", process 0 and its location 0 (locations not counted),
# then region ID named "work", entered at 1 ns and left at 2 ns.  3
# definitions before it: 65548 is the largest id.
# region ID-AS-5-OCTAL-BYTES: the program
region() {
	printf "\\000C\\346\\000\\144S\\000\\000S\\001\\004workP\\000\\001\\001L\\000\\001\\001\\002\\000R$1\\001\\000\\001\\001e\\000\\001$1l\\000\\001$1" > "$tmp/reg.prog"
	rm -rf "$tmp/reg"
	FUZZ_OTF2_DIR=$tmp/reg "$W" "$tmp/reg.prog" > /dev/null
}
region '\341\014\000\001\000'
printf '#trc 1 ranks=1 order=time\n# otf2: unknown creator, 1000000000 ticks per second\n0.000000001 0 PB fn=work\n0.000000002 0 PE fn=work\n' > "$tmp/want"
expect_exit 0 "region 65548 after 3 definitions: exit 0" -- trc-cat "$tmp/reg/traces.otf2"
is_file "$out" "$tmp/want" "region 65548 after 3 definitions: its events"
region '\341\015\000\001\000'
expect_exit 2 "region 65549 after 3 definitions: exit 2" -- trc-cat "$tmp/reg/traces.otf2"
is "$(cat "$err")" "trc-cat: $tmp/reg/traces.otf2: definition id 65549 too large after 3 definitions" \
    "region 65549 after 3 definitions: message"
done_testing
