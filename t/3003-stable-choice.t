#!/bin/sh
# trc-stable --choice: the first choice point where two runs differ,
# from hand-made traces.  Each rank's choice points (wildcard receives,
# wildcard probes, any-of waits and tests) are numbered in call order
# and compared k-th with k-th; the earliest difference in the first
# trace's line order is named, with its RB or WB line.
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 2

# t NAME: the standard input, after a header, is trace NAME.
t() { { echo '#trc 1 ranks=3'; cat; } >"$1"; }
choice() { grep '^first differing choice point' "$out"; }

# Rank 0 takes 1's message then 2's (a), or 2's first (b); rank 1 also
# takes another message later (line 9 in a).  Rank 0's first receive,
# line 4 of a, is the first difference.
t a.trc <<'X'
0.1 1 SB peer=0 tag=7 bytes=8
0.1 1 SE peer=0 tag=7 bytes=8
0.2 0 RB peer=* tag=7 bytes=8
0.3 0 RE peer=1 tag=7 bytes=8
0.4 0 RB peer=* tag=7 bytes=8
0.5 0 RE peer=2 tag=7 bytes=8
0.6 1 RB peer=* tag=* bytes=8
0.7 1 RE peer=2 tag=3 bytes=8
X
t b.trc <<'X'
0.1 1 SB peer=0 tag=7 bytes=8
0.1 1 SE peer=0 tag=7 bytes=8
0.2 0 RB peer=* tag=7 bytes=8
0.3 0 RE peer=2 tag=7 bytes=8
0.4 0 RB peer=* tag=7 bytes=8
0.5 0 RE peer=1 tag=7 bytes=8
0.6 1 RB peer=* tag=* bytes=8
0.7 1 RE peer=2 tag=4 bytes=8
X
expect_exit 1 "wildcard receives in another order" -- trc-stable --choice a.trc b.trc
is "$(choice)" "first differing choice point: rank 0 recv a.trc:4 took peer=1 tag=7, b.trc:4 took peer=2 tag=7" \
	"  rank 0's first receive, at its RB"
is "$(tail -1 "$out")" "$(choice)" "  the last line of the output"
expect_exit 0 "the same run: none" -- trc-stable --choice a.trc a.trc
is "$(choice)" "first differing choice point: none" "  says none"
expect_exit 1 "-q --choice prints nothing" -- trc-stable -q --choice a.trc b.trc
is "$(cat "$out")" "" "  nothing"

# The earliest by the first trace's lines, whatever the rank: rank 2's
# ANY_TAG receive (line 2) comes before rank 0's wildcard (line 4).
t c.trc <<'X'
0.0 2 RB peer=1 tag=* bytes=8
0.05 2 RE peer=1 tag=5 bytes=8
0.2 0 RB peer=* tag=7 bytes=8
0.3 0 RE peer=1 tag=7 bytes=8
X
t d.trc <<'X'
0.0 2 RB peer=1 tag=* bytes=8
0.2 0 RB peer=* tag=7 bytes=8
0.3 0 RE peer=2 tag=7 bytes=8
0.35 2 RE peer=1 tag=6 bytes=8
X
expect_exit 1 "ANY_TAG receive, earlier in the first trace" -- trc-stable --choice c.trc d.trc
is "$(choice)" "first differing choice point: rank 2 recv c.trc:2 took peer=1 tag=5, d.trc:2 took peer=1 tag=6" \
	"  rank 2's, line 2, though it settles later in d"
expect_exit 1 "the other way round" -- trc-stable --choice d.trc c.trc
is "$(choice)" "first differing choice point: rank 2 recv d.trc:2 took peer=1 tag=6, c.trc:2 took peer=1 tag=5" \
	"  still rank 2's: line 2 of d"

# Nonblocking wildcard receives compare in the order they were posted,
# not completed: in f the wait completes req 2 before req 1, and each
# request took the same message as in e; then a Waitany, a Waitsome, a
# wildcard probe and an Mprobe with its Mrecv (not a choice of its own)
# all take the same: no choice differs.  Receives that name their
# source and tag are no choice, whatever their size.
t e.trc <<'X'
0.1 0 RB peer=* tag=7 bytes=8 req=1
0.2 0 RB peer=* tag=7 bytes=8 req=2
0.3 0 WB req=1,2 op=waitall
0.4 0 RE req=1 peer=1 tag=7 bytes=8
0.4 0 RE req=2 peer=2 tag=7 bytes=8
0.4 0 WE req=1,2 op=waitall
0.5 0 RB peer=1 tag=7 bytes=8 req=3
0.5 0 RB peer=2 tag=7 bytes=8 req=4
0.6 0 WB req=3,4 op=waitany
0.7 0 RE req=4 peer=2 tag=7 bytes=8
0.7 0 WE req=4 op=waitany
0.8 0 WB req=3 op=waitsome
0.9 0 RE req=3 peer=1 tag=7 bytes=8
0.9 0 WE req=3 op=waitsome
1.0 1 WB peer=* tag=7 op=probe
1.1 1 WE peer=2 tag=7 bytes=8 op=probe
1.2 1 WB peer=* tag=7 op=mprobe
1.3 1 WE peer=0 tag=7 bytes=8 op=mprobe
1.4 1 RB peer=* tag=7 bytes=8 op=mrecv
1.5 1 RE peer=0 tag=7 bytes=8 op=mrecv
1.6 2 RB peer=0 tag=7 bytes=8
1.7 2 RE peer=0 tag=7 bytes=8
X
t f.trc <<'X'
0.1 0 RB peer=* tag=7 bytes=8 req=1
0.2 0 RB peer=* tag=7 bytes=8 req=2
0.3 0 WB req=1,2 op=waitall
0.4 0 RE req=2 peer=2 tag=7 bytes=8
0.4 0 RE req=1 peer=1 tag=7 bytes=8
0.4 0 WE req=1,2 op=waitall
0.5 0 RB peer=1 tag=7 bytes=8 req=3
0.5 0 RB peer=2 tag=7 bytes=8 req=4
0.6 0 WB req=3,4 op=waitany
0.7 0 RE req=4 peer=2 tag=7 bytes=8
0.7 0 WE req=4 op=waitany
0.8 0 WB req=3 op=waitsome
0.9 0 RE req=3 peer=1 tag=7 bytes=8
0.9 0 WE req=3 op=waitsome
1.0 1 WB peer=* tag=7 op=probe
1.1 1 WE peer=2 tag=7 bytes=8 op=probe
1.2 1 WB peer=* tag=7 op=mprobe
1.3 1 WE peer=0 tag=7 bytes=8 op=mprobe
1.4 1 RB peer=* tag=7 bytes=8 op=mrecv
1.5 1 RE peer=0 tag=7 bytes=4 op=mrecv
1.6 2 RB peer=0 tag=7 bytes=8
1.7 2 RE peer=0 tag=7 bytes=4
X
trc-stable --choice e.trc f.trc >"$out" 2>"$err"
is "$(choice)" "first differing choice point: none" "same choices, completed in another order"

