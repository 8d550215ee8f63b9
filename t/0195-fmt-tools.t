#!/bin/sh
# Every program that reads traces reads every format, as trc-cat does:
# -f names the reader (for all the inputs of trc-stable and trc-sum
# --vs), --flops reaches it, gzip input is inflated, and a bad -f or
# --flops stops with trc-cat's messages.  Outputs are compared with the
# same program's on the plain text stream, and SimGrid's sample with the
# program on trc-cat's conversion of it.
. "$(dirname "$0")/lib.sh"
D=$T/data/simgrid
S=$D/ti_traces_32_1
sg=$D/smpi_replay.txt

trc-gen -p halo -n 4 -i 3 >"$tmp/a.trc"
gzip -c "$tmp/a.trc" >"$tmp/a.gz"
trc-cat --flops 1e9 "$sg" >"$tmp/sg.trc"

# check NAME N PROGRAM [ARG...]: PROGRAM ARG... FILE, FILE given N
# times (trc-stable compares a trace with itself), on every way in.
check() {
	name=$1 n=$2
	shift 2
	p=$1
	on() {
		f=$1
		shift
		if [ "$n" -eq 2 ]; then "$@" "$f" "$f"; else "$@" "$f"; fi
	}
	on "$tmp/a.trc" "$@" >"$tmp/want" 2>"$err"
	ok $? "$name: the text stream"
	[ -s "$tmp/want" ]; ok $? "$name: some output"
	expect_exit 0 "$name -f trc" -- on "$tmp/a.trc" "$@" -f trc
	is_file "$out" "$tmp/want" "$name -f trc: the same"
	expect_exit 0 "$name --format trc" -- on "$tmp/a.trc" "$@" --format trc
	is_file "$out" "$tmp/want" "$name --format trc: the same"
	expect_exit 0 "$name: gzip" -- on "$tmp/a.gz" "$@"
	is_file "$out" "$tmp/want" "$name: gzip, the same"
	expect_exit 0 "$name -f trc: gzip" -- on "$tmp/a.gz" "$@" -f trc
	is_file "$out" "$tmp/want" "$name -f trc: gzip, the same"
	if [ "$n" -eq 2 ]; then "$@" - "$tmp/a.trc"; else "$@" -; fi \
	    <"$tmp/a.gz" >"$out" 2>"$err"
	ok $? "$name: gzip on stdin"
	is_file "$out" "$tmp/want" "$name: gzip on stdin, the same"

	expect_exit 2 "$name -f nosuch" -- on "$tmp/a.trc" "$@" -f nosuch
	is "$(cat "$err")" "$p: unknown format 'nosuch'" "$name -f nosuch: message"
	expect_exit 2 "$name -f chrome" -- on "$tmp/a.trc" "$@" -f chrome
	is "$(cat "$err")" "$p: format 'chrome' is written, not read" \
	    "$name -f chrome: message"
	expect_exit 2 "$name --flops 0" -- on "$tmp/a.trc" "$@" --flops 0
	is "$(cat "$err")" "$p: invalid flop rate '0'" "$name --flops 0: message"
	expect_exit 2 "$name -f trc on SimGrid" -- on "$sg" "$@" -f trc
	is "$(cat "$err")" "$p: $sg:1: missing '#trc' header" \
	    "$name -f trc on SimGrid: the trc reader's message"

	on "$tmp/sg.trc" "$@" >"$tmp/want" 2>"$err"
	ok $? "$name: SimGrid's sample through trc-cat"
	expect_exit 0 "$name --flops 1e9: SimGrid" -- on "$sg" "$@" --flops 1e9
	is_file "$out" "$tmp/want" "$name --flops 1e9: SimGrid, as through trc-cat"
	expect_exit 0 "$name -f simgrid --flops 1e9" -- on "$sg" "$@" -f simgrid --flops 1e9
	is_file "$out" "$tmp/want" "$name -f simgrid --flops 1e9: the same"
	expect_exit 2 "$name: SimGrid without --flops" -- on "$sg" "$@"
	is "$(cat "$err")" "$p: $S/ti_trace0.txt:2: compute needs --flops" \
	    "$name: SimGrid without --flops: the reader's message"
}

