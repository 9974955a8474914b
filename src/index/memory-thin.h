/*
 * A memory timeline thinned to a bounded number of points without losing
 * a peak: of each window of consecutive samples, the one of most bytes in
 * use (xprof's max box filter), the windows as even as n allows.
 */
#ifndef JAXPROF_MEMORY_THIN_H
#define JAXPROF_MEMORY_THIN_H

#include <stddef.h>
#include <stdint.h>

/* The points xprof's memory timeline keeps, and the index stores. */
#define MEMORY_POINTS	1000

/*
 * Of the n values used[0..n-1], at most points indices (ascending) into
 * pick; returns how many.
 */
size_t	memory_thin(const int64_t *used, size_t n, size_t points,
	    size_t *pick);

#endif
