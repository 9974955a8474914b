/* A memory timeline thinned (memory-thin.h). */
#include "config.h"

#include "index/memory-thin.h"

size_t
memory_thin(const int64_t *used, size_t n, size_t points, size_t *pick)
{
	size_t i, j, start = 0, width, wide;

	if (n <= points) {
		for (i = 0; i < n; i++)
			pick[i] = i;
		return n;
	}
	width = n / points;
	/* The last n % points windows are one wider. */
	wide = n % points;
	for (i = 0; i < points; i++) {
		size_t w = width + (i >= points - wide ? 1 : 0), best = start;

		for (j = start + 1; j < start + w; j++)
			if (used[j] > used[best])
				best = j;
		pick[i] = best;
		start += w;
	}
	return points;
}
