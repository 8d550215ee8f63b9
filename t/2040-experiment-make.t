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
# FAKE_FIRED=N writes "#delay fired=N spec" for each spec, as the
# tracer does; FAKE_HANG, a case pattern of output files, a partial
# trace stopped by the time limit (-T), as trc-record leaves it.
cat >"$tmp/fake" <<'X'
#!/bin/sh
start=$(date +%s.%N)
out=/dev/stdout d= lim=
while getopts d:o:T: o; do
	case $o in
	d) d=$OPTARG ;;
	o) out=$OPTARG ;;
	T) lim=$OPTARG ;;
	esac
done
echo "${lim:+-T $lim }${d:-none}" >>"$FAKE_LOG.args"
eval "case \$out in ${FAKE_HANG:-/}) hang=1 ;; esac"
if [ -n "$hang" ]; then
	{
		echo "#trc-partial 1 ranks=3"
		echo "# trc-record: its time limit (-T $lim) stopped it"
		echo "0.000000000 0 RB peer=* tag=7 bytes=8"
		echo "# truncated"
	} >"$out"
	echo "$start $(date +%s.%N) ${out##*/}" >>"$FAKE_LOG"
	exit 2
fi
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
	[ -n "$FAKE_FIRED" ] && [ -n "$d" ] &&
		printf '%s\n' "$d" | tr ';' '\n' | sed "s/^/#delay fired=$FAKE_FIRED /"
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
[ -n "$FAKE_UNTRACED" ] && echo "trc-record: calls not traced, so in no event and never delayed: $FAKE_UNTRACED" >&2
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
run|std|A|B|distance|time|choice|fired|limit
1|1|-1|-1|0|2.000000000|-|-|0
2|2|+1|-1|2|3.000000000|0:recv:$e/base.trc:2|?|0
3|3|-1|+1|0|4.000000000|-|?|0
4|4|+1|+1|0|4.000000000|-|?|0
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
rm "$e/run-2.trc" "$e/run-2.res"
trc-experiment "$e" >/dev/null 2>&1
is "$(cut -d' ' -f3 "$tmp/log")" "run-2.trc.tmp" "a removed run alone is made again"

# Two replications: only runs 5 to 8 are new.
: >"$tmp/log"
trc-experiment --replications 2 "$e" >/dev/null 2>&1
is "$(cut -d' ' -f3 "$tmp/log" | sort | tr '\n' ' ')" \
	"run-5.trc.tmp run-6.trc.tmp run-7.trc.tmp run-8.trc.tmp " "--replications 2 runs only the new replication"
is "$(cat "$e/design")" "--replications 2" "  kept in design"
is "$(awk 'NR > 1 { print $(NF - 4) }' "$e/runs.tsv" | tr '\n' ' ')" "0 2 0 0 0 2 0 0 " "  distances of 8 runs"
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
is "$(awk 'NR > 1 { print $(NF - 4) }' "$tmp/o.exp/offline.tsv" | tr '\n' ' ')" "0 2 0 0 " "  offline distances"
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
rm "$tmp/i.exp"/run-[57].trc "$tmp/i.exp"/run-[57].res
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

