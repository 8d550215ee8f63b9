#!/bin/sh
# trc-race on the programs of t/mpi/nd, one per source of
# nondeterminism, traced on 4 ranks: the unstable form races (exit 1)
# at rank 0's first choice point, the stable form does not (exit 0);
# the same trace by rank gives the same races.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"

# The first race's words up to the call, and the line of the event
# that makes rank 0's first choice: an RB asking peer=*, or the WB of
# the probe or wait.
first_race() {
	sed -n '1s/^[^:]*:\([0-9]*\): \(rank [0-9]* [a-z]*\) .*/\1 \2/p' "$1"
}
first_choice() {	# trace pattern-on-the-event
	awk -v p="$2" '!/^#/ && $2 == 0 && index($0, p) { print NR; exit }' "$1"
}
# Each file:line as its event without the time, competitors sorted.
norm() {
	awk -v f="$1" 'FNR == NR { sub(/^[^ ]* /, ""); l[FNR] = "[" $0 "]"; next }
	/choice points/ { print; next }
	{ s = $0; o = ""
	  while (match(s, f ":[0-9]+")) {
		o = o substr(s, 1, RSTART - 1) l[substr(s, RSTART + length(f) + 1, RLENGTH - length(f) - 1) + 0]
		s = substr(s, RSTART + RLENGTH)
	  }
	  n = split(o s, part, "; could take ")
	  if (n == 2) { m = split(part[2], c, ", "); for (i = 1; i <= m; i++) print part[1], "|", c[i] }
	  else print o s }' "$1" "$2" | sort
}

# program, its call, and what marks its choice's event
cat >"$tmp/list" <<'LIST'
recv-any recv RB peer=* tag=7
waitany waitany op=waitany
waitsome waitsome op=waitsome
testany testany op=testany
probe probe op=probe
iprobe iprobe op=iprobe
anytag recv RB peer=* tag=*
LIST

# Every run at once: no answer below depends on timing, and mpirun's
# start is most of the time.
while read -r prog call mark; do
	for form in unstable stable; do
		trc-record -o "$tmp/$prog-$form.trc" -- -np 4 "$MPIT/nd/$prog" $form \
		    </dev/null >"$tmp/$prog-$form.out" 2>"$tmp/$prog-$form.err" &
	done
done <"$tmp/list"
# Rank 1's send delayed by 200 ms, much longer than the senders' steps
# of 2 ms: the unstable form takes another first, the stable one still
# takes rank 1's first.
for form in unstable stable; do
	trc-record -o "$tmp/delayed-$form.trc" -d 'call=send,ranks=1,delay=0.2' -- \
	    -np 4 "$MPIT/nd/recv-any" $form </dev/null >"$tmp/delayed-$form.out" 2>&1 &
done
wait
ok "$(grep -q '^recv-any: [23] ' "$tmp/delayed-unstable.out"; echo $?)" \
    "recv-any unstable, rank 1 delayed: order $(cat "$tmp/delayed-unstable.out")"
is "$(cat "$tmp/delayed-stable.out")" "recv-any: 1 2 3" "recv-any stable, rank 1 delayed: the same order"
expect_exit 1 "recv-any unstable, delayed: races" -- trc-race "$tmp/delayed-unstable.trc"
expect_exit 0 "recv-any stable, delayed: no race" -- trc-race "$tmp/delayed-stable.trc"

while read -r prog call mark; do
	for form in unstable stable; do
		tr=$tmp/$prog-$form.trc
		is "$(cat "$tmp/$prog-$form.err")" "" "$prog $form: trc-record runs it"
		ok "$(grep -q "^$prog:" "$tmp/$prog-$form.out"; echo $?)" \
		    "$prog $form: rank 0 took every message"
		if [ $form = stable ]; then
			expect_exit 0 "$prog stable: no race" -- trc-race "$tr"
			is "$(grep -c ': rank ' "$out")" "0" "$prog stable: nothing named"
			continue
		fi
		# A waitsome that found every message there has no choice.
		if [ $prog = waitsome ] &&
		    grep -q '^waitsome: [0-9] [0-9] [0-9] 0$' "$tmp/$prog-$form.out"; then
			ok 0 "# SKIP waitsome took all at once"
			ok 0 "# SKIP"
			ok 0 "# SKIP"
			continue
		fi
		expect_exit 1 "$prog unstable: races" -- trc-race "$tr"
		is "$(first_race "$out")" "$(first_choice "$tr" "$mark") rank 0 $call" \
		    "$prog unstable: the first race is rank 0's first $call"
		trc-race "$tr" >"$tmp/a.out"
		{ echo "#trc 1 ranks=4 order=rank"; grep -v '^#' "$tr" | sort -s -n -k2,2; } >"$tmp/r.trc"
		trc-race "$tmp/r.trc" >"$tmp/r.out"
		is "$(norm "$tmp/r.trc" "$tmp/r.out")" "$(norm "$tr" "$tmp/a.out")" \
		    "$prog unstable: the same races by rank"
	done
done <"$tmp/list"
done_testing
