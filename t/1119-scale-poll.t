#!/bin/sh
# trc-scale: a computation interval's CPU time (cpu=) and its
# unsuccessful polls (polls=, pollt=), trc(5), each used only when the
# #clock line declares it.  Expected times computed by hand from the
# rules of trc-scale(1): an interval of wall length d, CPU time c and
# polls taking p scales K (c or d) less p, and adds n poll2 (--poll
# cost), nothing (wait: the receive's causality repair ends the loop)
# or keeps p inside the computation (comp).
. "$(dirname "$0")/lib.sh"

# Rank, kind and predicted time of each output event, by rank.
byrank() { awk 'NR > 1 && !/^#/ { print $2, $3, $1 }' "$out" | sort -s -k1,1n; }

# Target: a send costs 1 us, a receive 2 us, an unsuccessful poll 0.5 us.
printf 'send 0 inf 1e-06 0\nrecv 0 inf 2e-06 0\npoll 0 inf 5e-07 0\n' >"$tmp/t.fit"
printf 'send 0 inf 1e-06 0\nrecv 0 inf 2e-06 0\n' >"$tmp/nopoll.fit"

# 1. Rank 1 posts a receive at 1 us and polls for it with MPI_Test: 5
# unsuccessful polls taking 10 us of the 19 us up to the test that
# succeeds at 20 us.  Rank 0 computes 10 us and sends: SE' = 10 + 1 = 11.
cat >"$tmp/a.trc" <<'X'
#trc 1 ranks=2
#clock source=realtime origin=0.0 pollt=wall
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
0.000001000 1 RB peer=0 tag=1 bytes=8 req=1
0.000010000 0 SB peer=1 tag=1 bytes=8
0.000012000 0 SE peer=1 tag=1 bytes=8
0.000020000 1 WB req=1 op=test polls=5 pollt=0.000010000
0.000021000 1 RE req=1 peer=0 tag=1 bytes=8
0.000021000 1 WE req=1 op=test
X
rank1() { byrank | awk '$1 == 1 && $2 != "MK" { printf "%s %s ", $2, $3 } END { print "" }'; }
expect_exit 0 "--poll wait" -- trc-scale --poll wait -c "$tmp/t.fit" "$tmp/a.trc"
is "$(rank1)" "RB 0.000001000 WB 0.000010000 RE 0.000012000 WE 0.000012000 " \
    "wait: the loop's 19 - 10 = 9 us of work, WB' = 10; RE' = max(10 + 2, SE' 11) = 12"
expect_exit 0 "wait is the default" -- trc-scale -c "$tmp/t.fit" "$tmp/a.trc"
is "$(rank1)" "RB 0.000001000 WB 0.000010000 RE 0.000012000 WE 0.000012000 " \
    "default: --poll wait"
is "$(byrank | awk '$1 == 0 && $2 == "SE" { print $3 }')" "0.000011000" \
    "the sender: SE' = 10 + f2 = 11"
expect_exit 0 "--poll cost" -- trc-scale --poll cost -c "$tmp/t.fit" "$tmp/a.trc"
is "$(rank1)" "RB 0.000001000 WB 0.000012500 RE 0.000014500 WE 0.000014500 " \
    "cost: WB' = 1 + 9 + 5 x 0.5 = 12.5, RE' = 12.5 + 2 = 14.5"
expect_exit 0 "--poll cost, no poll row" -- trc-scale --poll cost -c "$tmp/nopoll.fit" "$tmp/a.trc"
is "$(rank1)" "RB 0.000001000 WB 0.000020000 RE 0.000022000 WE 0.000022000 " \
    "cost without the target's poll: the polls as recorded, WB' = 1 + 9 + 10 = 20"
expect_exit 0 "--poll comp" -- trc-scale --poll comp -c "$tmp/t.fit" "$tmp/a.trc"
is "$(rank1)" "RB 0.000001000 WB 0.000020000 RE 0.000022000 WE 0.000022000 " \
    "comp: the polls stay computation, WB' = 1 + 19 = 20, RE' = 22"
