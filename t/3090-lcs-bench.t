#!/bin/sh
# The LCS engine and diff --minimal agree on the benchmark's token files.
. "$(dirname "$0")/lib.sh"
bench=${TRC_BUILD:-$T/../build}/bench/lcs-bench
[ -x "$bench" ] || skip_all "no $bench"
command -v diff >/dev/null || skip_all "no diff"

for p in 0.001 0.05 0.5; do
	"$bench" gen -n 20000 -r 4 -p $p -s 7 "$tmp/d$p" >/dev/null
	ok $? "gen at $p"
	"$bench" lcs "$tmp/d$p" | sed 's/ wall=.*//' >"$tmp/l"
	"$bench" diff "$tmp/d$p" | sed 's/ wall=.*//; s/^diff/lcs/' >"$tmp/d"
	is_file "$tmp/l" "$tmp/d" "LCS totals equal diff --minimal's at $p"
done
expect_exit 2 "bad usage" -- "$bench" frob x
done_testing
