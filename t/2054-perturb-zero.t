#!/bin/sh
# trc-perturb with no delay reproduces its input (issue 11): on every
# trace under t/data that trc-cat reads and trc-scale can replay, in
# every format, and on the patterns of trc-gen, the execution graph is
# identical (trc-stable) and every event keeps its time.  The traces of
# real MPI programs are t/4015's.
. "$(dirname "$0")/lib.sh"

# zero NAME FILE [OPTION...]
zero() {
	n=$1 f=$2
	shift 2
	trc-perturb "$@" "$f" >"$tmp/p.trc" 2>"$err"
	ok $? "$n: trc-perturb with no delay"
	trc-stable -q "$@" "$f" "$tmp/p.trc"
	ok $? "  trc-stable: identical"
	# Each rank's events and times, in the input and in the output.
	trc-cat "$@" "$f" | awk '!/^#/ { print $2, $1, $3 }' | sort -s -n -k1,1 >"$tmp/a"
	awk '!/^#/ { print $2, $1, $3 }' "$tmp/p.trc" | sort -s -n -k1,1 >"$tmp/b"
	is_file "$tmp/b" "$tmp/a" "  every event at its time"
}

# Every file of t/data that is a trace: trc-cat reads it (SimGrid's
# with a flop rate), trc-scale replays it (iter-b.trc, for trc-stable,
# has a barrier one rank never enters).
# A DUMPI trace is read whole from any of its rank files: each once.
found=0 seen=
for f in $(find "$T/data" -type f | sort); do
	trc-cat --flops 1e9 "$f" >"$tmp/c.trc" 2>/dev/null || continue
	trc-scale --flops 1e9 "$f" >/dev/null 2>&1 || continue
	sum=$(cksum <"$tmp/c.trc" | tr ' ' .)
	case " $seen " in *" $sum "*) continue ;; esac
	seen="$seen $sum"
	found=$((found + 1))
	zero "${f#"$T"/}" "$f" --flops 1e9
done
# As many as there were when this test was written, or more.
ok "$([ "$found" -ge 18 ]; echo $?)" "18 traces or more under t/data ($found)"

for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 6 -i 4 >"$tmp/g.trc"
	zero "trc-gen -p $p" "$tmp/g.trc"
done
done_testing
