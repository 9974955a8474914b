/* Rank ops (or categories, modules, kernels) by device time. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-ops.h"
#include "classify/classify.h"
#include "cmd/cmd.h"
#include "lib/closest.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "model/device-peak.h"
#include "model/kernel-stats.h"
#include "model/precision.h"
#include "output/output.h"
#include "report/op-what.h"
#include "report/report.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

static int	top_run(int argc, char **argv);

const struct cmd cmd_top = {
	.name = "top",
	.usage = "jaxprof top [--by=key] [--group=key] [--tree] [-n count] "
	    "[--fields=list] [--include-compile-work] "
	    "[--peak-flops=rate] [--peak-bandwidth=rate] "
	    "[--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "rank ops by device time, self time, count or average",
	.options =
	    "  --by=KEY        device-time (default), self-time, count, avg\n"
	    "  --group=KEY     op (default), category, module, kernel,\n"
	    "                  framework-op, source (file:line from the HLO),\n"
	    "                  scope (host annotations)\n"
	    "  --tree          with --group=scope: the nesting as a tree\n"
	    "  -n, --limit=N   show the first N rows (0: all; default 20 in\n"
	    "                  table and markdown, all in csv and json)\n"
	    "  --fields=LIST   the columns, by their csv names or table headers,\n"
	    "                  comma-separated\n"
	    "                  (default: those jaxprof-top(1) marks shown)\n"
	    "  --include-compile-work  also the ops of device work done while\n"
	    "                  compiling (autotuning; left out by default)\n"
	    "  --peak-flops=R  the roofline's FLOP/s for every op, over the\n"
	    "                  device's (a number, or with k, M, G, T, P: 989T)\n"
	    "  --peak-bandwidth=R  the roofline's memory bytes/s (3.35T)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.run = top_run,
};

/* The peaks the roofline is drawn with; gflops 0 when none is known. */
struct roof {
	double		 gflops, gbps;
	int		 bf16;		/* gflops is the table's bf16/fp16 rate */
	char		*model;		/* the table's device; NULL: none */
	int		 from_spec;	/* the table's, else the profile's */
	int		 ndevices;	/* kinds of device peaks selected */
	/* --peak-flops, --peak-bandwidth in G per second; 0: not given */
	double		 flops_option, bandwidth_option;
	/* The table's rate per precision (precision.h); 0: none published */
	double		 prec_gflops[PREC_N];
};

/*
 * The device peaks of the selected planes, when they all have the same
 * (a roofline for one kind of device), with the options over them.  A
 * device in the table has a rate per precision, each op judged at its
 * own (roof_peak()); gflops is its 16-bit rate, xprof's for every op.
 */
static void
roof_of(struct report *r, struct roof *roof)
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
precision_title(const struct roof *roof, const struct op_row *rows,
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
roof_title(const struct roof *roof)
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
 * One row of the report, an op's (or group's) or a scope's, as the
 * columns read it.
 */
