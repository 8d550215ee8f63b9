#!/bin/sh
# trc-fit judges trc-pingpong's #load and #cpu lines as trc-scale
# judges a trace's: every rank of trc-pingpong polls, spins or sweeps
# all the time, so one on a CPU for less than 75% of its wall time
# (measured over 10 ms or more) waited for a core another job held,
# and its measurements time that job.  A warning naming the file and
# the rank; --strict writes no fit and exits 2.
. "$(dirname "$0")/lib.sh"

# meas FILE CPU0 WALL0 CPU1 WALL1 [STEAL]: measurements a line fits
# exactly (send = 1 us + 1 ns a byte) and the run's conditions.
meas() {
	{
		echo "# trc-pingpong (hand-made)"
		for b in 1 64 4096 65536; do
			for r in 1 2 3; do
				awk -v b=$b 'BEGIN { printf "send %d %.9f\n", b, 1e-6 + 1e-9 * b }'
			done
		done
		printf '#load start=0.50 end=0.70 cpus=2%s\n' "${6:+ steal=$6}"
		printf '#cpu rank=0 cpu=%s wall=%s\n#cpu rank=1 cpu=%s wall=%s\n' "$2" "$3" "$4" "$5"
	} >"$1"
}

meas "$tmp/quiet.meas" 0.095000000 0.100000000 0.076000000 0.100000000
expect_exit 0 "quiet measurements (95% and 76% on a CPU): fitted" -- trc-fit --strict "$tmp/quiet.meas"
is "$(cat "$err")" "" "  no warning"
# The fit is the line: A = 1 us, B = 1 ns a byte.
is "$(awk '$1 == "send" { printf "%.9f %.12f", $4, $5 }' "$out")" "0.000001000 0.000000001000" "  send = 1 us + 1 ns a byte"

meas "$tmp/busy.meas" 0.095000000 0.100000000 0.074000000 0.100000000
expect_exit 0 "rank 1 on a CPU for 74% of its time: fitted" -- trc-fit "$tmp/busy.meas"
is "$(cat "$err")" "trc-fit: warning: $tmp/busy.meas: the measurements look disturbed: rank 1 was on a CPU for 74% of its time (CPU 0.074000 s, wall 0.100000 s); the host's load average 0.50 at the start, 0.70 at the end, on 2 CPUs" \
	"  a warning naming the file, the rank and the two times"
expect_exit 2 "  --strict: exit 2" -- trc-fit --strict "$tmp/busy.meas"
is "$(wc -c <"$out")" 0 "  nothing written"
is "$(tail -1 "$err")" "trc-fit: nothing written: a fit of disturbed measurements measures the disturbance (--strict)" "  said"
expect_exit 2 "  --strict --loggp: exit 2 too" -- trc-fit --strict --loggp "$tmp/busy.meas"

# Under 10 ms of wall time the clocks' grain decides: not judged.
meas "$tmp/short.meas" 0.001000000 0.009999999 0.001000000 0.009999999
expect_exit 0 "a run of 9.999999 ms on a CPU 10% of it: not judged" -- trc-fit --strict "$tmp/short.meas"
is "$(cat "$err")" "" "  no warning"

meas "$tmp/steal.meas" 0.095000000 0.100000000 0.095000000 0.100000000 12.50
expect_exit 2 "steal 12.5% (over 10%): --strict exit 2" -- trc-fit --strict "$tmp/steal.meas"
grep -q "^trc-fit: warning: $tmp/steal.meas: the measurements look disturbed: the hypervisor stole 12.5% of the host's CPU time$" "$err"
ok $? "  the steal named"

# Two files: each judged under its own name.
expect_exit 2 "two files, one disturbed: --strict exit 2" -- trc-fit --strict "$tmp/quiet.meas" "$tmp/busy.meas"
is "$(grep -c "warning: $tmp/busy.meas:" "$err") $(grep -c "warning: $tmp/quiet.meas:" "$err")" "1 0" "  only the disturbed one named"

# Measurements without the lines (other benchmarks, older files): fitted.
grep -v '^#' "$tmp/busy.meas" >"$tmp/bare.meas"
expect_exit 0 "no #load or #cpu lines: fitted, under --strict too" -- trc-fit --strict "$tmp/bare.meas"
is "$(cat "$err")" "" "  no warning"
done_testing
