#!/bin/sh
# limits-bench.sh BINDIR: peak memory (KB) and seconds of the tools at
# the limits of trc(5) and trc-scale(1).
set -e
PATH=$1:$PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trc-limits.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
run() {	# NAME CMD...: one line, NAME KB SECONDS EXIT
	_n=$1; shift
	set +e
	/usr/bin/time -f '%M %e' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/e"
	_rc=$?
	set -e
	printf '%-40s %10s KB %8s s exit %d %s\n' "$_n" $(cat "$tmp/t") "$_rc" \
	    "$(head -c 100 "$tmp/e")"
}
awk 'BEGIN { print "#trc 1 ranks=2097152"; for (r = 0; r < 2097152; r++) print "0 " r " MK" }' >"$tmp/r21.trc"
run "trc-scale, 2^21 ranks" trc-scale "$tmp/r21.trc"
run "trc-perturb, 2^21 ranks" trc-perturb "$tmp/r21.trc"
printf '#trc 1\n0 2000000 MK\n' >"$tmp/r2m.trc"
run "trc-scale, rank 2000000 alone" trc-scale "$tmp/r2m.trc"
awk 'BEGIN { s = "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	while (length(s) < 1048576) s = s s
	print "#trc 1"; printf "0.5 0 MK x="; for (i = 0; i < 200; i++) printf "%s", s
	print "" }' >"$tmp/big.trc"
run "trc-cat, a 200 MB line" trc-cat "$tmp/big.trc"
run "trc-scale, a 200 MB line" trc-scale "$tmp/big.trc"
