#!/bin/sh
# Every tool reads a pipe; a format that needs its files (OTF2's
# archive, a SimGrid index's rank files) says so when it gets one.
. "$(dirname "$0")/lib.sh"
D=$T/data

trc-gen -p halo -n 3 -i 5 -s 1 >"$tmp/g.trc"
for c in "trc-cat" "trc-sum" "trc-loops" "trc-scale --cpu-ratio 1" "trc-graph" \
    "trc-svg -o $tmp/x.svg" "trc-race" "trc-perturb -d call=send,delay=0.001" \
    "trc-sum --vs $tmp/g.trc"; do
	# shellcheck disable=SC2086
	cat "$tmp/g.trc" | $c >"$tmp/pipe" 2>"$err"
	r=$?
	# shellcheck disable=SC2086
	$c "$tmp/g.trc" >"$tmp/file" 2>/dev/null
	[ "$c" = "trc-sum --vs $tmp/g.trc" ] && sed -i 1d "$tmp/pipe" "$tmp/file"
	cmp -s "$tmp/pipe" "$tmp/file"
	is "$r:$?" "0:0" "$c reads a pipe as it reads the file"
done
cat "$tmp/g.trc" | trc-stable -q - "$tmp/g.trc"; ok $? "trc-stable reads a pipe"
cat "$tmp/g.trc" | trc-ratios - "$tmp/g.trc" >/dev/null 2>&1; ok $? "trc-ratios reads a pipe"

cat "$D/otf2/pingpong/traces.otf2" | trc-sum >"$out" 2>"$err"
is "$?:$(cat "$err")" "2:trc-sum: <stdin>: OTF2 is read from an archive's anchor file (NAME.otf2), not from standard input" \
    "OTF2 on a pipe: said"
(cd "$tmp" && cat "$D/simgrid/smpi_replay.txt" | trc-sum -f simgrid --flops 1e9 >/dev/null 2>"$err")
is "$?:$(cat "$err")" "2:trc-sum: <stdin>:1: cannot open 'ti_traces_32_1/ti_trace0.txt': No such file or directory (an index on standard input names files from the current directory, not its own)" \
    "a SimGrid index on a pipe, away from its files: said"
(cd "$D/simgrid" && cat smpi_replay.txt | trc-sum -f simgrid --flops 1e9 >"$out" 2>"$err")
trc-sum --flops 1e9 "$D/simgrid/smpi_replay.txt" >"$tmp/want"
is_file "$out" "$tmp/want" "  read beside them, the same"
done_testing
