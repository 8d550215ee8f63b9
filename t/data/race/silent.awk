# awk -v k=K -v fin=0|1: rank 0 takes K messages from rank 1 with
# wildcard receives, each answered by a token; rank 2 does nothing, and
# with fin=1 has passed MPI_Finalize (MK mark=finalize) at the start.
function ev(s) { printf "0.%09d %s\n", ++t, s }
BEGIN {
	print "#trc 1 ranks=3"
	if (fin) ev("2 MK mark=finalize")
	for (i = 1; i <= k; i++) {
		ev("1 SB peer=0 tag=1 bytes=4"); ev("1 SE peer=0 tag=1 bytes=4")
		ev("0 RB peer=* tag=1 bytes=4"); ev("0 RE peer=1 tag=1 bytes=4")
		ev("0 SB peer=1 tag=2 bytes=4"); ev("0 SE peer=1 tag=2 bytes=4")
		ev("1 RB peer=0 tag=2 bytes=4"); ev("1 RE peer=0 tag=2 bytes=4")
	}
}
