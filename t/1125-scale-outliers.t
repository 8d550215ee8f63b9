#!/bin/sh
# trc-scale --outliers delay: an interval of an alike label past its
# fence (median + 3 interquartile ranges) is its label's median scaled
# plus the rest unscaled; --outliers drop: its label's median scaled.  Expected times by hand: with every interval
# of a label equal, its quartiles are that length and the fence is it.
. "$(dirname "$0")/lib.sh"

# seq_trc FILE LEN... : rank 0, one interval of label A per LEN (ms),
# each followed by 1 ms outside every label; the last A ends the run.
seq_trc() {
	_f=$1
	shift
	echo "#trc 1 ranks=1" >"$_f"
	awk -v list="$*" 'BEGIN { n = split(list, d, " "); t = 0
	    for (i = 1; i <= n; i++) {
		printf "%.9f 0 PB fn=A\n", t / 1000; t += d[i]
		printf "%.9f 0 PE fn=A\n", t / 1000; if (i < n) t += 1 } }' >>"$_f"
}
# last FILE: the time of FILE's last event
last() { tail -1 "$1" | cut -d' ' -f1; }
rep() { awk -v n="$1" -v x="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s ", x }'; }

# 40 intervals of 1 ms, then one of 4 ms.  K = 2: the 40 and the 40
# gaps take 2 ms each; the last is 2 * 1 + (4 - 1) = 5 ms: 165 ms in
# all, against 168 ms scaled whole.
seq_trc "$tmp/a.trc" $(rep 40 1) 4
expect_exit 0 "delay: runs" -- trc-scale -v --outliers delay --cpu-ratio 2 "$tmp/a.trc"
is "$(last "$out")" "0.165000000" "delay: the outlier is 2 x median + excess (165 ms)"
ok "$(grep -c "trc-scale: 1 computation interval past its label's fence (--outliers delay), 0.003000000 s of delay unscaled" "$err" | grep -qx 1; echo $?)" \
    "-v: one interval, 3 ms of delay"
expect_exit 0 "scale: runs" -- trc-scale --outliers scale --cpu-ratio 2 "$tmp/a.trc"
is "$(last "$out")" "0.168000000" "scale: the outlier scaled whole (168 ms)"
expect_exit 0 "default: runs" -- trc-scale --cpu-ratio 2 "$tmp/a.trc"
is "$(last "$out")" "0.168000000" "the default is scale"
# K = 1: nothing to scale, nothing changes.
expect_exit 0 "delay, K 1" -- trc-scale --outliers delay "$tmp/a.trc"
is "$(last "$out")" "0.084000000" "K 1: as recorded (84 ms)"
# K = 0.5 (a faster target): 40 x 0.5 + 40 x 0.5 + 0.5 + 3 = 43.5 ms.
expect_exit 0 "delay, K 0.5" -- trc-scale --outliers delay --cpu-ratio 0.5 "$tmp/a.trc"
is "$(last "$out")" "0.043500000" "K 0.5: the delay is not halved (43.5 ms)"
# A ratio table, per label: A 3, the gaps 1.  3 * 40 + 40 + 3 + 3 = 166.
printf 'mode time\nA all 3\n.* all 1\n' >"$tmp/a.tbl"
expect_exit 0 "delay, ratio table" -- trc-scale --outliers delay --cpu "$tmp/a.tbl" "$tmp/a.trc"
is "$(last "$out")" "0.166000000" "table: A's K 3 on its median only (166 ms)"

# Within a label's first 32 intervals none is judged: the 4 ms one
# tenth is scaled whole.  2 * (39 + 4) + 2 * 39 = 164 ms.
seq_trc "$tmp/w.trc" $(rep 9 1) 4 $(rep 30 1)
expect_exit 0 "warm-up" -- trc-scale --outliers delay --cpu-ratio 2 "$tmp/w.trc"
is "$(last "$out")" "0.164000000" "the first 32 intervals of a label are not judged"

# Unlike intervals (1 and 3 ms in turn: the interquartile range is 2 ms,
# over a tenth of the median): a 12 ms one is scaled whole.
# 2 * (20 * 1 + 20 * 3 + 12) + 2 * 40 = 264 ms.
seq_trc "$tmp/u.trc" $(rep 20 '1 3') 12
expect_exit 0 "unlike" -- trc-scale --outliers delay --cpu-ratio 2 "$tmp/u.trc"
is "$(last "$out")" "0.264000000" "an unlike label is scaled whole"

