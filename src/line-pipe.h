/*
 * A line's events decoded on a thread of their own and handed, in
 * batches and in order, to the thread that classifies them: for the one
 * line that holds most of a real profile (JAX's python3 host thread), so
 * that decoding and classifying it take two cores.
 *
 *	p = line_pipe_start(decode, arg);	(NULL: no thread, read it alone)
 *	while ((b = line_pipe_next(p)) != NULL)	(the batch before is free)
 *		... b->ev[0 .. b->n), then b->failed ...
 *	line_pipe_stop(p);	(also to stop early)
 *
 * decode(arg, b) runs on the pipe's thread (slot-ring.h): it fills the
 * empty batch b with event_batch_add() and returns 1 while more are to
 * come, 0 after the last (or a failed) one.
 */
#ifndef JAXPROF_LINE_PIPE_H
#define JAXPROF_LINE_PIPE_H

#include <stddef.h>

#include "profile.h"

#define EVENT_BATCH_MAX	1024	/* events a batch */

struct event_batch {
	struct pf_event	 ev[EVENT_BATCH_MAX];
	size_t		 n;
	struct pf_stat	*stats;		/* the events' stats, in order */
	size_t		 nstats, stats_cap;
	size_t		 first[EVENT_BATCH_MAX];	/* ev[i]'s in stats */
	size_t		 end;		/* the input decoded up to here */
	int		 failed;	/* after the n events, this error: */
	char		*cause;
	struct pf_read_stats rs;	/* missing metadata met decoding it */
	int		 last;
};

/* Appends ev with a copy of its stats; the batch must have room. */
void	event_batch_add(struct event_batch *b, const struct pf_event *ev);

struct line_pipe;

struct line_pipe *line_pipe_start(int (*decode)(void *, struct event_batch *),
	    void *arg);
/* The next batch, or NULL after the last. */
struct event_batch *line_pipe_next(struct line_pipe *p);
/* Stops the decoding (at once if it is not done) and frees the pipe. */
void	line_pipe_stop(struct line_pipe *p);

#endif
