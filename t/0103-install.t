#!/bin/sh
# make install, staged under DESTDIR: programs, man pages, and for a
# program of one's own the library and its headers, and the bundled
# example run; a small program built against what was installed reads
# the installed example.
. "$(dirname "$0")/lib.sh"
top=$T/..
command -v make >/dev/null || skip_all "no make"
: "${TRC_BUILD:=$top/build}"
d=$tmp/root
make -s -C "$top" O="$TRC_BUILD" B="$TRC_BIN" DESTDIR="$d" PREFIX=/usr install >"$out" 2>"$err"
ok $? "make install DESTDIR=... PREFIX=/usr"
for f in bin/trc-sum bin/trc-record share/man/man1/trc-sum.1 share/man/man5/trc.5 \
    lib/libtrc.a include/trc/trc.h include/trc/trc_summary.h \
    share/trc/example/heat-base.trc share/trc/example/ratios.tbl; do
	[ -f "$d/usr/$f" ]; ok $? "  installs $f"
done
is "$(cd "$top/lib" && ls trc*.h | sort | tr '\n' ' ')" "$(cd "$d/usr/include/trc" && ls | sort | tr '\n' ' ')" \
    "  every header of lib/"

cat >"$tmp/mine.c" <<'C'
#include <stdio.h>
#include <trc.h>
#include <trc_summary.h>

int
main(int argc, char **argv)
{
	struct trc_reader *r = trc_open(argc > 1 ? argv[1] : "-");
	struct trc_summary *s = trc_summary_new();
	struct trc_event ev;
	long long n = 0;
	int rc;

	while ((rc = trc_next(r, &ev)) > 0) {
		trc_summary_add(s, &ev);
		n++;
	}
	if (rc < 0 || trc_summary_finish(s) < 0)
		return 2;
	printf("%lld events, %ld ranks\n", n, (long)s->nranks);
	trc_summary_free(s);
	trc_close(r);
	return 0;
}
C
pkgs=
for p in libpcre2-8 gsl zlib otf2 libzstd; do pkg-config --exists $p 2>/dev/null && pkgs="$pkgs $p"; done
# Under the sanitizers libtrc.a wants their runtime.
san=
[ -n "$TRC_SANITIZE" ] && san="-fsanitize=address,undefined"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 $san -I"$d/usr/include/trc" -o "$tmp/mine" "$tmp/mine.c" \
    "$d/usr/lib/libtrc.a" $(pkg-config --libs $pkgs) -lm 2>"$err"
ok $? "a program of one's own builds against the installed headers and libtrc.a"
ex=$d/usr/share/trc/example/heat-base.trc
is "$("$tmp/mine" "$ex")" "$(awk '!/^#/ { n++; r[$2] = 1 } END { print n " events, " length(r) " ranks" }' "$ex")" \
    "  and reads the installed example"
done_testing
