/* Rank ops (or categories, modules, kernels) by device time. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze-ops.h"
#include "classify.h"
#include "cmd.h"
#include "err.h"
#include "output.h"
#include "report.h"
#include "strmap.h"
#include "xmalloc.h"

static int	top_run(int argc, char **argv);

const struct cmd cmd_top = {
	.name = "top",
	.usage = "jaxprof top [--by=key] [--group=key] [--tree] [-n count] "
	    "[--fields=list] [--include-compile-work] "
	    "[--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--db=file] path ...",
	.summary = "rank ops by device time, self time, count or average",
	.options =
	    "  --by=KEY        device-time (default), self-time, count, avg\n"
	    "  --group=KEY     op (default), category, module, kernel,\n"
	    "                  framework-op, source (file:line from the HLO),\n"
	    "                  scope (host annotations)\n"
	    "  --tree          with --group=scope: the nesting as a tree\n"
	    "  -n, --limit=N   show the first N rows (0: all; default 20 in\n"
	    "                  table and markdown, all in csv and json)\n"
	    "  --fields=LIST   the columns, by their csv names, comma-separated\n"
	    "                  (default: those jaxprof-top(1) marks shown)\n"
	    "  --include-compile-work  also the ops of device work done while\n"
	    "                  compiling (autotuning; left out by default)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.run = top_run,
};

/*
 * One row of the report, an op's (or group's) or a scope's, as the
 * columns read it.
 */
struct top_line {
	int64_t		 rank;
	const char	*name, *module, *category, *source;
	int64_t		 count, total_ps, self_ps, min_ps, max_ps;
	int		 has_min_max;	/* scopes have none */
	double		 pct;
	int		 has_cum;	/* a tree of scopes has none */
	double		 cum;
	int64_t		 flops, bytes;
	int		 has_tree;	/* a scope in a tree: depth, parent */
	int64_t		 depth, parent_rank;	/* parent_rank 0: none */
};

static void
put_rank(struct output *o, const struct top_line *l)
{
	output_int(o, l->rank);
}

static void
put_name(struct output *o, const struct top_line *l)
{
	output_str(o, l->name);
}

static void
put_module(struct output *o, const struct top_line *l)
{
	output_str(o, l->module);
}

static void
put_category(struct output *o, const struct top_line *l)
{
	output_str(o, l->category);
}

static void
put_count(struct output *o, const struct top_line *l)
{
	output_int(o, l->count);
}

static void
put_total(struct output *o, const struct top_line *l)
{
	output_ps(o, (double)l->total_ps);
}

static void
put_self(struct output *o, const struct top_line *l)
{
	output_ps(o, (double)l->self_ps);
}

static void
put_avg(struct output *o, const struct top_line *l)
{
	output_ps(o, l->count > 0 ? (double)l->total_ps / (double)l->count :
	    0);
}

static void
put_min(struct output *o, const struct top_line *l)
{
	if (l->has_min_max)
		output_ps(o, (double)l->min_ps);
	else
		output_null(o);
}

static void
put_max(struct output *o, const struct top_line *l)
{
	if (l->has_min_max)
		output_ps(o, (double)l->max_ps);
	else
		output_null(o);
}

static void
put_pct(struct output *o, const struct top_line *l)
{
	output_double(o, l->pct);
}

static void
put_cum(struct output *o, const struct top_line *l)
{
	if (l->has_cum)
		output_double(o, l->cum);
	else
		output_null(o);
}

/* Units per ps * 1e3 = G units per second, when the rate means something. */
static void
put_rate(struct output *o, const struct top_line *l, int64_t units)
{
	if (units > 0 && rate_meaningful((double)l->total_ps,
	    (double)l->count))
		output_double(o, (double)units / (double)l->total_ps * 1e3);
	else
		output_null(o);
}

static void
put_gflops(struct output *o, const struct top_line *l)
{
	put_rate(o, l, l->flops);
}

