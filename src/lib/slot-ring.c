/* A ring of slots filled by a thread of its own (slot-ring.h). */
#include "config.h"

#include <string.h>

#include "lib/slot-ring.h"

/*
 * Slots in use: those filled and not handed out, and the one handed out
 * last, which the caller works on until it takes the next.
 */
static size_t
busy(const struct slot_ring *r)
{
	return r->filled - r->taken + (r->taken > 0);
}

static void *
filler(void *arg)
{
	struct slot_ring *r = arg;
	int more = 1;

	pthread_mutex_lock(&r->mu);
	while (more) {
		size_t i;

		while (!r->stop && busy(r) == r->nslots)
			pthread_cond_wait(&r->cv, &r->mu);
		if (r->stop)
			break;
		i = r->filled % r->nslots;
		pthread_mutex_unlock(&r->mu);
		more = r->fill(r->owner, i);
		pthread_mutex_lock(&r->mu);
		r->filled++;
		pthread_cond_broadcast(&r->cv);
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

int
slot_ring_start(struct slot_ring *r, size_t nslots,
    int (*fill)(void *owner, size_t slot), void *owner)
{
	memset(r, 0, sizeof *r);
	r->nslots = nslots;
	r->fill = fill;
	r->owner = owner;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	r->threaded = pthread_create(&r->thread, NULL, filler, r) == 0;
	return r->threaded ? 0 : -1;
}

size_t
slot_ring_take(struct slot_ring *r)
{
	size_t i;

	pthread_mutex_lock(&r->mu);
	while (r->filled == r->taken)
		pthread_cond_wait(&r->cv, &r->mu);
	i = r->taken++ % r->nslots;
	/* The slot handed out before is free again. */
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return i;
}

void
slot_ring_stop(struct slot_ring *r)
{
	if (r->threaded) {
		pthread_mutex_lock(&r->mu);
		r->stop = 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(r->thread, NULL);
		r->threaded = 0;
	}
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
}
