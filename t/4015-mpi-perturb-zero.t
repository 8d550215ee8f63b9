#!/bin/sh
# trc-perturb with no delay reproduces the trace of a real run (issue
# 11): the graph identical (trc-stable) and every event at its time, on
# the traces of the MPI test programs with choices or collectives whose
# root leaves first (calls, nbcoll, persist, sendrecv), the heat solver,
# the Figure 1 program, the master-worker example and halo-any, whose
# two receives from any rank once made trc-perturb differ with no delay
# at all; and on t/mpi/nd's programs, one per source of nondeterminism,
# where built, whose unstable forms a delay must change and stable forms
# not.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

# zero NAME NP PROGRAM [ARG...]
zero() {
	n=$1 np=$2
	shift 2
	trc-record -o "$tmp/r.trc" -- -np "$np" "$@" >/dev/null 2>"$err"
	ok $? "$n: traced"
	trc-perturb "$tmp/r.trc" >"$tmp/p.trc" 2>"$err"
	ok $? "  trc-perturb with no delay"
	trc-stable -q "$tmp/r.trc" "$tmp/p.trc"
	ok $? "  trc-stable: identical"
	is "$(awk '!/^#/ { t = $NF; sub("t0=", "", t); if (t != $1) n++ } END { print n + 0 }' "$tmp/p.trc")" 0 \
		"  every event at its time"
}

for p in calls nbcoll persist; do
	zero "$p" 3 "$MPIT/$p"
done
zero sendrecv 2 "$MPIT/sendrecv"
zero "halo-any" 4 "$MPIT/halo-any" 10
zero "trc-heat" 4 "$TRC_BIN/trc-heat" -n 32 -i 20
zero "trc-fig1" 3 "$TRC_BIN/trc-fig1" -i 3
zero "trc-master-worker" 4 "$TRC_BIN/trc-master-worker"
# t/mpi/nd (nd.h): with no delay each form as recorded; 5 ms before
# sender 1's send, more than the 2 ms between senders, changes the
# order of the unstable form's choices and nothing in the stable form.
for p in "$MPIT"/nd/*; do
	[ -x "$p" ] || continue
	for form in unstable stable; do
		zero "nd/${p##*/} $form" 4 "$p" $form
		trc-perturb -d call=send,ranks=1,delay=0.005 "$tmp/r.trc" |
		    trc-stable -q "$tmp/r.trc" -
		is $? "$([ $form = stable ] && echo 0 || echo 1)" \
			"  sender 1 5 ms late: $form"
	done
done
done_testing
