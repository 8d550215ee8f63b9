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
#include <stdint.h>

#define EXPORT	__attribute__((visibility("default")))

/* What the tracer remembers of a nonblocking request. */
struct req_info {
	int64_t		 id;	/* the per-rank sequence number, req= */
	int		 recv;	/* 1 for a receive */
	int		 peer;	/* world rank, or -2 for any */
	int		 tag;	/* tag, or -2 for any */
	int		 comm;	/* comm= id */
	int64_t		 bytes;
	MPI_Datatype	 type;
	MPI_Comm	 commh;
};

extern int	 tr_on;		/* between Init and Finalize */
extern int	 tr_rank;
extern int	 tr_depth;	/* nesting: calls made by a wrapper are not traced */

int64_t	 tr_now(void);
char	*ev_start(int64_t, const char *kind, size_t extra);
void	 ev_end(char *);
char	*put_str(char *, const char *);
char	*put_int(char *, const char *key, int64_t);
char	*put_peer(char *, const char *key, int);	/* -2 writes "*" */
void	 tr_poll(void);
void	 tr_delay(const char *call);
void	 tr_region(int open, const char *name);
void	 tr_init(void);
void	 tr_finalize(void);
void	 tr_abort(int errorcode);

int	 tr_world(MPI_Comm, int rank);	/* a comm rank as a world rank */
int	 tr_comm_id(MPI_Comm);
int	 tr_comm_size(MPI_Comm);	/* its number of ranks */
void	 tr_comm_new(MPI_Comm parent, MPI_Comm *);
void	 tr_comm_free(MPI_Comm);
int64_t	 tr_bytes(int count, MPI_Datatype);

int64_t	 tr_req_new(void);
void	 tr_req_put(const MPI_Request *, const struct req_info *);
/* Looks up and removes; returns 0 when the request is not tracked. */
int	 tr_req_take(const MPI_Request *, struct req_info *);
int	 tr_req_get(const MPI_Request *, struct req_info *);

#endif
