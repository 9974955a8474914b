/* Compare two profiles (or baselines) op by op, with step totals. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-diff.h"
#include "report/analyze-ops.h"
#include "report/diff-page.h"
#include "report/op-what.h"
#include "cmd/cmd.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "output/output.h"
#include "lib/ptime.h"
#include "lib/units.h"
#include "report/report.h"
#include "report/summary.h"
#include "lib/xmalloc.h"

static int	diff_run(int argc, char **argv);

enum {
	OPT_INCLUDE_COMPILE_WORK = OPT_REPORT_LAST,
	OPT_SKIP,
	OPT_SUMMARY,
};

/* --format is diff's own: it takes html. */
static const struct option diff_options[] = {
	{ "by", required_argument, NULL, 'b' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "group", required_argument, NULL, 'g' },
	{ "include-compile-work", no_argument, NULL, OPT_INCLUDE_COMPILE_WORK },
	{ "limit", required_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "skip", required_argument, NULL, OPT_SKIP },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_diff = {
	.name = "diff",
	.usage = "jaxprof diff [--by=key] [--group=key] [-n count] "
	    "[--skip=n] [--summary] [--include-compile-work] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--format=fmt] [--wide] "
	    "[-o file] [--db=file] base new",
	.summary = "compare two profiles or baselines op by op",
	.options =
	    "  --by=KEY        device-time (default), self-time, count, avg\n"
	    "  --group=KEY     op (default), category, module, kernel,\n"
	    "                  framework-op, source (file:line from the HLO)\n"
	    "  -n, --limit=N   show the first N rows (default 20; 0: all)\n"
	    "  --include-compile-work  also the ops of device work done while\n"
	    "                  compiling (autotuning; left out by default)\n"
	    "  --skip=N        leave each device's first N steps out of the\n"
	    "                  step times (default 0)\n"
	    "  --summary       the device time, steps, compiles, transfers and\n"
	    "                  memory peaks of both sides as rows (metric,\n"
	    "                  base, new, change)\n"
	    "                  instead of the ops; JSON has both without it\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown, html (a\n"
	    "                  page for a pull request; needs -o)\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  -o, --output=FILE  write to FILE, replaced once whole\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n"
	    "BASE and NEW are profile paths or files saved by "
	    "'jaxprof baseline save'.\n",
	.shortopts = "n:o:",
	.longopts = diff_options,
	.takes = TAKES_ALL & ~TAKES_FORMAT,
	.run = diff_run,
};

static const struct transfer_total *find_transfer(const struct summary *s,
		    const struct transfer_total *t);
static void	put_memory(struct output *o, const struct summary *a,
		    const struct summary *b, int rows);

/* The summary the table's title lines give, as rows (--summary, JSON). */
static const struct out_col summary_columns[] = {
	{ "metric", COL_STR, NULL, 0, UNIT_NONE },
	{ "base", COL_REAL, NULL, 0, UNIT_NONE },
	{ "new", COL_REAL, NULL, 0, UNIT_NONE },
	{ "change_percent", COL_PCT, "change", 0, UNIT_NONE },
};

static void
summary_row(struct output *o, const char *metric, double base, double new)
{
	output_str(o, metric);
	output_double(o, base);
	output_double(o, new);
	if (base != 0)
		output_double(o, (new / base - 1) * 100);
	else
		output_null(o);
	output_end_row(o);
}

/*
 * A time row, ps in: microseconds to the nanosecond, as every report
 * gives them (a median of two steps is no more precise).
 */
static void
summary_row_us(struct output *o, const char *metric, double base_ps,
    double new_ps)
{
	summary_row(o, metric, round(base_ps / 1e3) / 1e3,
	    round(new_ps / 1e3) / 1e3);
}

/* What diff_titles() says, in rows: times in microseconds. */
static void
put_summary(struct output *o, const struct summary *a,
    const struct summary *b, size_t skip, const struct op_row *ra,
    size_t na, const struct op_row *rb, size_t nb)
{
	const struct summary *side[2] = { a, b };
	const struct compile_fn *fa, *fb;
	double ta = 0, tb = 0;
	int64_t ca, cb, pa, pb;
	size_t sa, sb, i, k;
	double ma, mb;

	for (i = 0; i < na; i++)
		ta += (double)ra[i].total_ps;
	for (i = 0; i < nb; i++)
		tb += (double)rb[i].total_ps;
	summary_row_us(o, "device_time_us", ta, tb);
	ma = summary_step_percentile(a, skip, 50, &sa);
	mb = summary_step_percentile(b, skip, 50, &sb);
	summary_row(o, "steps", (double)sa, (double)sb);
	summary_row_us(o, "step_median_us", ma, mb);
	ma = summary_step_percentile(a, skip, 90, &sa);
	mb = summary_step_percentile(b, skip, 90, &sb);
	summary_row_us(o, "step_p90_us", ma, mb);
	pa = summary_compile_total_ps(a, &ca);
	pb = summary_compile_total_ps(b, &cb);
	summary_row(o, "compiles", (double)ca, (double)cb);
	summary_row_us(o, "compile_time_us", (double)pa, (double)pb);
	fa = summary_most_compiled(a);
	fb = summary_most_compiled(b);
	summary_row(o, "most_compiles_of_one_function",
	    (double)(fa != NULL ? fa->count : 0),
	    (double)(fb != NULL ? fb->count : 0));
	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->ntransfers; i++) {
			const struct transfer_total *t = &side[k]->transfers[i];
			const struct transfer_total *xa, *xb;
			char *m;

			if (k == 1 && find_transfer(a, t) != NULL)
				continue;
			xa = find_transfer(a, t);
			xb = find_transfer(b, t);
			m = xasprintf("transfers_%s_%s", t->direction,
			    t->on_host ? "host_calls" : "device_copies");
			summary_row(o, m, xa != NULL ? (double)xa->count : 0,
			    xb != NULL ? (double)xb->count : 0);
			free(m);
			m = xasprintf("transfers_%s_%s_us", t->direction,
			    t->on_host ? "host_calls" : "device_copies");
			summary_row_us(o, m, xa != NULL ?
			    (double)xa->total_ps : 0, xb != NULL ?
			    (double)xb->total_ps : 0);
			free(m);
			if (!t->on_host || strcmp(t->direction, "D2H") != 0)
				continue;
			m = xasprintf("transfers_%s_host_calls_wait_us",
			    t->direction);
			summary_row(o, m, xa != NULL ?
			    (double)xa->wait_ps / 1e6 : 0, xb != NULL ?
			    (double)xb->wait_ps / 1e6 : 0);
			free(m);
		}
	put_memory(o, a, b, 1);
}

