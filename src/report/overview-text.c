/*
 * The summary command's overview as tables, one per part: the run, the
 * step broken down, idle by what the host ran, the top ops and source
 * lines, precisions, compilations, memory and the recommendations.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/overview-text.h"
#include "lib/units.h"
#include "lib/xmalloc.h"
#include "model/precision.h"
#include "output/output.h"
#include "report/overview.h"
#include "report/precision-share.h"

static char *
joined(char **v, size_t n)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < n; i++) {
		t = xasprintf("%s%s%s", s, i > 0 ? ", " : "", v[i]);
		free(s);
		s = t;
	}
	return s;
}

static const struct out_col kv_cols[] = {
	{ "what", COL_STR, NULL, 0, UNIT_NONE },
	{ "value", COL_STR, NULL, 0, UNIT_NONE },
};

static void
kv(struct output *o, const char *what, char *value)
{
	output_str(o, what);
	output_str(o, value);
	output_end_row(o);
	free(value);
}

static int
print_run(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	struct output *o = output_new(fmt, fp, kv_cols, 2);
	char med[40], lo[40], p90[40], hi[40], sd[40];
	size_t i, j;

	output_title(o, "Summary: what bounds the run (jaxprof-summary(1) "
	    "gives the rules).");
	kv(o, "runs", joined(ov->runs, ov->nruns));
	kv(o, "hosts", joined(ov->hosts, ov->nhosts));
	kv(o, "devices", ov->ndevices > 0 ? joined(ov->devices,
	    ov->ndevices) : xstrdup(ov->cpu_only ? "none (CPU-only: the "
	    "host's threads ran the ops)" : "none"));
	fmt_duration(med, sizeof med, (int64_t)ov->median_ps);
	fmt_duration(lo, sizeof lo, (int64_t)ov->min_ps);
	fmt_duration(p90, sizeof p90, (int64_t)ov->p90_ps);
	fmt_duration(hi, sizeof hi, (int64_t)ov->max_ps);
	fmt_duration(sd, sizeof sd, (int64_t)ov->stddev_ps);
	kv(o, "steps", ov->nsteps == 0 ? xstrdup("none found") :
	    xasprintf("%zu (from %s events) on %zu device%s, median %s",
	    ov->nsteps, ov->step_source, ov->nseries, ov->nseries == 1 ? "" :
	    "s", med));
	if (ov->nkept > 0) {
		kv(o, "spread", xasprintf("min %s, p90 %s, max %s", lo, p90,
		    hi));
		kv(o, "stddev", xasprintf("%s, %.1f%% of the median", sd,
		    100 * ov->stddev_ps / ov->median_ps));
	}
	for (i = 0; i < ov->nseries; i++)
		for (j = 0; j < ov->series[i].n; j++) {
			const struct ov_step *s = &ov->series[i].steps[j];

			if (s->skip_why == NULL)
				continue;
			fmt_duration(med, sizeof med, s->dur_ps);
			kv(o, "skipped", xasprintf("%s step %lld (%s): %s",
			    ov->series[i].device, (long long)s->step, med,
			    s->skip_why));
		}
	return output_finish(o);
}

static const struct out_col part_cols[] = {
	{ "part", COL_STR, NULL, 0, UNIT_NONE },
	{ "per_step_us", COL_PS, "per step", 0, UNIT_NONE },
	{ "percent", COL_PCT, "%", 0, UNIT_NONE },
};

static int
print_parts(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	struct output *o = output_new(fmt, fp, part_cols, 3);
	char *t;
	int k;

	t = xasprintf("The step broken down (all %zu steps; idle split by what "
	    "the host ran meanwhile):", ov->nsteps);
	output_title(o, t);
	free(t);
	for (k = 0; k < OV_NPARTS; k++) {
		output_str(o, ov_part_words[k]);
		output_ps(o, ov->nsteps > 0 ? (double)ov->part_ps[k] /
		    (double)ov->nsteps : 0);
		output_double(o, overview_part_pct(ov, (enum ov_part)k));
		output_end_row(o);
	}
	t = xasprintf("Verdict: %s.", ov->verdict);
	output_note(o, t);
	free(t);
	return output_finish(o);
}

static const struct out_col cause_cols[] = {
	{ "part", COL_STR, NULL, 0, UNIT_NONE },
	{ "host_activity", COL_STR, "host was running", 0, UNIT_NONE },
	{ "host_context", COL_STR, "inside", 0, UNIT_NONE },
	{ "gaps", COL_INT, NULL, 0, UNIT_NONE },
	{ "per_step_us", COL_PS, "per step", 0, UNIT_NONE },
	{ "percent", COL_PCT, "% of step", 0, UNIT_NONE },
};

static int
print_causes(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	struct output *o = output_new(fmt, fp, cause_cols, 6);
	size_t i, n = ov->ncauses < 5 ? ov->ncauses : 5;

	output_title(o, "Device idle by what the host was running (gaps of "
	    "100 us or more; idle while compiling):");
	for (i = 0; i < n; i++) {
		const struct ov_cause *c = &ov->causes[i];

		output_str(o, ov_part_words[c->part]);
		output_str(o, c->activity);
		output_str(o, c->context);
		output_int(o, c->gaps);
		output_ps(o, ov->nsteps > 0 ? (double)c->ps /
		    (double)ov->nsteps : 0);
		output_double(o, ov->steps_ps > 0 ? 100.0 * (double)c->ps /
		    (double)ov->steps_ps : 0);
		output_end_row(o);
	}
	output_more_rows(o, n, ov->ncauses);
	return output_finish(o);
}

/* Ops say what they are (op_what()); source lines need not. */
static const struct out_col item_cols[] = {
	{ "rank", COL_INT, "#", 2, UNIT_NONE },
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "what", COL_STR, NULL, 0, UNIT_NONE },
	{ "count", COL_INT, NULL, 3, UNIT_NONE },
	{ "total_us", COL_PS, "total", 0, UNIT_NONE },
	{ "percent", COL_PCT, "%", 0, UNIT_NONE },
	{ "where", COL_STR, NULL, 1, UNIT_NONE },
};
static const struct out_col line_cols[] = {
	{ "rank", COL_INT, "#", 2, UNIT_NONE },
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "count", COL_INT, NULL, 3, UNIT_NONE },
	{ "total_us", COL_PS, "total", 0, UNIT_NONE },
	{ "percent", COL_PCT, "%", 0, UNIT_NONE },
	{ "where", COL_STR, NULL, 1, UNIT_NONE },
};

