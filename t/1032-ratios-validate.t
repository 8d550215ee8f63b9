#!/bin/sh
# trc-ratios reproduces make validate's ratio table: the step it
# replaced in benchmarks/validate.sh (per pair, trc-sum's computation
# per procedure and rank, base over target, by awk; then the median of
# each over the pairs by validate-lib.sh's ratios(), turned round for
# the other direction) gives the same medians, for 3 pairs and 4.
. "$(dirname "$0")/lib.sh"
. "$T/../benchmarks/validate-lib.sh"

# Runs: the halo pattern with different seeds and computation, so that
# every procedure and rank has its own ratio in each pair; and the
# bundled example's two runs, whose ratios differ per procedure.
i=1
for c in 0.001 0.0012 0.0009 0.0011; do
	trc-gen -p halo -n 3 -i 40 -s $i --compute $c >"$tmp/b$i.trc"
	trc-gen -p halo -n 3 -i 40 -s $((i + 10)) --compute 0.0004 >"$tmp/t$i.trc"
	i=$((i + 1))
done
ex=$T/../benchmarks/example
cp "$ex/heat-base.trc" "$tmp/b5.trc"
cp "$ex/heat-target.trc" "$tmp/t5.trc"

# The old step, as validate.sh had it, for pairs 1 to N: "proc rank
# ratio" lines, then ratios() per direction.
old() {
	: >"$tmp/all"
	for i in $1; do
		trc-sum -t --section procs "$tmp/b$i.trc" >"$tmp/rb.tsv"
		trc-sum -t --section procs "$tmp/t$i.trc" >"$tmp/rt.tsv"
		awk -F'\t' 'NR == FNR { if (FNR > 1) t[$1 " " $2] = $8; next }
		    FNR > 1 && t[$1 " " $2] > 0 { print $1, $2, $8 / t[$1 " " $2] }' \
		    "$tmp/rt.tsv" "$tmp/rb.tsv" >>"$tmp/all"
	done
	ratios "$tmp/all" "$2" x | awk '!/^#/ && $1 != "mode" { print $1, $2, $3 }'
}

# trc-ratios's rows for the same labels and ranks.
new() {
	args=
	for i in $1; do
		if [ "$2" = 1 ]; then args="$args $tmp/b$i.trc $tmp/t$i.trc"
		else args="$args $tmp/t$i.trc $tmp/b$i.trc"; fi
	done
	# shellcheck disable=SC2086
	trc-ratios $args 2>/dev/null | awk '!/^#/ && $1 != "mode" && $2 != "all" && $1 != "()" { print $1, $2, $3 }'
}

for set in "1 2 3" "1 2 3 4" "5" "1 2 5"; do
	for sign in 1 -1; do
		old "$set" $sign | sort >"$tmp/old"
		new "$set" $sign | sort >"$tmp/new"
		is "$(cut -d' ' -f1,2 "$tmp/new")" "$(cut -d' ' -f1,2 "$tmp/old")" \
		    "pairs $set, direction $sign: the same procedures and ranks ($(wc -l <"$tmp/old" | tr -d ' ') rows)"
		# The old table printed 4 decimals (and median() 4 digits
		# for an even count): equal to that.
		is "$(paste -d' ' "$tmp/old" "$tmp/new" |
		    awk '{ d = $3 - $6; if (d < 0) d = -d; m = $3 < 0 ? -$3 : $3
			if (d > 5e-4 * (m > 1 ? m : 1)) printf "%s %s old %s new %s\n", $1, $2, $3, $6 }')" "" \
		    "  the same medians"
	done
done
# What they agree on is not trivial: the example's six procedure and
# rank ratios are not one number.
n=$(new 5 1 | awk '{ printf "%.2f\n", $3 }' | sort -u | wc -l)
[ "$n" -ge 4 ]; ok $? "the example's ratios differ by procedure and rank ($n distinct)"
done_testing
