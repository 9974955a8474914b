/*
 * The diff report: two profiles or baselines loaded, their ops paired,
 * and the comparison written as a table (diff-table.h) or a page
 * (diff-page.h), to stdout or a file replaced once whole.
 */
#ifndef JAXPROF_DIFF_REPORT_H
#define JAXPROF_DIFF_REPORT_H

#include <stddef.h>

#include "report/analyze-ops.h"

struct report;

/* What diff compares and how (jaxprof-diff(1)). */
struct diff_request {
	const char	*base, *new;	/* profile paths or baseline files */
	enum op_by	 by;
	enum op_group	 group;
	size_t		 limit;		/* op rows shown; 0: all */
	size_t		 skip;		/* each device's first steps left out */
	int		 summary;	/* summary rows, not the ops */
	int		 html;		/* the page, to out_path */
	const char	*out_path;	/* NULL: stdout */
};

/* Writes the diff q asks for with r's options; the exit status. */
int	diff_report(struct report *r, const struct diff_request *q);

#endif
