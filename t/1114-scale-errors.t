#!/bin/sh
# trc-scale: errors name file and line, exit 2.
. "$(dirname "$0")/lib.sh"

usage="usage: trc-scale [-v] [-b base.fit] [-c target.fit | --model name[:file]] [-f format] [--cores cores [--bound]] [--cpu ratios | --cpu-ratio ratio] [--flops rate] [--outliers scale|delay|drop] [--poll wait|cost|comp] [--set name=value,...] [--strict] [--switch seconds] [--traced] [--wall] [file]"

# A receive whose send never comes.
cat >"$tmp/u.trc" <<'X'
#trc 1 ranks=2
0.000000000 0 SB peer=1 tag=1 bytes=8
0.000000000 1 RB peer=0 tag=2 bytes=8
1.000000000 0 SE peer=1 tag=1 bytes=8
2.000000000 1 RE peer=0 tag=2 bytes=8
3.000000000 1 MK
X
expect_exit 2 "unmatched receive" -- trc-scale "$tmp/u.trc"
is "$(cat "$err")" "trc-scale: $tmp/u.trc:4: warning: send to rank 1 tag 1 comm 0 was never received
trc-scale: $tmp/u.trc:5: receive from rank 0 tag 2 comm 0 has no matching send" \
    "unmatched send warned, unmatched receive an error, by line"

# A ratio table with a bad pattern.
printf 'mode speed\nIterEdge 0 14.2\nIter(Edge 1 14.4\n' >"$tmp/bad.tbl"
expect_exit 2 "bad pattern" -- trc-scale --cpu "$tmp/bad.tbl" "$tmp/u.trc"
is "$(cat "$err")" "trc-scale: $tmp/bad.tbl:3: bad pattern 'Iter(Edge': missing closing parenthesis at offset 9" \
    "bad pattern: file, line and PCRE2's message"

# Fit files with a gap and with an overlap.
printf 'send 0 1024 1e-6 1e-9\nsend 2048 inf 1e-6 1e-9\n' >"$tmp/gap.fit"
expect_exit 2 "gap" -- trc-scale --comm "$tmp/gap.fit" "$tmp/u.trc"
is "$(cat "$err")" "trc-scale: $tmp/gap.fit:2: gap in 'send' sizes: previous row ends at 1024, this one starts at 2048" \
    "gap in a fit file"
printf 'recv 0 inf 1e-6 0\nsend 0 4096 1e-6 1e-9\nsend 1024 inf 1e-6 1e-9\n' >"$tmp/ov.fit"
expect_exit 2 "overlap" -- trc-scale -c "$tmp/target.fit" -b "$tmp/ov.fit" "$tmp/u.trc"
is "$(cat "$err")" "trc-scale: $tmp/target.fit: No such file or directory" "missing fit file"
expect_exit 2 "overlap" -- trc-scale -b "$tmp/ov.fit" "$tmp/u.trc"
is "$(cat "$err")" "trc-scale: $tmp/ov.fit:3: overlap in 'send' sizes: previous row ends at 4096, this one starts at 1024" \
    "overlap in a fit file"
printf 'send 0 inf 1 0\n' >"$tmp/ok.fit"
expect_exit 2 "base alone" -- trc-scale -b "$tmp/ok.fit" "$tmp/u.trc"
is "$(cat "$err")" "trc-scale: --base needs --comm" "--base without --comm"

# A collective that never completes, and one without a size.
cat >"$tmp/c.trc" <<'X'
#trc 1 ranks=3
1.000000000 0 XB op=barrier comm=0
1.000000000 1 XB op=barrier comm=0
2.000000000 0 XE op=barrier comm=0
X
expect_exit 2 "incomplete collective" -- trc-scale "$tmp/c.trc"
is "$(cat "$err")" "trc-scale: $tmp/c.trc:2: collective on comm 0 never completed: 2 of 3 ranks entered" \
    "incomplete collective named by its first line"
printf '#trc 1\n1.000000000 0 XB op=barrier comm=4\n' >"$tmp/s.trc"
expect_exit 2 "no size" -- trc-scale "$tmp/s.trc"
is "$(cat "$err")" "trc-scale: $tmp/s.trc:2: collective on comm 4 needs size=" "sub-communicator without size="
printf '#trc 1\n1.000000000 0 XE op=barrier\n' >"$tmp/s.trc"
expect_exit 2 "XE alone" -- trc-scale "$tmp/s.trc"
is "$(cat "$err")" "trc-scale: $tmp/s.trc:2: collective end without its begin" "XE without XB"
printf '#trc 1\n1.000000000 1 RE peer=* tag=1\n' >"$tmp/s.trc"
expect_exit 2 "RE without source" -- trc-scale "$tmp/s.trc"
is "$(cat "$err")" "trc-scale: $tmp/s.trc:2: receive completion without actual peer= and tag=" "RE needs the actual source"
printf '#trc 1\n1.000000000 1 MK\n0.500000000 1 MK\n' >"$tmp/s.trc"
expect_exit 2 "time backwards" -- trc-scale "$tmp/s.trc"
is "$(cat "$err")" "trc-scale: $tmp/s.trc:3: time goes backwards ('0.500000000' after '1.000000000')" "reader errors pass through"

# Usage.
printf 'mode time\n.* all 2\n' >"$tmp/good.tbl"
expect_exit 2 "--cpu-ratio and --cpu together" -- trc-scale --cpu-ratio 2 --cpu "$tmp/good.tbl"
is "$(cat "$err")" "$usage" "--cpu-ratio and --cpu exclude each other"
expect_exit 2 "bad ratio" -- trc-scale --cpu-ratio 0
is "$(cat "$err")" "trc-scale: invalid ratio '0'" "ratio must be positive"
expect_exit 2 "two files" -- trc-scale a b
expect_exit 0 "help" -- trc-scale --help
is "$(head -1 "$out")" "$usage" "help prints the usage"
syn=$(groff -mandoc -Tascii -P-cbu -rLL=2000n "$T/../man/man1/trc-scale.1" 2>/dev/null |
    awk '/^SYNOPSIS/ { f = 1; next } f && /^[A-Z]/ { exit } f' | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
is "usage: $syn" "$usage" "usage equals the man page SYNOPSIS"
done_testing