# Per rank: rank 1's A has its own estimates.  Rank 0 as a.trc; rank 1
# has 10 intervals of 1 ms, then one of 4: too few, scaled whole, 2 *
# (10 + 4) + 2 * 10 = 48 ms; rank 0's last still at 165 ms.
seq_trc "$tmp/r1" $(rep 10 1) 4
{
	echo "#trc 1 ranks=2"
	{ sed 1d "$tmp/a.trc"; sed '1d; s/ 0 P/ 1 P/' "$tmp/r1"; } | sort -s -g -k1,1
} >"$tmp/r2.trc"
expect_exit 0 "two ranks" -- trc-scale --outliers delay --cpu-ratio 2 "$tmp/r2.trc"
is "$(awk '$2 == 0 { t = $1 } END { print t }' "$out")" "0.165000000" "rank 0 judged on its own intervals"
is "$(awk '$2 == 1 { t = $1 } END { print t }' "$out")" "0.048000000" "rank 1's few intervals not judged"

# A message after an outlier: with K > 1 an outlier takes less than K
# times its length, which the engine's bound must allow; the receive
# still ends after the send.
{
	echo "#trc 1 ranks=2"
	awk 'BEGIN { t = 0
	    for (i = 0; i < 41; i++) { printf "%.9f 0 PB fn=A\n", t / 1000; t += (i < 40 ? 1 : 4)
		printf "%.9f 0 PE fn=A\n", t / 1000; t += 1 }
	    printf "%.9f 0 SB peer=1 tag=0 bytes=8\n", t / 1000
	    printf "%.9f 0 SE peer=1 tag=0 bytes=8\n", (t + 0.01) / 1000 }'
	echo "0.000000000 1 RB peer=0 tag=0 bytes=8"
	echo "0.085020000 1 RE peer=0 tag=0 bytes=8"
} >"$tmp/m0.trc"
{ echo "#trc 1 ranks=2"; grep -v '^#' "$tmp/m0.trc" | sort -s -g -k1,1; } >"$tmp/m.trc"
expect_exit 0 "a message after an outlier" -- trc-scale --outliers delay --cpu-ratio 2 "$tmp/m.trc"
se=$(awk '$2 == 0 && $3 == "SE" { print $1 }' "$out")
re=$(awk '$2 == 1 && $3 == "RE" { print $1 }' "$out")
is "$(awk -v a="$se" -v b="$re" 'BEGIN { print (b >= a) }')" 1 "the receive ends after the send ($re >= $se)"
is "$(grep -v '^#' "$out" | cut -d' ' -f1 | sort -c -g 2>&1 && echo sorted)" sorted "the output in time order"
# SB at 2 * 40 + 5 + 2 * 40 + 2 (the gap after the outlier) = 167 ms.
is "$(awk '$2 == 0 && $3 == "SB" { print $1 }' "$out")" "0.167000000" "the send begins at 167 ms"

# The output's order: rank 1 marks every 0.5 ms from 0.5 ms (a mark
# recorded at t predicted at 2 t - 0.5) while rank 0 is in its 4 ms
# outlier (recorded 80 to 84 ms, predicted 160 to 165 ms, less than K
# times its length): the marks of 165.5 and 166.5 ms, read before the
# outlier's end, come out after it.
{
	echo "#trc 1 ranks=2 order=time"
	{ sed 1d "$tmp/a.trc"
	  awk 'BEGIN { for (i = 1; i <= 168; i++) printf "%.9f 1 MK\n", i / 2000 }'; } |
	    sort -s -g -k1,1
} >"$tmp/o.trc"
expect_exit 0 "marks beside an outlier" -- trc-scale --outliers delay --cpu-ratio 2 "$tmp/o.trc"
is "$(awk '$2 == 0 { t = $1 } END { print t }' "$out")" "0.165000000" "rank 0's last at 165 ms"
is "$(grep -v '^#' "$out" | cut -d' ' -f1 | sort -c -g 2>&1 && echo sorted)" sorted "marks and the outlier's end in time order"

# drop: the outlier is its label's median scaled, its excess dropped
# as the base host's.  a.trc, K = 2: 80 + 80 + 2 x 1 = 162 ms.
expect_exit 0 "drop: runs" -- trc-scale -v --outliers drop --cpu-ratio 2 "$tmp/a.trc"
is "$(last "$out")" "0.162000000" "drop: the outlier is 2 x median (162 ms)"
ok "$(grep -c "trc-scale: 1 computation interval past its label's fence (--outliers drop), 0.003000000 s dropped" "$err" | grep -qx 1; echo $?)" \
    "-v: one interval, 3 ms dropped"
