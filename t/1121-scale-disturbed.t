#!/bin/sh
# A disturbed base run is said, never silently predicted: trc-scale and
# trc-ratios read the tracer's #load and #cpu lines and the lifetimes'
# variability (trc_disturb.h), and --strict makes a sign an error.
. "$(dirname "$0")/lib.sh"

# Rank 1 was on a CPU 0.3 s of its 1 s of computation (30%, under 75%);
# rank 0 0.9 of 1 (90%).  W's lifetimes: rank 0 0.2 four times (cv 0),
# rank 1 0.4, 0.4, 0.1, 0.1 (mean 0.25, deviation 0.15, cv 0.6).
cat > "$tmp/cpu.trc" <<'T'
#trc 1 ranks=2 order=time
#load start=3.10 end=4.20 cpus=2 steal=0.00
#cpu rank=0 cpu=0.900000000 wall=1.000000000
#cpu rank=1 cpu=0.300000000 wall=1.000000000
0 0 PB fn=W
0 1 PB fn=W
0.2 0 PE fn=W
0.2 0 PB fn=W
0.4 1 PE fn=W
0.4 1 PB fn=W
0.4 0 PE fn=W
0.4 0 PB fn=W
0.6 0 PE fn=W
0.6 0 PB fn=W
0.8 0 PE fn=W
0.8 1 PE fn=W
0.8 1 PB fn=W
0.9 1 PE fn=W
0.9 1 PB fn=W
1 1 PE fn=W
1 0 MK
T
sign1="trc-scale: warning: $tmp/cpu.trc: the run looks disturbed: rank 1 was on a CPU for 30% of its computation's time (CPU 0.300000 s, computation 1.000000 s); the host's load average 3.10 at the start, 4.20 at the end, on 2 CPUs"
expect_exit 0 "a rank on a CPU 30% of its computation: exit 0" -- trc-scale --cpu-ratio 1 "$tmp/cpu.trc"
is "$(cat "$err")" "$sign1" "  warned, naming the run and the rank"
trc-scale --cpu-ratio 1 <"$tmp/cpu.trc" 2>&1 >/dev/null | grep -q '^trc-scale: warning: <stdin>: the run looks disturbed: rank 1 '
ok $? "  on standard input too"
expect_exit 2 "--strict: exit 2" -- trc-scale --strict --cpu-ratio 1 "$tmp/cpu.trc"
is "$(cat "$err")" "$sign1
trc-scale: $tmp/cpu.trc: a disturbed base run predicts the disturbance (--strict)" "  said"
[ -s "$out" ]; ok $? "  after writing the prediction"