static void
put_gbps(struct output *o, const struct top_line *l)
{
	put_rate(o, l, l->bytes);
}

/* Arithmetic intensity, the roofline's x axis. */
static void
put_intensity(struct output *o, const struct top_line *l)
{
	if (l->flops > 0 && l->bytes > 0)
		output_double(o, (double)l->flops / (double)l->bytes);
	else
		output_null(o);
}

static void
put_source(struct output *o, const struct top_line *l)
{
	output_str(o, l->source);
}

static void
put_depth(struct output *o, const struct top_line *l)
{
	if (l->has_tree)
		output_int(o, l->depth);
	else
		output_null(o);
}

static void
put_parent_rank(struct output *o, const struct top_line *l)
{
	if (l->has_tree && l->parent_rank > 0)
		output_int(o, l->parent_rank);
	else
		output_null(o);
}

/*
 * The columns of top, in their default order: the csv and json name (with
 * its unit), the kind of value (its format), the table's header, what the
 * cell holds, and whether it is shown without --fields.
 */
static const struct top_field {
	struct out_col	 col;
	void		(*put)(struct output *, const struct top_line *);
	int		 shown;
} fields[] = {
	{ { "rank", COL_INT, "#" }, put_rank, 1 },
	{ { "name", COL_STR, NULL }, put_name, 1 },
	{ { "module", COL_STR, NULL }, put_module, 1 },
	{ { "category", COL_STR, NULL }, put_category, 1 },
	{ { "count", COL_INT, NULL }, put_count, 1 },
	{ { "total_us", COL_PS, "total" }, put_total, 1 },
	{ { "self_us", COL_PS, "self" }, put_self, 1 },
	{ { "avg_us", COL_PS, "avg" }, put_avg, 1 },
	{ { "min_us", COL_PS, "min" }, put_min, 1 },
	{ { "max_us", COL_PS, "max" }, put_max, 1 },
	{ { "percent", COL_PCT, "%" }, put_pct, 1 },
	{ { "cum_percent", COL_PCT, "cum%" }, put_cum, 1 },
	{ { "gflops_per_s", COL_RATE, "GFLOP/s" }, put_gflops, 1 },
	{ { "gbps", COL_RATE, "GB/s" }, put_gbps, 1 },
	{ { "flop_per_byte", COL_RATE, "FLOP/B" }, put_intensity, 0 },
	{ { "source", COL_STR, NULL }, put_source, 1 },
	/* A scope tree's, added by default in csv and json. */
	{ { "depth", COL_INT, NULL }, put_depth, 0 },
	{ { "parent_rank", COL_INT, NULL }, put_parent_rank, 0 },
};

#define NFIELDS	(sizeof fields / sizeof fields[0])

/* The columns chosen: --fields (NULL: the default ones). */
struct top_columns {
	const struct top_field *field[NFIELDS];
	struct out_col	 col[NFIELDS];
	size_t		 n;
};

/* Exits 2 on a --fields list naming no column, an unknown or a repeated one. */
static void
bad_fields(const char *list, const char *why, const char *p, size_t len)
{
	char *choices = xstrdup(fields[0].col.name), *more;
	size_t k;

	for (k = 1; k < NFIELDS; k++) {
		more = xasprintf("%s, %s", choices, fields[k].col.name);
		free(choices);
		choices = more;
	}
	jp_errx(EXIT_TROUBLE, "invalid --fields '%s': %s '%.*s' (choose from "
	    "%s)", list, why, (int)len, p, choices);
}