expect_exit 0 "--poll cost --cpu-ratio 2" -- trc-scale --poll cost --cpu-ratio 2 -c "$tmp/t.fit" "$tmp/a.trc"
is "$(rank1)" "RB 0.000002000 WB 0.000022500 RE 0.000024500 WE 0.000024500 " \
    "cost, K = 2: polls are not computation: WB' = 2 + 2 x 9 + 2.5 = 22.5"

# 2. The same trace without pollt=wall on its #clock line: its polls
# are computation whatever --poll says.
sed '/^#clock/d' "$tmp/a.trc" >"$tmp/undeclared.trc"
expect_exit 0 "undeclared pollt=" -- trc-scale --poll wait -c "$tmp/t.fit" "$tmp/undeclared.trc"
is "$(rank1)" "RB 0.000001000 WB 0.000020000 RE 0.000022000 WE 0.000022000 " \
    "pollt= not declared: as comp"

# 3. An MPI_Iprobe loop: 4 polls taking 6 us of 1..9 us, then the
# probe (WB..WE 1 us, kept), then the receive.  Rank 0 sends at 20 us:
# SE' = 21.  wait: WB' = 1 + 2 = 3, WE' = 4, RB' = 4, RE' = max(4 + 2,
# 21) = 21.  cost: WB' = 1 + 2 + 4 x 0.5 = 5.
cat >"$tmp/probe.trc" <<'X'
#trc 1 ranks=2
#clock source=realtime origin=0.0 pollt=wall
0.000000000 0 MK mark=init
0.000000000 1 MK mark=init
0.000001000 1 MK mark=loop
0.000009000 1 WB peer=0 tag=1 op=iprobe polls=4 pollt=0.000006000
0.000010000 1 WE peer=0 tag=1 bytes=8 op=iprobe
0.000010000 1 RB peer=0 tag=1 bytes=8
0.000020000 0 SB peer=1 tag=1 bytes=8
0.000021000 0 SE peer=1 tag=1 bytes=8
0.000022000 1 RE peer=0 tag=1 bytes=8
X
rank1p() { byrank | awk '$1 == 1 && $2 != "MK" { printf "%s %s ", $2, $3 } END { print "" }'; }
expect_exit 0 "iprobe loop, wait" -- trc-scale -c "$tmp/t.fit" "$tmp/probe.trc"
is "$(rank1p)" "WB 0.000003000 WE 0.000004000 RB 0.000004000 RE 0.000021000 " \
    "iprobe loop, wait: RE' at its message's arrival, 21"
expect_exit 0 "iprobe loop, cost" -- trc-scale --poll cost -c "$tmp/t.fit" "$tmp/probe.trc"
is "$(rank1p)" "WB 0.000005000 WE 0.000006000 RB 0.000006000 RE 0.000021000 " \
    "iprobe loop, cost: WB' = 1 + 2 + 4 x 0.5 = 5"

# 4. CPU time: one rank, wall intervals 10, 20, 20 us with CPU times
# 4, 15, 5 us (it shared its core), and a send of 2 us wall whose
# cpu= is not computation.  PB' = 4, PE' = 19, SB' = 24, SE' = SB' + 2
# (no fit: as recorded), MK' = SE' + 5 = 31.
cat >"$tmp/cpu.trc" <<'X'
#trc 1 ranks=1
#clock source=realtime origin=0.0 pollt=wall cpu=thread
0.000000000 0 MK mark=init cpu=0.000000100
0.000010000 0 PB fn=A cpu=0.000004000
0.000030000 0 PE fn=A cpu=0.000015000
0.000050000 0 SB peer=0 tag=1 bytes=8 cpu=0.000005000
0.000052000 0 SE peer=0 tag=1 bytes=8 cpu=0.000000500
0.000062000 0 RB peer=0 tag=1 bytes=8 cpu=0.000005000
0.000063000 0 RE peer=0 tag=1 bytes=8 cpu=0.000000200
X
evtimes() { awk 'NR > 1 && !/^#/ { printf "%s %s ", $3, $1 } END { print "" }' "$out"; }
expect_exit 0 "cpu=" -- trc-scale "$tmp/cpu.trc"
is "$(evtimes)" "MK 0.000000000 PB 0.000004000 PE 0.000019000 SB 0.000024000 SE 0.000026000 RB 0.000031000 RE 0.000032000 " \
    "computation from cpu=, calls as recorded"
