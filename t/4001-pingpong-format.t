#!/bin/sh
# trc-pingpong: the header, one line per repetition for every operation
# and size, the sizes asked for, positive times; usage and bad options.
. "$(dirname "$0")/lib.sh"
command -v mpirun >/dev/null || skip_all "no mpirun"
[ -x "$TRC_BIN/trc-pingpong" ] || skip_all "trc-pingpong not built"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
[ -n "$TRC_SANITIZE" ] && export ASAN_OPTIONS=detect_leaks=0

mpirun -np 2 trc-pingpong --repetitions 3 -m 100 >"$out" 2>"$err"
ok $? "runs on 2 ranks"
ok "$(grep -q '^# library: Open MPI' "$out"; echo $?)" "the header names the library"
ok "$(grep -q '^# transport: pml=' "$out"; echo $?)" "the header names the transport"
is "$(awk '!/^#/ && (NF != 3 || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+\.[0-9]{9}$/)' "$out")" "" \
	"every line is OPERATION BYTES SECONDS"
# Powers of two and 3 * 2^k up to 100, barrier once at 0.
is "$(awk '$1 == "bcast" { print $2 }' "$out" | uniq | tr '\n' ' ')" \
	"1 2 3 4 6 8 12 16 24 32 48 64 96 " "sizes are powers of two and halfway"
is "$(awk '!/^#/ { n[$1 " " $2]++ } END { for (k in n) if (n[k] != 3) print k }' "$out")" "" \
	"3 repetitions of every operation and size"
is "$(awk '!/^#/ { print $1 }' "$out" | sort -u | tr '\n' ' ')" \
	"allgather allgather-cold allreduce allreduce-cold alltoall alltoall-cold barrier barrier-cold bcast bcast-cold exchange exchange-wait gather gather-cold iprobe isend isend-cold poll recv recv-late recv-late-cold reduce reduce-cold scatter scatter-cold send send-busy send-cold send-late " \
	"every operation is measured"
is "$(awk '$1 ~ /-cold$/ { print $1, $2 }' "$out" | uniq | awk '{ n[$1]++ } END { for (k in n) print k, n[k] }' | sort | tr '\n' ' ')" \
	"allgather-cold 13 allreduce-cold 13 alltoall-cold 13 barrier-cold 1 bcast-cold 13 gather-cold 13 isend-cold 13 recv-late-cold 13 reduce-cold 13 scatter-cold 13 send-cold 13 " "the cold operations at every size"
is "$(awk '$1 == "barrier" || $1 == "barrier-cold" { print $2 }' "$out" | sort -u)" "0" "barrier and barrier-cold have size 0"
is "$(awk '$1 == "poll" || $1 == "iprobe" { print $2 }' "$out" | sort -u)" "0" "poll and iprobe have size 0"
is "$(awk '!/^#/ && $3 <= 0' "$out")" "" "times are positive"
# exchange-wait: the same repetition's send timed on to its wait's end.
is "$(awk '$1 == "exchange" { s[$2, n[$2]++] = $3 } $1 == "exchange-wait" { if ($3 < s[$2, m[$2]++]) print }' "$out")" "" \
	"exchange-wait: no shorter than its repetition's send"

# send-late: the receiver's delay in a comment per size, at least 20 us
# and at least 4 times the median send of that size.
is "$(awk '$1 == "#" && $2 == "send-late" && $4 == "receiver" { n++; if ($7 + 0 >= 20e-6) ok++ } END { print n, ok }' "$out")" \
	"13 13" "send-late: the receiver's delay named per size, at least 20 us"
is "$(awk '$1 == "send-late" { print $2 }' "$out" | uniq | tr '\n' ' ')" \
	"1 2 3 4 6 8 12 16 24 32 48 64 96 " "send-late is measured at every size"
is "$(awk '$1 == "#" && $2 == "send-busy" && $4 == "receiver" && $5 == "polling" { n++; if ($7 + 0 >= 20e-6) ok++ } END { print n, ok }' "$out")" \
	"13 13" "send-busy: the receiver's polling time named per size, at least 20 us"
is "$(awk '$1 == "send-busy" { print $2 }' "$out" | uniq | tr '\n' ' ')" \
	"1 2 3 4 6 8 12 16 24 32 48 64 96 " "send-busy is measured at every size"
is "$(awk '$1 == "#" && ($2 == "send-late" || $2 == "send-busy") { d[$2 " " $3] = $7 } END { for (k in d) { split(k, f, " "); if (f[1] == "send-late" && d["send-busy " f[2]] != d[k]) print k } }' "$out")" "" \
	"send-busy's receiver polls as long as send-late's computes"
is "$(awk '$1 == "#" && $2 == "recv-late" && $4 == "receiver" { n++; if ($7 + 0 >= 20e-6) ok++ } END { print n, ok }' "$out")" \
	"13 13" "recv-late: the receiver's delay named per size, at least 20 us"
is "$(awk '$1 == "recv-late" { print $2 }' "$out" | uniq | tr '\n' ' ')" \
	"1 2 3 4 6 8 12 16 24 32 48 64 96 " "recv-late is measured at every size"
mpirun -np 2 trc-pingpong --repetitions 2 -m 4 --operations send-late >"$out" 2>"$err"
ok $? "send-late alone measures its own send times first"
is "$(awk '!/^#/ { print $1 }' "$out" | sort | uniq -c | awk '{ print $1, $2 }')" "8 send-late" \
	"-o send-late: 4 sizes x 2 repetitions, nothing else"
