/* Numbers as people read them (units.c), the same in every output format. */
#ifndef JAXPROF_UNITS_H
#define JAXPROF_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Number formatting that ignores the locale: v with `decimals` decimals
 * into buf (at least 64 bytes).
 */
void		 fmt_fixed(char *buf, size_t size, double v, int decimals);
/* Human duration of ps: "850 ns", "12.345 us", "1.234 ms", "2.500 s". */
void		 fmt_duration(char *buf, size_t size, int64_t ps);
/* fmt_duration()'s text, its length returned. */
size_t		 fmt_duration_len(char *buf, size_t size, int64_t ps);
/* ps / div with `decimals` decimals, locale-free ("12.345" us for div 1e6). */
void		 fmt_ps_fixed(char *buf, size_t size, double ps, int64_t div,
		    int decimals);
/* Human bytes: "512 B", "1.50 KiB", "5.42 GiB". */
void		 fmt_bytes(char *buf, size_t size, int64_t b);
/*
 * SI-prefixed v of unit for a person at a terminal: "1.37 TFLOP",
 * "3.36 GB", "249.2 TFLOP/s"; below 1000 as it is ("512 B").
 */
void		 fmt_si(char *buf, size_t size, double v, const char *unit);
/* "16G", "512M", "100K", "1000": bytes (K = 1024); -1 if not a size. */
int64_t		 parse_size(const char *arg);
/*
 * A rate (GB/s, GFLOP/s) over count occurrences taking total_ps in all is
 * shown only when they took RATE_MIN_PS (1 us) each on average: below
 * that, a duration is an issue or launch stamp (copy-start), not the time
 * the work took, and the quotient means nothing.
 */
#define RATE_MIN_PS	1000000
int		 rate_meaningful(double total_ps, double count);

#endif