expect_exit 0 "cpu= with K = 2" -- trc-scale --cpu-ratio 2 "$tmp/cpu.trc"
is "$(evtimes)" "MK 0.000000000 PB 0.000008000 PE 0.000038000 SB 0.000048000 SE 0.000050000 RB 0.000060000 RE 0.000061000 " \
    "K = 2 scales the CPU times: 8, 30, 10, 10"
expect_exit 0 "--wall" -- trc-scale --wall "$tmp/cpu.trc"
is "$(evtimes)" "MK 0.000000000 PB 0.000010000 PE 0.000030000 SB 0.000050000 SE 0.000052000 RB 0.000062000 RE 0.000063000 " \
    "--wall: the wall clock's intervals, the trace unchanged"
sed 's/ cpu=thread//' "$tmp/cpu.trc" >"$tmp/nocpu.trc"
expect_exit 0 "cpu= undeclared" -- trc-scale "$tmp/nocpu.trc"
is "$(evtimes)" "MK 0.000000000 PB 0.000010000 PE 0.000030000 SB 0.000050000 SE 0.000052000 RB 0.000062000 RE 0.000063000 " \
    "cpu= not declared: the wall clock's intervals"

# 5. CPU time and polls together: 8 us CPU, 3 us of it in polls: 5 us.
cat >"$tmp/both.trc" <<'X'
#trc 1 ranks=1
#clock source=realtime origin=0.0 pollt=wall cpu=thread
0.000000000 0 MK mark=init
0.000020000 0 MK mark=next polls=3 pollt=0.000003000 cpu=0.000008000
X
expect_exit 0 "cpu= and pollt=" -- trc-scale "$tmp/both.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000005000 " "CPU time less the polls: 8 - 3 = 5"
expect_exit 0 "cpu= and pollt=, cost" -- trc-scale --poll cost -c "$tmp/t.fit" "$tmp/both.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000006500 " "cost: 5 + 3 x 0.5 = 6.5"

# 5b. The polls' CPU time (pollcpu=) is what cpu= loses to them: 8 -
# 2 = 6, not 8 - 3; cost without a poll row keeps the 2.
cat >"$tmp/pollcpu.trc" <<'X'
#trc 1 ranks=1
#clock source=realtime origin=0.0 pollt=wall cpu=thread
0.000000000 0 MK mark=init
0.000020000 0 MK mark=next polls=3 pollt=0.000003000 pollcpu=0.000002000 cpu=0.000008000
X
expect_exit 0 "pollcpu=" -- trc-scale "$tmp/pollcpu.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000006000 " "CPU time less the polls' CPU time: 8 - 2 = 6"
expect_exit 0 "pollcpu=, cost, no poll row" -- trc-scale --poll cost -c "$tmp/nopoll.fit" "$tmp/pollcpu.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000008000 " "cost without poll2: 6 + 2 = 8"

# 6. Bad values: file, line and the token; exit 2.
bad() {
	printf '#trc 1 ranks=1\n#clock source=realtime origin=0 pollt=wall cpu=thread\n0.000000000 0 MK\n0.000010000 0 MK %s\n' "$2" >"$tmp/bad.trc"
	expect_exit 2 "$1" -- trc-scale "$tmp/bad.trc"
	is "$(cat "$err")" "trc-scale: $tmp/bad.trc:4: $3" "$1: message"
}
bad "invalid cpu=" "cpu=1x" "invalid cpu '1x'"
bad "negative cpu=" "cpu=-0.1" "invalid cpu '-0.1'"
bad "invalid pollcpu=" "polls=1 pollt=0.000001 pollcpu=y" "invalid pollcpu 'y'"
bad "invalid polls=" "polls=many pollt=0.000001" "invalid polls 'many'"
bad "invalid pollt=" "polls=2 pollt=abc" "invalid pollt 'abc'"
bad "pollt= over its interval" "polls=2 pollt=0.000011" "pollt= longer than its interval"
expect_exit 2 "--poll with an unknown mode" -- trc-scale --poll sometimes "$tmp/a.trc"
is "$(cat "$err")" "trc-scale: invalid poll mode 'sometimes'" "--poll: message"

done_testing
