/*
 * diff's table, csv, json and markdown (jaxprof-diff(1)): the summary of
 * both sides as title lines, or as rows (--summary, JSON's "summary"),
 * and the paired ops a row each.
 *
 *	struct diff_table t = { &base, &new, BY_DEVICE_TIME, GROUP_OP, ... };
 *	if (diff_ops_write(&t, FMT_TABLE, stdout) == -1) ... write error ...
 */
#ifndef JAXPROF_DIFF_TABLE_H
#define JAXPROF_DIFF_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "report/analyze-diff.h"
#include "report/analyze-ops.h"
#include "report/summary.h"
#include "output/output.h"

struct diff_table {
	const struct summary	*a, *b;		/* base and new */
	enum op_by		 by;
	enum op_group		 group;
	size_t			 skip;	/* each device's first steps left out */
	size_t			 limit;	/* op rows shown; 0: all */
	/* Each side's op rows, grouped (summary_op_rows()). */
	const struct op_row	*ra, *rb;
	size_t			 na, nb;
	/* Paired and normalised (diff_ops(), diff_normalize()). */
	const struct diff_pair	*pairs;
	size_t			 npairs;
	const char		*per;	/* "step", "execution" or "total" */
	double			 da, db;	/* each side's count of per */
	int			 by_identity;	/* ops paired by identity */
};

/* The summary rows, after the title lines; -1 on a write error. */
int	diff_summary_write(const struct diff_table *t, enum out_format format,
	    FILE *fp);
/* The op rows, after the title lines and notes; -1 on a write error. */
int	diff_ops_write(const struct diff_table *t, enum out_format format,
	    FILE *fp);

#endif
