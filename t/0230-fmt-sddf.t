#!/bin/sh
# The sddf reader (lib/fmt/sddf.c): Pablo SDDF ASCII.  No SDDF trace is
# known to be public: hand-made files with Pablo's names and with other
# tools' names against streams worked out by hand, trc-gen streams
# written as SDDF and read back, and malformed inputs.
. "$(dirname "$0")/lib.sh"

D=$T/data/sddf

expect_exit 0 "pablo names: exit 0" -- trc-cat -v "$D/pablo.sddf"
is_file "$out" "$D/pablo.want" "pablo names: the stream worked out by hand"
is "$(cat "$err")" "trc-cat: $D/pablo.sddf: 1 'Global Statistics' records not in the stream" \
    "pablo names: -v counts the records of other descriptors"
cp "$out" "$tmp/p.trc"

# Messages and bytes, from the text: one per "Message Send" record, the
# length its fourth value.
awk '/^#[0-9]+:/ { desc = 1 }
    desc { if (/};;/) desc = 0; next }
    /^"Message Send"/ {
	rec = $0
	while (rec !~ /;;/ && (getline l) > 0)
		rec = rec " " l
	sub(/^[^{]*[{]/, "", rec)
	sub(/[}].*/, "", rec)
	split(rec, v, ",")
	n++
	b += v[4]
    }
    END { print n, b }' "$D/pablo.sddf" > "$tmp/want.counts"
awk '$3 == "SE" { n++; for (i = 4; i <= NF; i++) if ($i ~ /^bytes=/) b += substr($i, 7) }
    END { print n, b }' "$tmp/p.trc" > "$tmp/got.counts"
is "$(cat "$tmp/got.counts")" "$(cat "$tmp/want.counts")" \
    "pablo names: messages and bytes as counted in the text ($(cat "$tmp/want.counts"))"
is "$(awk '!/^#/ { print $2 }' "$tmp/p.trc" | sort -u | tr '\n' ' ')" "0 1 " \
    "pablo names: the processors of the records"

expect_exit 0 "pablo names: -f pablo" -- trc-cat -f pablo "$D/pablo.sddf"
is_file "$out" "$D/pablo.want" "pablo names: -f pablo is the same reader"
gzip -c "$D/pablo.sddf" > "$tmp/p.sddf.gz"
expect_exit 0 "pablo names gzipped: exit 0" -- trc-cat "$tmp/p.sddf.gz"
is_file "$out" "$D/pablo.want" "pablo names gzipped: the same stream"
expect_exit 0 "pablo names: trc-stable against itself" -- \
    trc-stable "$D/pablo.sddf" "$tmp/p.trc"
is "$(tail -n 1 "$out")" "identical execution graphs: stable" "pablo names: identical"
expect_exit 0 "pablo names: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$D/pablo.sddf"
is "$(cat "$err")" "" "pablo names: trc-scale has nothing to say"
expect_exit 0 "pablo names: trc-sum" -- trc-sum "$D/pablo.sddf"
is "$(awk '$1 == "Iterate" { n += $3 } END { print n }' "$out")" 2 \
    "pablo names: trc-sum sees Iterate twice"

expect_exit 0 "other names: exit 0" -- trc-cat -v "$D/picl.sddf"
is_file "$out" "$D/picl.want" "other names: the stream worked out by hand"
sed "s|^|trc-cat: $D/picl.sddf: |; s|\$| not in the stream|" "$D/picl.drops" | sort > "$tmp/want.v"
sort "$err" > "$tmp/got.v"
is_file "$tmp/got.v" "$tmp/want.v" "other names: -v counts"
cp "$out" "$tmp/q.trc"
expect_exit 0 "other names: trc-stable against itself" -- trc-stable "$tmp/q.trc" "$tmp/q.trc"
expect_exit 0 "other names: trc-scale --cpu-ratio 0.5" -- trc-scale --cpu-ratio 0.5 "$tmp/q.trc"

# Round trip: a trc-gen ring (blocking sends and receives, regions)
# written as SDDF and read back is the stream without its markers.  The
# same records spread over lines are read by the tokens, not in place.
trc-gen -p ring -n 6 -e 6000 > "$tmp/ring.trc"
awk -f "$D/from-trc.awk" "$tmp/ring.trc" > "$tmp/ring.sddf"
expect_exit 0 "round trip ring: exit 0" -- trc-cat "$tmp/ring.sddf"
grep -v '^#' "$out" > "$tmp/got"
grep -v '^#' "$tmp/ring.trc" | grep -v ' MK ' > "$tmp/want"
is_file "$tmp/got" "$tmp/want" "round trip ring: every event, peer, tag, size and time"
sed 's/{ /{\n\t/; s/, /,\n\t/g' "$tmp/ring.sddf" > "$tmp/spread.sddf"
expect_exit 0 "records over lines: exit 0" -- trc-cat "$tmp/spread.sddf"
grep -v '^#' "$out" > "$tmp/got"
is_file "$tmp/got" "$tmp/want" "records over lines: the same stream"

# Malformed input -----------------------------------------------------------

# bad NAME TEXT...: a copy of pablo.sddf with lines appended
bad() {
	f=$tmp/$1.sddf
	shift
	cp "$D/pablo.sddf" "$f"
	printf '%s\n' "$@" >> "$f"
	n=$(wc -l < "$D/pablo.sddf")
}

printf 'SDDFB\n\0\0\0\1' > "$tmp/b.sddf"
expect_exit 2 "binary SDDF: exit 2" -- trc-cat "$tmp/b.sddf"
is "$(cat "$err")" "trc-cat: $tmp/b.sddf:1: binary SDDF (SDDFB) is not read: convert it to ASCII (SDDFA)" \
    "binary SDDF: message"

expect_exit 2 "-f sddf on a trc stream: exit 2" -- trc-cat -f sddf "$D/pablo.want"
is "$(cat "$err")" "trc-cat: $D/pablo.want:1: not SDDF: 'SDDFA' expected first, found '#'" \
    "-f sddf on a trc stream: message"

bad nodesc '"Unknown" { 1 };;'
expect_exit 2 "record without descriptor: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): record 'Unknown' has no descriptor" \
    "record without descriptor: message"

bad few '"Message Send" { 0.004, 0, 7, 4096 };;'
expect_exit 2 "too few values: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): record 'Message Send' has 4 values, its descriptor 5 fields" \
    "too few values: message"

bad many '"Message Send" { 0.004, 0, 7, 4096, 1, 2 };;'
expect_exit 2 "too many values: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): record 'Message Send' has more values than its descriptor's 5 fields" \
    "too many values: message"

bad word '"Message Send" { 0.004, 0, 7, abc, 1 };;'
expect_exit 2 "a word for a number: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): invalid Message Length 'abc'" \
    "a word for a number: message"

bad num '"Message Send" { 0.004, 0, 7, 4.5e, 1 };;'
expect_exit 2 "a bad number: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): invalid Message Length '4.5e'" \
    "a bad number: message"

bad neg '"Message Send" { 0.004, -1, 7, 4096, 1 };;'
expect_exit 2 "negative processor: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): invalid Processor Number '-1'" \
    "negative processor: message"

bad back '"Message Send" { 0.0005, 0, 7, 4096, 1 };;'
expect_exit 2 "time going back: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): time goes backwards ('0.000500000' after '0.003400000')" \
    "time going back: message"

bad semi '"Message Send" { 0.004, 0, 7, 4096, 1 }' '"Message Send" { 0.005, 0, 7, 4096, 1 };;'
expect_exit 2 "no ';;' after a record: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 2)): expected ';' after a record, found 'Message Send'" \
    "no ';;' after a record: message"

bad quote '"Message Send { 0.004, 0, 7, 4096, 1 };;'
expect_exit 2 "string not closed: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): string not closed on its line" \
    "string not closed: message"

bad open '"Message Send" {' '0.004, 0, 7,'
expect_exit 2 "the file ends in a record: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 2)): record 'Message Send' not closed (the file ends)" \
    "the file ends in a record: message"

bad type '#9:' '"Sizes" { int64 "x"; };;'
expect_exit 2 "unknown field type: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 2)): unknown field type 'int64'" \
    "unknown field type: message"

bad leave '"Procedure Entry" { 0.004, 0, "Iterate" };;' '"Procedure Entry" { 0.005, 0, "Converged" };;' \
    '"Procedure Exit" { 0.006, 0, "Iterate" };;'
expect_exit 2 "leaving the wrong procedure: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 3)): 'Procedure Exit' of processor 0 leaves 'Iterate' while 'Converged' is open" \
    "leaving the wrong procedure: message"

bad none '"Procedure Exit" { 0.004, 1, "Iterate" };;'
expect_exit 2 "leaving no procedure: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): 'Procedure Exit' of processor 1 with no procedure entered" \
    "leaving no procedure: message"

bad attr '/*' ' * "key" "value"'
expect_exit 2 "attributes not closed: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): attributes not closed (the file ends)" \
    "attributes not closed: message"

bad char '"Message Send" { 0.004, 0, 7, 4096, @ };;'
expect_exit 2 "unexpected character: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 1)): unexpected character '@'" \
    "unexpected character: message"

bad end '#9:' '"Send End" { double "Seconds"; int "Processor Number"; };;' \
    '"Send End" { 0.004, 1 };;'
expect_exit 2 "send end without a destination: exit 2" -- trc-cat "$f"
is "$(cat "$err")" "trc-cat: $f:$((n + 3)): 'Send End' of processor 1: no destination field, and no begin said it" \
    "send end without a destination: message"

done_testing
