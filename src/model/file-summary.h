/*
 * What classifying a file yields (classify.h), and what the index stores
 * and the reports read: per plane the ops, kernels and modules, the steps,
 * executions, compiles, transfers and memory records, and the file's HLO.
 */
#ifndef JAXPROF_FILE_SUMMARY_H
#define JAXPROF_FILE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "model/device-peak.h"
#include "model/profile.h"
#include "lib/strmap.h"

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
	/* The precision it computes in on its device (precision.h). */
	int		precision;
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

/*
 * A named span of a plane: an execution of a collective op (all-reduce,
 * all-gather...), or a host annotation directly inside a top-level host
 * event (load_batch inside a step) of 100 us or more.  Their steps are
 * found when the index stores them (step-parts.h).
 */
struct named_span {
	uint32_t	name;
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
	struct named_span *collectives;
	size_t		 ncollectives;
	struct named_span *annotations;
	size_t		 nannotations;
	struct memory_rec *memory;
	size_t		 nmemory;
	/* The device's peaks (device-peak.h); has_peak 0 when unknown. */
	struct device_peak peak;
	int		 has_peak;
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

#endif
