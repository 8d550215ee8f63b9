/*
 * otf2.c - the OTF2 reader (lib/fmt/otf2.c) on archives libotf2 wrote
 * itself.  What libotf2 makes of broken bytes is libotf2's; the target
 * looks for what trc does with the definitions and records it is
 * given.  The input is a small program: each record it holds is
 * written with libotf2's writer (OTF2_GlobalDefWriter_*,
 * OTF2_EvtWriter_*, ...), so that every archive is well formed, and
 * trc's reader reads the archive back.  Odd but well formed: regions
 * of any role and paradigm, groups of any members (out of range,
 * repeated), communicators of groups that are not defined, clocks of
 * any resolution and offset, times that go backwards or overflow,
 * messages of any peer, communicator and tag, attributes of any type
 * on any record.  fuzz/otf2raw.c keeps the old target, raw bytes as
 * the archive's files, for its regression inputs (fuzz/regress/otf2raw).
 *
 * The program: a first byte of flags, then records until the input
 * ends.  Flags: bit 0, a prelude of the definitions an MPI trace has
 * (below); bits 1-2, its number of ranks less one; bit 3, the property
 * TRC::STREAM (the archive is trc's own: trc's region descriptions
 * and trc:KEY attributes mean what the writer meant by them).  The
 * prelude: a clock of 1 GHz at offset 0; the strings of strtab[] with
 * their index as reference; processes and locations 0..N-1; group 0
 * the MPI locations (0..N-1), group 1 MPI_COMM_WORLD's group (0..N-1),
 * group 2 a COMM_SELF group; communicator 0 MPI_COMM_WORLD, 1
 * MPI_COMM_SELF; region i named by regtab[i] (a trc description when
 * bit 3 says the archive is trc's).
 *
 * A record is a byte saying its kind (the letters of recs[]; another
 * byte the kind at its value modulo their number), then its fields.
 * A field is a byte, or a number: a byte under 0xe0 is itself, 0xe0
 * to 0xe2 a little-endian uint16, uint32 or uint64 follows, 0xe3 to
 * 0xe7 are UINT64_MAX, UINT32_MAX (OTF2's undefined reference),
 * INT64_MAX, 10^9 and 2^63.  An event names its location (a number)
 * and its time: a byte under 0xf0 adds itself to the location's last
 * time, 0xf0 goes back by the next byte, 0xf1 takes the next number,
 * 0xf2 is UINT64_MAX less the next byte.  Text is a byte of length,
 * then the bytes.  The input ending inside a record ends it there, its
 * fields missing read as zero.  The records, their fields in order (b
 * a byte, T text, the others numbers; references are numbers):
 *
 *	S string: ref, T
 *	C clock properties: resolution, offset, length
 *	R region: ref, name, description, role b, paradigm b
 *	G group: ref, type b, paradigm b, count b (mod 65), members
 *	M communicator: ref, name, group, parent
 *	P location group: ref, name, type b
 *	L location: id, name, type b, events, location group
 *	A attribute: ref, name, description, type b
 *	Q parameter: ref, name, type b (mod 4)
 *	Y property b (mod 4: TRC::STREAM, RANKS, COMMS, HEADER), T
 *	O clock offset (a local definition): location, time, offset
 *	a an attribute of the next event: ref, type b, value
 *
 * and the events, each after its location and time: e Enter and l
 * Leave (region); s MpiSend and r MpiRecv (peer, communicator, tag,
 * bytes); i MpiIsend and j MpiIrecv (the same, then the request); d
 * MpiIsendComplete, q MpiIrecvRequest, c MpiRequestCancelled and t
 * MpiRequestTest (request); b MpiCollectiveBegin; x MpiCollectiveEnd
 * (op b, communicator, root, sent, received); k ParameterUnsignedInt
 * (parameter, value).  An attribute's type b: 0 to 4 INT64, UINT64,
 * STRING, UINT32, DOUBLE, another its value.  A record libotf2's
 * writer refuses ends the program, and the archive is not read.
 *
 * FUZZ_OTF2_DIR=DIR in the environment writes the archive into DIR
 * instead, for trc-cat and otf2-print (t/0210 writes archives so).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "fuzz.h"

#define MAXW	8		/* event writers (locations with events) */
#define MAXOFF	16		/* clock offsets (local definitions) */
#define MAXMEM	64		/* members of a group */

