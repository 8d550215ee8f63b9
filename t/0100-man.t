#!/bin/sh
# Every program has a man page that groff accepts, whose SYNOPSIS is
# the program's usage line, and --help and --version work.
. "$(dirname "$0")/lib.sh"
man=$T/../man

synopsis() {
	groff -mandoc -Tascii -P-cbu -rLL=2000n "$1" 2>/dev/null |
	    awk '/^SYNOPSIS/ { f = 1; next } f && /^[A-Z]/ { exit } f' |
	    tr -s ' \n' '  ' | sed 's/^ //; s/ $//'
}

for p in "$TRC_BIN"/*; do
	[ -f "$p" ] && [ -x "$p" ] || continue
	n=${p##*/}
	page=$(ls "$man"/man1/"$n".1 "$man"/man8/"$n".8 2>/dev/null | head -1)
	[ -n "$page" ]; ok $? "$n has a man page"
	[ -n "$page" ] || continue
	[ -z "$(groff -mandoc -ww -z "$page" 2>&1)" ]; ok $? "$n: groff -ww finds nothing"
	"$p" --help > "$out" 2>&1; ok $? "$n --help exits 0"
	"$p" --help > /dev/full 2>/dev/null; is "$?" "2" "$n --help > /dev/full exits 2"
	is "$(sed -n 's/^usage: //p' "$out" | head -1)" "$(synopsis "$page")" "$n: usage is the SYNOPSIS"
	is "$("$p" --version)" "$n 0.1" "$n --version"
done
for page in "$man"/man5/*.5 "$man"/man7/*.7; do
	[ -f "$page" ] || continue
	[ -z "$(groff -mandoc -ww -z "$page" 2>&1)" ]; ok $? "${page##*/}: groff -ww finds nothing"
done
done_testing
