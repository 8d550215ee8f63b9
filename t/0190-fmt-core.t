#!/bin/sh
# The format layer itself: gzip input inflated, the format found by
# content or named, output in a format to a file, and the errors of
# each.  (Each format has its own test, t/02*.)
. "$(dirname "$0")/lib.sh"

trc-gen -p halo -n 4 -e 20000 > "$tmp/a.trc"
trc-cat "$tmp/a.trc" > "$tmp/want"
n=$(($(wc -l < "$tmp/a.trc") - 1))

gzip -c "$tmp/a.trc" > "$tmp/a.trc.gz"
expect_exit 0 "gzip input: exit 0" -- trc-cat "$tmp/a.trc.gz"
is_file "$out" "$tmp/want" "gzip input reads as the plain file"
gzip -c "$tmp/a.trc" | trc-cat > "$out"
is_file "$out" "$tmp/want" "gzip on stdin too"
# Two members, as gzip -c a b > c makes them.
head -n 1000 "$tmp/a.trc" | gzip -c > "$tmp/two.gz"
tail -n +1001 "$tmp/a.trc" | gzip -c >> "$tmp/two.gz"
expect_exit 0 "two gzip members: exit 0" -- trc-cat "$tmp/two.gz"
is_file "$out" "$tmp/want" "two gzip members read as one"
trc-sum "$tmp/a.trc.gz" > "$tmp/sumgz"
trc-sum "$tmp/a.trc" > "$tmp/sum"
is_file "$tmp/sumgz" "$tmp/sum" "every tool reads gzip (trc-sum)"

# A truncated gzip file: the events before are kept, then exit 2.
size=$(wc -c < "$tmp/a.trc.gz")
head -c $((size / 2)) "$tmp/a.trc.gz" > "$tmp/cut.gz"
expect_exit 2 "truncated gzip: exit 2" -- trc-cat "$tmp/cut.gz"
grep -q "^trc-cat: $tmp/cut.gz:[0-9]*: truncated gzip data\$" "$err"
ok $? "truncated gzip: message names file and line"
good=$(wc -l < "$out")
[ "$good" -gt 100 ] && head -n "$good" "$tmp/want" | cmp -s - "$out"
ok $? "truncated gzip: the events before the error are written"
# A corrupt one: bytes past the gzip header overwritten.
{ head -c 20 "$tmp/a.trc.gz"; printf 'XXXXXXXXXXXXXXXXXXXXXXXX'; tail -c +45 "$tmp/a.trc.gz"; } > "$tmp/bad.gz"
expect_exit 2 "corrupt gzip: exit 2" -- trc-cat "$tmp/bad.gz"
grep -q "^trc-cat: $tmp/bad.gz: invalid gzip data: " "$err" ||
    grep -q "^trc-cat: $tmp/bad.gz:[0-9]*: invalid gzip data: " "$err"
ok $? "corrupt gzip: message"

# Named formats.
expect_exit 0 "-f trc: exit 0" -- trc-cat -f trc "$tmp/a.trc"
is_file "$out" "$tmp/want" "-f trc reads the stream"
expect_exit 2 "-f with an unknown format" -- trc-cat -f pablo2 "$tmp/a.trc"
is "$(cat "$err")" "trc-cat: unknown format 'pablo2'" "-f unknown: message"
expect_exit 2 "--to an unknown format" -- trc-cat --to nosuch "$tmp/a.trc"
is "$(cat "$err")" "trc-cat: unknown format 'nosuch'" "--to unknown: message"
printf 'hello\n' > "$tmp/hello"
expect_exit 2 "text no format bids for" -- trc-cat "$tmp/hello"
is "$(cat "$err")" "trc-cat: $tmp/hello:1: missing '#trc' header" \
    "no bid: read as the stream, with its message"

# Output to a file.
expect_exit 0 "-o file: exit 0" -- trc-cat -o "$tmp/copy.trc" "$tmp/a.trc"
is "$(wc -c < "$out")" 0 "-o file: nothing on stdout"
is_file "$tmp/copy.trc" "$tmp/want" "-o file holds the stream"
expect_exit 0 "--to trc -o -: exit 0" -- trc-cat --to trc -o - "$tmp/a.trc"
is_file "$out" "$tmp/want" "--to trc -o - is stdout"
expect_exit 2 "-o into a missing folder" -- trc-cat -o "$tmp/no/such" "$tmp/a.trc"
is "$(cat "$err")" "trc-cat: $tmp/no/such: No such file or directory" \
    "-o missing folder: message"
if [ -w /dev/full ]; then
	expect_exit 2 "-o /dev/full" -- trc-cat -o /dev/full "$tmp/a.trc"
	is "$(cat "$err")" "trc-cat: /dev/full: write error: No space left on device" \
	    "-o /dev/full: message"
fi
# A file is written whole or not at all (issue 15): a bad line leaves
# no file, where the stream on stdout keeps the events before it.
{ head -n 11 "$tmp/a.trc"; echo "x 0 SB"; } > "$tmp/bad.trc"
expect_exit 2 "bad line with -o: exit 2" -- trc-cat -o "$tmp/part.trc" "$tmp/bad.trc"
is "$(cat "$err")" "trc-cat: $tmp/bad.trc:12: invalid time 'x'" "bad line with -o: message"
ok "$([ ! -e "$tmp/part.trc" ]; echo $?)" "bad line with -o: no file written"
is "$n" "$(($(wc -l < "$tmp/copy.trc") - 1))" "all events copied"
done_testing
