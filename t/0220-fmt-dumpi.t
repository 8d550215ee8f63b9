#!/bin/sh
# The dumpi reader (lib/fmt/dumpi.c): dumpi2ascii output, one file per
# rank.  The real 7-rank trace against counts awk takes from its text,
# a hand-made trace against the stream worked out by hand, trc-gen
# streams written as DUMPI and read back, and malformed inputs.
. "$(dirname "$0")/lib.sh"

D=$T/data/dumpi
S=$D/testbgp

# The real trace -------------------------------------------------------------

expect_exit 0 "sample: exit 0" -- trc-cat "$S/testbgp-0000.txt"
cp "$out" "$tmp/s.trc"
is "$(head -n 1 "$tmp/s.trc")" "#trc 1 ranks=7 order=time" "sample: 7 ranks"
is "$(cat "$err")" "" "sample: nothing on stderr"

# Messages and bytes, from the text: one per Isend or Send block, count
# times the size of its datatype.
awk '
	BEGIN { sz["MPI_DOUBLE"] = 8; sz["MPI_INT"] = 4; sz["MPI_CHAR"] = 1
		sz["MPI_BYTE"] = 1; sz["MPI_FLOAT"] = 4; sz["MPI_LONG"] = 8 }
	/^MPI_I?send entering/ { in_send = 1; next }
	in_send && /^int count=/ { split($2, a, "="); c = a[2] }
	in_send && /^MPI_Datatype/ { t = $NF; gsub(/[()]/, "", t) }
	/^MPI_I?send returning/ { n++; b += c * sz[t]; in_send = 0 }
	/^MPI_Irecv entering/ { r++ }
	END { print n, b, r }' "$S"/testbgp-*.txt > "$tmp/want.counts"
awk '$3 == "SE" { n++; for (i = 4; i <= NF; i++) if ($i ~ /^bytes=/) b += substr($i, 7) }
	$3 == "RE" { r++ }
	END { print n, b, r }' "$tmp/s.trc" > "$tmp/got.counts"
is "$(cat "$tmp/got.counts")" "$(cat "$tmp/want.counts")" \
    "sample: messages, bytes and receives as counted in the text ($(cat "$tmp/want.counts"))"
is "$(cat "$tmp/want.counts")" "588 418656 588" "sample: 7 x 84 messages of 89 doubles"

# Events per rank, from the text: two per call with begin and end, one
# per Irecv, one more per receive a Waitall completes (all of them here),
# MPI_Init and MPI_Finalize one marker each.
for f in "$S"/testbgp-*.txt; do
	awk '/^MPI_(Isend|Waitall|Alltoall|Barrier) entering/ { n += 2 }
	    /^MPI_Irecv entering/ { n += 2 }
	    /^MPI_(Init|Finalize) entering/ { n++ }
	    /^MPI_Comm_rank entering/ { getline; w = $0 ~ /MPI_COMM_WORLD/ }
	    w && /^int rank=/ { split($2, a, "="); rank = a[2]; w = 0 }
	    END { print rank, n }' "$f"
done | sort -n > "$tmp/want.ranks"
awk '!/^#/ { n[$2]++ } END { for (r in n) print r, n[r] }' "$tmp/s.trc" |
    sort -n > "$tmp/got.ranks"
is_file "$tmp/got.ranks" "$tmp/want.ranks" "sample: events per rank as the calls say"

# Every message is received: sends and receives pair up by source,
# destination, tag and communicator.
awk '!/^#/ { c = 0; p = ""; g = ""
	for (i = 4; i <= NF; i++) {
		if ($i ~ /^peer=/) p = substr($i, 6)
		if ($i ~ /^tag=/) g = substr($i, 5)
		if ($i ~ /^comm=/) c = substr($i, 6)
	}
	if ($3 == "SE") k[$2 ">" p ":" g ":" c]++
	if ($3 == "RE") k[p ">" $2 ":" g ":" c]--
}
END { for (x in k) if (k[x] != 0) bad++; print bad + 0 }' "$tmp/s.trc" > "$tmp/unmatched"
is "$(cat "$tmp/unmatched")" 0 "sample: no unmatched message"
is "$(grep -c ' XB op=alltoall bytes=712 comm=1 size=7$' "$tmp/s.trc")" 49 \
    "sample: alltoalls on the created communicator, comm=1 size=7"

