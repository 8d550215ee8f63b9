#!/bin/sh
# trc-experiment - a time perturbation experiment in a directory: the
# baseline and every run of a factorial design traced under mpirun (or
# perturbed offline by trc-perturb), each compared with the baseline,
# then the effects and the verdict.  make does the work, through
# experiment.mk, so that a rerun does only what is missing.

usage="usage: trc-experiment [-b trace] [-g generator] [-j jobs] [-s seed] [-T seconds] [--factors factors] [--force] [--keep keep] [--offline] [--replications replications] directory [-- mpirun-argument ...]"
prog=trc-experiment
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

# put FILE: the standard input becomes FILE, which keeps its time
# when its content is the same, so that make redoes nothing for it.
put() {
	cat >"$1.tmp" || die "$1: cannot write"
	if cmp -s "$1.tmp" "$1"; then
		rm -f "$1.tmp"
	else
		mv -f "$1.tmp" "$1" || die "$1: cannot write"
	fi
}

# quote ARG...: the arguments as shell words.
quote() {
	for a; do
		printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
	done
}

case $1 in
-h|--help)
	{ echo "$usage" && { [ -z "$help" ] || printf 'options:\n%s\n' "$help"; }; } ||
	    die "<stdout>: write error"
	exit 0 ;;
--version) echo "trc-experiment 0.1"; exit 0 ;;
esac
offline= base= factors= jobs=1 design= newdesign= force= keep=diff limit=
# Letters as getopts takes them (-j 2, -j2), long options as --name
# value or --name=value, up to -- or the first operand.
while [ $# -gt 0 ]; do
	arg=
	case $1 in
	--) shift; break ;;
	--offline|--force) opt=$1 ;;
	--factors=*|--keep=*|--replications=*) opt=${1%%=*} arg=${1#*=} ;;
	--factors|--keep|--replications|-[bgjsT])
		[ $# -ge 2 ] || bad_usage
		opt=$1 arg=$2
		shift ;;
	-[bgjsT]?*) arg=${1#-?} opt=${1%"$arg"} ;;
	-?*) bad_usage "invalid option '$1'" ;;
	*) break ;;
	esac
	shift
	case $opt in
	-b) base=$arg ;;
	--factors) factors=$arg ;;
	--force) force=1 ;;
	--keep) keep=$arg ;;
	-g) design="$design -g $arg"; newdesign=1 ;;
	-j) jobs=$arg ;;
	--offline) offline=1 ;;
	--replications) design="$design --replications $arg"; newdesign=1 ;;
	-s) design="$design -s $arg"; newdesign=1 ;;
	-T) limit=$arg ;;
	esac
done
[ $# -ge 1 ] || bad_usage
dir=${1%/}
shift
if [ $# -gt 0 ]; then
	[ "$1" = -- ] || bad_usage
	shift
fi
case $jobs in
''|*[!0-9]*|0*) die "invalid jobs '$jobs'" ;;
esac
case $keep in
none|diff|all) ;;
*) die "invalid keep '$keep' (want none, diff or all)" ;;
esac
case $limit in
*[!0-9]*|0*) die "-T: '$limit' is not a whole number of seconds, at least 1" ;;
esac
case $dir in
''|*[[:space:]]*|*[:#=\$]*) die "invalid directory '$dir'" ;;
esac

# The toolkit's programs and the fragment: next to this script, as
# installed or in the build tree, before anything else on PATH.
here=$(cd "$(dirname "$0")" && pwd)
PATH=$here:$PATH
export PATH
mk=${TRC_EXPERIMENT_MK:-}
if [ -z "$mk" ]; then
	for m in "$here/../share/trc/experiment.mk" \
	    "$here/../perturb/experiment.mk" \
	    "$here/../../../perturb/experiment.mk"; do
		[ -f "$m" ] && { mk=$m; break; }
	done
fi
[ -n "$mk" ] && [ -f "$mk" ] || die "experiment.mk not found; set TRC_EXPERIMENT_MK"

mkdir -p "$dir" || die "$dir: cannot make the directory"
if [ -n "$factors" ]; then
	[ -f "$factors" ] && [ -r "$factors" ] || die "$factors: cannot read"
	trc-design "$factors" >/dev/null || exit 2
	put "$dir/factors" <"$factors"
fi
[ -f "$dir/factors" ] || die "$dir/factors: no such file; give --factors factors"
if [ -n "$newdesign" ]; then
	trc-design $design "$dir/factors" >/dev/null || exit 2
	printf '%s\n' "${design# }" | put "$dir/design"
fi
[ $# -gt 0 ] && printf '%s\n' "$(quote "$@")" | put "$dir/command"
if [ -n "$base" ]; then
	[ -f "$base" ] && [ -r "$base" ] || die "$base: cannot read"
	put "$dir/base.trc" <"$base"
	# The given trace is the baseline, whatever the command.
	[ "$dir/command" -nt "$dir/base.trc" ] && touch "$dir/base.trc"
elif [ ! -f "$dir/command" ]; then
	die "$dir/command: no such file; give the mpirun arguments"
fi

goal=$dir/effects
[ -n "$offline" ] && goal=$dir/offline-effects
# Variables on the command line reach make's rules as they are.
${MAKE:-make} --no-print-directory -j "$jobs" -f "$mk" EXP_DIRS="$dir" \
    EXP_KEEP="$keep" EXP_LIMIT="$limit" EXP_FORCE="$force" "$goal" >&2 ||
	die "$dir: the experiment did not finish"
cat "$goal" || exit 2
grep -q '^verdict: stable' "$goal" && exit 0
grep -q '^verdict: unstable' "$goal" && exit 1
die "$goal: no verdict"
