/* Descriptive statistics for step times: percentiles, MAD, stddev. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "lib/xmalloc.h"

void
sample_init(struct sample *s)
{
	memset(s, 0, sizeof *s);
}

void
sample_release(struct sample *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

void
sample_add(struct sample *s, int64_t x)
{
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 16 : s->cap * 2;
		s->v = xreallocarray(s->v, s->cap, sizeof *s->v);
	}
	s->v[s->n++] = x;
	s->sorted = 0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Samples are mostly a device's few dozen steps, sorted thousands of times
 * per report: insertion sort there, where qsort()'s setup costs more
 * than the sort.  Numbers here are never NaN, so both sort alike.
 */
#define SORT_SMALL	32

static void
sort_i64(int64_t *v, size_t n)
{
	size_t i, j;

	if (n > SORT_SMALL) {
		qsort(v, n, sizeof *v, cmp_i64);
		return;
	}
	for (i = 1; i < n; i++) {
		int64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void
sort_double(double *v, size_t n)
{
	size_t i, j;

	if (n > SORT_SMALL) {
		qsort(v, n, sizeof *v, cmp_double);
		return;
	}
	for (i = 1; i < n; i++) {
		double x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

void
sample_sort(struct sample *s)
{
	sort_i64(s->v, s->n);
	s->sorted = 1;
}

static double
percentile_of(const double *v, size_t n, double pct)
{
	double rank, frac;
	size_t lo;

	if (n == 0)
		return 0;
	rank = pct / 100.0 * (double)(n - 1);
	lo = (size_t)rank;
	if (lo + 1 >= n)
		return v[n - 1];
	frac = rank - (double)lo;
	return v[lo] + (v[lo + 1] - v[lo]) * frac;
}


double
sample_percentile(const struct sample *s, double pct)
{
	double *v = xcalloc(s->n + 1, sizeof *v), r;
	size_t i;

	for (i = 0; i < s->n; i++)
		v[i] = (double)s->v[i];
	if (!s->sorted)
		sort_double(v, s->n);
	r = percentile_of(v, s->n, pct);
	free(v);
	return r;
}

double
sample_mean(const struct sample *s)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		sum += (double)s->v[i];
	return s->n > 0 ? sum / (double)s->n : 0;
}

double
sample_stddev(const struct sample *s)
{
	double mean = sample_mean(s), sum = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		sum += ((double)s->v[i] - mean) * ((double)s->v[i] - mean);
	return s->n > 0 ? sqrt(sum / (double)s->n) : 0;
}

double
sample_mad(const struct sample *s)
{
	double median = sample_percentile(s, 50), r;
	double *dev = xcalloc(s->n + 1, sizeof *dev);
	size_t i;

	for (i = 0; i < s->n; i++)
		dev[i] = fabs((double)s->v[i] - median);
	sort_double(dev, s->n);
	r = percentile_of(dev, s->n, 50);
	free(dev);
	return r;
}
