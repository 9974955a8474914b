/* Rank ops (or categories, modules, kernels) by device time. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/closest.h"
#include "lib/err.h"
#include "lib/units.h"
#include "lib/xmalloc.h"
#include "model/kernel-stats.h"
#include "model/precision.h"
#include "output/output.h"
#include "report/analyze-ops.h"
#include "report/report.h"
#include "report/top.h"

static int	top_run(int argc, char **argv);

enum {
	OPT_INCLUDE_COMPILE_WORK = OPT_REPORT_LAST,
	OPT_PEAK_BANDWIDTH,
	OPT_PEAK_FLOPS,
};

static const struct option top_options[] = {
	{ "by", required_argument, NULL, 'b' },
	{ "fields", required_argument, NULL, 'f' },
	{ "group", required_argument, NULL, 'g' },
	{ "include-compile-work", no_argument, NULL, OPT_INCLUDE_COMPILE_WORK },
	{ "limit", required_argument, NULL, 'n' },
	{ "peak-bandwidth", required_argument, NULL, OPT_PEAK_BANDWIDTH },
	{ "peak-flops", required_argument, NULL, OPT_PEAK_FLOPS },
	{ "tree", no_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 },
};

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
	.shortopts = "n:",
	.longopts = top_options,
	.takes = TAKES_ALL,
	.run = top_run,
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

static void
put_intensity(struct output *o, const struct top_line *l)
{
	if (l->intensity >= 0)
		output_double(o, l->intensity);
	else
		output_null(o);
}

static void
put_bound(struct output *o, const struct top_line *l)
{
	if (l->has_roof)
		output_str(o, l->compute_bound ? "compute" : "memory");
	else
		output_null(o);
}

static void
put_roofline_pct(struct output *o, const struct top_line *l)
{
	if (l->has_roof)
		output_double(o, l->roof_pct);
	else
		output_null(o);
}

/* Faster than the roof: its costs or the peaks are off, not the op. */
static void
put_above_roof(struct output *o, const struct top_line *l)
{
	if (l->has_roof)
		output_flag(o, l->roof_pct > 100.0, "!");
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

static int
top_run(int argc, char **argv)
{
	struct top_columns cols;
	struct top_options opt;
	const char *field_list = NULL;
	struct report r;
	struct output *o;
	struct top t;
	size_t i;
	int ch, by = BY_DEVICE_TIME, group = GROUP_OP, status = EXIT_OK;

	memset(&opt, 0, sizeof opt);
	opt.limit = -1;
	cmd_report_init(&cmd_top, &r);
	while ((ch = cmd_next_option(&cmd_top, NULL, &r, argc, argv)) != -1) {
		switch (ch) {
		case 'b':
			if ((by = op_by_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --by '%s' "
				    "(choose from %s)", optarg, op_by_choices);
			break;
		case 'g':
			if ((opt.scopes = strcmp(optarg, "scope") == 0))
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
			opt.tree = 1;
			break;
		case OPT_INCLUDE_COMPILE_WORK:
			r.include_compile_work = 1;
			break;
		case OPT_PEAK_FLOPS:
			opt.flops_option = top_parse_rate("peak-flops", optarg);
			break;
		case OPT_PEAK_BANDWIDTH:
			opt.bandwidth_option = top_parse_rate("peak-bandwidth",
			    optarg);
			break;
		case 'n':
			opt.limit = parse_long_option("top", "limit", optarg, 0,
			    1000000000L);
			break;
		}
	}
	if (opt.tree && !opt.scopes)
		jp_errx(EXIT_TROUBLE, "--tree goes with --group=scope");
	opt.by = by;
	opt.group = group;
	opt.machine = r.format == FMT_CSV || r.format == FMT_JSON;
	/* Machine formats feed programs: a silent cut would skew them. */
	if (opt.limit == -1)
		opt.limit = opt.machine ? 0 : 20;
	choose_columns(&cols, field_list, opt.tree && field_list == NULL &&
	    opt.machine, group == GROUP_KERNEL, group == GROUP_OP &&
	    !opt.scopes && (r.format == FMT_TABLE ||
	    r.format == FMT_MARKDOWN));
	report_open(&r, argc - optind, argv + optind);
	top_report(&r, &opt, &t);
	o = report_output(&r, cols.col, cols.n);
	for (i = 0; i < t.ntitles; i++)
		output_title(o, t.title[i]);
	for (i = 0; i < t.nshown; i++)
		put_line(o, &cols, &t.line[i]);
	output_more_rows(o, t.nshown, t.nrows);
	for (i = 0; i < t.nnotes; i++)
		output_note(o, t.note[i]);
	top_free(&t);
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
