#!/bin/sh
# Calls libtrc-mpi does not trace are counted (lib/mpi/untraced.c):
# the trace's header names them with their calls on all ranks, and
# trc-record warns about them.  The one-sided program makes a window on
# each of 2 ranks, fences it twice on each, puts 3 times from rank 1 and
# frees it on each (t/mpi/onesided.c): by hand, MPI_Put 3,
# MPI_Win_create 2, MPI_Win_fence 4, MPI_Win_free 2.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
src=$T/../lib/mpi

# The counters are made from the list, and the list is up to date.
awk -f "$src/untraced.awk" "$src/untraced.list" >"$tmp/untraced.h"
is_file "$tmp/untraced.h" "$src/untraced.h" "untraced.h is made from untraced.list"
# No call of the list is traced: a traced call would only be a dead
# weak counter, but the list would then say what is false.
grep -o '^MPI_[A-Za-z_]*(' "$src"/wrap.c | tr -d '(' | sort >"$tmp/wrapped"
sed -n 's/^[a-z]* \(MPI_[A-Za-z_]*\)(.*/\1/p' "$src/untraced.list" | sort >"$tmp/listed"
is "$(comm -12 "$tmp/wrapped" "$tmp/listed")" "" "no call both traced and in the list"
is "$(wc -l <"$tmp/listed" | tr -d ' ')" "$(grep -c '^EXPORT' "$src/untraced.h")" "a counter per call listed"

for fmt in trc trcb; do
	o=$tmp/os.$fmt
	TRC_FORMAT=$fmt expect_exit 0 "$fmt: one-sided program runs" -- \
		trc-record -o "$o" -- -np 2 "$MPIT/onesided"
	is "$(grep 'not traced' "$err")" \
		"trc-record: calls not traced, so in no event and never delayed: MPI_Put 3, MPI_Win_create 2, MPI_Win_fence 4, MPI_Win_free 2" \
		"  trc-record warns, with names and counts"
done
is "$(grep '^#untraced' "$tmp/os.trc")" "#untraced MPI_Put calls=3
#untraced MPI_Win_create calls=2
#untraced MPI_Win_fence calls=4
#untraced MPI_Win_free calls=2" "the header lines, summed over ranks"
is "$(trc-cat "$tmp/os.trcb" | grep '^#untraced' | tr '\n' ' ')" \
	"$(grep '^#untraced' "$tmp/os.trc" | tr '\n' ' ')" "  the same in the binary trace"
trc-stable -q "$tmp/os.trc" "$tmp/os.trc"; ok $? "  which the tools read"
is "$(count "$tmp/os.trc" 0 XB op=barrier)" 1 "  the traced barrier is in it"

# A program that calls only traced functions: no warning.
expect_exit 0 "heat: traced calls only" -- trc-record -o "$tmp/h.trc" -- -np 2 trc-heat -n 16 -i 2
is "$(grep -c 'not traced' "$err")" 0 "  no warning"
is "$(grep -c '^#untraced' "$tmp/h.trc")" 0 "  no header line"

done_testing
