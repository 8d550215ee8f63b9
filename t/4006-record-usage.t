#!/bin/sh
# trc-record: usage, bad options, a missing library, and the man pages
# of the MPI tools.
. "$(dirname "$0")/lib.sh"

u="usage: trc-record [-d delay] [-l library] [-o file] [-T seconds] [--bufsize bufsize] [--clock clock] -- mpirun-argument ..."
expect_exit 0 "-h exits 0" -- trc-record -h
is "$(head -1 "$out")" "$u" "-h prints the usage"
syn=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p' "$T/../man/man1/trc-record.1" |
	awk '/^\.Op/ { sub(/^\.Op Fl /, "-"); sub(/ Ar /, " "); s = s " [" $0 "]" }
	     /^\.Fl \\-/ { s = s " --" } /^\.Ar mpirun/ { s = s " mpirun-argument ..." }
	     END { print "usage: trc-record" s }')
is "$syn" "$u" "the usage equals the SYNOPSIS"
expect_exit 0 "--version exits 0" -- trc-record --version
expect_exit 2 "no command exits 2" -- trc-record -o x.trc
is "$(cat "$err")" "$u" "no command prints the usage"
expect_exit 2 "an unknown option exits 2" -- trc-record -z -- -np 1 true
is "$(cat "$err")" "trc-record: invalid option '-z'
$u" "an unknown option is named, with the usage"
expect_exit 2 "a missing library exits 2" -- trc-record -l "$tmp/nope.so" -o "$tmp/x.trc" -- -np 1 true
is "$(cat "$err")" "trc-record: libtrc-mpi.so not found; give -l library" "a missing library is named"
expect_exit 2 "an unwritable output exits 2" -- trc-record -l "$0" -o "$tmp/no/x.trc" -- -np 1 true
is "$(cat "$err")" "trc-record: $tmp/no/x.trc: cannot write" "an unwritable output is named"

# Letters as getopts takes them, --bufsize with = or apart, through a
# stand-in for mpirun that writes what it was given as the trace.
cat >"$tmp/mpirun" <<'X'
#!/bin/sh
X=
while [ "$1" = -x ]; do X="$X $2"; shift 2; done
printf '#trc 1\n# bufsize=%s delay=%s args=%s\n# clock=%s x=%s\n' "$TRC_BUFSIZE" "$TRC_DELAY" "$*" "$TRC_CLOCK" "$X" >"$TRC_OUT"
X
chmod +x "$tmp/mpirun"
expect_exit 0 "-ofile -dspec --bufsize=64 -l lib" -- env MPIRUN="$tmp/mpirun" \
    trc-record -o"$tmp/r1.trc" -dcall=send,delay=1 --bufsize=64 -l "$0" -- -np 2 prog -o x
is "$(sed -n 2p "$tmp/r1.trc")" "# bufsize=64 delay=call=send,delay=1 args=-np 2 prog -o x" "  all taken"
expect_exit 0 "-o file -d spec --bufsize 128, no --" -- env MPIRUN="$tmp/mpirun" \
    trc-record -o "$tmp/r2.trc" -d call=recv,delay=2 --bufsize 128 -l "$0" prog -x
is "$(sed -n 2p "$tmp/r2.trc")" "# bufsize=128 delay=call=recv,delay=2 args=prog -x" "  all taken"
expect_exit 0 "--clock cpu" -- env MPIRUN="$tmp/mpirun" \
    trc-record --clock cpu -o "$tmp/r3.trc" -l "$0" -- -np 2 prog
is "$(sed -n 3p "$tmp/r3.trc" | sed 's/x=.* TRC_DELAY /x=... /')" "# clock=cpu x=... TRC_FORMAT TRC_CLOCK" \
    "  TRC_CLOCK=cpu, passed on with -x"
expect_exit 0 "--clock=monotonic,cpu" -- env MPIRUN="$tmp/mpirun" \
    trc-record --clock=monotonic,cpu -o "$tmp/r4.trc" -l "$0" -- -np 2 prog
is "$(sed -n 3p "$tmp/r4.trc" | cut -d' ' -f2)" "clock=monotonic,cpu" "  taken"
expect_exit 0 "TRC_CLOCK from the environment" -- env MPIRUN="$tmp/mpirun" TRC_CLOCK=both \
    trc-record -o "$tmp/r5.trc" -l "$0" -- -np 2 prog
is "$(sed -n 3p "$tmp/r5.trc" | cut -d' ' -f2)" "clock=both" "  kept"
expect_exit 2 "-o without its argument" -- trc-record -o
is "$(cat "$err")" "$u" "  usage"
expect_exit 2 "an unknown long option" -- trc-record --nosuch -- -np 1 true
is "$(cat "$err")" "trc-record: invalid option '--nosuch'
$u" "  named, with the usage"

# As root without Open MPI's two variables, mpirun refuses: the error
# names trc-record and says what Open MPI needs.
if [ "$(id -u)" = 0 ] && command -v mpirun >/dev/null; then
	env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
	    trc-record -l "${TRC_BUILD:-$T/../build}/libtrc-mpi.so" -o "$tmp/root.trc" -- -np 1 true >/dev/null 2>"$err"
	is "$?:$(tail -1 "$err")" "2:trc-record: no trace written to $tmp/root.trc (mpirun exit 1); as root, Open MPI needs OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in the environment" \
	    "as root without OMPI_ALLOW_RUN_AS_ROOT: named, with what Open MPI needs"
fi

for m in man1/trc-heat.1 man1/trc-pingpong.1 man1/trc-record.1 man7/libtrc-mpi.7; do
	is "$(groff -mandoc -ww -z "$T/../man/$m" 2>&1)" "" "$m is clean"
done
done_testing
