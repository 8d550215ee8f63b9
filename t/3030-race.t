#!/bin/sh
# trc-race on hand-written traces whose races are found by hand: what
# competes (a message that matches, not received by a receive posted
# before, not happening after the choice) and what does not (a send
# that happens after the choice, directly, through another rank or
# through a collective; a message of the source already taken, which
# is behind it; one that a receive posted earlier had first).
. "$(dirname "$0")/lib.sh"

# mk NAME RANKS: the events on stdin, "RANK KIND attrs", become trace
# NAME with times 1, 2, ... ns; event k is on line k + 1.
mk() {
	{
		echo "#trc 1 ranks=$2"
		awk '{ printf "0.%09d %s\n", NR, $0 }'
	} >"$tmp/$1"
}
cd "$tmp" || exit 2

# a: three wildcard receives on rank 0 (lines 2, 22, 24).
#  c1 (line 2) takes 1's first message (line 6).  3's message (line 4)
#  is sent before 3 hears of c1 and is taken by a receive posted after
#  c1 (line 8): it competes.  2's message (line 19) is sent after 0's
#  token to 3 (line 11, after c1) reached 2 through 3: it happens after
#  c1, no race.  1's second message (line 21) is behind its first,
#  which c1 took: not for c1.
#  c2 (line 22) takes 2's (line 19); 1's second (line 21) was sent by a
#  rank that never heard of rank 0: it competes.
#  c3 (line 24) takes 1's second; nothing is left: no race.
mk a.trc 4 <<'E'
0 RB peer=* tag=5 bytes=4
3 SB peer=0 tag=5 bytes=4
3 SE peer=0 tag=5 bytes=4
1 SB peer=0 tag=5 bytes=4
1 SE peer=0 tag=5 bytes=4
0 RE peer=1 tag=5 bytes=4
0 RB peer=3 tag=5 bytes=4
0 RE peer=3 tag=5 bytes=4
0 SB peer=3 tag=9 bytes=4
0 SE peer=3 tag=9 bytes=4
3 RB peer=0 tag=9 bytes=4
3 RE peer=0 tag=9 bytes=4
3 SB peer=2 tag=9 bytes=4
3 SE peer=2 tag=9 bytes=4
2 RB peer=3 tag=9 bytes=4
2 RE peer=3 tag=9 bytes=4
2 SB peer=0 tag=5 bytes=4
2 SE peer=0 tag=5 bytes=4
1 SB peer=0 tag=5 bytes=4
1 SE peer=0 tag=5 bytes=4
0 RB peer=* tag=5 bytes=4
0 RE peer=2 tag=5 bytes=4
0 RB peer=* tag=5 bytes=4
0 RE peer=1 tag=5 bytes=4
E
expect_exit 1 "a: races, exit 1" -- trc-race a.trc
is "$(cat "$out")" \
"a.trc:2: rank 0 recv peer=* tag=5: took a.trc:6 from 1; could take a.trc:4 from 3
a.trc:22: rank 0 recv peer=* tag=5: took a.trc:19 from 2; could take a.trc:21 from 1
2 of 3 choice points race" "a: c1 races with 3's send only, c2 with 1's second, c3 not"
is "$(cat "$err")" "" "a: nothing on stderr"
expect_exit 1 "a: -q, exit 1" -- trc-race -q a.trc
is "$(cat "$out")" "" "a: -q prints nothing"
expect_exit 1 "a: from stdin" -- sh -c 'trc-race <a.trc'
is "$(head -1 "$out")" \
"<stdin>:2: rank 0 recv peer=* tag=5: took <stdin>:6 from 1; could take <stdin>:4 from 3" \
    "a: stdin is <stdin>"

# a2: a without 3's early message: c1 has nothing left to compete.
awk 'NR != 3 && NR != 4 && NR != 8 && NR != 9' a.trc >a2.trc
expect_exit 1 "a2: still c2" -- trc-race a2.trc
is "$(cat "$out")" \
"a2.trc:18: rank 0 recv peer=* tag=5: took a2.trc:15 from 2; could take a2.trc:17 from 1
1 of 3 choice points race" "a2: a send after the choice (through rank 3) is no race"

