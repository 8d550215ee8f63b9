/*
 * trc_graph.h - execution graphs for comparison: events as tokens and
 * per-rank token strings with message edges (matched by trc_match.h).
 *
 * The execution graph has one vertex per event, an edge from each event
 * to the next on its rank and one from each send (SE) to the receive
 * (RE) that completes it.  Ranks are labelled, so two graphs are the
 * same exactly when every rank has the same token string and every
 * receive is matched to the same send; where they differ, the distance
 * is approximated per rank by the LCS of the token strings (trc_lcs.h).
 * A graph keeps 4 bytes per event and 24 per receive, never the events.
 */
#ifndef TRC_GRAPH_H
#define TRC_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "trc.h"

/* What makes two events the same: the kind and these fields. */
#define TRC_KEY_KIND	0x01u
#define TRC_KEY_PEER	0x02u
#define TRC_KEY_TAG	0x04u
#define TRC_KEY_FN	0x08u	/* fn= and op= labels */
#define TRC_KEY_BYTES	0x10u
#define TRC_KEY_DEFAULT	(TRC_KEY_KIND | TRC_KEY_PEER)
/* Parses "kind,peer,tag,fn,bytes" (kind required): 0, or -1. */
int	 trc_key_parse(const char *, unsigned *fields);

/*
 * Events to tokens: equal under the key gives equal tokens, in every
 * graph read with the same dictionary.  The kind is in the top 4 bits.
 * Memory is bounded by the distinct events, not by their number.
 */
struct trc_dict;
struct trc_dict	*trc_dict_new(unsigned fields);
void	 trc_dict_free(struct trc_dict *);
#define TRC_TOK_KIND(t)	((enum trc_kind)((t) >> 28))

/* A receive's message edge. */
struct trc_edge {
	uint32_t	 src;		/* sender, UINT32_MAX none */
	uint32_t	 idx;		/* its send's event index */
	uint32_t	 ord;		/* which of the sender's sends to this
					 * rank it is, from 0 */
	uint64_t	 line;		/* its send's line, 0 none */
};

/* Sends so far to one destination. */
struct trc_sent {
	int32_t		 dst;		/* -1: a free slot */
	uint32_t	 cnt;
};

/*
 * A rank's events are counted in 32 bits (an event index is a uint32_t
 * in an edge): a rank of more is an error naming its line.  Each array
 * starts small and doubles, so that a rank of a few events
 * costs a few hundred bytes (trc-stable(1) gives the figure): with
 * millions of ranks present the rank, not the event, is what counts.
 */
struct trc_rank {
	uint32_t	*tok;		/* one per event */
	uint32_t	 n, cap;
	struct trc_edge	*edge;		/* one per receive */
	uint32_t	 nrecv, rcap;
	/* A hash of the destinations this rank sent to (not an array to
	 * the largest). */
	struct trc_sent	*sent;
	uint32_t	 nsent, scap;	/* scap a power of 2, or 0 */
	uint32_t	*mark;		/* event indexes where regions begin */
	uint32_t	 nmark, mcap;
	int		 present;	/* it has events */
};

/* The ranks, in pages (lib/pages.c) as they come: memory follows the
 * ranks present, not the largest rank number. */
struct trc_graph {
	struct trc_pages rankp;
	int32_t		*present;	/* the ranks with events, in order */
	int32_t		 npresent, cappresent;
	int32_t		 nranks;	/* highest rank seen + 1, or the header's */
	int32_t		 hranks;	/* the header's ranks=, or 0 */
	uint64_t	 events;
	uint64_t	 sends, recvs;	/* messages sent (SE) and received (RE) */
	uint64_t	 unmatched;	/* sends and receives never matched */
};

/*
 * Reads a whole stream into g (zeroed by the caller).  Regions begin
 * at each MK, or when split is not NULL at each PB fn=split.  Returns
 * 0, or -1 with the error on the reader.
 */
int	 trc_graph_read(struct trc_graph *g, struct trc_reader *,
	    struct trc_dict *, const char *split);
void	 trc_graph_free(struct trc_graph *);
/* Rank r of g, an empty one when it has no events. */
const struct trc_rank *trc_graph_rank(const struct trc_graph *, int32_t r);
/*
 * The ranks with events in a or b, and (declared) those below either
 * header's ranks=, in order, in a new array of *n (free it); NULL when
 * out of memory.
 */