expect_exit 0 "sample: trc-stable against itself" -- trc-stable "$tmp/s.trc" "$tmp/s.trc"
is "$(tail -n 1 "$out")" "identical execution graphs: stable" "sample: identical"
expect_exit 0 "sample: trc-stable reads the DUMPI files too" -- \
    trc-stable "$S/testbgp-0000.txt" "$tmp/s.trc"
expect_exit 0 "sample: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$S/testbgp-0000.txt"
is "$(cat "$err")" "" "sample: trc-scale has nothing to say"
expect_exit 0 "sample: trc-sum" -- trc-sum "$S/testbgp-0000.txt"
is "$(awk '$1 == "isend" { print $2, $3 }' "$out")" "588 418656" "sample: trc-sum's isends"

# What the stream cannot say, counted as the text has it.
expect_exit 0 "sample: -v" -- trc-cat -v "$S/testbgp-0000.txt"
for c in MPI_Comm_size MPI_Comm_rank MPI_Comm_group MPI_Group_incl MPI_Comm_create; do
	n=$(cat "$S"/testbgp-*.txt | grep -c "^$c entering")
	echo "trc-cat: $S/testbgp-0000.txt: $n $c calls not in the stream"
done | sort > "$tmp/want.v"
sort "$err" > "$tmp/got.v"
is_file "$tmp/got.v" "$tmp/want.v" "sample: -v counts the calls without events"

# Any rank file finds its siblings; gzip; ranks from MPI_Comm_rank.
expect_exit 0 "sample: from rank file 5" -- trc-cat "$S/testbgp-0005.txt"
is_file "$out" "$tmp/s.trc" "sample: the same stream from any rank file"
mkdir "$tmp/gz"
for f in "$S"/testbgp-*.txt; do gzip -c "$f" > "$tmp/gz/$(basename "$f").gz"; done
expect_exit 0 "sample gzipped: exit 0" -- trc-cat "$tmp/gz/testbgp-0000.txt.gz"
is_file "$out" "$tmp/s.trc" "sample gzipped: the same stream"
mkdir "$tmp/sw"
cp "$S"/testbgp-*.txt "$tmp/sw/"
mv "$tmp/sw/testbgp-0001.txt" "$tmp/sw/x"
mv "$tmp/sw/testbgp-0002.txt" "$tmp/sw/testbgp-0001.txt"
mv "$tmp/sw/x" "$tmp/sw/testbgp-0002.txt"
expect_exit 0 "files 1 and 2 swapped: exit 0" -- trc-cat "$tmp/sw/testbgp-0000.txt"
is_file "$out" "$tmp/s.trc" "files 1 and 2 swapped: ranks from MPI_Comm_rank"

# Standard input is one rank file: its rank and world from its first
# calls, peers on a communicator of unknown members an error.
expect_exit 0 "rank file on stdin: exit 0" -- sh -c "trc-cat < '$S/testbgp-0002.txt'"
is "$(head -n 1 "$out")" "#trc 1 ranks=7 order=time" "rank file on stdin: the world's size"
awk '$2 == 2' "$tmp/s.trc" > "$tmp/want"
grep -v '^#' "$out" > "$tmp/got"
is_file "$tmp/got" "$tmp/want" "rank file on stdin: rank 2's events"

# The hand-made trace -----------------------------------------------------------

H=$D/hand
expect_exit 0 "hand: exit 0" -- trc-cat -v "$H/h-0001.txt"
is_file "$out" "$H/hand.want" "hand: the stream worked out by hand"
sed "s|^|trc-cat: $H/h-0001.txt: |; s|\$| not in the stream|" "$H/hand.drops" | sort > "$tmp/want.v"
sed 's/: \([0-9]*\) /: \1 /' "$err" | sort > "$tmp/got.v"
is_file "$tmp/got.v" "$tmp/want.v" "hand: -v counts"
cp "$out" "$tmp/h.trc"
expect_exit 0 "hand: trc-stable against itself" -- trc-stable "$tmp/h.trc" "$tmp/h.trc"
expect_exit 0 "hand: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$tmp/h.trc"
is "$(cat "$err")" "" "hand: trc-scale has nothing to say"

