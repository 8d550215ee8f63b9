# t/lib.sh - TAP helpers for the shell tests; source it first.
#
#	ok COND-STATUS NAME	is GOT WANT NAME
#	expect_exit CODE NAME -- CMD...	(stdout to $out, stderr to $err)
#	skip REASON		skip_all REASON		done_testing
#	stalled FILE CMD...	await_name DIR PATTERN

: "${TRC_BIN:=$(cd "$(dirname "$0")/.." && pwd)/bin}"
PATH=$TRC_BIN:$PATH
export PATH LC_ALL=C
T=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trc-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out err=$tmp/err
_n=0 _failed=0

# ok returns its verdict, so that "ok ... || diagnostics" prints them.
ok() {
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
		return 0
	fi
	echo "not ok $_n - $2"
	_failed=$((_failed + 1))
	return 1
}

# skip REASON: one test not made, said so (TAP's "# skip").
skip() {
	_n=$((_n + 1))
	echo "ok $_n # skip $1"
}

is() {
	if [ "$1" = "$2" ]; then ok 0 "$3"
	else
		ok 1 "$3"
		printf '%s\n' "$1" | sed 's/^/#   got:  /'
		printf '%s\n' "$2" | sed 's/^/#   want: /'
	fi
}

# diag TEXT: TEXT as TAP diagnostics, each line after "# ".
diag() {
	printf '%s\n' "$1" | sed 's/^/#   /'
}

# is_file GOT-FILE WANT-FILE NAME: the files are equal.
is_file() {
	if cmp -s "$1" "$2"; then ok 0 "$3"
	else ok 1 "$3"; diff "$2" "$1" | head -20 | sed 's/^/#   /'; fi
}

expect_exit() {
	_want=$1 _name=$2
	shift 3
	"$@" >"$out" 2>"$err"
	_got=$?
	if [ "$_got" -eq "$_want" ]; then ok 0 "$_name"
	else
		ok 1 "$_name"
		echo "#   exit $_got, want $_want"
		sed 's/^/#   stderr: /' "$err" | head -5
	fi
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" -eq 0 ]
}

# stalled FILE CMD...: CMD in the background ($pid), its standard input
# FILE's bytes and then nothing, from a fifo whose feeder ($feeder)
# sleeps until killed: kill $pid, wait $pid, then kill $feeder.  Not a
# pipeline: the shell's wait on a pipeline's last process waits for the
# whole pipeline, the feeder's sleep included.
stalled() {
	_stalled_in=$1
	shift
	rm -f "$tmp/stalled.fifo" && mkfifo "$tmp/stalled.fifo"
	(cat "$_stalled_in"; exec sleep 60) >"$tmp/stalled.fifo" 2>/dev/null &
	feeder=$!
	"$@" <"$tmp/stalled.fifo" &
	pid=$!
}

# await_name DIR PATTERN: wait (up to 15 s) until a name under DIR
# matches the grep PATTERN; status 1 if none did.
await_name() {
	_i=0
	until (cd "$1" && find .) | grep -q "$2"; do
		[ $_i -lt 300 ] || return 1
		sleep 0.05
		_i=$((_i + 1))
	done
}
