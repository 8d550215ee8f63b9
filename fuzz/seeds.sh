#!/bin/sh
# seeds.sh BIN: write the seed corpora fuzz/corpus/NAME from t/data, the
# streams written out in the tests (t/*.t), trc-gen's patterns and
# what trc-cat writes of them.  Run from the top directory with the
# programs built (sh fuzz/seeds.sh bin).  The committed corpora are what
# it wrote, each cut to the inputs that reach new code:
#	build/fuzz/bin/NAME -merge=1 -use_counters=0 NEW fuzz/corpus/NAME
set -eu
BIN=$1
C=fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$C"
mkdir -p "$C"
for t in stream trcb paraver dumpi simgrid sddf otf2 otf2raw writers ratios fit \
    factors design scale perturb race stable loops; do
	mkdir -p "$C/$t"
done
# put DIR FILE...: each file into the corpus DIR, named by its content.
put() {
	d=$1
	shift
	for _f; do
		cp "$_f" "$C/$d/$(cksum < "$_f" | cut -d' ' -f1)"
	done
}
# cat_sep FILE...: the files with lines "%%" between them.
cat_sep() {
	_first=1
	for _f; do
		[ $_first -eq 1 ] || printf '%%%%\n'
		_first=0
		cat "$_f"
	done
}

