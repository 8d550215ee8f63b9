# from-trc.awk - write a trc stream of blocking sends, receives and
# regions as Pablo SDDF (ASCII), on standard output:
#
#	awk -f from-trc.awk stream.trc > stream.sddf
#
# For tests and benchmarks of the sddf reader.  Sends and receives are
# Begin and End records with the message in both, regions Procedure
# Entry and Exit records; markers have no record and are left out, and
# so are waits and collectives.  SDDF has no wildcard source: a
# receive posted with peer=* stops the script.

function attr(k,    i, n) {
	for (i = 4; i <= NF; i++) {
		n = index($i, "=")
		if (substr($i, 1, n - 1) == k)
			return substr($i, n + 1)
	}
	return ""
}

BEGIN {
	print "SDDFA"
	print "/*"
	print " * \"written by\" \"t/data/sddf/from-trc.awk\""
	print " */ ;;"
	print ""
	n = split("Send Begin,Send End,Receive Begin,Receive End", name, ",")
	for (i = 1; i <= n; i++) {
		printf "#%d:\n\"%s\" {\n\tdouble\t\"Seconds\";\n\tint\t\"Processor Number\";\n", i, name[i]
		printf "\tint\t\"Message Type\";\n\tint\t\"Message Length\";\n"
		printf "\tint\t\"%s\";\n};;\n\n", i <= 2 ? "Destination" : "Source"
	}
	printf "#5:\n\"Procedure Entry\" {\n\tdouble\t\"Seconds\";\n\tint\t\"Processor Number\";\n\tchar\t\"Procedure\"[];\n};;\n\n"
	printf "#6:\n\"Procedure Exit\" {\n\tdouble\t\"Seconds\";\n\tint\t\"Processor Number\";\n\tchar\t\"Procedure\"[];\n};;\n\n"
	rec["SB"] = "Send Begin"; rec["SE"] = "Send End"
	rec["RB"] = "Receive Begin"; rec["RE"] = "Receive End"
}

/^#/ || NF < 3 { next }

$3 in rec {
	if (attr("peer") == "*" || attr("req") != "") {
		print "from-trc.awk: line " NR ": no SDDF record for this event" > "/dev/stderr"
		exit 2
	}
	printf "\"%s\" { %s, %d, %d, %d, %d };;\n", rec[$3], $1, $2, attr("tag"), attr("bytes"), attr("peer")
	next
}

$3 == "PB" || $3 == "PE" {
	fn = attr("fn")
	printf "\"Procedure %s\" { %s, %d, [%d] { \"%s\" } };;\n", $3 == "PB" ? "Entry" : "Exit", $1, $2, length(fn), fn
}