check trc-cat 1 trc-cat
check trc-sum 1 trc-sum
check "trc-sum --section ops -t" 1 trc-sum --section ops -t
check "trc-scale --cpu-ratio 0.5" 1 trc-scale --cpu-ratio 0.5
check trc-graph 1 trc-graph
check "trc-perturb -d" 1 trc-perturb -d call=send,ranks=1,delay=0.001
check "trc-stable, a trace against itself" 2 trc-stable

# Two inputs: one -f and one --flops for both.
trc-stable "$tmp/a.trc" "$tmp/a.trc" >"$tmp/want"
expect_exit 0 "trc-stable -f trc, both gzip" -- trc-stable -f trc "$tmp/a.gz" "$tmp/a.gz"
is_file "$out" "$tmp/want" "  the same"
expect_exit 0 "trc-stable: SimGrid against its conversion" -- \
    trc-stable --flops 1e9 "$sg" "$tmp/sg.trc"
expect_exit 0 "trc-stable -f simgrid: both" -- trc-stable -f simgrid --flops 1e9 "$sg" "$sg"
expect_exit 2 "trc-stable -f trc: the second input too" -- trc-stable -f trc "$tmp/a.trc" "$sg"
is "$(cat "$err")" "trc-stable: $sg:1: missing '#trc' header" "  its message"
expect_exit 2 "trc-stable -f simgrid: the first input too" -- \
    trc-stable -f simgrid --flops 1e9 "$tmp/sg.trc" "$sg"
is "$(cat "$err")" "trc-stable: $tmp/sg.trc:1: cannot open '#trc 1 ranks=32 order=time': No such file or directory" \
    "  read as a SimGrid index: its message"

# -w reads the inputs again, through the same reader.
printf '#trc 1\n0.1 0 SB peer=1 tag=1\n0.1 1 RB peer=0 tag=1\n0.2 0 SE peer=1 tag=1\n0.3 1 RE peer=0 tag=1\n' \
    >"$tmp/b.trc"
sed 's/tag=1/tag=2/' "$tmp/b.trc" >"$tmp/c.trc"
gzip -c "$tmp/b.trc" >"$tmp/b.gz"
gzip -c "$tmp/c.trc" >"$tmp/c.gz"
trc-stable -w --equal kind,peer,tag "$tmp/b.trc" "$tmp/c.trc" |
    sed "s|$tmp/\([bc]\)\.trc|\1|g" >"$tmp/want"
expect_exit 1 "trc-stable -w -f trc, gzip: unstable" -- \
    trc-stable -w -f trc --equal kind,peer,tag "$tmp/b.gz" "$tmp/c.gz"
sed "s|$tmp/\([bc]\)\.gz|\1|g" "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  where they differ, as from the plain files"
grep -q '^- .*tag=1' "$tmp/got"; ok $? "  the differing events shown"

trc-sum --vs "$tmp/a.trc" "$tmp/a.trc" >"$tmp/want"
expect_exit 0 "trc-sum --vs, both gzip" -- trc-sum --vs "$tmp/a.gz" "$tmp/a.gz"
sed -i "s|$tmp/a\.gz|$tmp/a.trc|" "$out"
is_file "$out" "$tmp/want" "  the same, but for the files' names"
trc-sum --vs "$tmp/sg.trc" "$tmp/sg.trc" >"$tmp/want"
expect_exit 0 "trc-sum --flops --vs: SimGrid both" -- trc-sum --flops 1e9 --vs "$sg" "$sg"
sed -i "s|$sg|$tmp/sg.trc|" "$out"
is_file "$out" "$tmp/want" "  as through trc-cat, but for the files' names"
expect_exit 2 "trc-sum -f trc --vs: the observed run too" -- trc-sum -f trc --vs "$sg" "$tmp/a.trc"
is "$(cat "$err")" "trc-sum: $sg:1: missing '#trc' header" "  its message"
done_testing