/* The delta column's place in columns[]: its unit follows --by. */
#define DELTA_COL	11

/* drop: what a narrow terminal leaves out first (output.h). */
static const struct out_col columns[] = {
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "base_name", COL_STR, "was", 1, UNIT_NONE },
	{ "module", COL_STR, NULL, 9, UNIT_NONE },
	{ "category", COL_STR, NULL, 5, UNIT_NONE },
	{ "match", COL_STR, NULL, 4, UNIT_NONE },
	{ "base_count", COL_INT, "base n", 8, UNIT_NONE },
	{ "new_count", COL_INT, "new n", 8, UNIT_NONE },
	{ "base_total_us", COL_PS, "base total", 7, UNIT_NONE },
	{ "new_total_us", COL_PS, "new total", 7, UNIT_NONE },
	{ "base_self_us", COL_PS, "base self", 10, UNIT_NONE },
	{ "new_self_us", COL_PS, "new self", 10, UNIT_NONE },
	{ "delta_us", COL_PS, "delta", 0, UNIT_NONE },
	{ "ratio", COL_RATE, NULL, 6, UNIT_NONE },
	{ "change_share", COL_PCT, "share", 3, UNIT_NONE },
	{ "base_normalized_us", COL_PS, "base per", 11, UNIT_NONE },
	{ "new_normalized_us", COL_PS, "new per", 11, UNIT_NONE },
	{ "normalized_per", COL_STR, "per", 11, UNIT_NONE },
	{ "framework_op", COL_STR, "framework op", 0, UNIT_NONE },
	{ "source", COL_STR, NULL, 2, UNIT_NONE },
	{ "paired_by", COL_STR, "paired by", 12, UNIT_NONE },
};

