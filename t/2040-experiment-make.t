#!/bin/sh
# trc-experiment and experiment.mk without MPI: a stand-in for
# trc-record writes the trace of a Figure 1 run whose timing follows the
# delays, so that every distance and time is known by hand; the tests
# check the response table, the verdict, what a rerun redoes, parallel
# runs, and the fragment inside other makefiles.
. "$(dirname "$0")/lib.sh"

command -v make >/dev/null || skip_all "no make"
unset MAKEFLAGS MFLAGS MAKELEVEL
mk=$T/../perturb/experiment.mk
tab() { tr '|' '\t'; }

# The stand-in, as trc-record -d delay -o file -- args, or as
# trc-perturb -d delay base.trc.  Task 1 sends at 1 s, task 2 at 2 s,
# each 2 s later when its factor (ranks=1, ranks=2) is high; task 0
# receives in arrival order and works (region C, no time) after task
# 1's message.  Each call appends "start end name" to $FAKE_LOG.
cat >"$tmp/fake" <<'X'
#!/bin/sh
start=$(date +%s.%N)
out=/dev/stdout d=
while getopts d:o: o; do
	case $o in
	d) d=$OPTARG ;;
	o) out=$OPTARG ;;
	esac
done
a=1 b=2
# FAKE_FLIP, a case pattern of output files: task 2 first, whatever the
# delays - a program unstable by itself.
eval "case \$out in ${FAKE_FLIP:-/}) a=5 ;; esac"
case $d in *ranks=1,*) a=3 ;; esac
case $d in *ranks=2,*) b=4 ;; esac
if [ $a -lt $b ]; then f=1 s=2 t1=$a t2=$b; else f=2 s=1 t1=$b t2=$a; fi
c() { [ "$1" = 1 ] && printf '%s 0 PB fn=C\n%s 0 PE fn=C\n' "$2" "$2"; }
{
	echo "#trc 1 ranks=3 order=time"
	echo "0.000000000 0 RB peer=* tag=7 bytes=8"
	echo "0.000000000 1 SB peer=0 tag=7 bytes=8"
	echo "0.000000000 2 SB peer=0 tag=7 bytes=8"
	echo "$t1.000000000 $f SE peer=0 tag=7 bytes=8"
	echo "$t1.000000000 0 RE peer=$f tag=7 bytes=8"
	c $f $t1.000000000
	echo "$t1.000000000 0 RB peer=* tag=7 bytes=8"
	echo "$t2.000000000 $s SE peer=0 tag=7 bytes=8"
	echo "$t2.000000000 0 RE peer=$s tag=7 bytes=8"
	c $s $t2.000000000
} >"$out"
sleep "${FAKE_SLEEP:-0}"
[ "$out" = /dev/stdout ] && out=perturb
echo "$start $(date +%s.%N) ${out##*/}" >>"$FAKE_LOG"
X
chmod +x "$tmp/fake"
export EXP_RECORD="$tmp/fake" EXP_PERTURB="$tmp/fake" FAKE_LOG="$tmp/log"
cat >"$tmp/factors" <<'X'
sendA call=send ranks=1 delay=2
sendB call=send ranks=2 delay=2
X
e=$tmp/e.exp

# Task 0's events: RB RE1 PB PE RB RE2 unperturbed; with only A high,
# task 2's message comes first, RB RE2 RB RE1 PB PE, whose longest
# common subsequence with the first is RB RE1 PB PE: distance 6 - 4 = 2.
# The time is the last send: 2, 3, 4, 4.  Run 2 first differs at
# task 0's first receive, line 2 of the baseline (peer 2, not 1).
expect_exit 1 "unstable: exit 1" -- trc-experiment --factors "$tmp/factors" "$e" -- -np 3 prog -x "a b" "it's"
tab >"$tmp/want" <<X
run|std|A|B|distance|time|choice
1|1|-1|-1|0|2.000000000|-
2|2|+1|-1|2|3.000000000|0:recv:$e/base.trc:2
3|3|-1|+1|0|4.000000000|-
4|4|+1|+1|0|4.000000000|-
X
is_file "$e/runs.tsv" "$tmp/want" "response table: distances and times by hand"
is "$(cat "$e/command")" "'-np' '3' 'prog' '-x' 'a b' 'it'\\''s' " "the command, quoted"
is_file "$out" "$e/effects" "prints the effects"
# Distance 0 2 0 0: q = 0.5 for mean and A, -0.5 for B and AB, each
# explaining a third.  Time 2 3 4 4: qA = (-2+3-4+4)/4 = 0.25,
# qB = (-2-3+4+4)/4 = 0.75, qAB = (2-3-4+4)/4 = -0.25.
# The run without delay (run 1) does not differ: the instability is
# the delays'.
sed -n '/^verdict/,$p' "$out" >"$tmp/got"
tab >"$tmp/want" <<X
verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ
A|33.33|sendA
B|33.33|sendB
AB|33.33|sendA x sendB
runs that change the graph (factors high, mean distance):
|A|2|sendA
first differing choice point: rank 0 recv $e/base.trc:2 (run 2)
X
is_file "$tmp/got" "$tmp/want" "verdict names sendA, and where run 2 differs"
is "$(tail -1 "$e/run-2.stable")" \
	"first differing choice point: rank 0 recv $e/base.trc:2 took peer=1 tag=7, $e/run-2.trc:2 took peer=2 tag=7" \
	"  trc-stable --choice says what each took"
