/*
 * Arithmetic on numbers that come from input: profiles, baselines, rules
 * files (issue 41).  Signed overflow is undefined behaviour and a cast of
 * an out-of-range double to an integer is too, so a hostile value must
 * never reach a bare `+`, `*` or cast.  Readers bound what they accept
 * (ps_valid() in ptime.h for times, bytes_valid() here for byte counts);
 * what adds up many accepted values saturates, or, where a wrong total
 * would mislead, refuses through the checked_* forms.
 */
#ifndef JAXPROF_CHECKED_H
#define JAXPROF_CHECKED_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * 2^53 bytes (8 PiB): beyond any device's memory, and every smaller count
 * is exact as a double, which is how rates and shares are computed.
 */
#define BYTES_LIMIT	((int64_t)1 << 53)

/* Whether v is a byte count a reader may accept. */
static inline bool
bytes_valid(int64_t v)
{
	return v >= 0 && v <= BYTES_LIMIT;
}

/* a + b, saturated to [INT64_MIN, INT64_MAX]. */
static inline int64_t
sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a - b, saturated. */
static inline int64_t
sat_sub(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a * b, saturated. */
static inline int64_t
sat_mul(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) == (b < 0) ? INT64_MAX : INT64_MIN;
	return r;
}

/* |a|, with |INT64_MIN| saturated to INT64_MAX. */
static inline int64_t
sat_abs(int64_t a)
{
	return a >= 0 ? a : a == INT64_MIN ? INT64_MAX : -a;
}

/* A double rounded toward zero, saturated; NaN is 0. */
static inline int64_t
sat_from_double(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

/*
 * FLOP and byte counts of ops are unsigned but kept in SQLite's int64:
 * each is in [0, COST_LIMIT], and sums saturate there.
 */
#define COST_LIMIT	((uint64_t)INT64_MAX)

static inline uint64_t
cost_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	if (__builtin_add_overflow(a, b, &r) || r > COST_LIMIT)
		return COST_LIMIT;
	return r;
}

/* A cost computed as a double: NaN and negative are 0, too large the limit. */
static inline uint64_t
cost_from_double(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= 9223372036854775807.0)
		return COST_LIMIT;
	return (uint64_t)v;
}

/*
 * *sum += v for a byte count: false, leaving *sum, when the total would
 * pass BYTES_LIMIT (the input is damaged: refuse it, naming what).
 */
static inline bool
checked_bytes_add(int64_t *sum, int64_t v)
{
	int64_t r;

	if (!bytes_valid(v) || __builtin_add_overflow(*sum, v, &r) ||
	    !bytes_valid(r))
		return false;
	*sum = r;
	return true;
}

#endif
