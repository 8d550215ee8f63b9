#!/bin/sh
# trc-svg on bad input: a clear message, exit 2, and no picture - not
# on stdout, not in the -o file (an old one is left as it was).
. "$(dirname "$0")/lib.sh"
d=$T/data/svg
cd "$d" || exit 2

fails() {	# NAME WANT-STDERR CMD...: exit 2, that message, no output
	f_name=$1 f_want=$2
	shift 2
	expect_exit 2 "$f_name: exit 2" -- "$@"
	is "$(cat "$err")" "$f_want" "$f_name: the message"
	is "$(wc -c <"$out")" "0" "$f_name: nothing on stdout"
}

printf '#trc 1 ranks=2\n' >"$tmp/empty.trc"
fails "an empty stream" "trc-svg: $tmp/empty.trc: no events" trc-svg "$tmp/empty.trc"
: >"$tmp/nothing"
fails "an empty file" "trc-svg: $tmp/nothing:1: missing '#trc' header (empty input)" \
    trc-svg "$tmp/nothing"
fails "empty stdin" "trc-svg: <stdin>: no events" sh -c 'printf "#trc 1\n" | trc-svg'
fails "a window after the trace" \
    "trc-svg: the window is outside the trace (0.000000000 to 0.010000000 s)" \
    trc-svg --time 5-6 small.trc
fails "a window before the trace" \
    "trc-svg: the window is outside the trace (0.000001000 to 0.000002000 s)" \
    sh -c 'printf "#trc 1\n0.000001 0 MK\n0.000002 0 MK\n" | trc-svg --time 0-0.0000005'
fails "a window backwards" "trc-svg: invalid time range '0.5-0.1'" trc-svg --time 0.5-0.1 small.trc
fails "an unknown rank" "trc-svg: small.trc: rank 7 is not in the trace (ranks 0-2)" \
    trc-svg -r 7 small.trc
fails "a range past the ranks" "trc-svg: small.trc: rank 3 is not in the trace (ranks 0-2)" \
    trc-svg -r 1-9 small.trc
fails "a bad rank list" "trc-svg: invalid ranks '1,x'" trc-svg -r 1,x small.trc
fails "a bad line" "trc-svg: <stdin>:2: unknown kind 'XX'" \
    sh -c 'printf "#trc 1\n0.1 0 XX\n" | trc-svg'
fails "an unclosed region" "trc-svg: <stdin>: rank 0: region 'x' not closed at the end" \
    sh -c 'printf "#trc 1\n0 0 PB fn=x\n" | trc-svg'
fails "a missing file" "trc-svg: nope.trc: No such file or directory" trc-svg nope.trc
fails "--vs, a bad observed run" "trc-svg: $tmp/empty.trc: no events" \
    trc-svg --vs "$tmp/empty.trc" small.trc
fails "--diff from stdin" "trc-svg: --diff reads its inputs twice: give files, not stdin" \
    trc-svg --diff - small.trc
fails "--diff and --vs" "trc-svg: --diff and --vs exclude each other" \
    trc-svg --diff --vs small.trc race-a.trc race-b.trc
fails "an unknown chart" "trc-svg: invalid chart 'pie' (procs, sizes, ratios or effects)" \
    trc-svg --chart pie small.trc
fails "ratios without --vs" "trc-svg: --chart ratios needs --vs observed" \
    trc-svg --chart ratios small.trc
printf '#trc 1\n1 0 SB\n0 0 SE\n' >"$tmp/backwards.trc"
fails "ratios, a bad observed run" \
    "trc-svg: $tmp/backwards.trc:3: time goes backwards ('0.000000000' after '1.000000000')" \
    trc-svg --chart ratios --vs "$tmp/backwards.trc" small.trc
fails "ratios, a bad predicted run" \
    "trc-svg: $tmp/backwards.trc:3: time goes backwards ('0.000000000' after '1.000000000')" \
    trc-svg --chart ratios --vs small.trc "$tmp/backwards.trc"
fails "sizes without messages" "trc-svg: <stdin>: no messages sent" \
    sh -c 'printf "#trc 1\n0 0 MK\n" | trc-svg --chart sizes'
fails "a chart of nothing" "trc-svg: $tmp/empty.trc: no events" \
    trc-svg --chart procs "$tmp/empty.trc"
fails "effects of something else" "trc-svg: <stdin>: no effects found (trc-effects output expected)" \
    sh -c 'echo hello | trc-svg --chart effects'
fails "effects, a bad percent" "trc-svg: <stdin>:3: invalid percent '1x'" \
    sh -c 'printf "response: t\neffect\tpercent\nA\t1x\n" | trc-svg --chart effects'
fails "a time past 2^61 ns" "trc-svg: <stdin>:3: time beyond what is drawn (73 years)" \
    sh -c 'printf "#trc 1\n0 0 MK\n9223372036.854775807 0 MK\n" | trc-svg'
fails "a narrow picture" "trc-svg: invalid width '10' (want an integer from 200 to 20000)" \
    trc-svg --width 10 small.trc

# -o: a failure leaves an existing file alone and no temporary behind.
echo old >"$tmp/pic.svg"
expect_exit 2 "-o, bad input: exit 2" -- trc-svg -o "$tmp/pic.svg" --time 5-6 small.trc
is "$(cat "$tmp/pic.svg")" "old" "-o, bad input: the old file is untouched"
is "$(ls "$tmp" | grep -c 'pic.svg.tmp')" "0" "-o, bad input: no temporary left"
expect_exit 2 "-o, an unwritable place" -- trc-svg -o "$tmp/no/such/dir.svg" small.trc
is "$(cat "$err")" "trc-svg: $tmp/no/such/dir.svg: cannot create: No such file or directory" \
    "-o, an unwritable place: the message"
expect_exit 2 "a full disk" -- sh -c 'trc-svg small.trc >/dev/full'
grep -q '^trc-svg: <stdout>: write error' "$err"; ok $? "a full disk: the message"
done_testing
