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

/* Strings below are ids into file_summary.strings. */
struct op_agg {
	uint32_t	name, module, category;
	uint64_t	count;
	int64_t		total_ps, self_ps, min_ps, max_ps;
	uint64_t	flops, bytes_accessed;
	int		has_flops, has_bytes;
};

struct kernel_agg {
	uint32_t	name, op;
	uint64_t	count;
	int64_t		total_ps, min_ps, max_ps;
};

struct module_agg {
	uint32_t	name;		/* "jit_f" */
	int64_t		program_id;	/* -1 when unknown */
	uint64_t	count;
	int64_t		total_ps, min_ps, max_ps;
};

enum step_source {
	STEP_DEVICE,		/* device "Steps" line */
	STEP_HOST,		/* host StepTraceAnnotation (step_num) */
};

struct step_rec {
	enum step_source source;
	int64_t		step;
	uint32_t	name;
	int64_t		start_ps, dur_ps;
};

struct compile_rec {
	uint32_t	name;		/* backend_compile_and_load, ... */
	uint32_t	function;	/* from the enclosing PjitFunction(...) */
	uint32_t	line;
	int64_t		start_ps, dur_ps;
};

enum transfer_dir { XFER_H2D, XFER_D2H, XFER_D2D, XFER_OTHER };

struct transfer_rec {
	uint32_t	name;
	uint32_t	line;
	enum transfer_dir dir;
	int		on_host;	/* a host-side call, not a device copy */
	int64_t		bytes;		/* -1 when unknown */
	int64_t		start_ps, dur_ps;
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
	struct pf_read_stats read_stats;
};

const char	*plane_kind_name(enum plane_kind kind);
const char	*op_source_name(enum op_source src);
const char	*transfer_dir_name(enum transfer_dir dir);
/* The category XLA would give op `name` when no hlo_category is known. */
char		*derive_category(const char *name);

/*
 * A consumer of the stream; the handler's ctx is the returned state.
 * classify_finish() completes fs and frees the state.
 */
struct classify	*classify_new(struct file_summary *fs, struct pf_handler *h);
void		 classify_finish(struct classify *c);
void		 file_summary_release(struct file_summary *fs);

#endif
