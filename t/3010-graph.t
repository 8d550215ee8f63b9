#!/bin/sh
# trc-graph: the execution graph as DOT, whole and windowed.
. "$(dirname "$0")/lib.sh"
cd "$T/data/stable" || exit 2

# recv-a by hand: events numbered from 1 per rank; rank 1's SE (1.2)
# completes at rank 0's first RE (0.2), rank 2's SE (2.2) at the second
# (0.4).
cat >"$tmp/want" <<'X'
digraph trc {
	newrank=true;
	node [shape=box, fontsize=10];
	subgraph cluster_1 { label="rank 1"; "1.1" [label="SB peer=0 tag=5\n0.000000000"]; }
	subgraph cluster_1 { label="rank 1"; "1.2" [label="SE peer=0 tag=5\n0.000000100"]; }
	"1.1" -> "1.2";
	subgraph cluster_2 { label="rank 2"; "2.1" [label="SB peer=0 tag=5\n0.000000200"]; }
	subgraph cluster_2 { label="rank 2"; "2.2" [label="SE peer=0 tag=5\n0.000000300"]; }
	"2.1" -> "2.2";
	subgraph cluster_0 { label="rank 0"; "0.1" [label="RB peer=* tag=5\n0.000001000"]; }
	subgraph cluster_0 { label="rank 0"; "0.2" [label="RE peer=1 tag=5\n0.000001100"]; }
	"0.1" -> "0.2";
	"1.2" -> "0.2" [color=blue];
	subgraph cluster_0 { label="rank 0"; "0.3" [label="RB peer=* tag=5\n0.000001200"]; }
	"0.2" -> "0.3";
	subgraph cluster_0 { label="rank 0"; "0.4" [label="RE peer=2 tag=5\n0.000001300"]; }
	"0.3" -> "0.4";
	"2.2" -> "0.4" [color=blue];
}
X
expect_exit 0 "recv-a" -- trc-graph recv-a.trc
is_file "$out" "$tmp/want" "recv-a as DOT"
expect_exit 0 "stdin" -- sh -c 'trc-graph < recv-a.trc'
is_file "$out" "$tmp/want" "stdin gives the same"

# Figure 2: on M1 task 0's first receive (0.2) is A's message (1.4), on
# M2 it is B's (2.4).
trc-graph fig-m1.trc | grep blue >"$out"
is "$(cat "$out")" '	"1.4" -> "0.2" [color=blue];
	"2.4" -> "0.6" [color=blue];' "M1 message edges"
trc-graph fig-m2.trc | grep blue >"$out"
is "$(cat "$out")" '	"2.4" -> "0.2" [color=blue];
	"1.4" -> "0.4" [color=blue];' "M2 message edges"
# 14 events on 3 ranks: 11 program-order edges.
is "$(trc-graph fig-m1.trc | grep -c -- '-> "[0-9.]*";$')" 11 "program-order edges"

# Windows: events 2-3 of ranks 0 and 1; times 0.001-0.0012 s.
cat >"$tmp/want" <<'X'
	subgraph cluster_1 { label="rank 1"; "1.2" [label="PE fn=A\n0.001000000"]; }
	subgraph cluster_1 { label="rank 1"; "1.3" [label="SB peer=0 tag=1\n0.001000000"]; }
	"1.2" -> "1.3";
	subgraph cluster_0 { label="rank 0"; "0.2" [label="RE peer=1 tag=1\n0.001200000"]; }
	subgraph cluster_0 { label="rank 0"; "0.3" [label="PB fn=Extra\n0.001200000"]; }
	"0.2" -> "0.3";
X
expect_exit 0 "-e 2-3 -r 0,1" -- trc-graph -e 2-3 -r 0,1 fig-m1.trc
sed '1,3d;$d' "$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "event window: no message edge to an undrawn send"
expect_exit 0 "--time 0.001-0.0012" -- trc-graph --time 0.001-0.0012 fig-m1.trc
is "$(grep -c '\[label=' "$out")" 5 "time window: 5 events"
is "$(grep blue "$out")" '	"1.4" -> "0.2" [color=blue];' "time window keeps the message inside it"
expect_exit 0 "-e 5-" -- trc-graph -e 5- fig-m1.trc
is "$(grep -c '\[label=' "$out")" 2 "open event range: rank 0's events 5 and 6"

expect_exit 2 "invalid time" -- trc-graph bad-time.trc
is "$(cat "$err")" "trc-graph: bad-time.trc:3: invalid time '12x'" "invalid time: message"
expect_exit 2 "bad event range" -- trc-graph -e 3-1 fig-m1.trc
is "$(cat "$err")" "trc-graph: invalid event range '3-1'" "bad event range: message"
expect_exit 2 "bad time range" -- trc-graph --time x fig-m1.trc
is "$(cat "$err")" "trc-graph: invalid time range 'x'" "bad time range: message"
expect_exit 2 "two files" -- trc-graph fig-m1.trc fig-m2.trc
done_testing