# Factors checked against the baseline before any run (trc-perturb
# --check): the fake's baseline has one send on rank 1 and one on rank
# 2, two wildcard receives on rank 0, no isend, ranks 0 to 2 (regions
# and the rest by hand in t/2055).
EXP_RECORD="$tmp/fake"
check_stops() { # NAME FACTOR-LINE WHY
	printf '%s\n' "$2" >"$tmp/fc"
	rm -rf "$tmp/c.exp"
	: >"$tmp/log"
	expect_exit 2 "$1: stops" -- trc-experiment --factors "$tmp/fc" "$tmp/c.exp" -- prog
	is "$(grep '^trc-perturb' "$err")" "trc-perturb: $tmp/c.exp/factors:1: factor x never fires in $tmp/c.exp/base.trc: $3" "  why"
	grep -q "^$tmp/c.exp: a factor never fires in the baseline: no run made (trc-experiment --force makes them)$" "$err"
	ok $? "  no run made"
	is "$(cut -d' ' -f3 "$tmp/log" | tr '\n' ' ')" "base.trc.tmp " "  only the baseline ran"
}
check_stops "an unused call" "x call=isend delay=1" "no call isend on any rank in the trace"
check_stops "a rank out of range" "x call=send ranks=7 delay=1" "rank 7 not in the trace, which has ranks 0-2"
check_stops "occurrences beyond the calls" "x call=recv ranks=0 occ=3-4 delay=1" "occ=3-4, but a rank makes at most 2 matching calls"
expect_exit 0 "  --force runs them all the same" -- trc-experiment --force "$tmp/c.exp"
is "$(wc -l <"$tmp/log" | tr -d ' ')" 3 "  the two runs made"
printf 'x call=send ranks=1-7 delay=2\n' >"$tmp/fc"
expect_exit 0 "a rank range partly out of range: runs" -- trc-experiment --factors "$tmp/fc" "$tmp/c2.exp" -- prog
is "$(grep '^trc-perturb' "$err")" "trc-perturb: $tmp/c2.exp/factors:1: factor x fires only in part in $tmp/c2.exp/base.trc: ranks 3-7 not in the trace, which has ranks 0-2" "  with a warning"
is "$(cat "$tmp/c2.exp/factors.check")" "$(printf 'factor\tcalls\tfired\tspec\nx\t2\t2\tcall=send,ranks=1-7,delay=2')" \
	"  the check: two sends on ranks 1 to 7, two delays"
printf 'x call=sned delay=1\n' >"$tmp/fc"
expect_exit 2 "a typo'd call" -- trc-experiment --factors "$tmp/fc" "$tmp/c3.exp" -- prog
is "$(head -1 "$err")" "trc-design: $tmp/fc:1: unknown call 'sned' (did you mean send? libtrc-mpi(7) lists the calls)" "  refused, with the nearest names"
[ -e "$tmp/c3.exp/base.trc" ]; ok $((!$?)) "  before the baseline"

# How often each factor fired, from the traces' #delay lines: when a
# factor made no delay in any of its runs, its runs tested nothing and
# "stable" is refused unless forced; it is shown with 0.
: >"$tmp/log"
FAKE_FIRED=0 expect_exit 2 "a factor that never fired: no stable verdict" -- \
	trc-experiment --factors "$tmp/f3" "$tmp/z.exp" -- prog
is "$(grep '^trc-effects' "$err")" "trc-effects: $tmp/z.exp/runs.tsv: factor A (late2) made no delay in its runs: no verdict of stable rests on it (--force gives one)" \
	"  trc-effects says why"
is "$(awk -F'\t' 'NR > 1 { print $NF - 0 ":" $(NF - 1) }' "$tmp/z.exp/runs.tsv" | tr '\n' ' ')" "0:- 0:0 " "  the fired column: none, 0"
FAKE_FIRED=0 expect_exit 0 "  --force: stable" -- trc-experiment --force "$tmp/z.exp"
is "$(sed -n '/^delays made/,$p' "$out")" "$(printf 'delays made (factor, runs at its high level, delays):\n\tA\t1\t0\tlate2\n\nverdict: stable under every perturbation\nforced: factor A (late2) made no delay')" \
	"  A shown with 0, the verdict forced"
FAKE_FIRED=2 expect_exit 1 "unstable: counts per factor" -- trc-experiment --replications 2 --factors "$tmp/factors" "$tmp/z4.exp" -- prog
is "$(sed -n '/^delays made/,/^$/p' "$out" | sed -n '2,3p')" "$(printf '\tA\t4\t8\tsendA\n\tB\t4\t8\tsendB')" \
	"  each factor high in 4 runs, 2 delays each"
is "$(awk -F'\t' 'NR > 1 { print $(NF - 1) }' "$tmp/z4.exp/runs.tsv" | tr '\n' ' ')" "- 2 2 2,2 - 2 2 2,2 " \
	"  a count per factor high, in letter order"

