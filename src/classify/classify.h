/*
 * Classify: turns one file's normalized event stream (profile.h) into what
 * the index stores — per-op and per-kernel aggregates per plane, module
 * executions, and the step, compile and transfer events.  Memory grows with
 * the number of distinct names, steps and transfers, not with events.
 *
 *	struct file_summary fs;
 *	if (classify_file(path, kind, &fs, &cause) == -1) ... report cause ...
 *	... use fs ...
 *	file_summary_release(&fs);
 */
#ifndef JAXPROF_CLASSIFY_H
#define JAXPROF_CLASSIFY_H

#include <stdint.h>

#include "model/file-summary.h"

struct step_windows;

/*
 * A consumer of the stream; the handler's ctx is the returned state.
 * windows (borrowed) come from a first pass, or are gathered
 * (classify_gather_steps).  classify_finish() completes fs and frees the
 * state.
 */
struct classify	*classify_new(struct file_summary *fs,
		    const struct step_windows *windows, struct pf_handler *h);
void		 classify_finish(struct classify *c);
/*
 * Lets the classifier look ops up in the programs' HLO (read-hlo.h): their
 * categories, source lines and, for CUDA-graph kernels, the ops themselves.
 * The set is wait(arg), asked for when an op first needs it: the HLO may
 * still be being read while planes without ops (a JAX host's) are.
 */
void		 classify_await_hlo(struct classify *c,
		    const struct hlo_set *(*wait)(void *), void *arg);
/*
 * Planes can be classified apart (in threads), each into its own summary
 * by its own classify: classify_release() frees such a one without
 * completing its summary, and file_summary_absorb() moves a summary's
 * planes into the file's, after the ones there; src is emptied.
 */
void		 classify_release(struct classify *c);
/*
 * In the one pass over an XSpace: c reads plane number `plane` of the
 * file, gathers its windows into w and, if they are not known when it
 * ends, leaves its busy time in *later (else NULL).
 * classify_steps_later() measures it in fs (a summary of that one plane)
 * once w is gathered, and frees later; with w NULL it only frees it.
 */
struct steps_later;
void		 classify_gather_steps(struct classify *c,
		    struct step_windows *w, size_t plane,
		    struct steps_later **later);
void		 classify_steps_later(struct file_summary *fs,
		    struct steps_later *later, const struct step_windows *w);
/*
 * With classify_gather_steps(): c measures a device's steps as its ops
 * come, without storing their busy time, where the reader can look ahead
 * (struct pf_lines_ahead) and the plane's windows are known by its "XLA
 * Ops" line.  An op it cannot measure so (one that comes after a later
 * one has closed a stretch of busy time) stops the reading with
 * CLASSIFY_AGAIN: the plane is then read again by a classify without it,
 * into an empty summary, after step_windows_plane_reset().
 */
#define CLASSIFY_AGAIN	0x61676e21
void		 classify_stream_busy(struct classify *c);
/*
 * Gathers the allocators' MemoryAllocation and MemoryDeallocation events
 * into plane_summary.memory (for the memory tables), h being the handler
 * classify_new() filled; without this call they are passed over.
 */
void		 classify_read_memory(struct classify *c,
		    struct pf_handler *h);
void		 file_summary_absorb(struct file_summary *dst,
		    struct file_summary *src);
void		 file_summary_release(struct file_summary *fs);

/* Whether a plane of this name is a host plane, the kind with host events. */
int		 classify_is_host_plane(const char *name);
/*
 * c hands its plane's long host events to give() in batches of up to
 * HOST_EVENT_BATCH rows, the last at the plane's end, and keeps none in
 * its summary (their plane's number is the caller's to set).
 */
void		 classify_hand_host_events(struct classify *c,
		    void (*give)(void *ctx, struct host_event_batch *b),
		    void *ctx);

#endif
