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

#include "profile.h"
#include "strmap.h"

struct hlo_set;

enum plane_kind {
	PLANE_DEVICE,		/* /device:... */
	PLANE_HOST,		/* /host:CPU and other /host: planes */
	PLANE_OTHER,		/* Task Environment, metadata, ... */
};

/* Where a file's op table comes from (the report header says which). */
enum op_source {
	OPS_NONE,
	OPS_DEVICE,		/* device "XLA Ops" lines or hlo_op kernels */
	OPS_HOST_XLA,		/* CPU-only: XLA:CPU ops on host threads */
	OPS_HOST_TF,		/* CPU-only: TensorFlow ops on host threads */
};

/*
 * The category of a CUDA graph's kernel that neither its name nor its
 * place in the schedule ties to an HLO instruction.
 */
#define CATEGORY_UNATTRIBUTED	"unattributed"

/* Strings below are ids into file_summary.strings. */
struct op_agg {
	uint32_t	name, module, category;
	uint32_t	framework_op;	/* HLO op_name, tf_op or name stat; "" */
	uint32_t	source;		/* "file:line" from the HLO, or "" */
	uint32_t	source_function;	/* the function there, or "" */
	uint32_t	parent;		/* the CUDA graph's call, or "" */
	uint64_t	count;
	int64_t		total_ps, self_ps, min_ps, max_ps;
	uint64_t	flops, bytes_accessed;
	int		has_flops, has_bytes;
	int		compile_work;	/* of an autotuning module */
};

struct hlo_instr;

/*
 * A kernel's runs per name, launch configuration, op and context: the
 * module of its own hlo_op, else that of the last kernel before it on its
 * line with one (NO_ID when none), so that the autotuner's helper kernels
 * (RedzoneAllocatorKernelImpl, xla_fp_comparison) go with the candidates
 * they check.
 */
struct kernel_agg {
	uint32_t	name, op;
	uint32_t	context;	/* module string id, or UINT32_MAX */
	/*
	 * kernel_details, the op's module, category, "file:line" and
	 * framework op ("" or NO_ID when unknown)
	 */
	uint32_t	details, module, category, source, framework_op;
	/* While classifying: the HLO instruction it runs, or NULL. */
	const struct hlo_instr *instr;
	uint64_t	count;
	int64_t		total_ps, min_ps, max_ps;
	int		compile_work;	/* autotuning, not a user program */
};

struct module_agg {
	uint32_t	name;		/* "jit_f" */
	int64_t		program_id;	/* -1 when unknown */
	uint64_t	count;		/* executions (launches) */
	int64_t		total_ps, min_ps, max_ps;	/* their wall spans */
	int64_t		device_ps;	/* device time of their ops */
	int		compile_work;	/* autotuning, not a user program */
};

enum step_source {
	STEP_DEVICE,		/* the device's "Steps" line */
	STEP_HOST,		/* host StepTraceAnnotation (step_num, _r) */
	STEP_MODULE,		/* executions of the most run module */
};

/* What a device is busy with, for the step breakdown. */
enum busy_class {
	BUSY_COMPUTE,
	BUSY_COLLECTIVE,	/* all-reduce, all-gather, send/recv, nccl... */
	BUSY_TRANSFER,		/* memcpy events, copy-start/done, infeed... */
	NBUSY,
};

/* One step on one device (or host, in a CPU-only profile). */
struct step_rec {
	enum step_source source;
	int64_t		step;
	uint32_t	name;
	int64_t		start_ps, dur_ps;
	int64_t		busy_ps[NBUSY];	/* time in the step each class ran */
	int64_t		idle_ps;	/* step time none of them ran */
};

/* A device idle gap (no op, kernel or copy) of at least GAP_FLOOR_PS. */
struct gap_rec {
	int64_t		start_ps, dur_ps;
};

