/*
 * Time arithmetic, in one place (issue 12): times are int64 picoseconds.
 *
 * Every time a reader emits (an event's start and duration, a line's
 * start) lies in [0, PS_LIMIT]; readers reject a file with any other value
 * (jaxprof(1), IMPOSSIBLE TIMES), so a start plus a duration, or a
 * difference of two times, always fits.  What adds up many times (totals,
 * self times, busy time) uses ps_add(), which saturates at INT64_MAX instead
 * of wrapping; conversions from double go through ps_from_double().
 */
#ifndef JAXPROF_PTIME_H
#define JAXPROF_PTIME_H

#include <math.h>
#include <stdint.h>

/* 2^61 ps: about 26.7 days, a quarter of what int64 holds. */
#define PS_LIMIT	((int64_t)1 << 61)

/* Whether t is a time or duration a reader may emit. */
static inline int
ps_valid(int64_t t)
{
	return t >= 0 && t <= PS_LIMIT;
}

/* a + b, saturated to [INT64_MIN, INT64_MAX]. */
static inline int64_t
ps_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a - b, saturated. */
static inline int64_t
ps_sub(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a * b, saturated. */
static inline int64_t
ps_mul(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) == (b < 0) ? INT64_MAX : INT64_MIN;
	return r;
}

/* |a|, with |INT64_MIN| saturated to INT64_MAX. */
static inline int64_t
ps_abs(int64_t a)
{
	return a >= 0 ? a : a == INT64_MIN ? INT64_MAX : -a;
}

/* A double rounded toward zero, saturated; NaN is 0. */
static inline int64_t
ps_from_double(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

#endif
