#!/bin/sh
# trc-fig1 and trc-master-worker run under mpirun; timing decides the
# unstable forms, the stable forms ignore it.
. "$(dirname "$0")/lib.sh"

command -v mpirun >/dev/null || skip_all "no mpirun"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
[ -n "$TRC_SANITIZE" ] && export ASAN_OPTIONS=detect_leaks=0

# Margins of 80 ms keep the arrival order safe on a busy machine.
expect_exit 0 "fig1: A fast" -- mpirun -np 3 trc-fig1 -i 2 -A 0 -B 0.08 -C 0
is "$(cat "$out")" "iterations 2: task 1 first 2, task 2 first 0" "  task 1's message first"
expect_exit 0 "fig1: A slow" -- mpirun -np 3 trc-fig1 -i 2 -A 0.08 -B 0 -C 0
is "$(cat "$out")" "iterations 2: task 1 first 0, task 2 first 2" "  arrival order follows the timing"
expect_exit 0 "fig1 --stable: A slow" -- mpirun -np 3 trc-fig1 --stable -i 2 -A 0.08 -B 0 -C 0
is "$(cat "$out")" "iterations 2: task 1 first 2, task 2 first 0" "  stable form: receives name their source"

expect_exit 0 "master-worker" -- mpirun -np 3 trc-master-worker --tasks 7 --work 0.002
is "$(awk -F: '{ n = split($2, a, " "); s = 0; for (i = 1; i <= n; i++) s += a[i]; print $1, n, s }' "$out")" \
	"tasks 7, done by workers 1 to 2 2 7" "  every task done once, by the two workers"
# Round robin: worker 1 gets tasks 0 2 4 6, worker 2 gets 1 3 5.
expect_exit 0 "master-worker --stable" -- mpirun -np 3 trc-master-worker --stable --tasks 7 --work 0.002
is "$(cat "$out")" "tasks 7, done by workers 1 to 2: 4 3" "  round robin"
expect_exit 0 "master-worker, more workers than tasks" -- mpirun -np 4 trc-master-worker --tasks 1 --work 0
is "$(cat "$out")" "tasks 1, done by workers 1 to 3: 1 0 0" "  idle workers are stopped"

# Bad usage: exit 2 with the message, without mpirun (a singleton).
expect_exit 2 "fig1 on one task" -- trc-fig1
is "$(cat "$err")" "trc-fig1: needs 3 tasks, not 1" "  its message"
expect_exit 2 "fig1 bad seconds" -- trc-fig1 -A 1x
is "$(cat "$err")" "trc-fig1: invalid seconds '1x'" "  its message"
expect_exit 2 "master-worker on one task" -- trc-master-worker
is "$(cat "$err")" "trc-master-worker: needs 2 tasks or more, not 1" "  its message"
expect_exit 2 "master-worker bad tasks" -- trc-master-worker --tasks -1
is "$(cat "$err")" "trc-master-worker: invalid tasks '-1'" "  its message"

for p in trc-fig1 trc-master-worker; do
	man=$T/../man/man1/$p.1
	syn=$(groff -mandoc -Tascii -P-cbou -rLL=300n "$man" 2>/dev/null |
		sed -n '/^SYNOPSIS/{n;p;}' | sed 's/^ *//')
	is "usage: $syn" "$($p -h | head -1)" "$p: usage line is the SYNOPSIS"
	groff -mandoc -ww -z "$man" 2>"$err"
	is "$(cat "$err")" "" "$p: man page is clean"
	is "$($p --version)" "$p $(trc-design --version | cut -d" " -f2)" "$p --version"
done

done_testing
