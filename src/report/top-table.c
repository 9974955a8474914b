/* The top report's columns, chosen by --fields, and its rows in them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/top-table.h"
#include "lib/closest.h"
#include "lib/err.h"
#include "lib/units.h"
#include "lib/xmalloc.h"
#include "model/kernel-stats.h"
#include "model/precision.h"
#include "output/output.h"
#include "report/report.h"
#include "report/top.h"

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

_Static_assert(NFIELDS <= TOP_MAX_COLUMNS, "top_columns holds every column");

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

void
top_columns_choose(struct top_columns *c, const char *list,
    const struct top_options *opt, enum out_format fmt)
{
	/*
	 * Shown by default besides the others: a scope tree's depth and
	 * parent in csv and json, a kernel's launch, what an op is.
	 */
	int tree_fields = opt->tree && list == NULL && opt->machine;
	int kernel_fields = opt->group == GROUP_KERNEL;
	int what_field = opt->group == GROUP_OP && !opt->scopes &&
	    (fmt == FMT_TABLE || fmt == FMT_MARKDOWN);
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

int
top_table_write(struct report *r, const struct top_options *opt,
    const struct top_columns *c)
{
	struct output *o;
	struct top t;
	size_t i;

	top_report(r, opt, &t);
	o = report_output(r, c->col, c->n);
	for (i = 0; i < t.ntitles; i++)
		output_title(o, t.title[i]);
	for (i = 0; i < t.nshown; i++)
		put_line(o, c, &t.line[i]);
	output_more_rows(o, t.nshown, t.nrows);
	for (i = 0; i < t.nnotes; i++)
		output_note(o, t.note[i]);
	top_free(&t);
	return output_finish(o);
}
