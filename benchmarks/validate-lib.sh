# validate-lib.sh - sourced by the validate scripts: the
# numbers both print.

# The operations trc-pingpong measures for trc-heat's experiments
# (validate.sh, replay-validate.sh): its calls, warm and cold.
heat_ops=send,recv,send-late,send-busy,recv-late,isend,exchange,exchange-wait,send-cold,isend-cold,recv-late-cold,barrier,reduce,allreduce,barrier-cold,reduce-cold,allreduce-cold

load() { cut -d' ' -f1-3 /proc/loadavg; }
# binding NP: mpirun's options for NP ranks: more than the cores, each
# bound to core r mod n (--map-by core), as trc-scale --bound predicts.
# Unbound, each rank keeps the core the kernel first gave it (ranks
# that poll count as running, so none is moved), and that placement,
# which varies from run to run, decides the run's time (trc-scale(1)).
# NOBIND=1: none.
binding() {
	[ "$1" -gt "$(nproc)" ] && [ -z "${NOBIND:-}" ] &&
	    echo "--map-by core --bind-to core:overload-allowed"
	return 0
}
# quiet: on a host shared with other jobs, wait (QUIETWAIT seconds at
# most, 300) until the 1-minute load average is under MAXLOAD (1.5):
# another job's preemptions stretch an observed run, which no
# prediction holds
quiet() {
	w=0
	while awk -v m="${MAXLOAD:-1.5}" '{ exit !($1 >= m) }' /proc/loadavg &&
	    [ $w -lt "${QUIETWAIT:-300}" ]; do
		sleep 5
		w=$((w + 5))
	done
	[ $w -eq 0 ] || echo "   (waited ${w} s for the load average to fall under ${MAXLOAD:-1.5})"
}
span() { awk '!/^#/ { if (!s) { a = $1; s = 1 } z = $1 } END { printf "%.6f\n", z - a }' "$1"; }
# pct P O: (P - O) / O in percent
pct() { awk -v p="$1" -v o="$2" 'BEGIN { printf "%+.1f\n", 100 * (p - o) / o }'; }
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# med_line TITLE FILE: its numbers (percent), their median and spread
med_line() {
	sort -g "$2" | awk -v t="$1" -v list="$(tr '\n' ' ' <"$2" | sed 's/ $//; s/ /%, /g; s/$/%/')" '
	    { v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "== %s over %d runs: %s; median %+.1f%%, spread %+.1f%% to %+.1f%%\n", t, NR, list, m, v[1], v[NR] }'
}
# fit FILE OP BYTES: the fitted time of OP at BYTES, in microseconds
fit() {
	awk -v op="$2" -v b="$3" '!/^#/ && $1 == op && b >= $2 && ($3 == "inf" || b < $3 + 0) {
	    printf "%.2f", 1e6 * ($4 + $5 * b); exit }' "$1"
}
# ratios ALL SIGN TITLE: a ratio table (mode speed) of the medians per
# procedure and rank of ALL's "proc rank ratio" lines, inverted when
# SIGN is -1
ratios() {
	echo "# speed ratios $3: median of the reduced problem's run pairs"
	echo "mode speed"
	for key in $(awk '{ print $1 ":" $2 }' "$1" | sort -u); do
		p=${key%:*} k=${key#*:}
		printf '%-10s %s %.4f\n' "$p" "$k" "$(awk -v p="$p" -v k="$k" -v s="$2" \
		    '$1 == p && $2 == k { print (s > 0 ? $3 : 1 / $3) }' "$1" | median)"
	done
}
# rows VS NP: from trc-sum -t --vs, per procedure and operation over all
# ranks: name, kind, summed predicted / summed observed, and the share
# of the observed time (percent of NP ranks times the observed span)
rows() {
	awk -F'\t' -v np="$2" '
	    NF == 10 && $1 != "name" { p[$1] += $6; o[$1] += $7; k[$1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	    NF == 4 && $1 != "predicted" { span = $2 }
	    END { for (i = 1; i <= n; i++) { x = order[i]
		printf "%s %s %s %.3f\n", x, k[x], (o[x] > 0 ? sprintf("%.4f", p[x] / o[x]) : "-"), (span > 0 ? 100 * o[x] / (np * span) : 0) } }' "$1"
}
# summarize ROWS: per name of ROWS' "run name kind ratio share" lines,
# the median summed ratio (min to max) and share; rows of 2% or more
# outside [0.8, 1.25] are marked
summarize() {
	for x in $(awk '{ print $2 }' "$1" | awk '!s[$1]++'); do
		awk -v x="$x" '$2 == x && $4 != "-" { print $4, $5 }' "$1" | sort -g | awk -v x="$x" '
		    { r[NR] = $1; s[NR] = $2; sum += $2 }
		    END { if (!NR) exit
			m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
			sh = sum / NR
			flag = sh < 2 ? "minor" : (m < 0.8 || m > 1.25 ? "OUT of [0.8, 1.25]" : "")
			printf "   %-10s sums %6.2f (%.2f to %.2f)  share %5.1f%%  %s\n", x, m, r[1], r[NR], sh, flag }'
	done
}
# calls TRACE: per call kind and rank, the count and the median and
# mean duration (microseconds) of send, isend (SB to SE), recv (RB to
# RE of a blocking receive) and allreduce, from the trace itself.
calls() {
	awk '!/^#/ {
		r = $2; k = $3; req = ($0 ~ / req=/)
		if (k == "SB") { b[r] = $1; op[r] = req ? "isend" : "send" }
		else if (k == "RB" && !req) { b[r] = $1; op[r] = "recv" }
		else if (k == "WB") { b[r] = $1; op[r] = "wait" }
		else if (k == "XB") { b[r] = $1; op[r] = substr($4, 4) }
		else if ((k == "SE" || (k == "RE" && op[r] == "recv") || k == "WE" || k == "XE") && op[r] != "") {
			print op[r], r, 1e6 * ($1 - b[r]); op[r] = "" }
	}' "$1" | sort -k1,1 -k2,2n -k3,3g | awk '
		{ key = $1 " " $2; if (key != last) { flush(); last = key } v[++n] = $3; s += $3 }
		function flush() { if (n) printf "%-10s %d %6d %9.2f %9.2f\n", substr(last, 1, index(last, " ") - 1), substr(last, index(last, " ") + 1), n, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), s / n; n = 0; s = 0 }
		END { flush() }'
}
