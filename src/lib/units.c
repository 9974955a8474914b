/* Numbers as people read them: durations, bytes, rates; sizes parsed. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ptime.h"
#include "lib/units.h"

void
fmt_fixed(char *buf, size_t size, double v, int decimals)
{
	char *p;

	if (!isfinite(v)) {
		snprintf(buf, size, "%s", "0");
		return;
	}
	snprintf(buf, size, "%.*f", decimals, v);
	/* A locale that writes ',' as the decimal point must not leak out. */
	for (p = buf; *p != '\0'; p++)
		if (*p == ',')
			*p = '.';
	if (strcmp(buf, "-0") == 0 || strncmp(buf, "-0.", 3) == 0) {
		for (p = buf + 1; *p == '0' || *p == '.'; p++)
			;
		if (*p == '\0')
			memmove(buf, buf + 1, strlen(buf));
	}
}

/*
 * The decimal digits of v, at least min of them (leading zeros), written
 * to end before end, two at a time; returns the first.
 */
static char *
digits_before(char *end, uint64_t v, size_t min)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930"
	    "31323334353637383940414243444546474849505152535455565758596061"
	    "62636465666768697071727374757677787980818283848586878889909192"
	    "93949596979899";
	char *p = end;

	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else
		*--p = (char)('0' + v);
	while ((size_t)(end - p) < min)
		*--p = '0';
	return p;
}

/*
 * Writes a / unit rounded to a whole number q and shown with q's last
 * `decimals` digits after the point: as printf("%.3f") prints (double)a /
 * 1e9 when unit is 1e6 and decimals 3, but without printf, which reports
 * call hundreds of thousands of times.  Returns the length, or 0 when
 * the double's rounding could differ (a tie, or |a| past 2^50, where the
 * quotient's error nears the distance to a tie): the caller uses printf
 * then.
 */
static inline __attribute__((always_inline)) size_t
fmt_ratio(char *buf, size_t size, int64_t a, int64_t unit, size_t decimals)
{
	static const int64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	};
	char digits[48], *end = digits + sizeof digits, *p = end;
	int64_t m, q, rem;
	size_t len;

	if (a >= ((int64_t)1 << 50) || a <= -((int64_t)1 << 50) || unit < 2 ||
	    decimals >= sizeof pow10 / sizeof pow10[0])
		return 0;
	m = a < 0 ? -a : a;
	q = m / unit;
	rem = m % unit;
	if (2 * rem == unit)
		return 0;
	q += 2 * rem > unit;
	if (decimals > 0) {
		p = digits_before(p, (uint64_t)(q % pow10[decimals]), decimals);
		*--p = '.';
	}
	p = digits_before(p, (uint64_t)(q / pow10[decimals]), 1);
	if (a < 0 && q > 0)	/* printf's "-0.000" is shown as 0 */
		*--p = '-';
	len = (size_t)(end - p);
	if (len + 1 > size)
		return 0;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return len;
}

/*
 * fmt_fixed(buf, size, ps / div, decimals) for a whole ps and div a power
 * of ten of at least 10^decimals, through fmt_ratio() where it can;
 * returns the length.
 */
static inline __attribute__((always_inline)) size_t
fmt_whole_ps(char *buf, size_t size, int64_t ps, int64_t div, int decimals)
{
	int64_t unit = div;
	size_t len;
	int i;

	for (i = 0; i < decimals; i++)
		unit /= 10;
	if ((len = fmt_ratio(buf, size, ps, unit, (size_t)decimals)) > 0)
		return len;
	fmt_fixed(buf, size, (double)ps / (double)div, decimals);
	return strlen(buf);
}

/* The same for any ps: fmt_whole_ps() when ps is whole. */
void
fmt_ps_fixed(char *buf, size_t size, double ps, int64_t div, int decimals)
{
	if (ps == floor(ps) && fabs(ps) < 0x1p62)
		(void)fmt_whole_ps(buf, size, (int64_t)ps, div, decimals);
	else
		fmt_fixed(buf, size, ps / (double)div, decimals);
}

int64_t
parse_size(const char *arg)
{
	static const struct {
		char		 suffix;
		int64_t		 mult;
	} units[] = {
		{ '\0', 1 }, { 'K', 1 << 10 }, { 'M', 1 << 20 },
		{ 'G', (int64_t)1 << 30 }, { 'T', (int64_t)1 << 40 },
	};
	unsigned long long v;
	char *end;
	size_t i;

	if (*arg < '0' || *arg > '9')
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno != 0)
		return -1;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		char c = units[i].suffix;

		if (!(end[0] == c || (c != '\0' && end[0] == c + 'a' - 'A')))
			continue;
		if (c != '\0' && end[1] != '\0' &&
		    !(end[1] == 'B' && end[2] == '\0'))
			return -1;
		if (v > (unsigned long long)(INT64_MAX / units[i].mult))
			return -1;
		return (int64_t)v * units[i].mult;
	}
	return -1;
}

/*
 * fmt_duration(), returning the length.  Each unit's call has constant
 * divisors, which the compiler turns into multiplications: a table of
 * steps formats a duration per cell.
 */
size_t
fmt_duration_len(char *buf, size_t size, int64_t ps)
{
	int64_t a = ps_abs(ps);
	const char *name;
	size_t len, namelen;

	if (a >= 1000000000LL && a < 1000000000000LL) {
		len = fmt_whole_ps(buf, size, ps, 1000000000LL, 3);
		name = " ms";
	} else if (a >= 1000000LL && a < 1000000000LL) {
		len = fmt_whole_ps(buf, size, ps, 1000000LL, 3);
		name = " us";
	} else if (a < 1000000LL) {
		len = fmt_whole_ps(buf, size, ps, 1000LL, 0);
		name = " ns";
	} else {
		len = fmt_whole_ps(buf, size, ps, 1000000000000LL, 3);
		name = " s";
	}
	namelen = strlen(name);
	if (len + namelen < size) {
		memcpy(buf + len, name, namelen + 1);
		len += namelen;
	}
	return len;
}

void
fmt_duration(char *buf, size_t size, int64_t ps)
{
	(void)fmt_duration_len(buf, size, ps);
}

void
fmt_bytes(char *buf, size_t size, int64_t b)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	char num[40];
	int i = -1;

	while (fabs(v) >= 1024 && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0) {
		snprintf(buf, size, "%lld B", (long long)b);
		return;
	}
	fmt_fixed(num, sizeof num, v, 2);
	snprintf(buf, size, "%s %s", num, units[i]);
}

void
fmt_si(char *buf, size_t size, double v, const char *unit)
{
	static const char prefixes[] = "kMGTPE";
	char num[40];
	int i = -1;

	while (fabs(v) >= 999.95 && i < 5) {
		v /= 1000;
		i++;
	}
	if (i < 0)
		fmt_fixed(num, sizeof num, v, v == floor(v) ? 0 : 2);
	else
		fmt_fixed(num, sizeof num, v, fabs(v) < 99.995 ? 2 : 1);
	if (i < 0)
		snprintf(buf, size, "%s %s", num, unit);
	else
		snprintf(buf, size, "%s %c%s", num, prefixes[i], unit);
}

int
rate_meaningful(double total_ps, double count)
{
	return count > 0 && total_ps >= count * RATE_MIN_PS;
}
