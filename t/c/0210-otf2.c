/*
 * 0210-otf2.c - an OTF2 archive as Score-P writes one, made here with
 * libotf2 record by record, read back through trc_open: every MPI call
 * shape the reader knows (blocking and nonblocking point to point, a
 * wait, an unsuccessful test, MPI_Sendrecv, collectives on the world
 * and on a communicator whose ranks are not the world's, MPI_Init and
 * MPI_Finalize, calls to MPI_PROC_NULL), locations that are not ranks
 * and records the stream cannot say.  The expected stream is written
 * by hand from the records below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "trc.h"
#include "tap.h"

enum {
	S_EMPTY, S_MPI, S_MAIN, S_INIT, S_RANK, S_SEND, S_ISEND, S_IRECV,
	S_TEST, S_WAITALL, S_ALLRED, S_BCAST, S_RECV, S_SOLVE, S_FINI,
	S_SENDRECV, S_WORKER, S_WORLD, S_SUB, S_SELF, S_FLAVOUR, S_CYCLES,
	S_R0, S_R1, S_R2, S_THREAD, S_NODE, S_NSTR
};
static const char *const strs[S_NSTR] = {
	"", "MPI", "main", "MPI_Init", "MPI_Comm_rank", "MPI_Send",
	"MPI_Isend", "MPI_Irecv", "MPI_Test", "MPI_Waitall", "MPI_Allreduce",
	"MPI_Bcast", "MPI_Recv", "solve (x=1)", "MPI_Finalize",
	"MPI_Sendrecv", "worker", "MPI_COMM_WORLD", "Comm 1", "MPI_COMM_SELF",
	"Flavour", "cycles", "MPI Rank 0", "MPI Rank 1", "MPI Rank 2",
	"Master thread", "node"
};

/* Regions, by id. */
enum {
	R_MAIN, R_INIT, R_RANK, R_SEND, R_ISEND, R_IRECV, R_TEST, R_WAITALL,
	R_ALLRED, R_BCAST, R_RECV, R_SOLVE, R_FINI, R_SENDRECV, R_WORKER,
	R_N
};
static const int region_str[R_N] = {
	S_MAIN, S_INIT, S_RANK, S_SEND, S_ISEND, S_IRECV, S_TEST, S_WAITALL,
	S_ALLRED, S_BCAST, S_RECV, S_SOLVE, S_FINI, S_SENDRECV, S_WORKER
};

#define THREAD	((UINT64_C(1) << 32) | 0)	/* a second thread of rank 0 */
#define T(us)	((uint64_t)(1000 + (us)))	/* ticks: microseconds + 1000 */

/* Communicators: 0 the world, 1 ranks 1 and 0 (in that order), 2 self. */
#define C_WORLD	0
#define C_SUB	1

static OTF2_FlushType
pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool f)
{
	(void)u;
	(void)ft;
	(void)l;
	(void)c;
	(void)f;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush = { pre_flush, NULL };

static void
enter(OTF2_EvtWriter *w, uint64_t t, int r)
{
	OTF2_EvtWriter_Enter(w, NULL, t, (uint32_t)r);
}

static void
leave(OTF2_EvtWriter *w, uint64_t t, int r)
{
	OTF2_EvtWriter_Leave(w, NULL, t, (uint32_t)r);
}

static void
coll(OTF2_EvtWriter *w, uint64_t t0, uint64_t t1, int r, OTF2_CollectiveOp op,
    uint32_t comm, uint32_t root, uint64_t sent, uint64_t recvd)
{
	enter(w, t0, r);
	OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t0 + 1);
	OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t1 - 1, op, comm, root, sent,
	    recvd);
	leave(w, t1, r);
}