/* tree_fields: the default columns and a scope tree's depth and parent. */
static void
choose_columns(struct top_columns *c, const char *list, int tree_fields)
{
	const char *p = list, *end;
	size_t i, k, len;

	c->n = 0;
	if (list == NULL) {
		for (i = 0; i < NFIELDS; i++)
			if (fields[i].shown || (tree_fields &&
			    (fields[i].put == put_depth ||
			    fields[i].put == put_parent_rank)))
				c->field[c->n++] = &fields[i];
	}
	for (; p != NULL && *p != '\0'; p = *end == ',' ? end + 1 : end) {
		end = p + strcspn(p, ",");
		len = (size_t)(end - p);
		for (i = 0; i < NFIELDS; i++)
			if (strlen(fields[i].col.name) == len &&
			    strncmp(fields[i].col.name, p, len) == 0)
				break;
		if (i == NFIELDS)
			bad_fields(list, "no column", p, len);
		for (k = 0; k < c->n; k++)
			if (c->field[k] == &fields[i])
				bad_fields(list, "the same column twice:", p, len);
		c->field[c->n++] = &fields[i];
	}
	if (c->n == 0)
		bad_fields(list, "no column named", "", 0);
	for (i = 0; i < c->n; i++)
		c->col[i] = c->field[i]->col;
}

/* A row of the chosen columns. */
static void
put_line(struct output *o, const struct top_columns *c,
    const struct top_line *l)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		c->field[i]->put(o, l);
	output_end_row(o);
}

/* The title lines: what was ranked, over which devices. */
static void
add_titles(struct report *r, struct output *o, enum op_by by,
    enum op_group group)
{
	sqlite3_stmt *st;
	char *sql, *line;
	int host_only = 1, any = 0, ndev = 0;

	line = xasprintf("Top %s by %s", op_group_title(group),
	    op_by_title(by));
	output_title(o, line);
	free(line);
	/*
	 * Each file's planes count: GPU:0 of two hosts is two planes.  One
	 * index probe per plane, not a scan of every op row.
	 */
	sql = xasprintf("SELECT p.id, f.op_source FROM planes p "
	    "JOIN files f ON f.id = p.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE EXISTS (SELECT 1 "
	    "FROM %s o WHERE o.file_id = p.file_id AND o.plane = p.id)%s "
	    "ORDER BY p.id", group == GROUP_KERNEL ? "kernels" : "ops",
	    report_filter_sql());
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *src = (const char *)sqlite3_column_text(st, 1);

		any = 1;
		ndev++;
		if (src == NULL || strncmp(src, "host", 4) != 0)
			host_only = 0;
	}
	sqlite3_finalize(st);
	if (any && host_only)
		output_title(o, "CPU-only profile: op events on the host's "
		    "compute threads stand in for device ops.");
	line = xasprintf("%d plane%s; times summed over hosts and devices.",
	    ndev, ndev == 1 ? "" : "s");
	output_title(o, line);
	free(line);
	if (report_has_json(r))
		output_title(o, "Read from trace JSON, which has no FLOP or "
		    "byte counts: GFLOP/s and GB/s are empty for it.");
}

/*
 * The note under the table on CUDA-graph kernels that no HLO op could be
 * found for (docs/command-buffers.md), or NULL when there are none.
 */
static char *
note_unattributed(const struct op_row *rows, size_t n, int json)
{
	int64_t count = 0, ps = 0, all_ps = 0;
	char dur[64];
	size_t i;

	for (i = 0; i < n; i++) {
		all_ps += rows[i].self_ps;
		if (strcmp(rows[i].category, CATEGORY_UNATTRIBUTED) != 0)
			continue;
		count += rows[i].count;
		ps += rows[i].self_ps;
	}
	if (count == 0)
		return NULL;
	fmt_duration(dur, sizeof dur, ps);
	/* Trace JSON has no HLO: only fusions' kernel names name ops. */
	return xasprintf("%lld kernel run%s (%s, %.2f%% of the time) in CUDA "
	    "graphs matched no HLO op %s: category '%s', under their kernel "
	    "names.", (long long)count, count == 1 ? "" : "s", dur,
	    all_ps > 0 ? 100.0 * (double)ps / (double)all_ps : 0, json ?
	    "(trace JSON has no HLO: fusions are named after their kernels, "
	    "library kernels are not; the XSpace names them all)" :
	    "by name or schedule", CATEGORY_UNATTRIBUTED);
}