static int
print_items(const struct ov_item *v, size_t n, const char *title, int ops,
    enum out_format fmt, FILE *fp)
{
	struct output *o = ops ? output_new(fmt, fp, item_cols, 7) :
	    output_new(fmt, fp, line_cols, 6);
	size_t i, k = n < 5 ? n : 5;

	output_title(o, title);
	for (i = 0; i < k; i++) {
		output_int(o, (int64_t)i + 1);
		output_str(o, v[i].name);
		if (ops)
			output_str(o, v[i].what);
		output_int(o, v[i].count);
		output_ps(o, (double)v[i].total_ps);
		output_double(o, v[i].pct);
		output_str(o, v[i].detail);
		output_end_row(o);
	}
	return output_finish(o);
}

static const struct out_col precision_cols[] = {
	{ "precision", COL_STR, NULL, 0, UNIT_NONE },
	{ "total_us", COL_PS, "total", 0, UNIT_NONE },
	{ "percent", COL_PCT, "% of compute", 0, UNIT_NONE },
};

/* The precisions compute time went to, those with any. */
static int
print_precision(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	const struct precision_share *s = &ov->precision;
	struct output *o = output_new(fmt, fp, precision_cols, 3);
	int p;

	output_title(o, "Compute time by precision (ops that compute, each "
	    "judged against its precision's peak in top):");
	for (p = 0; p <= PREC_N; p++) {
		int prec = p == PREC_N ? PREC_UNKNOWN : p;

		if (s->ps[p] <= 0)
			continue;
		output_str(o, prec == PREC_UNKNOWN ? "unknown" :
		    prec == PREC_BF16 ? "bf16/fp16" : precision_name(prec));
		output_ps(o, (double)s->ps[p]);
		output_double(o, precision_share_pct(s, prec));
		output_end_row(o);
	}
	return output_finish(o);
}

static const struct out_col compile_cols[] = {
	{ "function", COL_STR, NULL, 0, UNIT_NONE },
	{ "compiles", COL_INT, NULL, 0, UNIT_NONE },
	{ "compile_us", COL_PS, "compile", 0, UNIT_NONE },
	{ "executions", COL_INT, NULL, 0, UNIT_NONE },
	{ "execute_us", COL_PS, "execute", 0, UNIT_NONE },
	{ "steps", COL_STR, "in steps", 0, UNIT_NONE },
	{ "programs", COL_STR, NULL, 0, UNIT_NONE },
	{ "shapes", COL_STR, "differing shapes", 0, UNIT_NONE },
};

static int
print_compiles(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	struct output *o;
	size_t i;

	if (ov->ncompiles == 0)
		return 0;
	o = output_new(fmt, fp, compile_cols, 8);
	output_title(o, "Compilations in the profile (host wall time) and "
	    "executions:");
	for (i = 0; i < ov->ncompiles; i++) {
		const struct ov_compile *c = &ov->compiles[i];

		output_str(o, c->function);
		output_int(o, c->count);
		output_ps(o, (double)c->total_ps);
		output_int(o, c->exec_count);
		output_ps(o, (double)c->exec_ps);
		output_str(o, c->steps);
		output_str(o, c->programs);
		output_str(o, c->shapes);
		output_end_row(o);
	}
	return output_finish(o);
}

