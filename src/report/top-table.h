/*
 * The top report as a table: its columns (csv and json names, table
 * headers, when each is shown), the ones --fields chooses, and the report
 * written through the output in them.
 *
 *	struct top_columns cols;
 *	top_columns_choose(&cols, fields_option, &opt, r.format);
 *	report_open(&r, argc, argv);
 *	if (top_table_write(&r, &opt, &cols) == -1)
 *		... a write error ...
 */
#ifndef JAXPROF_REPORT_TOP_TABLE_H
#define JAXPROF_REPORT_TOP_TABLE_H

#include <stddef.h>

#include "output/output.h"
#include "report/top.h"

struct report;
struct top_field;

/* Columns top has at most (top-table.c's table holds to it). */
#define TOP_MAX_COLUMNS	40

/* The columns chosen, in their order. */
struct top_columns {
	const struct top_field *field[TOP_MAX_COLUMNS];
	struct out_col	 col[TOP_MAX_COLUMNS];
	size_t		 n;
};

/*
 * The columns of list, --fields' comma-separated csv names or table
 * headers; NULL: those shown by default for opt's group and fmt.  Exits 2
 * on a list naming no column, an unknown one or one twice.
 */
void	top_columns_choose(struct top_columns *c, const char *list,
	    const struct top_options *opt, enum out_format fmt);
/* Runs the report of an opened r and writes it; -1 on a write error. */
int	top_table_write(struct report *r, const struct top_options *opt,
	    const struct top_columns *c);

#endif
