#!/bin/sh
# The fuzz targets (fuzz/, trc(7) FUZZING), built without libFuzzer,
# replay every seed of fuzz/corpus/NAME and every input a fuzzer found
# (fuzz/regress/NAME): none may crash, hang or, under test-sanitize,
# trip ASan or UBSan.  A target aborts on what it checks (an event read
# that does not write back as itself, an output that is not a stream).
. "$(dirname "$0")/lib.sh"
: "${TRC_BUILD:=$T/../build}"
src=$T/../fuzz
[ -d "$src" ] || skip_all "no fuzz/"
# libotf2 leaks what it made of an archive it could not read.
LSAN_OPTIONS=suppressions=$src/lsan.supp:print_suppressions=0
export LSAN_OPTIONS
for c in "$src"/*.c; do
	t=$(basename "$c" .c)
	case $t in common|replay) continue ;; esac
	prog=$TRC_BUILD/fuzz/$t.replay
	if [ ! -x "$prog" ]; then
		ok 1 "$t: $prog built"
		continue
	fi
	dirs=
	for d in "$src/corpus/$t" "$src/regress/$t"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	n=$(ls $dirs 2>/dev/null | grep -vc ':$\|^$')
	# Under ASan an allocation past the host returns NULL, as a release
	# malloc does (fuzz/run.sh): libotf2 alone does not check its own.
	asan=${ASAN_OPTIONS:-}
	case $t in
	otf2|otf2raw) ;;
	*) asan=${asan:+$asan:}allocator_may_return_null=1 ;;
	esac
	# shellcheck disable=SC2086
	expect_exit 0 "$t: $n inputs replay" -- env ASAN_OPTIONS="$asan" timeout 120 "$prog" $dirs
	[ "$n" -gt 0 ]
	ok $? "$t: has seeds"
done
done_testing
