/*
 * Interval sets: the arithmetic behind step breakdowns and idle gaps.
 * Each interval is two varints: its start minus the previous one's end
 * (zigzag, for overlapping or unsorted input) and its length.  On a busy
 * device the gap between one op and the next is far shorter than the
 * op, so this is a byte or two less per interval than a start delta.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "xmalloc.h"

/* Room for one more interval: two varints of at most 10 bytes. */
static void
reserve_interval(struct ivals *s)
{
	if (s->len + 20 > s->cap) {
		s->cap = s->cap == 0 ? 4096 : s->cap * 2;
		s->buf = xreallocarray(s->buf, s->cap, 1);
	}
}

static void
put_varint(struct ivals *s, uint64_t v)
{
	uint8_t *p = s->buf + s->len;

	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	s->len = (size_t)(p - s->buf);
}

static uint64_t
get_varint(const uint8_t **p)
{
	uint64_t v = 0;
	int shift = 0;

	while (**p & 0x80) {
		v |= (uint64_t)(**p & 0x7f) << shift;
		shift += 7;
		(*p)++;
	}
	v |= (uint64_t)**p << shift;
	(*p)++;
	return v;
}

/* Appends iv to the encoded buffer. */
static void
encode(struct ivals *s, const struct ival *iv)
{
	uint64_t delta = (uint64_t)iv->start - (uint64_t)s->prev_end;

	reserve_interval(s);
	/* Zigzag: a small negative delta stays small. */
	put_varint(s, (delta << 1) ^ (0 - (delta >> 63)));
	put_varint(s, (uint64_t)iv->end - (uint64_t)iv->start);
	s->prev_end = iv->end;
	s->n++;
}

void
ivals_add(struct ivals *s, int64_t start, int64_t end)
{
	if (end <= start)
		return;
	if (s->have_last) {
		/* Events of one line come in order: merge as they come. */
		if (start >= s->last.start && start <= s->last.end) {
			if (end > s->last.end)
				s->last.end = end;
			return;
		}
		if (start < s->last.start)
			s->unsorted = 1;
		encode(s, &s->last);
	}
	s->last.start = start;
	s->last.end = end;
	s->have_last = 1;
}

void
ivals_iter_init(const struct ivals *s, struct ivals_iter *it)
{
	it->p = s->buf;
	it->end = s->buf != NULL ? s->buf + s->len : NULL;
	it->prev_end = 0;
}

int
ivals_next(struct ivals_iter *it, struct ival *out)
{
	uint64_t z;

	if (it->p == NULL || it->p >= it->end)
		return 0;
	z = get_varint(&it->p);
	/* Modulo 2^64, as encode() wrote them: exact for any int64. */
	out->start = (int64_t)((uint64_t)it->prev_end +
	    ((z >> 1) ^ (~(z & 1) + 1)));
	out->end = (int64_t)((uint64_t)out->start + get_varint(&it->p));
	it->prev_end = out->end;
	return 1;
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
	struct ivals_iter it;
	struct ival *v, iv;
	size_t n = 0, i;

	if (s->have_last) {
		encode(s, &s->last);
		s->have_last = 0;
	}
	if (!s->unsorted)
		return;	/* sorted input was merged as it came */
	/* Unsorted (several streams): decode, sort, merge, encode again. */
	v = xcalloc(s->n + 1, sizeof *v);
	for (ivals_iter_init(s, &it); ivals_next(&it, &iv); )
		v[n++] = iv;
	qsort(v, n, sizeof *v, cmp_ival);
	s->len = 0;
	s->n = 0;
	s->prev_end = 0;
	s->unsorted = 0;
	for (i = 0; i < n; i++)
		ivals_add(s, v[i].start, v[i].end);
	if (s->have_last) {
		encode(s, &s->last);
		s->have_last = 0;
	}
	free(v);
}

void
ivals_release(struct ivals *s)
{
	free(s->buf);
	memset(s, 0, sizeof *s);
}