/* The normalised columns' place: their unit follows --by too. */
#define NORM_COL	14

/* "+4.56%", "-12.00%", or "new" when there was nothing before. */
static void
fmt_change(char *buf, size_t size, double base, double new)
{
	char num[48];

	if (base <= 0) {
		snprintf(buf, size, "%s", new > 0 ? "new" : "+0.00%");
		return;
	}
	fmt_fixed(num, sizeof num, (new / base - 1) * 100, 2);
	snprintf(buf, size, "%s%s%%", num[0] == '-' ? "" : "+", num);
}

/* "A -> B (+x%)" for two durations. */
static char *
two_durations(double base, double new)
{
	char a[64], b[64], c[64];

	fmt_duration(a, sizeof a, ps_from_double(round(base)));
	fmt_duration(b, sizeof b, ps_from_double(round(new)));
	fmt_change(c, sizeof c, base, new);
	return xasprintf("%s -> %s (%s)", a, b, c);
}

/* Where a side came from: its path, and a baseline's provenance. */
static void
add_side_title(struct output *o, const char *what, const struct summary *s)
{
	char *line;

	if (s->created != NULL)
		line = xasprintf("%s: %s (baseline of %s, %s, jaxprof %s)",
		    what, s->label, s->nsources > 0 ? s->sources[0] : "?",
		    s->created, s->jaxprof_version);
	else
		line = xasprintf("%s: %s", what, s->label);
	output_title(o, line);
	free(line);
}

static void
add_step_title(struct output *o, const struct summary *a,
    const struct summary *b, size_t skip)
{
	size_t na, nb;
	double ma = summary_step_percentile(a, skip, 50, &na);
	double mb = summary_step_percentile(b, skip, 50, &nb);
	double pa = summary_step_percentile(a, skip, 90, &na);
	double pb = summary_step_percentile(b, skip, 90, &nb);
	char *median, *p90, *line;

	if (na == 0 && nb == 0) {
		output_title(o, "Steps: none on either side.");
		return;
	}
	median = two_durations(ma, mb);
	p90 = two_durations(pa, pb);
	line = xasprintf("Steps (%s -> %s, first %zu skipped): %zu -> %zu; "
	    "median %s; p90 %s", *a->step_source != '\0' ? a->step_source :
	    "none", *b->step_source != '\0' ? b->step_source : "none", skip,
	    na, nb, median, p90);
	output_title(o, line);
	free(median);
	free(p90);
	free(line);
}

static void
add_compile_title(struct output *o, const struct summary *a,
    const struct summary *b)
{
	int64_t ca, cb, ta = summary_compile_total_ps(a, &ca),
	    tb = summary_compile_total_ps(b, &cb);
	const struct compile_fn *fa = summary_most_compiled(a);
	const struct compile_fn *fb = summary_most_compiled(b);
	char *times = two_durations((double)ta, (double)tb), *line;

	line = xasprintf("Compiles: %lld -> %lld, %s; most of one function: "
	    "%lld -> %lld", (long long)ca, (long long)cb, times,
	    (long long)(fa != NULL ? fa->count : 0),
	    (long long)(fb != NULL ? fb->count : 0));
	output_title(o, line);
	free(times);
	free(line);
}

/* The transfer total of s for t's direction and side; NULL if none. */
static const struct transfer_total *
find_transfer(const struct summary *s, const struct transfer_total *t)
{
	size_t i;

	for (i = 0; i < s->ntransfers; i++)
		if (strcmp(s->transfers[i].direction, t->direction) == 0 &&
		    s->transfers[i].on_host == t->on_host)
			return &s->transfers[i];
	return NULL;
}