# b: no wildcard at all, a race inside MPI_Waitany: rank 0 posts
# receives from 1 and 2 and waits for any; it took 1's (line 5), 2's
# (line 7) was sent as freely.
mk b.trc 3 <<'E'
0 RB peer=1 tag=1 bytes=4 req=1
0 RB peer=2 tag=1 bytes=4 req=2
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 WB req=1,2 op=waitany
0 RE req=1 peer=1 tag=1 bytes=4
0 WE req=1 op=waitany
0 WB req=2 op=wait
0 RE req=2 peer=2 tag=1 bytes=4
0 WE req=2 op=wait
E
expect_exit 1 "b: the race hidden in a waitany" -- trc-race b.trc
is "$(cat "$out")" \
"b.trc:8: rank 0 waitany req=1,2: took b.trc:5 from 1 (req=1); could take b.trc:7 from 2 (req=2)
1 of 1 choice points race" "b: waitany names both requests' sends"

# b2: the same calls, but rank 2 sends only after a token rank 0 sends
# after its waitany: only one message could ever complete it.
mk b2.trc 3 <<'E'
0 RB peer=1 tag=1 bytes=4 req=1
0 RB peer=2 tag=1 bytes=4 req=2
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
0 WB req=1,2 op=waitany
0 RE req=1 peer=1 tag=1 bytes=4
0 WE req=1 op=waitany
0 SB peer=2 tag=2 bytes=4
0 SE peer=2 tag=2 bytes=4
2 RB peer=0 tag=2 bytes=4
2 RE peer=0 tag=2 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 WB req=2 op=wait
0 RE req=2 peer=2 tag=1 bytes=4
0 WE req=2 op=wait
E
expect_exit 0 "b2: ordered by happens-before, exit 0" -- trc-race b2.trc
is "$(cat "$out")" "0 of 1 choice points race" "b2: one choice point, no race"
expect_exit 0 "b2: -q, exit 0" -- trc-race -q b2.trc
is "$(cat "$out")" "" "b2: -q prints nothing"

# b3: a waitany over a send and a receive took the receive; the send,
# whose completion is the library's, could have completed first.
mk b3.trc 2 <<'E'
0 SB peer=1 tag=3 bytes=4 req=1
0 SE peer=1 tag=3 bytes=4 req=1
0 RB peer=1 tag=4 bytes=4 req=2
1 SB peer=0 tag=4 bytes=4
1 SE peer=0 tag=4 bytes=4
0 WB req=1,2 op=waitany
0 RE req=2 peer=1 tag=4 bytes=4
0 WE req=2 op=waitany
1 RB peer=0 tag=3 bytes=4
1 RE peer=0 tag=3 bytes=4
0 WB req=1 op=wait
0 WE req=1 op=wait
E
expect_exit 1 "b3: a send request lost a waitany" -- trc-race b3.trc
is "$(head -1 "$out")" \
"b3.trc:7: rank 0 waitany req=1,2: took b3.trc:6 from 1 (req=2); could take b3.trc:3 (send req=1)" \
    "b3: the send could have completed"

# b5: the same, the send completing first: the receive, whose message
# (line 6) was sent freely, could have.
mk b5.trc 2 <<'E'
0 SB peer=1 tag=3 bytes=4 req=1
0 SE peer=1 tag=3 bytes=4 req=1
0 RB peer=1 tag=4 bytes=4 req=2
1 SB peer=0 tag=4 bytes=4
1 SE peer=0 tag=4 bytes=4
0 WB req=1,2 op=waitany
0 WE req=1 op=waitany
1 RB peer=0 tag=3 bytes=4
1 RE peer=0 tag=3 bytes=4
0 WB req=2 op=wait
0 RE req=2 peer=1 tag=4 bytes=4
0 WE req=2 op=wait
E
expect_exit 1 "b5: a send request won a waitany" -- trc-race b5.trc
is "$(head -1 "$out")" \
"b5.trc:7: rank 0 waitany req=1,2: took b5.trc:3 (send req=1); could take b5.trc:6 from 1 (req=2)" \
    "b5: the send taken, the receive could have been"

# b4: a waitsome took both: nothing lost, no race.
mk b4.trc 3 <<'E'
0 RB peer=1 tag=1 bytes=4 req=1
0 RB peer=2 tag=1 bytes=4 req=2
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 WB req=1,2 op=waitsome
0 RE req=1 peer=1 tag=1 bytes=4
0 RE req=2 peer=2 tag=1 bytes=4
0 WE req=1,2 op=waitsome
E
expect_exit 0 "b4: a waitsome that completed all" -- trc-race b4.trc
is "$(cat "$out")" "0 of 1 choice points race" "b4: no race"

