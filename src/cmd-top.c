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
#include "kernel-stats.h"
#include "output.h"
#include "report.h"
#include "strmap.h"
#include "xmalloc.h"

static int	top_run(int argc, char **argv);

const struct cmd cmd_top = {
	.name = "top",
	.usage = "jaxprof top [--by=key] [--group=key] [--tree] [-n count] "
	    "[--include-compile-work] "
	    "[--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--db=file] path ...",
	.summary = "rank ops by device time, self time, count or average",
	.options =
	    "  --by=KEY        device-time (default), self-time, count, avg\n"
	    "  --group=KEY     op (default), category, module, kernel,\n"
	    "                  framework-op, source (file:line from the HLO),\n"
	    "                  scope (host annotations)\n"
	    "  --tree          with --group=scope: the nesting as a tree\n"
	    "  -n, --limit=N   show the first N rows (default 20; 0: all)\n"
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

/* The columns of every grouping; kernels have more (kernel_columns). */
#define TOP_COLUMNS \
	{ "rank", COL_INT, "#" }, \
	{ "name", COL_STR, NULL }, \
	{ "module", COL_STR, NULL }, \
	{ "category", COL_STR, NULL }, \
	{ "count", COL_INT, NULL }, \
	{ "total_us", COL_PS, "total" }, \
	{ "self_us", COL_PS, "self" }, \
	{ "avg_us", COL_PS, "avg" }, \
	{ "min_us", COL_PS, "min" }, \
	{ "max_us", COL_PS, "max" }, \
	{ "percent", COL_PCT, "%" }, \
	{ "cum_percent", COL_PCT, "cum%" }, \
	{ "gflops_per_s", COL_RATE, "GFLOP/s" }, \
	{ "gbps", COL_RATE, "GB/s" }, \
	{ "source", COL_STR, NULL }, \
	{ "flops", COL_INT, "FLOP" }, \
	{ "bytes_accessed", COL_INT, "bytes" }, \
	{ "intensity", COL_RATE, "FLOP/B" }, \
	{ "bound", COL_STR, NULL }, \
	{ "roofline_pct", COL_PCT, "roof%" },

static const struct out_col columns[] = {
	TOP_COLUMNS
};

static const struct out_col kernel_columns[] = {
	TOP_COLUMNS
	{ "op", COL_STR, NULL },
	{ "framework_op", COL_STR, NULL },
	{ "registers_per_thread", COL_INT, "regs" },
	{ "shared_mem_bytes", COL_INT, "shmem" },
	{ "block", COL_STR, NULL },
	{ "grid", COL_STR, NULL },
	{ "occupancy_pct", COL_PCT, "occ%" },
	{ "tensor_core", COL_STR, "TC" },
};

/* The peaks the roofline is drawn with; gflops 0 when none is known. */
struct roof {
	double		 gflops, gbps;
};

/*
 * The device peaks of the selected planes, when they all have the same
 * (a roofline for one kind of device); else none.
 */
static struct roof
roof_of(struct report *r)
{
	struct roof roof = { 0, 0 };
	sqlite3_stmt *st;
	int n = 0;

	st = report_prepare(r, "SELECT DISTINCT p.peak_gflops, p.peak_gbps "
	    "FROM planes p JOIN files f ON f.id = p.file_id "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE p.peak_gflops > 0 AND p.peak_gbps > 0", "");
	while (sqlite3_step(st) == SQLITE_ROW && n++ == 0) {
		roof.gflops = sqlite3_column_double(st, 0);
		roof.gbps = sqlite3_column_double(st, 1);
	}
	sqlite3_finalize(st);
	if (n != 1)
		roof.gflops = roof.gbps = 0;
	return roof;
}

/*
 * The cost columns: totals over the row's runs, FLOP per byte, and where
 * the device's peaks are known, which roof bounds the row (its intensity
 * against the ridge point, peak FLOP/s over peak bytes/s) and its rate as
 * a share of that roof at its intensity.
 */
static void
add_cost(struct output *o, const struct op_row *row, struct roof roof)
{
	double in = row->has_flops && row->has_bytes && row->bytes > 0 ?
	    (double)row->flops / (double)row->bytes : -1;

	if (row->has_flops)
		output_int(o, row->flops);
	else
		output_null(o);
	if (row->has_bytes)
		output_int(o, row->bytes);
	else
		output_null(o);
	if (in >= 0)
		output_double(o, in);
	else
		output_null(o);
	if (in >= 0 && roof.gflops > 0 && row->flops > 0 &&
	    rate_meaningful((double)row->total_ps, (double)row->count)) {
		double ridge = roof.gflops / roof.gbps;
		double top = in >= ridge ? roof.gflops : in * roof.gbps;

		output_str(o, in >= ridge ? "compute" : "memory");
		/* FLOP per ps * 1e3 = GFLOP/s */
		output_double(o, 100.0 * (double)row->flops /
		    (double)row->total_ps * 1e3 / top);
	} else {
		output_null(o);
		output_null(o);
	}
}

/*
 * A kernel's columns: the HLO op it runs, its launch configuration from its
 * kernel_details (empty without), and whether it uses the tensor cores.
 */
static void
add_kernel(struct output *o, const struct op_row *row)
{
	struct kernel_launch kl;
	char dims[2][3 * 24];
	int i;

	output_str(o, row->hlo_op != NULL ? row->hlo_op : "");
	output_str(o, row->framework_op);
	if (row->details == NULL || row->details[0] == '\0') {
		for (i = 0; i < 5; i++)
			output_null(o);
	} else {
		kernel_launch_parse(row->details, &kl);
		output_int(o, kl.regs);
		output_int(o, kl.shared);
		snprintf(dims[0], sizeof dims[0], "%lld,%lld,%lld",
		    (long long)kl.block[0], (long long)kl.block[1],
		    (long long)kl.block[2]);
		snprintf(dims[1], sizeof dims[1], "%lld,%lld,%lld",
		    (long long)kl.grid[0], (long long)kl.grid[1],
		    (long long)kl.grid[2]);
		output_str(o, dims[0]);
		output_str(o, dims[1]);
		output_double(o, kl.occ_pct);
	}
	output_str(o, kernel_uses_tensor_core(row->name) ? "yes" : "no");
}

/* The title lines: what was ranked, over which devices. */
static void
add_titles(struct report *r, struct output *o, enum op_by by,
    enum op_group group, int any_cost)
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
	else if (!any_cost)
		output_title(o, "FLOPs unknown: no cost stats and no HLO in "
		    "the profile; the cost columns are empty.");
}

/*
 * The note under the table on CUDA-graph kernels that no HLO op could be
 * found for (docs/command-buffers.md), or NULL when there are none.
 */
static char *
note_unattributed(const struct op_row *rows, size_t n)
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
	return xasprintf("%lld kernel run%s (%s, %.2f%% of the time) in CUDA "
	    "graphs matched no HLO op by name or schedule: category '%s', "
	    "under their kernel names.", (long long)count, count == 1 ? "" :
	    "s", dur, all_ps > 0 ? 100.0 * (double)ps / (double)all_ps : 0,
	    CATEGORY_UNATTRIBUTED);
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
print_scopes(struct report *r, struct output *o, enum op_by by, int tree,
    long limit)
{
	struct scope_row *rows;
	size_t n, i, k, *order;
	double self_sum = 0, top_sum = 0, cum = 0;

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
	for (i = 0; i < k; i++) {
		const struct scope_row *row = &rows[order[i]];
		double pct;

		if (tree) {
			char *name = xasprintf("%*s%s", 2 * row->depth, "",
			    row->name);

			pct = top_sum > 0 ? 100 * (double)row->total_ps /
			    top_sum : 0;
			output_int(o, (int64_t)i + 1);
			output_str(o, name);
			free(name);
		} else {
			pct = self_sum > 0 ? 100 * (double)row->self_ps /
			    self_sum : 0;
			cum += pct;
			output_int(o, (int64_t)i + 1);
			output_str(o, row->path);
		}
		output_str(o, "");
		output_str(o, "scope");
		output_int(o, row->count);
		output_ps(o, (double)row->total_ps);
		output_ps(o, (double)row->self_ps);
		output_ps(o, row->count > 0 ? (double)row->total_ps /
		    (double)row->count : 0);
		output_null(o);
		output_null(o);
		output_double(o, pct);
		if (tree)
			output_null(o);
		else
			output_double(o, cum);
		output_null(o);
		output_null(o);
		output_str(o, "");
		output_end_row(o);
	}
	output_more_rows(o, k, n);
	for (i = 0; i < n; i++)
		free(rows[i].path);
	free(rows);
	free(order);
}

static int
top_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "include-compile-work", no_argument, NULL, 0x300 },
		{ "limit", required_argument, NULL, 'n' },
		{ "tree", no_argument, NULL, 't' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	struct op_row *rows;
	struct output *o;
	size_t nrows, i, k;
	long limit = 20;
	int ch, by = BY_DEVICE_TIME, group = GROUP_OP, status = EXIT_OK;
	int scopes = 0, tree = 0, any_cost = 0;
	double total_self = 0, cum = 0;
	struct roof roof;
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
	if (scopes)
		r.needs = INDEX_SCOPES;
	report_open(&r, argc - optind, argv + optind);
	report_remember(&r, argc, argv);
	if (scopes) {
		o = output_new(r.format, stdout, columns,
		    sizeof columns / sizeof columns[0]);
		print_scopes(&r, o, by, tree, limit);
		if (output_finish(o) == -1)
			status = EXIT_TROUBLE;
		return report_close(&r, status);
	}

	op_rows_query(&r, group == GROUP_KERNEL, &rows, &nrows);
	roof = roof_of(&r);
	unattributed = note_unattributed(rows, nrows);
	op_rows_group(&rows, &nrows, group);
	op_rows_sort(rows, nrows, by);
	for (i = 0; i < nrows; i++) {
		total_self += (double)rows[i].self_ps;
		any_cost |= rows[i].has_flops | rows[i].has_bytes;
	}
	if (nrows == 0)
		jp_warnx("no ops in the selection");

	if (group == GROUP_KERNEL)
		o = output_new(r.format, stdout, kernel_columns,
		    sizeof kernel_columns / sizeof kernel_columns[0]);
	else
		o = output_new(r.format, stdout, columns,
		    sizeof columns / sizeof columns[0]);
	add_titles(&r, o, by, group, any_cost || nrows == 0);
	k = limit == 0 || (size_t)limit > nrows ? nrows : (size_t)limit;
	for (i = 0; i < k; i++) {
		struct op_row *row = &rows[i];
		double pct = total_self > 0 ?
		    100.0 * (double)row->self_ps / total_self : 0;

		cum += pct;
		output_int(o, (int64_t)i + 1);
		output_str(o, row->name);
		output_str(o, row->module);
		output_str(o, row->category);
		output_int(o, row->count);
		output_ps(o, (double)row->total_ps);
		output_ps(o, (double)row->self_ps);
		output_ps(o, row->count > 0 ? (double)row->total_ps /
		    (double)row->count : 0);
		output_ps(o, (double)row->min_ps);
		output_ps(o, (double)row->max_ps);
		output_double(o, pct);
		output_double(o, cum);
		/* FLOP per ps * 1e3 = GFLOP/s; likewise GB/s. */
		if (row->flops > 0 && rate_meaningful((double)row->total_ps,
		    (double)row->count))
			output_double(o, (double)row->flops /
			    (double)row->total_ps * 1e3);
		else
			output_null(o);
		if (row->bytes > 0 && rate_meaningful((double)row->total_ps,
		    (double)row->count))
			output_double(o, (double)row->bytes /
			    (double)row->total_ps * 1e3);
		else
			output_null(o);
		output_str(o, row->source);
		add_cost(o, row, roof);
		if (group == GROUP_KERNEL)
			add_kernel(o, row);
		output_end_row(o);
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
