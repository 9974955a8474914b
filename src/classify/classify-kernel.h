/*
 * A device's kernels (classify-kernel.c): their ops and launches, CUDA-graph
 * kernels matched to HLO instructions, runs of a module's kernels.
 */
#ifndef JAXPROF_CLASSIFY_KERNEL_H
#define JAXPROF_CLASSIFY_KERNEL_H

#include "classify/classify-int.h"

/*
 * Kernel busy time, of a device plane only measured without an "XLA Ops"
 * line: once that line is seen it is not kept (memory for nothing).
 */
void	kernels_add_busy(struct classify *c, enum busy_class k, int64_t start,
	    int64_t end);
/* Ends the module execution a run of kernels makes, if one is open. */
void	kernels_close_run(struct classify *c);
/* Completes the kernel occurrence still waiting for its graph's next. */
void	kernels_flush_pending(struct classify *c);
/* The last occurrences of the plane's kernel ops, complete now. */
void	kernels_end_plane(struct classify *c);
void	kernels_on_event(struct classify *c, const struct pf_event *ev,
	    int64_t start, int64_t dur);

#endif
