/*
 * JSON numbers to integers without going through double (json-number.c):
 * trace times in microseconds become exact picoseconds.
 *
 *	int64_t ps;
 *	if (!json_number_quick(s, n, 6, &ps)) ... json_number_parse() and
 *	    json_number_to_int(&d, 6, &ps, &exact) ...
 */
#ifndef JAXPROF_JSON_NUMBER_H
#define JAXPROF_JSON_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* A decimal number: mant * 10^exp, mant holding its first 19 digits. */
struct json_number {
	int		 neg;
	uint64_t	 mant;
	int		 ndigits;	/* significant digits in mant */
	long		 exp;
	int		 inexact;	/* non-zero digits dropped from mant */
};

/* Parses all of s[0..n) as a JSON number; -1 if it is not one. */
int	json_number_parse(const char *s, size_t n, struct json_number *d);
/*
 * d * 10^scale rounded to the nearest integer (halves away from zero);
 * -1 if that is beyond int64.  *exact says whether no rounding happened.
 */
int	json_number_to_int(const struct json_number *d, int scale,
	    int64_t *out, int *exact);
/* Whether s[0..n) is a plain integer, "-5" or "1234", that fits int64. */
int	json_plain_int(const char *s, size_t n, int64_t *out);

/* 10^0 .. 10^18: all the powers of ten an int64 holds. */
static const uint64_t json_pow10[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000, 100000000000, 1000000000000,
	10000000000000, 100000000000000, 1000000000000000,
	10000000000000000, 100000000000000000, 1000000000000000000,
};

/*
 * The common case of a number to an integer: s[0..n) is [-]digits[.digits]
 * with at most scale digits after the point and at most 18 digits in all
 * once scaled by 10^scale, so exact in int64 without rounding.  Returns 0
 * when it is not that case (the general way gives the same for it).  One
 * loop over the bytes: every event has four such numbers.
 */
static inline int
json_number_quick(const char *s, size_t n, int scale, int64_t *out)
{
	const char *p = s, *end = s + n, *digits;
	uint64_t v = 0, d;
	size_t nint, nfrac = 0;

	if (p < end && *p == '-')
		p++;
	/* More is over 18 digits and a point: not the case. */
	if (end - p > 19)
		return 0;
	for (digits = p; p < end && (d = (uint64_t)(unsigned char)*p - '0') < 10;
	    p++)
		v = v * 10 + d;
	nint = (size_t)(p - digits);
	if (p < end) {
		if (*p != '.')
			return 0;
		for (digits = ++p; p < end &&
		    (d = (uint64_t)(unsigned char)*p - '0') < 10; p++)
			v = v * 10 + d;
		if (p != end || (nfrac = (size_t)(p - digits)) == 0)
			return 0;
	}
	if (nint + nfrac == 0 || nfrac > (size_t)scale ||
	    nint + (size_t)scale > 18)
		return 0;
	v *= json_pow10[(size_t)scale - nfrac];
	*out = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return 1;
}

#endif
