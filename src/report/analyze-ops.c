/* Op aggregates: loading, grouping and ranking, for top and diff. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-ops.h"
#include "lib/checked.h"
#include "lib/err.h"
#include "index/index.h"
#include "report/report.h"
#include "index/run-totals.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

static const struct {
	const char	*name;
	const char	*title;
} by_keys[] = {
	[BY_DEVICE_TIME] = { "device-time", "device time" },
	[BY_SELF_TIME] = { "self-time", "self time" },
	[BY_COUNT] = { "count", "count" },
	[BY_AVG] = { "avg", "average time" },
};
const char op_by_choices[] = "device-time, self-time, count, avg";

static const struct {
	const char	*name;
	const char	*title;
} group_keys[] = {
	[GROUP_OP] = { "op", "ops" },
	[GROUP_CATEGORY] = { "category", "op categories" },
	[GROUP_MODULE] = { "module", "modules" },
	[GROUP_KERNEL] = { "kernel", "kernels" },
	[GROUP_FRAMEWORK_OP] = { "framework-op", "framework ops" },
	[GROUP_SOURCE] = { "source", "source lines" },
};
const char op_group_choices[] =
    "op, category, module, kernel, framework-op, source";

int
op_by_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof by_keys / sizeof by_keys[0]; i++)
		if (strcmp(by_keys[i].name, s) == 0)
			return (int)i;
	return -1;
}

int
op_group_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof group_keys / sizeof group_keys[0]; i++)
		if (strcmp(group_keys[i].name, s) == 0)
			return (int)i;
	return -1;
}

const char *
op_by_title(enum op_by by)
{
	return by_keys[by].title;
}

const char *
op_group_title(enum op_group group)
{
	return group_keys[group].title;
}

double
op_by_value(enum op_by by, const struct op_row *row)
{
	switch (by) {
	case BY_DEVICE_TIME:
		return (double)row->total_ps;
	case BY_SELF_TIME:
		return (double)row->self_ps;
	case BY_COUNT:
		return (double)row->count;
	case BY_AVG:
		/* No executions: no average; ranks below every real one. */
		return row->count > 0 ?
		    (double)row->total_ps / (double)row->count : -1;
	}
	return 0;
}

static int
cmp_name_module(const void *a, const void *b)
{
	const struct op_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : strcmp(x->module, y->module);
}

/* Where the rows of r's selection are read from (run-totals.h). */
enum rows_from {
	FROM_FILES,	/* the stored rows of its files */
	FROM_TOTALS,	/* whole runs of two files with rows or more: totals */
	FROM_BOTH	/* whole runs, some with one file of rows: both */
};

/*
 * Counts of the selected runs: those in part or stale, those with more
 * than one file (with_rows: of rows) and the others.  0 if none read.
 */
