/*
 * Baseline files: a profile summary saved as versioned JSON, to commit
 * and compare against instead of the profile (man/jaxprof-baseline.1,
 * FILE FORMAT, is the specification).  Version BASELINE_VERSION is
 * written; every version up to it is read.
 *
 *	if (baseline_write(&summary, fp, &cause) == -1) ...
 *	if (baseline_read(&summary, "base.json", &cause) == -1) ...
 */
#ifndef JAXPROF_BASELINE_H
#define JAXPROF_BASELINE_H

#include <stdio.h>

#define BASELINE_FORMAT		"jaxprof-baseline"
/*
 * 2: ops pair by identity (category, framework_op and source, required);
 * version 1 files are read and pair by name (summary.pairs_by_name).
 */
#define BASELINE_VERSION	2

struct summary;

/*
 * Writes s to fp, stamped with this jaxprof's version and the time now
 * ($SOURCE_DATE_EPOCH when set, for reproducible files); -1 with *cause
 * (caller frees) when writing failed.
 */
int	baseline_write(const struct summary *s, FILE *fp, char **cause);
/*
 * Fills s (summary_init()ed) from the baseline at path; -1 with *cause
 * (caller frees) when it cannot be read, is not a baseline, or is of a
 * newer version.  s may be partly filled then; summary_release() it.
 */
int	baseline_read(struct summary *s, const char *path, char **cause);

#endif