/* One line per direction either side has, base's order first. */
static void
add_transfer_titles(struct output *o, const struct summary *a,
    const struct summary *b)
{
	const struct summary *side[2] = { a, b };
	size_t k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->ntransfers; i++) {
			const struct transfer_total *t = &side[k]->transfers[i];
			const struct transfer_total *ta, *tb;
			char *times, *line;

			if (k == 1 && find_transfer(a, t) != NULL)
				continue;
			ta = find_transfer(a, t);
			tb = find_transfer(b, t);
			times = two_durations(ta != NULL ?
			    (double)ta->total_ps : 0, tb != NULL ?
			    (double)tb->total_ps : 0);
			line = xasprintf("Transfers %s (%s): %lld -> %lld, %s",
			    t->direction, t->on_host ? "host calls" :
			    strcmp(t->direction, "memset") == 0 ? "memsets" :
			    "device copies", (long long)(ta != NULL ?
			    ta->count : 0), (long long)(tb != NULL ?
			    tb->count : 0), times);
			output_title(o, line);
			free(times);
			free(line);
			if ((ta == NULL || ta->wait_ps == 0) &&
			    (tb == NULL || tb->wait_ps == 0))
				continue;
			/* As transfers splits it: a D2H call mostly waits. */
			times = two_durations(ta != NULL ?
			    (double)ta->wait_ps : 0, tb != NULL ?
			    (double)tb->wait_ps : 0);
			line = xasprintf("  of which waiting for the device: %s",
			    times);
			output_title(o, line);
			free(times);
			free(line);
		}
}

/*
 * Each memory peak either side has, base's first: as a title line (for
 * allocators, and programs whose peak moved) or a summary row.
 */
static void
put_memory(struct output *o, const struct summary *a,
    const struct summary *b, int rows)
{
	const struct summary *side[2] = { a, b };
	size_t k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->nmemory; i++) {
			const struct memory_peak *m = &side[k]->memory[i];
			const struct memory_peak *ma, *mb;
			char x[64], y[64], c[64], *line;

			ma = summary_memory(a, m->kind, m->name);
			mb = summary_memory(b, m->kind, m->name);
			if (k == 1 && ma != NULL)
				continue;
			if (rows) {
				line = xasprintf("memory_%s_%s_bytes",
				    m->kind, m->name);
				summary_row(o, line, ma != NULL ?
				    (double)ma->bytes : 0, mb != NULL ?
				    (double)mb->bytes : 0);
				free(line);
				continue;
			}
			if (strcmp(m->kind, "program") == 0 && ma != NULL &&
			    mb != NULL && ma->bytes == mb->bytes)
				continue;
			fmt_bytes(x, sizeof x, ma != NULL ? ma->bytes : 0);
			fmt_bytes(y, sizeof y, mb != NULL ? mb->bytes : 0);
			fmt_change(c, sizeof c, ma != NULL ?
			    (double)ma->bytes : 0, mb != NULL ?
			    (double)mb->bytes : 0);
			line = xasprintf("Peak memory of %s %s: %s -> %s (%s)",
			    m->kind, m->name, x, y, c);
			output_title(o, line);
			free(line);
		}
}

static void
diff_titles(struct output *o, const struct summary *a,
    const struct summary *b, enum op_by by, enum op_group group,
    size_t skip, const struct op_row *ra, size_t na,
    const struct op_row *rb, size_t nb)
{
	double ta = 0, tb = 0;
	char *line, *times;
	size_t i;

	line = xasprintf("Diff of %s by %s", op_group_title(group),
	    op_by_title(by));
	output_title(o, line);
	free(line);
	add_side_title(o, "base", a);
	add_side_title(o, "new", b);
	for (i = 0; i < na; i++)
		ta += (double)ra[i].total_ps;
	for (i = 0; i < nb; i++)
		tb += (double)rb[i].total_ps;
	times = two_durations(ta, tb);
	line = xasprintf("Device time: %s", times);
	output_title(o, line);
	free(times);
	free(line);
	add_step_title(o, a, b, skip);
	add_compile_title(o, a, b);
	add_transfer_titles(o, a, b);
	put_memory(o, a, b, 0);
}

/* Which figure delta, ratio and share compare. */
static void
add_norm_title(struct output *o, const char *per, double da, double db)
{
	char *line;

	if (strcmp(per, "total") == 0)
		line = xasprintf("Compared: totals (delta, ratio, share).");
	else
		line = xasprintf("Compared: per %s, base %.0f %ss, new %.0f "
		    "%ss (delta, ratio, share; the totals are columns).", per,
		    da, per, db, per);
	output_title(o, line);
	free(line);
}

