/*
 * Op aggregates as reports rank and compare them, and the --by / --group
 * keys top and diff share.  Rows are loaded at the finest grain (an op by
 * name and module, or a kernel by name) and grouped in memory, so a
 * summary read from a baseline file groups exactly like one read from the
 * index.
 *
 *	struct op_row *rows;
 *	size_t n;
 *	op_rows_query(&report, group == GROUP_KERNEL, &rows, &n);
 *	op_rows_group(&rows, &n, group);
 *	op_rows_sort(rows, n, by);
 *	... rows[i].name, op_by_value(by, &rows[i]) ...
 *	op_rows_free(rows, n);
 */
#ifndef JAXPROF_ANALYZE_OPS_H
#define JAXPROF_ANALYZE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "index/op-rows.h"

struct report;


/* --by: what a row's value is (largest first in top). */
enum op_by {
	BY_DEVICE_TIME,
	BY_SELF_TIME,
	BY_COUNT,
	BY_AVG,
};

/* --group: what a row is. */
enum op_group {
	GROUP_OP,
	GROUP_CATEGORY,
	GROUP_MODULE,
	GROUP_KERNEL,
	GROUP_FRAMEWORK_OP,	/* the JAX-level op: tf_op / name stats */
	GROUP_SOURCE,		/* the line of user code: HLO source info */
};

/* The key named s, or -1; *_choices list the names for messages. */
int		 op_by_parse(const char *s);
int		 op_group_parse(const char *s);
extern const char op_by_choices[];
extern const char op_group_choices[];
/* "device time", "ops", ...: for title lines. */
const char	*op_by_title(enum op_by by);
const char	*op_group_title(enum op_group group);
/* A row's value for by: ps for times, executions for count. */
double		 op_by_value(enum op_by by, const struct op_row *row);

/*
 * The selection's ops (by name and module) or, with kernels, its kernels
 * (by name) from the index of an opened report, summed over files and
 * planes, ordered by name then module.  *rows is new; free with
 * op_rows_free().
 */
void		 op_rows_query(struct report *r, int kernels,
		    struct op_row **rows, size_t *n);
/*
 * Replaces op-grain rows by one row per category or module (GROUP_OP and
 * GROUP_KERNEL leave them as they are), ordered by name.
 */
void		 op_rows_group(struct op_row **rows, size_t *n,
		    enum op_group group);
/* Largest value for by first; ties by name, then module. */
void		 op_rows_sort(struct op_row *rows, size_t n, enum op_by by);
/* A deep copy of row into *dst. */
void		 op_row_copy(struct op_row *dst, const struct op_row *row);

#endif
