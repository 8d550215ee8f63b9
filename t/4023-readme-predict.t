#!/bin/sh
# The README's "Predict your own program", run as it is written there
# (the commands are read from the README, not copied here) on
# t/mpi/cg.c: the prediction of the target's run is within 10% of the
# observed run.  On a shared host the runs may be disturbed; then the
# commands' --strict stops them with exit 2, and the attempt is made
# again, TRC_TEST_ATTEMPTS times in all (1); when every attempt was
# disturbed the error is not judged (a skip, said).
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

attempts=${TRC_TEST_ATTEMPTS:-1}
k=1 judged=
while [ $k -le "$attempts" ] && [ -z "$judged" ]; do
	d=$tmp/run$k
	mkdir "$d" && cp "$T/mpi/cg.c" "$d/cg.c"
	(cd "$d" && sh -e "$tmp/readme.sh") >"$out" 2>"$err"
	rc=$?
	echo "# attempt $k: exit $rc, load $(cut -d' ' -f1-3 /proc/loadavg)"
	sed -n 's/^/#   /; /error\|warning\|predicted:\|observed:/p' "$out" "$err" | head -12
	if [ $rc -eq 2 ] && grep -q '(--strict)$' "$err"; then
		k=$((k + 1))
		continue
	fi
	judged=$rc
done
if [ -z "$judged" ]; then
	ok 0 "every attempt was disturbed, the error not judged # SKIP $attempts attempts at load $(cut -d' ' -f1 /proc/loadavg)"
else
	is "$judged" 0 "the commands ran, exit 0"
	e=$(sed -n 's/^total time, first to last event: .* error \([-+][0-9.]*\)%$/\1/p' "$out")
	awk -v e="$e" 'BEGIN { exit !(e != "" && e >= -10 && e <= 10) }'
	ok $? "the prediction's error ${e:-?}% is within 10%"
fi
done_testing
