#!/bin/sh
# trc-scale on whole streams from trc-gen: the identity transform
# gives back every original time; a rank-ordered stream gives the same
# prediction as the time-ordered one; output stays sorted; memory holds
# no events for a time-ordered causal stream.
. "$(dirname "$0")/lib.sh"

printf 'send 0 inf 1e-6 1e-10\nrecv 0 inf 2e-6 1e-10\nallreduce 0 inf 1e-5 0\n' >"$tmp/x.fit"
for p in ring halo allreduce master-worker; do
	trc-gen -n 8 -i 40 -p $p >"$tmp/g.trc"
	trc-scale "$tmp/g.trc" >"$out"
	is "$(grep -v '^#' "$out" | awk '$1 != substr($NF, 4)' | wc -l | tr -d ' ')" 0 \
	    "$p: no ratio and no fit: every predicted time is the original"

	trc-scale -v --cpu-ratio 0.5 -c "$tmp/x.fit" "$tmp/g.trc" >"$tmp/a" 2>"$err"
	ok $? "$p: scaled"
	is "$(grep -c 'trc-scale: 0 events held at most 0 at once' "$err")" 1 \
	    "$p: a time-ordered causal stream holds nothing"
	grep -v '^#' "$tmp/a" | awk '{ print $1 }' | sort -c -n
	ok $? "$p: output sorted by predicted time"
	is "$(head -1 "$tmp/a")" "#trc 1 ranks=8 order=time" "$p: header"

	{ echo "#trc 1 ranks=8 order=rank"; grep -v '^#' "$tmp/g.trc" | sort -s -n -k2,2; } >"$tmp/r.trc"
	trc-scale --cpu-ratio 0.5 -c "$tmp/x.fit" "$tmp/r.trc" >"$tmp/b"
	grep -v '^#' "$tmp/a" | sort >"$tmp/a.s"
	grep -v '^#' "$tmp/b" | sort >"$tmp/b.s"
	is_file "$tmp/b.s" "$tmp/a.s" "$p: rank-ordered input, same prediction"
done
done_testing
