/* Read-ahead of a gzr in a thread of its own, through a ring of chunks. */
#include "config.h"

#include <stdlib.h>

#include "input/read-ahead.h"
#include "lib/slot-ring.h"
#include "lib/xmalloc.h"

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
	struct slot_ring ring;
};

/* Fills slot i; whether there is more to read. */
static int
fill_one(void *owner, size_t i)
{
	struct ahead *a = owner;
	struct slot *s = &a->slots[i];

	s->cause = NULL;
	s->len = gzr_read(a->z, s->buf, a->chunk, &s->cause);
	return s->len > 0;
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
	(void)slot_ring_start(&a->ring, NSLOTS, fill_one, a);
	return a;
}

ssize_t
ahead_next(struct ahead *a, const char **p, char **cause)
{
	struct slot *s;

	if (!a->ring.threaded) {
		/* Read in this thread, one slot. */
		s = &a->slots[0];
		(void)fill_one(a, 0);
	} else
		s = &a->slots[slot_ring_take(&a->ring)];
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

	slot_ring_stop(&a->ring);
	for (i = 0; i < NSLOTS; i++) {
		free(a->slots[i].cause);
		free(a->slots[i].buf);
	}
	free(a);
}
