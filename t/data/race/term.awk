# awk -v k=K -v racy=0|1: rank 0 waits for any of a work receive from 1
# and a final message from 2 (req=1), K times; 2 sends the final
# message at once when racy, else after hearing of every wait.
function ev(s) { printf "0.%09d %s\n", ++t, s }
BEGIN {
	print "#trc 1 ranks=3"
	ev("0 RB peer=2 tag=9 bytes=4 req=1")
	if (racy) { ev("2 SB peer=0 tag=9 bytes=4"); ev("2 SE peer=0 tag=9 bytes=4") }
	for (i = 1; i <= k; i++) {
		r = i + 1
		ev("0 RB peer=1 tag=1 bytes=4 req=" r)
		ev("1 SB peer=0 tag=1 bytes=4"); ev("1 SE peer=0 tag=1 bytes=4")
		ev("0 WB req=1," r " op=waitany")
		ev("0 RE req=" r " peer=1 tag=1 bytes=4")
		ev("0 WE req=" r " op=waitany")
		ev("0 SB peer=1 tag=2 bytes=4"); ev("0 SE peer=1 tag=2 bytes=4")
		ev("1 RB peer=0 tag=2 bytes=4"); ev("1 RE peer=0 tag=2 bytes=4")
		ev("0 SB peer=2 tag=2 bytes=4"); ev("0 SE peer=2 tag=2 bytes=4")
		ev("2 RB peer=0 tag=2 bytes=4"); ev("2 RE peer=0 tag=2 bytes=4")
	}
	if (!racy) { ev("2 SB peer=0 tag=9 bytes=4"); ev("2 SE peer=0 tag=9 bytes=4") }
	ev("0 WB req=1 op=wait"); ev("0 RE req=1 peer=2 tag=9 bytes=4"); ev("0 WE req=1 op=wait")
}