int32_t	*trc_graph_ranks(const struct trc_graph *a, const struct trc_graph *b,
	    int declared, int32_t *n);

/* One rank of two graphs compared. */
struct trc_rank_cmp {
	uint64_t	 na, nb;	/* events */
	uint64_t	 lcs;		/* common events */
	uint64_t	 d;		/* the rank's distance: max(na, nb) -
					 * lcs, or when the strings are equal
					 * the receives matched otherwise (to
					 * another sender, or to another of
					 * its sends to this rank) */
	int		 same_string;
	int		 same_edges;
	uint64_t	 regions;	/* regions compared, in region mode:
					 * region 0 is what precedes the first
					 * split point, region i the i-th */
	uint64_t	 bad_regions;	/* of which differ */
};

/*
 * Whether receive i (from 0) of a rank is matched otherwise in x and y:
 * to another sender, or to another of its sends to this rank.  The
 * ordinal, not the send's event index, so that events added before a
 * send on its own rank do not count as a difference here.
 */
int	 trc_recv_differs(const struct trc_rank *x, const struct trc_rank *y,
	    size_t i);

/*
 * Compares rank r of a and b (a rank missing from one is empty there).
 * In region mode (regions != 0) the strings are compared region by
 * region, and cb, if not NULL, is called for each region that differs
 * with its index, its start and length in a and in b and their LCS.
 * Returns 0, or -1 when memory ran out.
 */
int	 trc_rank_compare(const struct trc_graph *a, const struct trc_graph *b,
	    int32_t r, int regions, struct trc_rank_cmp *out,
	    void (*cb)(void *, int32_t r, size_t region, size_t a0, size_t an,
		size_t b0, size_t bn, uint64_t lcs), void *arg);

/*
 * Two whole graphs compared rank by rank, as trc-stable(1) defines it:
 * the rows are the ranks with events in either and (declared) those
 * below either header's ranks=; the distance is the sum of the ranks'
 * (trc_rank_compare), n the sum of their larger event counts, so that
 * d = n - lcs where no receive is matched otherwise.  regions, cb and
 * arg as for trc_rank_compare.  Returns 0, or -1 when memory ran out.
 */
struct trc_graph_cmp {
	int32_t			 nranks;
	int32_t			*rank;		/* the rows' ranks, in order */
	struct trc_rank_cmp	*per;		/* a row each */
	struct trc_rank_cmp	 total;		/* counts summed */
	uint64_t		 n;		/* the larger counts summed */
	int			 identical;
};
int	 trc_graph_compare(const struct trc_graph *a,
	    const struct trc_graph *b, int declared, int regions,
	    struct trc_graph_cmp *out,
	    void (*cb)(void *, int32_t r, size_t region, size_t a0, size_t an,
		size_t b0, size_t bn, uint64_t lcs), void *arg);
void	 trc_graph_cmp_free(struct trc_graph_cmp *);
/*
 * The largest distance still stable: frac of n (a --threshold of a
 * percentage), or when frac < 0 a count of events.
 */
uint64_t trc_graph_threshold(const struct trc_graph_cmp *, double frac,
	    uint64_t events);
/* 1 when the graphs are not identical and their distance is past it. */
int	 trc_graph_unstable(const struct trc_graph_cmp *, uint64_t threshold);

/*
 * The same comparison, and the events it leaves without a partner: on
 * each rank whose strings differ, each event outside their longest
 * common subsequence (the whole alignment, trc_lcs_align); on each rank
 * whose strings are the same, the receives matched otherwise, in both
 * graphs.  cb(arg, rank, side, index) gets each, side 0 for a and 1 for
 * b, index counting the rank's events from 0, rising per rank and
 * side.  So on each rank the side with more events unmatched has the
 * rank's distance.  Returns 0, or -1 when memory ran out.
 */
struct trc_graph_diff {
	uint64_t	 na, nb;	/* events */
	uint64_t	 lcs;		/* common events */
	uint64_t	 n;		/* the ranks' larger counts summed */
	uint64_t	 d;		/* trc-stable's distance */
	uint64_t	 unmatched[2];	/* events given to cb, per side */
	int		 identical;
};
int	 trc_graph_unmatched(const struct trc_graph *a,
	    const struct trc_graph *b, struct trc_graph_diff *out,
	    void (*cb)(void *, int32_t rank, int side, size_t idx), void *arg);

#endif
