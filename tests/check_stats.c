/* Percentiles and MAD against a plain reference, on both sides of the
 * size where sorting switches from insertion sort to qsort(). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check_suites.h"
#include "lib/stats.h"

static int
cmp_ref(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* numpy's linear percentile of the n doubles in v, sorted here. */
static double
ref_percentile(double *v, size_t n, double pct)
{
	double rank;
	size_t lo;

	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_ref);
	rank = pct / 100.0 * (double)(n - 1);
	lo = (size_t)floor(rank);
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (rank - (double)lo);
}

START_TEST(test_against_reference)
{
	static const double pcts[] = { 0, 10, 50, 90, 100 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	size_t n, i, k;

	for (n = 0; n <= 80; n++) {
		struct sample s;
		double v[80], dev[80], median;

		sample_init(&s);
		for (i = 0; i < n; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			/* Few distinct values: ties, as steps of equal length. */
			sample_add(&s, (int64_t)(x >> 58) * 1000 - 20000);
		}
		for (k = 0; k < sizeof pcts / sizeof pcts[0]; k++) {
			for (i = 0; i < n; i++)
				v[i] = (double)s.v[i];
			ck_assert(sample_percentile(&s, pcts[k]) ==
			    ref_percentile(v, n, pcts[k]));
		}
		for (i = 0; i < n; i++)
			v[i] = (double)s.v[i];
		median = ref_percentile(v, n, 50);
		for (i = 0; i < n; i++)
			dev[i] = fabs((double)s.v[i] - median);
		ck_assert(sample_mad(&s) == ref_percentile(dev, n, 50));
		sample_sort(&s);
		for (i = 1; i < n; i++)
			ck_assert(s.v[i - 1] <= s.v[i]);
		for (i = 0; i < n; i++)
			ck_assert(s.v[i] == (int64_t)v[i]);	/* v: sorted */
		sample_release(&s);
	}
}
END_TEST

Suite *
suite_stats(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");

	tcase_add_test(tc, test_against_reference);
	suite_add_tcase(s, tc);
	return s;
}