# Round trips: trc-gen streams written as DUMPI and read back are the
# streams, without markers (no DUMPI call makes one), with requests
# numbered from 1 as libtrc-mpi numbers them.
norm() {
	awk -v add="$1" '
	/^#/ || $3 == "MK" { next }
	{
		n = 0
		for (i = 4; i <= NF; i++) {
			a = $i
			if (add && a ~ /^req=/) {
				m = split(substr(a, 5), q, ",")
				a = "req="
				for (j = 1; j <= m; j++)
					a = a (j > 1 ? "," : "") (q[j] + add)
			}
			v[++n] = a
		}
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
			}
		s = $1 " " $2 " " $3
		for (i = 1; i <= n; i++)
			s = s " " v[i]
		print s
	}' | sort -s -k1,1n -k2,2n
}
for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 5 -e 4000 > "$tmp/$p.trc"
	mkdir "$tmp/$p"
	awk -v prefix="$tmp/$p/run" -f "$D/from-trc.awk" "$tmp/$p.trc"
	expect_exit 0 "round trip $p: exit 0" -- trc-cat "$tmp/$p/run-0000.txt"
	norm 0 < "$out" > "$tmp/got"
	norm 1 < "$tmp/$p.trc" > "$tmp/want"
	is_file "$tmp/got" "$tmp/want" "round trip $p: every event, peer, tag, size and time"
done
is "$(ls "$tmp/halo" | wc -l)" 5 "round trip: one file per rank"

# Malformed input -------------------------------------------------------------

# copy DIR: the sample's files into $tmp/DIR
copy() {
	mkdir "$tmp/$1"
	cp "$S"/testbgp-*.txt "$tmp/$1/"
}

copy m1
f=$tmp/m1/testbgp-0000.txt
l=$(grep -n '^MPI_Irecv entering' "$f" | head -n 1 | cut -d: -f1)
r=$(grep -n '^MPI_Irecv returning' "$f" | head -n 1 | cut -d: -f1)
sed -i "${r}d" "$f"
expect_exit 2 "returning line missing: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$l: 'MPI_Irecv' has no returning line" \
    "returning line missing: message"

copy m2
f=$tmp/m2/testbgp-0002.txt
l=$(grep -n '(MPI_DOUBLE)' "$f" | head -n 1 | cut -d: -f1)
sed -i "${l}s/(MPI_DOUBLE)/(MPI_FOO)/" "$f"
expect_exit 2 "unknown datatype: exit 2" -- trc-cat "$tmp/m2/testbgp-0000.txt"
is "$(cat "$err")" "trc-cat: $f:$l: unknown datatype 'MPI_FOO'" \
    "unknown datatype: message"

copy m3
f=$tmp/m3/testbgp-0004.txt
l=$(grep -n '^int count=89$' "$f" | sed -n 3p | cut -d: -f1)
sed -i "${l}s/89/8x9/" "$f"
expect_exit 2 "non-numeric count: exit 2" -- trc-cat "$tmp/m3/testbgp-0000.txt"
is "$(cat "$err")" "trc-cat: $f:$l: invalid count '8x9'" "non-numeric count: message"

# Cut inside a block: three bytes into its tag line.
copy m4
f=$tmp/m4/testbgp-0005.txt
t=$(grep -n '^int tag=200$' "$f" | sed -n 40p | cut -d: -f1)
l=$(head -n "$t" "$f" | grep -n ' entering at ' | tail -n 1 | cut -d: -f1)
c=$(head -n "$(($t - 1))" "$f" | wc -c)
head -c $(($c + 3)) "$S/testbgp-0005.txt" > "$f"
name=$(sed -n "${l}p" "$f" | cut -d' ' -f1)
expect_exit 2 "truncated file: exit 2" -- trc-cat "$tmp/m4/testbgp-0000.txt"
is "$(cat "$err")" "trc-cat: $f:$l: '$name' has no returning line (the file ends)" \
    "truncated file: message"

copy m5
rm "$tmp/m5/testbgp-0003.txt"
expect_exit 2 "rank file missing in the middle: exit 2" -- trc-cat "$tmp/m5/testbgp-0000.txt"
is "$(cat "$err")" "trc-cat: $tmp/m5/testbgp-0003.txt: rank file missing (testbgp-0000.txt to testbgp-0006.txt found)" \
    "rank file missing in the middle: message"
is "$(wc -c < "$out")" 0 "rank file missing: nothing written"

