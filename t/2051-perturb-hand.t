#!/bin/sh
# trc-perturb on small traces whose perturbed timing is computed by
# hand from the rules of trc-scale(1): each interval keeps its length,
# a receive completes at max(previous event + its interval, the send's
# end), and a receive posted with peer=* takes the message whose send
# now ends first.
. "$(dirname "$0")/lib.sh"

command -v trc-perturb >/dev/null || skip_all "trc-perturb not built (it needs lib/scale/)"
# The times and events of the output, without the t0= of each event.
strip() { sed 's/ t0=[0-9.]*$//'; }

# A send, delayed 4 s between its SB and SE.
cat >"$tmp/a.trc" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 MK
0.000000000 1 MK
1.000000000 0 SB peer=1 tag=7 bytes=8
1.000000000 1 RB peer=0 tag=7 bytes=8
1.500000000 0 SE peer=1 tag=7 bytes=8
2.000000000 1 RE peer=0 tag=7 bytes=8
3.000000000 0 MK
3.000000000 1 MK
X
# Rank 0: SE at 1.5 + 4 = 5.5, its MK 1.5 s later at 7.  Rank 1: RE at
# max(1 + 1, 5.5) = 5.5, its MK 1 s later at 6.5.
cat >"$tmp/want" <<'X'
#trc 1 ranks=2 order=time
0.000000000 0 MK
0.000000000 1 MK
1.000000000 0 SB peer=1 tag=7 bytes=8
1.000000000 1 RB peer=0 tag=7 bytes=8
5.500000000 0 SE peer=1 tag=7 bytes=8
5.500000000 1 RE peer=0 tag=7 bytes=8
6.500000000 1 MK
7.000000000 0 MK
X
expect_exit 0 "a delayed send" -- trc-perturb -d call=send,delay=4 "$tmp/a.trc"
strip <"$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  the receive waits for it"
is "$(awk '!/^#/ { sub("t0=", "", $NF); print $NF }' "$out" | tr '\n' ' ')" \
	"0.000000000 0.000000000 1.000000000 1.000000000 1.500000000 2.000000000 3.000000000 3.000000000 " \
	"  t0= keeps the recorded times"
# On rank 1 only, nothing moves: the times are the recorded ones.
expect_exit 0 "a delay on a rank that sends nothing" -- trc-perturb -d call=send,ranks=1,delay=4 "$tmp/a.trc"
is "$(awk '!/^#/ { t = $NF; sub("t0=", "", t); if (t != $1) n++ } END { print n + 0 }' "$out")" 0 \
	"  every time as recorded"

# Figure 1 in small: task 0 receives in arrival order, task 1's message
# first (sent at 1), then task 2's (sent at 2), and works in region C
# after task 1's.
cat >"$tmp/b.trc" <<'X'
#trc 1 ranks=3 order=time
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.500000000 0 RB peer=* tag=7 bytes=8
0.900000000 1 SB peer=0 tag=7 bytes=8
1.000000000 1 SE peer=0 tag=7 bytes=8
1.100000000 0 RE peer=1 tag=7 bytes=8
1.100000000 0 PB fn=C
1.300000000 0 PE fn=C
1.300000000 0 RB peer=* tag=7 bytes=8
1.900000000 2 SB peer=0 tag=7 bytes=8
2.000000000 2 SE peer=0 tag=7 bytes=8
2.100000000 0 RE peer=2 tag=7 bytes=8
3.000000000 0 MK
3.000000000 1 MK
3.000000000 2 MK
X
# 2 s before task 1's send: it ends at 3, after task 2's at 2, so the
# first receive takes task 2's message, at max(0.5 + 0.6, 2) = 2; C
# follows it as recorded (2 to 2.2; what the program would do with the
# other message is not known); the second receive takes task 1's at
# max(2.2 + 0.8, 3) = 3; the MKs come 0.9 s after rank 0's last RE, and
# 2 s late on rank 1.
cat >"$tmp/want" <<'X'
#trc 1 ranks=3 order=time
0.000000000 0 MK
0.000000000 1 MK
0.000000000 2 MK
0.500000000 0 RB peer=* tag=7 bytes=8
0.900000000 1 SB peer=0 tag=7 bytes=8
1.900000000 2 SB peer=0 tag=7 bytes=8
2.000000000 2 SE peer=0 tag=7 bytes=8
2.000000000 0 RE peer=2 tag=7 bytes=8
2.000000000 0 PB fn=C
2.200000000 0 PE fn=C
2.200000000 0 RB peer=* tag=7 bytes=8
3.000000000 1 SE peer=0 tag=7 bytes=8
3.000000000 2 MK
3.000000000 0 RE peer=1 tag=7 bytes=8
3.900000000 0 MK
5.000000000 1 MK
X
expect_exit 0 "fig1: task 1 late" -- trc-perturb -v -d call=send,ranks=1,delay=2 "$tmp/b.trc"
strip <"$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/want" "  the receives take the messages in their new order"
is "$(cat "$err")" "trc-perturb: 1 delay, 2.000000000 s in all; 16 events, 2 given another message" \
	"  -v counts the delay and the two re-matched receives"
expect_exit 1 "  trc-stable: unstable" -- trc-stable "$tmp/b.trc" "$tmp/got"
# Rank 0: RB RE1 PB PE RB RE2 MK against RB RE2 PB PE RB RE1 MK: their
# LCS, RB PB PE RB MK, is 5 of 7 (with the first MK, 6 of 8): distance 2.
is "$(sed -n 's/.*, distance //p' "$out")" 2 "  distance 2"