/* Names the reader tells apart: MPI calls, trc's descriptions and keys. */
static const char *const strtab[] = {
	"", "MPI_COMM_WORLD", "MPI_COMM_SELF", "MPI", "main", "compute",
	"MPI_Send", "MPI_Ssend", "MPI_Isend", "MPI_Issend", "MPI_Recv",
	"MPI_Irecv", "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Test",
	"MPI_Testsome", "MPI_Probe", "MPI_Sendrecv", "MPI_Barrier",
	"MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Gatherv",
	"MPI_Alltoallv", "MPI_Scan", "MPI_Init", "MPI_Finalize",
	"MPI_Comm_rank", "trc region", "trc send", "trc isend", "trc recv",
	"trc irecv", "trc wait", "trc collective", "trc marker",
	"trc attribute order", "trc:iter", "trc:peer", "trc:req", "trc:x",
	"trc attribute, list element 0", "trc attribute, list element 1",
	"trc:peer tag=1", "iter req x", "fn=x", "a b\tc=d\ne",
	"Master thread", "MPI Rank 0",
};
#define NSTR	(sizeof(strtab) / sizeof(strtab[0]))

/* The prelude's regions: a user region, then MPI calls (strtab refs). */
static const uint32_t regtab[] = {
	4, 6, 8, 10, 11, 12, 13, 18, 19, 20, 22, 26, 27, 28, 15, 7
};
#define NREG	(sizeof(regtab) / sizeof(regtab[0]))

enum { STREAM_PRELUDE = 1, STREAM_TRC = 8 };

struct prog {
	const uint8_t	*p, *end;
	OTF2_Archive	*a;
	OTF2_GlobalDefWriter *g;
	OTF2_AttributeList *al;
	struct {
		uint64_t	 loc, last;
		OTF2_EvtWriter	*w;
	} w[MAXW];
	int		 nw;
	struct {
		uint64_t	 loc, time;
		int64_t		 off;
	} off[MAXOFF];
	int		 noff;
	int		 bad;		/* a call of libotf2's failed */
};

static uint8_t
byte(struct prog *P)
{
	return P->p < P->end ? *P->p++ : 0;
}

static uint64_t
le(struct prog *P, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)byte(P) << (8 * i);
	return v;
}

static uint64_t
num(struct prog *P)
{
	uint8_t b = byte(P);

	switch (b) {
	case 0xe0:
		return le(P, 2);
	case 0xe1:
		return le(P, 4);
	case 0xe2:
		return le(P, 8);
	case 0xe3:
		return UINT64_MAX;
	case 0xe4:
		return UINT32_MAX;
	case 0xe5:
		return INT64_MAX;
	case 0xe6:
		return 1000000000;
	case 0xe7:
		return UINT64_C(1) << 63;
	default:
		return b;
	}
}

static uint32_t
num32(struct prog *P)
{
	return (uint32_t)num(P);
}

static void
ok(struct prog *P, OTF2_ErrorCode rc)
{
	if (rc != OTF2_SUCCESS)
		P->bad = 1;
}

/* The event writer of the location the record names, or NULL. */
static OTF2_EvtWriter *
writer(struct prog *P, uint64_t *t)
{
	uint64_t loc = num(P);
	uint8_t b;
	int i;

	if (loc == OTF2_UNDEFINED_LOCATION)	/* no writer can have it */
		return NULL;
	for (i = 0; i < P->nw && P->w[i].loc != loc; i++)
		;
	if (i == P->nw) {
		if (P->nw == MAXW)
			return NULL;
		if ((P->w[i].w = OTF2_Archive_GetEvtWriter(P->a, loc)) ==
		    NULL) {
			P->bad = 1;
			return NULL;
		}
		P->w[i].loc = loc;
		P->w[i].last = 0;
		P->nw++;
	}
	b = byte(P);
	if (b < 0xf0)
		*t = P->w[i].last + b;
	else if (b == 0xf0)
		*t = P->w[i].last - byte(P);
	else if (b == 0xf1)
		*t = num(P);
	else if (b == 0xf2)
		*t = UINT64_MAX - byte(P);
	else
		*t = P->w[i].last + b;
	P->w[i].last = *t;
	return P->w[i].w;
}

