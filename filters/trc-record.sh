#!/bin/sh
# trc-record - run an MPI program under mpirun with libtrc-mpi preloaded
# and leave its trace in a file; a run that does not reach MPI_Finalize
# leaves a "#trc-partial" trace built from the rank files, and fails.
# So does a run stopped by a signal to trc-record or by its time limit.

usage="usage: trc-record [-d delay] [-l library] [-o file] [-T seconds] [--bufsize bufsize] [--clock clock] -- mpirun-argument ..."
prog=trc-record
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

out=trace.trc lib=${TRC_LIB:-} bufsize= delay= limit= limit_set= clock=${TRC_CLOCK:-}
case $1 in
-h|--help)
	{ echo "$usage" && { [ -z "$help" ] || printf 'options:\n%s\n' "$help"; }; } ||
	    die "<stdout>: write error"
	exit 0 ;;
--version) echo "trc-record 0.1"; exit 0 ;;
esac
# Letters as getopts takes them (-o file, -ofile), long options as
# --name value or --name=value, up to -- or the first operand.
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	--bufsize=*|--clock=*) opt=${1%%=*} arg=${1#*=} ;;
	--bufsize|--clock|-[dloT])
		[ $# -ge 2 ] || bad_usage
		opt=$1 arg=$2
		shift ;;
	-[dloT]?*) arg=${1#-?} opt=${1%"$arg"} ;;
	-?*) bad_usage "invalid option '$1'" ;;
	*) break ;;
	esac
	shift
	case $opt in
	--bufsize) bufsize=$arg ;;
	--clock) clock=$arg ;;
	-d) delay=$arg ;;
	-l) lib=$arg ;;
	-o) out=$arg ;;
	-T) limit=$arg limit_set=1 ;;
	esac
done
[ $# -gt 0 ] || bad_usage
case $limit_set$limit in
1|1*[!0-9]*) bad_usage "-T: '$limit' is not a whole number of seconds" ;;
10) bad_usage "-T: the limit must be at least 1 second" ;;
esac

# The library: -l, TRC_LIB, next to an installed bin/, or in the build tree.
if [ -z "$lib" ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	for l in "$here/../lib/trc/libtrc-mpi.so" "$here/../build/libtrc-mpi.so"; do
		[ -f "$l" ] && { lib=$l; break; }
	done
fi
[ -n "$lib" ] && [ -f "$lib" ] || die "libtrc-mpi.so not found; give -l library"
case $lib in /*) ;; *) lib=$PWD/$lib ;; esac
case $out in /*) ;; *) out=$PWD/$out ;; esac
( : >"$out" ) 2>/dev/null || die "$out: cannot write"
rm -f "$out"

TRC_OUT=$out TRC_BUFSIZE=$bufsize TRC_DELAY=$delay TRC_FORMAT=${TRC_FORMAT:-} TRC_CLOCK=$clock
export TRC_OUT TRC_BUFSIZE TRC_DELAY TRC_FORMAT TRC_CLOCK
# mpirun runs in the background so that a TERM or INT to trc-record,
# or the time limit, stops it and still leaves the ranks' events
# merged below; it keeps our standard input (a program may read it).
# It runs in a session of its own, so that trc-record alone signals
# it: a second signal (timeout(1) and ^C reach a whole process group)
# makes mpirun kill the ranks before they write what they hold.
# -x also carries the settings to ranks on other hosts.
stopped= expired=$out.expired
rm -f "$expired"
exec 3<&0
setsid ${MPIRUN:-mpirun} -x LD_PRELOAD="${TRC_PRELOAD:+$TRC_PRELOAD }$lib" -x TRC_OUT -x TRC_BUFSIZE -x TRC_DELAY -x TRC_FORMAT -x TRC_CLOCK "$@" 0<&3 3<&- &
run=$!
exec 3<&-
# Only the first signal to trc-record goes on: timeout(1) sends its
# TERM to trc-record and then to its process group, trc-record again,
# and the two, handled one after the other, made the second signal
# above: under timeout(1) beside two busy loops the trap ran twice in
# 5 runs of 20, and those 5 lost every event.
trap '[ -n "$stopped" ] || { stopped=1; kill -TERM $run 2>/dev/null; }' TERM INT HUP
watch=
if [ -n "$limit" ]; then
	# The watchdog marks the expiry before it stops the run, through
	# trc-record's trap ($$ is trc-record), which lets one signal on;
	# sleep runs in the background too, so that it dies with the
	# watchdog.
	( trap 'kill $s 2>/dev/null; exit 0' TERM
	  sleep "$limit" & s=$!; wait $s
	  : >"$expired"; kill -TERM $$ 2>/dev/null ) &
	watch=$!
fi
# wait returns early when a trapped signal arrives: wait again until
# mpirun itself has ended.
while :; do
	wait $run
	status=$?
	kill -0 $run 2>/dev/null || break
done
trap - TERM INT HUP
[ -n "$watch" ] && { kill -TERM $watch 2>/dev/null; wait $watch 2>/dev/null; }
why=
if [ -f "$expired" ]; then
	why="its time limit (-T $limit) stopped it"
	rm -f "$expired"
elif [ -n "$stopped" ]; then
	why="a signal to trc-record stopped it"
fi

# Open MPI refuses root unless told: the newcomer's first wall.
root=
[ "$(id -u)" = 0 ] && [ -z "${OMPI_ALLOW_RUN_AS_ROOT:-}" ] &&
    root="; as root, Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in the environment"
[ -f "$out" ] || die "no trace written to $out (mpirun exit $status)$root"
IFS= read -r first <"$out"
magic=$(printf '\211TRCB')	# TRC_FORMAT=trcb, trc-formats(5)
case $first in
'#trc 1'*|"$magic"*)
	# The calls the tracer counts but does not trace (libtrc-mpi(7)):
	# their time is in no event and no delay reaches them.
	u=$(head -c 1048576 "$out" | tr '\0' '\n' |
	    sed -n 's/^#untraced \(MPI_[A-Za-z_]*\) calls=\([0-9]*\)$/\1 \2/p' |
	    sed -n '1h; 1!H; ${ x; s/\n/, /g; p; }')
	[ -n "$u" ] && echo "$prog: calls not traced, so in no event and never delayed: $u" >&2
	exit $status ;;
'#trc-partial'*) ;;
*) die "$out: not a trace" ;;
esac

# The run did not reach MPI_Finalize: merge what the ranks wrote.
dir=$(sed -n 's/^# events are in \(.*\); trc-record merges.*/\1/p' "$out")
[ -d "$dir" ] || die "$out: partial trace, rank files gone"
tmp=$out.tmp
{
	printf '%s\n' "$first"
	[ -n "$why" ] && echo "# trc-record: $why"
	echo "# trc-record: the run did not reach MPI_Finalize (mpirun exit $status); events up to each rank's end:"
	for f in "$dir"/rank.*; do
		r=${f##*.}
		if m=$(grep '^# truncated' "$f"); then
			echo "# rank $r: ${m#\# }"
		else
			echo "# rank $r: killed without a mark"
		fi
	done
	for f in "$dir"/rank.*; do
		grep -v '^#' "$f" >"$f.ev"
	done
	sort -m -s -n -k1,1 "$dir"/rank.*.ev
	echo "# truncated"
} >"$tmp" && mv "$tmp" "$out" || die "$out: cannot write"
rm -rf "$dir"
echo "$prog: the run did not finish${why:+ ($why)}; partial trace in $out" >&2
[ -n "$why" ] && exit 2
[ "$status" -ne 0 ] && exit "$status"
exit 2
