#!/bin/sh
# trc-race: bad input, each error named with its file and line, exit 2;
# bad usage.
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 2

# bad NAME 'MESSAGE' < trace: trc-race NAME exits 2 with exactly that.
bad() {
	cat >"$1"
	expect_exit 2 "$1: exit 2" -- trc-race "$1"
	is "$(cat "$err")" "trc-race: $1:$2" "$1: $2"
	is "$(cat "$out")" "" "$1: nothing on stdout"
}

bad nosend.trc "3: receive from 1 tag 5 has no send" <<'E'
#trc 1 ranks=2
0.000000001 0 RB peer=* tag=5 bytes=4
0.000000002 0 RE peer=1 tag=5 bytes=4
0.000000003 0 MK mark=finalize
E
bad wildre.trc "3: receive completion without actual peer= and tag=" <<'E'
#trc 1 ranks=2
0.000000001 0 RB peer=* tag=5 bytes=4
0.000000002 0 RE peer=* tag=5 bytes=4
E
bad wildse.trc "2: send without peer= and tag=" <<'E'
#trc 1 ranks=2
0.000000001 0 SE peer=* tag=5 bytes=4
E
bad noxb.trc "2: collective end without its begin" <<'E'
#trc 1 ranks=2
0.000000001 0 XE op=barrier bytes=0
E
bad nosize.trc "2: collective on comm 3 needs size=" <<'E'
#trc 1 ranks=2
0.000000001 0 XB op=barrier bytes=0 comm=3
E
bad noranks.trc "2: collective needs the header's ranks= or size=" <<'E'
#trc 1
0.000000001 0 XB op=barrier bytes=0
E
bad badsize.trc "2: invalid size '0'" <<'E'
#trc 1 ranks=2
0.000000001 0 XB op=barrier bytes=0 comm=3 size=0
E
bad toomany.trc "4: collective on comm 3 has more than 2 participants" <<'E'
#trc 1 ranks=3
0.000000001 0 XB op=barrier bytes=0 comm=3 size=2
0.000000002 1 XB op=barrier bytes=0 comm=3 size=2
0.000000003 2 XB op=barrier bytes=0 comm=3 size=2
E
bad nested.trc "3: collective begin inside another collective" <<'E'
#trc 1 ranks=2
0.000000001 0 XB op=barrier bytes=0
0.000000002 0 XB op=barrier bytes=0
E
bad alone.trc "3: collective end: not every participant entered" <<'E'
#trc 1 ranks=2
0.000000001 0 XB op=barrier bytes=0
0.000000002 0 XE op=barrier bytes=0
E
bad twice.trc "3: request 1 already pending" <<'E'
#trc 1 ranks=2
0.000000001 0 RB peer=* tag=5 bytes=4 req=1
0.000000002 0 RB peer=1 tag=5 bytes=4 req=1
E
bad notrecv.trc "5: receive completion of req=1, which is not a receive" <<'E'
#trc 1 ranks=2
0.000000001 0 SB peer=1 tag=5 bytes=4 req=1
0.000000002 0 SE peer=1 tag=5 bytes=4 req=1
0.000000003 0 WB req=1 op=wait
0.000000004 0 RE peer=1 tag=5 bytes=4 req=1
E
bad range.trc "2: peer 2 out of the header's ranks=2" <<'E'
#trc 1 ranks=2
0.000000001 0 SE peer=2 tag=5 bytes=4
E
bad time.trc "3: invalid time '0.00000000x'" <<'E'
#trc 1 ranks=2
0.000000001 0 RB peer=* tag=5 bytes=4
0.00000000x 1 SB peer=0 tag=5 bytes=4
E
bad kind.trc "2: unknown kind 'ZZ'" <<'E'
#trc 1 ranks=2
0.000000001 0 ZZ peer=* tag=5 bytes=4
E
# A trace with a race and an error at its end: exit 2, and the race,
# settled at the end, is not printed as if the answer were complete.
{
	echo "#trc 1 ranks=3"
	echo "0.000000001 1 SE peer=0 tag=5 bytes=4"
	echo "0.000000002 2 SE peer=0 tag=5 bytes=4"
	echo "0.000000003 0 RB peer=* tag=5 bytes=4"
	echo "0.000000004 0 RE peer=1 tag=5 bytes=4"
	echo "0.000000005 0 RB peer=2 tag=5 bytes=4"
	echo "0.000000006 0 RE peer=2 tag=5 bytes=4"
	echo "0.000000007 0 RE peer=1 tag=6 bytes=4"
} >late.trc
expect_exit 2 "late.trc: an error at the end, exit 2" -- trc-race late.trc
is "$(cat "$err")" "trc-race: late.trc:8: receive from 1 tag 6 has no send" "late.trc: named"
is "$(cat "$out")" "" "late.trc: nothing on stdout"
expect_exit 2 "-q does not hide an error before the first race" -- trc-race -q nosend.trc
is "$(cat "$err")" "trc-race: nosend.trc:3: receive from 1 tag 5 has no send" "-q: the error"

expect_exit 2 "no such file" -- trc-race nosuch.trc
is "$(cat "$err")" "trc-race: nosuch.trc: No such file or directory" "no such file: named"
expect_exit 2 "two files" -- trc-race late.trc late.trc
is "$(cat "$err")" "usage: trc-race [-q] [-f format] [--flops rate] [file]" "two files: usage"
expect_exit 2 "an unknown option" -- trc-race -x late.trc
is "$(tail -1 "$err")" "usage: trc-race [-q] [-f format] [--flops rate] [file]" "-x: usage"
# Vector clocks take ranks^2 entries: past 16384 ranks an error, at
# once, not hours of work (a 94-byte input from the fuzzer took more).
bad many.trc "1: ranks=302000: trc-race takes at most 16384 ranks (vector clocks of ranks^2 entries, TRC_RACE_MAX)" <<'E'
#trc 1 ranks=302000
0.000000000 0 MK mark=init
E
bad far.trc "3: rank 16384: trc-race takes at most 16384 ranks (vector clocks of ranks^2 entries, TRC_RACE_MAX)" <<'E'
#trc 1
0.000000000 0 RB peer=* tag=1
0.000000001 16384 SE peer=0 tag=1
E

expect_exit 2 "an unknown format" -- trc-race -f nosuch late.trc
expect_exit 0 "-h" -- trc-race -h
is "$(head -1 "$out")" "usage: trc-race [-q] [-f format] [--flops rate] [file]" "-h: usage on stdout"
expect_exit 0 "--version" -- trc-race --version
done_testing
