#!/bin/sh
# The dumpi reader's line splitting (lib/fmt/dumpi.c, read_block):
# argument lines split in one pass (dumpi2ascii's own form) and those
# that take the long way (CR before the newline, a NAME with
# [dimensions], names that begin as "returning" or "entering" do)
# give the same events.  Expected streams worked out by hand: request
# handles 5 and 6 are the reader's requests 1 and 2, 3 doubles are 24
# bytes, 2 ints 8.
. "$(dirname "$0")/lib.sh"

# call NAME T0 T1 ARGLINE...: one block as dumpi2ascii prints it.
call() {
	name=$1 t0=$2 t1=$3
	shift 3
	echo "$name entering at walltime $t0, cputime $t0 seconds in thread 0."
	for a in "$@"; do
		echo "$a"
	done
	echo "$name returning at walltime $t1, cputime $t1 seconds in thread 0."
}

{
	call MPI_Comm_size 0.000000000 0.000000000 \
	    "MPI_Comm comm=2 (MPI_COMM_WORLD)" "int size=2"
	call MPI_Comm_rank 0.000000000 0.000000000 \
	    "MPI_Comm comm=2 (MPI_COMM_WORLD)" "int rank=0"
	call MPI_Isend 1.000000000 1.000000500 "int count=3" \
	    "MPI_Datatype datatype=14 (MPI_DOUBLE)" "int dest=1" "int tag=7" \
	    "MPI_Comm comm=2 (MPI_COMM_WORLD)" "MPI_Request request=[5]"
	call MPI_Irecv 2.000000000 2.000000100 "int count=2" \
	    "MPI_Datatype datatype=9 (MPI_INT)" "int source=1" "int tag=8" \
	    "MPI_Comm comm=2 (MPI_COMM_WORLD)" "MPI_Request request=[6]"
	call MPI_Waitall 3.000000000 3.250000000 "int count=2" \
	    "int errorcode=0" "MPI_Request requests[2]=[5, 6]" \
	    "MPI_Status statuses[2]=<IGNORED>"
} > "$tmp/lf.txt"

cat > "$tmp/want" <<'EOT'
#trc 1 ranks=2 order=time
1.000000000 0 SB peer=1 tag=7 bytes=24 req=1
1.000000500 0 SE peer=1 tag=7 bytes=24 req=1
2.000000000 0 RB peer=1 tag=8 bytes=8 req=2
3.000000000 0 WB req=1,2 op=waitall
3.250000000 0 RE req=2 peer=1 tag=8 bytes=8
3.250000000 0 WE req=1,2 op=waitall
EOT

expect_exit 0 "LF lines: exit 0" -- trc-cat -f dumpi "$tmp/lf.txt"
is "$(cat "$out")" "$(cat "$tmp/want")" "LF lines: the stream by hand"

# Every line with CR LF: no line takes the one-pass split.
sed 's/$/\r/' "$tmp/lf.txt" > "$tmp/crlf.txt"
expect_exit 0 "CR LF lines: exit 0" -- trc-cat -f dumpi "$tmp/crlf.txt"
is "$(cat "$out")" "$(cat "$tmp/want")" "CR LF lines: the same stream"

# CR LF in the Irecv block alone: the two ways mix in one file.
awk '/^MPI_Irecv entering/ { cr = 1 } { printf "%s%s\n", $0, cr ? "\r" : "" }
	/^MPI_Irecv returning/ { cr = 0 }' "$tmp/lf.txt" > "$tmp/mixed.txt"
expect_exit 0 "mixed lines: exit 0" -- trc-cat -f dumpi "$tmp/mixed.txt"
is "$(cat "$out")" "$(cat "$tmp/want")" "mixed lines: the same stream"

# Long argument lines (a datatype number with leading zeros, a TYPE
# longer than 48 bytes) split in one pass as the short ones, and request
# handles with leading zeros (four digits are read apart from the
# list's loop, five by it) give the same stream.
awk '/^MPI_Datatype datatype=14 / { sub(/=14/, "=0000000000000000000014") }
	/^MPI_Datatype datatype=9 / {
		sub(/^MPI_Datatype/, "MPI_Datatype_of_a_type_name_longer_than_48_bytes")
	}
	/^MPI_Request request=\[5\]$/ { $0 = "MPI_Request request=[0005]" }
	/^MPI_Request request=\[6\]$/ { $0 = "MPI_Request request=[00006]" }
	{ print }' "$tmp/lf.txt" > "$tmp/long.txt"