# W on rank 0 lasts 0.1, 0.05, 0.05, 0.05, 0.75, all of the rank's 1 s.
# Its first lifetime left out (warm-up), 0.05 three times and 0.75:
# mean 0.225, deviation sqrt((3 x 0.175^2 + 0.525^2) / 4) = 0.3031,
# cv 1.35 > 1; max/min (of all five) 15.  M on rank 1: 0.001 s and
# 0.019 s, fewer than 3 occurrences, not judged; U on rank 1, 1 us,
# 1 us and 15 us (cv 1.3) is 0.0017% of the time: minor, not judged
# either.  The hypervisor stole 12.5%.  The CPU times are whole.
cat > "$tmp/cv.trc" <<'T'
#trc 1 ranks=2 order=time
#load start=0.10 end=0.20 cpus=2 steal=12.50
#cpu rank=0 cpu=1.000000000 wall=1.000000000
#cpu rank=1 cpu=1.000000000 wall=1.000000000
0 0 PB fn=W
0 1 PB fn=M
0.001 1 PE fn=M
0.001 1 PB fn=M
0.02 1 PE fn=M
0.1 0 PE fn=W
0.1 0 PB fn=W
0.15 0 PE fn=W
0.15 0 PB fn=W
0.2 0 PE fn=W
0.2 0 PB fn=W
0.25 0 PE fn=W
0.25 0 PB fn=W
0.5 1 PB fn=U
0.500001 1 PE fn=U
0.6 1 PB fn=U
0.600001 1 PE fn=U
0.7 1 PB fn=U
0.700015 1 PE fn=U
1 0 PE fn=W
1 1 MK
T
expect_exit 0 "lifetimes varying, steal: exit 0" -- trc-scale --cpu-ratio 1 "$tmp/cv.trc"
is "$(cat "$err")" "trc-scale: warning: $tmp/cv.trc: the run looks disturbed: the hypervisor stole 12.5% of the host's CPU time
trc-scale: warning: $tmp/cv.trc: the run looks disturbed: procedure W on rank 0: its lifetimes past the first vary, cv 1.35 over 1.00 (max/min 15.0, 5 occurrences, 100% of the rank's time)" \
    "  the steal time and the procedure named, not M (2 occurrences) nor U (minor)"

# A first lifetime far from the others is warm-up, as a program's first
# touch of its memory makes it: W lasts 0.7, then 0.1 three times (cv
# 1.04 of all four, 0 of the last three): no sign, even under --strict.
cat > "$tmp/warm.trc" <<'T'
#trc 1 ranks=1 order=time
0 0 PB fn=W
0.7 0 PE fn=W
0.7 0 PB fn=W
0.8 0 PE fn=W
0.8 0 PB fn=W
0.9 0 PE fn=W
0.9 0 PB fn=W
1 0 PE fn=W
T
expect_exit 0 "a long first lifetime, --strict: exit 0" -- trc-scale --strict --cpu-ratio 1 "$tmp/warm.trc"
is "$(cat "$err")" "" "  no warning"

# And the first far from the others while these vary: W lasts 0.5,
# then 0.05 three times and 0.35.  The summary sums each lifetime less
# the first (trc_stat_cv), so the last four's are the sums themselves:
# mean 0.125, deviation sqrt((3 x 0.075^2 + 0.225^2) / 4) = 0.1299,
# cv 1.04 > 1 (of all five, 0.95); max/min 10.
cat > "$tmp/cvfirst.trc" <<'T'
#trc 1 ranks=1 order=time
0 0 PB fn=W
0.5 0 PE fn=W
0.5 0 PB fn=W
0.55 0 PE fn=W
0.55 0 PB fn=W
0.6 0 PE fn=W
0.6 0 PB fn=W
0.65 0 PE fn=W
0.65 0 PB fn=W
1 0 PE fn=W
T
expect_exit 0 "the long lifetime first: exit 0" -- trc-scale --cpu-ratio 1 "$tmp/cvfirst.trc"
is "$(cat "$err")" "trc-scale: warning: $tmp/cvfirst.trc: the run looks disturbed: procedure W on rank 0: its lifetimes past the first vary, cv 1.04 over 1.00 (max/min 10.0, 5 occurrences, 100% of the rank's time)" \
    "  the cv of the last four, 1.04"

# Ranks that wait for each other while the host runs another job: 1 s
# of wall time, the busier rank 0.25 s of CPU (4 times), computation
# 4 ms on each rank, so only the wall time tells.
cat > "$tmp/wall.trc" <<'T'
#trc 1 ranks=2 order=time
#load start=9.00 end=9.50 cpus=2
#cpu rank=0 cpu=0.250000000 wall=1.000000000
#cpu rank=1 cpu=0.200000000 wall=1.000000000
0.002 0 SB peer=1 tag=2 bytes=8
0.002 1 SB peer=0 tag=1 bytes=8
0.003 0 SE peer=1 tag=2 bytes=8
0.003 1 SE peer=0 tag=1 bytes=8
0.003 0 RB peer=1 tag=1 bytes=8
0.003 1 RB peer=0 tag=2 bytes=8
0.998 0 RE peer=1 tag=1 bytes=8
0.998 1 RE peer=0 tag=2 bytes=8
1 0 MK
1 1 MK
T
expect_exit 2 "a run 4 times its busiest rank's CPU time, --strict: exit 2" -- trc-scale --strict --cpu-ratio 1 "$tmp/wall.trc"
is "$(head -1 "$err")" "trc-scale: warning: $tmp/wall.trc: the run looks disturbed: it lasted 1.000000 s, 4.0 times the CPU time of its busiest rank (0.250000 s): its ranks waited for cores; the host's load average 9.00 at the start, 9.50 at the end, on 2 CPUs" \
    "  said"

# A quiet run: no sign, --strict exits 0.  The bundled example has no
# #cpu lines; its procedures of 2% or more vary by cv 0.07 to 0.31.
ex=$T/../benchmarks/example
expect_exit 0 "the bundled example, --strict: exit 0" -- \
    trc-scale --strict --cpu "$ex/ratios.tbl" --base "$ex/base.fit" --comm "$ex/target.fit" "$ex/heat-base.trc"
is "$(cat "$err")" "" "  no warning"
sed 's/^#cpu rank=1 cpu=0.3/#cpu rank=1 cpu=0.75/' "$tmp/cpu.trc" >"$tmp/ok.trc"
expect_exit 0 "75% of the computation on a CPU is not a sign, --strict" -- trc-scale --strict --cpu-ratio 1 "$tmp/ok.trc"
is "$(cat "$err")" "" "  no warning"

# trc-ratios: each run of a pair judged, named.
expect_exit 0 "trc-ratios: a disturbed run in a pair, exit 0" -- trc-ratios "$tmp/ok.trc" "$tmp/cpu.trc"
is "$(cat "$err")" "trc-ratios: warning: $tmp/cpu.trc: the run looks disturbed: rank 1 was on a CPU for 30% of its computation's time (CPU 0.300000 s, computation 1.000000 s); the host's load average 3.10 at the start, 4.20 at the end, on 2 CPUs" \
    "  the target run named"
expect_exit 2 "trc-ratios --strict: exit 2" -- trc-ratios --strict "$tmp/cpu.trc" "$tmp/ok.trc"
is "$(tail -1 "$err")" "trc-ratios: ratios from a disturbed run measure the disturbance (--strict)" "  said"
grep -q '^W  *all  *1 ' "$out"; ok $? "  after the table"
done_testing