static int
write_archive(const char *dir)
{
	OTF2_Archive *a;
	OTF2_EvtWriter *w0, *w1, *w2, *wt;
	OTF2_GlobalDefWriter *g;
	OTF2_AttributeList *al;
	OTF2_Type type = OTF2_TYPE_UINT64;
	OTF2_MetricValue mv;
	uint64_t cl[3] = { 2, 0, 1 };		/* COMM_LOCATIONS */
	uint64_t world[3] = { 1, 2, 0 };	/* ranks 0, 1, 2: locations 0, 1, 2 */
	uint64_t sub[2] = { 2, 1 };		/* locations 1, 0: ranks 1, 0 */
	uint64_t locs[4] = { 0, 1, 2, THREAD };
	int i;

	a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 256 * 1024,
	    4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (a == NULL)
		return -1;
	OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(a);
	OTF2_Archive_SetCreator(a, "a test of trc");
	OTF2_Archive_OpenEvtFiles(a);
	w0 = OTF2_Archive_GetEvtWriter(a, 0);
	w1 = OTF2_Archive_GetEvtWriter(a, 1);
	w2 = OTF2_Archive_GetEvtWriter(a, 2);
	wt = OTF2_Archive_GetEvtWriter(a, THREAD);

	/* Rank 0. */
	OTF2_EvtWriter_ProgramBegin(w0, NULL, T(0), S_MAIN, 0, NULL);
	enter(w0, T(1), R_MAIN);
	enter(w0, T(2), R_INIT);
	leave(w0, T(10), R_INIT);
	enter(w0, T(11), R_RANK);
	leave(w0, T(12), R_RANK);
	enter(w0, T(20), R_SEND);
	OTF2_EvtWriter_MpiSend(w0, NULL, T(21), 1, C_WORLD, 7, 100);
	leave(w0, T(25), R_SEND);
	enter(w0, T(30), R_ISEND);
	OTF2_EvtWriter_MpiIsend(w0, NULL, T(31), 2, C_WORLD, 8, 200, 555);
	leave(w0, T(32), R_ISEND);
	enter(w0, T(33), R_IRECV);
	OTF2_EvtWriter_MpiIrecvRequest(w0, NULL, T(34), 556);
	leave(w0, T(35), R_IRECV);
	enter(w0, T(40), R_TEST);
	OTF2_EvtWriter_MpiRequestTest(w0, NULL, T(41), 556);
	leave(w0, T(42), R_TEST);
	enter(w0, T(50), R_WAITALL);
	OTF2_EvtWriter_MpiIsendComplete(w0, NULL, T(55), 555);
	OTF2_EvtWriter_MpiIrecv(w0, NULL, T(56), 2, C_WORLD, 9, 300, 556);
	leave(w0, T(57), R_WAITALL);
	coll(w0, T(60), T(70), R_ALLRED, OTF2_COLLECTIVE_OP_ALLREDUCE, C_WORLD,
	    OTF2_UNDEFINED_UINT32, 24, 24);
	/* Not the root (comm rank 0, world rank 1) of a bcast on Comm 1. */
	coll(w0, T(80), T(90), R_BCAST, OTF2_COLLECTIVE_OP_BCAST, C_SUB, 0, 0,
	    64);
	enter(w0, T(100), R_RECV);
	OTF2_EvtWriter_MpiRecv(w0, NULL, T(105), 0, C_SUB, 4, 16);
	leave(w0, T(106), R_RECV);
	mv.unsigned_int = 12345;
	OTF2_EvtWriter_Metric(w0, NULL, T(110), 0, 1, &type, &mv);
	al = OTF2_AttributeList_New();
	OTF2_AttributeList_AddUint32(al, 0, 3);
	OTF2_EvtWriter_Enter(w0, al, T(120), R_SOLVE);
	OTF2_AttributeList_Delete(al);
	leave(w0, T(121), R_SOLVE);
	enter(w0, T(200), R_FINI);
	leave(w0, T(201), R_FINI);
	leave(w0, T(202), R_MAIN);
	OTF2_EvtWriter_ProgramEnd(w0, NULL, T(203), 0);

	/* Rank 1. */
	enter(w1, T(1), R_MAIN);
	enter(w1, T(22), R_RECV);
	OTF2_EvtWriter_MpiRecv(w1, NULL, T(26), 0, C_WORLD, 7, 100);
	leave(w1, T(27), R_RECV);
	coll(w1, T(62), T(70), R_ALLRED, OTF2_COLLECTIVE_OP_ALLREDUCE, C_WORLD,
	    OTF2_UNDEFINED_UINT32, 24, 24);
	/* The root: Score-P counts what it sends to both. */
	coll(w1, T(80), T(90), R_BCAST, OTF2_COLLECTIVE_OP_BCAST, C_SUB, 0,
	    128, 64);
	enter(w1, T(95), R_SEND);
	OTF2_EvtWriter_MpiSend(w1, NULL, T(96), 1, C_SUB, 4, 16);
	leave(w1, T(97), R_SEND);
	enter(w1, T(130), R_SENDRECV);
	OTF2_EvtWriter_MpiSend(w1, NULL, T(131), 2, C_WORLD, 5, 40);
	OTF2_EvtWriter_MpiRecv(w1, NULL, T(138), 2, C_WORLD, 6, 50);
	leave(w1, T(139), R_SENDRECV);
	leave(w1, T(202), R_MAIN);

	/* Rank 2. */
	enter(w2, T(1), R_MAIN);
	enter(w2, T(36), R_RECV);
	OTF2_EvtWriter_MpiRecv(w2, NULL, T(37), 0, C_WORLD, 8, 200);
	leave(w2, T(38), R_RECV);
	enter(w2, T(45), R_SEND);
	OTF2_EvtWriter_MpiSend(w2, NULL, T(46), 0, C_WORLD, 9, 300);
	leave(w2, T(47), R_SEND);
	coll(w2, T(64), T(70), R_ALLRED, OTF2_COLLECTIVE_OP_ALLREDUCE, C_WORLD,
	    OTF2_UNDEFINED_UINT32, 24, 24);
	enter(w2, T(130), R_SENDRECV);
	OTF2_EvtWriter_MpiSend(w2, NULL, T(132), 1, C_WORLD, 6, 50);
	OTF2_EvtWriter_MpiRecv(w2, NULL, T(136), 1, C_WORLD, 5, 40);
	leave(w2, T(137), R_SENDRECV);
	/* A send to MPI_PROC_NULL: Score-P writes no message. */
	enter(w2, T(150), R_SEND);
	leave(w2, T(152), R_SEND);
	leave(w2, T(202), R_MAIN);

	/* A thread of rank 0: not a rank. */
	enter(wt, T(70), R_WORKER);
	leave(wt, T(71), R_WORKER);

	OTF2_Archive_CloseEvtWriter(a, w0);
	OTF2_Archive_CloseEvtWriter(a, w1);
	OTF2_Archive_CloseEvtWriter(a, w2);
	OTF2_Archive_CloseEvtWriter(a, wt);
	OTF2_Archive_CloseEvtFiles(a);

	g = OTF2_Archive_GetGlobalDefWriter(a);
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 1000, 300,
	    OTF2_UNDEFINED_TIMESTAMP);
	for (i = 0; i < S_NSTR; i++)
		OTF2_GlobalDefWriter_WriteString(g, (uint32_t)i, strs[i]);
	OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, S_MPI,
	    OTF2_PARADIGM_CLASS_PROCESS);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_NODE, S_NODE,
	    OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (i = 0; i < 3; i++)
		OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)i,
		    (uint32_t)(S_R0 + i), OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
		    OTF2_UNDEFINED_LOCATION_GROUP);
	OTF2_GlobalDefWriter_WriteLocation(g, 0, S_THREAD,
	    OTF2_LOCATION_TYPE_CPU_THREAD, 36, 0);
	OTF2_GlobalDefWriter_WriteLocation(g, 1, S_THREAD,
	    OTF2_LOCATION_TYPE_CPU_THREAD, 19, 1);
	OTF2_GlobalDefWriter_WriteLocation(g, 2, S_THREAD,
	    OTF2_LOCATION_TYPE_CPU_THREAD, 18, 2);
	OTF2_GlobalDefWriter_WriteLocation(g, THREAD, S_THREAD,
	    OTF2_LOCATION_TYPE_CPU_THREAD, 2, 0);
	for (i = 0; i < R_N; i++)
		OTF2_GlobalDefWriter_WriteRegion(g, (uint32_t)i,
		    (uint32_t)region_str[i], (uint32_t)region_str[i], S_EMPTY,
		    OTF2_REGION_ROLE_FUNCTION, i == R_MAIN || i == R_SOLVE ||
		    i == R_WORKER ? OTF2_PARADIGM_COMPILER : OTF2_PARADIGM_MPI,
		    OTF2_REGION_FLAG_NONE, S_EMPTY, 0, 0);
	OTF2_GlobalDefWriter_WriteAttribute(g, 0, S_FLAVOUR, S_EMPTY,
	    OTF2_TYPE_UINT32);
	OTF2_GlobalDefWriter_WriteGroup(g, 0, S_EMPTY,
	    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, 3, cl);
	OTF2_GlobalDefWriter_WriteGroup(g, 1, S_EMPTY,
	    OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, 3, world);
	OTF2_GlobalDefWriter_WriteGroup(g, 2, S_EMPTY,
	    OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, 2, sub);
	OTF2_GlobalDefWriter_WriteGroup(g, 3, S_EMPTY,
	    OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, 0, NULL);
	OTF2_GlobalDefWriter_WriteGroup(g, 4, S_EMPTY,
	    OTF2_GROUP_TYPE_LOCATIONS, OTF2_PARADIGM_UNKNOWN,
	    OTF2_GROUP_FLAG_NONE, 4, locs);
	OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1, OTF2_UNDEFINED_COMM,
	    OTF2_COMM_FLAG_NONE);
	OTF2_GlobalDefWriter_WriteComm(g, 1, S_SUB, 2, 0, OTF2_COMM_FLAG_NONE);
	OTF2_GlobalDefWriter_WriteComm(g, 2, S_SELF, 3, OTF2_UNDEFINED_COMM,
	    OTF2_COMM_FLAG_NONE);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_OpenDefFiles(a);
	for (i = 0; i < 4; i++)
		OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a,
		    locs[i]));
	OTF2_Archive_CloseDefFiles(a);
	return OTF2_Archive_Close(a) == OTF2_SUCCESS ? 0 : -1;
}

