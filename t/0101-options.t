#!/bin/sh
# One letter, one meaning: the README's table of options against every
# program's usage line, both ways; -h in every program; old letters
# that now mean something else, or nothing, are refused.
. "$(dirname "$0")/lib.sh"
readme=$T/../README

progs=
for p in "$TRC_BIN"/*; do
	[ -f "$p" ] && [ -x "$p" ] && progs="$progs ${p##*/}"
done

# The table: "OPTION PROGRAM" for every entry of the Options section,
# letters as -X, long options as --name; "every program" is each.
awk -v progs="$progs" '
	/^-+$/ { f = prev == "Options"; next }
	{ prev = $0 }
	!f { next }
	/^    -/ { flush()
		for (i = 1; i <= NF && $i ~ /^-/; i++) opt[++n] = $i
		text = $0; next }
	/^     / && n { text = text " " $0 }
	END { flush() }
	function flush(   m, w, k, j, e) {
		if (!n) return
		if (text ~ /every program/) {
			m = split(progs, w, " ")
			for (k = 1; k <= m; k++) for (j = 1; j <= n; j++) print opt[j], w[k]
		}
		while (match(text, /trc-[a-z0-9-]*[a-z0-9]/)) {
			e = substr(text, RSTART, RLENGTH)
			for (j = 1; j <= n; j++) print opt[j], e
			text = substr(text, RSTART + RLENGTH)
		}
		n = 0
	}' "$readme" | sort -u >"$tmp/table"
[ -s "$tmp/table" ]; ok $? "README has an Options table"

# One meaning: no option has two entries.
awk '/^    -/ { print $1 }' "$readme" | sort | uniq -d >"$tmp/dup"
is "$(cat "$tmp/dup")" "" "no letter or long option has two entries"

# The programs: each usage line's letters and long options, with -h,
# --help and --version, which every program takes.
for n in $progs; do
	"$TRC_BIN/$n" --help 2>/dev/null | sed -n 's/^usage: //p' | head -1 |
	awk -v n="$n" '{
		s = $0
		while (match(s, /\[-[A-Za-z]+\]/)) {	# flags: [-qw]
			c = substr(s, RSTART + 2, RLENGTH - 3)
			for (i = 1; i <= length(c); i++) print "-" substr(c, i, 1), n
			s = substr(s, RSTART + RLENGTH)
		}
		s = $0
		while (match(s, /(\[|\| )-[A-Za-z] /)) {	# [-f format], | -x y
			print substr(s, RSTART + RLENGTH - 3, 2), n
			s = substr(s, RSTART + RLENGTH)
		}
		s = $0
		while (match(s, /--[a-z][a-z-]*/)) {
			print substr(s, RSTART, RLENGTH), n
			s = substr(s, RSTART + RLENGTH)
		}
		print "-h", n; print "--help", n; print "--version", n
	}'
done | sort -u >"$tmp/usage"
is "$(comm -13 "$tmp/table" "$tmp/usage")" "" "every option of a usage line is in the table for its program"
is "$(comm -23 "$tmp/table" "$tmp/usage")" "" "every option of the table is in its programs' usage lines"

for n in $progs; do
	"$TRC_BIN/$n" -h >"$out" 2>"$err"
	is "$?:$(sed -n 1p "$out" | cut -c1-7)" "0:usage: " "$n -h prints the usage"
done

# Letters that meant something else before they had one meaning.
for c in "trc-scale -k 0.5" "trc-scale -p x.tbl" "trc-sum -s ranks" \
    "trc-stable -e kind a b" "trc-stable -s mk a b" "trc-stable -t 2 a b" \
    "trc-graph -t 0-1" "trc-gen -b 100" "trc-gen -c 0.1" "trc-fit -k 2" \
    "trc-fit -m 3" "trc-fit -p 1" "trc-design -d -n 2" "trc-design -n 2 -r 2" \
    "trc-effects -c 95" "trc-effects -d d" "trc-effects -f f"; do
	set -- $c
	expect_exit 2 "$c: refused" -- "$@"
	is "$(tail -1 "$err")" "$("$1" --help | head -1)" "  with the usage"
done
expect_exit 2 "trc-record -b 4096: refused" -- trc-record -b 4096 -- -np 1 true
is "$(cat "$err")" "trc-record: invalid option '-b'
$(trc-record --help | head -1)" "  named, with the usage"
expect_exit 2 "trc-experiment -f f: refused" -- trc-experiment -f f "$tmp/x.exp"
is "$(cat "$err")" "trc-experiment: invalid option '-f'
$(trc-experiment --help | head -1)" "  named, with the usage"
expect_exit 2 "trc-experiment -p: refused" -- trc-experiment -p "$tmp/x.exp"
[ ! -e "$tmp/x.exp" ]; ok $? "  and makes nothing"
done_testing
