/*
 * A profile summary: what diff and check compare, read either from the
 * index for a PATH selection or from a saved baseline file (baseline.h),
 * so both work the same on either.
 *
 *	struct summary s;
 *	summary_init(&s);
 *	summary_load(&s, &report_options, "runs/base", 0);   (exits 2 on error)
 *	median = summary_step_percentile(&s, skip, 50, &nsteps);
 *	summary_release(&s);
 *
 * Everything in a summary is owned by it and freed by summary_release().
 */
#ifndef JAXPROF_SUMMARY_H
#define JAXPROF_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "output/output.h"
#include "report/analyze-ops.h"

struct report;

/* One (file, plane)'s step durations, in step order. */
struct step_series {
	char		*host;
	char		*run;
	char		*plane;
	int64_t		*dur_ps;
	size_t		 n;
};

/* Compilations of one jitted function ("" when unknown). */
struct compile_fn {
	char		*function;
	int64_t		 count;
	int64_t		 total_ps;
};

/* Transfers in one direction, host-side calls and device copies apart. */
struct transfer_total {
	char		*direction;	/* H2D, D2H, D2D, other */
	int		 on_host;
	int64_t		 count;
	int64_t		 bytes;		/* valid when has_bytes */
	int		 has_bytes;
	int64_t		 total_ps;
	int64_t		 wait_ps;	/* of D2H host calls: waiting, not copying */
};

/* A peak of device memory: an allocator's in the capture, or a program's. */
struct memory_peak {
	char		*kind;		/* "allocator" or "program" */
	char		*name;		/* GPU_0_bfc, jit_train_step */
	int64_t		 bytes;
};

struct summary {
	char		*label;		/* the PATH or baseline file given */
	/* Provenance (a baseline's creator and time; NULL from an index). */
	char		*jaxprof_version;
	char		*created;	/* UTC, ISO 8601 */
	char		**sources;	/* the PATHs the profile came from */
	size_t		 nsources;
	char		*host_glob, *device_glob, *run_glob;
	int		 latest;
	int		 pairs_by_name;	/* a version 1 baseline: no identities */
	char		**hosts, **runs;	/* distinct, sorted */
	size_t		 nhosts, nruns;

	struct op_row	*ops;		/* by name and module, sorted so */
	size_t		 nops;
	struct op_row	*kernels;	/* by name (module ""; category: op) */
	size_t		 nkernels;

	int64_t		 executions;	/* of the most run program on one
					   plane; compile work left out */
	char		*step_source;	/* "device", "host" or "" for none */
	struct step_series *steps;
	size_t		 nsteps;

	struct compile_fn *compiles;	/* sorted by function */
	size_t		 ncompiles;
	struct transfer_total *transfers;	/* sorted by direction, on_host */
	size_t		 ntransfers;
	struct memory_peak *memory;	/* sorted by kind, name */
	size_t		 nmemory;
};

void	summary_init(struct summary *s);
/* The memory peak of kind ("allocator", "program") and name in s, or NULL. */
const struct memory_peak *summary_memory(const struct summary *s,
	    const char *kind, const char *name);
/*
 * What ran at an allocator's peak, as jaxprof memory and summary say:
 * bind ?1 the file id and ?2 the time; one row, the module executing
 * then and the step around it (each NULL when none).  Caller finalizes.
 */
sqlite3_stmt *summary_memory_context(struct report *r);
void	summary_release(struct summary *s);

/*
 * Fills s from path: a baseline file (a regular file that is not a
 * profile file) or profiles under path, with the filters and index of
 * opts (a report_init()ed struct with its options set; not opened).
 * A path that does not exist is reported as a missing baseline when
 * want_baseline is set or its name ends in ".json".  Prints what went
 * wrong and exits 2 when path cannot be read, like report_open(), or
 * holds nothing to compare (no ops, steps, compiles, transfers, memory);
 * returns 2 when some profile files, or some memory, were unreadable (each
 * reported) and the summary covers the rest, else 0.
 */
int	summary_load(struct summary *s, const struct report *opts,
	    const char *path, int want_baseline);
/*
 * Reads the selection of an opened report r into s (summary-load.c's);
 * 2 when some of its memory could not be read (each said), else 0.
 */
int	summary_from_index(struct summary *s, struct report *r,
	    const char *path);

/*
 * The pct-th percentile (0-100, interpolated between closest ranks) of
 * the step durations left after dropping each series' first skip steps;
 * *n is how many there were (0: the result is 0).
 */
double	summary_step_percentile(const struct summary *s, size_t skip,
	    double pct, size_t *n);
/*
 * The steps' own spread after each device's first skip, in percent of
 * their median: 1.4826 times the median absolute deviation (the standard
 * deviation of normal noise; a compile step is no noise); 0 without.
 */
double	summary_step_spread_pct(const struct summary *s, size_t skip);
/*
 * The summary's ops grouped by group (its kernels for GROUP_KERNEL) as
 * new rows; free with op_rows_free().
 */
void	summary_op_rows(const struct summary *s, enum op_group group,
	    struct op_row **rows, size_t *n);
/*
 * How diff and check compare op costs: per step when both sides have
 * steps (*da, *db: the most steps of one device on each side), else per
 * execution when both have executions, else as totals (divisors 1).
 * Returns "step", "execution" or "total".
 */
const char *summary_op_norm(const struct summary *a,
	    const struct summary *b, double *da, double *db);
/*
 * Under o's table, "side: N runs summed (...)" when the summary sums
 * several runs (report_runs_note()).
 */
void	summary_note_runs(const struct summary *s, struct output *o,
	    const char *side);
/* Total and count of compilations; the most of any one function. */
int64_t	summary_compile_total_ps(const struct summary *s, int64_t *count);
const struct compile_fn *summary_most_compiled(const struct summary *s);

#endif
