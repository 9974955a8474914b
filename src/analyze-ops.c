/* Op aggregates: loading, grouping and ranking, for top and diff. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze-ops.h"
#include "err.h"
#include "index.h"
#include "report.h"
#include "strmap.h"
#include "xmalloc.h"

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

/*
 * Keeps in *acc the least (sign < 0) or greatest (sign > 0) non-NULL text
 * of column col seen so far, as SQL's min() and max() do.
 */
static void
keep_extreme(char **acc, sqlite3_stmt *st, int col, int sign)
{
	const char *v = (const char *)sqlite3_column_text(st, col);

	if (v != NULL && (*acc == NULL || sign * strcmp(v, *acc) > 0)) {
		free(*acc);
		*acc = xstrdup(v);
	}
}

/* Adds integer column col to *sum unless it is NULL, as SQL's sum(). */
static void
add_int(int64_t *sum, int *seen, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return;
	if (__builtin_add_overflow(*sum, sqlite3_column_int64(st, col), sum))
		*sum = INT64_MAX;
	*seen = 1;
}

/* Folds one stored row (one file, device and op) into its op's row. */
static void
fold_row(struct op_row *row, sqlite3_stmt *st)
{
	int seen = 0;

	keep_extreme(&row->category, st, 2, -1);
	add_int(&row->count, &seen, st, 3);
	add_int(&row->total_ps, &seen, st, 4);
	add_int(&row->self_ps, &seen, st, 5);
	if (sqlite3_column_type(st, 6) != SQLITE_NULL &&
	    (!row->has_min || sqlite3_column_int64(st, 6) < row->min_ps)) {
		row->min_ps = sqlite3_column_int64(st, 6);
		row->has_min = 1;
	}
	if (sqlite3_column_type(st, 7) != SQLITE_NULL &&
	    (!row->has_max || sqlite3_column_int64(st, 7) > row->max_ps)) {
		row->max_ps = sqlite3_column_int64(st, 7);
		row->has_max = 1;
	}
	add_int(&row->flops, &row->has_flops, st, 8);
	add_int(&row->bytes, &row->has_bytes, st, 9);
	keep_extreme(&row->framework_op, st, 10, -1);
	keep_extreme(&row->source, st, 11, 1);
	keep_extreme(&row->source_function, st, 12, 1);
}

static int
cmp_name_module(const void *a, const void *b)
{
	const struct op_row *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : strcmp(x->module, y->module);
}

void
op_rows_query(struct report *r, int kernels, struct op_row **rows,
    size_t *n)
{
	struct strmap ops;
	sqlite3_stmt *st;
	char *sql, *compile_work_filter, *key = NULL;
	size_t keycap = 0, i;

	/* Autotuning is compile work, not the user's ops (by default). */
	compile_work_filter = xasprintf(" AND o.compile_work = 0%s",
	    report_filter_sql());

	/*
	 * The stored rows, one per file, device and op, summed per (name,
	 * module) here: SQL's GROUP BY sorts every row first, 5x slower on
	 * a logdir of many hosts.  Kernels have no self time of their own
	 * (self is total).
	 */
	sql = xasprintf("SELECT %s JOIN planes p ON p.id = o.plane "
	    "JOIN files f ON f.id = o.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1%s", kernels ?
	    "o.name, '', o.op, o.count, o.total_ps, o.total_ps, o.min_ps, "
	    "o.max_ps, NULL, NULL, NULL, NULL, NULL FROM kernels o" :
	    "o.name, o.module, o.category, o.count, o.total_ps, o.self_ps, "
	    "o.min_ps, o.max_ps, o.flops, o.bytes_accessed, o.framework_op, "
	    "o.source, o.source_function FROM ops o",
	    kernels || r->include_compile_work ? report_filter_sql() :
	    compile_work_filter);
	st = index_prepare(r->ix, sql);
	free(sql);
	free(compile_work_filter);
	report_bind_filters(r, st);
	strmap_init(&ops);
	*rows = NULL;
	*n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *module = (const char *)sqlite3_column_text(st, 1);
		size_t nlen = strlen(name), mlen = strlen(module);
		uint32_t id;

		/* The key "name\0module": names hold no NUL. */
		if (keycap < nlen + mlen + 1) {
			keycap = nlen + mlen + 1;
			key = xreallocarray(key, keycap, 1);
		}
		memcpy(key, name, nlen);
		key[nlen] = '\0';
		memcpy(key + nlen + 1, module, mlen);
		id = strmap_intern(&ops, key, nlen + mlen + 1);
		if (id == *n) {
			*rows = xreallocarray(*rows, *n + 1, sizeof **rows);
			memset(&(*rows)[*n], 0, sizeof **rows);
			(*rows)[*n].name = xstrdup(name);
			(*rows)[*n].module = xstrdup(module);
			(*n)++;
		}
		fold_row(&(*rows)[id], st);
	}
	sqlite3_finalize(st);
	strmap_release(&ops);
	free(key);
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
		}
		g->count += in[i].count;
		g->total_ps += in[i].total_ps;
		g->self_ps += in[i].self_ps;
		if (in[i].min_ps < g->min_ps)
			g->min_ps = in[i].min_ps;
		if (in[i].max_ps > g->max_ps)
			g->max_ps = in[i].max_ps;
		g->flops += in[i].has_flops ? in[i].flops : 0;
		g->has_flops |= in[i].has_flops;
		g->bytes += in[i].has_bytes ? in[i].bytes : 0;
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
}

void
op_rows_free(struct op_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].name);
		free(rows[i].module);
		free(rows[i].category);
		free(rows[i].framework_op);
		free(rows[i].source);
		free(rows[i].source_function);
	}
	free(rows);
}
