#!/bin/sh
# trc-fit: bad input and usage, exact diagnostics and exit 2.
. "$(dirname "$0")/lib.sh"

printf 'send 8 1e-6\nsend 8 x\n' >"$tmp/a"
expect_exit 2 "bad time" -- trc-fit "$tmp/a"
is "$(cat "$err")" "trc-fit: $tmp/a:2: invalid time 'x'" "bad time named"
printf 'send 8 1e-6\n\nsend -8 1e-6\n' >"$tmp/a"
expect_exit 2 "negative size" -- trc-fit "$tmp/a"
is "$(cat "$err")" "trc-fit: $tmp/a:3: invalid size '-8'" "negative size named"
printf 'send 8 0\n' >"$tmp/a"
expect_exit 2 "zero time" -- trc-fit "$tmp/a"
is "$(cat "$err")" "trc-fit: $tmp/a:1: invalid time '0'" "zero time named"
printf 'send 8\n' >"$tmp/a"
expect_exit 2 "two fields" -- trc-fit <"$tmp/a"
is "$(cat "$err")" "trc-fit: <stdin>:1: expected 'OPERATION BYTES SECONDS'" "two fields named"
printf 'se/nd 8 1\n' >"$tmp/a"
expect_exit 2 "bad name" -- trc-fit <"$tmp/a"
is "$(cat "$err")" "trc-fit: <stdin>:1: invalid operation name 'se/nd'" "bad name named"
printf 'send-late 8 1e-6\n' >"$tmp/a"
expect_exit 2 "send-late without send" -- trc-fit "$tmp/a"
is "$(cat "$err")" "trc-fit: send-late needs send measurements" "send-late without send named"
printf 'send 8 1e-6\nsend-late 16 1e-6\n' >"$tmp/a"
expect_exit 2 "send-late at no send size" -- trc-fit "$tmp/a"
is "$(cat "$err")" "trc-fit: send-late: no size measured by send too" "send-late at other sizes named"
printf '# nothing\n' >"$tmp/a"
expect_exit 2 "no data" -- trc-fit <"$tmp/a"
is "$(cat "$err")" "trc-fit: no measurements" "no data named"
expect_exit 2 "missing file" -- trc-fit "$tmp/none"
is "$(cat "$err")" "trc-fit: $tmp/none: No such file or directory" "missing file named"
expect_exit 2 "bad --segments" -- trc-fit --segments 0 "$tmp/a"
is "$(cat "$err")" "trc-fit: invalid segment count '0' (want an integer from 1 to 16)" "bad --segments named"
expect_exit 2 "bad option" -- trc-fit -x
is "$(tail -1 "$err")" "usage: trc-fit [-v] [--loggp] [--penalty penalty] [--points points] [--segments segments] [--strict] [file ...]" "usage on bad option"
expect_exit 0 "help" -- trc-fit -h
is "$(head -1 "$out")" "usage: trc-fit [-v] [--loggp] [--penalty penalty] [--points points] [--segments segments] [--strict] [file ...]" "help prints usage"
syn=$(groff -mandoc -Tascii -P-cbou -rLL=300n "$T/../man/man1/trc-fit.1" 2>/dev/null |
    sed -n '/^SYNOPSIS/{n;p;}' | sed 's/^ *//')
is "usage: $syn" "usage: trc-fit [-v] [--loggp] [--penalty penalty] [--points points] [--segments segments] [--strict] [file ...]" "usage equals the man page SYNOPSIS"
expect_exit 0 "version" -- trc-fit --version
done_testing
