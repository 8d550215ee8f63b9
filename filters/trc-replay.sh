#!/bin/sh
# trc-replay - run one rank of an MPI program alone, its receives and
# collectives served from the message log of a full run (TRC_LOG), and
# trace it as trc-record does: its computation is measured on the
# machine the replay runs on (PHANTOM's single-node replay).

usage="usage: trc-replay [-l library] [-o file] [-r rank] --log logdir -- program [argument ...]"
prog=trc-replay

die() {
	echo "$prog: $*" >&2
	exit 2
}

bad_usage() {
	[ -n "$1" ] && echo "$prog: $1" >&2
	echo "$usage" >&2
	exit 2
}

out=replay.trc lib=${TRC_LIB:-} rank=0 logdir=
case $1 in
-h|--help) echo "$usage" || die "<stdout>: write error"; exit 0 ;;
--version) echo "trc-replay 0.1"; exit 0 ;;
esac
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	--log=*) opt=--log arg=${1#*=} ;;
	--log|-[lor])
		[ $# -ge 2 ] || bad_usage
		opt=$1 arg=$2
		shift ;;
	-[lor]?*) arg=${1#-?} opt=${1%"$arg"} ;;
	-?*) bad_usage "invalid option '$1'" ;;
	*) break ;;
	esac
	shift
	case $opt in
	--log) logdir=$arg ;;
	-l) lib=$arg ;;
	-o) out=$arg ;;
	-r) rank=$arg ;;
	esac
done
[ $# -gt 0 ] || bad_usage
[ -n "$logdir" ] || bad_usage "--log logdir is required"
case $rank in
''|*[!0-9]*) bad_usage "-r: '$rank' is not a rank" ;;
esac
log=$logdir/rank.$rank.log
[ -f "$log" ] || die "$log: no message log for rank $rank (run with TRC_LOG=$rank)"

# The libraries: -l, TRC_LIB, next to an installed bin/, or in the build
# tree; libtrc-unreplayable.so lies beside libtrc-mpi.so.
if [ -z "$lib" ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	for l in "$here/../lib/trc/libtrc-mpi.so" "$here/../build/libtrc-mpi.so"; do
		[ -f "$l" ] && { lib=$l; break; }
	done
fi
[ -n "$lib" ] && [ -f "$lib" ] || die "libtrc-mpi.so not found; give -l library"
case $lib in /*) ;; *) lib=$PWD/$lib ;; esac
stub=$(dirname "$lib")/libtrc-unreplayable.so
[ -f "$stub" ] || die "$stub not found"
case $out in /*) ;; *) out=$PWD/$out ;; esac
case $log in /*) ;; *) log=$PWD/$log ;; esac
( : >"$out" ) 2>/dev/null || die "$out: cannot write"
rm -f "$out"

# One process, no mpirun: MPI_Init makes a singleton, and libtrc-mpi
# answers for the rest of the run (msglog.c).
TRC_REPLAY=$log TRC_OUT=$out LD_PRELOAD="${TRC_PRELOAD:+$TRC_PRELOAD }$lib $stub" \
	TRC_LOG= TRC_DELAY= "$@"
status=$?
if [ "$status" -ne 0 ]; then
	# A replay that stopped (a divergence says why) leaves no trace:
	# only the placeholder and the rank file would be there.
	if [ -f "$out" ]; then
		dir=$(sed -n 's/^# events are in \(.*\); trc-record merges.*/\1/p' "$out")
		[ -n "$dir" ] && [ -d "$dir" ] && rm -rf "$dir"
		rm -f "$out"
	fi
	exit "$status"
fi
[ -f "$out" ] || die "no trace written to $out"
exit 0
