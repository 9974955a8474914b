/* Interval sets: the arithmetic behind step breakdowns and idle gaps. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "xmalloc.h"

void
ivals_reserve(struct ivals *s, size_t n)
{
	if (s->n + n <= s->cap)
		return;
	s->cap = s->n + n;
	s->v = xreallocarray(s->v, s->cap, sizeof *s->v);
}

void
ivals_add(struct ivals *s, int64_t start, int64_t end)
{
	if (end <= start)
		return;
	if (s->n > 0) {
		struct ival *last = &s->v[s->n - 1];

		/* Events of one line come in order: merge as they come. */
		if (start >= last->start && start <= last->end) {
			if (end > last->end)
				last->end = end;
			return;
		}
		if (start < last->start)
			s->unsorted = 1;
	}
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 64 : s->cap * 2;
		s->v = xreallocarray(s->v, s->cap, sizeof *s->v);
	}
	s->v[s->n].start = start;
	s->v[s->n].end = end;
	s->n++;
}

static int
cmp_ival(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

void
ivals_normalize(struct ivals *s)
{
	size_t i, j = 0;

	if (s->n == 0)
		return;
	if (s->unsorted)
		qsort(s->v, s->n, sizeof *s->v, cmp_ival);
	s->unsorted = 0;
	for (i = 1; i < s->n; i++) {
		if (s->v[i].start <= s->v[j].end) {
			if (s->v[i].end > s->v[j].end)
				s->v[j].end = s->v[i].end;
		} else
			s->v[++j] = s->v[i];
	}
	s->n = j + 1;
}

int64_t
ivals_measure(const struct ivals *s, int64_t start, int64_t end)
{
	size_t lo = 0, hi = s->n;
	int64_t sum = 0;

	/* The first interval that ends after start. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->n && s->v[lo].start < end; lo++) {
		int64_t a = s->v[lo].start > start ? s->v[lo].start : start;
		int64_t b = s->v[lo].end < end ? s->v[lo].end : end;

		if (b > a)
			sum += b - a;
	}
	return sum;
}

void
ivals_release(struct ivals *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}