mpirun -np 3 trc-pingpong --repetitions 2 -m 2 --operations send-late >"$out" 2>"$err"
ok $? "send-late alone on 3 ranks"
mpirun -np 2 trc-pingpong --repetitions 2 -m 4 --operations send-busy >"$out" 2>"$err"
ok $? "send-busy alone measures its own send times first"
is "$(awk '!/^#/ { print $1 }' "$out" | sort | uniq -c | awk '{ print $1, $2 }')" "8 send-busy" \
	"-o send-busy: 4 sizes x 2 repetitions, nothing else"

mpirun -np 3 trc-pingpong --repetitions 2 -m 8 --operations recv,allreduce >"$out" 2>"$err"
ok $? "runs on 3 ranks"
is "$(awk '!/^#/ { print $1 }' "$out" | sort -u | tr '\n' ' ')" "allreduce recv " "-o selects operations"
is "$(grep -c "^recv " "$out")" "12" "6 sizes (1 2 3 4 6 8) x 2 repetitions"

# What the cold rows followed, in the header: by default the 4 MiB
# sweep and no idle; with --sweep 0 --idle 0.2 time alone, each of the
# 6 cold receives (a warm-up and 5) spinning 0.2 s first, so that the
# run takes 1.2 s at least.
mpirun -np 2 trc-pingpong --repetitions 1 -m 1 --operations send >"$out" 2>"$err"
is "$(grep '^# cold:' "$out")" "# cold: 4194304 bytes swept, then 0.000000 s idle" "the header: the default sweep, no idle"
t0=$(date +%s.%N)
mpirun -np 2 trc-pingpong --repetitions 5 -m 1 --operations recv-late-cold --sweep 0 --idle 0.2 >"$out" 2>"$err"
ok $? "--sweep 0 --idle 0.2 runs"
t1=$(date +%s.%N)
is "$(grep '^# cold:' "$out")" "# cold: 0 bytes swept, then 0.200000 s idle" "  the header says so"
is "$(grep -c '^recv-late-cold 1 ' "$out")" 5 "  5 cold receives timed"
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 1.2) }'
ok $? "  each spun 0.2 s first: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s in all"

expect_exit 0 "-h exits 0" -- trc-pingpong -h
is "$(head -1 "$out")" "usage: trc-pingpong [-m maxbytes] [--operations operations] [--repetitions repetitions] [--per-octave sizes] [--sweep bytes] [--idle seconds]" "-h prints the usage"
syn=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p' "$T/../man/man1/trc-pingpong.1" |
	awk '/^\.Op/ { sub(/^\.Op Fl /, "-"); sub(/ Ar /, " "); s = s " [" $0 "]" } END { print "usage: trc-pingpong" s }')
is "$syn" "$(head -1 "$out")" "the usage equals the SYNOPSIS"
expect_exit 2 "an unknown operation exits 2" -- trc-pingpong --operations send,bogus
is "$(cat "$err")" "trc-pingpong: unknown operation 'bogus'" "an unknown operation is named"
expect_exit 2 "a bad size exits 2" -- trc-pingpong -m 1k
is "$(cat "$err")" "trc-pingpong: invalid maxbytes '1k'" "a bad size is named"
expect_exit 2 "a sweep of -1 bytes exits 2" -- trc-pingpong --sweep -1
is "$(cat "$err")" "trc-pingpong: invalid sweep '-1'" "  named"
for bad in -1 11 1e400 nan 1s ''; do
	expect_exit 2 "--idle '$bad' exits 2" -- trc-pingpong --idle "$bad"
	is "$(cat "$err")" "trc-pingpong: invalid idle '$bad'" "  named"
done
for bad in 0 17 x; do
	expect_exit 2 "--per-octave '$bad' exits 2" -- trc-pingpong --per-octave "$bad"
	is "$(cat "$err")" "trc-pingpong: invalid sizes per octave '$bad'" "  named"
done
# --per-octave 4: from each 2^k, 2^k (1 + i / 4) for i = 0 to 3, each
# size once: 1; 2, 2.5 -> 2, 3; 4 5 6 7; 8 10 12 14; ...
mpirun -np 2 trc-pingpong --repetitions 1 -m 64 --per-octave 4 --operations send,bcast >"$out" 2>"$err"
ok $? "--per-octave 4"
is "$(awk '$1 == "send" { print $2 }' "$out" | tr '\n' ' ')" \
	"1 2 3 4 5 6 7 8 10 12 14 16 20 24 28 32 40 48 56 64 " "  four sizes an octave, none twice"
is "$(awk '$1 == "bcast" { print $2 }' "$out" | tr '\n' ' ')" \
	"1 2 3 4 5 6 7 8 10 12 14 16 20 24 28 32 40 48 56 64 " "  the collectives too"
expect_exit 2 "send on one rank exits 2" -- trc-pingpong --repetitions 1
is "$(cat "$err")" "trc-pingpong: the point-to-point operations, poll and iprobe need 2 ranks" "one rank is refused"
# A collective costs from the last entry to the last end: rank 0 idles
# 20 ms after each barrier before its cold one, and rank 1's 20 ms of
# waiting in it are not the collective's.
mpirun -np 2 trc-pingpong --repetitions 3 -m 4 --sweep 0 --idle 0.02 \
    --operations barrier-cold,allreduce-cold >"$out" 2>"$err"
ok $? "cold collectives after 20 ms idle"
is "$(awk '!/^#/ { n++; if ($3 > 0 && $3 < 0.015) ok++ } END { print n, ok }' "$out")" \
	"15 15" "a collective's cost is from the last entry (rank 0's, 20 ms late), not the first"

done_testing
