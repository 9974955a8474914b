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

#include "lib/timeline.h"
#include "lib/varint.h"
#include "lib/xmalloc.h"

/*
 * The encoded intervals live in chained blocks.  A buffer grown by
 * doubling was copied at each step and, once glibc's mmap threshold had
 * risen past it, left each old copy resident in the thread's arena:
 * blocks are never copied, and freed ones serve the next plane.  The
 * first are small, as most sets are (a device's transfers, a host's):
 * each is twice the last, up to MAX_BLOCK_BYTES.
 */
#define MIN_BLOCK_BYTES	(1024 - 64)
#define MAX_BLOCK_BYTES	(64 * 1024 - 64)

struct ival_block {
	struct ival_block *next;
	size_t		 len;		/* bytes used of data */
	size_t		 cap;		/* bytes of data */
	uint8_t		 data[];
};

/* A new last block, for when the last has no room for an interval. */
static struct ival_block *
add_block(struct ivals *s)
{
	struct ival_block *b = s->tail;
	size_t cap = b == NULL ? MIN_BLOCK_BYTES :
	    b->cap * 2 + 64 > MAX_BLOCK_BYTES ? MAX_BLOCK_BYTES :
	    b->cap * 2 + 64;

	b = xmalloc(sizeof *b + cap);
	b->next = NULL;
	b->len = 0;
	b->cap = cap;
	if (s->tail != NULL)
		s->tail->next = b;
	else
		s->head = b;
	s->tail = b;
	return b;
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

/* The varint at p into *v; returns the byte after it. */
static inline const uint8_t *
ivals_varint(const uint8_t *p, uint64_t *v)
{
	uint64_t x = p[0];
	int shift;

	if (p[0] < 0x80) {
		*v = x;
		return p + 1;
	}
	x = (x & 0x7f) | (uint64_t)p[1] << 7;
	if (p[1] < 0x80) {
		*v = x;
		return p + 2;
	}
	x = (x & 0x3fff) | (uint64_t)p[2] << 14;
	if (p[2] < 0x80) {
		*v = x;
		return p + 3;
	}
	x = (x & 0x1fffff) | (uint64_t)p[3] << 21;
	if (p[3] < 0x80) {
		*v = x;
		return p + 4;
	}
	x &= 0xfffffff;
	for (p += 4, shift = 28; *p & 0x80; p++, shift += 7)
		x |= (uint64_t)(*p & 0x7f) << shift;
	*v = x | (uint64_t)*p << shift;
	return p + 1;
}

/* Appends iv to the encoded blocks. */
static void
encode(struct ivals *s, struct ival iv)
{
	uint64_t delta = (uint64_t)iv.start - (uint64_t)s->prev_end;
	struct ival_block *b = s->tail;
	uint8_t *p;

	/* Room for two varints, 10 bytes each at most. */
	if (b == NULL || b->len + 20 > b->cap)
		b = add_block(s);
	/* Zigzag: a small negative delta stays small. */
	p = varint_put(b->data + b->len, (delta << 1) ^ (0 - (delta >> 63)));
	p = varint_put(p, (uint64_t)iv.end - (uint64_t)iv.start);
	b->len = (size_t)(p - b->data);
	s->prev_end = iv.end;
	s->n++;
}

void
ivals_add_next(struct ivals *s, int64_t start, int64_t end)
{
	if (s->have_last) {
		if (start < s->last.start)
			s->unsorted = 1;
		encode(s, s->last);
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

size_t
ivals_read(struct ivals_iter *it, struct ival *out, size_t max)
{
	const struct ival_block *b = it->block;
	const uint8_t *p, *end;
	uint64_t prev_end = (uint64_t)it->prev_end, z, len;
	size_t n = 0;

	while (b != NULL && it->off == b->len) {
		b = it->block = b->next;
		it->off = 0;
	}
	if (b == NULL)
		return 0;
	p = b->data + it->off;
	end = b->data + b->len;
	while (n < max && p < end) {
		p = ivals_varint(p, &z);
		p = ivals_varint(p, &len);
		/* Modulo 2^64, as encode() wrote them: exact for any int64. */
		out[n].start = (int64_t)(prev_end + ((z >> 1) ^ (~(z & 1) + 1)));
		prev_end = (uint64_t)out[n].start + len;
		out[n].end = (int64_t)prev_end;
		n++;
	}
	it->prev_end = (int64_t)prev_end;
	it->off = (size_t)(p - b->data);
	return n;
}

int
ivals_next(struct ivals_iter *it, struct ival *out)
{
	return ivals_read(it, out, 1) == 1;
}

/* A start as an unsigned key in the same order. */
static inline uint64_t
start_key(const struct ival *iv)
{
	return (uint64_t)iv->start ^ (UINT64_C(1) << 63);
}

/*
 * Bits of a radix sort's digit, by the work of its passes (each counts
 * and moves the n starts, and clears and sums its buckets): 11 take fewer
 * passes over a long set (a TPU plane's 40,000 busy intervals differ in
 * 36 bits: 4 passes, not 5), 8 clear fewer buckets for a short one.
 */
static int
digit_bits(size_t n, int key_bits)
{
	size_t passes8 = (size_t)(key_bits + 7) / 8;
	size_t passes11 = (size_t)(key_bits + 10) / 11;

	return passes11 * (2 * n + 2 * 2048) < passes8 * (2 * n + 2 * 256) ?
	    11 : 8;
}

/*
 * v sorted by start, a digit at a time from the lowest (a radix sort),
 * over the bits where starts differ, with tmp (n more) as the other
 * buffer: qsort() calls a comparison per step, and a TPU profile's lines
 * interleave in its busy sets.  Equal starts stay in
 * any order: they merge into one interval whatever their ends.
 */
static void
sort_by_start(struct ival *v, struct ival *tmp, size_t n)
{
	struct ival *src = v, *dst = tmp, *swap;
	uint64_t differ = 0, mask;
	size_t count[1 << 11], i, b, at, nbuckets;
	int shift, bits, key_bits;

	if (n < 2)
		return;
	for (i = 1; i < n; i++)
		differ |= start_key(&v[i]) ^ start_key(&v[0]);
	if (differ == 0)
		return;
	key_bits = 64 - __builtin_clzll(differ);
	bits = digit_bits(n, key_bits);
	nbuckets = (size_t)1 << bits;
	mask = nbuckets - 1;
	for (shift = 0; shift < key_bits; shift += bits) {
		if (((differ >> shift) & mask) == 0)
			continue;
		memset(count, 0, nbuckets * sizeof count[0]);
		for (i = 0; i < n; i++)
			count[(start_key(&src[i]) >> shift) & mask]++;
		for (b = 0, at = 0; b < nbuckets; b++) {
			size_t c = count[b];

			count[b] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(start_key(&src[i]) >> shift) & mask]++] =
			    src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}

void
ivals_normalize(struct ivals *s)
{
	struct ivals_iter it;
	struct ival *v;
	size_t n = 0, i, got;

	if (s->have_last) {
		encode(s, s->last);
		s->have_last = 0;
	}
	if (!s->unsorted)
		return;	/* sorted input was merged as it came */
	/*
	 * Unsorted (several streams): decode, sort, merge, encode again.  One
	 * buffer holds the set and, in its second half, the sort's copy.
	 */
	v = xreallocarray(NULL, 2 * s->n + 1, sizeof *v);
	ivals_iter_init(s, &it);
	while (n < s->n && (got = ivals_read(&it, v + n, s->n - n)) > 0)
		n += got;
	sort_by_start(v, v + n, n);
	free_blocks(s);
	s->n = 0;
	s->prev_end = 0;
	s->unsorted = 0;
	for (i = 0; i < n; i++)
		ivals_add(s, v[i].start, v[i].end);
	if (s->have_last) {
		encode(s, s->last);
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
