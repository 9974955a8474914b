/* A line's events decoded on a thread of their own (line-pipe.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "line-pipe.h"
#include "slot-ring.h"
#include "xmalloc.h"

/* Enough batches that neither side waits on the other's hiccups. */
#define PIPE_SLOTS	4

struct line_pipe {
	struct slot_ring ring;
	struct event_batch *slot[PIPE_SLOTS];
	int		 ended;		/* the last batch was handed out */
	int		 (*decode)(void *, struct event_batch *);
	void		*arg;
};

void
event_batch_add(struct event_batch *b, const struct pf_event *ev)
{
	if (b->nstats + ev->nstats > b->stats_cap) {
		b->stats_cap = 2 * (b->nstats + ev->nstats) + 16;
		b->stats = xreallocarray(b->stats, b->stats_cap,
		    sizeof *b->stats);
	}
	if (ev->nstats > 0)
		memcpy(b->stats + b->nstats, ev->stats,
		    ev->nstats * sizeof *b->stats);
	b->first[b->n] = b->nstats;
	b->nstats += ev->nstats;
	b->ev[b->n++] = *ev;
}

/* Fills slot i on the ring's thread. */
static int
fill(void *owner, size_t i)
{
	struct line_pipe *p = owner;
	struct event_batch *b = p->slot[i];
	size_t k;

	b->n = b->nstats = 0;
	b->failed = 0;
	free(b->cause);
	b->cause = NULL;
	memset(&b->rs, 0, sizeof b->rs);
	b->last = !p->decode(p->arg, b);
	/* The stats may have moved as the batch filled: point at them now. */
	for (k = 0; k < b->n; k++)
		b->ev[k].stats = b->ev[k].nstats > 0 ?
		    b->stats + b->first[k] : NULL;
	return !b->last;
}

static void
free_slots(struct line_pipe *p)
{
	size_t i;

	for (i = 0; i < PIPE_SLOTS; i++) {
		free(p->slot[i]->stats);
		free(p->slot[i]->cause);
		free(p->slot[i]);
	}
	free(p);
}

struct line_pipe *
line_pipe_start(int (*decode)(void *, struct event_batch *), void *arg)
{
	struct line_pipe *p = xcalloc(1, sizeof *p);
	size_t i;

	for (i = 0; i < PIPE_SLOTS; i++)
		p->slot[i] = xcalloc(1, sizeof *p->slot[i]);
	p->decode = decode;
	p->arg = arg;
	if (slot_ring_start(&p->ring, PIPE_SLOTS, fill, p) == -1) {
		slot_ring_stop(&p->ring);
		free_slots(p);
		return NULL;
	}
	return p;
}

struct event_batch *
line_pipe_next(struct line_pipe *p)
{
	struct event_batch *b;

	if (p->ended)
		return NULL;
	b = p->slot[slot_ring_take(&p->ring)];
	p->ended = b->last;
	return b;
}

void
line_pipe_stop(struct line_pipe *p)
{
	slot_ring_stop(&p->ring);
	free_slots(p);
}
