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

/*
 * The encoded intervals live in blocks of this many bytes, chained.  A
 * buffer grown by doubling was copied at each step and, once glibc's
 * mmap threshold had risen past it, left each old copy resident in the
 * thread's arena: blocks are never copied, and freed ones serve the
 * next plane.
 */
#define BLOCK_BYTES	(64 * 1024 - 64)

struct ival_block {
	struct ival_block *next;
	size_t		 len;		/* bytes used of data */
	uint8_t		 data[BLOCK_BYTES];
};

/* Room for one more interval (two varints, 10 bytes each at most). */
static uint8_t *
reserve_interval(struct ivals *s)
{
	struct ival_block *b = s->tail;

	if (b == NULL || b->len + 20 > BLOCK_BYTES) {
		b = xmalloc(sizeof *b);
		b->next = NULL;
		b->len = 0;
		if (s->tail != NULL)
			s->tail->next = b;
		else
			s->head = b;
		s->tail = b;
	}
	return b->data + b->len;
}

static uint8_t *
put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static void
free_blocks(struct ivals *s)
{
	while (s->head != NULL) {
		struct ival_block *next = s->head->next;

		free(s->head);
		s->head = next;
	}
	s->tail = NULL;
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

/* Appends iv to the encoded blocks. */
static void
encode(struct ivals *s, const struct ival *iv)
{
	uint64_t delta = (uint64_t)iv->start - (uint64_t)s->prev_end;
	uint8_t *start = reserve_interval(s), *p;

	/* Zigzag: a small negative delta stays small. */
	p = put_varint(start, (delta << 1) ^ (0 - (delta >> 63)));
	p = put_varint(p, (uint64_t)iv->end - (uint64_t)iv->start);
	s->tail->len += (size_t)(p - start);
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
	it->block = s->head;
	it->off = 0;
	it->prev_end = 0;
}

int
ivals_next(struct ivals_iter *it, struct ival *out)
{
	const uint8_t *p;
	uint64_t z;

	if (it->block != NULL && it->off == it->block->len) {
		it->block = it->block->next;
		it->off = 0;
	}
	if (it->block == NULL)
		return 0;
	p = it->block->data + it->off;
	z = get_varint(&p);
	/* Modulo 2^64, as encode() wrote them: exact for any int64. */
	out->start = (int64_t)((uint64_t)it->prev_end +
	    ((z >> 1) ^ (~(z & 1) + 1)));
	out->end = (int64_t)((uint64_t)out->start + get_varint(&p));
	it->prev_end = out->end;
	it->off = (size_t)(p - it->block->data);
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
	free_blocks(s);
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
	free_blocks(s);
	memset(s, 0, sizeof *s);
}
