#!/bin/sh
# limits-long.sh BINDIR: the limits of issue 15 whole (t/1144 runs
# them at 2^15 ranks): a ring of 2^21 ranks, a 200 MB line, a 10 MB
# attribute value and 5 M unmatched sends through every tool that
# reads a stream.  One line a run: its peak memory, bytes a rank (or a
# message), seconds, exit status, and whether the output or the error
# is the one expected (ok, or FAIL and what came).  Exit 1 when any
# run was not as expected.
PATH=$1:$PATH
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trc-limits-long.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
# LIMITS_RANKS and LIMITS_SENDS make a smaller run, to try the script;
# LIMITS_PARTS chooses parts: ring, line, value, sends.
N=${LIMITS_RANKS:-2097152}
U=${LIMITS_SENDS:-5000000}
parts=" ${LIMITS_PARTS:-ring line value sends} "
part() { case $parts in *" $1 "*) return 0;; esac; return 1; }

# run NAME COUNT WANT-EXIT CHECK CMD...: CHECK is a shell test run
# after, with the output in $tmp/out and stderr in $tmp/err.
run() {
	_n=$1 _c=$2 _w=$3 _chk=$4
	shift 4
	/usr/bin/time -f '%M %e' -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err"
	_rc=$?
	set -- $(tail -1 "$tmp/t")
	if [ "$_rc" -eq "$_w" ] && eval "$_chk"; then _v=ok
	else _v="FAIL: $(head -c 160 "$tmp/err" | head -1)"; failed=1; fi
	if [ "$_c" -gt 1 ]; then _e="$(( $1 * 1024 / _c )) B each"; else _e=; fi
	printf '%-34s %9s KB %12s %7s s exit %d %s\n' "$_n" "$1" "$_e" "$2" \
	    "$_rc" "$_v"
	rm -f "$tmp/out"
}

if part ring; then
echo "== a ring of $N ranks, 6 events each, every send in flight at once"
awk -v N=$N 'BEGIN {
	printf "#trc 1 ranks=%d\n", N
	for (r = 0; r < N; r++) print "0 " r " PB fn=a"
	for (r = 0; r < N; r++) { print "1 " r " PE fn=a"; print "1 " r " SB peer=" (r + 1) % N " tag=1 bytes=8" }
	for (r = 0; r < N; r++) { print "2 " r " SE peer=" (r + 1) % N " tag=1 bytes=8"; print "2 " r " RB peer=" (r + N - 1) % N " tag=1 bytes=8" }
	for (r = 0; r < N; r++) print "3 " r " RE peer=" (r + N - 1) % N " tag=1 bytes=8" }' >"$tmp/ring.trc"
ring=$tmp/ring.trc
E=$((6 * N))
run trc-cat $N 0 '[ $(wc -l <"$tmp/out") -eq $((E + 1)) ]' trc-cat "$ring"
run trc-sum $N 0 '[ $(grep -c "	6	3.000000000	1.000000000	1.000000000	1.000000000	" "$tmp/out") -eq $N ]' \
    trc-sum -t --section ranks "$ring"
run "trc-scale --cpu-ratio 2" $N 0 '[ "$(awk '\''BEGIN { t["PB"] = 0; t["PE"] = 2; t["SB"] = 2; t["SE"] = 3; t["RB"] = 3; t["RE"] = 4 }
    NR > 1 { n++; bad += $1 != t[$3] ".000000000" } END { print n, bad }'\'' "$tmp/out")" = "$E 0" ]' \
    trc-scale --cpu-ratio 2 "$ring"
run trc-perturb $N 0 '[ $(wc -l <"$tmp/out") -eq $((E + 1)) ]' trc-perturb "$ring"
run "trc-stable (itself)" $N 0 'grep -q "^total  *$E  *$E  *$E  *0$" "$tmp/out"' trc-stable "$ring" "$ring"
run trc-loops $N 0 'grep -qx "group 0-$((N - 1))" "$tmp/out"' trc-loops "$ring"
run trc-graph $N 0 '[ $(grep -c -- "->" "$tmp/out") -eq $E ]' trc-graph "$ring"
run "trc-ratios (itself)" $N 0 'grep -q "^a  *all  *1 " "$tmp/out"' trc-ratios "$ring" "$ring"
run trc-bench $N 0 '[ ! -s "$tmp/err" ]' trc-bench "$ring"
run "trc-race (cap: 16384 ranks)" $N 2 'grep -q ":1: ranks=$N: trc-race takes at most 16384 ranks (vector clocks of ranks^2 entries, TRC_RACE_MAX)" "$tmp/err"' trc-race "$ring"
run "trc-cluster (TRC_CLUSTER_MAX)" $N 2 'grep -q ":1: ranks=$N: more than 8192 ranks to cluster" "$tmp/err"' trc-cluster "$ring"
run "trc-svg (TRC_LANES_MAX)" 4096 2 'grep -q ":4098: more than 4096 lanes to draw" "$tmp/err"' trc-svg "$ring"
rm -f "$ring"
fi

if part line; then
echo "== a line of 200 MiB (one x= value) between ordinary events"
awk 'BEGIN { s = "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	while (length(s) < 1048576) s = s s
	print "#trc 1 ranks=2"; print "0 0 PB fn=a"; print "0 1 MK"
	printf "0.5 0 MK x="; for (i = 0; i < 200; i++) printf "%s", s
	print " z=1"; print "1 0 PE fn=a"; print "2 1 MK" }' >"$tmp/big.trc"
