#!/bin/sh
# trc-heat: the Jacobi solution against a serial awk solver, the same
# for every rank count; usage and bad options.
. "$(dirname "$0")/lib.sh"
command -v mpirun >/dev/null || skip_all "no mpirun"
[ -x "$TRC_BIN/trc-heat" ] || skip_all "trc-heat not built"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
[ -n "$TRC_SANITIZE" ] && export ASAN_OPTIONS=detect_leaks=0

# Serial Jacobi on an n x n plate, top edge 100, others 0.
serial() {
	awk -v n="$1" -v it="$2" 'BEGIN {
		for (i = 0; i <= n + 1; i++)
			for (j = 0; j <= n + 1; j++)
				u[i, j] = (i == 0) ? 100 : 0
		for (k = 0; k < it; k++) {
			for (i = 1; i <= n; i++)
				for (j = 1; j <= n; j++)
					v[i, j] = 0.25 * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1])
			for (i = 1; i <= n; i++)
				for (j = 1; j <= n; j++)
					u[i, j] = v[i, j]
		}
		s = 0
		for (i = 1; i <= n; i++)
			for (j = 1; j <= n; j++)
				s += u[i, j]
		printf "checksum %.6f\n", s
	}'
}

want=$(serial 8 5)
for np in 1 2 3; do
	mpirun -np $np trc-heat -n 8 -i 5 --tolerance 0 >"$out" 2>"$err"
	ok $? "-np $np runs"
	is "$(grep checksum "$out")" "$want" "-np $np checksum equals the serial solver"
	is "$(grep iterations "$out")" "iterations 5" "-np $np runs 5 steps"
done

# With a tolerance it stops early, on the same step for any rank count.
mpirun -np 2 trc-heat -n 6 -i 100000 --tolerance 0.01 >"$out" 2>"$err"
it2=$(awk '$1 == "iterations" { print $2 }' "$out")
mpirun -np 1 trc-heat -n 6 -i 100000 --tolerance 0.01 >"$out" 2>"$err"
it1=$(awk '$1 == "iterations" { print $2 }' "$out")
is "$it2" "$it1" "the convergence step does not depend on the rank count"
is "$(grep converged "$out")" "converged yes" "converged is reported"
ok "$([ "$it1" -gt 10 ] && [ "$it1" -lt 100000 ]; echo $?)" "converges after more than 10 steps"

expect_exit 0 "-h exits 0" -- trc-heat -h
is "$(head -1 "$out")" "usage: trc-heat [-i iterations] [-n size] [--tolerance tolerance]" "-h prints the usage"
syn=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p' "$T/../man/man1/trc-heat.1" |
	awk '/^\.Op/ { sub(/^\.Op Fl /, "-"); sub(/ Ar /, " "); s = s " [" $0 "]" } END { print "usage: trc-heat" s }')
is "$syn" "$(head -1 "$out")" "the usage equals the SYNOPSIS"
expect_exit 0 "--version exits 0" -- trc-heat --version
expect_exit 2 "a bad size exits 2" -- trc-heat -n 0x
is "$(cat "$err")" "trc-heat: invalid size '0x'" "a bad size is named"
expect_exit 2 "an unknown option exits 2" -- trc-heat -z
done_testing
