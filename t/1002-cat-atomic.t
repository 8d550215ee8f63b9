#!/bin/sh
# Files written whole or not at all (issue 15): trc-cat -o and trc-svg
# -o write under a temporary name renamed when complete, so that a
# failed or interrupted run leaves the old file (or none) under the
# name, and no temporary file; no program overwrites its own input.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"
awk 'BEGIN { print "#trc 1"; for (i = 0; i < 200000; i++) print i " 0 MK" }' >"$d/a.trc"

# An error on line 100002: the old file stays, nothing else is left.
{ cat "$d/a.trc"; echo '1 0 MK'; } >"$d/bad.trc"
echo old >"$d/out.trc"
expect_exit 2 "an input error" -- trc-cat -o "$d/out.trc" "$d/bad.trc"
is "$(cat "$err")" "trc-cat: $d/bad.trc:200002: time goes backwards ('1.000000000' after '199999.000000000')" \
    "an input error: the message"
is "$(cat "$d/out.trc")" old "an input error: the old file untouched"
is "$(ls "$d")" "a.trc
bad.trc
out.trc" "an input error: no temporary file left"
for fmt in trcb chrome; do
	expect_exit 2 "an input error, --to $fmt" -- trc-cat --to $fmt -o "$d/new.$fmt" "$d/bad.trc"
	ok "$([ ! -e "$d/new.$fmt" ] && [ "$(ls "$d" | wc -l)" -eq 3 ]; echo $?)" \
	    "an input error, --to $fmt: no file, no temporary"
done

# Killed while it runs (its input stalls after 200000 events): the old
# file stays, the temporary one goes.
stalled "$d/a.trc" trc-cat -o "$d/out.trc"
await_name "$d" '^\./out\.trc\.tmp'
ok $? "while it runs: a temporary file beside out.trc"
kill -TERM $pid
wait $pid
st=$?
kill $feeder
is "$st:$(cat "$d/out.trc")" "143:old" "killed: the old file untouched"
is "$(ls "$d")" "a.trc
bad.trc
out.trc" "killed: no temporary file left"

# Complete: renamed into place, with a new file's mode.
(umask 022; trc-cat -o "$d/out.trc" "$d/a.trc")
is "$?:$(wc -l <"$d/out.trc" | tr -d ' '):$(ls -l "$d/out.trc" | cut -c1-10)" "0:200001:-rw-r--r--" \
    "complete: every line, mode 0644 under umask 022"

# The output is an input: refused, the input untouched.
cp "$d/a.trc" "$d/in.trc"
expect_exit 2 "-o an input" -- trc-cat -o "$d/in.trc" "$d/a.trc" "$d/in.trc"
is "$(cat "$err")" "trc-cat: $d/in.trc: the output is an input: refusing to overwrite it" \
    "-o an input: the message"
cmp -s "$d/in.trc" "$d/a.trc"
ok $? "-o an input: the input untouched"
ln -s in.trc "$d/link.trc"
expect_exit 2 "-o an input by another name" -- trc-cat -o "$d/in.trc" "$d/link.trc"
expect_exit 2 "trc-svg -o its input" -- trc-svg -o "$d/in.trc" "$d/in.trc"
is "$(cat "$err")" "trc-svg: $d/in.trc: the output is an input: refusing to overwrite it" \
    "trc-svg -o its input: the message"
# Standard output appended to an input: read as it grows, never.
trc-sum "$d/in.trc" >>"$d/in.trc" 2>"$err"
is "$?:$(cat "$err")" "2:trc-sum: $d/in.trc: input file is output file" \
    "stdout appended to the input: refused"
cmp -s "$d/in.trc" "$d/a.trc"
ok $? "stdout appended to the input: the input untouched"

# A device is written where it is: /dev/full still says so.
expect_exit 2 "-o /dev/full" -- trc-cat -o /dev/full "$d/a.trc"
is "$(cat "$err")" "trc-cat: /dev/full: write error: No space left on device" \
    "-o /dev/full: the write error, no temporary file in /dev"

# Paraver's three files: each written under a temporary name and
# renamed when all are complete; a bad input leaves the old .prv and
# makes no .pcf nor .row, and no temporary file.
mkdir "$d/pv"
echo old >"$d/pv/o.prv"
expect_exit 2 "prv, bad input" -- trc-cat --to prv -o "$d/pv/o" "$d/bad.trc"
is "$(cat "$d/pv/o.prv"):$(ls -a "$d/pv" | tr '\n' ' ')" "old:. .. o.prv " \
    "prv, bad input: the old .prv untouched, no .pcf, .row or temporary"
expect_exit 0 "prv, good input" -- trc-cat --to prv -o "$d/pv/o" "$d/a.trc"
is "$(ls -a "$d/pv" | tr '\n' ' '):$(head -c 9 "$d/pv/o.prv")" ". .. o.pcf o.prv o.row :#Paraver " \
    "prv, good input: the three files, no temporary"

# trc-svg: a bad input leaves the old picture.
echo old >"$d/p.svg"
expect_exit 2 "trc-svg, bad input" -- trc-svg -o "$d/p.svg" "$d/bad.trc"
is "$(cat "$d/p.svg")" old "trc-svg, bad input: the old picture untouched"
done_testing