# c: an any-source MPI_Irecv (line 2) pending while a receive posted
# after it takes 2's message (line 9): it had that message first.
mk c.trc 3 <<'E'
0 RB peer=* tag=1 bytes=4 req=1
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 RB peer=2 tag=1 bytes=4
0 RE peer=2 tag=1 bytes=4
0 WB req=1 op=wait
0 RE req=1 peer=1 tag=1 bytes=4
0 WE req=1 op=wait
E
expect_exit 1 "c: a pending wildcard Irecv" -- trc-race c.trc
is "$(cat "$out")" \
"c.trc:2: rank 0 irecv peer=* tag=1: took c.trc:4 from 1; could take c.trc:6 from 2
1 of 1 choice points race" "c: the message a later receive took competes"

# c2: the other way round: a receive from 2 posted first (line 2), then
# an any-source receive: 2's message belongs to the first, no race.
mk c2.trc 3 <<'E'
0 RB peer=2 tag=1 bytes=4 req=1
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 RB peer=* tag=1 bytes=4
0 RE peer=1 tag=1 bytes=4
0 WB req=1 op=wait
0 RE req=1 peer=2 tag=1 bytes=4
0 WE req=1 op=wait
E
expect_exit 0 "c2: posted before, no race" -- trc-race c2.trc
is "$(cat "$out")" "0 of 1 choice points race" "c2: one choice, no race"

