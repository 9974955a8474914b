/* An allocator's events, below the host layer (classify-memory.c). */
#ifndef JAXPROF_CLASSIFY_MEMORY_H
#define JAXPROF_CLASSIFY_MEMORY_H

#include "classify/classify-int.h"


/* Keeps ev if it is a MemoryAllocation or MemoryDeallocation. */
void		memory_event(struct classify *c, const struct pf_event *ev,
		    int64_t start);
/* The plane's memory records' string ids through map (absorbing). */
void		memory_remap(struct plane_summary *p, const uint32_t *map);

#endif
