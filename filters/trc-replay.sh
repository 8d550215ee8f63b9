#!/bin/sh
# trc-replay - run one rank of an MPI program alone, its receives and
# collectives served from the message log of a full run (TRC_LOG), and
# trace it as trc-record does: its computation is measured on the
# machine the replay runs on (PHANTOM's single-node replay), alone or
# beside replays of other ranks that load the node as a full run did.

usage="usage: trc-replay [-l library] [-o file] [-r rank] [--alongside ranks] [--yield] --log logdir -- program [argument ...]"
prog=trc-replay
# A line per option, from the man page: the build puts them in place
# of the #@HELP@ line (man/help.sh).
help=$(cat <<'EOF'
#@HELP@
EOF
)
help=${help#\#@HELP@}

die() {
	echo "$prog: $*" >&2
	exit 2
}

bad_usage() {
	[ -n "$1" ] && echo "$prog: $1" >&2
	echo "$usage" >&2
	exit 2
}

out=replay.trc lib=${TRC_LIB:-} rank=0 logdir= alongside= yield=
case $1 in
-h|--help)
	{ echo "$usage" && { [ -z "$help" ] || printf 'options:\n%s\n' "$help"; }; } ||
	    die "<stdout>: write error"
	exit 0 ;;
--version) echo "trc-replay 0.1"; exit 0 ;;
esac
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	--yield) yield=1; shift; continue ;;
	--log=*|--alongside=*) opt=${1%%=*} arg=${1#*=} ;;
	--log|--alongside|-[lor])
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
	--alongside) alongside=$arg ;;
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
case $alongside in
*[!0-9,]*|,*|*,|*,,*) bad_usage "--alongside: '$alongside' is not a list of ranks" ;;
esac
alongside=$(echo "$alongside" | tr , ' ')
for a in $alongside; do
	[ -f "$logdir/rank.$a.log" ] ||
	    die "$logdir/rank.$a.log: no message log for rank $a (run with TRC_LOG=$a)"
done

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
case $logdir in /*) ;; *) logdir=$PWD/$logdir ;; esac
( : >"$out" ) 2>/dev/null || die "$out: cannot write"
rm -f "$out"

# One process, no mpirun: MPI_Init makes a singleton, and libtrc-mpi
# answers for the rest of the run (msglog.c).
preload="${TRC_PRELOAD:+$TRC_PRELOAD }$lib $stub"

# The ranks alongside: each replayed over and over, from its log, into
# a scratch trace, until the traced replay ends, so that the node is
# loaded throughout (PHANTOM replays a node's worth of processes at
# once: they share its cores, caches and memory bandwidth as the full
# run's did).  Their output goes nowhere.  Each completes one pass at
# least, however soon the traced replay ends, so that a log it cannot
# replay is always found; a failure is kept to report.  Each is an
# isolated singleton in a TMPDIR of its own: an Open MPI singleton makes
# its session directory in TMPDIR, and singletons started together in
# one race to make it ("A call to mkdir was unable to create the
# desired directory ... File exists": two runs of t/4025 in six under
# the sanitizers); one that forks its orted, as a singleton does, also
# leaves that daemon writing in the scratch after the companion is
# stopped, where an isolated one keeps its session to itself.
# shellcheck disable=SC2317
companion() { # N RANK PROGRAM...
	n=$1 a=$2
	shift 2
	trap 'kill $child 2>/dev/null; wait $child 2>/dev/null; exit 0' TERM
	while :; do
		rm -rf "$scratch/$n"
		mkdir "$scratch/$n"
		# A simple command, so that $! is the program's own pid.
		TRC_REPLAY=$logdir/rank.$a.log TRC_OUT=$scratch/$n/replay.trc \
		    TRC_REPLAY_YIELD=$yield TMPDIR=$scratch/$n OMPI_MCA_ess_singleton_isolated=1 \
		    LD_PRELOAD=$preload TRC_LOG= TRC_DELAY= \
		    "$@" >/dev/null 2>"$scratch/$n/err" </dev/null &
		child=$!
		wait "$child" || { echo "$a" >"$scratch/$n.failed"; exit 0; }
		: >"$scratch/$n.passed"
		[ ! -e "$scratch/stop" ] || break
	done
}

pids=
if [ -n "$alongside" ]; then
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/trc-replay.XXXXXX") ||
	    die "cannot make a scratch directory"
	trap 'kill $pids 2>/dev/null; rm -rf "$scratch"; exit 2' INT TERM HUP
	n=0
	for a in $alongside; do
		n=$((n + 1))
		companion "$n" "$a" "$@" &
		pids="$pids $!"
	done
fi
TRC_REPLAY=$log TRC_OUT=$out TRC_REPLAY_YIELD=$yield LD_PRELOAD=$preload \
    TRC_LOG= TRC_DELAY= "$@"
status=$?
if [ -n "$pids" ]; then
	# Stop those that made a pass; the others end theirs first.
	: >"$scratch/stop"
	n=0
	for p in $pids; do
		n=$((n + 1))
		[ -e "$scratch/$n.passed" ] && kill "$p" 2>/dev/null
	done
	# shellcheck disable=SC2086
	wait $pids 2>/dev/null
	for f in "$scratch"/*.failed; do
		[ -f "$f" ] || continue
		echo "$prog: rank $(cat "$f") alongside failed:" >&2
		sed 's/^/  /' "${f%.failed}/err" >&2
		status=2
		break
	done
	rm -rf "$scratch"
fi
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
