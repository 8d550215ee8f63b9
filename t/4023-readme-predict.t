#!/bin/sh
# The README's "Predict your own program", run as it is written there
# (the commands are read from the README, not copied here) on
# t/mpi/cg.c: the prediction of the target's run is within 10% of the
# observed run, the median of five.  On a shared host the runs may be
# disturbed; then the commands' --strict stops them with exit 2, or the
# observed run itself looks disturbed (trc-scale --strict judges it as
# it would a base), and the attempt is made again, TRC_TEST_ATTEMPTS
# times in all (8); when every attempt was disturbed the error is not
# judged (a skip, said).  The fits are judged too: trc-pingpong writes
# each rank's CPU time against its wall time, and trc-fit --strict
# refuses measurements a rank made off its CPU.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
command -v mpicc >/dev/null || skip_all "no mpicc"

# The section's indented lines, 4 blanks off, as one script.
awk '
	/^-+$/ { if (prev == "Predict your own program") f = 1; else if (f) exit; next }
	{ prev = $0 }
	f && /^    / { print substr($0, 5) }
' "$T/../README" >"$tmp/readme.sh"
grep -q 'trc-sum --vs target.trc predicted.trc' "$tmp/readme.sh"
ok $? "the README's commands, read from it ($(wc -l <"$tmp/readme.sh" | tr -d ' ') lines)"
sed 's/^/#   /' "$tmp/readme.sh"

# Five judged runs (TRC_TEST_RUNS), their median error: a single
# observed run moves from one run to the next (on a quiet host +1.4 to
# +7.7% with these commands; -29.7 to +22.7% with the old ones; -14.3
# to +6.3% on 2026-11-28).  Under the sanitizers, whose error is not
# judged (below), one run shows that the commands run.
runs=${TRC_TEST_RUNS:-5} attempts=${TRC_TEST_ATTEMPTS:-8}
[ -z "$TRC_SANITIZE" ] || runs=${TRC_TEST_RUNS:-1}
k=1 n=0 rcs= want=
: >"$tmp/errors"
while [ $k -le "$attempts" ] && [ $n -lt "$runs" ]; do
	d=$tmp/run$k
	mkdir "$d" && cp "$T/mpi/cg.c" "$d/cg.c"
	(cd "$d" && sh -e "$tmp/readme.sh") >"$out" 2>"$err"
	rc=$?
	echo "# attempt $k: exit $rc, load $(cut -d' ' -f1-3 /proc/loadavg)"
	sed -n 's/^/#   /; /error\|warning\|predicted:\|observed:/p' "$out" "$err" | head -12
	k=$((k + 1))
	if [ $rc -eq 2 ] && grep -q '(--strict)$' "$err"; then
		continue
	fi
	if [ $rc -eq 0 ] && ! trc-scale --strict --cpu-ratio 1 "$d/target.trc" >/dev/null 2>"$d/observed.err"; then
		sed -n 's/^/#   observed: /p' "$d/observed.err" | head -2
		continue
	fi
	n=$((n + 1)) rcs="$rcs$rc" want="${want}0"
	sed -n 's/^total time, first to last event: .* error \([-+][0-9.]*\)%$/\1/p' "$out" >>"$tmp/errors"
done
if [ $n -eq 0 ]; then
	ok 0 "every attempt was disturbed, the error not judged # SKIP $attempts attempts at load $(cut -d' ' -f1 /proc/loadavg)"
else
	is "$rcs" "$want" "the commands ran, exit 0, $n times"
	e=$(sort -g "$tmp/errors" | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
	# Under the sanitizers the tracer preloaded into cg is the ASan
	# build, whose cost inside every MPI call moves the ratios: the
	# commands are checked to run, the error is judged in the plain pass.
	if [ -n "$TRC_SANITIZE" ]; then
		ok 0 "the prediction's median error, ${e:-?}%, not judged # SKIP the ASan tracer's own cost"
		done_testing
		exit
	fi
	# Measured: with the reduced problem a halved grid (n = 200, 500
	# iterations), on 2026-11-23's host +1.4, +4.3 and +7.7%, but on
	# 2026-11-28's -14.0%, -10.2% and -14.2%: its arrays fit a cache
	# the full problem's do not (a ratio of 4.00 against the full
	# run's 3.76).  With the same grid, 100 iterations and --warmup
	# 0.125 (3.75), under chrt -f 50 on 2026-11-28 at load 3.6 (other
	# jobs kept off the two cores): -1.0, +7.0 and +2.4%, median
	# +2.4%.  Later that day, no chrt, with the cold collectives and
	# the warm-up rows (before them, the same hour: -11.0%, -10.8%):
	# +3.2, -0.6, -6.8, -6.5, -5.7, -10.1, -6.5, -8.0, -4.1%, 8 of 9
	# within 10%.  Medians of three since: +1.4, -3.3, -6.8 and -1.4%
	# (single runs -14.3 to +6.3%).
	awk -v e="$e" 'BEGIN { exit !(e != "" && e >= -10 && e <= 10) }'
	ok $? "the prediction's median error over $n runs, ${e:-?}% ($(tr '\n' ' ' <"$tmp/errors")), is within 10%"
fi
done_testing
