/*
 * trc_svg.h - pictures: space-time diagrams (timelines) and charts of
 * summaries, written as standalone SVG.
 *
 * A picture is built in memory (struct trc_svg) and written only when
 * it is whole, so that a program that fails writes nothing.
 *
 * A timeline has one lane per rank and run.  Every lane's time is kept
 * in a fixed number of bins per activity class; a bin holds the time
 * each class took in it, and each pixel column shows the class that
 * took most of its time (the dominant activity, as Paraver draws).
 * When no window is given the bins widen as the trace grows (two
 * merge into one), so memory is ranks x bins, never trace length.
 * Message arrows (send end to receive completion) and highlighted
 * events are kept one by one while they are few, then thinned to one
 * per lane and bin.
 */
#ifndef TRC_SVG_H
#define TRC_SVG_H

#include <stddef.h>
#include <stdint.h>

/* ---- an SVG document in memory ---- */
struct trc_svg {
	char	*buf;
	size_t	 len, cap;
	int	 failed;	/* out of memory: the document is lost */
};

int	 trc_svg_printf(struct trc_svg *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Appends s[0..len) with &, <, > and " escaped. */
int	 trc_svg_text(struct trc_svg *, const char *s, size_t len);
void	 trc_svg_free(struct trc_svg *);

/* Activity classes other than procedures. */
enum trc_svg_class {
	TRC_SVG_COMP,		/* computation outside any region */
	TRC_SVG_SEND, TRC_SVG_RECV, TRC_SVG_WAIT, TRC_SVG_COLL,
	TRC_SVG_OTHER,		/* procedures past the palette */
	TRC_SVG_NFIXED
};
/* Procedures with a class (and colour) of their own. */
#define TRC_SVG_NPROCS	20

/* The colour of a fixed class, or of the i-th procedure. */
const char *trc_svg_class_color(int);
const char *trc_svg_proc_color(int);
#define TRC_SVG_MARK_COLOR	"#ff00ff"	/* unmatched events */
#define TRC_SVG_FIRST_COLOR	"#000000"	/* a rank's first difference */

/* ---- timelines ---- */
struct trc_tl_opts {
	int		 width;		/* of the picture in pixels, 0: 1200 */
	int		 lane_height;	/* 0: from the number of lanes */
	int		 nruns;		/* 1, or 2 lanes per rank */
	const char	*run_name[2];	/* lane labels when nruns is 2 */
	int		 diff;		/* draws highlighted events */
	int		 window;	/* from..to given */
	int64_t		 from, to;	/* nanoseconds */
	int		 select;	/* only the ranks in ranks */
	const struct trc_ranks	*ranks;
	/* Lanes at most (each about 210 KB), 0: TRC_LANES_MAX_DEFAULT;
	 * past it an error that says to choose ranks. */
	size_t		 lanes_max;
};
#define TRC_LANES_MAX_DEFAULT	4096

struct trc_timeline;

/* NULL when out of memory. */
struct trc_timeline *trc_timeline_new(const struct trc_tl_opts *);
/*
 * Adds run's next event (each run is a stream of its own, read in
 * order).  Returns 0, or -1 with trc_timeline_error() (without file
 * and line, which the caller has).
 */
int	 trc_timeline_add(struct trc_timeline *, int run,
	    const struct trc_event *);
/* The stream of run ended: checks it; 0 or -1 with the error. */
int	 trc_timeline_end(struct trc_timeline *, int run, int32_t header_ranks);
/*
 * Highlights an event of run at time t on rank (an event that another
 * run has no counterpart for); first marks a rank's first difference.
 */
int	 trc_timeline_mark(struct trc_timeline *, int run, int32_t rank,
	    int64_t t, int first);
/* The span of run (last event - first event) in ns, -1 when empty. */
int64_t	 trc_timeline_span(const struct trc_timeline *, int run);
/*
 * Draws the picture with title into svg.  Returns 0, or -1 with the
 * error (a window outside the trace, a selected rank not in it).
 */
int	 trc_timeline_svg(struct trc_timeline *, const char *title,
	    struct trc_svg *);
const char *trc_timeline_error(const struct trc_timeline *);
void	 trc_timeline_free(struct trc_timeline *);
/*
 * Reads the whole trace at path ("-": stdin) into run.  Returns 0, or
 * -1 with "file:line: message" (or "file: message") in err.
 */
int	 trc_timeline_read(struct trc_timeline *, int run, const char *path,
	    const struct trc_open_opts *, char *err, size_t errlen);
/*
 * Compares the graphs of the traces at pa and pb as trc-stable does
 * (events equal on key, trc_key_parse) into gd, and marks on runs 0
 * and 1 the events its alignment leaves unmatched.  Reads each file
 * twice, so neither may be stdin.  Returns 0, or -1 with err.
 */
int	 trc_timeline_diff(struct trc_timeline *, const char *pa,
	    const char *pb, unsigned key, const struct trc_open_opts *,
	    struct trc_graph_diff *gd, char *err, size_t errlen);

/* ---- charts ---- */
struct trc_chart {
	const char	*title, *ylabel;
	int		 ncat, nser;
	char		**cat;		/* category (bar group) labels */
	char		**ser;		/* series names, the legend */
	const char	**color;	/* per series, NULL: the palette */
	double		*v;		/* [cat * nser + ser]; NaN: no bar */
	int		 stacked;	/* else grouped side by side */
	double		 ref;		/* a dashed line at this value, 0: none */
	const char	*kind;		/* data-chart attribute */
};

/* Bars: 0, or -1 when out of memory or there is nothing to draw. */
int	 trc_svg_chart(struct trc_svg *, const struct trc_chart *);
void	 trc_chart_free(struct trc_chart *);

/*
 * Charts from summaries (trc_summary.h); each fills a chart to free
 * with trc_chart_free(): 0, or -1 when out of memory or empty.
 *	procs	time per rank, stacked by procedure and activity
 *	sizes	sent messages per size class (powers of two)
 *	ratios	mean predicted/observed lifetime per procedure or
 *		operation, a bar per rank, as the paper's Table 2
 */
int	 trc_chart_procs(struct trc_chart *, const struct trc_summary *);
int	 trc_chart_sizes(struct trc_chart *, const struct trc_summary *);
int	 trc_chart_ratios(struct trc_chart *, const struct trc_versus *);
/*
 * The effects chart reads trc-effects' output: the percent of
 * variation each effect explains, a bar per response.  Feed it every
 * line (without newline); 0, or -1 with a message in err.
 */
struct trc_effects_reader;
struct trc_effects_reader *trc_effects_reader_new(void);
int	 trc_effects_reader_line(struct trc_effects_reader *, const char *,
	    char *err, size_t errlen);
int	 trc_chart_effects(struct trc_chart *, struct trc_effects_reader *,
	    char *err, size_t errlen);
void	 trc_effects_reader_free(struct trc_effects_reader *);
/*
 * The charts of files, to draw and free as above: 0, or -1 with the
 * message in err ("file:line: message" when a line is at fault).
 *	trace		procs or sizes (kind) of the trace at path
 *	ratios_of	ratios of a predicted and an observed trace
 *	effects_of	effects, from trc-effects' output at path
 * "-" is stdin.
 */
int	 trc_chart_trace(struct trc_chart *, const char *kind,
	    const char *path, const struct trc_open_opts *, char *err,
	    size_t errlen);
int	 trc_chart_ratios_of(struct trc_chart *, const char *predicted,
	    const char *observed, const struct trc_open_opts *, char *err,
	    size_t errlen);
int	 trc_chart_effects_of(struct trc_chart *, const char *path,
	    char *err, size_t errlen);

#endif