static const char want[] =
    "0.000001000 0 PB fn=main\n"
    "0.000001000 1 PB fn=main\n"
    "0.000001000 2 PB fn=main\n"
    "0.000010000 0 MK mark=init\n"
    "0.000020000 0 SB peer=1 tag=7 bytes=100\n"
    "0.000022000 1 RB peer=0 tag=7 bytes=100\n"
    "0.000025000 0 SE peer=1 tag=7 bytes=100\n"
    "0.000027000 1 RE peer=0 tag=7 bytes=100\n"
    "0.000030000 0 SB peer=2 tag=8 bytes=200 req=1\n"
    "0.000032000 0 SE peer=2 tag=8 bytes=200 req=1\n"
    "0.000033000 0 RB req=2\n"
    "0.000036000 2 RB peer=0 tag=8 bytes=200\n"
    "0.000038000 2 RE peer=0 tag=8 bytes=200\n"
    "0.000045000 2 SB peer=0 tag=9 bytes=300\n"
    "0.000047000 2 SE peer=0 tag=9 bytes=300\n"
    "0.000050000 0 WB req=1,2 op=waitall\n"
    "0.000056000 0 RE peer=2 tag=9 bytes=300 req=2\n"
    "0.000057000 0 WE req=1,2 op=waitall\n"
    "0.000060000 0 XB op=allreduce bytes=8\n"
    "0.000062000 1 XB op=allreduce bytes=8\n"
    "0.000064000 2 XB op=allreduce bytes=8\n"
    "0.000070000 0 XE op=allreduce bytes=8\n"
    "0.000070000 1 XE op=allreduce bytes=8\n"
    "0.000070000 2 XE op=allreduce bytes=8\n"
    "0.000080000 0 XB op=bcast bytes=64 root=1 comm=2 size=2\n"
    "0.000080000 1 XB op=bcast bytes=64 root=1 comm=2 size=2\n"
    "0.000090000 0 XE op=bcast bytes=64 root=1 comm=2\n"
    "0.000090000 1 XE op=bcast bytes=64 root=1 comm=2\n"
    "0.000095000 1 SB peer=0 tag=4 bytes=16 comm=2\n"
    "0.000097000 1 SE peer=0 tag=4 bytes=16 comm=2\n"
    "0.000100000 0 RB peer=1 tag=4 bytes=16 comm=2\n"
    "0.000106000 0 RE peer=1 tag=4 bytes=16 comm=2\n"
    "0.000120000 0 PB fn=solve_(x_1)\n"
    "0.000121000 0 PE fn=solve_(x_1)\n"
    "0.000130000 1 SB peer=2 tag=5 bytes=40 req=1\n"
    "0.000130000 1 SE peer=2 tag=5 bytes=40 req=1\n"
    "0.000130000 1 RB peer=2 tag=6 bytes=50 req=2\n"
    "0.000130000 1 WB req=1,2 op=sendrecv\n"
    "0.000130000 2 SB peer=1 tag=6 bytes=50 req=1\n"
    "0.000130000 2 SE peer=1 tag=6 bytes=50 req=1\n"
    "0.000130000 2 RB peer=1 tag=5 bytes=40 req=2\n"
    "0.000130000 2 WB req=1,2 op=sendrecv\n"
    "0.000137000 2 RE peer=1 tag=5 bytes=40 req=2\n"
    "0.000137000 2 WE req=1,2 op=sendrecv\n"
    "0.000139000 1 RE peer=2 tag=6 bytes=50 req=2\n"
    "0.000139000 1 WE req=1,2 op=sendrecv\n"
    "0.000200000 0 MK mark=finalize\n"
    "0.000202000 0 PE fn=main\n"
    "0.000202000 1 PE fn=main\n"
    "0.000202000 2 PE fn=main\n";

