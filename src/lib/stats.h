/*
 * Descriptive statistics over a sample of durations (step times).
 *
 *	struct sample s;
 *	sample_init(&s); sample_add(&s, 10); sample_add(&s, 30);
 *	sample_sort(&s);
 *	sample_percentile(&s, 50);   (20: interpolated between ranks)
 *	sample_release(&s);
 */
#ifndef JAXPROF_STATS_H
#define JAXPROF_STATS_H

#include <stddef.h>
#include <stdint.h>

struct sample {
	int64_t	*v;
	size_t	 n;
	size_t	 cap;
	int	 sorted;
};

void	sample_init(struct sample *s);
void	sample_release(struct sample *s);
void	sample_add(struct sample *s, int64_t x);
void	sample_sort(struct sample *s);
/*
 * The pct-th percentile (0-100) of a sorted sample, interpolated linearly
 * between the closest ranks (numpy's default); 0 when empty.
 */
double	sample_percentile(const struct sample *s, double pct);
double	sample_mean(const struct sample *s);
/* Population standard deviation. */
double	sample_stddev(const struct sample *s);
/* Median absolute deviation from the median, unscaled. */
double	sample_mad(const struct sample *s);

#endif