# 2 s before both sends: task 1's still comes first, nothing changes
# but the times.
trc-perturb -d 'call=send,ranks=1,delay=2;call=send,ranks=2,delay=2' "$tmp/b.trc" >"$tmp/got"
expect_exit 0 "fig1: both late: stable" -- trc-stable "$tmp/b.trc" "$tmp/got"

# The end of region C 1 s later (the delay falls inside it): PE at
# 2.3, the second RE at max(2.3 + 0.8, 2) = 3.1, rank 0's MK at 4.
expect_exit 0 "a region's end" -- trc-perturb -d call=pe,region=C,delay=1 "$tmp/b.trc"
is "$(strip <"$out" | awk '$2 == 0 { printf "%s %s|", $1, $3 }')" \
	"0.000000000 MK|0.500000000 RB|1.100000000 RE|1.100000000 PB|2.300000000 PE|2.300000000 RB|3.100000000 RE|4.000000000 MK|" \
	"  rank 0 after C"

# The second occurrence only, of a send in a loop: two messages from
# rank 1, the second delayed 1 s.
cat >"$tmp/c.trc" <<'X'
#trc 1 ranks=2 order=time
0.000000000 1 SB peer=0 tag=1 bytes=8
0.000000000 0 RB peer=1 tag=1 bytes=8
0.100000000 1 SE peer=0 tag=1 bytes=8
0.100000000 0 RE peer=1 tag=1 bytes=8
0.200000000 1 SB peer=0 tag=1 bytes=8
0.200000000 0 RB peer=1 tag=1 bytes=8
0.300000000 1 SE peer=0 tag=1 bytes=8
0.300000000 0 RE peer=1 tag=1 bytes=8
X
expect_exit 0 "occ=2" -- trc-perturb -d call=send,occ=2,delay=1 "$tmp/c.trc"
is "$(strip <"$out" | awk '!/^#/ { printf "%s %s %s|", $1, $2, $3 }')" \
	"0.000000000 1 SB|0.000000000 0 RB|0.100000000 1 SE|0.100000000 0 RE|0.200000000 1 SB|0.200000000 0 RB|1.300000000 1 SE|1.300000000 0 RE|" \
	"  only the second send is 1 s longer"
# An Isend's delay falls between its SB and SE (the message leaves
# late), and a wildcard Irecv completed in a wait is re-matched too.
cat >"$tmp/e.trc" <<'X'
#trc 1 ranks=3 order=time
0.000000000 0 RB peer=* tag=1 bytes=8 req=1
0.100000000 0 WB req=1 op=wait
1.000000000 1 SB peer=0 tag=1 bytes=8 req=1
1.100000000 1 SE peer=0 tag=1 bytes=8 req=1
1.200000000 0 RE peer=1 tag=1 bytes=8 req=1
1.200000000 0 WE req=1 op=wait
1.200000000 1 WB req=1 op=wait
1.300000000 1 WE req=1 op=wait
2.000000000 2 SB peer=0 tag=1 bytes=8
2.100000000 2 SE peer=0 tag=1 bytes=8
2.100000000 0 RB peer=* tag=1 bytes=8
2.200000000 0 RE peer=2 tag=1 bytes=8
X
# Rank 1's SE at 1.1 + 2 = 3.1, after rank 2's at 2.1: the wait takes
# rank 2's message at max(0.1 + 1.1, 2.1) = 2.1 and ends there; the
# next receive begins 0.9 s later, at 3.0, and takes rank 1's message
# at max(3.0 + 0.1, 3.1) = 3.1.
expect_exit 0 "isend late, wildcard irecv" -- trc-perturb -d call=isend,delay=2 "$tmp/e.trc"
is "$(strip <"$out" | awk '!/^#/ { printf "%s %s %s %s|", $1, $2, $3, $4 }' | sed 's/|$//')" \
	"0.000000000 0 RB peer=*|0.100000000 0 WB req=1|1.000000000 1 SB peer=0|2.000000000 2 SB peer=0|2.100000000 2 SE peer=0|2.100000000 0 RE peer=2|2.100000000 0 WE req=1|3.000000000 0 RB peer=*|3.100000000 1 SE peer=0|3.100000000 0 RE peer=1|3.200000000 1 WB req=1|3.300000000 1 WE req=1" \
	"  rank 1's message 2 s late: the irecv takes rank 2's, the next receive rank 1's"

# From the standard input, without delays: the times as recorded.
expect_exit 0 "stdin, no delay" -- sh -c "trc-perturb <'$tmp/c.trc'"
strip <"$out" >"$tmp/got"
is_file "$tmp/got" "$tmp/c.trc" "  the input again"

# Errors.
expect_exit 2 "a spec without delay" -- trc-perturb -d call=send "$tmp/a.trc"
is "$(cat "$err")" "trc-perturb: invalid delay 'call=send': missing delay=" "  its message"
expect_exit 2 "two files" -- trc-perturb "$tmp/a.trc" "$tmp/b.trc"
is "$(cat "$err")" "$(trc-perturb -h | head -1)" "  usage"
expect_exit 2 "a missing file" -- trc-perturb "$tmp/nonesuch"
is "$(cat "$err")" "trc-perturb: $tmp/nonesuch: No such file or directory" "  its message"
printf '#trc 1 ranks=2\n0 0 RE peer=1 tag=7 bytes=8\n' >"$tmp/d.trc"
expect_exit 2 "a receive without its send" -- trc-perturb "$tmp/d.trc"

done_testing
