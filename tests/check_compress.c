/* compress_parallel(): what it makes decompresses back, whatever the size. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "check_suites.h"
#include "compress-parallel.h"

/*
 * Compresses in (n bytes) and checks ZSTD_decompress() gives it back
 * exactly, from as many frames as halves.
 */
static void
assert_round_trip(const unsigned char *in, size_t n)
{
	size_t nz;
	unsigned char *z = compress_parallel(in, n, &nz);
	unsigned char *back = malloc(n + 1);
	size_t nback;

	ck_assert_ptr_nonnull(z);
	ck_assert_ptr_nonnull(back);
	nback = ZSTD_decompress(back, n + 1, z, nz);
	ck_assert(!ZSTD_isError(nback));
	ck_assert_uint_eq(nback, n);
	ck_assert_uint_eq(ZSTD_findFrameCompressedSize(z, nz) < nz,
	    n >= COMPRESS_PARALLEL_MIN);
	ck_assert(n == 0 || memcmp(back, in, n) == 0);
	free(back);
	free(z);
}

/* A report table's text: rows alike but for their numbers. */
static unsigned char *
table_text(size_t n)
{
	unsigned char *t = malloc(n);
	size_t i;

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < n; i++)
		t[i] = (unsigned char)(i % 97 == 96 ? '\n' :
		    i % 13 < 6 ? ' ' : '0' + (i * 7919 / 13) % 10);
	return t;
}

START_TEST(test_sizes_around_the_split)
{
	static const size_t sizes[] = { 0, 1, 1000, COMPRESS_PARALLEL_MIN - 1,
	    COMPRESS_PARALLEL_MIN, COMPRESS_PARALLEL_MIN + 1, 3 << 20 };
	unsigned char *t = table_text(3 << 20);
	size_t i;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		assert_round_trip(t, sizes[i]);
	free(t);
}
END_TEST

/* Bytes that do not compress: the frames outgrow their input. */
START_TEST(test_incompressible)
{
	size_t n = (size_t)1 << 20, i;
	unsigned char *r = malloc(n);
	uint64_t x = 88172645463325252ULL;

	ck_assert_ptr_nonnull(r);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r[i] = (unsigned char)x;
	}
	assert_round_trip(r, n);
	free(r);
}
END_TEST

/* A repeat across the split: each half is whole without the other. */
START_TEST(test_repeat_across_the_split)
{
	size_t n = COMPRESS_PARALLEL_MIN * 2, i;
	unsigned char *t = malloc(n);

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < n; i++)
		t[i] = (unsigned char)((i * 2654435761u) >> 13);
	memcpy(t + n / 2 - 1000, t + n / 2 - 9000, 2000);
	assert_round_trip(t, n);
	free(t);
}
END_TEST

Suite *
suite_compress(void)
{
	Suite *s = suite_create("compress");
	TCase *tc = tcase_create("compress");

	tcase_add_test(tc, test_sizes_around_the_split);
	tcase_add_test(tc, test_incompressible);
	tcase_add_test(tc, test_repeat_across_the_split);
	suite_add_tcase(s, tc);
	return s;
}
