/*
 * trace.h - internals of libtrc-mpi, the PMPI tracer (not part of
 * libtrc: it is built with the MPI compiler into libtrc-mpi.so).
 *
 * An event is built in place in the rank's buffer:
 *	p = ev_start(t, "SB", extra);	reserve room for a line
 *	p = put_int(p, " peer=", peer);	append attributes
 *	ev_end(p);			fold polls, commit the line
 */
#ifndef TRC_MPI_TRACE_H
#define TRC_MPI_TRACE_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define EXPORT	__attribute__((visibility("default")))

/* What a request does when it completes. */
enum { RQ_SEND, RQ_RECV, RQ_COLL };

/* What the tracer remembers of a nonblocking or persistent request. */
struct req_info {
	int64_t		 id;	/* the per-rank sequence number, req=;
				   0: a persistent request not started */
	int		 kind;	/* RQ_* */
	int		 persistent;	/* kept when it completes */
	const char	*op;	/* op= of its events, or NULL */
	int		 peer;	/* world rank, or -2 for any */
	int		 tag;	/* tag, or -2 for any */
	int		 comm;	/* comm= id */
	int		 root;	/* RQ_COLL: world rank, or -1 */
	int64_t		 bytes;
	MPI_Datatype	 type;
	MPI_Comm	 commh;
};

/* What a matched probe (MPI_Mprobe, MPI_Improbe) asked for. */
struct msg_info {
	int		 peer;	/* world rank, or -2 for any */
	int		 tag;	/* tag, or -2 for any */
	int		 comm;
	MPI_Comm	 commh;
};

/* msglog.c: message logs (TRC_LOG) and one-rank replay (TRC_REPLAY). */
#define ML_OFF		0
#define ML_RECORD	1
#define ML_REPLAY	2
extern int	 ml_mode;
extern int	 ml_hold;	/* >0: the tracer's own calls, neither logged
				   nor replayed */

extern int	 tr_on;		/* between Init and Finalize */
extern int	 tr_rank;
extern int	 tr_depth;	/* nesting: calls made by a wrapper are not traced */

int64_t	 tr_now(void);
char	*ev_start(int64_t, const char *kind, size_t extra);
void	 ev_end(char *);
char	*put_str(char *, const char *);
char	*put_int(char *, const char *key, int64_t);
char	*put_peer(char *, const char *key, int);	/* -2 writes "*" */
/* An unsuccessful poll begun at t0 (tr_now()) has just returned. */
void	 tr_poll(int64_t t0);
void	 tr_delay(const char *call);
void	 tr_region(int open, const char *name);
void	 tr_init(void);
void	 tr_finalize(void);
void	 tr_abort(int errorcode);
/* untraced.c: the calls not traced, summed on rank 0; its header lines. */
void	 tr_untraced_reduce(void);
void	 tr_untraced_header(FILE *);

int	 tr_world(MPI_Comm, int rank);	/* a comm rank as a world rank */
int	 tr_root(MPI_Comm, int root);	/* a collective's root, or -1 */
int	 tr_comm_id(MPI_Comm);
int	 tr_comm_size(MPI_Comm);	/* its number of ranks, both sides */
void	 tr_comm_new(MPI_Comm *);	/* made by a blocking call */
void	 tr_comm_idup(MPI_Comm parent, MPI_Comm *);	/* by a nonblocking one */
void	 tr_comm_free(MPI_Comm);
int64_t	 tr_bytes(int count, MPI_Datatype);

int64_t	 tr_req_new(void);
void	 tr_req_put(const MPI_Request *, const struct req_info *);
/* Any tracked request, started or not: 1 active, 2 not started, 0 none. */
int	 tr_req_find(const MPI_Request *, struct req_info *);
/*
 * As find, for the handles of one request array: a handle may stand for
 * several requests (trace.c), and each time it appears it claims the
 * oldest not yet claimed in this round (a new one per array).
 */
unsigned tr_req_round(void);
int	 tr_req_claim(const MPI_Request *, unsigned round, struct req_info *);
/*
 * Forgets the request of that handle and id (a persistent one goes back
 * to not started); 0 when it is not tracked.
 */
int	 tr_req_take(const MPI_Request *, int64_t id);
void	 tr_req_forget(const MPI_Request *);	/* MPI_Request_free */

void	 tr_msg_put(MPI_Message, const struct msg_info *);
int	 tr_msg_take(MPI_Message, struct msg_info *);

#endif