# Streams: t/data's, the tests' (between a "#trc 1" line and the
# first line that is no event), trc-gen's.
mkdir "$tmp/s"
cp t/data/stable/*.trc t/data/ratios/*.trc t/data/svg/*.trc "$tmp/s/"
awk -v d="$tmp/s" '
/^#trc 1/ { n++; f = sprintf("%s/t%03d.trc", d, n); cap = 1; print > f; next }
cap && /^[0-9][0-9.]* +[0-9]+ +[A-Z][A-Z]/ { print > f; next }
cap && /^#/ { print > f; next }
{ if (cap) close(f); cap = 0 }' t/*.t
for p in ring halo allreduce master-worker; do
	"$BIN/trc-gen" -p $p -n 3 -i 2 > "$tmp/s/gen-$p.trc"
done
for f in "$tmp"/s/*.trc; do
	# Small: libFuzzer mutates inputs of a few kilobytes best.
	[ "$(wc -l < "$f")" -ge 3 ] && [ "$(wc -c < "$f")" -le 6000 ] || rm "$f"
done
put stream "$tmp"/s/*.trc
put race "$tmp"/s/*.trc
good=
for f in "$tmp"/s/*.trc; do
	"$BIN/trc-cat" "$f" >/dev/null 2>&1 && good="$good $f"
done
for f in $good; do
	b=$(basename "$f" .trc)
	{ echo fit; cat "$f"; } > "$tmp/sc-$b"
	{ echo loggp ratios cost; cat "$f"; } > "$tmp/sl-$b"
	{ echo fit base warm; cat "$f"; } > "$tmp/sw-$b"
	{ echo fit cores1; cat "$f"; } > "$tmp/sk-$b"
	{ echo loggp cores bound; cat "$f"; } > "$tmp/sb-$b"
	{ echo call=send,delay=0.001\;call=recv,ranks=1,delay=0.002; cat "$f"; } > "$tmp/pt-$b"
	{ echo; cat "$f"; } > "$tmp/lp-$b"
	{ echo lossless window=8; cat "$f"; } > "$tmp/ll-$b"
	{ echo hist=3; cat "$f"; } > "$tmp/lh-$b"
	"$BIN/trc-loops" "$f" > "$tmp/x-$b" 2>/dev/null &&
	    { echo x; cat "$tmp/x-$b"; } > "$tmp/lx-$b"
	"$BIN/trc-loops" --histogram 8 "$f" > "$tmp/xh-$b" 2>/dev/null &&
	    { echo x; cat "$tmp/xh-$b"; } > "$tmp/lxh-$b"
	"$BIN/trc-cat" --to trcb -o "$tmp/$b.trcb" "$f"
	"$BIN/trc-cat" --to trcb-zstd -o "$tmp/$b.trcbz" "$f"
	"$BIN/trc-cat" --to prv -o "$tmp/p-$b" "$f" 2>/dev/null &&
	    cat_sep "$tmp/p-$b.prv" "$tmp/p-$b.pcf" "$tmp/p-$b.row" > "$tmp/prv-$b"
	"$BIN/trc-cat" --to simgrid --flops 1e9 -o - "$f" > "$tmp/sg-$b" 2>/dev/null || rm -f "$tmp/sg-$b"
done
put writers $good
put scale "$tmp"/sc-* "$tmp"/sl-* "$tmp"/sw-* "$tmp"/sk-* "$tmp"/sb-*
put perturb "$tmp"/pt-*
put loops "$tmp"/lp-* "$tmp"/ll-* "$tmp"/lh-* "$tmp"/lx-* "$tmp"/lxh-*
put trcb "$tmp"/*.trcb "$tmp"/*.trcbz
put paraver "$tmp"/prv-*
put simgrid "$tmp"/sg-*
set -- $good
while [ $# -ge 2 ]; do
	{ echo kind,peer,tag MK; cat_sep "$1" "$2"; } > "$tmp/st-$#"
	{ echo kind,peer; cat_sep "$1" "$1"; } > "$tmp/ss-$#"
	shift 2
done
put stable "$tmp"/st-* "$tmp"/ss-*

# Foreign formats from t/data, cut to a few kilobytes.
put sddf t/data/sddf/*.sddf
cat_sep t/data/dumpi/hand/h-000[012].txt > "$tmp/dh"
for r in 0 1 2 3; do head -c 3000 t/data/dumpi/testbgp/testbgp-000$r.txt > "$tmp/db$r"; done
cat_sep "$tmp"/db[0-3] > "$tmp/db"
put dumpi "$tmp/dh" "$tmp/db"
for n in lulesh8 epoch_4proc; do
	zcat t/data/paraver/$n.prv.gz | head -c 6000 | sed '$d' > "$tmp/$n.prv"
	awk '/^EVENT_TYPE/ { k++ } k < 40' t/data/paraver/$n.pcf | head -c 8000 > "$tmp/$n.pcf"
	cat_sep "$tmp/$n.prv" "$tmp/$n.pcf" t/data/paraver/$n.row > "$tmp/prv-$n"
	put paraver "$tmp/prv-$n"
done
put simgrid t/data/simgrid/ti_traces_32_1/ti_trace0.txt
{ printf 'p1\np2\n%%%%\n'; cat t/data/simgrid/ti_traces_32_1/ti_trace0.txt;
  printf '%%%%\n'; cat t/data/simgrid/ti_traces_32_1/ti_trace1.txt; } > "$tmp/sgi"
put simgrid "$tmp/sgi"
# otf2raw: the archive's own files, raw (fuzz/otf2raw.c).
P=t/data/otf2/pingpong
for f in $P/traces.otf2 $P/traces.def $P/traces/0.def $P/traces/0.evt \
    $P/traces/1.def; do
	cat "$f"
	printf '%%%%file%%%%'
done > "$tmp/o2"
cat $P/traces/1.evt >> "$tmp/o2"
# And what trc-cat writes of the 2-rank streams.
for f in $good; do
	grep -q '^#trc 1 ranks=2' "$f" || continue
	b=$tmp/o-$(basename "$f" .trc)
	"$BIN/trc-cat" --to otf2 -o "$b.otf2" "$f" 2>/dev/null || continue
	[ -f "$b/1.evt" ] || continue
	for g in "$b.otf2" "$b.def" "$b/0.def" "$b/0.evt" "$b/1.def"; do
		cat "$g"
		printf '%%%%file%%%%'
	done > "$b.o2"
	cat "$b/1.evt" >> "$b.o2"
	put otf2raw "$b.o2"
done
put otf2raw "$tmp/o2"
# otf2: programs of records (fuzz/otf2.c's comment says the encoding).
# prog NAME FORMAT: a program of fuzz/otf2.c's encoding (its header
# comment), written with printf (octal escapes, no '%').
prog() {
	printf "$2" > "$tmp/p-$1"
}
prog pingpong '\003e\000\012\001s\000\001\001\000\007\100l\000\005\001e\001\005\003r\001\024\000\000\007\100l\001\001\003'
prog isend '\003e\000\001\002i\000\001\001\000\003\010\001l\000\001\002e\000\005\005d\000\001\001l\000\001\005e\001\001\004q\001\001\001l\001\001\004e\001\002\005j\001\010\000\000\003\010\001l\001\001\005'
prog coll '\003e\000\001\012b\000\001x\000\002\013\000\344\010\010l\000\001\012e\001\002\012b\001\001x\001\001\013\000\344\010\010l\001\001\012e\000\001\011b\000\001x\000\001\001\000\000\004\004l\000\001\011e\001\001\011b\001\001x\001\001\001\000\000\004\004l\001\001\011e\000\001\010b\000\001x\000\001\000\000\344\000\000l\000\001\010'
prog comms '\003G\003\005\004\002\001\000M\002\000\003\000e\000\001\001s\000\001\000\002\011\020l\000\001\001e\001\001\003r\001\003\001\002\011\020l\001\001\003e\000\001\001s\000\001\000\001\005\001l\000\001\001e\000\001\003r\000\001\000\001\005\001l\000\001\003G\004\005\004\003\007\001\001M\003\000\004\000e\001\001\012b\001\001x\001\001\013\003\344\000\000l\001\001\012'
prog trc '\013A\000\046\000\000Q\000\044\002a\000\000\005k\000\001\000\000e\000\001\000l\000\002\000A\001\047\000\000A\002\050\052\000A\003\050\053\000a\001\000\003e\001\001\001s\001\001\000\000\001\001l\001\001\001e\000\001\003r\000\005\001\000\001\001l\000\001\003a\002\000\001a\003\000\002e\000\001\000l\000\001\000Y\001\0012Y\002\0030 1Y\003\007# hi=1\n'
prog plain '\000C\346\000\144S\000\000S\001\004workP\000\000\001L\000\000\001\002\000R\000\001\000\001\001e\000\001\000l\000\012\000P\001\000\001L\001\000\001\002\001e\001\002\000l\001\003\000'
prog clock '\003C\003\144\000e\000\361\310\001l\000\001\001O\000\000\005e\001\361\310\000l\001\003\000'
prog waitall '\003e\000\001\002i\000\001\001\000\001\004\001l\000\001\002e\000\001\002i\000\001\001\000\002\004\002l\000\001\002e\000\001\006d\000\001\001d\000\001\002l\000\001\006e\001\001\003r\001\004\000\000\001\004l\001\001\003e\001\001\003r\001\001\000\000\002\004l\001\001\003e\000\001\007s\000\001\001\000\011\002r\000\002\001\000\011\002l\000\001\007e\001\001\007s\001\001\000\000\011\002r\001\002\000\000\011\002l\001\001\007'
prog odd '\007e\002\001\003r\002\005\344\000\001\001l\002\001\003e\003\001\013l\003\001\013e\003\005\014l\003\001\014R\020\005\000\031\004e\000\001\020l\000\001\020e\001\001\004q\001\001\007l\001\001\004c\001\001\007t\001\001\007'
put otf2 "$tmp"/p-*

# Tables.
put ratios benchmarks/example/ratios.tbl
printf '# per rank\n[A-Z].* 0 0.5\nIter.* all 2\n.* all 1.25\n' > "$tmp/r1"
printf 'mode time\n"" all 3\nmain 1-3 0.75\n' > "$tmp/r2"
printf 'mode speed\nA all 1.5 first=2\n() 0 2 first=64\nA 0 3.4\n' > "$tmp/r3"
put ratios "$tmp/r1" "$tmp/r2" "$tmp/r3"
put fit benchmarks/example/*.fit
printf '# a network\nL 1e-6\no 1e-7  # each end\nG 1e-9\neager 4096\n' > "$tmp/f1"
printf 'L 1e-6\no 1e-7\nG 1e-9\nR 5e-6\n' > "$tmp/f2"
put fit "$tmp/f1" "$tmp/f2"
printf '# factors\nA call=send ranks=1 delay=0.005\nB call=recv ranks=2 delay=0.005\nC call=pe region=Iterate occ=3-5 delay=1e-3\nD call=allreduce delay=2\n' > "$tmp/fa"
printf 'X call=* ranks=0:2-3 occ=7- delay=0.000001\n' > "$tmp/fb"
put factors "$tmp/fa" "$tmp/fb"
printf '3 1\n%%%%\n- - - 10\n+ - - 12\n- + - 11\n+ + - 15\n- - + 10.5\n+ - + 12\n- + + 11.5\n+ + + 16\n' > "$tmp/d1"
printf '4 2\nD=ABC\n%%%%\n- - - - 1 1.1\n+ - - + 2 2.2\n- + - + 3 3\n+ + - - 4 4\n- - + + 5 5\n+ - + - 6 6\n- + + - 7 7\n+ + + + 8 8.5\n' > "$tmp/d2"
printf '5 1\nD=-AB\nE=AC\n' > "$tmp/d3"
put design "$tmp/d1" "$tmp/d2" "$tmp/d3"
for d in "$C"/*; do
	printf '%s: %s\n' "$(basename "$d")" "$(ls "$d" | wc -l)"
done
