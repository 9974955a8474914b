/*
 * Kernel stats: a GPU kernel's launch configuration from its
 * kernel_details stat ("regs:168 static_shared:0 dynamic_shared:231424
 * grid:128,1,1 block:384,1,1 occ_pct:18.75"), and whether it runs on the
 * tensor cores, as xprof's kernel stats read them.
 */
#ifndef JAXPROF_KERNEL_STATS_H
#define JAXPROF_KERNEL_STATS_H

#include <stdint.h>

struct kernel_launch {
	int64_t		 regs;		/* registers per thread */
	int64_t		 shared;	/* static + dynamic shared memory */
	int64_t		 block[3], grid[3];	/* 1,1,1 when not said */
	double		 occ_pct;	/* theoretical occupancy */
};

/* Fills *out from the kernel_details text s (NUL-terminated). */
void		 kernel_launch_parse(const char *s, struct kernel_launch *out);
/*
 * Whether a kernel uses the tensor cores (AMD's matrix cores too), by its
 * name, and on AMD (a ".kd" code object) by the category of the HLO op it
 * runs (NULL: none): XLA's own gemm fusions and convolutions run MFMA or
 * WMMA instructions there.
 */
int		 kernel_uses_tensor_core(const char *name, const char *category);

#endif