static int
count_runs(struct report *r, int with_rows, sqlite3_int64 *part,
    sqlite3_int64 *multi, sqlite3_int64 *single)
{
	sqlite3_stmt *st;
	int rc = 0;

	st = index_prepare(r->ix, with_rows ? "SELECT total(picked < n OR "
	    "run IN (SELECT run FROM stale_runs)), total(m > 1), "
	    "total(m <= 1) "
	    "FROM (SELECT f.run AS run, count(*) AS n, count(s.file_id) AS "
	    "picked, total(" RUN_TOTALS_FILE_HAS_ROWS("f") ") AS m "
	    "FROM files f LEFT JOIN selected s ON s.file_id = f.id "
	    "GROUP BY f.run) WHERE picked > 0" :
	    "SELECT total(picked < n OR run IN "
	    "(SELECT run FROM stale_runs)), total(n > 1), total(n = 1) "
	    "FROM (SELECT f.run AS run, count(*) AS n, count(s.file_id) AS "
	    "picked FROM files f LEFT JOIN selected s ON s.file_id = f.id "
	    "GROUP BY f.run) WHERE picked > 0");
	if (index_row(st)) {
		*part = sqlite3_column_int64(st, 0);
		*multi = sqlite3_column_int64(st, 1);
		*single = sqlite3_column_int64(st, 2);
		rc = 1;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Files are counted first: most runs are of one, and that is cheaper. */
static enum rows_from
rows_from(struct report *r)
{
	sqlite3_int64 part = 1, multi = 0, single = 0;

	if (!count_runs(r, 0, &part, &multi, &single) || part > 0 ||
	    multi == 0 || !count_runs(r, 1, &part, &multi, &single) ||
	    part > 0 || multi == 0)
		return FROM_FILES;
	return single == 0 ? FROM_TOTALS : FROM_BOTH;
}

void
op_rows_query(struct report *r, int kernels, struct op_row **rows,
    size_t *n)
{
	sqlite3_stmt *st;
	char *sql;
	size_t i;
	/* Autotuning is compile work, not the user's ops (by default). */
	const char *compile_work_filter = r->include_compile_work ? "" :
	    " AND o.compile_work = 0";

	enum rows_from from = rows_from(r);
	char *stored, *totals;

	/*
	 * The stored rows, one per file, device and op, reached from the
	 * selected files (the planner would scan every row of the table).
	 * Whole runs read their totals instead, a few rows per op and
	 * device, but for runs with one file of rows, which have none (an
	 * index from before that may have some: they are not read).
	 */
	stored = xasprintf("SELECT %s FROM selected s "
	    "CROSS JOIN files f ON f.id = s.file_id "
	    "CROSS JOIN planes p ON p.file_id = f.id "
	    "CROSS JOIN %s o ON o.file_id = f.id AND o.plane = p.id "
	    "WHERE 1%s%s", op_rows_columns(kernels ? OP_ROWS_KERNELS :
	    OP_ROWS_OPS),
	    kernels ? "kernels" : "ops", compile_work_filter,
	    report_filter_sql());
	if (from == FROM_FILES)
		sql = stored;
	else {
		totals = xasprintf("WITH single AS (SELECT f.run FROM files f "
		    "GROUP BY f.run HAVING total("
		    RUN_TOTALS_FILE_HAS_ROWS("f") ") <= 1) "
		    "SELECT %s FROM run_totals o "
		    "WHERE o.kernels = %d AND o.run IN (SELECT f.run FROM files f "
		    "JOIN selected s ON s.file_id = f.id) AND "
		    "o.run NOT IN single AND " REPORT_DEVICE_SQL("o.device")
		    "%s", op_rows_columns(OP_ROWS_TOTALS), kernels,
		    compile_work_filter);
		if (from == FROM_BOTH) {
			sql = xasprintf("%s UNION ALL %s AND f.run IN single",
			    totals, stored);
			free(totals);
		} else
			sql = totals;
		free(stored);
	}
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	*rows = NULL;
	*n = 0;
	op_rows_fold(st, rows, n);
	sqlite3_finalize(st);
	/* NULL texts read as "", as index_column_text() gives them. */
	for (i = 0; i < *n; i++) {
		struct op_row *row = &(*rows)[i];
		char **texts[] = { &row->category, &row->framework_op,
		    &row->source, &row->source_function };
		size_t t;

		for (t = 0; t < sizeof texts / sizeof texts[0]; t++)
			if (*texts[t] == NULL)
				*texts[t] = xstrdup("");
	}
	if (*n > 0)
		qsort(*rows, *n, sizeof **rows, cmp_name_module);
}

/* The grouping key of an op-grain row. */
static const char *
group_key(const struct op_row *row, enum op_group group)
{
	switch (group) {
	case GROUP_CATEGORY:
		return row->category;
	case GROUP_FRAMEWORK_OP:
		return row->framework_op;
	case GROUP_SOURCE:
		return row->source;
	default:
		return row->module;
	}
}

static enum op_group sort_group;	/* for cmp_group_key() */

static int
cmp_group_key(const void *a, const void *b)
{
	return strcmp(group_key(a, sort_group), group_key(b, sort_group));
}

void
op_rows_group(struct op_row **rows, size_t *n, enum op_group group)
{
	struct op_row *in = *rows, *out = NULL, *g;
	const char *last_key = NULL;
	size_t nout = 0, i;
	/* The group's precision: its computing members', if one. */
	int computes = 0, mixed = 0;

	if ((group != GROUP_CATEGORY && group != GROUP_MODULE &&
	    group != GROUP_FRAMEWORK_OP && group != GROUP_SOURCE) || *n == 0)
		return;
	sort_group = group;
	qsort(in, *n, sizeof *in, cmp_group_key);
	for (i = 0; i < *n; i++) {
		const char *key = group_key(&in[i], group);

		if ((group == GROUP_FRAMEWORK_OP || group == GROUP_SOURCE) &&
		    *key == '\0')
			key = "(none)";	/* no annotation or HLO says */

		g = nout > 0 ? &out[nout - 1] : NULL;
		if (g == NULL || strcmp(last_key, key) != 0) {
			last_key = key;
			out = xreallocarray(out, nout + 1, sizeof *out);
			g = &out[nout++];
			memset(g, 0, sizeof *g);
			g->name = group == GROUP_SOURCE &&
			    in[i].source_function[0] != '\0' ?
			    xasprintf("%s (%s)", key, in[i].source_function) :
			    xstrdup(key);
			g->source = xstrdup(group == GROUP_SOURCE ? key : "");
			g->source_function = xstrdup(group == GROUP_SOURCE ?
			    in[i].source_function : "");
			g->module = xstrdup(group == GROUP_MODULE ? key : "");
			g->category = xstrdup(group == GROUP_CATEGORY ?
			    key : "");
			g->framework_op = xstrdup(group == GROUP_FRAMEWORK_OP ?
			    key : "");
			g->min_ps = in[i].min_ps;
			g->max_ps = in[i].max_ps;
			computes = mixed = 0;
		}
		if (in[i].has_flops && in[i].flops > 0 && !mixed) {
			const char *p = in[i].precision;

			if (!computes)
				g->precision = p != NULL ? xstrdup(p) : NULL;
			else if (p == NULL || g->precision == NULL ||
			    strcmp(p, g->precision) != 0) {
				free(g->precision);
				g->precision = NULL;
				mixed = 1;
			}
			computes = 1;
		}
		g->count = sat_add(g->count, in[i].count);
		g->total_ps = sat_add(g->total_ps, in[i].total_ps);
		g->self_ps = sat_add(g->self_ps, in[i].self_ps);
		if (in[i].min_ps < g->min_ps)
			g->min_ps = in[i].min_ps;
		if (in[i].max_ps > g->max_ps)
			g->max_ps = in[i].max_ps;
		if (in[i].has_flops)
			g->flops = sat_add(g->flops, in[i].flops);
		g->has_flops |= in[i].has_flops;
		if (in[i].has_bytes)
			g->bytes = sat_add(g->bytes, in[i].bytes);
		g->has_bytes |= in[i].has_bytes;
	}
	op_rows_free(in, *n);
	*rows = out;
	*n = nout;
}

static enum op_by sort_by;	/* for cmp_by() */

static int
cmp_by(const void *a, const void *b)
{
	const struct op_row *x = a, *y = b;
	double vx = op_by_value(sort_by, x), vy = op_by_value(sort_by, y);
	int c;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return strcmp(x->module, y->module);
}

void
op_rows_sort(struct op_row *rows, size_t n, enum op_by by)
{
	sort_by = by;
	if (n > 0)
		qsort(rows, n, sizeof *rows, cmp_by);
}

void
op_row_copy(struct op_row *dst, const struct op_row *row)
{
	*dst = *row;
	dst->name = xstrdup(row->name);
	dst->module = xstrdup(row->module);
	dst->category = xstrdup(row->category);
	dst->framework_op = xstrdup(row->framework_op);
	dst->source = xstrdup(row->source);
	dst->source_function = xstrdup(row->source_function);
	dst->details = row->details != NULL ? xstrdup(row->details) : NULL;
	dst->hlo_op = row->hlo_op != NULL ? xstrdup(row->hlo_op) : NULL;
	dst->precision = row->precision != NULL ? xstrdup(row->precision) :
	    NULL;
}