is "$(grep -c -e '=0000000000000000000014 ' -e '^MPI_Datatype_of' \
    -e '=\[0005\]' -e '=\[00006\]' "$tmp/long.txt")" 4 "long lines: all four made"
expect_exit 0 "long lines: exit 0" -- trc-cat -f dumpi "$tmp/long.txt"
is "$(cat "$out")" "$(cat "$tmp/want")" "long lines: the same stream"

# Names of 8 to 32 bytes are compared eight bytes at a time, the last
# eight ending at the name's end: a returning line of the call's length
# that differs in its last byte only (MPI_Isenx for MPI_Isend, line 16
# of the block of line 9) is an error; calls of such lengths that the
# reader does not know (MPI_Isenx, MPI_Isend_) are counted, not read.
sed '16s/^MPI_Isend returning/MPI_Isenx returning/' "$tmp/lf.txt" > "$tmp/other.txt"
expect_exit 2 "returning another call of the same length: exit 2" -- \
    trc-cat -f dumpi "$tmp/other.txt"
is "$(cat "$err")" "trc-cat: $tmp/other.txt:16: 'MPI_Isenx' returning inside 'MPI_Isend' of line 9" \
    "returning another call of the same length: message"
{
	cat "$tmp/lf.txt"
	call MPI_Isenx 4.000000000 4.000000100 "int count=1"
	call MPI_Isend_ 5.000000000 5.000000100 "int count=1"
} > "$tmp/unknown.txt"
expect_exit 0 "calls not known: exit 0" -- trc-cat -v -f dumpi "$tmp/unknown.txt"
is "$(cat "$out")" "$(cat "$tmp/want")" "calls not known: no events"
is "$(grep -c -e ': 1 MPI_Isenx calls not in the stream' \
    -e ': 1 MPI_Isend_ calls not in the stream' "$err")" 2 \
    "calls not known: each counted"

# A datatype's text is remembered with its size, and compared as names
# are: the Irecv's (line 19) of the length of the Isend's, differing in
# its next to last byte, is read again, and is not a datatype.
sed '19s/^MPI_Datatype datatype=9 (MPI_INT)$/MPI_Datatype datatype=14 (MPI_DOUBLX)/' \
    "$tmp/lf.txt" > "$tmp/memo.txt"
expect_exit 2 "a datatype like the last: exit 2" -- trc-cat -f dumpi "$tmp/memo.txt"
is "$(cat "$err")" "trc-cat: $tmp/memo.txt:19: unknown datatype 'MPI_DOUBLX'" \
    "a datatype like the last: message"

# An argument line that reads as an entering line is an error, at the
# block's first line (the Isend, line 9), as before.
awk '{ print } /^int dest=1$/ { print "int entering at walltime 1.5, x" }' \
    "$tmp/lf.txt" > "$tmp/nested.txt"
expect_exit 2 "entering inside a call: exit 2" -- trc-cat -f dumpi "$tmp/nested.txt"
is "$(cat "$err")" "trc-cat: $tmp/nested.txt:9: 'MPI_Isend' has no returning line" \
    "entering inside a call: file and line of the call"

# A line's blank, and an argument's '=' or '[', are looked for in its
# first sixteen bytes at once, then past them (lib/fmt/dumpi.c,
# blank_in and name_end): TYPEs of 15, 16 and 17 bytes put the blank
# in, at and past the end of those bytes; arguments the calls do not
# take put '=' or '[' at 15, 16 and 24 bytes into the name, or have no
# '=' at all.  They give the same stream, with LF and with CR LF (which
# takes the long way).
awk '/^int count=3$/ { $0 = "int_of_15_bytes count=3" }
	/^int dest=1$/ { $0 = "int_of_16_bytes_ dest=1" }
	/^int tag=7$/ {
		print "int_of_17_bytes__ tag=7"
		print "int name_of_15_byte=1"
		print "int name_of_16_bytes=1"
		print "int name_of_15_byte[2]=[1, 2]"
		print "int name_of_16_bytes[2]=[1, 2]"
		print "int an_argument_name_of_24=1"
		print "int a_name_with_no_value"
		next
	}
	{ print }' "$tmp/lf.txt" > "$tmp/wide.txt"
