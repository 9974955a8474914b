/*
 * Device peaks: the FLOP rates per precision and the memory bandwidth of
 * a device plane.  A device the table of published specifications knows
 * (by its name, else its compute capability, cores and memory) takes its
 * figures from there; any other takes what its plane's stats give, as
 * xprof derives them (jaxprof-top(1), PEAKS).
 *
 *	struct device_peak pk;
 *	if (device_peak_of(plane->stats, plane->nstats, &pk) == 0) ...
 *	pk.gflops[PREC_BF16], pk.gbps, pk.model ...
 */
#ifndef JAXPROF_DEVICE_PEAK_H
#define JAXPROF_DEVICE_PEAK_H

#include <stddef.h>

#include "model/precision.h"
#include "model/profile.h"

enum peak_source {
	PEAK_SPEC,	/* the table of published specifications */
	PEAK_PROFILE,	/* the plane's own stats */
};

struct device_peak {
	/* GFLOP/s (1e9 FLOP per second) per precision; 0: none published. */
	double		 gflops[PREC_N];
	double		 top_gflops;	/* the fastest; else the profile's */
	double		 gbps;		/* GB/s of device memory, 1e9 bytes */
	const char	*model;		/* "H200 SXM"; NULL: not in the table */
	enum peak_source source;
	/* What the plane's stats give, as xprof derives them; 0: none. */
	double		 profile_gflops, profile_gbps;
};

/* 0 with *out filled, or -1 when neither gives both peaks. */
int		 device_peak_of(const struct pf_stat *stats, size_t n,
		    struct device_peak *out);

#endif
