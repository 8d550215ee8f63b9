#!/bin/sh
# --help prints, after the usage line, a line for every option, long
# options included, on every program: the options of the usage line
# and the items of the man page's option list (counted in its source)
# are the help's lines, and each fits 79 columns.  And every page
# renders without stray markup.
. "$(dirname "$0")/lib.sh"
man=$T/../man

# The options of a usage line, one a line: -x and --name.
usage_opts() {
	sed -n 's/^usage: //p' | head -1 | awk '{
		s = $0
		while (match(s, /\[-[A-Za-z]+\]/)) {
			c = substr(s, RSTART + 2, RLENGTH - 3)
			for (i = 1; i <= length(c); i++) print "-" substr(c, i, 1)
			s = substr(s, RSTART + RLENGTH)
		}
		s = $0
		while (match(s, /(\[|\| )-[A-Za-z]( |\])/)) {
			print substr(s, RSTART + RLENGTH - 3, 2)
			s = substr(s, RSTART + RLENGTH)
		}
		s = $0
		while (match(s, /--[a-z][a-z-]*/)) {
			print substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
		}
	}' | grep -v -x -e '--help' -e '--version' -e '-h' | sort -u
}

for p in "$TRC_BIN"/*; do
	[ -f "$p" ] && [ -x "$p" ] || continue
	n=${p##*/}
	"$p" --help >"$out" 2>"$err"
	is "$?:$(head -c 7 "$out")" "0:usage: " "$n --help: exit 0, the usage first"
	usage_opts <"$out" >"$tmp/u"
	# The help's lines: after "options:", one per option, its
	# options the words of its tag that start with a dash.
	awk 'f { print } /^options:$/ { f = 1 }' "$out" >"$tmp/lines"
	awk '{ t = substr($0, 3, 26); sub(/  .*/, "", t); n = split(t, w, /[ ,|]+/)
		for (i = 1; i <= n; i++) if (w[i] ~ /^--?[A-Za-z]/) { sub(/[=[].*/, "", w[i]); print w[i] } }' \
	    "$tmp/lines" | sort -u >"$tmp/h"
	is "$(comm -23 "$tmp/u" "$tmp/h" | tr '\n' ' ')" "" \
	    "$n: every option of the usage has its line ($(wc -l <"$tmp/u" | tr -d ' '))"
	# The help may add a letter's long form, on the letter's line.
	for o in $(comm -13 "$tmp/u" "$tmp/h"); do
		grep -q -- "^  -[A-Za-z][ ,].*$o\( \|,\|$\)" "$tmp/lines" || echo "$o"
	done >"$tmp/extra"
	is "$(tr '\n' ' ' <"$tmp/extra")" "" "$n: the help's other options are long forms of the usage's letters"
	is "$(awk 'length > 79' "$tmp/lines")" "" "$n: each line fits 79 columns"
	is "$(awk '!/^  -/' "$tmp/lines")" "" "$n: a line per option"
	page=$man/man1/$n.1
	[ -f "$page" ] || continue
	items=$(awk '/^\.Sh / { s = $2 } (s == "DESCRIPTION" || s == "OPTIONS") && /^\.It Fl / { c++ } END { print c + 0 }' "$page")
	is "$(wc -l <"$tmp/lines" | tr -d ' ')" "$items" "$n: as many lines as the page's options"
done

# Every page renders without stray markup: no macro name left in the
# text, as "Sub" and "Sup" once were in trc-effects(1).
for page in "$man"/man1/*.1 "$man"/man5/*.5 "$man"/man7/*.7; do
	groff -mandoc -Tascii -P-cbou -rLL=200n "$page" 2>&1 |
	    grep -E '\<(Ns|Pf|Xr|Fl|Ar|Li|Sy|Ql|Dq|Pq|Oo|Oc|Nm|Cm|Ev|Dv|Fn|Va|Bl|El)\>|Sub |Sup ' >"$tmp/stray"
	is "$(cat "$tmp/stray")" "" "${page##*/} renders without stray markup"
done
done_testing
