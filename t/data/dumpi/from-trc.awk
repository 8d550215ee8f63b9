# from-trc.awk - write a trc stream as dumpi2ascii prints a DUMPI trace,
# one file per rank: prefix-0000.txt, prefix-0001.txt, ...
#
#	awk -v prefix=DIR/run -f from-trc.awk stream.trc
#
# For tests and benchmarks of the dumpi reader: sends, receives, their
# nonblocking forms, waitall, allreduce/barrier/bcast and regions
# (Function_enter/exit) become the calls that make them; markers have
# no DUMPI call and are left out.  Sizes that are a multiple of 8 are
# counts of MPI_DOUBLE, others of MPI_BYTE.  Statuses are <IGNORED>, as
# when a program passes MPI_STATUS(ES)_IGNORE, except where a receive
# posted with a wildcard needs one.  Requests get handles R + 2, as
# dumpi numbers them from 2.

function attr(k,    i, n) {
	for (i = 4; i <= NF; i++) {
		n = index($i, "=")
		if (substr($i, 1, n - 1) == k)
			return substr($i, n + 1)
	}
	return ""
}

function file(r) {
	if (!(r in fname)) {
		fname[r] = sprintf("%s-%04d.txt", prefix, r)
		printf "" > fname[r]
	}
	return fname[r]
}

function enter(r, call, t) {
	printf "%s entering at walltime %s, cputime %s seconds in thread 0.\n", call, t, t > file(r)
}

function leave(r, call, t) {
	printf "%s returning at walltime %s, cputime %s seconds in thread 0.\n", call, t, t > file(r)
}

function buffer(r, b) {
	if (b % 8 == 0) {
		printf "int count=%d\nMPI_Datatype datatype=14 (MPI_DOUBLE)\n", b / 8 > file(r)
	} else {
		printf "int count=%d\nMPI_Datatype datatype=5 (MPI_BYTE)\n", b > file(r)
	}
}

function peer(p) {
	return p == "*" ? "-1 (MPI_ANY_SOURCE)" : p
}

function status(bytes, src, tag) {
	return sprintf("{bytes=%d, cancelled=0, source=%d, tag=%d, error=0}", bytes, src, tag)
}

BEGIN {
	if (prefix == "") {
		print "from-trc.awk: -v prefix=PATH needed" > "/dev/stderr"
		exit 2
	}
	world = "MPI_Comm comm=2 (MPI_COMM_WORLD)"
}

/^#trc/ {
	for (i = 2; i <= NF; i++)
		if ($i ~ /^ranks=/)
			nranks = substr($i, 7)
	next
}

/^#/ || NF < 3 { next }

{
	t = $1; r = $2; k = $3
	if (!(r in started)) {
		started[r] = 1
		enter(r, "MPI_Comm_size", t)
		printf "%s\nint size=%d\n", world, nranks > file(r)
		leave(r, "MPI_Comm_size", t)
		enter(r, "MPI_Comm_rank", t)
		printf "%s\nint rank=%d\n", world, r > file(r)
		leave(r, "MPI_Comm_rank", t)
	}
}

k == "PB" || k == "PE" {
	call = k == "PB" ? "Function_enter" : "Function_exit"
	fn = attr("fn")
	if (!(fn in fid))
		fid[fn] = 4096 + 16 * length(fid)
	enter(r, call, t)
	printf "int fn=%d (\"%s\")\n", fid[fn], fn > file(r)
	leave(r, call, t)
	next
}

k == "SB" {
	t0[r] = t
	next
}

k == "SE" {
	req = attr("req")
	call = req == "" ? "MPI_Send" : "MPI_Isend"
	enter(r, call, t0[r])
	buffer(r, attr("bytes"))
	printf "int dest=%d\nint tag=%d\n%s\n", attr("peer"), attr("tag"), world > file(r)
	if (req != "")
		printf "MPI_Request request=[%d]\n", req + 2 > file(r)
	leave(r, call, t)
	next
}

k == "RB" && attr("req") != "" {
	if (attr("peer") == "*" || attr("tag") == "*")
		wild[r, attr("req")] = 1
	enter(r, "MPI_Irecv", t)
	buffer(r, attr("bytes"))
	printf "int source=%s\nint tag=%s\n%s\n", peer(attr("peer")), (attr("tag") == "*" ? "-1 (MPI_ANY_TAG)" : attr("tag")), world > file(r)
	printf "MPI_Request request=[%d]\n", attr("req") + 2 > file(r)
	leave(r, "MPI_Irecv", t)
	next
}

k == "RB" {
	t0[r] = t
	rb[r] = $0
	next
}

# A blocking receive ends here; one inside a wait waits for its WE.
k == "RE" && attr("req") == "" {
	s = status(attr("bytes"), attr("peer"), attr("tag"))
	$0 = rb[r]
	enter(r, "MPI_Recv", t0[r])
	buffer(r, attr("bytes"))
	printf "int source=%s\nint tag=%s\n%s\n", peer(attr("peer")), (attr("tag") == "*" ? "-1 (MPI_ANY_TAG)" : attr("tag")), world > file(r)
	if (attr("peer") == "*" || attr("tag") == "*")
		printf "MPI_Status status=[%s]\n", s > file(r)
	else
		printf "MPI_Status status=<IGNORED>\n" > file(r)
	leave(r, "MPI_Recv", t)
	next
}

k == "RE" {
	st[r, attr("req")] = status(attr("bytes"), attr("peer"), attr("tag"))
	next
}

k == "WB" {
	t0[r] = t
	wl[r] = attr("req")
	next
}

k == "WE" {
	n = split(wl[r], q, ",")
	enter(r, "MPI_Waitall", t0[r])
	printf "int count=%d\nMPI_Request requests[%d]=[", n, n > file(r)
	for (i = 1; i <= n; i++)
		printf "%s%d", (i > 1 ? ", " : ""), q[i] + 2 > file(r)
	need = 0
	for (i = 1; i <= n; i++)
		if ((r SUBSEP q[i]) in wild)
			need = 1
	printf "]\nMPI_Status statuses[%d]=", n > file(r)
	if (!need)
		printf "<IGNORED>\n" > file(r)
	else {
		printf "[" > file(r)
		for (i = 1; i <= n; i++) {
			s = (r SUBSEP q[i]) in st ? st[r, q[i]] : status(0, -1, -1)
			printf "%s%s", (i > 1 ? ", " : ""), s > file(r)
		}
		printf "]\n" > file(r)
	}
	for (i = 1; i <= n; i++) {
		delete st[r, q[i]]
		delete wild[r, q[i]]
	}
	leave(r, "MPI_Waitall", t)
	next
}

k == "XB" {
	t0[r] = t
	next
}

k == "XE" {
	op = attr("op")
	call = op == "barrier" ? "MPI_Barrier" : op == "bcast" ? "MPI_Bcast" : "MPI_Allreduce"
	enter(r, call, t0[r])
	if (op != "barrier")
		buffer(r, attr("bytes"))
	if (op == "allreduce")
		printf "MPI_Op op=3 (MPI_SUM)\n" > file(r)
	if (op == "bcast")
		printf "int root=%d\n", attr("root") > file(r)
	printf "%s\n", world > file(r)
	leave(r, call, t)
	next
}