# What trc-record says of the baseline's untraced calls is passed on.
FAKE_UNTRACED="MPI_Put 3" expect_exit 0 "the baseline's untraced calls" -- \
	trc-experiment --factors "$tmp/f3" "$tmp/u.exp" -- prog
is "$(grep 'not traced' "$err")" "$tmp/u.exp/base.trc: trc-record: calls not traced, so in no event and never delayed: MPI_Put 3" \
	"  named on stderr, once"

# Traces kept: by default the baseline and the runs whose graph
# differs (run 2 of $e); --keep all, every one; --keep none, the
# baseline only.
is "$(cd "$e" && ls *.trc | tr '\n' ' ')" "base.trc run-2.trc run-6.trc " "--keep diff: the baseline and the runs that differ"
for k in all none; do
	trc-experiment --keep $k --factors "$tmp/factors" "$tmp/k$k.exp" -- prog >/dev/null 2>&1
done
is "$(cd "$tmp/kall.exp" && ls *.trc | tr '\n' ' ')" "base.trc run-1.trc run-2.trc run-3.trc run-4.trc " "--keep all"
is "$(cd "$tmp/knone.exp" && ls *.trc | tr '\n' ' ')" "base.trc " "--keep none"
: >"$tmp/log"
expect_exit 1 "  a rerun" -- trc-experiment "$tmp/knone.exp"
is "$(wc -l <"$tmp/log" | tr -d ' ')" 0 "  makes no trace again"
expect_exit 2 "--keep something else" -- trc-experiment --keep some "$tmp/knone.exp"
is "$(cat "$err")" "trc-experiment: invalid keep 'some' (want none, diff or all)" "  its message"

# Offline, a design row's replications are one trace, made once.
: >"$tmp/log"
expect_exit 1 "offline, 2 replications" -- trc-experiment --offline --replications 2 --factors "$tmp/factors" "$tmp/o2.exp" -- prog
is "$(cut -d' ' -f3 "$tmp/log" | sort | tr '\n' ' ')" \
	"base.trc.tmp perturb perturb perturb perturb " "  four offline runs for eight"
is "$(awk 'NR > 1 { print $1 ":" $(NF - 4) }' "$tmp/o2.exp/offline.tsv" | tr '\n' ' ')" "1:0 2:2 3:0 4:0 5:0 6:2 7:0 8:0 " \
	"  every run has its row's responses"

# A time limit: -T reaches the recorder; a run it stops is counted as
# differing, and said so, never stable.
: >"$tmp/log" && : >"$tmp/log.args"
FAKE_HANG='*/run-2.trc.tmp' expect_exit 1 "-T: a run stopped by its time limit" -- \
	trc-experiment -T 5 --factors "$tmp/f3" "$tmp/t.exp" -- prog
is "$(sort "$tmp/log.args" | tr '\n' ' ')" "-T 5 call=send,ranks=2,delay=2 -T 5 none -T 5 none " "  -T 5 given to every run"
grep -q "^$tmp/t.exp/run-2.trc: stopped by its time limit (-T 5)$" "$err"
ok $? "  the run said stopped"
is "$(awk -F'\t' 'NR > 1 { print $1 ":" $(NF - 4) ":" $NF }' "$tmp/t.exp/runs.tsv" | tr '\n' ' ')" "1:0:0 2:9:1 " \
	"  its limit column; its distance, the events it lacks (10 - 1)"
is "$(grep '^runs stopped\|^verdict' "$out")" "runs stopped by their time limit, never stable: 2
verdict: unstable under perturbation: 0 of 1 repeated baseline runs differ" "  reported, the verdict unstable"
FAKE_HANG='*/base.trc.tmp' expect_exit 2 "  a baseline stopped by it fails" -- \
	trc-experiment -T 5 --factors "$tmp/f3" "$tmp/t2.exp" -- prog
expect_exit 2 "-T 0" -- trc-experiment -T 0 "$tmp/t.exp"
is "$(cat "$err")" "trc-experiment: -T: '0' is not a whole number of seconds, at least 1" "  its message"

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