static const struct out_col memory_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "allocator", COL_STR, NULL, 0, UNIT_NONE },
	{ "peak_bytes", COL_BYTES, "peak", 0, UNIT_NONE },
	{ "peak_time_us", COL_PS, "at", 0, UNIT_NONE },
	{ "step", COL_INT, NULL, 0, UNIT_NONE },
	{ "module", COL_STR, NULL, 0, UNIT_NONE },
	{ "op", COL_STR, NULL, 0, UNIT_NONE },
	{ "capacity_bytes", COL_BYTES, "capacity", 0, UNIT_NONE },
};

static int
print_memory(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	struct output *o = output_new(fmt, fp, memory_cols, 9);
	size_t i;

	output_title(o, "Device memory: each allocator's peak in the capture "
	    "(heap plus stack in use; jaxprof-memory(1)):");
	for (i = 0; i < ov->nmemory; i++) {
		const struct ov_memory *m = &ov->memory[i];

		output_str(o, m->run);
		output_str(o, m->host);
		output_str(o, m->allocator);
		output_double(o, (double)m->peak_bytes);
		output_ps(o, (double)m->peak_ps);
		if (m->step >= 0)
			output_int(o, m->step);
		else
			output_null(o);
		if (m->module != NULL)
			output_str(o, m->module);
		else
			output_null(o);
		if (m->op != NULL)
			output_str(o, m->op);
		else
			output_null(o);
		if (m->capacity_bytes >= 0)
			output_double(o, (double)m->capacity_bytes);
		else
			output_null(o);
		output_end_row(o);
	}
	for (i = 0; i < ov->memory_losses.n; i++) {
		char *note = xasprintf("Incomplete: %s; %s left out.",
		    ov->memory_losses.v[i].text,
		    ov->memory_losses.v[i].subject);

		output_note(o, note);
		free(note);
	}
	return output_finish(o);
}

static const struct out_col rec_cols[] = {
	{ "rank", COL_INT, "#", 0, UNIT_NONE },
	{ "rule", COL_STR, NULL, 0, UNIT_NONE },
	{ "value", COL_REAL, NULL, 0, UNIT_NONE },
	{ "threshold", COL_REAL, NULL, 0, UNIT_NONE },
	{ "saves_us", COL_PS, "saves up to", 0, UNIT_NONE },
};

static int
print_recs(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	struct output *o;
	size_t i;
	char *t;

	if (ov->nrecs == 0) {
		fputs("Recommendations: none besides the verdict (no other "
		    "rule reaches its threshold).\n", fp);
		return ferror(fp) ? -1 : 0;
	}
	o = output_new(fmt, fp, rec_cols, 5);
	output_title(o, ov->nsteps > 0 ? "Recommendations, most time to gain "
	    "first (each rule's value, its threshold, what fixing it could "
	    "save a step):" : "Recommendations, most time to gain first "
	    "(each rule's value, its threshold, what fixing it could save "
	    "in the capture):");
	for (i = 0; i < ov->nrecs; i++) {
		output_int(o, (int64_t)i + 1);
		output_str(o, ov->recs[i].rule);
		output_double(o, round(ov->recs[i].value * 10) / 10);
		output_double(o, ov->recs[i].threshold);
		output_ps(o, (double)ov->recs[i].save_ps);
		output_end_row(o);
	}
	/* Notes, not cells: a table cuts long cells. */
	for (i = 0; i < ov->nrecs; i++) {
		t = xasprintf("%zu. %s.", i + 1, ov->recs[i].text);
		output_note(o, t);
		free(t);
	}
	return output_finish(o);
}

int
overview_write_text(const struct overview *ov, enum out_format fmt, FILE *fp)
{
	int rc = 0;

	rc |= print_run(ov, fmt, fp);
	fputc('\n', fp);
	rc |= print_parts(ov, fmt, fp);
	if (ov->ncauses > 0) {
		fputc('\n', fp);
		rc |= print_causes(ov, fmt, fp);
	}
	fputc('\n', fp);
	rc |= print_items(ov->ops, ov->nops, "Top ops by device time:", 1, fmt,
	    fp);
	fputc('\n', fp);
	rc |= print_items(ov->lines, ov->nlines, "Top source lines by "
	    "device time:", 0, fmt, fp);
	if (ov->precision.compute_ps > 0) {
		fputc('\n', fp);
		rc |= print_precision(ov, fmt, fp);
	}
	if (ov->ncompiles > 0) {
		fputc('\n', fp);
		rc |= print_compiles(ov, fmt, fp);
	}
	if (ov->nmemory > 0 || ov->memory_losses.n > 0) {
		fputc('\n', fp);
		rc |= print_memory(ov, fmt, fp);
	}
	fputc('\n', fp);
	rc |= print_recs(ov, fmt, fp);
	return rc != 0 ? -1 : 0;
}
