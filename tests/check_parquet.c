/*
 * The Parquet writer's encodings byte for byte, as the specifications
 * give them: Thrift's compact protocol (field deltas and long ids,
 * zigzag varints, lists, nested structs, booleans in the header), the
 * RLE/bit-packed hybrid of definition levels, PLAIN values in a page.
 * Whether readers agree is t0820's.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_suites.h"
#include "output/parquet.h"
#include "output/thrift.h"

static void
expect_bytes(const struct tbuf *b, const unsigned char *want, size_t n)
{
	size_t i;

	ck_assert_uint_eq(b->len, n);
	for (i = 0; i < n; i++)
		ck_assert_msg(b->p[i] == want[i], "byte %zu: 0x%02x, not 0x%02x",
		    i, b->p[i], want[i]);
}

START_TEST(test_thrift_compact)
{
	static const unsigned char want[] = {
		0x15, 0x02,			/* 1: i32 1 */
		0x19, 0x25, 0x00, 0x06,		/* 2: list<i32> [0, 3] */
		0x28, 0x02, 'a', 'b',		/* 4: binary "ab" */
		0x6c, 0x1c, 0x00, 0x00,		/* 10: { 1: {} } */
		0x06, 0x3c, 0x01,		/* 30 (delta 20): i64 -1 */
		0x11,				/* 31: true */
		0x12,				/* 32: false */
		0x16, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0x01,	/* 33: i64 INT64_MIN */
		0x19, 0xf8, 0x14,		/* 34: list<binary> of 20 */
	};
	struct tbuf b = { 0 };
	struct thrift t;
	int i;

	thrift_init(&t, &b);
	thrift_i32(&t, 1, 1);
	thrift_list_begin(&t, 2, THRIFT_I32, 2);
	thrift_elem_i32(&t, 0);
	thrift_elem_i32(&t, 3);
	thrift_binary(&t, 4, "ab", 2);
	thrift_struct_begin(&t, 10);
	thrift_struct_begin(&t, 1);
	thrift_struct_end(&t);
	thrift_struct_end(&t);
	thrift_i64(&t, 30, -1);
	thrift_bool(&t, 31, 1);
	thrift_bool(&t, 32, 0);
	thrift_i64(&t, 33, INT64_MIN);
	thrift_list_begin(&t, 34, THRIFT_BINARY, 20);
	expect_bytes(&b, want, sizeof want);
	/* The list's elements, then the stop byte. */
	for (i = 0; i < 20; i++)
		thrift_elem_binary(&t, "", 0);
	thrift_stop(&t);
	ck_assert_uint_eq(b.len, sizeof want + 21);
	ck_assert_uint_eq(b.p[b.len - 1], 0);
	tbuf_free(&b);
}
END_TEST

START_TEST(test_levels_rle)
{
	static const unsigned char ones[5] = { 1, 1, 1, 1, 1 };
	static const unsigned char nulls[300] = { 0 };
	static const unsigned char want_ones[] = { 0x0a, 0x01 };
	static const unsigned char want_nulls[] = { 0xd8, 0x04, 0x00 };
	static const unsigned char want_none[] = { 0x00, 0x00 };
	struct tbuf b = { 0 };

	parquet_levels(&b, ones, 5);
	expect_bytes(&b, want_ones, sizeof want_ones);
	b.len = 0;
	/* A run of 300: its length as a two-byte varint. */
	parquet_levels(&b, nulls, 300);
	expect_bytes(&b, want_nulls, sizeof want_nulls);
	b.len = 0;
	parquet_levels(&b, ones, 0);
	expect_bytes(&b, want_none, sizeof want_none);
	tbuf_free(&b);
}
END_TEST

START_TEST(test_levels_bit_packed)
{
	static const unsigned char levels[9] = { 1, 0, 1, 1, 0, 0, 0, 0, 1 };
	/* Two groups of 8, the first level in the lowest bit. */
	static const unsigned char want[] = { 0x05, 0x0d, 0x01 };
	struct tbuf b = { 0 };

	parquet_levels(&b, levels, 9);
	expect_bytes(&b, want, sizeof want);
	tbuf_free(&b);
}
END_TEST