/* In byte order (the reader's order is when it met them). */
static const char want_drops[] =
    "METRIC event 1\n"
    "MPI_Comm_rank call 1\n"
    "MPI_REQUEST_TEST event 1\n"
    "MPI_Send call with no message 1\n"
    "MPI_Test call that completed nothing 1\n"
    "PROGRAM_BEGIN event 1\n"
    "PROGRAM_END event 1\n"
    "attribute Flavour 1\n"
    "event of a location that is no MPI rank 2\n";

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Small archives with one thing wrong, 2 ranks (locations 0 and 1),
 * regions 0 "main" (user) and 1 "MPI_Send", clock 1 MHz from 1000.
 * (Times going backwards in a location are refused by libotf2's
 * writer, so the reader's check of them has no test here.)
 */
enum {
	B_REGION, B_PEER, B_COMM, B_OFFSET, B_CLOCK, B_RANKS,
	B_ORDER, B_ATTR, B_N
};
static const char *const bad_name[B_N] = {
	"undefined region", "receiver not in the communicator",
	"undefined communicator", "time before the clock's offset",
	"no clock properties", "no ranks",
	"an attribute order that does not fit", "undefined attribute"
};
static const char *const bad_msg[B_N] = {
	"location 0, event 1: undefined region 99",
	"location 1, event 2: receiver 5 not a rank of communicator "
	    "'MPI_COMM_WORLD'",
	"location 1, event 2: undefined communicator 7",
	"location 0, event 1: time 500 before the clock's offset 1000",
	"no clock properties in the definitions",
	"no MPI ranks or processes in the archive",
	"location 0, event 1: attribute order 'peer' does not fit the event",
	"location 1, event 1: undefined attribute 9"
};

static int
write_bad(const char *dir, int b)
{
	static const char *const s[] = { "", "MPI", "main", "MPI_Send",
	    "MPI_COMM_WORLD", "Master thread", "trc attribute order",
	    "peer", "trc region" };
	uint64_t members[2] = { 0, 1 };
	OTF2_AttributeList *al = NULL;
	OTF2_EvtWriter *w0, *w1;
	OTF2_GlobalDefWriter *g;
	OTF2_Archive *a;
	int i;

	a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 256 * 1024,
	    4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (a == NULL)
		return -1;
	OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(a);
	if (b == B_ORDER)
		OTF2_Archive_SetProperty(a, "TRC::STREAM", "1", true);
	OTF2_Archive_OpenEvtFiles(a);
	w0 = OTF2_Archive_GetEvtWriter(a, 0);
	w1 = OTF2_Archive_GetEvtWriter(a, 1);
	if (b == B_ORDER || b == B_ATTR) {
		al = OTF2_AttributeList_New();
		OTF2_AttributeList_AddStringRef(al, b == B_ORDER ? 0 : 9, 7);
	}
	OTF2_EvtWriter_Enter(w0, b == B_ORDER ? al : NULL,
	    b == B_OFFSET ? 500 : 1001, b == B_REGION ? 99 : 0);
	OTF2_EvtWriter_Leave(w0, NULL, 1010, 0);
	OTF2_EvtWriter_Enter(w1, b == B_ATTR ? al : NULL, 1002, 1);
	OTF2_EvtWriter_MpiSend(w1, NULL, 1005, b == B_PEER ? 5 : 0,
	    b == B_COMM ? 7 : 0, 1, 8);
	OTF2_EvtWriter_Leave(w1, NULL, 1006, 1);
	if (al != NULL)
		OTF2_AttributeList_Delete(al);
	OTF2_Archive_CloseEvtWriter(a, w0);
	OTF2_Archive_CloseEvtWriter(a, w1);
	OTF2_Archive_CloseEvtFiles(a);
	g = OTF2_Archive_GetGlobalDefWriter(a);
	if (b != B_CLOCK)
		OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000, 1000, 100,
		    OTF2_UNDEFINED_TIMESTAMP);
	for (i = 0; i < 9; i++)
		OTF2_GlobalDefWriter_WriteString(g, (uint32_t)i, s[i]);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 0, 0,
	    OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (i = 0; i < 2; i++) {
		OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)i, 0,
		    b == B_RANKS ? OTF2_LOCATION_GROUP_TYPE_ACCELERATOR :
		    OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
		    OTF2_UNDEFINED_LOCATION_GROUP);
		OTF2_GlobalDefWriter_WriteLocation(g, (uint64_t)i, 5,
		    OTF2_LOCATION_TYPE_CPU_THREAD, 3, (uint32_t)i);
	}
	OTF2_GlobalDefWriter_WriteRegion(g, 0, 2, 2, b == B_ORDER ? 8 : 0,
	    OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
	    OTF2_REGION_FLAG_NONE, 0, 0, 0);
	OTF2_GlobalDefWriter_WriteRegion(g, 1, 3, 3, 0,
	    OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI,
	    OTF2_REGION_FLAG_NONE, 0, 0, 0);
	OTF2_GlobalDefWriter_WriteAttribute(g, 0, 6, 0, OTF2_TYPE_STRING);
	if (b != B_RANKS) {
		OTF2_GlobalDefWriter_WriteGroup(g, 0, 0,
		    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
		    OTF2_GROUP_FLAG_NONE, 2, members);
		OTF2_GlobalDefWriter_WriteGroup(g, 1, 0,
		    OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
		    OTF2_GROUP_FLAG_NONE, 2, members);
		OTF2_GlobalDefWriter_WriteComm(g, 0, 4, 1,
		    OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	}
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_OpenDefFiles(a);
	for (i = 0; i < 2; i++)
		OTF2_Archive_CloseDefWriter(a, OTF2_Archive_GetDefWriter(a,
		    (uint64_t)i));
	OTF2_Archive_CloseDefFiles(a);
	return OTF2_Archive_Close(a) == OTF2_SUCCESS ? 0 : -1;
}

