/*
 * Time arithmetic, in one place (issue 12): times are int64 picoseconds.
 *
 * Every time a reader emits (an event's start and duration, a line's
 * start) lies in [0, PS_LIMIT]; readers reject a file with any other value
 * (jaxprof(1), IMPOSSIBLE TIMES), so a start plus a duration, or a
 * difference of two times, always fits.  What adds up many times (totals,
 * self times, busy time) uses ps_add(), which saturates at INT64_MAX instead
 * of wrapping; conversions from double go through ps_from_double().  They
 * are checked.h's saturating forms under the names time code reads.
 */
#ifndef JAXPROF_PTIME_H
#define JAXPROF_PTIME_H

#include <stdint.h>

#include "lib/checked.h"

/* 2^61 ps: about 26.7 days, a quarter of what int64 holds. */
#define PS_LIMIT	((int64_t)1 << 61)

/* Whether t is a time or duration a reader may emit. */
static inline int
ps_valid(int64_t t)
{
	return t >= 0 && t <= PS_LIMIT;
}

/* Time sums and differences saturate (checked.h). */
static inline int64_t ps_add(int64_t a, int64_t b) { return sat_add(a, b); }
static inline int64_t ps_sub(int64_t a, int64_t b) { return sat_sub(a, b); }
static inline int64_t ps_mul(int64_t a, int64_t b) { return sat_mul(a, b); }
static inline int64_t ps_abs(int64_t a) { return sat_abs(a); }
static inline int64_t ps_from_double(double v) { return sat_from_double(v); }

#endif
