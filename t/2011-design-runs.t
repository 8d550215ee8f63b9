#!/bin/sh
# trc-design: replication, random order, TRC_DELAY rows, bad input.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/f" <<'X'
# three locations
send0	call=MPI_Send ranks=0 delay=0.001
recv	call=MPI_Recv region=Iterate delay=0.002   # in the solver
bar	call=MPI_Barrier occ=1-3 delay=0.5
X

# --delays: the delay spec of every row, factors at their high level only.
trc-design --delays -g C=-AB "$tmp/f" >"$out" 2>"$err"
ok $? "-d with a fraction"
printf 'run\tstd\tdelay\n1\t1\t\n2\t2\t%s\n3\t3\t%s\n4\t4\t%s\n' \
	'call=send,ranks=0,delay=0.001;call=barrier,occ=1-3,delay=0.5' \
	'call=recv,region=Iterate,delay=0.002;call=barrier,occ=1-3,delay=0.5' \
	'call=send,ranks=0,delay=0.001;call=recv,region=Iterate,delay=0.002' >"$tmp/want"
is_file "$out" "$tmp/want" "-d rows for C = -AB: C high exactly when A and B differ"
trc-design --delays "$tmp/f" | awk -F'\t' 'NR > 1 { n = $3 == "" ? 0 : split($3, a, ";"); print n }' \
	| tr '\n' ' ' >"$tmp/got"
is "$(cat "$tmp/got")" "0 1 1 2 1 2 2 3 " "full 2^3: number of specs is the number of high factors"
is "$(trc-design --delays - <"$tmp/f" | sed -n 2p)" "1	1	" "factor file on stdin"

trc-design "$tmp/f" >"$out"
is "$(sed -n 2,5p "$out")" "factors:
A	send0	call=send,ranks=0,delay=0.001
B	recv	call=recv,region=Iterate,delay=0.002
C	bar	call=barrier,occ=1-3,delay=0.5" "factor legend"

# Replication in standard order: the design twice over.
trc-design -t -n 2 --replications 2 >"$out"
printf 'run\tstd\tA\tB\n1\t1\t-1\t-1\n2\t2\t+1\t-1\n3\t3\t-1\t+1\n4\t4\t+1\t+1\n5\t1\t-1\t-1\n6\t2\t+1\t-1\n7\t3\t-1\t+1\n8\t4\t+1\t+1\n' >"$tmp/want"
is_file "$out" "$tmp/want" "-r 2 in standard order"
is "$(trc-design -n 2 --replications 3 | sed -n 1p)" "design: 2^2, 12 runs, 3 replications, standard order" "replicated design line"

# Random order: a permutation of the same runs, the same for a seed.
trc-design -t -n 3 --replications 3 -s 42 >"$tmp/a"
trc-design -t -n 3 --replications 3 -s 42 >"$tmp/b"
trc-design -t -n 3 --replications 3 -s 43 >"$tmp/c"
trc-design -t -n 3 --replications 3 >"$tmp/s"
is_file "$tmp/a" "$tmp/b" "same seed, same order"
cmp -s "$tmp/a" "$tmp/c"
ok $((! $?)) "another seed, another order"
cmp -s "$tmp/a" "$tmp/s"
ok $((! $?)) "random order differs from standard order"
is "$(cut -f2- "$tmp/a" | sort | md5sum)" "$(cut -f2- "$tmp/s" | sort | md5sum)" \
	"random order is a permutation of the runs"
is "$(cut -f1 "$tmp/a" | tr '\n' ' ')" "run 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 " \
	"run numbers count the execution order"
is "$(trc-design -n 3 -s 42 | sed -n 1p)" "design: 2^3, 8 runs, 1 replication, random order (seed 42)" \
	"random design line"

# Bad input: exact message, exit 2.
expect_exit 2 "bad generator" -- trc-design -n 4 -g DABC
is "$(cat "$err")" "trc-design: invalid generator 'DABC': want FACTOR=WORD, as D=ABC" "  its message"
expect_exit 2 "unknown factor in a generator" -- trc-design -n 4 -g E=ABC
is "$(cat "$err")" "trc-design: generator 'E=ABC': unknown factor 'E'" "  its message"
expect_exit 2 "generator on a factor file beyond its factors" -- trc-design -g D=ABC "$tmp/f"
is "$(cat "$err")" "trc-design: generator 'D=ABC': unknown factor 'D'" "  its message"
expect_exit 2 "generated factor on a right side" -- trc-design -n 5 -g D=ABC -g E=AD
is "$(cat "$err")" "trc-design: generator 'E=AD': factor 'D' is itself generated" "  its message"
expect_exit 2 "repeated generator" -- trc-design -n 5 -g D=ABC,D=AB
is "$(cat "$err")" "trc-design: generator 'D=AB': factor 'D' generated twice" "  its message"
printf 'a call=MPI_Send delay=1\nb call=MPI_Send delay=1ms\n' >"$tmp/bad"
expect_exit 2 "bad factor file" -- trc-design "$tmp/bad"
is "$(cat "$err")" "trc-design: $tmp/bad:2: invalid delay '1ms'" "  its message names file and line"
printf 'a call=MPI_Send delay=1\nb call=MPI_Send delay=1 rank=2\n' >"$tmp/bad"
expect_exit 2 "unknown key" -- trc-design - <"$tmp/bad"
is "$(cat "$err")" "trc-design: <stdin>:2: unknown key 'rank'" "  its message on stdin"
expect_exit 2 "missing file" -- trc-design "$tmp/nonesuch"
is "$(cat "$err")" "trc-design: $tmp/nonesuch: No such file or directory" "  its message"
expect_exit 2 "--delays without a factor file" -- trc-design --delays -n 3
is "$(cat "$err")" "trc-design: --delays needs a factor file" "  its message"
expect_exit 2 "-n and a file" -- trc-design -n 3 "$tmp/f"
expect_exit 2 "--delays and -t" -- trc-design --delays -t "$tmp/f"
expect_exit 2 "-n 26" -- trc-design -n 26
is "$(cat "$err")" "trc-design: invalid factors '26' (want an integer from 1 to 25)" "  its message"
expect_exit 2 "--replications 0" -- trc-design -n 2 --replications 0
expect_exit 2 "-s x" -- trc-design -n 2 -s 1x
expect_exit 2 "unknown option" -- trc-design -x
is "$(cat "$err")" "$(printf '%s\n' "trc-design: invalid option -- 'x'" "usage: $(trc-design -h | head -1 | sed 's/^usage: //')")" "  usage on stderr"
expect_exit 0 "-h" -- trc-design -h
expect_exit 0 "--version" -- trc-design --version

# The usage line equals the man page's SYNOPSIS.
man=$T/../man/man1/trc-design.1
syn=$(groff -mandoc -Tascii -P-cbou -rLL=300n "$man" 2>/dev/null |
	sed -n '/^SYNOPSIS/{n;p;}' | sed 's/^ *//')
is "usage: $syn" "$(trc-design -h | head -1)" "usage line is the SYNOPSIS"
groff -mandoc -ww -z "$man" 2>"$err"
is "$(cat "$err")" "" "man page is clean"

done_testing