/* Reads an archive to its end: the error, or "" when none. */
static const char *
read_all(const char *path, char *err, size_t len)
{
	struct trc_reader *r;
	struct trc_event ev;
	int rc = -1;

	err[0] = '\0';
	if ((r = trc_open(path)) == NULL)
		return "out of memory";
	if (trc_get_header(r) != NULL)
		while ((rc = trc_next(r, &ev)) > 0)
			;
	if (rc < 0)
		snprintf(err, len, "%s", trc_error(r));
	trc_close(r);
	return err;
}

int
main(void)
{
	char dir[] = "/tmp/trc-otf2-XXXXXX", path[64], cmd[128];
	char *got = NULL, line[TRC_MAXLINE + 64], drops[2048], dl[16][80];
	char *dp[16];
	size_t nd = 0;
	char err[TRC_ERRLEN + 512], msg[TRC_ERRLEN + 512];
	int b;
	const struct trc_header *h;
	struct trc_reader *r;
	struct trc_event ev;
	const char *what;
	unsigned long long n;
	size_t len = 0, cap = 0, k;
	int rc;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	ok(write_archive(dir) == 0, "libotf2 writes a Score-P-shaped archive");
	snprintf(path, sizeof(path), "%s/traces.otf2", dir);
	r = trc_open(path);
	h = r != NULL ? trc_get_header(r) : NULL;
	if (!ok(h != NULL, "it opens")) {
		printf("#   %s\n", r != NULL ? trc_error(r) : "out of memory");
		return 2;
	}
	is_str(trc_format_name(r), "otf2", "found by its content");
	is_int(h->ranks, 3, "ranks: MPI_COMM_WORLD's");
	is_str(h->extra.s, "# otf2: a test of trc, 1000000 ticks per second\n",
	    "the creator and clock in a header line");
	while ((rc = trc_next(r, &ev)) > 0) {
		k = trc_format_event(line, &ev, ev.t, NULL, 0);
		if (len + k + 1 > cap) {
			cap = 2 * (len + k + 1);
			if ((got = realloc(got, cap)) == NULL)
				return 2;
		}
		memcpy(got + len, line, k);
		len += k;
		got[len] = '\0';
	}
	ok(rc == 0, "read to the end%s%s", rc < 0 ? ": " : "",
	    rc < 0 ? trc_error(r) : "");
	is_str(got, want, "the events, as libtrc-mpi would write them");
	for (k = 0; k < 16 && trc_dropped(r, k, &what, &n); k++) {
		snprintf(dl[k], sizeof(dl[k]), "%s %llu\n", what, n);
		dp[k] = dl[k];
	}
	qsort(dp, k, sizeof(dp[0]), cmp_line);
	drops[0] = '\0';
	while (k-- > 0)
		strcat(drops, dp[nd++]);
	is_str(drops, want_drops, "what the stream cannot say, counted");
	trc_close(r);
	free(got);

	for (b = 0; b < B_N; b++) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", dir);
		if (system(cmd) != 0 || write_bad(dir, b) < 0) {
			ok(0, "%s: written", bad_name[b]);
			continue;
		}
		snprintf(msg, sizeof(msg), "%s: %s", path, bad_msg[b]);
		is_str(read_all(path, err, sizeof(err)), msg, bad_name[b]);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ok(system(cmd) == 0, "cleaned up");
	return done_testing();
}
