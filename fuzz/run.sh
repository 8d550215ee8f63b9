#!/bin/sh
# run.sh NAME SECONDS DIR: run the libFuzzer program DIR/bin/NAME for
# SECONDS from the seeds (fuzz/corpus/NAME) and regression inputs
# (fuzz/regress/NAME); new inputs go to DIR/corpus/NAME, crashes,
# leaks and timeouts to DIR/crash/NAME, the log to DIR/log/NAME.log.
# FUZZ_ARGS adds libFuzzer options (-fork=1 -ignore_crashes=1 ...).
# run.sh -summary DIR NAME...: a line per target from its log.
set -u
if [ "$1" = -summary ]; then
	dir=$2
	shift 2
	printf '%-10s %10s %8s %8s %7s %s\n' target execs cov ft crashes log
	bad=0
	for t; do
		log=$dir/log/$t.log
		[ -f "$log" ] || { printf '%-10s (not run)\n' "$t"; continue; }
		# The last status line: "#N ... cov: C ft: F ..."
		last=$(grep -a '^#[0-9]' "$log" | tail -1)
		execs=$(printf '%s\n' "$last" | sed -n 's/^#\([0-9]*\).*/\1/p')
		cov=$(printf '%s\n' "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
		ft=$(printf '%s\n' "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
		n=$(ls "$dir/crash/$t" 2>/dev/null | grep -c '^crash-\|^leak-\|^timeout-\|^oom-')
		[ "$n" -gt 0 ] && bad=1
		printf '%-10s %10s %8s %8s %7s %s\n' "$t" "${execs:--}" \
		    "${cov:--}" "${ft:--}" "$n" "$log"
	done
	[ "$bad" -eq 0 ] || echo "crash inputs in $dir/crash/: copy each to fuzz/regress/NAME/ with its fix"
	exit $bad
fi
t=$1 secs=$2 dir=$3
mkdir -p "$dir/corpus/$t" "$dir/crash/$t" "$dir/log" fuzz/regress/$t
dict=
[ -f "fuzz/dict/$t.dict" ] && dict=-dict=fuzz/dict/$t.dict
echo "fuzz: $t for $secs s, log in $dir/log/$t.log"
# libFuzzer's timeout is wall time: 120 s, so that a target starved
# of CPU (nice, a loaded host) is not taken for one that hangs.
# stdin closed: no reader may wait on it.  libotf2 leaks what it made
# of an anchor it could not read (fuzz/lsan.supp).
LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0 \
"$dir/bin/$t" -max_total_time="$secs" -timeout=120 -rss_limit_mb=2048 \
    -max_len=16384 -print_final_stats=1 $dict \
    -artifact_prefix="$dir/crash/$t/" ${FUZZ_ARGS:-} \
    "$dir/corpus/$t" fuzz/corpus/$t fuzz/regress/$t \
    </dev/null >"$dir/log/$t.log" 2>&1
rc=$?
tail -3 "$dir/log/$t.log" | grep -a '^#\|ERROR\|SUMMARY' | sed "s/^/$t: /"
exit $rc
