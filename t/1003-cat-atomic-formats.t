#!/bin/sh
# The writers of many files (issue 15): trc-cat --to otf2, simgrid and
# dimemas write in a temporary directory (or under a temporary name)
# beside the target and move the files into place only when all are
# complete.  An input error, a full file system or a signal leaves the
# old output (or none) under the final names and no temporary; SIGKILL,
# which no program can catch, leaves nothing under the final names.
# Writing over an input, by any name the format makes, is refused.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"
# Four ranks of halo exchanges, about 100000 events; then one that
# goes back in time, on line 104003 (the header and 104001 events
# first: trc-gen writes one comment line after the header).
trc-gen -p halo -n 4 -i 2000 >"$tmp/big.trc"
lines=$(wc -l <"$tmp/big.trc" | tr -d ' ')
{ cat "$tmp/big.trc"; echo '0 0 MK'; } >"$tmp/bad.trc"
last=$(tail -1 "$tmp/big.trc" | cut -d' ' -f1)

# out FORMAT: the -o path of each format, in $d.
out() {
	case $1 in
	otf2) echo "$d/arch" ;;
	simgrid) echo "$d/run.txt" ;;
	dimemas) echo "$d/run.dim" ;;
	esac
}
# sums: every file under $d with its checksum, one a line.
sums() {
	(cd "$d" && find . -type f | sort | xargs -r md5sum)
}
# listing: every name under $d, temporary ones included.
listing() {
	(cd "$d" && find . | sort | tr '\n' ' ')
}

for fmt in otf2 simgrid dimemas; do
	o=$(out $fmt)

	# Nothing there: an input error leaves nothing.
	expect_exit 2 "$fmt, an input error" -- trc-cat --flops 1e9 --to $fmt -o "$o" "$tmp/bad.trc"
	is "$(cat "$err")" \
	    "trc-cat: $tmp/bad.trc:$((lines + 1)): time goes backwards ('0.000000000' after '$last')" \
	    "$fmt, an input error: the message"
	is "$(listing)" ". " "$fmt, an input error: nothing written, no temporary"

	# Complete: the files under their names, nothing else.
	expect_exit 0 "$fmt, complete" -- trc-cat --flops 1e9 --to $fmt -o "$o" "$tmp/big.trc"
	case $fmt in
	otf2) want=". ./arch ./arch/traces ./arch/traces.def ./arch/traces.otf2 ./arch/traces/0.def ./arch/traces/0.evt ./arch/traces/1.def ./arch/traces/1.evt ./arch/traces/2.def ./arch/traces/2.evt ./arch/traces/3.def ./arch/traces/3.evt " ;;
	simgrid) want=". ./run.txt ./run_0.txt ./run_1.txt ./run_2.txt ./run_3.txt " ;;
	dimemas) want=". ./run.dim " ;;
	esac
	is "$(listing)" "$want" "$fmt, complete: its files, no temporary"
	sums >"$tmp/old.sums"

	# The old output stays whole through an input error.
	expect_exit 2 "$fmt over an old output, an input error" -- trc-cat --flops 1e9 --to $fmt -o "$o" "$tmp/bad.trc"
	sums >"$tmp/new.sums"
	is_file "$tmp/new.sums" "$tmp/old.sums" "$fmt over an old output, an input error: the old files untouched"
	is "$(listing)" "$want" "$fmt over an old output, an input error: no temporary"

	# Killed while it runs (its input stalls after every event): the
	# old output untouched, the temporary gone.
	stalled "$tmp/big.trc" trc-cat --flops 1e9 --to $fmt -o "$o"
	await_name "$d" '\.tmp'
	ok $? "$fmt, while it runs: a temporary beside the output"
	kill -TERM $pid
	wait $pid
	st=$?
	kill $feeder
	is "$st" 143 "$fmt, SIGTERM: killed"
	sums >"$tmp/new.sums"
	is_file "$tmp/new.sums" "$tmp/old.sums" "$fmt, SIGTERM: the old files untouched"
	is "$(listing)" "$want" "$fmt, SIGTERM: no temporary left"

	# SIGKILL: what was being written stays in its temporary, never
	# under the final names.
	rm -rf "$d" && mkdir "$d"
	stalled "$tmp/big.trc" trc-cat --flops 1e9 --to $fmt -o "$o"
	await_name "$d" '\.tmp'
	kill -KILL $pid
	wait $pid
	st=$?
	kill $feeder
	is "$st" 137 "$fmt, SIGKILL: killed"
	is "$(ls "$d" | grep -vc '\.tmp......$')" 0 "$fmt, SIGKILL: nothing under the final names"
	rm -rf "$d" && mkdir "$d"

	# An output that is an input, by any name the format makes: refused
	# before anything is written, the input untouched.
	trc-cat --flops 1e9 --to $fmt -o "$o" "$tmp/big.trc"
	case $fmt in
	otf2) in1=$d/arch/traces.otf2 in2=$d/arch/traces/2.evt o2=$d/arch/traces.otf2 ;;
	simgrid) in1=$d/run.txt in2=$d/run_3.txt o2=$d/./run ;;
	dimemas) in1=$d/run.dim in2=$d/run.dim o2=$d/../d/run.dim ;;
	esac
	sums >"$tmp/old.sums"
	expect_exit 2 "$fmt, -o its input" -- trc-cat --flops 1e9 --to $fmt -o "$o" "$in1"
	is "$(cat "$err")" "trc-cat: $in1: the output is an input: refusing to overwrite it" \
	    "$fmt, -o its input: the message"
	expect_exit 2 "$fmt, -o a name that makes an input" -- trc-cat --flops 1e9 --to $fmt -o "$o2" "$tmp/big.trc" "$in2"
	is "$(cat "$err")" "trc-cat: $in2: the output is an input: refusing to overwrite it" \
	    "$fmt, -o a name that makes an input: the message"
	sums >"$tmp/new.sums"
	is_file "$tmp/new.sums" "$tmp/old.sums" "$fmt, -o an input: the input untouched"
	rm -rf "$d" && mkdir "$d"
done

# A full file system (a 64 KiB tmpfs, when this user may mount one):
# the write error, nothing under the final names, no temporary; an old
# output there stays.
mnt=$tmp/mnt
mkdir "$mnt"
if mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
	trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
	echo old >"$mnt/old.dim"
	for fmt in otf2 simgrid dimemas; do
		case $fmt in
		otf2) o=$mnt/arch first=$mnt/arch/traces.otf2 ;;
		simgrid) o=$mnt/run.txt first="$mnt/run_[0-9]*.txt" ;;
		dimemas) o=$mnt/old.dim first=$mnt/old.dim ;;
		esac
		# libotf2 leaks its global definitions writer when a close
		# fails (otf2_global_def_writer_new, 16 bytes).
		expect_exit 2 "$fmt, a full file system" -- \
		    env LSAN_OPTIONS="suppressions=$T/data/otf2/lsan.supp:print_suppressions=0" \
		    trc-cat --flops 1e9 --to $fmt -o "$o" "$tmp/big.trc"
		grep -q "^trc-cat: $first: .*No space left on device$" "$err"
		ok $? "$fmt, a full file system: the write error, naming $first"
		is "$(ls "$mnt" | tr '\n' ' '):$(cat "$mnt/old.dim")" "old.dim :old" \
		    "$fmt, a full file system: the old file, nothing else"
	done
else
	ok 0 "# SKIP a full file system: cannot mount a tmpfs"
fi
done_testing