# d: a collective between two wildcard receives of rank 0.  A barrier
# orders 2's send after the first (no race); a bcast from 2 or a reduce
# to 0 tells 2 nothing of rank 0, so the first races with it; a bcast
# from 0 orders it.
mk d.trc 3 <<'E'
0 RB peer=* tag=1 bytes=4
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
0 RE peer=1 tag=1 bytes=4
0 XB op=barrier bytes=0
1 XB op=barrier bytes=0
2 XB op=barrier bytes=0
0 XE op=barrier bytes=0
1 XE op=barrier bytes=0
2 XE op=barrier bytes=0
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 RB peer=* tag=1 bytes=4
0 RE peer=2 tag=1 bytes=4
E
expect_exit 0 "d: barrier orders" -- trc-race d.trc
is "$(cat "$out")" "0 of 2 choice points race" "d: barrier: no race"
for c in "bcast root=2:1" "reduce root=0:1" "bcast root=0:0" "allreduce:0" "gather root=0:1" "scatter root=0:0"; do
	op=${c%:*} want=${c##*:}
	sed "s/op=barrier/op=$op/" d.trc >d2.trc
	expect_exit "$want" "d: $op gives $want" -- trc-race d2.trc
done
sed "s/op=barrier/op=bcast root=2/" d.trc >d2.trc
trc-race d2.trc >"$out"
is "$(head -1 "$out")" \
"d2.trc:2: rank 0 recv peer=* tag=1: took d2.trc:4 from 1; could take d2.trc:13 from 2" \
    "d: bcast from 2: 2's send competes"

# e: MPI_Probe(MPI_ANY_SOURCE) found 2's message (line 6), received by
# the MPI_Recv from 2 that follows; 1's (line 4) was there as well.
mk e.trc 3 <<'E'
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 WB peer=* tag=1 op=probe
0 WE peer=2 tag=1 bytes=4 op=probe
0 RB peer=2 tag=1 bytes=4
0 RE peer=2 tag=1 bytes=4
0 RB peer=1 tag=1 bytes=4
0 RE peer=1 tag=1 bytes=4
E
expect_exit 1 "e: a wildcard probe" -- trc-race e.trc
is "$(cat "$out")" \
"e.trc:6: rank 0 probe peer=* tag=1: took e.trc:5 from 2; could take e.trc:3 from 1
1 of 1 choice points race" "e: the probe names the send it found and the other"

# f: MPI_ANY_TAG from one source: 1's messages match in the order sent,
# and 2's is not asked for: no race.
mk f.trc 3 <<'E'
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
1 SB peer=0 tag=2 bytes=4
1 SE peer=0 tag=2 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 RB peer=1 tag=* bytes=4
0 RE peer=1 tag=1 bytes=4
0 RB peer=1 tag=* bytes=4
0 RE peer=1 tag=2 bytes=4
0 RB peer=2 tag=1 bytes=4
0 RE peer=2 tag=1 bytes=4
E
expect_exit 0 "f: ANY_TAG from one source" -- trc-race f.trc
is "$(cat "$out")" "0 of 2 choice points race" "f: two choice points, no race"
# The same with peer=*: 2's message now competes with the first two.
sed 's/RB peer=1 tag=\*/RB peer=* tag=*/' f.trc >f2.trc
expect_exit 1 "f2: ANY_SOURCE and ANY_TAG" -- trc-race f2.trc
is "$(cat "$out")" \
"f2.trc:8: rank 0 recv peer=* tag=*: took f2.trc:3 from 1; could take f2.trc:7 from 2
f2.trc:10: rank 0 recv peer=* tag=*: took f2.trc:5 from 1; could take f2.trc:7 from 2
2 of 2 choice points race" "f2: both race with 2's message"

# g: a receive end read before its send's end (a rendezvous, or skewed
# clocks): rank 0 waits for it, its later events queued, and the answer
# is that of the stream in causal order.
mk g.trc 3 <<'E'
0 RB peer=* tag=1 bytes=4
1 SB peer=0 tag=1 bytes=4
0 RE peer=1 tag=1 bytes=4
0 SB peer=2 tag=2 bytes=4
0 SE peer=2 tag=2 bytes=4
1 SE peer=0 tag=1 bytes=4
2 RB peer=0 tag=2 bytes=4
2 RE peer=0 tag=2 bytes=4
2 SB peer=0 tag=1 bytes=4
2 SE peer=0 tag=1 bytes=4
0 RB peer=* tag=1 bytes=4
0 RE peer=2 tag=1 bytes=4
E
expect_exit 0 "g: a receive read before its send" -- trc-race g.trc
is "$(cat "$out")" "0 of 2 choice points race" "g: 2 sent after hearing of the first"
# By rank: every rank's events together, rank 0's first.
{ echo "#trc 1 ranks=4 order=rank"; grep -v '^#' a.trc | sort -s -n -k2,2; } >ar.trc
expect_exit 1 "a by rank" -- trc-race ar.trc
is "$(tail -1 "$out")" "2 of 3 choice points race" "a by rank: the same count"
# Each file:line as its event, competitors in order: the same races.
norm() {
	awk -v f="$1" 'FNR == NR { sub(/^[^ ]* /, ""); l[FNR] = "[" $0 "]"; next }
	/choice points/ { print; next }
	{ s = $0; o = ""
	  while (match(s, f ":[0-9]+")) {
		o = o substr(s, 1, RSTART - 1) l[substr(s, RSTART + length(f) + 1, RLENGTH - length(f) - 1) + 0]
		s = substr(s, RSTART + RLENGTH)
	  }
	  print o s }' "$1" "$2" | sort
}
trc-race a.trc >a.out
trc-race ar.trc >ar.out
is "$(norm ar.trc ar.out)" "$(norm a.trc a.out)" "a by rank: the same races"

# Other formats read as trc-cat reads them.
trc-cat --to prv -o a.prv a.trc
ok $? "a as Paraver"
expect_exit 1 "a read from Paraver" -- trc-race a.prv
is "$(tail -1 "$out")" "2 of 3 choice points race" "a.prv: the same count"

# t/data/race/term.awk: rank 0 waits for any of a work message and a
# final message (req=1) three times.  Sent at once, the final message
# competes with every wait; sent after rank 2 heard of them all, with
# none.
awk -v k=3 -v racy=1 -f "$T/data/race/term.awk" >t.trc
expect_exit 1 "term: a final message sent at once" -- trc-race t.trc
is "$(cat "$out")" \
"t.trc:8: rank 0 waitany req=1,2: took t.trc:7 from 1 (req=2); could take t.trc:4 from 2 (req=1)
t.trc:22: rank 0 waitany req=1,3: took t.trc:21 from 1 (req=3); could take t.trc:4 from 2 (req=1)
t.trc:36: rank 0 waitany req=1,4: took t.trc:35 from 1 (req=4); could take t.trc:4 from 2 (req=1)
3 of 3 choice points race" "term: it could complete each waitany"
awk -v k=3 -v racy=0 -f "$T/data/race/term.awk" >t.trc
expect_exit 0 "term: a final message sent last" -- trc-race t.trc
is "$(cat "$out")" "0 of 3 choice points race" "term: no race"

awk -v k=3 -v fin=1 -f "$T/data/race/silent.awk" >s.trc
expect_exit 0 "silent: a finalized rank" -- trc-race s.trc
is "$(cat "$out")" "0 of 3 choice points race" "silent: no race"

# A wildcard with nothing else in flight is a choice point, not a race.
mk h.trc 2 <<'E'
1 SB peer=0 tag=1 bytes=4
1 SE peer=0 tag=1 bytes=4
0 RB peer=* tag=* bytes=4
0 RE peer=1 tag=1 bytes=4
E
expect_exit 0 "h: one message, no race" -- trc-race h.trc
is "$(cat "$out")" "0 of 1 choice points race" "h: counted"
printf '#trc 1 ranks=2\n' >empty.trc
expect_exit 0 "an empty trace" -- trc-race empty.trc
is "$(cat "$out")" "0 of 0 choice points race" "empty: no choice points"
done_testing