# K = 1 drops it too: the excess is the base's, whatever the target.
# 40 + 40 + 1 = 81 ms; K = 0.5: 20 + 20 + 0.5 = 40.5 ms.
expect_exit 0 "drop, K 1" -- trc-scale --outliers drop "$tmp/a.trc"
is "$(last "$out")" "0.081000000" "drop, K 1: the excess dropped (81 ms)"
expect_exit 0 "drop, K 0.5" -- trc-scale --outliers drop --cpu-ratio 0.5 "$tmp/a.trc"
is "$(last "$out")" "0.040500000" "drop, K 0.5 (40.5 ms)"
# The warm-up and unlike labels as with delay: scaled whole.
expect_exit 0 "drop, warm-up" -- trc-scale --outliers drop --cpu-ratio 2 "$tmp/w.trc"
is "$(last "$out")" "0.164000000" "drop: the first 32 intervals not judged"
expect_exit 0 "drop, unlike" -- trc-scale --outliers drop --cpu-ratio 2 "$tmp/u.trc"
is "$(last "$out")" "0.264000000" "drop: an unlike label scaled whole"
# An outlier's end may come before K times its length, and before
# events read while it lasted: m.trc's send begins at 80 + 2 + 80 + 2
# = 164 ms, its receive ends after it, o.trc's marks in time order.
expect_exit 0 "drop, a message after an outlier" -- trc-scale --outliers drop --cpu-ratio 2 "$tmp/m.trc"
se=$(awk '$2 == 0 && $3 == "SE" { print $1 }' "$out")
re=$(awk '$2 == 1 && $3 == "RE" { print $1 }' "$out")
is "$(awk '$2 == 0 && $3 == "SB" { print $1 }' "$out")" "0.164000000" "drop: the send begins at 164 ms"
is "$(awk -v a="$se" -v b="$re" 'BEGIN { print (b >= a) }')" 1 "drop: the receive ends after the send ($re >= $se)"
expect_exit 0 "drop, marks beside an outlier" -- trc-scale --outliers drop --cpu-ratio 2 "$tmp/o.trc"
is "$(awk '$2 == 0 { t = $1 } END { print t }' "$out")" "0.162000000" "drop: rank 0's last at 162 ms"
is "$(grep -v '^#' "$out" | cut -d' ' -f1 | sort -c -g 2>&1 && echo sorted)" sorted "drop: marks and the outlier's end in time order"

# The spread is read from the lower half: a third of the intervals
# 4 ms among 1 ms ones puts the upper quartile at 4 ms (an
# interquartile range of 3, three times the median: unlike), but the
# lower quartile and median at 1: every 4 ms one past the fence.  40
# of 1 ms, then 12 times (1, 1, 4).  The running median is an estimate
# (P-squared), a little over 1 ms: each drops 3 ms less that.
seq_trc "$tmp/b.trc" $(rep 40 1) $(rep 12 '1 1 4')
expect_exit 0 "a third far longer: drop" -- trc-scale -v --outliers drop --cpu-ratio 2 "$tmp/b.trc"
n=$(sed -n "s/^trc-scale: \([0-9]*\) computation intervals past its label's fence (--outliers drop), \([0-9.]*\) s dropped\$/\1 \2/p" "$err")
is "${n% *}" 12 "  all 12 judged"
ok "$(awk -v x="${n#* }" 'BEGIN { exit !(x > 0.0355 && x <= 0.036) }'; echo $?)" "  dropped 12 x 3 ms, less the median's excess over 1 ms (${n#* } s)"
# K 2: the 64 of 1 ms and 75 gaps doubled, each 4 ms one 2 x median:
# 302 ms, and at most 1 ms more.
ok "$(awk -v x="$(last "$out")" 'BEGIN { exit !(x >= 0.302 && x < 0.303) }'; echo $?)" "  predicted as 2 x median (302 ms, $(last "$out"))"
# Two kinds of work half and half, 1 and 4 ms in turn, 60 times: the
# median between them, the label unlike, none judged; 2 x (60 x 5 +
# 119) = 838 ms.
seq_trc "$tmp/h.trc" $(rep 60 '1 4')
expect_exit 0 "half far longer: unlike" -- trc-scale -v --outliers drop --cpu-ratio 2 "$tmp/h.trc"
is "$(grep "past its label" "$err")" "trc-scale: 0 computation intervals past its label's fence (--outliers drop), 0.000000000 s dropped" "  none judged"
is "$(last "$out")" "0.838000000" "  scaled whole (838 ms)"

# Bad usage.
expect_exit 2 "unknown mode" -- trc-scale --outliers sometimes "$tmp/a.trc"
is "$(cat "$err")" "trc-scale: invalid outliers mode 'sometimes'" "unknown mode: message"
expect_exit 2 "no mode" -- trc-scale "$tmp/a.trc" --outliers
ok "$(grep -c 'usage' "$err" >/dev/null; echo $?)" "no mode: usage"

done_testing
