/*
 * A ring of slots that a thread of its own fills in turn, at most all of
 * them ahead of the caller, who takes them in the same order: the engine
 * of read-ahead.c (inflating).
 *
 *	struct slot_ring r;
 *	if (slot_ring_start(&r, NSLOTS, fill, owner) == -1) ... no thread ...;
 *	i = slot_ring_take(&r);	   (waits for slot i; the one before is free)
 *	slot_ring_stop(&r);	   (at any point; joins the thread)
 *
 * fill(owner, i) fills slot i and returns whether there is more to fill.
 */
#ifndef JAXPROF_SLOT_RING_H
#define JAXPROF_SLOT_RING_H

#include <pthread.h>
#include <stddef.h>

struct slot_ring {
	size_t		 nslots;
	int		(*fill)(void *owner, size_t slot);
	void		*owner;
	size_t		 filled;	/* slots filled so far, in all */
	size_t		 taken;		/* slots handed out (the last is in use) */
	int		 stop;
	int		 threaded;	/* 0: no thread could start */
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	pthread_t	 thread;
};

/* Starts the filling thread: 0, or -1 when none could start. */
int	slot_ring_start(struct slot_ring *r, size_t nslots,
	    int (*fill)(void *owner, size_t slot), void *owner);
/* The index of the next slot, once it is filled. */
size_t	slot_ring_take(struct slot_ring *r);
/* Stops the thread, if it started, and releases the ring. */
void	slot_ring_stop(struct slot_ring *r);

#endif
