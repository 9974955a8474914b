/*
 * The top report: the selection's ops ranked (top_report()), grouped as
 * --group says, each judged against the devices' roofline; or its host
 * annotation scopes, flat or as a tree.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/top.h"
#include "classify/classify.h"
#include "index/index.h"
#include "lib/checked.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "lib/strmap.h"
#include "lib/units.h"
#include "lib/xmalloc.h"
#include "report/op-what.h"
#include "report/report.h"

static void
add_line(char ***lines, size_t *n, char *line)
{
	*lines = xreallocarray(*lines, *n + 1, sizeof **lines);
	(*lines)[(*n)++] = line;
}

double
top_parse_rate(const char *opt, const char *arg)
{
	static const char prefixes[] = "kMGTP";
	const char *p;
	char *end;
	double v = strtod(arg, &end), scale = 1e-9;

	if (*end != '\0' && end[1] == '\0' &&
	    (p = strchr(prefixes, *end)) != NULL) {
		scale *= pow(1e3, (double)(p - prefixes + 1));
		end++;
	}
	if (end == arg || *end != '\0' || !isfinite(v) || v <= 0)
		jp_errx(EXIT_TROUBLE, "invalid --%s '%s' (a rate per second "
		    "above 0, with k, M, G, T or P if you like: 989T)", opt,
		    arg);
	return v * scale;
}

/*
 * The device peaks of the selected planes, when they all have the same
 * (a roofline for one kind of device), with the options over them.  A
 * device in the table has a rate per precision, each op judged at its
 * own (roof_peak()); gflops is its 16-bit rate, xprof's for every op.
 */
