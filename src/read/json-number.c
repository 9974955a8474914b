/* JSON numbers to integers without going through double (json-number.h). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "read/json-number.h"

static void
add_digit(struct json_number *d, int v, int frac)
{
	if (d->mant == 0 && v == 0) {
		if (frac)
			d->exp--;
		return;
	}
	if (d->ndigits < 19) {
		d->mant = d->mant * 10 + (uint64_t)v;
		d->ndigits++;
		if (frac)
			d->exp--;
		return;
	}
	if (!frac)
		d->exp++;
	if (v != 0)
		d->inexact = 1;
}

/* Parses all of s[0..n) as a JSON number; -1 if it is not one. */
int
json_number_parse(const char *s, size_t n, struct json_number *d)
{
	size_t i = 0;
	long e = 0;
	int digits = 0, eneg = 0;

	memset(d, 0, sizeof *d);
	if (i < n && s[i] == '-') {
		d->neg = 1;
		i++;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		add_digit(d, s[i] - '0', 0);
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
			add_digit(d, s[i] - '0', 1);
	if (digits == 0)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		if (i == n || s[i] < '0' || s[i] > '9')
			return -1;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 1000000)
				e = e * 10 + (s[i] - '0');
		d->exp += eneg ? -e : e;
	}
	return i == n ? 0 : -1;
}

/*
 * d * 10^scale rounded to the nearest integer (halves away from zero);
 * -1 if that is beyond int64.  *exact says whether no rounding happened.
 */
int
json_number_to_int(const struct json_number *d, int scale, int64_t *out, int *exact)
{
	uint64_t q = d->mant, r, p = 1;
	long e = d->exp + scale, i;

	*exact = !d->inexact;
	*out = 0;
	if (q == 0)
		return 0;
	if (e > 0) {
		for (i = 0; i < e; i++) {
			if (q > UINT64_MAX / 10)
				return -1;
			q *= 10;
		}
	} else if (e < -19) {
		/* mant < 10^19, so the value is below 0.1. */
		*exact = 0;
		return 0;
	} else if (e < 0) {
		for (i = 0; i < -e; i++)
			p *= 10;
		r = q % p;
		q /= p;
		if (r != 0)
			*exact = 0;
		if (r >= p - r)
			q++;
	}
	if (q > (uint64_t)INT64_MAX + (uint64_t)d->neg)
		return -1;
	if (q != 0)
		*out = d->neg ? -(int64_t)(q - 1) - 1 : (int64_t)q;
	return 0;
}

/* Whether s[0..n) is a plain integer, "-5" or "1234", that fits int64. */
int
json_plain_int(const char *s, size_t n, int64_t *out)
{
	struct json_number d;
	uint64_t v = 0;		/* exact up to 18 digits */
	size_t i, neg;
	unsigned digit;
	int exact;

	if (n == 0)
		return 0;
	i = neg = s[0] == '-';
	if (n == i || n - i > 20 || (s[i] == '0' && n - i > 1))
		return 0;
	for (; i < n; i++) {
		if ((digit = (unsigned char)s[i] - '0') >= 10)
			return 0;
		v = v * 10 + digit;
	}
	if (n - neg <= 18) {
		*out = neg ? -(int64_t)v : (int64_t)v;
		return 1;
	}
	return json_number_parse(s, n, &d) == 0 &&
	    json_number_to_int(&d, 0, out, &exact) == 0 && exact;
}
