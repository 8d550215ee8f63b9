#!/bin/sh
# libtrc-mpi with TRC_FORMAT=trcb: the trace of trc-heat written in
# binary has the execution graph and header lines of the text one; the
# text trace goes round trip through trcb byte for byte; a bad
# TRC_FORMAT stops the run.
. "$(dirname "$0")/lib.sh"
. "$T/mpi/lib-mpi.sh"
[ -x "$TRC_BIN/trc-heat" ] || skip_all "trc-heat not built"

trc-record -o "$tmp/a.trc" -- -np 3 trc-heat -n 12 -i 6 --tolerance 0 >"$out" 2>"$err"
ok $? "text: trc-record runs trc-heat"
TRC_FORMAT=trcb trc-record -o "$tmp/b.trcb" -- -np 3 trc-heat -n 12 -i 6 --tolerance 0 >"$out" 2>"$err"
ok $? "TRC_FORMAT=trcb: trc-record runs trc-heat"
is "$(head -c 5 "$tmp/b.trcb" | od -An -c | tr -s ' ')" " 211 T R C B" "trcb: the file starts with the magic"
trc-cat "$tmp/b.trcb" > "$tmp/b.trc"
ok $? "trcb: trc-cat reads it"
is "$(sed -n '1p; /^#tracer/s/program=.*//p' "$tmp/b.trc")" \
    "$(printf '#trc 1 ranks=3 order=time\n#tracer libtrc-mpi ')" "trcb: the header lines of the tracer"
trc-stable "$tmp/a.trc" "$tmp/b.trcb" > "$out"
ok $? "trc-stable: the text run and the trcb run have identical graphs"
trc-cat --to trcb "$tmp/a.trc" | trc-cat > "$tmp/a2.trc"
trc-cat "$tmp/a.trc" | cmp -s - "$tmp/a2.trc"
ok $? "the text trace goes through trcb byte for byte"
TRC_FORMAT=trcb-zstd trc-record -o "$tmp/c.trcb" -- -np 2 trc-heat -n 8 -i 3 --tolerance 0 >"$out" 2>"$err"
ok $? "TRC_FORMAT=trcb-zstd: trc-record runs trc-heat"
trc-cat "$tmp/c.trcb" > /dev/null
ok $? "trcb-zstd: trc-cat reads it"
TRC_FORMAT=bogus trc-record -o "$tmp/d.trc" -- -np 2 trc-heat -n 8 -i 3 >"$out" 2>"$err"
ok $((! $?)) "TRC_FORMAT=bogus: fails"
grep -q "libtrc-mpi: rank [0-9]*: TRC_FORMAT: unknown format 'bogus'" "$err"  # whichever rank mpirun lets speak first
ok $? "TRC_FORMAT=bogus: the tracer says why"
done_testing