is "$(grep -c -e '^int_of_1[567]_bytes_* ' -e '^int name_of_1[56]_byte' \
    -e '^int an_argument_name_of_24=1$' "$tmp/wide.txt")" 8 \
    "blanks and names at sixteen bytes: all made"
expect_exit 0 "blanks and names at sixteen bytes: exit 0" -- \
    trc-cat -f dumpi "$tmp/wide.txt"
is "$(cat "$out")" "$(cat "$tmp/want")" "blanks and names at sixteen bytes: the same stream"
sed 's/$/\r/' "$tmp/wide.txt" > "$tmp/wide-crlf.txt"
expect_exit 0 "blanks and names at sixteen bytes, CR LF: exit 0" -- \
    trc-cat -f dumpi "$tmp/wide-crlf.txt"
is "$(cat "$out")" "$(cat "$tmp/want")" \
    "blanks and names at sixteen bytes, CR LF: the same stream"

# The buffer's end at every byte of the blocks: t/c/0221-dumpi-cuts.c,
# which reads the three hundred files in one process.

# The send calls but MPI_Send and MPI_Isend carry their kind as op=,
# blocking and nonblocking, read in one pass (LF) and the long way (CR
# LF) alike: by hand, 1 int is 4 bytes, request handle 9 the reader's
# request 1, each send's SB and SE at its enter and return.
sends() {
	call MPI_Comm_size 0.000000000 0.000000000 \
	    "MPI_Comm comm=2 (MPI_COMM_WORLD)" "int size=2"
	call MPI_Comm_rank 0.000000000 0.000000000 \
	    "MPI_Comm comm=2 (MPI_COMM_WORLD)" "int rank=0"
	for k in 1Ssend 2Bsend 3Rsend; do
		call MPI_${k#?} 1.${k%%[A-Z]*}00000000 1.${k%%[A-Z]*}00000200 "int count=1" \
		    "MPI_Datatype datatype=9 (MPI_INT)" "int dest=1" "int tag=3" \
		    "MPI_Comm comm=2 (MPI_COMM_WORLD)"
	done
	call MPI_Issend 2.000000000 2.000000100 "int count=1" \
	    "MPI_Datatype datatype=9 (MPI_INT)" "int dest=1" "int tag=4" \
	    "MPI_Comm comm=2 (MPI_COMM_WORLD)" "MPI_Request request=[9]"
	call MPI_Wait 3.000000000 3.000000100 "MPI_Request request=[9]" \
	    "MPI_Status status=<IGNORED>"
}
cat > "$tmp/sends.want" <<'EOT'
1.100000000 0 SB peer=1 tag=3 bytes=4 op=ssend
1.100000200 0 SE peer=1 tag=3 bytes=4 op=ssend
1.200000000 0 SB peer=1 tag=3 bytes=4 op=bsend
1.200000200 0 SE peer=1 tag=3 bytes=4 op=bsend
1.300000000 0 SB peer=1 tag=3 bytes=4 op=rsend
1.300000200 0 SE peer=1 tag=3 bytes=4 op=rsend
2.000000000 0 SB peer=1 tag=4 bytes=4 req=1 op=issend
2.000000100 0 SE peer=1 tag=4 bytes=4 req=1 op=issend
EOT
sends > "$tmp/sends.txt"
sed 's/$/\r/' "$tmp/sends.txt" > "$tmp/sends-cr.txt"
for f in sends sends-cr; do
	expect_exit 0 "$f: exit 0" -- trc-cat -f dumpi "$tmp/$f.txt"
	is "$(awk '$3 == "SB" || $3 == "SE"' "$out")" "$(cat "$tmp/sends.want")" \
	    "$f: each send's kind as op="
done

done_testing
