/* Thrift's compact protocol, as far as Parquet's metadata needs it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/xmalloc.h"
#include "output/thrift.h"

/* Field types of the compact protocol where they differ from the list's. */
enum {
	CT_BOOL_TRUE = 1,
	CT_BOOL_FALSE = 2,
	CT_LIST = 9,
};

void
tbuf_put(struct tbuf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (b->cap - b->len < n) {
		size_t cap = b->cap > 0 ? b->cap : 256;

		while (cap - b->len < n) {
			if (cap > SIZE_MAX / 2)
				jp_errx(EXIT_TROUBLE, "out of memory");
			cap *= 2;
		}
		b->p = xreallocarray(b->p, cap, 1);
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
tbuf_byte(struct tbuf *b, unsigned char c)
{
	tbuf_put(b, &c, 1);
}

void
tbuf_le32(struct tbuf *b, uint32_t v)
{
	unsigned char le[4];
	int i;

	for (i = 0; i < 4; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	tbuf_put(b, le, sizeof le);
}

void
tbuf_le64(struct tbuf *b, uint64_t v)
{
	unsigned char le[8];
	int i;

	for (i = 0; i < 8; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	tbuf_put(b, le, sizeof le);
}

void
tbuf_uvarint(struct tbuf *b, uint64_t v)
{
	while (v >= 0x80) {
		tbuf_byte(b, (unsigned char)(v | 0x80));
		v >>= 7;
	}
	tbuf_byte(b, (unsigned char)v);
}

void
tbuf_free(struct tbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* Zigzag: small magnitudes, negative or not, in few varint bytes. */
static uint64_t
zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0);
}

void
thrift_init(struct thrift *t, struct tbuf *b)
{
	memset(t, 0, sizeof *t);
	t->b = b;
}

/* A field header: the id as a delta from the last one when it fits. */
static void
field(struct thrift *t, int16_t id, int type)
{
	if (id > t->last && id - t->last <= 15)
		tbuf_byte(t->b, (unsigned char)((id - t->last) << 4 | type));
	else {
		tbuf_byte(t->b, (unsigned char)type);
		tbuf_uvarint(t->b, zigzag(id));
	}
	t->last = id;
}

void
thrift_i32(struct thrift *t, int16_t id, int32_t v)
{
	field(t, id, THRIFT_I32);
	tbuf_uvarint(t->b, zigzag(v));
}

void
thrift_i64(struct thrift *t, int16_t id, int64_t v)
{
	field(t, id, THRIFT_I64);
	tbuf_uvarint(t->b, zigzag(v));
}

void
thrift_bool(struct thrift *t, int16_t id, int v)
{
	field(t, id, v ? CT_BOOL_TRUE : CT_BOOL_FALSE);
}

void
thrift_binary(struct thrift *t, int16_t id, const void *p, size_t n)
{
	field(t, id, THRIFT_BINARY);
	thrift_elem_binary(t, p, n);
}

void
thrift_elem_struct_begin(struct thrift *t)
{
	if (t->depth == THRIFT_DEPTH)
		jp_errx(EXIT_TROUBLE, "thrift: structs nested too deep");
	t->saved[t->depth++] = t->last;
	t->last = 0;
}

void
thrift_struct_begin(struct thrift *t, int16_t id)
{
	field(t, id, THRIFT_STRUCT);
	thrift_elem_struct_begin(t);
}

void
thrift_struct_end(struct thrift *t)
{
	tbuf_byte(t->b, 0);
	t->last = t->saved[--t->depth];
}

void
thrift_list_begin(struct thrift *t, int16_t id, enum thrift_type type,
    size_t n)
{
	field(t, id, CT_LIST);
	if (n < 15)
		tbuf_byte(t->b, (unsigned char)(n << 4 | type));
	else {
		tbuf_byte(t->b, (unsigned char)(0xf0 | type));
		tbuf_uvarint(t->b, n);
	}
}

void
thrift_elem_i32(struct thrift *t, int32_t v)
{
	tbuf_uvarint(t->b, zigzag(v));
}

void
thrift_elem_binary(struct thrift *t, const void *p, size_t n)
{
	tbuf_uvarint(t->b, n);
	tbuf_put(t->b, p, n);
}

void
thrift_stop(struct thrift *t)
{
	tbuf_byte(t->b, 0);
}