# Each kind of choice point, differing alone (a copy of e with one line
# changed): what each took, at the call's line.
diffone() {	# LINE NEW-TEXT WANT NAME: e with line LINE (of the events) replaced
	awk -v n="$1" -v s="$2" 'NR == n + 1 { print s; next } { print }' e.trc >g.trc
	trc-stable --choice e.trc g.trc >"$out" 2>"$err"
	is "$(choice)" "first differing choice point: $3" "$4"
}
diffone 11 '0.7 0 WE req=3 op=waitany' "rank 0 waitany e.trc:10 took req=4, g.trc:10 took req=3" \
	"waitany: another request"
diffone 14 '0.9 0 WE req=3,5 op=waitsome' "rank 0 waitsome e.trc:13 took req=3, g.trc:13 took req=3,5" \
	"waitsome: more requests"
diffone 16 '1.1 1 WE peer=0 tag=7 bytes=8 op=probe' "rank 1 probe e.trc:16 took peer=2 tag=7, g.trc:16 took peer=0 tag=7" \
	"probe: another source"
diffone 18 '1.3 1 WE peer=2 tag=7 bytes=8 op=mprobe' "rank 1 mprobe e.trc:18 took peer=0 tag=7, g.trc:18 took peer=2 tag=7" \
	"mprobe: the probe chose"
diffone 4 '0.4 0 RE req=1 peer=2 tag=7 bytes=8' "rank 0 irecv e.trc:2 took peer=1 tag=7, g.trc:2 took peer=2 tag=7" \
	"irecv: at its post, line 2"
diffone 15 '1.0 1 WB peer=* tag=* op=probe' "rank 1 probe e.trc:16 took peer=2 tag=7, g.trc:16 probe peer=* tag=* took peer=2 tag=7" \
	"what was asked differs: shown for the second"
diffone 15 '1.0 1 WB peer=* tag=7 op=iprobe polls=3' "rank 1 probe e.trc:16 took peer=2 tag=7, g.trc:16 iprobe peer=* tag=7 took peer=2 tag=7" \
	"another call"
diffone 16 '1.1 1 MK' "rank 1 probe e.trc:16 took peer=2 tag=7, g.trc:16 took nothing" \
	"a probe never settled (no WE in g) took nothing"

# One run has a choice point the other has not: rank 0's third.
t h.trc <<'X'
0.2 0 RB peer=* tag=7 bytes=8
0.3 0 RE peer=1 tag=7 bytes=8
0.4 0 RB peer=* tag=7 bytes=8
0.5 0 RE peer=2 tag=7 bytes=8
0.6 0 RB peer=* tag=7 bytes=8
0.7 0 RE peer=2 tag=7 bytes=8
X
head -5 h.trc >i.trc
expect_exit 1 "a choice point more" -- trc-stable --choice h.trc i.trc
is "$(choice)" "first differing choice point: rank 0 recv h.trc:6 took peer=2 tag=7, i.trc: none" \
	"  the second run has none"
expect_exit 1 "a choice point less" -- trc-stable --choice i.trc h.trc
is "$(choice)" "first differing choice point: rank 0 recv i.trc: none, h.trc:6 took peer=2 tag=7" \
	"  the first run has none"

# Trouble: the inputs are read twice; a bad line is named.
expect_exit 2 "stdin" -- sh -c 'trc-stable --choice a.trc - <b.trc'
is "$(cat "$err")" "trc-stable: --choice reads its inputs twice: give files, not stdin" "  its message"
t bad.trc <<'X'
0.2 0 RB peer=* tag=7 bytes=8
0.3 0 RE peer=x tag=7 bytes=8
X
expect_exit 2 "a bad line" -- trc-stable --choice a.trc bad.trc
is "$(cat "$err")" "trc-stable: bad.trc:3: invalid peer 'x'" "  its message"

man=$T/../man/man1/trc-stable.1
syn=$(groff -mandoc -Tascii -P-cbou -rLL=300n "$man" 2>/dev/null |
	sed -n '/^SYNOPSIS/{n;p;}' | sed 's/^ *//')
is "usage: $syn" "$(trc-stable -h | head -1)" "usage line is the SYNOPSIS"

done_testing