big=$tmp/big.trc
L=209715200
run trc-cat 1 0 '[ $(awk "NR == 4 { print length(\$0) }" "$tmp/out") -eq $((16 + 3 + L + 4)) ]' trc-cat "$big"
run trc-sum 1 0 'grep -q "^a" "$tmp/out"' trc-sum --section procs "$big"
run trc-scale 1 0 '[ $(wc -c <"$tmp/out") -gt $L ]' trc-scale "$big"
run trc-perturb 1 0 '[ $(wc -c <"$tmp/out") -gt $L ]' trc-perturb "$big"
run trc-stable 1 0 'grep -q "^identical" "$tmp/out"' trc-stable "$big" "$big"
run "trc-loops (65536 bytes an event)" 1 2 'grep -q ":4: event longer than 65536 bytes" "$tmp/err"' trc-loops "$big"
run trc-graph 1 0 '[ $(grep -c -- "->" "$tmp/out") -eq 3 ]' trc-graph "$big"
run trc-race 1 0 '[ ! -s "$tmp/err" ]' trc-race "$big"
run trc-ratios 1 0 'grep -q "^a  *all  *1 " "$tmp/out"' trc-ratios "$big" "$big"
run trc-cluster 1 0 'grep -q "^#group" "$tmp/out"' trc-cluster "$big"
run trc-bench 1 0 '[ ! -s "$tmp/err" ]' trc-bench "$big"
run trc-svg 1 0 'grep -q "class=\"lane\"" "$tmp/out"' trc-svg "$big"
run "trc-cat TRC_LINE_MAX=100M" 1 2 'grep -q ":4: line longer than 104857600 bytes (TRC_LINE_MAX)" "$tmp/err"' \
    env TRC_LINE_MAX=100M trc-cat "$big"
rm -f "$big"
fi

if part value; then
echo "== an attribute value of 10 MiB"
awk 'BEGIN { s = "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"
	while (length(s) < 1048576) s = s s
	print "#trc 1 ranks=2"; print "0 0 PB fn=a"; print "0 1 MK"
	printf "1 0 PE fn=a note="; for (i = 0; i < 10; i++) printf "%s", s
	print ""; print "2 1 MK" }' >"$tmp/attr.trc"
a=$tmp/attr.trc
V=10485760
run trc-cat 1 0 '[ $(wc -c <"$tmp/out") -gt $V ]' trc-cat "$a"
run trc-sum 1 0 'grep -q "^a" "$tmp/out"' trc-sum --section procs "$a"
run trc-scale 1 0 '[ $(awk "NR == 4 { print length(\$0) }" "$tmp/out") -eq $((27 + V + 15)) ]' trc-scale --cpu-ratio 2 "$a"
run trc-perturb 1 0 '[ $(awk "NR == 4 { print length(\$0) }" "$tmp/out") -eq $((27 + V + 15)) ]' trc-perturb "$a"
run trc-stable 1 0 'grep -q "^identical" "$tmp/out"' trc-stable "$a" "$a"
run "trc-loops (65536 bytes an event)" 1 2 'grep -q ":4: event longer than 65536 bytes" "$tmp/err"' trc-loops "$a"
run trc-graph 1 0 '[ $(grep -c -- "->" "$tmp/out") -eq 2 ]' trc-graph "$a"
run trc-race 1 0 '[ ! -s "$tmp/err" ]' trc-race "$a"
run trc-ratios 1 0 'grep -q "^a  *all  *1 " "$tmp/out"' trc-ratios "$a" "$a"
run trc-cluster 1 0 'grep -q "^#group" "$tmp/out"' trc-cluster "$a"
run trc-bench 1 0 '[ ! -s "$tmp/err" ]' trc-bench "$a"
run trc-svg 1 0 'grep -q "class=\"lane\"" "$tmp/out"' trc-svg "$a"
rm -f "$a"
fi

if part sends; then
echo "== $U sends from rank 0 that no receive takes (TRC_MSG_MAX 4M by default)"
awk -v U=$U 'BEGIN { print "#trc 1 ranks=2"; for (i = 0; i < U; i++) {
	t = i * 1000; printf "%.9f 0 SB peer=1 tag=%d bytes=8\n%.9f 0 SE peer=1 tag=%d bytes=8\n", t / 1e9, i % 3, (t + 1) / 1e9, i % 3 } }' >"$tmp/u.trc"
u=$tmp/u.trc
# The 4194305th message in flight is refused, the first (line 3) named.
m='":3: send to rank 1 tag 0 comm 0 still unmatched with 4194305 messages in flight (TRC_MSG_MAX)"'
for p in trc-scale trc-perturb trc-graph trc-race trc-svg; do
	run "$p (TRC_MSG_MAX)" 4194305 2 "grep -q $m \"\$tmp/err\"" $p "$u"
done
run "trc-stable (TRC_MSG_MAX)" 4194305 2 "grep -q $m \"\$tmp/err\"" trc-stable "$u" "$u"
# Those that do not match take them all.
run trc-cat $U 0 '[ $(wc -l <"$tmp/out") -eq $((2 * U + 1)) ]' trc-cat "$u"
run trc-sum $U 0 'grep -q "^0	$((2 * U))	" "$tmp/out"' trc-sum -t --section ranks "$u"
run trc-loops $U 0 '[ ! -s "$tmp/err" ]' trc-loops "$u"
# Past the default, with a larger cap: every send kept, each warned of.
run "trc-stable TRC_MSG_MAX=8M" $U 0 'grep -q "^total  *$((2 * U))  *$((2 * U))  *$((2 * U))  *0$" "$tmp/out"' \
    env TRC_MSG_MAX=8M trc-stable "$u" "$u"
run "trc-scale TRC_MSG_MAX=8M" $U 0 '[ $(grep -c "was never received$" "$tmp/err") -eq $U ]' \
    env TRC_MSG_MAX=8M trc-scale "$u"
fi
exit $failed