is "$(awk -F'\t' '/^response: time/ { f = 1 } f && /^total/ { exit } f && /^A?B?\t/ { printf "%s=%s ", $1, $2 }' "$out")" \
	"A=0.25 B=0.75 AB=-0.25 " "time effects by hand"
is "$(wc -l <"$tmp/log")" 5 "five traces: baseline and four runs"
is "$(cat "$e/run-3.delay")" "call=send,ranks=2,delay=2" "run 3's delays"
is "$(sed -n 6p "$e/run-2.stable")" "similarity 0.800000 (8 of 10 events), distance 2" "trc-stable's output kept"

# A rerun makes nothing; a removed trace is made again, alone.
: >"$tmp/log"
expect_exit 1 "rerun" -- trc-experiment "$e"
is "$(wc -l <"$tmp/log")" 0 "  makes no trace"
is_file "$out" "$e/effects" "  and prints the same effects"
rm "$e/run-2.trc"
trc-experiment "$e" >/dev/null 2>&1
is "$(cut -d' ' -f3 "$tmp/log")" "run-2.trc.tmp" "a removed trace alone is made again"

# Two replications: only runs 5 to 8 are new.
: >"$tmp/log"
trc-experiment --replications 2 "$e" >/dev/null 2>&1
is "$(cut -d' ' -f3 "$tmp/log" | sort | tr '\n' ' ')" \
	"run-5.trc.tmp run-6.trc.tmp run-7.trc.tmp run-8.trc.tmp " "--replications 2 runs only the new replication"
is "$(cat "$e/design")" "--replications 2" "  kept in design"
is "$(awk 'NR > 1 { print $(NF - 2) }' "$e/runs.tsv" | tr '\n' ' ')" "0 2 0 0 0 2 0 0 " "  distances of 8 runs"
grep -q '^error' "$e/effects"; ok $? "  an error row with replications"

# sendB's delay changes: only runs with sendB high (3, 4, 7, 8) again.
: >"$tmp/log"
sed 's/ranks=2 delay=2/ranks=2 delay=3/' "$tmp/factors" >"$tmp/factors2"
trc-experiment --factors "$tmp/factors2" "$e" >/dev/null 2>&1
is "$(cut -d' ' -f3 "$tmp/log" | sort | tr '\n' ' ')" \
	"run-3.trc.tmp run-4.trc.tmp run-7.trc.tmp run-8.trc.tmp " "a changed delay reruns only its runs"

# Stable: the factors only delay task 2, whose message is last anyway.
printf 'late2 call=send ranks=2 delay=2\n' >"$tmp/f3"
expect_exit 0 "stable: exit 0" -- trc-experiment --factors "$tmp/f3" "$tmp/s.exp" -- prog
is "$(tail -1 "$out")" "verdict: stable under every perturbation" "  stable verdict"

# Offline: the runs are made from the baseline by EXP_PERTURB.
: >"$tmp/log"
expect_exit 1 "--offline: exit 1" -- trc-experiment --offline --factors "$tmp/factors" "$tmp/o.exp" -- prog
is "$(cut -d' ' -f3 "$tmp/log" | sort | tr '\n' ' ')" \
	"base.trc.tmp perturb perturb perturb perturb " "  the baseline run, four runs perturbed offline"
