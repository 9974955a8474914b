/* A device's copies and memsets (classify-copy.c). */
#ifndef JAXPROF_CLASSIFY_COPY_H
#define JAXPROF_CLASSIFY_COPY_H

#include "classify/classify-int.h"

/* A memset that no op launched (no hlo_op). */
int	copies_is_lone_memset(const struct classify *c,
	    const struct pf_event *ev);
/* A device copy: a Memcpy* event, or anything with memcpy_details. */
int	copies_is_device_copy(const struct classify *c,
	    const struct pf_event *ev, struct pf_bytes *details,
	    int *has_details);
/*
 * A memset that no op launched: a transfer of direction "memset", so
 * that it lands in a report.
 */
int	copies_on_memset(struct classify *c, const struct pf_event *ev,
	    int64_t start, int64_t dur);
/* Device copies: Memcpy* events and anything with memcpy_details. */
void	copies_on_device_copy(struct classify *c, const struct pf_event *ev,
	    int64_t start, int64_t dur);
/*
 * An "Async XLA Ops" event spans an asynchronous op from its start to its
 * done (TPU): a copy-start is a copy between memories, to or from the
 * host's where a shape is in memory space 5 (host offload): its operand,
 * "copy-start(f32[...]{...S(5)} %param)", is a copy to the device, its
 * result's first element (the destination) one from it.
 */
void	copies_on_async_copy(struct classify *c, const struct pf_event *ev,
	    int64_t start, int64_t dur);
/*
 * A copy-start or copy-done of a TPU's "XLA Ops" line: the same copies
 * from the start's start to its done's end, for the planes (TPU:1 and up)
 * whose "Async XLA Ops" line is empty.  A GPU's copies are its Memcpy
 * events.
 */
void	copies_on_xla_op(struct classify *c, const struct pf_event *ev,
	    int64_t start, int64_t dur);
/* Forgets the last plane's copies_on_xla_op() state. */
void	copies_plane_begin(struct classify *c, const char *plane_name);
/* Ends each copy of the "XLA Ops" line at its done, in time order. */
void	copies_plane_end(struct classify *c);

#endif