static void
prelude(struct prog *P, int flags)
{
	uint64_t m[4] = { 0, 1, 2, 3 };
	uint32_t n = (uint32_t)((flags >> 1) & 3) + 1, i, desc;
	int role, par;

	ok(P, OTF2_GlobalDefWriter_WriteClockProperties(P->g, 1000000000, 0,
	    1000000, OTF2_UNDEFINED_TIMESTAMP));
	for (i = 0; i < NSTR; i++)
		ok(P, OTF2_GlobalDefWriter_WriteString(P->g, i, strtab[i]));
	for (i = 0; i < n; i++) {
		ok(P, OTF2_GlobalDefWriter_WriteLocationGroup(P->g, i, 49,
		    OTF2_LOCATION_GROUP_TYPE_PROCESS,
		    OTF2_UNDEFINED_SYSTEM_TREE_NODE,
		    OTF2_UNDEFINED_LOCATION_GROUP));
		ok(P, OTF2_GlobalDefWriter_WriteLocation(P->g, i, 48,
		    OTF2_LOCATION_TYPE_CPU_THREAD, 0, i));
	}
	for (i = 0; i < NREG; i++) {
		/* trc's description of the class the name says. */
		desc = 0;
		if (flags & STREAM_TRC)
			desc = i == 0 ? 29 : regtab[i] <= 7 ? 30 :
			    regtab[i] <= 9 ? 31 : regtab[i] == 10 ? 32 :
			    regtab[i] == 11 ? 33 : regtab[i] <= 18 ? 34 : 35;
		role = i == 0 ? OTF2_REGION_ROLE_FUNCTION :
		    OTF2_REGION_ROLE_POINT2POINT;
		par = i == 0 ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI;
		ok(P, OTF2_GlobalDefWriter_WriteRegion(P->g, i, regtab[i],
		    regtab[i], desc, role, par, OTF2_REGION_FLAG_NONE,
		    OTF2_UNDEFINED_STRING, 0, 0));
	}
	ok(P, OTF2_GlobalDefWriter_WriteGroup(P->g, 0, 0,
	    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, n, m));
	ok(P, OTF2_GlobalDefWriter_WriteGroup(P->g, 1, 0,
	    OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, n, m));
	ok(P, OTF2_GlobalDefWriter_WriteGroup(P->g, 2, 0,
	    OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, 0, NULL));
	ok(P, OTF2_GlobalDefWriter_WriteComm(P->g, 0, 1, 1,
	    OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
	ok(P, OTF2_GlobalDefWriter_WriteComm(P->g, 1, 2, 2,
	    OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
	if (flags & STREAM_TRC)
		ok(P, OTF2_Archive_SetProperty(P->a, "TRC::STREAM", "1",
		    true));
}

/* The record kinds, by the letter that says each. */
static const char recs[] = "SCRGMPLAQYOaelsidrjqcbxkt";
#define NRECS	(sizeof(recs) - 1)

static const char *const props[] = {
	"TRC::STREAM", "TRC::RANKS", "TRC::COMMS", "TRC::HEADER"
};

/* A type for an attribute: the ones trc reads first, then any. */
static OTF2_Type
atype(struct prog *P)
{
	static const OTF2_Type t[] = { OTF2_TYPE_INT64, OTF2_TYPE_UINT64,
	    OTF2_TYPE_STRING, OTF2_TYPE_UINT32, OTF2_TYPE_DOUBLE };
	uint8_t b = byte(P);

	return b < 5 ? t[b] : (OTF2_Type)b;
}

static void
record(struct prog *P)
{
	uint64_t m[MAXMEM], t, v, res, off;
	OTF2_AttributeValue av;
	OTF2_EvtWriter *w;
	OTF2_Type ty;
	char text[256];
	uint32_t a, b, c, d, i, n;
	const char *k;
	uint8_t op = byte(P);

	if ((k = memchr(recs, op, NRECS)) == NULL || op == '\0')
		k = &recs[op % NRECS];
	switch (*k) {
	case 'S':	/* string: ref, text */
		a = num32(P);
		n = byte(P);
		for (i = 0; i < n; i++)
			text[i] = (char)byte(P);
		text[n] = '\0';
		ok(P, OTF2_GlobalDefWriter_WriteString(P->g, a, text));
		break;
	case 'C':	/* clock: resolution, offset, length */
		res = num(P);
		off = num(P);
		ok(P, OTF2_GlobalDefWriter_WriteClockProperties(P->g, res, off,
		    num(P), OTF2_UNDEFINED_TIMESTAMP));
		break;
	case 'R':	/* region: ref, name, description, role, paradigm */
		a = num32(P);
		b = num32(P);
		c = num32(P);
		d = byte(P);
		ok(P, OTF2_GlobalDefWriter_WriteRegion(P->g, a, b, b, c, d,
		    byte(P), OTF2_REGION_FLAG_NONE, OTF2_UNDEFINED_STRING, 0,
		    0));
		break;
	case 'G':	/* group: ref, type, paradigm, count, members */
		a = num32(P);
		b = byte(P);
		c = byte(P);
		n = byte(P) % (MAXMEM + 1);
		for (i = 0; i < n; i++)
			m[i] = num(P);
		ok(P, OTF2_GlobalDefWriter_WriteGroup(P->g, a, 0, b, c,
		    OTF2_GROUP_FLAG_NONE, n, m));
		break;
	case 'M':	/* communicator: ref, name, group, parent */
		a = num32(P);
		b = num32(P);
		c = num32(P);
		ok(P, OTF2_GlobalDefWriter_WriteComm(P->g, a, b, c, num32(P),
		    OTF2_COMM_FLAG_NONE));
		break;
	case 'P':	/* location group: ref, name, type */
		a = num32(P);
		b = num32(P);
		ok(P, OTF2_GlobalDefWriter_WriteLocationGroup(P->g, a, b,
		    byte(P), OTF2_UNDEFINED_SYSTEM_TREE_NODE,
		    OTF2_UNDEFINED_LOCATION_GROUP));
		break;
	case 'L':	/* location: id, name, type, events, group */
		v = num(P);
		a = num32(P);
		b = byte(P);
		t = num(P);
		ok(P, OTF2_GlobalDefWriter_WriteLocation(P->g, v, a, b, t,
		    num32(P)));
		break;
	case 'A':	/* attribute: ref, name, description, type */
		a = num32(P);
		b = num32(P);
		c = num32(P);
		ok(P, OTF2_GlobalDefWriter_WriteAttribute(P->g, a, b, c,
		    atype(P)));
		break;
	case 'Q':	/* parameter: ref, name, type */
		a = num32(P);
		b = num32(P);
		ok(P, OTF2_GlobalDefWriter_WriteParameter(P->g, a, b,
		    byte(P) % 4));
		break;
	case 'Y':	/* property: which, text */
		a = byte(P) % 4;
		n = byte(P);
		for (i = 0; i < n; i++)
			text[i] = (char)byte(P);
		text[n] = '\0';
		/* libotf2 refuses some values (an empty one): not an error. */
		OTF2_Archive_SetProperty(P->a, props[a], text, true);
		break;
	case 'O':	/* clock offset of a location: location, time, offset */
		if (P->noff == MAXOFF)
			break;
		P->off[P->noff].loc = num(P);
		P->off[P->noff].time = num(P);
		P->off[P->noff].off = (int64_t)num(P);
		P->noff++;
		break;
	case 'a':	/* an attribute of the next event: ref, type, value */
		a = num32(P);
		ty = atype(P);
		v = num(P);
		memset(&av, 0, sizeof(av));
		if (ty == OTF2_TYPE_STRING || ty == OTF2_TYPE_UINT32)
			av.uint32 = (uint32_t)v;
		else if (ty == OTF2_TYPE_DOUBLE)
			av.float64 = (double)v;
		else
			av.uint64 = v;
		/* Refused (a repeated reference): left out. */
		OTF2_AttributeList_AddAttribute(P->al, a, ty, av);
		break;
	default:	/* an event: location, time, fields */
		if ((w = writer(P, &t)) == NULL)
			break;
		switch (*k) {
		case 'e':
			ok(P, OTF2_EvtWriter_Enter(w, P->al, t, num32(P)));
			break;
		case 'l':
			ok(P, OTF2_EvtWriter_Leave(w, P->al, t, num32(P)));
			break;
		case 's':	/* peer, comm, tag, bytes */
		case 'r':
		case 'i':	/* and the request */
		case 'j':
			a = num32(P);
			b = num32(P);
			c = num32(P);
			v = num(P);
			if (*k == 's')
				ok(P, OTF2_EvtWriter_MpiSend(w, P->al, t, a, b,
				    c, v));
			else if (*k == 'r')
				ok(P, OTF2_EvtWriter_MpiRecv(w, P->al, t, a, b,
				    c, v));
			else if (*k == 'i')
				ok(P, OTF2_EvtWriter_MpiIsend(w, P->al, t, a, b,
				    c, v, num(P)));
			else
				ok(P, OTF2_EvtWriter_MpiIrecv(w, P->al, t, a, b,
				    c, v, num(P)));
			break;
		case 'd':
			ok(P, OTF2_EvtWriter_MpiIsendComplete(w, P->al, t,
			    num(P)));
			break;
		case 'q':
			ok(P, OTF2_EvtWriter_MpiIrecvRequest(w, P->al, t,
			    num(P)));
			break;
		case 'c':
			ok(P, OTF2_EvtWriter_MpiRequestCancelled(w, P->al, t,
			    num(P)));
			break;
		case 'b':
			ok(P, OTF2_EvtWriter_MpiCollectiveBegin(w, P->al, t));
			break;
		case 'x':	/* op, comm, root, sent, received */
			a = byte(P);
			b = num32(P);
			c = num32(P);
			v = num(P);
			ok(P, OTF2_EvtWriter_MpiCollectiveEnd(w, P->al, t, a, b,
			    c, v, num(P)));
			break;
		case 'k':	/* parameter, value */
			a = num32(P);
			ok(P, OTF2_EvtWriter_ParameterUnsignedInt(w, P->al, t,
			    a, num(P)));
			break;
		case 't':
			ok(P, OTF2_EvtWriter_MpiRequestTest(w, P->al, t,
			    num(P)));
			break;
		}
		break;
	}
	if (*k >= 'a' && *k <= 'z' && *k != 'a')
		OTF2_AttributeList_RemoveAllAttributes(P->al);
}

static OTF2_FlushType
pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void *caller,
    bool final)
{
	(void)u;
	(void)ft;
	(void)loc;
	(void)caller;
	(void)final;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_cb = { pre_flush, NULL };

/*
 * libotf2's chunks, kept from one input to the next: a chunk new to
 * the process costs its pages' faults when libotf2 clears it, most of
 * an input's time.  A buffer's chunks are listed in *per; freed, they
 * go back to the pool.
 */
#define POOL	64
static struct chunk {
	void		*p;
	uint64_t	 size;
	struct chunk	*next;		/* the buffer's, or the pool's */
} chunks[POOL], *pool;
static int nchunks;

static void *
mem_alloc(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void **per,
    uint64_t size)
{
	struct chunk **pp, *c;

	(void)u;
	(void)ft;
	(void)loc;
	for (pp = &pool; *pp != NULL && (*pp)->size != size;
	    pp = &(*pp)->next)
		;
	if ((c = *pp) != NULL)
		*pp = c->next;
	else {
		if (nchunks == POOL || (c = &chunks[nchunks])->p != NULL ||
		    (c->p = malloc(size)) == NULL)
			return NULL;
		c->size = size;
		nchunks++;
	}
	c->next = *per;
	*per = c;
	return c->p;
}

static void
mem_free(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void **per,
    bool final)
{
	struct chunk *c, *next;

	(void)u;
	(void)ft;
	(void)loc;
	(void)final;
	for (c = *per; c != NULL; c = next) {
		next = c->next;
		c->next = pool;
		pool = c;
	}
	*per = NULL;
}

static const OTF2_MemoryCallbacks mem_cb = { mem_alloc, mem_free };

/* What libotf2 says of a record it refuses: the program's, not news. */
static OTF2_ErrorCode
quiet(void *u, const char *file, uint64_t line, const char *fn,
    OTF2_ErrorCode code, const char *fmt, va_list va)
{
	(void)u;
	(void)file;
	(void)line;
	(void)fn;
	(void)fmt;
	(void)va;
	return code;
}

/* The program's archive, dir/traces.otf2: 0, or -1 when libotf2 refused. */
static int
write_archive(const char *dir, const uint8_t *data, size_t n)
{
	static struct prog P;
	OTF2_DefWriter *dw;
	int flags, i, j;

	memset(&P, 0, sizeof(P));
	P.p = data;
	P.end = data + n;
	OTF2_Error_RegisterCallback(quiet, NULL);
	fuzz_rmtree(dir);
	if ((P.a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
	    256 * 1024, 256 * 1024, OTF2_SUBSTRATE_POSIX,
	    OTF2_COMPRESSION_NONE)) == NULL)
		abort();
	ok(&P, OTF2_Archive_SetFlushCallbacks(P.a, &flush_cb, NULL));
	ok(&P, OTF2_Archive_SetMemoryCallbacks(P.a, &mem_cb, NULL));
	ok(&P, OTF2_Archive_SetSerialCollectiveCallbacks(P.a));
	ok(&P, OTF2_Archive_OpenEvtFiles(P.a));
	if ((P.g = OTF2_Archive_GetGlobalDefWriter(P.a)) == NULL ||
	    (P.al = OTF2_AttributeList_New()) == NULL || P.bad)
		abort();
	flags = byte(&P);
	if (flags & STREAM_PRELUDE)
		prelude(&P, flags);
	while (P.p < P.end && !P.bad)
		record(&P);
	for (i = 0; i < P.nw; i++)
		ok(&P, OTF2_Archive_CloseEvtWriter(P.a, P.w[i].w));
	ok(&P, OTF2_Archive_CloseEvtFiles(P.a));
	ok(&P, OTF2_Archive_CloseGlobalDefWriter(P.a, P.g));
	ok(&P, OTF2_Archive_OpenDefFiles(P.a));
	for (i = 0; i < P.noff; i++) {
		if (P.off[i].loc == UINT64_MAX)	/* not a location id */
			continue;
		for (j = 0; j < i && P.off[j].loc != P.off[i].loc; j++)
			;
		if (j < i)	/* written with the first */
			continue;
		if ((dw = OTF2_Archive_GetDefWriter(P.a, P.off[i].loc)) ==
		    NULL) {
			P.bad = 1;
			break;
		}
		for (j = i; j < P.noff; j++)
			if (P.off[j].loc == P.off[i].loc)
				ok(&P, OTF2_DefWriter_WriteClockOffset(dw,
				    P.off[j].time, P.off[j].off, 0.0));
		ok(&P, OTF2_Archive_CloseDefWriter(P.a, dw));
	}
	ok(&P, OTF2_Archive_CloseDefFiles(P.a));
	ok(&P, OTF2_Archive_Close(P.a));
	OTF2_AttributeList_Delete(P.al);
	return P.bad ? -1 : 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char anchor[600];
	const char *dir = fuzz_path("archive"), *keep;

	/* FUZZ_OTF2_DIR=DIR: the archive into DIR (emptied), not read, for
	 * trc-cat and otf2-print to show what an input means. */
	if ((keep = getenv("FUZZ_OTF2_DIR")) != NULL && *keep != '\0') {
		if (write_archive(keep, data, n) < 0)
			fprintf(stderr, "fuzz: libotf2 refused a record\n");
		return 0;
	}
	if (write_archive(dir, data, n) < 0)
		return 0;
	snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
	fuzz_read(anchor, "otf2");
	return 0;
}
