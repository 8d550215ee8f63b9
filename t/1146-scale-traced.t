#!/bin/sh
# trc-scale --traced: the prediction of a traced run puts back the
# tracer's own time that cpu= leaves out, as the #own line of the
# header says it (trc(5)): after each event its line, and a reading of
# the CPU clock at an event once skip has passed since the last
# reading ended (and at a rank's first event), as libtrc-mpi makes
# them.  Expected times computed by hand from those rules.
. "$(dirname "$0")/lib.sh"

evtimes() { awk 'NR > 1 && !/^#/ { printf "%s %s ", $3, $1 } END { print "" }' "$out"; }

# One rank, computation of 10, 2, 8 and 3 us CPU time; a reading costs
# 1 us, a line 0.1, skip 5 us.
#   MK1 at 0: first event, a reading: 1.1 after it, read until 1.0.
#   MK2 = 0 + 1.1 + 10 = 11.1; 11.1 - 1.0 >= 5: reading, read until 12.1.
#   MK3 = 11.1 + 1.1 + 2 = 14.2; 14.2 - 12.1 = 2.1 < 5: the line alone.
#   MK4 = 14.2 + 0.1 + 8 = 22.3; 22.3 - 12.1 >= 5: reading, until 23.3.
#   MK5 = 22.3 + 1.1 + 3 = 26.4.
cat >"$tmp/one.trc" <<'X'
#trc 1 ranks=1
#clock source=realtime origin=0.0 cpu=thread
#own reads=3 read=0.000001000 events=5 line=0.000000100 skip=0.000005000
0.000000000 0 MK mark=a cpu=0.000000100
0.000011000 0 MK mark=b cpu=0.000010000
0.000014000 0 MK mark=c cpu=0.000002000
0.000022200 0 MK mark=d cpu=0.000008000
0.000026000 0 MK mark=e cpu=0.000003000
X
expect_exit 0 "--traced" -- trc-scale --traced "$tmp/one.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000011100 MK 0.000014200 MK 0.000022300 MK 0.000026400 " \
    "a reading after the first event and whenever 5 us passed, a line after each"
expect_exit 0 "without --traced" -- trc-scale "$tmp/one.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000010000 MK 0.000012000 MK 0.000020000 MK 0.000023000 " \
    "without it: the CPU times alone"
expect_exit 0 "--traced --cpu-ratio 2" -- trc-scale --traced --cpu-ratio 2 "$tmp/one.trc"
# Twice the computation, the tracer's time as it is: MK2 = 1.1 + 20 =
# 21.1 (reading), MK3 = 21.1 + 1.1 + 4 = 26.2 (26.2 - 22.1 = 4.1: line),
# MK4 = 26.2 + 0.1 + 16 = 42.3 (reading), MK5 = 42.3 + 1.1 + 6 = 49.4.
is "$(evtimes)" "MK 0.000000000 MK 0.000021100 MK 0.000026200 MK 0.000042300 MK 0.000049400 " \
    "its own time is not scaled; where the readings fall follows the prediction"

# The tracer's time lands inside a call too: a send of 2 us (as
# recorded, no fit) begun after a reading ends 1.1 us later.
#   MK at 0 (reading, until 1.0); SB = 1.1 + 10 = 11.1 (reading, until
#   12.1); SE = 11.1 + 1.1 + 2 = 14.2 (line); MK = 14.2 + 0.1 + 1 = 15.3.
cat >"$tmp/send.trc" <<'X'
#trc 1 ranks=2
#clock source=realtime origin=0.0 cpu=thread
#own reads=2 read=0.000001000 events=4 line=0.000000100 skip=0.000005000
0.000000000 0 MK mark=a
0.000000000 1 MK mark=a
0.000010000 0 SB peer=1 tag=1 bytes=8 cpu=0.000010000
0.000012000 0 SE peer=1 tag=1 bytes=8 cpu=0.000002000
0.000013000 0 MK mark=b cpu=0.000001000
0.000020000 1 RB peer=0 tag=1 bytes=8 cpu=0.000020000
0.000020500 1 RE peer=0 tag=1 bytes=8 cpu=0.000000500
X
expect_exit 0 "--traced with a send" -- trc-scale --traced "$tmp/send.trc"
is "$(awk '!/^#/ && $2 == 0 { printf "%s %s ", $3, $1 }' "$out")" \
    "MK 0.000000000 SB 0.000011100 SE 0.000014200 MK 0.000015300 " \
    "a call begun after a reading starts that much later"

# Without cpu= the intervals hold the tracer's time already: nothing
# is put back.  A trace with cpu= but no #own line: a warning, nothing.
sed 's/ cpu=thread//' "$tmp/one.trc" >"$tmp/wall.trc"
expect_exit 0 "--traced, no cpu=" -- trc-scale --traced "$tmp/wall.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000011000 MK 0.000014000 MK 0.000022200 MK 0.000026000 " \
    "no cpu=: the wall clock's intervals, nothing added"
grep -v '^#own' "$tmp/one.trc" >"$tmp/noown.trc"
expect_exit 0 "--traced, no #own line" -- trc-scale --traced "$tmp/noown.trc"
is "$(evtimes)" "MK 0.000000000 MK 0.000010000 MK 0.000012000 MK 0.000020000 MK 0.000023000 " \
    "no #own line: nothing to put back"
is "$(cat "$err")" "trc-scale: warning: $tmp/noown.trc: --traced: no #own line in the header, nothing to put back" \
    "  and says so"

# A #own line without a value, or with an invalid one: exit 2, named.
for bad in "read=0.000001000 line=0.0000001" "read=x line=0.0000001 skip=0.000005" \
    "read=0.000001 line=-1 skip=0.000005"; do
	sed "s/^#own .*/#own $bad/" "$tmp/one.trc" >"$tmp/bad.trc"
	expect_exit 2 "#own $bad" -- trc-scale --traced "$tmp/bad.trc"
	is "$(cat "$err")" "trc-scale: $tmp/bad.trc: invalid #own line in the header" \
	    "  named"
done

done_testing
