#!/bin/sh
# trc-scale on whole streams from trc-gen: the identity transform
# gives back every original time; a rank-ordered stream gives the same
# prediction as the time-ordered one; output stays sorted; memory holds
# no events for a time-ordered causal stream but a few of receives that
# wait to see their sender's next call.
. "$(dirname "$0")/lib.sh"

printf 'send 0 inf 1e-6 1e-10\nrecv 0 inf 2e-6 1e-10\nallreduce 0 inf 1e-5 0\n' >"$tmp/x.fit"
for p in ring halo allreduce master-worker; do
	trc-gen -n 8 -i 40 -p $p >"$tmp/g.trc"
	trc-scale "$tmp/g.trc" >"$out"
	is "$(grep -v '^#' "$out" | awk '$1 != substr($NF, 4)' | wc -l | tr -d ' ')" 0 \
	    "$p: no ratio and no fit: every predicted time is the original"

	trc-scale -v --cpu-ratio 0.5 -c "$tmp/x.fit" "$tmp/g.trc" >"$tmp/a" 2>"$err"
	ok $? "$p: scaled"
	# Nothing waits but a blocking receive whose sender is still
	# computing or sending short of its begin (its next message might
	# come first, trc-scale(1)): a few events of a rank, not the
	# stream's.
	held=$(sed -n 's/^trc-scale: \([0-9]*\) events held at most \([0-9]*\) at once.*/\1 \2/p' "$err")
	seen=$(sed -n 's/.*next message too, \([0-9]*\) held to see it$/\1/p' "$err")
	ok "$(awk -v h="${held% *}" -v m="${held#* }" -v w="$seen" 'BEGIN { exit !((w > 0 || h == 0) && m <= 16) }'; echo $?)" \
	    "$p: a time-ordered causal stream holds only receives waiting to see ($seen; events $held)"
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