is "$(awk 'NR > 1 { print $(NF - 2) }' "$tmp/o.exp/offline.tsv" | tr '\n' ' ')" "0 2 0 0 " "  offline distances"
is "$(grep '^first differing' "$tmp/o.exp/offline-effects")" \
	"first differing choice point: rank 0 recv $tmp/o.exp/base.trc:2 (run 2)" "  the same place offline"
expect_exit 1 "-b: a given baseline" -- trc-experiment --offline -b "$e/base.trc" --factors "$tmp/factors" "$tmp/b.exp"
is "$(ls "$tmp/b.exp" | grep -c 'command\|run-.*trc')" 0 "  no command, no run"

# Parallel: with -j2 two traces are made at the same time.
: >"$tmp/log"
FAKE_SLEEP=0.5 trc-experiment -j 2 --factors "$tmp/factors" "$tmp/p.exp" -- prog >/dev/null 2>&1
is "$(awk '{ s[NR] = $1; e[NR] = $2 } END { for (i = 1; i <= NR; i++) for (j = 1; j <= NR; j++)
	if (i != j && s[i] <= s[j] && s[j] < e[i]) n++; print (n > 0) }' "$tmp/log")" 1 "-j 2: runs overlap"

# Unstable without perturbation: four repeats of the baseline (the runs
# without delay, 1 3 5 7) all differ from it, task 2's message coming
# first whatever the delays.  Nothing is ranked; the place is task 0's
# first receive.  Offline the runs repeat the baseline exactly.
printf 'late2 call=send ranks=2 delay=2\n' >"$tmp/f4"
FAKE_FLIP='*/run-[1357].trc.tmp' expect_exit 1 "intrinsic: exit 1" -- \
	trc-experiment --factors "$tmp/f4" --replications 4 "$tmp/i.exp" -- prog
is "$(sed -n '/^verdict/,$p' "$out")" "$(printf '%s\n' \
	'verdict: unstable without perturbation: 4 of 4 repeated baseline runs differ' \
	"first differing choice point: rank 0 recv $tmp/i.exp/base.trc:2 (runs 1 3 5 7)")" \
	"  4 of 4 repeated baseline runs differ, and where"
ok "$(grep -c '^[A-Z]*	[0-9.]*	late2$\|^runs that' "$out")" "  no factor ranked"
rm "$tmp/i.exp/run-5.trc" "$tmp/i.exp/run-7.trc"
FAKE_FLIP='*/run-[13].trc.tmp' expect_exit 1 "2 of 4 differ" -- trc-experiment "$tmp/i.exp"
is "$(sed -n '/^verdict/,$p' "$out")" "$(printf '%s\n' \
	'verdict: unstable without perturbation: 2 of 4 repeated baseline runs differ' \
	"first differing choice point: rank 0 recv $tmp/i.exp/base.trc:2 (runs 1 3)")" \
	"  counted, and the runs named"
expect_exit 0 "  offline: stable" -- trc-experiment --offline "$tmp/i.exp"
is "$(tail -1 "$out")" "verdict: stable under every perturbation" "  its verdict"

# A fraction without the point of no delay (C = AB): one run without
# delay is added, run 5, std 0, a repeat of the baseline.  Only A, task
# 1's delay, alone (run 2) changes the graph.
printf 'recv0 call=recv ranks=0 delay=2\n' | cat "$tmp/factors" - >"$tmp/f5"
expect_exit 1 "fraction: exit 1" -- trc-experiment --factors "$tmp/f5" -g C=AB "$tmp/g.exp" -- prog
is "$(awk 'NR > 1 { print $1 ":" $2 ":" $3 $4 $5 ":" $6 }' "$tmp/g.exp/runs.tsv" | tr '\n' ' ')" \
	"1:1:-1-1+1:0 2:2:+1-1-1:2 3:3:-1+1-1:0 4:4:+1+1+1:0 5:0:-1-1-1:0 " "  run 5 without delay added"
is "$(cat "$tmp/g.exp/run-5.delay")" "" "  its delay: none"
is "$(grep '^verdict\|^# 1 run' "$out")" "# 1 run without delay, outside the design: repeats of the baseline
verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ" "  its verdict"

# The fragment in a user's makefile: two experiments, the default goal
# kept (the include comes first), verdicts printed.
mkdir "$tmp/u" "$tmp/u/a.exp" "$tmp/u/b.exp"
cp "$tmp/factors" "$tmp/u/a.exp/factors"
cp "$tmp/f3" "$tmp/u/b.exp/factors"
echo prog >"$tmp/u/a.exp/command"
echo prog >"$tmp/u/b.exp/command"
cat >"$tmp/u/Makefile" <<X
EXP_DIRS = a.exp b.exp/
include $mk
all: a.exp/verdict b.exp/verdict
	@echo all done
