/*
 * The Parquet writer (parquet.h): the columns buffered in memory, then
 * "PAR1", one data page per column, the footer (FileMetaData in Thrift's
 * compact protocol), its length and "PAR1".  Field numbers are
 * parquet.thrift's.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/err.h"
#include "lib/fdio.h"
#include "lib/xmalloc.h"
#include "output/parquet.h"

/* parquet.thrift's enums, the values this writer uses. */
enum {
	REQUIRED = 0,
	OPTIONAL = 1,
	CONVERTED_UTF8 = 0,
	ENCODING_PLAIN = 0,
	ENCODING_RLE = 3,
	PAGE_DATA = 0,
};

struct colbuf {
	struct tbuf	values;		/* PLAIN; booleans one byte each */
	struct tbuf	levels;		/* one byte a row: 1 defined */
};

struct parquet {
	const struct pq_col	*cols;
	size_t			 ncols;
	struct colbuf		*c;
	size_t			 cell;		/* the next cell's column */
	int64_t			 nrows;
};

struct parquet *
parquet_new(const struct pq_col *cols, size_t ncols)
{
	struct parquet *pq = xcalloc(1, sizeof *pq);

	pq->cols = cols;
	pq->ncols = ncols;
	pq->c = xcalloc(ncols, sizeof *pq->c);
	return pq;
}

/* The column of the next cell, its level recorded. */
static struct colbuf *
next_cell(struct parquet *pq, int defined)
{
	struct colbuf *c;

	if (pq->cell == pq->ncols)
		jp_errx(EXIT_TROUBLE, "parquet: more cells than columns");
	c = &pq->c[pq->cell];
	if (pq->cols[pq->cell].nullable)
		tbuf_byte(&c->levels, defined ? 1 : 0);
	else if (!defined)
		jp_errx(EXIT_TROUBLE, "parquet: NULL in required column '%s'",
		    pq->cols[pq->cell].name);
	pq->cell++;
	return c;
}

static void
check_type(struct parquet *pq, enum pq_type type)
{
	if (pq->cell < pq->ncols && pq->cols[pq->cell].type != type)
		jp_errx(EXIT_TROUBLE, "parquet: column '%s' has another type",
		    pq->cols[pq->cell].name);
}

void
parquet_null(struct parquet *pq)
{
	next_cell(pq, 0);
}

void
parquet_int(struct parquet *pq, int64_t v)
{
	check_type(pq, PQ_INT64);
	tbuf_le64(&next_cell(pq, 1)->values, (uint64_t)v);
}

void
parquet_double(struct parquet *pq, double v)
{
	uint64_t bits;

	check_type(pq, PQ_DOUBLE);
	memcpy(&bits, &v, sizeof bits);
	tbuf_le64(&next_cell(pq, 1)->values, bits);
}

void
parquet_bool(struct parquet *pq, int v)
{
	check_type(pq, PQ_BOOLEAN);
	tbuf_byte(&next_cell(pq, 1)->values, v != 0);
}

void
parquet_str(struct parquet *pq, const char *s, size_t len)
{
	struct colbuf *c;

	check_type(pq, PQ_STRING);
	if (len > INT32_MAX)
		jp_errx(EXIT_TROUBLE, "parquet: a string of %zu bytes", len);
	c = next_cell(pq, 1);
	tbuf_le32(&c->values, (uint32_t)len);
	tbuf_put(&c->values, s, len);
}

void
parquet_end_row(struct parquet *pq)
{
	if (pq->cell != pq->ncols)
		jp_errx(EXIT_TROUBLE, "parquet: a row of %zu cells, not %zu",
		    pq->cell, pq->ncols);
	pq->cell = 0;
	pq->nrows++;
}

void
parquet_levels(struct tbuf *b, const unsigned char *levels, size_t n)
{
	size_t i, g, ngroups;

	for (i = 1; i < n && levels[i] == levels[0]; i++)
		;
	if (i >= n) {
		/* An RLE run: its length, then the value in one byte. */
		tbuf_uvarint(b, (uint64_t)n << 1);
		tbuf_byte(b, n > 0 ? levels[0] : 0);
		return;
	}
	/* Bit-packed: groups of 8 values, the first in the lowest bit. */
	ngroups = (n + 7) / 8;
	tbuf_uvarint(b, (uint64_t)ngroups << 1 | 1);
	for (g = 0; g < ngroups; g++) {
		unsigned char byte = 0;

		for (i = 0; i < 8 && g * 8 + i < n; i++)
			byte |= (unsigned char)((levels[g * 8 + i] & 1) << i);
		tbuf_byte(b, byte);
	}
}