#define GAP_FLOOR_PS		100000000LL	/* 100 us */
#define HOST_EVENT_FLOOR_PS	100000000LL	/* host events kept: >= 100 us */

/*
 * One execution of a module (program) on a device: one launch, never
 * merged with the next (man/jaxprof-compile.1, EXECUTIONS).
 */
struct exec_rec {
	uint32_t	module;
	int64_t		program_id;	/* -1 when unknown */
	int64_t		run_id;		/* -1 when unknown */
	int64_t		start_ps, dur_ps;	/* its wall span */
	int64_t		device_ps;	/* device time of its ops */
	int64_t		launch;		/* CUDA graph launch (correlation
					   id), else -1; not stored */
	int		from_kernels;	/* a kernel sequence on one line */
	int		compile_work;	/* inside a compile, of no program */
};

/* A long host event, for what the host did while a device idled. */
struct host_event_rec {
	uint32_t	name, line;
	int		depth;		/* nesting level on its line, 0 = top */
	int64_t		start_ps, dur_ps;
};

/* Host time per annotation scope (a path of nested host events). */
struct scope_agg {
	uint32_t	name;
	uint32_t	parent;		/* index in the plane's scopes; NO_SCOPE */
	uint64_t	count;
	int64_t		total_ps, self_ps;
};

#define NO_SCOPE	UINT32_MAX

struct compile_rec {
	uint32_t	name;		/* backend_compile_and_load, ... */
	uint32_t	function;	/* from the enclosing PjitFunction(...) */
	uint32_t	line;
	int64_t		start_ps, dur_ps;
	size_t		first_phase;	/* its direct children on the line */
	size_t		nphases;
	int64_t		autotune_ps;	/* device time of compile work in it */
};

struct compile_phase {
	uint32_t	name;
	int64_t		start_ps, dur_ps;
};

/* A compiled program named in /host:metadata: "jit_f(12)". */
struct program_rec {
	uint32_t	module;
	int64_t		program_id;
};

enum transfer_dir {
	XFER_H2D, XFER_D2H, XFER_D2D, XFER_OTHER,
	XFER_MEMSET,		/* a device memset: fills, moves nothing */
};

struct transfer_rec {
	uint32_t	name;
	uint32_t	line;
	enum transfer_dir dir;
	int		on_host;	/* a host-side call, not a device copy */
	int		compile_work;	/* the autotuner's (line_compile) */
	int64_t		bytes;		/* -1 when unknown */
	int64_t		start_ps, dur_ps;
};

/*
 * One MemoryAllocation or MemoryDeallocation event of an allocator
 * (classify-memory.c): the allocator's state after it, and what it
 * moved.  Byte counts -1 and strings "" where the event does not say.
 */
enum memory_kind { MEM_ALLOC, MEM_FREE, MEM_DAMAGED };

struct memory_rec {
	uint32_t	 allocator;	/* allocator_name, else the device */
	enum memory_kind kind;
	uint32_t	 line;
	int64_t		 time_ps;
	int64_t		 heap_bytes, stack_bytes, free_bytes;
	int64_t		 lifetime_peak_bytes;
	double		 fragmentation;	/* -1 when not given */
	int64_t		 requested_bytes, allocation_bytes;
	uint64_t	 addr;
	int64_t		 step;		/* group_id, or -1 */
	uint32_t	 tf_op, region, data_type, shape;
	uint32_t	 damage;	/* MEM_DAMAGED: what is wrong */
};

