/*
 * Sets of time intervals: collect, normalize (sort and merge), and walk in
 * order.  Used for the step breakdown and idle gaps (how much of a step a
 * device was busy).  Intervals are kept delta- and varint-encoded, a few
 * bytes each, since a device plane can hold millions.
 *
 *	struct ivals busy = { 0 };
 *	struct ivals_iter it;
 *	struct ival iv;
 *	ivals_add(&busy, 10, 20); ivals_add(&busy, 15, 30);
 *	ivals_normalize(&busy);          (now one interval [10, 30))
 *	for (ivals_iter_init(&busy, &it); ivals_next(&it, &iv); ) ...
 *	ivals_release(&busy);
 */
#ifndef JAXPROF_TIMELINE_H
#define JAXPROF_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

struct ival {
	int64_t	start;
	int64_t	end;		/* exclusive */
};

struct ival_block;

struct ivals {
	struct ival_block *head, *tail;	/* encoded intervals (timeline.c) */
	size_t		 n;		/* intervals in the blocks */
	int64_t		 prev_end;	/* end of the last one in them */
	struct ival	 last;		/* the newest, not yet encoded */
	int		 have_last;
	int		 unsorted;	/* some start is before an earlier one */
};

struct ivals_iter {
	const struct ival_block *block;
	size_t		 off;
	int64_t		 prev_end;
};

/* ivals_add() of an interval that does not extend the newest one. */
void	ivals_add_next(struct ivals *s, int64_t start, int64_t end);

/*
 * Adds [start, end); empty and inverted intervals are ignored.  Intervals
 * added in order of start are merged as they come.  Inline: it is called
 * for every op, and most of a line's ops nest or follow one another.
 */
static inline void
ivals_add(struct ivals *s, int64_t start, int64_t end)
{
	if (end <= start)
		return;
	if (s->have_last && start >= s->last.start && start <= s->last.end) {
		if (end > s->last.end)
			s->last.end = end;
		return;
	}
	ivals_add_next(s, start, end);
}
/* Sorts and merges overlapping or touching intervals. */
void	ivals_normalize(struct ivals *s);
/* Walks a normalized set in order: ivals_next() is 1 while there is one. */
void	ivals_iter_init(const struct ivals *s, struct ivals_iter *it);
int	ivals_next(struct ivals_iter *it, struct ival *out);
/*
 * The next intervals, up to max of them, into out; returns how many (0:
 * no more).  Cheaper per interval than ivals_next() for long walks.
 */
size_t	ivals_read(struct ivals_iter *it, struct ival *out, size_t max);
void	ivals_release(struct ivals *s);

#endif