struct top_line {
	int64_t		 rank;
	const char	*name, *module, *category, *source;
	const char	*what;		/* op_what() of an HLO op; NULL */
	int64_t		 count, total_ps, self_ps, min_ps, max_ps;
	int		 has_min_max;	/* scopes have none */
	double		 pct;
	int		 has_cum;	/* a tree of scopes has none */
	double		 cum;
	int64_t		 flops, bytes;
	int		 has_flops, has_bytes;
	int		 precision;	/* precision.h's, or PREC_UNKNOWN */
	const struct roof *roof;	/* the device peaks; NULL: none */
	const struct op_row *kernel;	/* --group=kernel's row, or NULL */
	int		 has_launch;	/* the kernel's kernel_details */
	struct kernel_launch launch;
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
put_what(struct output *o, const struct top_line *l)
{
	output_str(o, l->what);
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

static void
put_source(struct output *o, const struct top_line *l)
{
	output_str(o, l->source);
}

static void
put_flops(struct output *o, const struct top_line *l)
{
	if (l->has_flops)
		output_int(o, l->flops);
	else
		output_null(o);
}

static void
put_bytes(struct output *o, const struct top_line *l)
{
	if (l->has_bytes)
		output_int(o, l->bytes);
	else
		output_null(o);
}

/* What one run of the row computes, on average. */
static void
put_flops_per_call(struct output *o, const struct top_line *l)
{
	if (l->has_flops && l->count > 0)
		output_double(o, (double)l->flops / (double)l->count);
	else
		output_null(o);
}

/* FLOP per byte accessed, the roofline's x axis; -1 when unknown. */
static double
intensity(const struct top_line *l)
{
	return l->has_flops && l->has_bytes && l->bytes > 0 ?
	    (double)l->flops / (double)l->bytes : -1;
}

static void
put_intensity(struct output *o, const struct top_line *l)
{
	double in = intensity(l);

	if (in >= 0)
		output_double(o, in);
	else
		output_null(o);
}

/*
 * The FLOP/s an op is judged against: its precision's published peak,
 * else (precision unknown, none published, --peak-flops) the roof's.
 */
static double
roof_peak(const struct roof *roof, int precision)
{
	return precision != PREC_UNKNOWN && roof->prec_gflops[precision] > 0 ?
	    roof->prec_gflops[precision] : roof->gflops;
}

/*
 * Whether the device's peaks bound the row: its intensity against the
 * ridge point (peak FLOP/s over peak bytes/s); an op that moves bytes and
 * computes nothing is memory-bound.  *pct is its rate's share of the roof
 * at its intensity.
 */
static int
roof_at(const struct top_line *l, int *compute, double *pct)
{
	double in = intensity(l), peak;

	if (in < 0 || l->roof == NULL || l->roof->gflops <= 0 ||
	    !rate_meaningful((double)l->total_ps, (double)l->count))
		return 0;
	peak = roof_peak(l->roof, l->precision);
	*compute = in >= peak / l->roof->gbps;
	/* units per ps * 1e3 = G units per second */
	*pct = *compute ?
	    100.0 * (double)l->flops / (double)l->total_ps * 1e3 / peak :
	    100.0 * (double)l->bytes / (double)l->total_ps * 1e3 /
	    l->roof->gbps;
	return 1;
}

/* Faster than the roof: its costs or the peaks are off, not the op. */
static int
above_roof(const struct top_line *l)
{
	int compute;
	double pct;

	return roof_at(l, &compute, &pct) && pct > 100.0;
}

static void
put_bound(struct output *o, const struct top_line *l)
{
	int compute;
	double pct;

	if (roof_at(l, &compute, &pct))
		output_str(o, compute ? "compute" : "memory");
	else
		output_null(o);
}

static void
put_roofline_pct(struct output *o, const struct top_line *l)
{
	int compute;
	double pct;

	if (roof_at(l, &compute, &pct))
		output_double(o, pct);
	else
		output_null(o);
}

static void
put_above_roof(struct output *o, const struct top_line *l)
{
	int compute;
	double pct;

	if (roof_at(l, &compute, &pct))
		output_flag(o, pct > 100.0, "!");
	else
		output_null(o);
}

static void
put_hlo_op(struct output *o, const struct top_line *l)
{
	if (l->kernel != NULL)
		output_str(o, l->kernel->hlo_op != NULL ? l->kernel->hlo_op :
		    "");
	else
		output_null(o);
}

static void
put_precision(struct output *o, const struct top_line *l)
{
	if (l->precision != PREC_UNKNOWN)
		output_str(o, precision_name(l->precision));
	else
		output_null(o);
}

static void
put_framework_op(struct output *o, const struct top_line *l)
{
	if (l->kernel != NULL)
		output_str(o, l->kernel->framework_op);
	else
		output_null(o);
}

static void
put_regs(struct output *o, const struct top_line *l)
{
	if (l->has_launch)
		output_int(o, l->launch.regs);
	else
		output_null(o);
}

static void
put_shared(struct output *o, const struct top_line *l)
{
	if (l->has_launch)
		output_int(o, l->launch.shared);
	else
		output_null(o);
}

/* Launch dimensions as "x,y,z". */
static void
put_dims(struct output *o, const struct top_line *l, const int64_t *d)
{
	char s[3 * 24];

	if (!l->has_launch) {
		output_null(o);
		return;
	}
	snprintf(s, sizeof s, "%lld,%lld,%lld", (long long)d[0],
	    (long long)d[1], (long long)d[2]);
	output_str(o, s);
}

static void
put_block(struct output *o, const struct top_line *l)
{
	put_dims(o, l, l->launch.block);
}

static void
put_grid(struct output *o, const struct top_line *l)
{
	put_dims(o, l, l->launch.grid);
}

static void
put_occupancy(struct output *o, const struct top_line *l)
{
	if (l->has_launch)
		output_double(o, l->launch.occ_pct);
	else
		output_null(o);
}

/* Whether the kernel's name shows it uses the tensor cores. */
static void
put_tensor_core(struct output *o, const struct top_line *l)
{
	if (l->kernel != NULL)
		output_str(o, kernel_uses_tensor_core(l->kernel->name,
		    l->kernel->category) ?
		    "yes" : "no");
	else
		output_null(o);
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
 * cell holds, and when it is shown without --fields.
 */
enum shown {
	SHOWN_NEVER,	/* only when --fields names it */
	SHOWN,		/* always */
	SHOWN_KERNEL,	/* with --group=kernel */
	SHOWN_TREE,	/* with --tree, in csv and json */
	SHOWN_OP_TABLE,	/* ops in a table: custom-call.42 tells nothing */
};

static const struct top_field {
	struct out_col	 col;
	void		(*put)(struct output *, const struct top_line *);
	enum shown	 shown;
} fields[] = {
	{ { "rank", COL_INT, "#", 3, UNIT_NONE }, put_rank, SHOWN },
	{ { "name", COL_STR, NULL, 0, UNIT_NONE }, put_name, SHOWN },
	{ { "what", COL_STR, NULL, 0, UNIT_NONE }, put_what, SHOWN_OP_TABLE },
	{ { "module", COL_STR, NULL, 10, UNIT_NONE }, put_module, SHOWN },
	{ { "category", COL_STR, NULL, 5, UNIT_NONE }, put_category, SHOWN },
	{ { "count", COL_INT, NULL, 2, UNIT_NONE }, put_count, SHOWN },
	{ { "total_us", COL_PS, "total", 0, UNIT_NONE }, put_total, SHOWN },
	{ { "self_us", COL_PS, "self", 8, UNIT_NONE }, put_self, SHOWN },
	{ { "avg_us", COL_PS, "avg", 6, UNIT_NONE }, put_avg, SHOWN },
	{ { "min_us", COL_PS, "min", 12, UNIT_NONE }, put_min, SHOWN },
	{ { "max_us", COL_PS, "max", 11, UNIT_NONE }, put_max, SHOWN },
	{ { "percent", COL_PCT, "%", 0, UNIT_NONE }, put_pct, SHOWN },
	{ { "cum_percent", COL_PCT, "cum%", 7, UNIT_NONE }, put_cum, SHOWN },
	{ { "gflops_per_s", COL_RATE, "GFLOP/s", 5, UNIT_GFLOP_S }, put_gflops, SHOWN },
	{ { "gbps", COL_RATE, "GB/s", 5, UNIT_GB_S }, put_gbps, SHOWN },
	{ { "source", COL_STR, NULL, 4, UNIT_NONE }, put_source, SHOWN },
	{ { "flops", COL_INT, "FLOP", 14, UNIT_FLOP }, put_flops, SHOWN },
	{ { "bytes_accessed", COL_INT, "bytes", 14, UNIT_BYTE }, put_bytes, SHOWN },
	{ { "flops_per_call", COL_REAL, "FLOP/call", 14, UNIT_FLOP }, put_flops_per_call,
	    SHOWN_NEVER },
	{ { "intensity", COL_RATE, "FLOP/B", 13, UNIT_NONE }, put_intensity, SHOWN },
	{ { "bound", COL_STR, NULL, 9, UNIT_NONE }, put_bound, SHOWN },
	{ { "roofline_pct", COL_PCT, "roof%", 9, UNIT_NONE }, put_roofline_pct, SHOWN },
	{ { "above_roof", COL_STR, "!", 9, UNIT_NONE }, put_above_roof, SHOWN },
	{ { "precision", COL_STR, "prec", 9, UNIT_NONE }, put_precision, SHOWN_NEVER },
	{ { "op", COL_STR, NULL, 4, UNIT_NONE }, put_hlo_op, SHOWN_KERNEL },
	{ { "framework_op", COL_STR, NULL, 1, UNIT_NONE }, put_framework_op, SHOWN_KERNEL },
	{ { "registers_per_thread", COL_INT, "regs", 13, UNIT_NONE }, put_regs,
	    SHOWN_KERNEL },
	{ { "shared_mem_bytes", COL_INT, "shmem", 13, UNIT_BYTE }, put_shared,
	    SHOWN_KERNEL },
	{ { "block", COL_STR, NULL, 13, UNIT_NONE }, put_block, SHOWN_KERNEL },
	{ { "grid", COL_STR, NULL, 13, UNIT_NONE }, put_grid, SHOWN_KERNEL },
	{ { "occupancy_pct", COL_PCT, "occ%", 12, UNIT_NONE }, put_occupancy, SHOWN_KERNEL },
	{ { "tensor_core", COL_STR, "TC", 12, UNIT_NONE }, put_tensor_core, SHOWN_KERNEL },
	{ { "depth", COL_INT, NULL, 14, UNIT_NONE }, put_depth, SHOWN_TREE },
	{ { "parent_rank", COL_INT, NULL, 14, UNIT_NONE }, put_parent_rank, SHOWN_TREE },
};

#define NFIELDS	(sizeof fields / sizeof fields[0])

/* The columns chosen: --fields (NULL: the default ones). */
struct top_columns {
	const struct top_field *field[NFIELDS];
	struct out_col	 col[NFIELDS];
	size_t		 n;
};

/* Whether p[0..len) names field f: its csv name or its table header. */
static int
names_field(const struct top_field *f, const char *p, size_t len)
{
	return (strlen(f->col.name) == len &&
	    strncmp(f->col.name, p, len) == 0) ||
	    (f->col.header != NULL && strlen(f->col.header) == len &&
	    strncmp(f->col.header, p, len) == 0);
}

/* Exits 2 on a --fields list naming no column, an unknown or a repeated one. */
static void
bad_fields(const char *list, const char *why, const char *p, size_t len)
{
	const char *names[NFIELDS], *near;
	char *choices = xstrdup(fields[0].col.name), *more;
	size_t k;

	for (k = 1; k < NFIELDS; k++) {
		more = xasprintf("%s, %s", choices, fields[k].col.name);
		free(choices);
		choices = more;
	}
	for (k = 0; k < NFIELDS; k++)
		names[k] = fields[k].col.name;
	near = closest_name(p, len, names, NFIELDS);
	jp_errx(EXIT_TROUBLE, "invalid --fields '%s': %s '%.*s'%s%s%s (choose "
	    "from %s; a table header names its column too)", list, why,
	    (int)len, p, near != NULL ? "; did you mean '" : "",
	    near != NULL ? near : "", near != NULL ? "'?" : "", choices);
}

/*
 * tree_fields: the default columns and a scope tree's depth and parent;
 * kernel_fields: and a kernel's; what_field: and what an op is.
 */
static void
choose_columns(struct top_columns *c, const char *list, int tree_fields,
    int kernel_fields, int what_field)
{
	const char *p = list, *end;
	size_t i, k, len;

	c->n = 0;
	if (list == NULL) {
		for (i = 0; i < NFIELDS; i++)
			if (fields[i].shown == SHOWN ||
			    (tree_fields && fields[i].shown == SHOWN_TREE) ||
			    (kernel_fields &&
			    fields[i].shown == SHOWN_KERNEL) ||
			    (what_field && fields[i].shown == SHOWN_OP_TABLE))
				c->field[c->n++] = &fields[i];
	}
	for (; p != NULL && *p != '\0'; p = *end == ',' ? end + 1 : end) {
		end = p + strcspn(p, ",");
		len = (size_t)(end - p);
		for (i = 0; i < NFIELDS; i++)
			if (names_field(&fields[i], p, len))
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

/*
 * A rate of --peak-flops or --peak-bandwidth in G per second: a positive
 * number, perhaps with an SI prefix; exits 2 on anything else.
 */
static double
parse_rate(const char *opt, const char *arg)
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

/* The title lines: what was ranked, over which devices, which peaks. */
static void
top_titles(struct report *r, struct output *o, enum op_by by,
    enum op_group group, int any_cost, const struct roof *roof,
    const struct op_row *rows, size_t nrows)
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
	while (index_row(st)) {
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
	/* Kernels carry no costs of their own: their ops' rows have them. */
	else if (!any_cost && group != GROUP_KERNEL && any && host_only)
		output_title(o, "FLOPs unknown: the HLO's costs go to device "
		    "kernels, and these ops ran on the host; the cost columns "
		    "are empty.");
	else if (!any_cost && group != GROUP_KERNEL)
		output_title(o, "FLOPs unknown: no cost stats and no HLO in "
		    "the profile; the cost columns are empty.");
	if (any_cost && any && !host_only && !report_has_json(r)) {
		line = roof_title(roof);
		output_title(o, line);
		free(line);
		if ((line = precision_title(roof, rows, nrows)) != NULL) {
			output_title(o, line);
			free(line);
		}
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
		{ "peak-bandwidth", required_argument, NULL, 0x302 },
		{ "peak-flops", required_argument, NULL, 0x301 },
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
	int scopes = 0, tree = 0, any_cost = 0;
	double total_self = 0, cum = 0;
	struct roof roof;
	char *unattributed;
	int64_t above = 0;

	memset(&roof, 0, sizeof roof);
	report_init(&r, "top");
	while ((ch = cmd_getopt(argc, argv, "hn:", longopts)) != -1) {
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
		case 0x301:
			roof.flops_option = parse_rate("peak-flops", optarg);
			break;
		case 0x302:
			roof.bandwidth_option = parse_rate("peak-bandwidth",
			    optarg);
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
	    (r.format == FMT_CSV || r.format == FMT_JSON),
	    group == GROUP_KERNEL, group == GROUP_OP && !scopes &&
	    (r.format == FMT_TABLE || r.format == FMT_MARKDOWN));
	report_open(&r, argc - optind, argv + optind);
	if (scopes) {
		o = report_output(&r, cols.col, cols.n);
		print_scopes(&r, o, &cols, by, tree, limit);
		if (output_finish(o) == -1)
			status = EXIT_TROUBLE;
		return report_close(&r, status);
	}

	op_rows_query(&r, group == GROUP_KERNEL, &rows, &nrows);
	roof_of(&r, &roof);
	unattributed = note_unattributed(rows, nrows, report_has_json(&r));
	op_rows_group(&rows, &nrows, group);
	if (group == GROUP_MODULE)
		per_launch(&r, rows, nrows);
	op_rows_sort(rows, nrows, by);
	for (i = 0; i < nrows; i++) {
		total_self += (double)rows[i].self_ps;
		any_cost |= rows[i].has_flops | rows[i].has_bytes;
	}
	if (nrows == 0)
		jp_warnx("no ops in the selection");

	o = report_output(&r, cols.col, cols.n);
	top_titles(&r, o, by, group, any_cost || nrows == 0, &roof, rows,
	    nrows);
	k = limit == 0 || (size_t)limit > nrows ? nrows : (size_t)limit;
	for (i = 0; i < k; i++) {
		const struct op_row *row = &rows[i];
		struct top_line l;
		char *what;

		memset(&l, 0, sizeof l);
		l.rank = (int64_t)i + 1;
		l.name = row->name;
		l.module = row->module;
		l.category = row->category;
		l.source = row->source;
		l.what = what = op_what(row->framework_op, row->source);
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
		l.has_flops = row->has_flops;
		l.has_bytes = row->has_bytes;
		l.precision = precision_parse(row->precision);
		l.roof = &roof;
		l.kernel = group == GROUP_KERNEL ? row : NULL;
		l.has_launch = l.kernel != NULL && row->details != NULL &&
		    row->details[0] != '\0';
		if (l.has_launch)
			kernel_launch_parse(row->details, &l.launch);
		put_line(o, &cols, &l);
		above += above_roof(&l);
		free(what);
	}
	op_rows_free(rows, nrows);
	output_more_rows(o, k, nrows);
	if (above > 0) {
		char *note = xasprintf("! above the roof: %lld row%s measure%s "
		    "faster than the device's peak allows: %s costs (XLA's "
		    "model of FLOPs and bytes; caches) or the peak are off, "
		    "not the op; no advice rests on %s.", (long long)above,
		    above == 1 ? "" : "s", above == 1 ? "s" : "",
		    above == 1 ? "its" : "their", above == 1 ? "it" : "them");

		output_note(o, note);
		free(note);
	}
	free(roof.model);
	if (unattributed != NULL) {
		output_note(o, unattributed);
		free(unattributed);
	}
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
