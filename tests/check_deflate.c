/* deflate_parallel(): what it makes inflates back, whatever the size. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "check_suites.h"
#include "deflate-parallel.h"

/* Deflates in (n bytes) and checks uncompress() gives it back exactly. */
static void
assert_round_trip(const unsigned char *in, size_t n)
{
	size_t nz;
	unsigned char *z = deflate_parallel(in, n, &nz);
	unsigned char *back = malloc(n + 1);
	uLongf nback = (uLongf)n + 1;

	ck_assert_ptr_nonnull(z);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(uncompress(back, &nback, z, (uLong)nz), Z_OK);
	ck_assert_uint_eq(nback, n);
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
	static const size_t sizes[] = { 0, 1, 1000, DEFLATE_PARALLEL_MIN - 1,
	    DEFLATE_PARALLEL_MIN, DEFLATE_PARALLEL_MIN + 1, 3 << 20 };
	unsigned char *t = table_text(3 << 20);
	size_t i;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		assert_round_trip(t, sizes[i]);
	free(t);
}
END_TEST

/* Bytes that do not compress: the halves' output outgrows their input. */
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

/* The second half reaches back into the first (a repeat across it). */
START_TEST(test_match_across_the_split)
{
	size_t n = DEFLATE_PARALLEL_MIN * 2, i;
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
suite_deflate(void)
{
	Suite *s = suite_create("deflate");
	TCase *tc = tcase_create("deflate");

	tcase_add_test(tc, test_sizes_around_the_split);
	tcase_add_test(tc, test_incompressible);
	tcase_add_test(tc, test_match_across_the_split);
	suite_add_tcase(s, tc);
	return s;
}