copy m6
rm "$tmp/m6/testbgp-0006.txt"
expect_exit 2 "last rank file missing: exit 2" -- trc-cat "$tmp/m6/testbgp-0002.txt"
is "$(cat "$err")" "trc-cat: $tmp/m6/testbgp-0000.txt: MPI_COMM_WORLD has 7 ranks, 6 rank files found" \
    "last rank file missing: message"

# copyh DIR: the hand-made files into $tmp/DIR
copyh() {
	mkdir "$tmp/$1"
	cp "$H"/h-*.txt "$tmp/$1/"
}

copyh w
f=$tmp/w/h-0000.txt
l=$(grep -n '^MPI_Irecv entering' "$f" | cut -d: -f1)
t=$(grep -n '^int flag=1$' "$f" | cut -d: -f1)
sed -i "$(($t + 1))s/=.*/=<IGNORED>/" "$f"
expect_exit 2 "wildcard receive without a status: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$(($t - 2)): 'MPI_Test' completes a receive posted with MPI_ANY_SOURCE at line $l without a status: the source is not known" \
    "wildcard receive without a status: message"

copyh b
f=$tmp/b/h-0001.txt
l=$(grep -n '^MPI_Isend entering' "$f" | cut -d: -f1)
w=$(grep -n '^MPI_Wait entering' "$f" | cut -d: -f1)
sed -i "${w}s/0.330000000/0.320500000/" "$f"
expect_exit 2 "a call before the previous returns: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$w: 'MPI_Wait' enters at 0.320500000, before the call of line $l returned (0.321000000)" \
    "a call before the previous returns: message"

copyh n
f=$tmp/n/h-0001.txt
l=$(grep -n '^MPI_Wait entering' "$f" | cut -d: -f1)
r=$(grep -n '^MPI_Wait returning' "$f" | cut -d: -f1)
sed -i "${r}s/^MPI_Wait /MPI_Waitall /" "$f"
expect_exit 2 "returning another call: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$r: 'MPI_Waitall' returning inside 'MPI_Wait' of line $l" \
    "returning another call: message"

copyh p
f=$tmp/p/h-0001.txt
l=$(grep -n '^MPI_Comm comm=6 ' "$f" | tail -n 1 | cut -d: -f1)
s=$(head -n "$l" "$f" | grep -n '^MPI_Send entering' | tail -n 1 | cut -d: -f1)
sed -i "$(($l - 2))s/dest=0/dest=5/" "$f"
expect_exit 2 "peer outside its communicator: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$s: peer 5 is not a rank of the communicator (2 ranks)" \
    "peer outside its communicator: message"

copyh t
f=$tmp/t/h-0002.txt
l=$(grep -n '^MPI_Probe entering' "$f" | cut -d: -f1)
sed -i "${l}s/walltime 0.550000000/walltime 0.55x/" "$f"
expect_exit 2 "invalid walltime: exit 2" -- trc-cat "$f"
# The line is shown up to 60 bytes.
is "$(cat "$err")" "trc-cat: $f:$l: invalid time in '$(sed -n "${l}p" "$f" | cut -c 1-60)...'" \
    "invalid walltime: message"

copyh c
f=$tmp/c/h-0002.txt
l=$(grep -n '^MPI_Comm comm=9 ' "$f" | cut -d: -f1)
sed -i "${l}s/comm=9/comm=12/" "$f"
expect_exit 2 "unknown communicator: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$l: communicator 12 not made by a call of this file" \
    "unknown communicator: message"

expect_exit 2 "-f dumpi on a trc stream: exit 2" -- trc-cat -f dumpi "$H/hand.want"
is "$(cat "$err")" "trc-cat: $H/hand.want: no MPI call in the file (not dumpi2ascii output)" \
    "-f dumpi on a trc stream: message"

# On standard input, the world's group is not known: nor is a
# communicator made of it.
f=$H/h-0001.txt
s=$(grep -n '^MPI_Send entering' "$f" | head -n 1 | cut -d: -f1)
c=$(grep -n '^MPI_Comm_create entering' "$f" | cut -d: -f1)
expect_exit 2 "stdin, a created communicator: exit 2" -- sh -c "trc-cat < '$f'"
is "$(cat "$err")" "trc-cat: <stdin>:$s: peer 0 cannot be told as a world rank: it was made by MPI_Comm_create of a group not known (<stdin>:$c)" \
    "stdin, a created communicator: message"

done_testing
