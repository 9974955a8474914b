/*
 * Device peaks: the FLOP rate and memory bandwidth of a device plane, from
 * its stats as xprof derives them (jaxprof-top(1), COST RULES).
 *
 *	struct device_peak pk;
 *	if (device_peak_of(plane->stats, plane->nstats, &pk) == 0) ...
 */
#ifndef JAXPROF_DEVICE_PEAK_H
#define JAXPROF_DEVICE_PEAK_H

#include <stddef.h>

#include "model/profile.h"

struct device_peak {
	double		 gflops;	/* GFLOP/s, 1e9 FLOP per second */
	double		 gbps;		/* GB/s of device memory, 1e9 bytes */
};

/* 0 with *out filled, or -1 when the stats do not give both peaks. */
int		 device_peak_of(const struct pf_stat *stats, size_t n,
		    struct device_peak *out);

#endif
