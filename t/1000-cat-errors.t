#!/bin/sh
# trc-cat on bad input: every error is "trc-cat: file:line: message",
# exit 2, and the good events before it are not lost.
. "$(dirname "$0")/lib.sh"

bad() {	# NAME CONTENT WANT-STDERR
	printf '%b' "$2" > "$tmp/in.trc"
	expect_exit 2 "$1: exit 2" -- trc-cat "$tmp/in.trc"
	is "$(cat "$err")" "trc-cat: $tmp/in.trc:$3" "$1: message"
}

bad "missing header" '0.5 0 SB\n' "1: missing '#trc' header"
bad "wrong header" '#trc 2\n0.5 0 SB\n' "1: unsupported stream version '2'"
bad "empty file" '' "1: missing '#trc' header (empty input)"
bad "malformed time" '#trc 1\n0.5x 0 SB\n' "2: invalid time '0.5x'"
bad "negative time" '#trc 1\n-0.5 0 SB\n' "2: negative time '-0.5'"
bad "infinite time" '#trc 1\ninf 0 SB\n' "2: invalid time 'inf'"
bad "not a number" '#trc 1\nnan 0 SB\n' "2: invalid time 'nan'"
bad "unknown kind" '#trc 1\n0.5 0 SB\n0.6 0 QQ\n' "3: unknown kind 'QQ'"
bad "missing rank" '#trc 1\n0.5\n' "2: missing rank"
bad "rank out of range" '#trc 1 ranks=2\n0.5 2 SB\n' "2: rank 2 out of range (ranks=2)"
bad "time backwards" '#trc 1\n0.5 0 SB\n0.4 1 SB\n' \
	"3: time goes backwards ('0.400000000' after '0.500000000')"
bad "time backwards on a rank" '#trc 1 order=rank\n0.5 0 SB\n0.9 1 SB\n0.4 0 SE\n' \
	"4: time goes backwards on rank 0 ('0.400000000' after '0.500000000')"
bad "truncated last line" '#trc 1\n0.5 0 SB\n0.6 0 S' "3: truncated last line (no newline at end)"
bad "bad attribute" '#trc 1\n0.5 0 SB peer=one\n' "2: invalid peer 'one'"
bad "a NUL byte" '#trc 1\n0.5 0 SB\n0.6 0 SE peer=1\0x\n' "3: NUL byte in line"
bad "a NUL byte, slow path" '#trc 1\n0.5 0 SB\n 0.6 0 SE peer=1\0x\n' "3: NUL byte in line"
# Digits beyond what the clock and ranks hold, and lines that end right
# after the rank: refused, never wrapped or read past (the fast path
# stops at 9 digits; the sanitizer tests run these too).
sixes=$(printf '6%.0s' $(seq 100))
printf '#trc 1\n0.%s 0 MK\n' "$sixes" | trc-cat >"$out" 2>"$err"
is "$?:$(tail -1 "$out")" "0:0.666666667 0 MK" "a 100-digit fraction: rounded to the nearest ns (trc(5))"
bad "30 digits of seconds" "#trc 1\n$(printf '9%.0s' $(seq 30)).0 0 MK\n" "2: invalid time '$(printf '9%.0s' $(seq 30)).0'"
bad "a 25-digit rank" "#trc 1\n0.5 $(printf '1%.0s' $(seq 25)) MK\n" "2: invalid rank '$(printf '1%.0s' $(seq 25))'"
bad "nothing after the rank" '#trc 1\n0 0 \n' "2: missing kind"
bad "nothing after the rank, no newline" '#trc 1\n0 0 ' "2: truncated last line (no newline at end)"
bad "half a kind" '#trc 1\n0 0 S\n' "2: unknown kind 'S'"
long=$(head -c 70000 /dev/zero | tr '\0' a)
TRC_LINE_MAX=65536 bad "a line past TRC_LINE_MAX" "#trc 1\n0.5 0 MK x=$long\n" "2: line longer than 65536 bytes (TRC_LINE_MAX)"

# A 1 MB line past a cap of 64k is refused, not read into memory whole.
{ echo '#trc 1'; printf '0.5 0 MK x='; head -c 1048576 /dev/zero | tr '\0' a; echo; } > "$tmp/long.trc"
TRC_LINE_MAX=64k expect_exit 2 "1 MB line, cap 64k: exit 2" -- trc-cat "$tmp/long.trc"
is "$(cat "$err")" "trc-cat: $tmp/long.trc:2: line longer than 65536 bytes (TRC_LINE_MAX)" "1 MB line, cap 64k: message"
TRC_LINE_MAX=1x expect_exit 2 "a bad TRC_LINE_MAX" -- trc-cat "$tmp/long.trc"
is "$(cat "$err")" "trc-cat: invalid TRC_LINE_MAX '1x'" "a bad TRC_LINE_MAX: message"

expect_exit 2 "a directory: exit 2" -- trc-cat "$tmp"
is "$(cat "$err")" "trc-cat: $tmp: Is a directory" "a directory: message"
expect_exit 2 "a missing file: exit 2" -- trc-cat "$tmp/nonesuch"
is "$(cat "$err")" "trc-cat: $tmp/nonesuch: No such file or directory" "a missing file: message"

printf '#trc 1\n0.5 0 SB\n0.4 0 SE\n' | trc-cat > "$out" 2> "$err"
is "$?" 2 "stdin: exit 2"
is "$(cat "$err")" "trc-cat: <stdin>:3: time goes backwards ('0.400000000' after '0.500000000')" \
	"stdin is named <stdin>"
is "$(cat "$out")" "#trc 1 order=time
0.500000000 0 SB" "the events before the error are kept"

expect_exit 2 "unknown option" -- trc-cat -z
expect_exit 2 "bad rank list" -- trc-cat -r 3-1 /dev/null
is "$(cat "$err")" "trc-cat: invalid rank list '3-1'" "bad rank list: message"
expect_exit 2 "bad kind list" -- trc-cat -k SB,ZZ /dev/null
expect_exit 2 "unknown format" -- trc-cat -f nosuch /dev/null
is "$(cat "$err")" "trc-cat: unknown format 'nosuch'" "unknown format: message"

# A full disk is an error, not a success.
if [ -w /dev/full ]; then
	trc-gen -n 2 -i 1000 > "$tmp/g.trc"
	expect_exit 2 "write error on a full disk" -- sh -c "trc-cat '$tmp/g.trc' > /dev/full"
	case $(cat "$err") in "trc-cat: <stdout>: write error: No space left on device") ok 0 "full disk: message" ;;
	*) ok 1 "full disk: message"; sed 's/^/#   /' "$err" ;; esac
fi

done_testing