/* for_person: table or markdown. */
static void
put_row(struct output *o, const struct diff_pair *p, enum op_by by,
    double abs_sum, const char *per, int for_person)
{
	const struct op_row *r = p->new != NULL ? p->new : p->base;

	output_str(o, r->name);
	output_str(o, p->base != NULL && p->new != NULL &&
	    strcmp(p->base->name, p->new->name) != 0 ? p->base->name : "");
	output_str(o, r->module);
	output_str(o, r->category);
	output_str(o, diff_outcome(p));
	if (p->base != NULL)
		output_int(o, p->base->count);
	else
		output_null(o);
	if (p->new != NULL)
		output_int(o, p->new->count);
	else
		output_null(o);
	if (p->base != NULL)
		output_ps(o, (double)p->base->total_ps);
	else
		output_null(o);
	if (p->new != NULL)
		output_ps(o, (double)p->new->total_ps);
	else
		output_null(o);
	if (p->base != NULL)
		output_ps(o, (double)p->base->self_ps);
	else
		output_null(o);
	if (p->new != NULL)
		output_ps(o, (double)p->new->self_ps);
	else
		output_null(o);
	if (by == BY_COUNT)
		output_double(o, p->delta);
	else
		output_ps(o, p->delta);
	if (p->base_value > 0)
		output_double(o, diff_ratio(p));
	else
		output_null(o);
	output_double(o, abs_sum > 0 ? 100 * p->delta / abs_sum : 0);
	if (by == BY_COUNT) {
		output_double(o, p->base_value);
		output_double(o, p->new_value);
	} else {
		output_ps(o, p->base_value);
		output_ps(o, p->new_value);
	}
	output_str(o, per);
	if (for_person) {
		/* As top's what column says it: the full name is in csv. */
		char *what = op_what(r->framework_op, NULL);

		output_str(o, what);
		free(what);
	} else
		output_str(o, r->framework_op);
	output_str(o, r->source);
	output_str(o, diff_pairing_name(p->paired_by));
	output_end_row(o);
}

/*
 * How the ops were paired (jaxprof-diff(1), PAIRING): by identity when
 * both sides have one, else by name, saying which side has none.
 */
static void
add_pairing_title(struct output *o, const struct summary *a,
    const struct summary *b, int by_identity, const struct diff_pair *pairs,
    size_t n)
{
	size_t count[PAIRED_NONE + 1] = { 0 }, i;
	char *line;

	for (i = 0; i < n; i++)
		count[pairs[i].paired_by]++;
	if (!by_identity) {
		const struct summary *old = a->pairs_by_name ? a : b;

		line = xasprintf("Paired by name: %s is a version 1 baseline "
		    "(no op identities); save it again to pair ops by what "
		    "they are.", old->label);
		output_title(o, line);
		free(line);
	}
	line = xasprintf("Paired: %zu by identity (module, category, "
	    "framework op, source; in name order), %zu summed (an identity "
	    "with more ops on one side), %zu by name, %zu by stem; %zu "
	    "unpaired.", count[PAIRED_IDENTITY], count[PAIRED_SUMMED],
	    count[PAIRED_NAME], count[PAIRED_STEM], count[PAIRED_NONE]);
	output_title(o, line);
	free(line);
}

/* New ops of one kind: what they are (op_what()), how many, their time. */
struct new_kind {
	char	*what;
	size_t	 n;
	double	 ps;
};

static int
cmp_new_kind(const void *a, const void *b)
{
	const struct new_kind *x = a, *y = b;

	return x->ps < y->ps ? 1 : x->ps > y->ps ? -1 : strcmp(x->what, y->what);
}

#define NEW_KINDS_SHOWN	5

/*
 * A note on the ops the new profile added, grouped by what they are:
 * twenty rows of "added custom-call.N" are one line of code.
 */
