/* Read-ahead of a gzr in a thread of its own, through a ring of chunks. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "read-ahead.h"
#include "xmalloc.h"

#define NSLOTS	4	/* chunks read but not yet parsed, at most */

struct slot {
	char		*buf;
	ssize_t		 len;		/* as gzr_read() returned */
	char		*cause;		/* with len -1 */
};

struct ahead {
	struct gzr	*z;
	size_t		 chunk;
	struct slot	 slots[NSLOTS];
	size_t		 filled;	/* slots filled so far, in all */
	size_t		 taken;		/* slots handed out (the last is in use) */
	int		 stop;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	pthread_t	 thread;
	int		 threaded;	/* 0: no thread could start */
};

/* Fills the next slot; whether there is more to read. */
static int
fill_one(struct ahead *a, struct slot *s)
{
	s->cause = NULL;
	s->len = gzr_read(a->z, s->buf, a->chunk, &s->cause);
	return s->len > 0;
}

/*
 * Slots in use: those filled and not handed out, and the one handed out
 * last, which the caller parses until it asks for the next.
 */
static size_t
busy(const struct ahead *a)
{
	return a->filled - a->taken + (a->taken > 0);
}

static void *
reader(void *arg)
{
	struct ahead *a = arg;
	int more = 1;

	pthread_mutex_lock(&a->mu);
	while (more) {
		struct slot *s;

		while (!a->stop && busy(a) == NSLOTS)
			pthread_cond_wait(&a->cv, &a->mu);
		if (a->stop)
			break;
		s = &a->slots[a->filled % NSLOTS];
		pthread_mutex_unlock(&a->mu);
		more = fill_one(a, s);
		pthread_mutex_lock(&a->mu);
		a->filled++;
		pthread_cond_broadcast(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

struct ahead *
ahead_start(struct gzr *z, size_t chunk)
{
	struct ahead *a = xcalloc(1, sizeof *a);
	size_t i;

	a->z = z;
	a->chunk = chunk;
	for (i = 0; i < NSLOTS; i++)
		a->slots[i].buf = xmalloc(chunk);
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	a->threaded = pthread_create(&a->thread, NULL, reader, a) == 0;
	return a;
}

ssize_t
ahead_next(struct ahead *a, const char **p, char **cause)
{
	struct slot *s;

	if (!a->threaded) {
		/* Read in this thread, one slot. */
		s = &a->slots[0];
		(void)fill_one(a, s);
	} else {
		pthread_mutex_lock(&a->mu);
		while (a->filled == a->taken)
			pthread_cond_wait(&a->cv, &a->mu);
		s = &a->slots[a->taken++ % NSLOTS];
		/* The slot handed out before is free again. */
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
	}
	*p = s->buf;
	if (s->len == -1) {
		*cause = s->cause;
		s->cause = NULL;
	}
	return s->len;
}

void
ahead_stop(struct ahead *a)
{
	size_t i;

	if (a->threaded) {
		pthread_mutex_lock(&a->mu);
		a->stop = 1;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
		pthread_join(a->thread, NULL);
	}
	for (i = 0; i < NSLOTS; i++) {
		free(a->slots[i].cause);
		free(a->slots[i].buf);
	}
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}
