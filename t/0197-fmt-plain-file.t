#!/bin/sh
# The text reader reads a plain file into its buffer 1 MiB at a time
# (it once mapped it a window at a time): the same events as from a
# pipe, across the buffer's and the pages' boundaries, on a line longer
# than the buffer, on a file whose size is a whole number of pages (the
# parser's padding past the last newline), an unfinished last line
# refused as from a pipe, and a file cut while it is read refused.
. "$(dirname "$0")/lib.sh"

# Several windows of lines: trc-gen writes the text as trc-cat does.
trc-gen -p halo -n 4 -e 100000 > "$tmp/gen.trc"
[ "$(wc -c < "$tmp/gen.trc")" -gt 3145728 ]
ok $? "the stream spans several buffers"
trc-cat "$tmp/gen.trc" > "$tmp/file.out"
is_file "$tmp/file.out" "$tmp/gen.trc" "a plain file: trc-cat gives it back"
cat "$tmp/gen.trc" | trc-cat > "$tmp/pipe.out"
is_file "$tmp/pipe.out" "$tmp/gen.trc" "read from a pipe: the same"
trc-cat < "$tmp/gen.trc" > "$tmp/stdin.out"
is_file "$tmp/stdin.out" "$tmp/gen.trc" "standard input from the file: the same"
trc-sum "$tmp/gen.trc" > "$tmp/sum.file"
cat "$tmp/gen.trc" | trc-sum > "$tmp/sum.pipe"
is_file "$tmp/sum.file" "$tmp/sum.pipe" "trc-sum: the same summary from the file and piped"

# Files of exactly one and two pages (4096 and 8192 bytes), the last
# event padded with an attribute to end on the page's last byte.
for size in 4096 8192; do
	awk -v size="$size" '
	NR == 1 { print; n = length($0) + 1; next }
	{ if (n + length($0) + 1 > size - 60) {
		pad = size - n - length($0) - 4
		z = sprintf("%" pad "s", ""); gsub(/ /, "y", z)
		print $0 " z=" z; exit }
	  print; n += length($0) + 1 }' "$tmp/gen.trc" > "$tmp/p$size.trc"
	is "$(wc -c < "$tmp/p$size.trc" | tr -d ' ')" "$size" "a file of $size bytes"
	trc-cat "$tmp/p$size.trc" > "$tmp/p.out"
	is_file "$tmp/p.out" "$tmp/p$size.trc" "$size bytes: its events, the last to the page's end"
done

# A line of 1200000 bytes, longer than the buffer, between short ones.
awk 'NR == 1 { print; next } NR == 5 {
	z = sprintf("%1200000s", ""); gsub(/ /, "x", z); print $0 " z=" z; next }
	{ print }' "$tmp/gen.trc" > "$tmp/long.trc"
trc-cat "$tmp/long.trc" > "$tmp/long.out"
is_file "$tmp/long.out" "$tmp/long.trc" "a line longer than the buffer: read whole"

# Cut in the middle of a line past the first buffer: refused as the
# text of a pipe is, at the line after the last whole one.
head -c 2700000 "$tmp/gen.trc" > "$tmp/cut.trc"
n=$(( $(wc -l < "$tmp/cut.trc") + 1 ))
expect_exit 2 "cut file: exit 2" -- trc-cat "$tmp/cut.trc"
is "$(cat "$err")" "trc-cat: $tmp/cut.trc:$n: truncated last line (no newline at end)" \
    "cut file: the message names the unfinished line"
# Truncated by another process while read, here between two lines: the
# read finds the end before the size the file had at the open, and the
# reader stops, named, rather than lose the rest without a word.  The
# pipe holds trc-cat inside its first buffer (its output is its input,
# and the pipe takes under 1 MiB) until the file is cut past it.
cp "$tmp/gen.trc" "$tmp/shrink.trc"
trc-cat "$tmp/shrink.trc" 2> "$tmp/shrink.err" | {
	head -c 1 > /dev/null
	truncate -s 2700001 "$tmp/shrink.trc"
	cat > /dev/null
}
grep -q "^trc-cat: $tmp/shrink.trc:[0-9]*: the file shrank to 2700001 bytes while it was read\$" "$tmp/shrink.err"
rc=$?
ok $rc "a file cut while read: the error names it"
[ $rc -eq 0 ] || diag "$(cat "$tmp/shrink.err")"
cp "$tmp/gen.trc" "$tmp/shrink.trc"
( trc-cat "$tmp/shrink.trc"; echo "rc=$?" > "$tmp/shrink.rc" ) 2>/dev/null | {
	head -c 1 > /dev/null
	truncate -s 2700001 "$tmp/shrink.trc"
	cat > /dev/null
}
is "$(cat "$tmp/shrink.rc")" "rc=2" "a file cut while read: exit 2"
done_testing