X
expect_exit 0 "user makefile: make -j2" -- make -s -C "$tmp/u" -j2
is "$(grep ': verdict\|^all' "$out" | sort)" \
"a.exp: verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ
all done
b.exp: verdict: stable under every perturbation" "  both verdicts, then the default goal"
grep -q '^	A	2	sendA$' "$out"; ok $? "  a.exp's changed run"
expect_exit 0 "  a second make" -- make -s -C "$tmp/u" a.exp/effects
is "$(cat "$out")" "" "  has nothing to do"

# An experiment not set up yet leaves the makefile's other targets be.
printf 'EXP_DIRS = none.exp\ninclude %s\nall:\n\t@echo all done\n' "$mk" >"$tmp/u/Makefile2"
expect_exit 0 "user makefile, no experiment yet" -- make -s -C "$tmp/u" -f Makefile2
is "$(cat "$out")" "all done" "  its default goal"
expect_exit 2 "  its experiment" -- make -s -C "$tmp/u" -f Makefile2 none.exp/verdict
is "$(cat "$err")" "make: *** No rule to make target 'none.exp/factors', needed by 'none.exp/design.tsv'.  Stop." \
	"  says what is missing"

# Included with EXP_DIRS empty, as in trc's Makefile, it defines no
# target at all.
expect_exit 2 "no EXP_DIRS: no target" -- make -f "$mk"
is "$(cat "$err")" "make: *** No targets.  Stop." "  make says so"

# Letters as getopts takes them, long options with = or apart.
: >"$tmp/log"
expect_exit 1 "--factors=, -j2, --replications=, -s7" -- trc-experiment \
    --factors="$tmp/factors" -j2 --replications=2 -s7 "$tmp/forms.exp" -- prog
is "$(cat "$tmp/forms.exp/design")" "--replications 2 -s 7" "  the design options kept"
is_file "$tmp/forms.exp/factors" "$tmp/factors" "  the factors kept"
is "$(wc -l <"$tmp/log" | tr -d ' ')" 9 "  the baseline and 2 x 4 runs"

# Errors.
expect_exit 2 "no directory" -- trc-experiment
is "$(cat "$err")" "$(trc-experiment -h | head -1)" "  usage"
expect_exit 2 "--factors without its argument" -- trc-experiment --factors
is "$(cat "$err")" "$(trc-experiment -h | head -1)" "  usage"
expect_exit 2 "an unknown long option" -- trc-experiment --nosuch "$e"
is "$(cat "$err")" "trc-experiment: invalid option '--nosuch'
$(trc-experiment -h | head -1)" "  named, with the usage"
expect_exit 2 "no factors" -- trc-experiment "$tmp/n.exp" -- prog
is "$(cat "$err")" "trc-experiment: $tmp/n.exp/factors: no such file; give --factors factors" "  its message"
expect_exit 2 "bad jobs" -- trc-experiment -j 0 "$e"
is "$(cat "$err")" "trc-experiment: invalid jobs '0'" "  its message"
expect_exit 2 "not -- after the directory" -- trc-experiment "$e" prog
printf 'A call=send\n' >"$tmp/bad"
expect_exit 2 "bad factor file" -- trc-experiment --factors "$tmp/bad" "$tmp/n.exp"
is "$(cat "$err")" "trc-design: $tmp/bad:1: missing delay=" "  trc-design's message"
echo 'A call=send delay=1' >"$tmp/f1"
expect_exit 2 "bad generator" -- trc-experiment --factors "$tmp/f1" -g B=A "$tmp/n.exp"
[ -f "$tmp/n.exp/design" ]; ok $((!$?)) "  is not kept"
printf '%s\n' '-np 3 false' >"$tmp/n.exp/command"
EXP_RECORD=false
expect_exit 2 "a run that fails" -- trc-experiment --factors "$tmp/factors" "$tmp/n.exp"
grep -q "^$tmp/n.exp/[a-z0-9-]*.trc: the run failed (exit 1), see $tmp/n.exp/[a-z0-9-]*.out$" "$err"
ok $? "  says which"
is "$(tail -1 "$err")" "trc-experiment: $tmp/n.exp: the experiment did not finish" "  and fails"

done_testing
