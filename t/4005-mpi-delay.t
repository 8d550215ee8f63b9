#!/bin/sh
# libtrc-mpi on trc-heat: regions, TRC_DELAY injection (a delayed call
# lasts at least the delay, the others do not), a small TRC_BUFSIZE
# flushing many times, and bad settings refused.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

# Durations of KIND-begin to KIND-end of rank R, in order, one per line.
durations() {
	awk -v r="$2" -v b="$3" -v e="$4" -v f="$5" '
		!/^#/ && $2 == r && $3 == b && (f == "" || $4 == f) { t = $1 }
		!/^#/ && $2 == r && $3 == e && (f == "" || $4 == f) { printf "%.6f\n", $1 - t }' "$1"
}

tr=$tmp/h.trc
trc-record -o "$tr" -d 'call=send,ranks=0,occ=2-3,delay=0.02;call=pe,ranks=1,region=Iterate,delay=0.01;call=recv,ranks=7,delay=1' \
	-- -np 2 trc-heat -n 16 -i 5 --tolerance 0 >"$out" 2>"$err"
ok $? "trc-heat runs traced with delays"
check_stream "$tr" 2
for fn in IterEdge Iterate Converged; do
	is "$(count "$tr" 0 PB fn=$fn) $(count "$tr" 1 PE fn=$fn)" "5 5" "region $fn on both ranks"
done
is "$(count "$tr" 1 SB 'peer=0 tag=1 bytes=144')" "5" "the Isend upwards: 18 doubles"
is "$(count "$tr" 0 SE 'peer=1 tag=2 bytes=144')" "5" "the blocking send downwards"
is "$(count "$tr" 0 RE 'peer=1 tag=1 bytes=144')" "5" "receives naming their source"
is "$(count "$tr" 1 XE 'op=allreduce bytes=4')" "5" "the global convergence check"
is "$(durations "$tr" 0 SB SE | awk '{ print ($1 >= 0.02) }' | tr -d '\n')" "01100" \
	"sends 2 and 3 of rank 0 take at least 0.02 s, the others less"
is "$(durations "$tr" 1 PB PE fn=Iterate | awk '$1 >= 0.01' | wc -l | tr -d ' ')" "5" \
	"rank 1's Iterate regions take at least 0.01 s"
is "$(durations "$tr" 0 PB PE fn=Iterate | awk '$1 >= 0.01' | wc -l | tr -d ' ')" "0" \
	"rank 0's Iterate regions are not delayed"
# Each delay's count in the header: sends 2 and 3 of rank 0; rank 1's 5
# Iterate ends; none on a rank 7 the 2-rank run does not have.
is "$(grep '^#delay ' "$tr")" "#delay fired=2 call=send,ranks=0,occ=2-3,delay=0.02
#delay fired=5 call=pe,ranks=1,region=Iterate,delay=0.01
#delay fired=0 call=recv,ranks=7,delay=1" "how often each delay fired, in the header"

# A 4 KiB buffer: written many times, the same events.  Per step rank 0
# has 3 regions (6), a send (2), a receive (2), an allreduce (2); rank 1
# the same plus its wait (2).  Around the loop: the init mark, a
# barrier (2), two reduces (4) and the finalize mark: 8.
trc-record -o "$tr" --bufsize 4096 -- -np 2 trc-heat -n 16 -i 200 --tolerance 0 >"$out" 2>"$err"
ok $? "a 4 KiB buffer"
check_stream "$tr" 2
is "$(awk '!/^#/ { n[$2]++ } END { print n[0], n[1] }' "$tr")" "$((12 * 200 + 8)) $((14 * 200 + 8))" \
	"every event is kept"
ok "$([ "$(wc -c <"$tr")" -gt 40000 ]; echo $?)" "the trace is many buffers long"

# Bad settings stop the run with a clear message.
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/x.trc TRC_DELAY='call=send,delay=x' trc-heat -n 4 -i 1 >/dev/null 2>"$err"
ok "$([ $? -ne 0 ]; echo $?)" "a bad TRC_DELAY fails"
is "$(head -1 "$err")" "libtrc-mpi: rank 0: TRC_DELAY: invalid delay 'x'" "a bad TRC_DELAY is named"
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/x.trc TRC_DELAY='call=send,when=now,delay=1' trc-heat -n 4 -i 1 >/dev/null 2>"$err"
is "$(head -1 "$err")" "libtrc-mpi: rank 0: TRC_DELAY: unknown key 'when'" "an unknown TRC_DELAY key is named"
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/x.trc TRC_DELAY='ranks=0,delay=1' trc-heat -n 4 -i 1 >/dev/null 2>"$err"
is "$(head -1 "$err")" "libtrc-mpi: rank 0: TRC_DELAY: a spec without call=" "a TRC_DELAY without call= is refused"
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/x.trc TRC_DELAY='call=sned,delay=1' trc-heat -n 4 -i 1 >/dev/null 2>"$err"
is "$(head -1 "$err")" "libtrc-mpi: rank 0: TRC_DELAY: unknown or never delayed call 'sned' (libtrc-mpi(7) lists the calls)" \
	"a TRC_DELAY naming no call is refused"
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/x.trc TRC_DELAY='call=test,delay=1' trc-heat -n 4 -i 1 >/dev/null 2>"$err"
is "$(head -1 "$err")" "libtrc-mpi: rank 0: TRC_DELAY: unknown or never delayed call 'test' (libtrc-mpi(7) lists the calls)" \
	"a TRC_DELAY on a call never delayed is refused"
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/x.trc TRC_BUFSIZE=12q trc-heat -n 4 -i 1 >/dev/null 2>"$err"
is "$(head -1 "$err")" "libtrc-mpi: rank 0: TRC_BUFSIZE: invalid size '12q'" "a bad TRC_BUFSIZE is named"
LD_PRELOAD="$PRELOAD" TRC_OUT=$tmp/nodir/x.trc trc-heat -n 4 -i 1 >/dev/null 2>"$err"
ok "$([ $? -ne 0 ]; echo $?)" "an unwritable TRC_OUT fails"
ok "$(grep -q "^libtrc-mpi: rank 0: cannot make the rank directory for TRC_OUT '$tmp/nodir/x.trc'" "$err"; echo $?)" \
	"an unwritable TRC_OUT is named"
done_testing