struct plane_summary {
	int64_t		 id;
	uint32_t	 name;
	enum plane_kind	 kind;
	uint64_t	 nlines, nevents;
	int64_t		 start_ps, end_ps;	/* end < start: no events */
	struct op_agg	*ops;
	size_t		 nops;
	enum op_source	 ops_from;	/* which rule found them */
	struct kernel_agg *kernels;
	size_t		 nkernels;
	struct module_agg *modules;
	size_t		 nmodules;
	struct step_rec	*steps;
	size_t		 nsteps;
	struct compile_rec *compiles;
	size_t		 ncompiles;
	struct transfer_rec *transfers;
	size_t		 ntransfers;
	struct compile_phase *phases;
	size_t		 nphases;
	struct exec_rec	*execs;
	size_t		 nexecs;
	struct gap_rec	*gaps;
	size_t		 ngaps;
	struct host_event_rec *host_events;
	size_t		 nhost_events;
	struct scope_agg *scopes;
	size_t		 nscopes;
	struct memory_rec *memory;
	size_t		 nmemory;
	/* Peak GFLOP/s and GB/s from the plane's stats; 0 when unknown. */
	double		 peak_gflops, peak_gbps;
};

struct file_summary {
	struct strmap	 strings;
	char		*host;		/* hostnames[0], else "" */
	char		**errors;
	size_t		 nerrors;
	char		**warnings;
	size_t		 nwarnings;
	uint64_t	 nlines, nevents;
	int64_t		 start_ps, end_ps;
	int64_t		 profile_start_ns;	/* Task Environment; 0 if none */
	enum op_source	 op_source;
	struct plane_summary *planes;
	size_t		 nplanes;
	struct program_rec *programs;
	size_t		 nprograms;
	struct pf_read_stats read_stats;
	struct hlo_set	*hlo;		/* the programs' HLO; NULL if none */
};

const char	*plane_kind_name(enum plane_kind kind);
const char	*op_source_name(enum op_source src);
const char	*transfer_dir_name(enum transfer_dir dir);
const char	*step_source_name(enum step_source src);
/* The category XLA would give op `name` when no hlo_category is known. */
char		*derive_category(const char *name);

/*
 * Steps in two passes over a stream: the first, cheap one
 * (steps_prepass_new) finds the step boundaries: device "Steps" lines and
 * host StepTraceAnnotation events, which may come after the device planes
 * they apply to.  The second (classify_new) does the rest, with them.
 * (load.c reads files in one pass; it runs this one for the error such a
 * read would have stopped at first.)
 */
struct step_windows;

struct step_windows *steps_prepass_new(struct pf_handler *h);
/* Orders the windows; after this they are only read (from any thread). */
void		 step_windows_sort(struct step_windows *w);
void		 step_windows_free(struct step_windows *w);
/*
 * A file's planes (an XSpace's, a trace JSON's), read in one pass and in
 * parallel, gather the windows as they go (classify_gather_steps),
 * names[i] being plane i's name.  A plane whose windows are not known when it ends (those of host
 * planes still being read) keeps its busy time for classify_steps_later().
 * step_windows_gathered() completes them once every plane is read.
 */
struct step_windows *step_windows_gather(char *const *names, size_t nplanes);
void		 step_windows_gathered(struct step_windows *w);

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
/* Forgets what plane number `plane` gathered into w: it is read again. */
void		 step_windows_plane_reset(struct step_windows *w,
		    size_t plane);
void		 file_summary_absorb(struct file_summary *dst,
		    struct file_summary *src);
void		 file_summary_release(struct file_summary *fs);

/*
 * A host plane's long host events handed over as they are found, so that
 * they can be stored while the plane is still read: a batch's names are
 * copies in its text, and the batch is its taker's to free.
 */
#define HOST_EVENT_BATCH	1024	/* rows; 64 of index-rows.c's inserts */

struct host_event_row {
	size_t		 name, line;	/* offsets in the batch's text */
	int		 depth;
	int64_t		 start_ps, dur_ps;
};

struct host_event_batch {
	struct host_event_batch *next;	/* for whoever queues it */
	size_t		 plane;		/* its plane's number in the file */
	struct host_event_row *rows;
	size_t		 nrows;
	char		*text;
};

void		 host_event_batch_free(struct host_event_batch *b);
/* Frees first and the batches queued after it (by next). */
void		 host_event_batches_free(struct host_event_batch *first);
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