/*
 * --group=module: a module runs once per launch, not once per op, so its
 * count is its launches (table modules) and its average per launch; its
 * ops' shortest and longest say nothing of a launch: left empty (-1).
 */
static void
per_launch(struct report *r, struct op_row *rows, size_t n)
{
	sqlite3_stmt *st;
	size_t i;

	st = report_prepare(r, "SELECT sum(m.count) FROM modules m "
	    "JOIN planes p ON p.id = m.plane JOIN files f ON f.id = m.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE m.name = ?1 AND "
	    "(m.compile_work = 0 OR ?2)", "");
	for (i = 0; i < n; i++) {
		sqlite3_bind_text(st, 1, rows[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, r->include_compile_work);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int64(st, 0) > 0) {
			rows[i].count = sqlite3_column_int64(st, 0);
			rows[i].min_ps = rows[i].max_ps = -1;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

/* Host time per annotation scope (a path of nested host events). */
struct scope_row {
	char		*path;		/* names joined by ';' */
	const char	*name;		/* the last of them, in path */
	int		 depth;
	int64_t		 count, total_ps, self_ps;
	size_t		 parent;	/* index, or SIZE_MAX at the top */
};

static struct scope_row *sort_rows;	/* for the comparators below */
static enum op_by sort_by;

static double
scope_value(const struct scope_row *s)
{
	switch (sort_by) {
	case BY_SELF_TIME:
		return (double)s->self_ps;
	case BY_COUNT:
		return (double)s->count;
	case BY_AVG:
		return s->count > 0 ? (double)s->total_ps / (double)s->count : 0;
	default:
		return (double)s->total_ps;
	}
}

static int
cmp_scope(const void *a, const void *b)
{
	const struct scope_row *x = a, *y = b;
	double vx = scope_value(x), vy = scope_value(y);

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Tree order: siblings by value, each followed by its subtree. */
static int
cmp_tree(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	size_t chain_a[64], chain_b[64];
	size_t na = 0, nb = 0, i;

	/* Compare the ancestors at the first level where they differ. */
	for (i = ia; i != SIZE_MAX && na < 64; i = sort_rows[i].parent)
		chain_a[na++] = i;
	for (i = ib; i != SIZE_MAX && nb < 64; i = sort_rows[i].parent)
		chain_b[nb++] = i;
	while (na > 0 && nb > 0 && chain_a[na - 1] == chain_b[nb - 1]) {
		na--;
		nb--;
	}
	if (na == 0 || nb == 0)
		return na == 0 ? -1 : 1;	/* an ancestor goes first */
	return cmp_scope(&sort_rows[chain_a[na - 1]],
	    &sort_rows[chain_b[nb - 1]]);
}

static struct scope_row *
load_scopes(struct report *r, size_t *nrows)
{
	struct scope_row *rows = NULL;
	struct strmap paths;
	sqlite3_stmt *st;
	size_t n = 0, i;
	char *sql;

	sql = xasprintf("SELECT sc.path, min(sc.depth), sum(sc.count), "
	    "sum(sc.total_ps), sum(sc.self_ps) FROM scopes sc "
	    "JOIN planes p ON p.id = sc.plane JOIN files f ON f.id = "
	    "sc.file_id JOIN selected s ON s.file_id = f.id WHERE 1%s "
	    "GROUP BY sc.path ORDER BY sc.path", report_filter_sql());
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct scope_row *row;
		const char *semi;

		rows = xreallocarray(rows, n + 1, sizeof *rows);
		row = &rows[n++];
		row->path = xstrdup((const char *)sqlite3_column_text(st, 0));
		semi = strrchr(row->path, ';');
		row->name = semi != NULL ? semi + 1 : row->path;
		row->depth = sqlite3_column_int(st, 1);
		row->count = sqlite3_column_int64(st, 2);
		row->total_ps = sqlite3_column_int64(st, 3);
		row->self_ps = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	/*
	 * The parent's path is the path without its last name.  Found by
	 * hash: real profiles have thousands of distinct paths.  The paths
	 * are distinct (grouped by), so a path's id is its row.
	 */
	strmap_init(&paths);
	for (i = 0; i < n; i++)
		(void)strmap_intern(&paths, rows[i].path,
		    strlen(rows[i].path));
	for (i = 0; i < n; i++) {
		size_t plen = (size_t)(rows[i].name - rows[i].path);
		int64_t parent = plen > 0 ?
		    strmap_find(&paths, rows[i].path, plen - 1) : -1;

		rows[i].parent = parent >= 0 ? (size_t)parent : SIZE_MAX;
	}
	strmap_release(&paths);
	*nrows = n;
	return rows;
}

/*
 * --group=scope: host annotations (TraceAnnotation, named functions,
 * runtime events) with inclusive and self host time; --tree indents them
 * under their parents, with each one's share of the top-level total.
 */
static void
print_scopes(struct report *r, struct output *o, const struct top_columns *c,
    enum op_by by, int tree, long limit)
{
	struct scope_row *rows;
	size_t n, i, k, *order, *rank;
	double self_sum = 0, top_sum = 0, cum = 0;
	int machine = r->format == FMT_CSV || r->format == FMT_JSON;

	rows = load_scopes(r, &n);
	order = xcalloc(n + 1, sizeof *order);
	for (i = 0; i < n; i++) {
		order[i] = i;
		self_sum += (double)rows[i].self_ps;
		if (rows[i].parent == SIZE_MAX)
			top_sum += (double)rows[i].total_ps;
	}
	sort_rows = rows;
	sort_by = by;
	if (tree && n > 0)
		qsort(order, n, sizeof *order, cmp_tree);
	else if (n > 0) {
		qsort(rows, n, sizeof *rows, cmp_scope);
		for (i = 0; i < n; i++)	/* parents are stale now, unused */
			rows[i].name = rows[i].path;
	}
	if (n == 0)
		jp_warnx("no host annotation scopes in the selection");
	output_title(o, tree ? "Host annotation scopes as a tree: % is the "
	    "share of all top-level scopes' time." : "Host annotation "
	    "scopes (paths of nested host events, ';'-separated): % is the "
	    "share of all self time.");
	k = limit == 0 || (size_t)limit > n ? n : (size_t)limit;
	rank = xcalloc(n + 1, sizeof *rank);
	for (i = 0; i < k; i++) {
		const struct scope_row *row = &rows[order[i]];
		struct top_line l;
		char *name = NULL;

		memset(&l, 0, sizeof l);
		l.rank = (int64_t)i + 1;
		rank[order[i]] = i + 1;
		if (tree) {
			/* Machine formats give the tree as depth and parent. */
			name = xasprintf("%*s%s", machine ? 0 : 2 * row->depth,
			    "", row->name);
			l.name = name;
			l.has_tree = 1;
			l.depth = row->depth;
			/* Tree order: a parent is ranked before its children. */
			l.parent_rank = row->parent != SIZE_MAX ?
			    (int64_t)rank[row->parent] : 0;
			l.pct = top_sum > 0 ? 100 * (double)row->total_ps /
			    top_sum : 0;
		} else {
			l.name = row->path;
			l.pct = self_sum > 0 ? 100 * (double)row->self_ps /
			    self_sum : 0;
			cum += l.pct;
			l.has_cum = 1;
			l.cum = cum;
		}
		l.module = "";
		l.category = "scope";
		l.source = "";
		l.count = row->count;
		l.total_ps = row->total_ps;
		l.self_ps = row->self_ps;
		put_line(o, c, &l);
		free(name);
	}
	output_more_rows(o, k, n);
	for (i = 0; i < n; i++)
		free(rows[i].path);
	free(rows);
	free(order);
	free(rank);
}

static int
top_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "fields", required_argument, NULL, 'f' },
		{ "group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "include-compile-work", no_argument, NULL, 0x300 },
		{ "limit", required_argument, NULL, 'n' },
		{ "tree", no_argument, NULL, 't' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct top_columns cols;
	const char *field_list = NULL;
	struct report r;
	struct op_row *rows;
	struct output *o;
	size_t nrows, i, k;
	long limit = -1;
	int ch, by = BY_DEVICE_TIME, group = GROUP_OP, status = EXIT_OK;
	int scopes = 0, tree = 0;
	double total_self = 0, cum = 0;
	char *unattributed;

	report_init(&r, "top");
	while ((ch = getopt_long(argc, argv, "hn:", longopts, NULL)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'b':
			if ((by = op_by_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --by '%s' "
				    "(choose from %s)", optarg, op_by_choices);
			break;
		case 'g':
			if ((scopes = strcmp(optarg, "scope") == 0))
				break;
			if ((group = op_group_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --group '%s' "
				    "(choose from %s, scope)", optarg,
				    op_group_choices);
			break;
		case 'f':
			field_list = optarg;
			break;
		case 't':
			tree = 1;
			break;
		case 0x300:
			r.include_compile_work = 1;
			break;
		case 'h':
			cmd_print_help(&cmd_top, stdout);
			return EXIT_OK;
		case 'n':
			limit = parse_long_option("top", "limit", optarg, 0,
			    1000000000L);
			break;
		default:
			cmd_usage_error(&cmd_top);
		}
	}
	if (tree && !scopes)
		jp_errx(EXIT_TROUBLE, "--tree goes with --group=scope");
	/* Machine formats feed programs: a silent cut would skew them. */
	if (limit == -1)
		limit = r.format == FMT_CSV || r.format == FMT_JSON ? 0 : 20;
	choose_columns(&cols, field_list, tree && field_list == NULL &&
	    (r.format == FMT_CSV || r.format == FMT_JSON));
	report_open(&r, argc - optind, argv + optind);
	if (scopes) {
		o = report_output(&r, cols.col, cols.n);
		print_scopes(&r, o, &cols, by, tree, limit);
		if (output_finish(o) == -1)
			status = EXIT_TROUBLE;
		return report_close(&r, status);
	}

	op_rows_query(&r, group == GROUP_KERNEL, &rows, &nrows);
	unattributed = note_unattributed(rows, nrows, report_has_json(&r));
	op_rows_group(&rows, &nrows, group);
	if (group == GROUP_MODULE)
		per_launch(&r, rows, nrows);
	op_rows_sort(rows, nrows, by);
	for (i = 0; i < nrows; i++)
		total_self += (double)rows[i].self_ps;
	if (nrows == 0)
		jp_warnx("no ops in the selection");

	o = report_output(&r, cols.col, cols.n);
	add_titles(&r, o, by, group);
	k = limit == 0 || (size_t)limit > nrows ? nrows : (size_t)limit;
	for (i = 0; i < k; i++) {
		const struct op_row *row = &rows[i];
		struct top_line l;

		l.rank = (int64_t)i + 1;
		l.name = row->name;
		l.module = row->module;
		l.category = row->category;
		l.source = row->source;
		l.count = row->count;
		l.total_ps = row->total_ps;
		l.self_ps = row->self_ps;
		l.min_ps = row->min_ps;
		l.max_ps = row->max_ps;
		l.has_min_max = row->min_ps >= 0;	/* per_launch(): none */
		l.pct = total_self > 0 ?
		    100.0 * (double)row->self_ps / total_self : 0;
		cum += l.pct;
		l.has_cum = 1;
		l.cum = cum;
		l.flops = row->flops;
		l.bytes = row->bytes;
		put_line(o, &cols, &l);
	}
	op_rows_free(rows, nrows);
	output_more_rows(o, k, nrows);
	if (unattributed != NULL) {
		output_note(o, unattributed);
		free(unattributed);
	}
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