/* The bytes of the file pq writes, uncompressed. */
static unsigned char *
written(struct parquet *pq, size_t *len)
{
	static const struct pq_kv kv[] = { { "k", "v" } };
	char *dir = test_mkdtemp(), *path;
	unsigned char *data;
	int fd;

	path = malloc(strlen(dir) + 16);
	ck_assert_ptr_nonnull(path);
	strcpy(path, dir);
	strcat(path, "/t.parquet");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(parquet_write(pq, fd, kv, 1, PQ_UNCOMPRESSED), 0);
	ck_assert_int_eq(close(fd), 0);
	data = (unsigned char *)test_slurp(path, len);
	test_rmtree(dir);
	free(path);
	free(dir);
	return data;
}

static void
expect_inside(const unsigned char *data, size_t len, const void *want,
    size_t n, const char *what)
{
	ck_assert_msg(memmem(data, len, want, n) != NULL, "no %s", what);
}

START_TEST(test_file_pages)
{
	static const struct pq_col cols[] = {
		{ "i", PQ_INT64, 0 }, { "s", PQ_STRING, 1 },
		{ "b", PQ_BOOLEAN, 0 }, { "d", PQ_DOUBLE, 1 },
	};
	static const unsigned char ints[] = {
		0, 0, 0, 0, 0, 0, 0, 0x80,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
	};
	/* Levels (length, bit-packed 1 0 1), then "é" and "". */
	static const unsigned char strs[] = {
		2, 0, 0, 0, 0x03, 0x05,
		2, 0, 0, 0, 0xc3, 0xa9, 0, 0, 0, 0,
	};
	/* Levels: all three null, one RLE run; no values. */
	static const unsigned char doubles[] = { 2, 0, 0, 0, 0x06, 0x00 };
	/* A page header's last field and stops, then the bits 1 0 1. */
	static const unsigned char bools[] = { 0x15, 0x06, 0, 0, 0x05 };
	struct parquet *pq = parquet_new(cols, 4);
	unsigned char *data;
	uint32_t footer;
	size_t len;

	parquet_int(pq, INT64_MIN);
	parquet_str(pq, "\xc3\xa9", 2);
	parquet_bool(pq, 1);
	parquet_null(pq);
	parquet_end_row(pq);
	parquet_int(pq, -1);
	parquet_null(pq);
	parquet_bool(pq, 0);
	parquet_null(pq);
	parquet_end_row(pq);
	parquet_int(pq, INT64_MAX);
	parquet_str(pq, "", 0);
	parquet_bool(pq, 1);
	parquet_null(pq);
	parquet_end_row(pq);
	data = written(pq, &len);
	parquet_free(pq);
	ck_assert_uint_gt(len, 12);
	ck_assert(memcmp(data, "PAR1", 4) == 0);
	ck_assert(memcmp(data + len - 4, "PAR1", 4) == 0);
	footer = (uint32_t)data[len - 8] | (uint32_t)data[len - 7] << 8 |
	    (uint32_t)data[len - 6] << 16 | (uint32_t)data[len - 5] << 24;
	ck_assert_uint_lt(footer, len - 12);
	/* FileMetaData ends with its stop byte. */
	ck_assert_uint_eq(data[len - 9], 0);
	expect_inside(data, len, ints, sizeof ints, "INT64 values");
	expect_inside(data, len, strs, sizeof strs, "STRING levels and values");
	expect_inside(data, len, doubles, sizeof doubles, "DOUBLE levels");
	expect_inside(data, len, bools, sizeof bools, "BOOLEAN bits");
	expect_inside(data + len - 8 - footer, footer, "\x18\x01k\x18\x01v", 6,
	    "key-value metadata");
	free(data);
}
END_TEST

Suite *
suite_parquet(void)
{
	Suite *s = suite_create("parquet");
	TCase *tc = tcase_create("parquet");

	tcase_add_test(tc, test_thrift_compact);
	tcase_add_test(tc, test_levels_rle);
	tcase_add_test(tc, test_levels_bit_packed);
	tcase_add_test(tc, test_file_pages);
	suite_add_tcase(s, tc);
	return s;
}