static void
add_new_kinds_note(struct output *o, const struct diff_pair *pairs,
    size_t npairs)
{
	struct new_kind *kinds = NULL;
	size_t i, k, nkinds = 0;
	char *note, *more, when[64];

	for (i = 0; i < npairs; i++) {
		const struct op_row *row = pairs[i].new;
		char *what;

		if (pairs[i].match != MATCH_ADDED || row == NULL)
			continue;
		what = op_what(row->framework_op, row->source);
		if (what[0] == '\0') {
			free(what);
			what = xstrdup(row->name);
		}
		for (k = 0; k < nkinds && strcmp(kinds[k].what, what) != 0; k++)
			;
		if (k == nkinds) {
			kinds = xreallocarray(kinds, nkinds + 1, sizeof *kinds);
			kinds[nkinds].what = what;
			kinds[nkinds].n = 0;
			kinds[nkinds++].ps = 0;
		} else
			free(what);
		kinds[k].n++;
		kinds[k].ps += (double)row->total_ps;
	}
	if (nkinds == 0)
		return;
	qsort(kinds, nkinds, sizeof *kinds, cmp_new_kind);
	note = xasprintf("New ops by what they are (device time in the new "
	    "profile):");
	for (k = 0; k < nkinds && k < NEW_KINDS_SHOWN; k++) {
		fmt_duration(when, sizeof when, ps_from_double(kinds[k].ps));
		more = xasprintf("%s%s " OUT_CODE "%s" OUT_END_CODE " %zu op%s "
		    "%s", note, k > 0 ? ";" : "", kinds[k].what, kinds[k].n,
		    kinds[k].n == 1 ? "" : "s", when);
		free(note);
		note = more;
	}
	if (nkinds > NEW_KINDS_SHOWN) {
		more = xasprintf("%s; %zu more kinds", note,
		    nkinds - NEW_KINDS_SHOWN);
		free(note);
		note = more;
	}
	output_note(o, note);
	free(note);
	for (k = 0; k < nkinds; k++)
		free(kinds[k].what);
	free(kinds);
}