/* A column's page body: its levels (when OPTIONAL), then its values. */
static void
page_body(const struct pq_col *col, const struct colbuf *c, struct tbuf *b)
{
	size_t i;

	if (col->nullable) {
		struct tbuf lv = { 0 };

		parquet_levels(&lv, c->levels.p, c->levels.len);
		tbuf_le32(b, (uint32_t)lv.len);
		tbuf_put(b, lv.p, lv.len);
		tbuf_free(&lv);
	}
	if (col->type != PQ_BOOLEAN) {
		tbuf_put(b, c->values.p, c->values.len);
		return;
	}
	/* PLAIN booleans: one bit each, the first in the lowest bit. */
	for (i = 0; i < c->values.len; i += 8) {
		unsigned char byte = 0;
		size_t j;

		for (j = 0; j < 8 && i + j < c->values.len; j++)
			byte |= (unsigned char)(c->values.p[i + j] << j);
		tbuf_byte(b, byte);
	}
}

/* in as a gzip stream (Parquet's GZIP codec) into out; -1 on failure. */
static int
gzip_page(const struct tbuf *in, struct tbuf *out)
{
	z_stream z;
	uLong bound;
	int rc;

	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	bound = deflateBound(&z, (uLong)in->len);
	out->len = 0;
	if (out->cap < bound) {
		out->p = xreallocarray(out->p, bound, 1);
		out->cap = bound;
	}
	z.next_in = in->p;
	z.avail_in = (uInt)in->len;
	z.next_out = out->p;
	z.avail_out = (uInt)bound;
	rc = deflate(&z, Z_FINISH);
	out->len = z.total_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

/* What the footer says of a column chunk. */
struct chunk {
	int64_t	offset;
	int64_t	uncompressed;
	int64_t	compressed;
};

/* A column's page (header and body) written at *offset. */
static int
write_column(struct parquet *pq, size_t i, int fd, enum pq_codec codec,
    int64_t *offset, struct chunk *ch)
{
	struct tbuf body = { 0 }, packed = { 0 }, head = { 0 };
	const struct tbuf *data = &body;
	struct thrift t;
	int rc = -1;

	page_body(&pq->cols[i], &pq->c[i], &body);
	if (codec == PQ_GZIP) {
		if (gzip_page(&body, &packed) == -1) {
			errno = ENOMEM;
			goto out;
		}
		data = &packed;
	}
	if (body.len > INT32_MAX || data->len > INT32_MAX) {
		errno = EFBIG;
		goto out;
	}
	thrift_init(&t, &head);
	thrift_i32(&t, 1, PAGE_DATA);
	thrift_i32(&t, 2, (int32_t)body.len);
	thrift_i32(&t, 3, (int32_t)data->len);
	thrift_struct_begin(&t, 5);		/* DataPageHeader */
	thrift_i32(&t, 1, (int32_t)pq->nrows);
	thrift_i32(&t, 2, ENCODING_PLAIN);
	thrift_i32(&t, 3, ENCODING_RLE);
	thrift_i32(&t, 4, ENCODING_RLE);
	thrift_struct_end(&t);
	thrift_stop(&t);
	if (write_full(fd, head.p, head.len) == -1 ||
	    write_full(fd, data->p, data->len) == -1)
		goto out;
	ch->offset = *offset;
	ch->uncompressed = (int64_t)(head.len + body.len);
	ch->compressed = (int64_t)(head.len + data->len);
	*offset += ch->compressed;
	rc = 0;
out:
	tbuf_free(&body);
	tbuf_free(&packed);
	tbuf_free(&head);
	return rc;
}

/* The schema: a root, then one element per column. */
static void
footer_schema(struct parquet *pq, struct thrift *t)
{
	size_t i;

	thrift_list_begin(t, 2, THRIFT_STRUCT, pq->ncols + 1);
	thrift_elem_struct_begin(t);
	thrift_binary(t, 4, "schema", 6);
	thrift_i32(t, 5, (int32_t)pq->ncols);
	thrift_struct_end(t);
	for (i = 0; i < pq->ncols; i++) {
		const struct pq_col *col = &pq->cols[i];

		thrift_elem_struct_begin(t);
		thrift_i32(t, 1, (int32_t)col->type);
		thrift_i32(t, 3, col->nullable ? OPTIONAL : REQUIRED);
		thrift_binary(t, 4, col->name, strlen(col->name));
		if (col->type == PQ_STRING) {
			thrift_i32(t, 6, CONVERTED_UTF8);
			thrift_struct_begin(t, 10);	/* LogicalType */
			thrift_struct_begin(t, 1);	/* STRING */
			thrift_struct_end(t);
			thrift_struct_end(t);
		}
		thrift_struct_end(t);
	}
}

static void
footer_row_group(struct parquet *pq, struct thrift *t,
    const struct chunk *chunks, enum pq_codec codec)
{
	int64_t total = 0;
	size_t i;

	thrift_list_begin(t, 4, THRIFT_STRUCT, pq->nrows > 0 ? 1 : 0);
	if (pq->nrows == 0)
		return;
	thrift_elem_struct_begin(t);
	thrift_list_begin(t, 1, THRIFT_STRUCT, pq->ncols);
	for (i = 0; i < pq->ncols; i++) {
		const struct pq_col *col = &pq->cols[i];

		thrift_elem_struct_begin(t);		/* ColumnChunk */
		thrift_i64(t, 2, chunks[i].offset);
		thrift_struct_begin(t, 3);		/* ColumnMetaData */
		thrift_i32(t, 1, (int32_t)col->type);
		thrift_list_begin(t, 2, THRIFT_I32, 2);
		thrift_elem_i32(t, ENCODING_PLAIN);
		thrift_elem_i32(t, ENCODING_RLE);
		thrift_list_begin(t, 3, THRIFT_BINARY, 1);
		thrift_elem_binary(t, col->name, strlen(col->name));
		thrift_i32(t, 4, (int32_t)codec);
		thrift_i64(t, 5, pq->nrows);
		thrift_i64(t, 6, chunks[i].uncompressed);
		thrift_i64(t, 7, chunks[i].compressed);
		thrift_i64(t, 9, chunks[i].offset);
		thrift_struct_end(t);
		thrift_struct_end(t);
		total += chunks[i].uncompressed;
	}
	thrift_i64(t, 2, total);
	thrift_i64(t, 3, pq->nrows);
	thrift_struct_end(t);
}

int
parquet_write(struct parquet *pq, int fd, const struct pq_kv *kv, size_t nkv,
    enum pq_codec codec)
{
	static const char magic[4] = "PAR1";
	static const char created_by[] = "jaxprof version " PACKAGE_VERSION;
	struct chunk *chunks = xcalloc(pq->ncols, sizeof *chunks);
	struct tbuf foot = { 0 };
	struct thrift t;
	int64_t offset = sizeof magic;
	size_t i;
	int rc = -1;

	if (pq->cell != 0)
		jp_errx(EXIT_TROUBLE, "parquet: a row left unfinished");
	if (pq->nrows > INT32_MAX) {
		errno = EFBIG;
		goto out;
	}
	if (write_full(fd, magic, sizeof magic) == -1)
		goto out;
	for (i = 0; pq->nrows > 0 && i < pq->ncols; i++)
		if (write_column(pq, i, fd, codec, &offset, &chunks[i]) == -1)
			goto out;
	thrift_init(&t, &foot);
	thrift_i32(&t, 1, 1);				/* version */
	footer_schema(pq, &t);
	thrift_i64(&t, 3, pq->nrows);
	footer_row_group(pq, &t, chunks, codec);
	thrift_list_begin(&t, 5, THRIFT_STRUCT, nkv);
	for (i = 0; i < nkv; i++) {
		thrift_elem_struct_begin(&t);
		thrift_binary(&t, 1, kv[i].key, strlen(kv[i].key));
		thrift_binary(&t, 2, kv[i].value, strlen(kv[i].value));
		thrift_struct_end(&t);
	}
	thrift_binary(&t, 6, created_by, sizeof created_by - 1);
	thrift_stop(&t);
	tbuf_le32(&foot, (uint32_t)foot.len);
	tbuf_put(&foot, magic, sizeof magic);
	rc = write_full(fd, foot.p, foot.len);
out:
	tbuf_free(&foot);
	free(chunks);
	return rc;
}

void
parquet_free(struct parquet *pq)
{
	size_t i;

	if (pq == NULL)
		return;
	for (i = 0; i < pq->ncols; i++) {
		tbuf_free(&pq->c[i].values);
		tbuf_free(&pq->c[i].levels);
	}
	free(pq->c);
	free(pq);
}
