#!/bin/sh
# Message logs (TRC_LOG) and one-rank replay (trc-replay): each rank,
# replayed alone, makes the calls and writes the events it did in the
# full run, and receives the same data; a replay that strays from its
# log stops, naming the call.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
[ -x "$MPIT/replay-data" ] || skip_all "t/mpi programs not built"

# events TRACE RANK: RANK's events without their times (the time and
# the polls' time, pollt=, of a folded poll loop).
events() {
	awk -v r="$2" '!/^#/ && $2 == r { $1 = ""
		for (i = 4; i <= NF; i++) if ($i ~ /^pollt=/) $i = ""
		print }' "$1"
}

# same FULL RANK REPLAY NAME: the replay has the full run's events.
same() {
	events "$1" "$2" >"$tmp/a"
	events "$3" "$2" >"$tmp/b"
	[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"
	ok $? "$4: the same events as in the full run"
}

# trc-heat on 2 ranks, every rank logged.
mkdir "$tmp/logs"
TRC_LOG=all TRC_LOGDIR=$tmp/logs trc-record -o "$tmp/heat.trc" -- \
	-np 2 "$TRC_BIN/trc-heat" -n 64 -i 20 >"$tmp/heat.out" 2>"$err"
ok $? "trc-record with TRC_LOG=all runs trc-heat"
is "$(ls "$tmp/logs")" "rank.0.log
rank.1.log" "one log per rank"
is "$(head -c 24 "$tmp/logs/rank.1.log")" "#trclog 1 rank=1 size=2" \
	"a small log is plain, its header first"
for r in 0 1; do
	expect_exit 0 "heat rank $r replayed" -- trc-replay -r $r --log "$tmp/logs" \
		-o "$tmp/rep$r.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 20
	same "$tmp/heat.trc" $r "$tmp/rep$r.trc" "heat rank $r"
	trc-cat -r $r "$tmp/heat.trc" >"$tmp/full$r.trc"
	trc-stable -q "$tmp/full$r.trc" "$tmp/rep$r.trc"
	ok $? "heat rank $r: trc-stable finds it identical"
done
is "$(grep '^#replay' "$tmp/rep1.trc")" "#replay rank=1: the other ranks' events are not in this trace" \
	"the replay's header names its rank"
trc-replay -r 1 --log "$tmp/logs" -o "$tmp/again.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 20 >/dev/null
same "$tmp/rep1.trc" 1 "$tmp/again.trc" "heat rank 1 replayed twice"

# --alongside: rank 0 beside replays of rank 1 (twice), the node loaded
# as a full run loads it; the traced rank's events are unchanged, and
# nothing is left running or in the scratch directory.
mkdir "$tmp/scratch"
TMPDIR=$tmp/scratch expect_exit 0 "heat rank 0 replayed alongside 1,1" -- trc-replay -r 0 \
	--alongside 1,1 --log "$tmp/logs" -o "$tmp/side0.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 20
same "$tmp/heat.trc" 0 "$tmp/side0.trc" "heat rank 0 alongside"
is "$(ls -d "$tmp"/scratch/trc-replay.* 2>/dev/null)" "" "  the companions' scratch removed"
mkdir "$tmp/cut1"
cp "$tmp/logs/rank.0.log" "$tmp/cut1/"
head -c 300 "$tmp/logs/rank.1.log" >"$tmp/cut1/rank.1.log"
TMPDIR=$tmp/scratch expect_exit 2 "a rank alongside fails" -- trc-replay -r 0 --alongside 1 \
	--log "$tmp/cut1" -o "$tmp/side1.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 20
is "$(sed 's/: call [0-9]*:/: call N:/' "$err")" "trc-replay: rank 1 alongside failed:
  trc-replay: $tmp/cut1/rank.1.log: call N: the log ends inside an entry" "  named, with its error"
[ ! -e "$tmp/side1.trc" ] && [ -z "$(ls -d "$tmp"/scratch/trc-replay.* 2>/dev/null)" ]
ok $? "  no trace and no scratch left"
# --yield: every replayed call gives the core up.  A shim preloaded
# after the tracer counts the program's sched_yield calls: at least one
# per call rank 0 made in the full run that the log answers (each send,
# receive and collective begin), against the few of MPI's own without.
cat >"$tmp/yields.c" <<'EOC'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
static long n;
int sched_yield(void) {
	static int (*real)(void);
	if (real == NULL) real = (int (*)(void))dlsym(RTLD_NEXT, "sched_yield");
	n++;
	return real();
}
__attribute__((destructor)) static void out(void) {
	const char *p = getenv("YIELDS_OUT");
	FILE *f;
	if (p != NULL && (f = fopen(p, "a")) != NULL) { fprintf(f, "%ld\n", n); fclose(f); }
}
EOC
${CC:-cc} -shared -fPIC -o "$tmp/yields.so" "$tmp/yields.c" -ldl
ok $? "a shim that counts sched_yield, built"
calls=$(awk '!/^#/ && $2 == 0 && ($3 == "SB" || $3 == "RB" || $3 == "XB")' "$tmp/heat.trc" | wc -l)
for y in "" --yield; do
	: >"$tmp/yields$y"
	YIELDS_OUT=$tmp/yields$y TRC_PRELOAD="${TRC_PRELOAD:+$TRC_PRELOAD }$tmp/yields.so" \
	    expect_exit 0 "heat rank 0 replayed${y:+ $y}" -- trc-replay -r 0 $y --log "$tmp/logs" \
	    -o "$tmp/yield0$y.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 20
done
same "$tmp/heat.trc" 0 "$tmp/yield0--yield.trc" "heat rank 0 with --yield"
most() { sort -n "$1" | tail -1; }
[ "$(most "$tmp/yields--yield")" -ge "$calls" ] && [ "$(most "$tmp/yields")" -lt "$calls" ]
ok $? "--yield: $(most "$tmp/yields--yield") yields, against $(most "$tmp/yields") without, for $calls calls"
expect_exit 2 "--alongside 1,x" -- trc-replay --alongside 1,x --log "$tmp/logs" -- "$TRC_BIN/trc-heat"
is "$(head -1 "$err")" "trc-replay: --alongside: '1,x' is not a list of ranks" "  named"
expect_exit 2 "--alongside a rank without a log" -- trc-replay --alongside 1,5 --log "$tmp/logs" -- "$TRC_BIN/trc-heat"
is "$(cat "$err")" "trc-replay: $tmp/logs/rank.5.log: no message log for rank 5 (run with TRC_LOG=5)" "  named"

# Divergence: another size, fewer and more iterations.
log=$tmp/logs/rank.1.log
expect_exit 2 "a larger grid diverges" -- trc-replay -r 1 --log "$tmp/logs" \
	-o "$tmp/bad.trc" -- "$TRC_BIN/trc-heat" -n 80 -i 20
is "$(cat "$err")" "trc-replay: $log: call 2: the program calls MPI_Isend peer=0 tag=1 bytes=656 comm=world where the log has MPI_Isend peer=0 tag=1 bytes=528 comm=world" \
	"  named: the call, what the program asked, what the log holds"
[ ! -e "$tmp/bad.trc" ] && [ -z "$(ls -d "$tmp"/bad.trc.* 2>/dev/null)" ]
ok $? "  no trace left"
# 20 iterations are 1 barrier + 20 x 5 calls (Isend Recv Wait Allreduce
# on rank 1, Isend Recv Wait Allreduce), then the Reduce of the checksum.
trc-replay -r 1 --log "$tmp/logs" -o "$tmp/bad.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 19 >/dev/null 2>"$err"
is "$(sed 's/where.*//' "$err")" "trc-replay: $log: call 78: the program calls MPI_Reduce bytes=8 root=0 comm=world " \
	"fewer iterations: the first call past them"
expect_exit 2 "more iterations diverge" -- trc-replay -r 1 --log "$tmp/logs" \
	-o "$tmp/bad.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 21

# TRC_LOG names ranks.
mkdir "$tmp/one"
TRC_LOG=1 TRC_LOGDIR=$tmp/one trc-record -o "$tmp/one.trc" -- \
	-np 2 "$TRC_BIN/trc-heat" -n 64 -i 5 >/dev/null 2>"$err"
is "$(ls "$tmp/one")" "rank.1.log" "TRC_LOG=1: rank 1 alone keeps a log"
expect_exit 2 "no log for rank 0" -- trc-replay -r 0 --log "$tmp/one" -- "$TRC_BIN/trc-heat"
is "$(cat "$err")" "trc-replay: $tmp/one/rank.0.log: no message log for rank 0 (run with TRC_LOG=0)" \
	"  named"

# The data: every rank prints the sum of what it received, worked out
# by hand for 3 ranks (t/mpi/replay-data.c); wildcard receives, waits,
# collectives, probe and test loops.
mkdir "$tmp/data"
TRC_LOG=0-2 TRC_LOGDIR=$tmp/data trc-record -o "$tmp/data.trc" -- \
	-np 3 "$MPIT/replay-data" >"$tmp/data.out" 2>"$err"
is "$(sort "$tmp/data.out")" "rank 0 received 6800
rank 1 received 4461
rank 2 received 4488" "the full run receives what the hand sums say"
for r in 0 1 2; do
	trc-replay -r $r --log "$tmp/data" -o "$tmp/d$r.trc" -- "$MPIT/replay-data" >"$out" 2>"$err"
	is "$(cat "$out" "$err")" "$(grep "^rank $r " "$tmp/data.out")" \
		"replay-data rank $r: the same data, alone"
	same "$tmp/data.trc" $r "$tmp/d$r.trc" "replay-data rank $r"
done

# A wildcard race (the nd programs): the log keeps the run's matching.
mkdir "$tmp/nd"
TRC_LOG=0 TRC_LOGDIR=$tmp/nd trc-record -o "$tmp/nd.trc" -- \
	-np 4 "$MPIT/nd/waitsome" unstable </dev/null >/dev/null 2>"$err"
trc-replay --log "$tmp/nd" -o "$tmp/nd0.trc" -- "$MPIT/nd/waitsome" unstable </dev/null >/dev/null 2>"$err"
ok $? "nd/waitsome: rank 0 (the default) replayed"
same "$tmp/nd.trc" 0 "$tmp/nd0.trc" "nd/waitsome rank 0"

# A large log is compressed, and replays the same.
mkdir "$tmp/big"
TRC_LOG=1 TRC_LOGDIR=$tmp/big trc-record -o "$tmp/big.trc" -- \
	-np 2 "$TRC_BIN/trc-heat" -n 512 -i 300 >/dev/null 2>"$err"
is "$(od -An -tx1 -N2 "$tmp/big/rank.1.log" | tr -d ' ')" "1f8b" \
	"a log past 1 MiB is gzip-compressed"
trc-replay -r 1 --log "$tmp/big" -o "$tmp/big1.trc" -- "$TRC_BIN/trc-heat" -n 512 -i 300 >/dev/null 2>"$err"
ok $? "  and replays"
same "$tmp/big.trc" 1 "$tmp/big1.trc" "heat -n 512 rank 1"

# What a log cannot answer stops the replay by name.
mkdir "$tmp/sub"
TRC_LOG=0 TRC_LOGDIR=$tmp/sub trc-record -o "$tmp/sub.trc" -- \
	-np 2 "$MPIT/subcomm" >/dev/null 2>"$err"
expect_exit 2 "subcomm: not replayed" -- trc-replay --log "$tmp/sub" -o "$tmp/s.trc" -- "$MPIT/subcomm"
is "$(cat "$err")" "trc-replay: $tmp/sub/rank.0.log: MPI_Comm_split cannot be replayed (a message log holds no results for it)" \
	"  named"

# Damaged logs and bad usage.
mkdir "$tmp/cut"
head -c 300 "$tmp/logs/rank.1.log" >"$tmp/cut/rank.1.log"
expect_exit 2 "a cut log" -- trc-replay -r 1 --log "$tmp/cut" -o "$tmp/c.trc" -- "$TRC_BIN/trc-heat" -n 64 -i 20
is "$(sed 's/: call [0-9]*:/: call N:/' "$err")" "trc-replay: $tmp/cut/rank.1.log: call N: the log ends inside an entry" "  named"
mkdir "$tmp/junk"
echo junk >"$tmp/junk/rank.0.log"
expect_exit 2 "not a log" -- trc-replay --log "$tmp/junk" -o "$tmp/j.trc" -- "$TRC_BIN/trc-heat"
is "$(cat "$err")" "trc-replay: $tmp/junk/rank.0.log: call 1: not a message log" "  named"
expect_exit 2 "no --log" -- trc-replay -r 0 -- "$TRC_BIN/trc-heat"
is "$(head -1 "$err")" "trc-replay: --log logdir is required" "  named"
expect_exit 2 "-r x" -- trc-replay -r x --log "$tmp/logs" -- "$TRC_BIN/trc-heat"
is "$(head -1 "$err")" "trc-replay: -r: 'x' is not a rank" "  named"
done_testing
