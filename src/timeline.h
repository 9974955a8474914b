/*
 * Sets of time intervals: collect, normalize (sort and merge), and measure
 * how much of a window they cover.  Used for the step breakdown and idle
 * gaps (what share of a step a device was busy).
 *
 *	struct ivals busy = { 0 };
 *	ivals_add(&busy, 10, 20); ivals_add(&busy, 15, 30);
 *	ivals_normalize(&busy);          (now one interval [10, 30))
 *	ivals_measure(&busy, 0, 25);     (15)
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

struct ivals {
	struct ival	*v;
	size_t		 n;
	size_t		 cap;
	int		 unsorted;	/* some start is before the last one */
};

/* Makes room for n more intervals (no growth by doubling past them). */
void	ivals_reserve(struct ivals *s, size_t n);
/* Adds [start, end); empty and inverted intervals are ignored. */
void	ivals_add(struct ivals *s, int64_t start, int64_t end);
/* Sorts and merges overlapping or touching intervals. */
void	ivals_normalize(struct ivals *s);
/* How much of [start, end) a normalized set covers. */
int64_t	ivals_measure(const struct ivals *s, int64_t start, int64_t end);
void	ivals_release(struct ivals *s);

#endif