static int
diff_run(int argc, char **argv)
{
	struct out_col cols[sizeof columns / sizeof columns[0]];
	struct report r;
	struct summary a, b;
	struct op_row *ra, *rb;
	struct diff_pair *pairs;
	struct output *o;
	struct outfile of;
	size_t na, nb, npairs, i, k;
	long limit = 20, skip = 0;
	int ch, by = BY_DEVICE_TIME, group = GROUP_OP, status, summary = 0;
	int by_identity, html = 0, failed = 0;
	double abs_sum = 0, da, db;
	const char *per, *out_path = NULL;
	FILE *fp = stdout;

	cmd_report_init(&cmd_diff, &r);
	while ((ch = cmd_next_option(&cmd_diff, NULL, &r, argc, argv)) != -1) {
		if (ch == OPT_FORMAT) {
			enum out_format f;

			/* The last --format counts. */
			html = strcmp(optarg, "html") == 0;
			if (html)
				continue;
			if (output_parse_format(optarg, &f) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --format '%s' "
				    "(choose from %s, html)", optarg,
				    output_formats);
		}
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'b':
			if ((by = op_by_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --by '%s' "
				    "(choose from %s)", optarg, op_by_choices);
			break;
		case 'g':
			if ((group = op_group_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --group '%s' "
				    "(choose from %s)", optarg,
				    op_group_choices);
			break;
		case OPT_INCLUDE_COMPILE_WORK:
			r.include_compile_work = 1;
			break;
		case 'n':
			limit = parse_long_option("diff", "limit", optarg, 0,
			    1000000000L);
			break;
		case 'o':
			out_path = optarg;
			break;
		case OPT_SKIP:
			skip = parse_long_option("diff", "skip", optarg, 0,
			    1000000000L);
			break;
		case OPT_SUMMARY:
			summary = 1;
			break;
		}
	}
	if (argc - optind != 2)
		cmd_usage_error(&cmd_diff);
	if (html && out_path == NULL)
		jp_errx(EXIT_TROUBLE, "--format=html needs -o FILE");
	/* The page compares the time of ops, paired by what they are. */
	if (html && (by == BY_COUNT || group != GROUP_OP || summary))
		jp_errx(EXIT_TROUBLE, "--format=html compares ops by time: "
		    "no --by=count, --group or --summary");

	summary_init(&a);
	summary_init(&b);
	status = summary_load(&a, &r, argv[optind], 0);
	if (summary_load(&b, &r, argv[optind + 1], 0) != EXIT_OK)
		status = EXIT_TROUBLE;
	summary_op_rows(&a, group, &ra, &na);
	summary_op_rows(&b, group, &rb, &nb);
	/* Grouped rows have no identity; old baselines none kept. */
	by_identity = group == GROUP_OP && !a.pairs_by_name && !b.pairs_by_name;
	diff_ops(ra, na, rb, nb, by, by_identity, &pairs, &npairs);
	/* Per step or execution, so runs of different lengths compare. */
	per = by == BY_AVG ? "total" : summary_op_norm(&a, &b, &da, &db);
	if (by == BY_AVG)
		da = db = 1;
	diff_normalize(pairs, npairs, da, db);
	for (i = 0; i < npairs; i++)
		abs_sum += fabs(pairs[i].delta);

	if (out_path != NULL && (fp = outfile_fopen(&of, out_path)) == NULL) {
		jp_warn("cannot write '%s'", out_path);
		status = EXIT_TROUBLE;
		goto out;
	}
	if (html) {
		struct diff_page page = { &a, &b, pairs, npairs, per,
		    (size_t)skip };

		failed = diff_page_write(&page, fp) == -1;
		goto done;
	}
	if (summary || r.format == FMT_JSON) {
		/* JSON: {"summary": [...], "ops": [...]} (jaxprof-diff(1)). */
		if (!summary)
			fputs("{\"summary\": ", fp);
		o = output_new(r.format, fp, summary_columns,
		    sizeof summary_columns / sizeof summary_columns[0]);
		diff_titles(o, &a, &b, by, group, (size_t)skip, ra, na, rb, nb);
		put_summary(o, &a, &b, (size_t)skip, ra, na, rb, nb);
		failed |= output_finish(o) == -1;
		if (summary)
			goto done;
		fputs(", \"ops\": ", fp);
	}
	memcpy(cols, columns, sizeof cols);
	if (by == BY_COUNT) {
		cols[DELTA_COL].name = "delta_count";
		cols[DELTA_COL].type = COL_RATE;
		cols[NORM_COL].name = "base_normalized_count";
		cols[NORM_COL].type = COL_RATE;
		cols[NORM_COL + 1].name = "new_normalized_count";
		cols[NORM_COL + 1].type = COL_RATE;
	}
	o = output_new(r.format, fp, cols, sizeof cols / sizeof cols[0]);
	diff_titles(o, &a, &b, by, group, (size_t)skip, ra, na, rb, nb);
	add_norm_title(o, per, da, db);
	if (group == GROUP_OP)
		add_pairing_title(o, &a, &b, by_identity, pairs, npairs);
	summary_note_runs(&a, o, "base");
	summary_note_runs(&b, o, "new");
	k = limit == 0 || (size_t)limit > npairs ? npairs : (size_t)limit;
	for (i = 0; i < k; i++)
		put_row(o, &pairs[i], by, abs_sum, per,
		    r.format == FMT_TABLE || r.format == FMT_MARKDOWN);
	output_more_rows(o, k, npairs);
	if (group == GROUP_OP)
		add_new_kinds_note(o, pairs, npairs);
	failed |= output_finish(o) == -1;
	if (r.format == FMT_JSON)
		fputs("}\n", fp);
done:
	/* A page cut short never replaces the last one (outfile.h). */
	if (fp != stdout && (failed || outfile_commit(&of) == -1)) {
		outfile_abort(&of);
		jp_warn("cannot write '%s'", out_path);
		failed = 1;
	}
	if (failed)
		status = EXIT_TROUBLE;	/* stdout's error: main says it */
out:
	diff_pairs_free(pairs, npairs);
	op_rows_free(ra, na);
	op_rows_free(rb, nb);
	summary_release(&a);
	summary_release(&b);
	return status;
}
