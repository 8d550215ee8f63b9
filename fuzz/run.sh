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
# of an anchor it could not read (fuzz/lsan.supp).  Memory is judged
# by what is touched (-rss_limit_mb), not by one allocation's size:
# the summary's arrays by rank are allocated up to the largest rank
# and touched only for the ranks present (rank 20000000 alone: 3.7 GB
# asked, 23 MB used; fuzz/regress/stream/rank-20000000), as
# lib/trc_summary.h says.  otf2raw keeps libFuzzer's limit: libotf2's
# leaks of broken archives pile up; so does otf2, libotf2 in the path
# of its archives too, and an allocation past 2 GB from a program of
# a few kilobytes trc's to answer.
# An allocation past what the host has returns NULL, as a release
# malloc does, and the reader says "out of memory" (rank 200000000:
# 30 GB asked); libotf2 does not check its mallocs.
mlimit=
case $t in
otf2|otf2raw) ;;
*)
	mlimit=-malloc_limit_mb=1048576
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1
	export ASAN_OPTIONS
	;;
esac
# The targets' files (fuzz_path) in memory when TMPDIR does not say
# otherwise: otf2 writes and reads an archive of several files an input,
# 4 ms each in /tmp on a loaded host's disk, 0.5 ms in /dev/shm.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi
LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0 \
"$dir/bin/$t" -max_total_time="$secs" -timeout=120 -rss_limit_mb=2048 $mlimit \
    -max_len=16384 -print_final_stats=1 $dict \
    -artifact_prefix="$dir/crash/$t/" ${FUZZ_ARGS:-} \
    "$dir/corpus/$t" fuzz/corpus/$t fuzz/regress/$t \
    </dev/null >"$dir/log/$t.log" 2>&1
rc=$?
tail -3 "$dir/log/$t.log" | grep -a '^#\|ERROR\|SUMMARY' | sed "s/^/$t: /"
exit $rc
