#!/bin/sh
# trc-cat round trip, selections and merging, checked against awk and sort.
. "$(dirname "$0")/lib.sh"

for p in ring halo allreduce master-worker; do
	trc-gen -p $p -n 6 -i 20 -s 7 > "$tmp/$p.trc"
	trc-cat "$tmp/$p.trc" > "$out"
	is_file "$out" "$tmp/$p.trc" "$p: trc-gen output round-trips byte for byte"
	trc-cat < "$tmp/$p.trc" | cmp -s - "$tmp/$p.trc"
	ok $? "$p: the same through stdin"
done

g=$tmp/halo.trc
awk '!/^#/ && ($2 == 1 || $2 == 3 || $2 == 4) && $3 ~ /^S/' "$g" > "$tmp/want"
trc-cat -r 1,3-4 -k S "$g" | grep -v '^#' > "$out"
is_file "$out" "$tmp/want" "-r 1,3-4 -k S selects what awk selects"
trc-cat --rank=1,3-4 --kind=SB,SE "$g" | grep -v '^#' > "$out"
is_file "$out" "$tmp/want" "the long options do the same"

# Split per rank, merge again: the same as a stable sort by time of the
# rank files in order, and the same events as the original.
for r in 0 1 2 3 4 5; do trc-cat -r $r "$g" > "$tmp/r$r.trc"; done
trc-cat "$tmp"/r[0-5].trc > "$tmp/merged"
grep -hv '^#' "$tmp"/r[0-5].trc | sort -s -n -k1,1 > "$tmp/want"
grep -v '^#' "$tmp/merged" > "$out"
is_file "$out" "$tmp/want" "merging rank files is a stable sort by time"
is "$(sort "$out" | cksum)" "$(grep -v '^#' "$g" | sort | cksum)" "no event lost or added"
is "$(head -1 "$tmp/merged")" "#trc 1 ranks=6 order=time" "the merged header"

# A file without ranks= merged with one that has them: the merged
# header cannot know the ranks either, so it names none (a rank-7 event
# under ranks=2 would make every later tool refuse the stream).
printf '#trc 1 ranks=2\n0.1 0 MK\n0.2 1 MK\n' >"$tmp/a2.trc"
printf '#trc 1\n0.15 7 MK\n' >"$tmp/a7.trc"
expect_exit 0 "ranks=2 with a file without ranks=" -- trc-cat "$tmp/a2.trc" "$tmp/a7.trc"
is "$(head -1 "$out")" "#trc 1 order=time" "  no ranks= in the merged header"
trc-cat "$tmp/a2.trc" "$tmp/a7.trc" >"$tmp/m.trc"
expect_exit 0 "  which trc-sum reads" -- trc-sum "$tmp/m.trc"
printf '#trc 1 ranks=8\n0.15 7 MK\n' >"$tmp/a8.trc"
expect_exit 0 "ranks=2 with ranks=8" -- trc-cat "$tmp/a2.trc" "$tmp/a8.trc"
is "$(head -1 "$out")" "#trc 1 ranks=8 order=time" "  the larger"

# Non-canonical input is written canonically.
printf '#trc 1\n1.5   0\tSB  peer=1 tag=2 bytes=3\n2 1 RE peer=0 tag=2 bytes=3\n' > "$tmp/nc.trc"
trc-cat "$tmp/nc.trc" > "$out"
is "$(cat "$out")" "#trc 1 order=time
1.500000000 0 SB peer=1 tag=2 bytes=3
2.000000000 1 RE peer=0 tag=2 bytes=3" "blanks and times are made canonical"

# A header word this version does not know (trc(5)): read, not passed on.
printf '#trc 1 ranks=2 zone=utc later\n#note kept\n0.5 1 MK\n' > "$tmp/w.trc"
trc-cat "$tmp/w.trc" > "$out"
is "$(cat "$out")" "#trc 1 ranks=2 order=time
#note kept
0.500000000 1 MK" "an unknown header word is accepted and dropped, # lines kept"

is "$(trc-cat --version)" "trc-cat 0.1" "--version"
trc-cat --help > "$out"; ok $? "--help exits 0"
done_testing