static void
roof_of(struct report *r, struct top_roof *roof)
{
	sqlite3_stmt *st;

	st = report_prepare(r, "SELECT DISTINCT p.peak_gflops, p.peak_gbps, "
	    "p.device_model, p.peak_source, p.peak_bf16_gflops, "
	    "p.peak_fp8_gflops, p.peak_tf32_gflops, p.peak_fp32_gflops, "
	    "p.peak_fp64_gflops, p.peak_int8_gflops "
	    "FROM planes p JOIN files f ON f.id = p.file_id "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE p.peak_gflops > 0 AND p.peak_gbps > 0", "");
	while (index_row(st) && roof->ndevices++ == 0) {
		const char *model = (const char *)sqlite3_column_text(st, 2);
		const char *source = (const char *)sqlite3_column_text(st, 3);
		double bf16 = sqlite3_column_double(st, 4);

		static const int precs[] = { PREC_BF16, PREC_FP8, PREC_TF32,
		    PREC_FP32, PREC_FP64, PREC_INT8 };
		size_t k;

		for (k = 0; k < sizeof precs / sizeof precs[0]; k++)
			roof->prec_gflops[precs[k]] =
			    sqlite3_column_double(st, 4 + (int)k);
		roof->bf16 = bf16 > 0;
		roof->gflops = bf16 > 0 ? bf16 : sqlite3_column_double(st, 0);
		roof->gbps = sqlite3_column_double(st, 1);
		roof->model = model != NULL ? xstrdup(model) : NULL;
		roof->from_spec = source != NULL &&
		    strcmp(source, "spec") == 0;
	}
	sqlite3_finalize(st);
	if (roof->ndevices != 1) {
		roof->gflops = roof->gbps = 0;
		memset(roof->prec_gflops, 0, sizeof roof->prec_gflops);
	}
	if (roof->flops_option > 0) {
		roof->gflops = roof->flops_option;
		roof->bf16 = 0;
		memset(roof->prec_gflops, 0, sizeof roof->prec_gflops);
	}
	if (roof->bandwidth_option > 0)
		roof->gbps = roof->bandwidth_option;
	if (roof->gflops <= 0 || roof->gbps <= 0)
		roof->gflops = roof->gbps = 0;
}

/*
 * The title line naming the peaks the rows that compute are judged at,
 * each precision's, and how many fall back to the roof's own rate
 * (precision unknown or without a published rate); NULL where the table
 * gives no rates (the profile's figures, --peak-flops).
 */
static char *
precision_title(const struct top_roof *roof, const struct op_row *rows,
    size_t n)
{
	double seen[PREC_N] = { 0 };
	size_t i, fallback = 0;
	char *list, *more, *title;
	int p, any = 0;

	if (roof->gflops <= 0 || !roof->from_spec || roof->flops_option > 0)
		return NULL;
	list = xstrdup("");
	for (i = 0; i < n; i++) {
		if (!rows[i].has_flops || rows[i].flops <= 0)
			continue;
		p = precision_parse(rows[i].precision);
		if (p != PREC_UNKNOWN && roof->prec_gflops[p] > 0)
			seen[p] = roof->prec_gflops[p];
		else
			fallback++;
	}
	for (p = 0; p < PREC_N; p++) {
		if (seen[p] <= 0)
			continue;
		more = xasprintf("%s%s%s %.1f", list, any ? ", " : "",
		    precision_name(p), seen[p] / 1e3);
		free(list);
		list = more;
		any = 1;
	}
	if (!any) {
		free(list);
		return fallback == 0 ? NULL : xasprintf("Every op against the "
		    "%.1f TFLOP/s above: none that computes has a precision "
		    "with a published rate of its own.", roof->gflops / 1e3);
	}
	title = fallback == 0 ? xasprintf("Each op against its precision's "
	    "peak: %s TFLOP/s.", list) : xasprintf("Each op against its "
	    "precision's peak: %s TFLOP/s; %zu row%s of unknown precision, or "
	    "one without a published rate, against the %.1f above.", list,
	    fallback, fallback == 1 ? "" : "s", roof->gflops / 1e3);
	free(list);
	return title;
}

/* The title line saying where the roofline's peaks come from. */
static char *
roof_title(const struct top_roof *roof)
{
	const char *option = roof->flops_option > 0 ? ", --peak-flops" :
	    roof->bandwidth_option > 0 ? ", --peak-bandwidth" : "";
	char *from, *title;

	if (roof->gflops <= 0)
		return xstrdup(roof->ndevices > 1 ? "No roofline: the selected "
		    "devices' peaks differ (--device picks one kind, "
		    "--peak-flops and --peak-bandwidth give both)." :
		    "No roofline: the device's peaks are unknown "
		    "(--peak-flops and --peak-bandwidth give them).");
	if (roof->flops_option > 0 && roof->bandwidth_option > 0)
		from = xstrdup("--peak-flops and --peak-bandwidth");
	else if (roof->from_spec)
		from = xasprintf("%s's published specifications%s",
		    roof->model, option);
	else
		from = xasprintf("the profile's own figures (a device not in "
		    "jaxprof's table)%s", option);
	title = xasprintf("Roofline peaks from %s: %.1f TFLOP/s%s, %.2f "
	    "TB/s.", from, roof->gflops / 1e3, roof->bf16 ? " (bf16/fp16)" :
	    "", roof->gbps / 1e3);
	free(from);
	return title;
}

/*
 * The FLOP/s an op is judged against: its precision's published peak,
 * else (precision unknown, none published, --peak-flops) the roof's.
 */
static double
roof_peak(const struct top_roof *roof, int precision)
{
	return precision != PREC_UNKNOWN && roof->prec_gflops[precision] > 0 ?
	    roof->prec_gflops[precision] : roof->gflops;
}

/*
 * Whether the device's peaks bound the line: its intensity against the
 * ridge point (peak FLOP/s over peak bytes/s); an op that moves bytes and
 * computes nothing is memory-bound.  roof_pct is its rate's share of the
 * roof at its intensity.
 */
static void
roof_at(const struct top_roof *roof, struct top_line *l)
{
	double peak;

	l->intensity = l->has_flops && l->has_bytes && l->bytes > 0 ?
	    (double)l->flops / (double)l->bytes : -1;
	if (l->intensity < 0 || roof->gflops <= 0 ||
	    !rate_meaningful((double)l->total_ps, (double)l->count))
		return;
	peak = roof_peak(roof, l->precision);
	l->has_roof = 1;
	l->compute_bound = l->intensity >= peak / roof->gbps;
	/* units per ps * 1e3 = G units per second */
	l->roof_pct = l->compute_bound ?
	    100.0 * (double)l->flops / (double)l->total_ps * 1e3 / peak :
	    100.0 * (double)l->bytes / (double)l->total_ps * 1e3 / roof->gbps;
}

/* The title lines: what was ranked, over which devices, which peaks. */
static void
top_titles(struct report *r, struct top *t, const struct top_options *opt,
    int any_cost, int json)
{
	sqlite3_stmt *st;
	char *sql, *line;
	int host_only = 1, any = 0, ndev = 0;

	add_line(&t->title, &t->ntitles, xasprintf("Top %s by %s",
	    op_group_title(opt->group), op_by_title(opt->by)));
	/*
	 * Each file's planes count: GPU:0 of two hosts is two planes.  One
	 * index probe per plane, not a scan of every op row.
	 */
	sql = xasprintf("SELECT p.id, f.op_source FROM planes p "
	    "JOIN files f ON f.id = p.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE EXISTS (SELECT 1 "
	    "FROM %s o WHERE o.file_id = p.file_id AND o.plane = p.id)%s "
	    "ORDER BY p.id", opt->group == GROUP_KERNEL ? "kernels" : "ops",
	    report_filter_sql());
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (index_row(st)) {
		const char *src = (const char *)sqlite3_column_text(st, 1);

		any = 1;
		ndev++;
		if (src == NULL || strncmp(src, "host", 4) != 0)
			host_only = 0;
	}
	sqlite3_finalize(st);
	if (any && host_only)
		add_line(&t->title, &t->ntitles, xstrdup("CPU-only profile: "
		    "op events on the host's compute threads stand in for "
		    "device ops."));
	add_line(&t->title, &t->ntitles, xasprintf("%d plane%s; times summed "
	    "over hosts and devices.", ndev, ndev == 1 ? "" : "s"));
	if (json)
		add_line(&t->title, &t->ntitles, xstrdup("Read from trace "
		    "JSON, which has no FLOP or byte counts: GFLOP/s and GB/s "
		    "are empty for it."));
	/* Kernels carry no costs of their own: their ops' rows have them. */
	else if (!any_cost && opt->group != GROUP_KERNEL && any && host_only)
		add_line(&t->title, &t->ntitles, xstrdup("FLOPs unknown: the "
		    "HLO's costs go to device kernels, and these ops ran on "
		    "the host; the cost columns are empty."));
	else if (!any_cost && opt->group != GROUP_KERNEL)
		add_line(&t->title, &t->ntitles, xstrdup("FLOPs unknown: no "
		    "cost stats and no HLO in the profile; the cost columns "
		    "are empty."));
	if (any_cost && any && !host_only && !json) {
		add_line(&t->title, &t->ntitles, roof_title(&t->roof));
		if ((line = precision_title(&t->roof, t->ops, t->nops)) !=
		    NULL)
			add_line(&t->title, &t->ntitles, line);
	}
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
		all_ps = ps_add(all_ps, rows[i].self_ps);
		if (strcmp(rows[i].category, CATEGORY_UNATTRIBUTED) != 0)
			continue;
		count = sat_add(count, rows[i].count);
		ps = ps_add(ps, rows[i].self_ps);
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
		if (index_row(st) &&
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
	while (index_row(st)) {
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
top_scopes(struct report *r, const struct top_options *opt, struct top *t)
{
	struct scope_row *rows;
	size_t n, i, k, *order, *rank;
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
	sort_by = opt->by;
	if (opt->tree && n > 0)
		qsort(order, n, sizeof *order, cmp_tree);
	else if (n > 0) {
		qsort(rows, n, sizeof *rows, cmp_scope);
		for (i = 0; i < n; i++)	/* parents are stale now, unused */
			rows[i].name = rows[i].path;
	}
	if (n == 0)
		jp_warnx("no host annotation scopes in the selection");
	add_line(&t->title, &t->ntitles, xstrdup(opt->tree ? "Host annotation "
	    "scopes as a tree: % is the share of all top-level scopes' time." :
	    "Host annotation scopes (paths of nested host events, "
	    "';'-separated): % is the share of all self time."));
	k = opt->limit == 0 || (size_t)opt->limit > n ? n : (size_t)opt->limit;
	rank = xcalloc(n + 1, sizeof *rank);
	t->line = xcalloc(k + 1, sizeof *t->line);
	for (i = 0; i < k; i++) {
		const struct scope_row *row = &rows[order[i]];
		struct top_line *l = &t->line[i];

		l->rank = (int64_t)i + 1;
		rank[order[i]] = i + 1;
		if (opt->tree) {
			/* Machine formats give the tree as depth and parent. */
			l->name = l->indented = xasprintf("%*s%s",
			    opt->machine ? 0 : 2 * row->depth, "", row->name);
			l->has_tree = 1;
			l->depth = row->depth;
			/* Tree order: a parent is ranked before its children. */
			l->parent_rank = row->parent != SIZE_MAX ?
			    (int64_t)rank[row->parent] : 0;
			l->pct = top_sum > 0 ? 100 * (double)row->total_ps /
			    top_sum : 0;
		} else {
			l->name = row->path;
			l->pct = self_sum > 0 ? 100 * (double)row->self_ps /
			    self_sum : 0;
			cum += l->pct;
			l->has_cum = 1;
			l->cum = cum;
		}
		l->module = "";
		l->category = "scope";
		l->source = "";
		l->count = row->count;
		l->total_ps = row->total_ps;
		l->self_ps = row->self_ps;
		l->precision = PREC_UNKNOWN;
		l->intensity = -1;
	}
	t->nshown = k;
	t->nrows = n;
	t->scopes = rows;
	t->nscopes = n;
	free(order);
	free(rank);
}

/* The ops (or groups of them) ranked, against the roofline. */
static void
top_ops(struct report *r, const struct top_options *opt, struct top *t)
{
	struct op_row *rows;
	size_t nrows, i, k;
	double total_self = 0, cum = 0;
	int any_cost = 0, json = report_has_json(r);
	int64_t above = 0;
	char *unattributed;

	op_rows_query(r, opt->group == GROUP_KERNEL, &rows, &nrows);
	roof_of(r, &t->roof);
	unattributed = note_unattributed(rows, nrows, json);
	op_rows_group(&rows, &nrows, opt->group);
	if (opt->group == GROUP_MODULE)
		per_launch(r, rows, nrows);
	op_rows_sort(rows, nrows, opt->by);
	for (i = 0; i < nrows; i++) {
		total_self += (double)rows[i].self_ps;
		any_cost |= rows[i].has_flops | rows[i].has_bytes;
	}
	if (nrows == 0)
		jp_warnx("no ops in the selection");
	t->ops = rows;
	t->nops = nrows;
	top_titles(r, t, opt, any_cost || nrows == 0, json);
	k = opt->limit == 0 || (size_t)opt->limit > nrows ? nrows :
	    (size_t)opt->limit;
	t->line = xcalloc(k + 1, sizeof *t->line);
	for (i = 0; i < k; i++) {
		const struct op_row *row = &rows[i];
		struct top_line *l = &t->line[i];

		l->rank = (int64_t)i + 1;
		l->name = row->name;
		l->module = row->module;
		l->category = row->category;
		l->source = row->source;
		l->what = op_what(row->framework_op, row->source);
		l->count = row->count;
		l->total_ps = row->total_ps;
		l->self_ps = row->self_ps;
		l->min_ps = row->min_ps;
		l->max_ps = row->max_ps;
		l->has_min_max = row->min_ps >= 0;	/* per_launch(): none */
		l->pct = total_self > 0 ?
		    100.0 * (double)row->self_ps / total_self : 0;
		cum += l->pct;
		l->has_cum = 1;
		l->cum = cum;
		l->flops = row->flops;
		l->bytes = row->bytes;
		l->has_flops = row->has_flops;
		l->has_bytes = row->has_bytes;
		l->precision = precision_parse(row->precision);
		roof_at(&t->roof, l);
		l->kernel = opt->group == GROUP_KERNEL ? row : NULL;
		l->has_launch = l->kernel != NULL && row->details != NULL &&
		    row->details[0] != '\0';
		if (l->has_launch)
			kernel_launch_parse(row->details, &l->launch);
		above += l->has_roof && l->roof_pct > 100.0;
	}
	t->nshown = k;
	t->nrows = nrows;
	if (above > 0)
		add_line(&t->note, &t->nnotes, xasprintf("! above the roof: "
		    "%lld row%s measure%s faster than the device's peak "
		    "allows: %s costs (XLA's model of FLOPs and bytes; caches) "
		    "or the peak are off, not the op; no advice rests on %s.",
		    (long long)above, above == 1 ? "" : "s",
		    above == 1 ? "s" : "", above == 1 ? "its" : "their",
		    above == 1 ? "it" : "them"));
	if (unattributed != NULL)
		add_line(&t->note, &t->nnotes, unattributed);
}

void
top_report(struct report *r, const struct top_options *opt, struct top *t)
{
	memset(t, 0, sizeof *t);
	t->roof.flops_option = opt->flops_option;
	t->roof.bandwidth_option = opt->bandwidth_option;
	if (opt->scopes)
		top_scopes(r, opt, t);
	else
		top_ops(r, opt, t);
}

void
top_free(struct top *t)
{
	struct scope_row *scopes = t->scopes;
	size_t i;

	for (i = 0; i < t->ntitles; i++)
		free(t->title[i]);
	for (i = 0; i < t->nnotes; i++)
		free(t->note[i]);
	for (i = 0; i < t->nshown; i++) {
		free(t->line[i].what);
		free(t->line[i].indented);
	}
	for (i = 0; i < t->nscopes; i++)
		free(scopes[i].path);
	op_rows_free(t->ops, t->nops);
	free(t->title);
	free(t->note);
	free(t->line);
	free(scopes);
	free(t->roof.model);
}
