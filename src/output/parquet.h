/*
 * A Parquet file of one row group, written from the format's
 * specification (apache/parquet-format): flat columns, REQUIRED or
 * OPTIONAL, PLAIN values, definition levels in the RLE/bit-packed hybrid,
 * each column one data page, GZIP or uncompressed.  Rows are buffered
 * until parquet_write().
 *
 *	static const struct pq_col cols[] = {
 *		{ "name", PQ_STRING, 0 }, { "total_ps", PQ_INT64, 1 },
 *	};
 *	struct parquet *pq = parquet_new(cols, 2);
 *	parquet_str(pq, "fusion.1"); parquet_null(pq); parquet_end_row(pq);
 *	if (parquet_write(pq, fd, kv, nkv, PQ_GZIP) == -1) ... errno ...
 *	parquet_free(pq);
 */
#ifndef JAXPROF_PARQUET_H
#define JAXPROF_PARQUET_H

#include <stddef.h>
#include <stdint.h>

#include "output/thrift.h"

/* Parquet's physical types, by their numbers in parquet.thrift. */
enum pq_type {
	PQ_BOOLEAN = 0,
	PQ_INT64 = 2,
	PQ_DOUBLE = 5,
	PQ_STRING = 6,		/* BYTE_ARRAY, logical type STRING */
};

struct pq_col {
	const char	*name;
	enum pq_type	 type;
	int		 nullable;	/* OPTIONAL; else REQUIRED */
};

/* A key-value pair of the file's metadata. */
struct pq_kv {
	const char	*key;
	const char	*value;
};

enum pq_codec {
	PQ_UNCOMPRESSED = 0,
	PQ_GZIP = 2,
};

struct parquet;

struct parquet	*parquet_new(const struct pq_col *cols, size_t ncols);
/* The next cell of the row; a NULL in a REQUIRED column is an error. */
void		 parquet_null(struct parquet *pq);
void		 parquet_int(struct parquet *pq, int64_t v);
void		 parquet_double(struct parquet *pq, double v);
void		 parquet_bool(struct parquet *pq, int v);
void		 parquet_str(struct parquet *pq, const char *s, size_t len);
void		 parquet_end_row(struct parquet *pq);
/* The rows so far, as one file on fd: 0, or -1 with errno set. */
int		 parquet_write(struct parquet *pq, int fd,
		    const struct pq_kv *kv, size_t nkv, enum pq_codec codec);
void		 parquet_free(struct parquet *pq);

/*
 * n definition levels of bit width 1 (0 null, 1 a value) in the
 * RLE/bit-packed hybrid, without the length prefix: one RLE run when
 * all are alike, else bit-packed groups of 8.  For the tests.
 */
void		 parquet_levels(struct tbuf *b, const unsigned char *levels,
		    size_t n);

#endif
