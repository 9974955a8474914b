/* The overview's verdict and recommendations by its rules (overview.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "report/hosts.h"
#include "report/overview.h"
#include "lib/ptime.h"
#include "lib/xmalloc.h"

/* A wait's number: its part's share of step time. */
static double
part_share(const struct overview *ov, const struct ov_rule *rule)
{
	return overview_part_pct(ov, rule->part);
}

/* The most compilations of one function (the compiles come most first). */
static double
most_compiles(const struct overview *ov, const struct ov_rule *rule)
{
	(void)rule;
	return ov->ncompiles > 0 ? (double)ov->compiles[0].count : 0;
}

/* The top 3 ops' share of device time. */
static double
few_ops_share(const struct overview *ov, const struct ov_rule *rule)
{
	size_t i, n = ov->nops < 3 ? ov->nops : 3;
	double few = 0;

	(void)rule;
	for (i = 0; i < n; i++)
		few += ov->ops[i].pct;
	return few;
}

static double
top_line_share(const struct overview *ov, const struct ov_rule *rule)
{
	(void)rule;
	return ov->nlines > 0 ? ov->lines[0].pct : 0;
}

static double
top_op_share(const struct overview *ov, const struct ov_rule *rule)
{
	(void)rule;
	return ov->nops > 0 ? ov->ops[0].pct : 0;
}

static double
op_count(const struct overview *ov, const struct ov_rule *rule)
{
	(void)rule;
	return (double)ov->nops;
}

/*
 * The rules of jaxprof-summary(1) RULES, in its order and words: first
 * the waits (those with a lead), whose largest share that fired is the
 * verdict, then the others.
 */
const struct ov_rule ov_rules[] = {
	{ "host", OV_HOST, part_share, 20,
	    .verdict = "input / host bound", .lead = "the device is idle",
	    .during = " while the host runs ", .names_cause = 1,
	    .advice = ": the input pipeline or host code bounds the step; "
	    "overlap it with the device (prefetch, load on another thread)" },
	{ "launch", OV_LAUNCH, part_share, 10,
	    .verdict = "launch overhead bound", .lead = "the device waits",
	    .during = " while the host runs ", .names_cause = 1,
	    .advice = ": launch overhead bounds the step; fewer, larger "
	    "programs or command buffers that need no update cut it" },
	{ "compile", OV_COMPILE, part_share, 10,
	    .verdict = "compile bound", .lead = "the device waits",
	    .during = " while the host compiles",
	    .advice = "; compile before the steps you profile or keep shapes "
	    "fixed", .said_by = { "recompile" } },
	{ "transfers", OV_TRANSFER, part_share, 10,
	    .verdict = "transfers bound", .lead = "transfers take",
	    .during = "", .advice = "" },
	{ "collectives", OV_COLLECTIVE, part_share, 10,
	    .verdict = "collectives bound", .lead = "collectives take",
	    .during = "", .advice = "" },
	{ "sync", OV_SYNC, part_share, 20,
	    .verdict = "sync bound", .lead = "the device is idle",
	    .during = " while the host waits for a result in ",
	    .names_cause = 1, .advice = ": each step waits on a value; fetch "
	    "it less often (log every N steps) or without blocking" },
	{ "recompile", OV_COMPILE, most_compiles, 2,
	    .verdict = "recompiles", .advice = "each new input shape or "
	    "static argument compiles it again; pad or bucket shapes to a few "
	    "sizes" },
	{ "few-ops", OV_COMPUTE, few_ops_share, 50, .verdict = "a few ops" },
	/* Or a line this large dominates compute, before any wait. */
	{ "compute", OV_COMPUTE, top_line_share, 50,
	    .verdict = "compute bound" },
	{ "no-steps", OV_NPARTS, op_count, 1, .verdict = "no steps found" },
	/* Whatever is left: nothing to measure. */
	{ "none", OV_NPARTS, NULL, 0, .verdict = "no steps and no ops" },
	/* jaxprof-hosts(1) measures it, host by host: of joined steps. */
	{ "straggler", OV_COLLECTIVE, NULL, STRAGGLER_LAST_SHARE,
	    .verdict = "straggler" },
	/* Below their threshold, the top line and op are no advice. */
	{ "top-line", OV_COMPUTE, top_line_share, 25,
	    .advice = "the line to optimize first", .said_by = { "compute" } },
	{ "top-op", OV_COMPUTE, top_op_share, 25, .advice = "",
	    .said_by = { "few-ops", "no-steps" } },
};
const size_t ov_nrules = sizeof ov_rules / sizeof ov_rules[0];

static const struct ov_rule *
rule_named(const char *name)
{
	size_t i;

	for (i = 0; i < ov_nrules; i++)
		if (strcmp(ov_rules[i].name, name) == 0)
			return &ov_rules[i];
	abort();	/* a name of this file's that has no row */
}

/* What fixing a part of ps in all could save: its time per step. */
static int64_t
save_of(const struct overview *ov, int64_t ps)
{
	return ov->nsteps > 0 ? ps / (int64_t)ov->nsteps : ps;
}

static void
add_rec(struct overview *ov, const char *rule, double value,
    double threshold, int64_t ps, char *text)
{
	ov->recs = xgrow1(ov->recs, ov->nrecs, sizeof *ov->recs);
	ov->recs[ov->nrecs].rule = rule;
	ov->recs[ov->nrecs].value = value;
	ov->recs[ov->nrecs].threshold = threshold;
	ov->recs[ov->nrecs].save_ps = save_of(ov, ps);
	ov->recs[ov->nrecs++].text = text;
}

/* The largest cause of part k, or NULL. */
static const struct ov_cause *
top_cause(const struct overview *ov, enum ov_part k)
{
	size_t i;

	for (i = 0; i < ov->ncauses; i++)
		if (ov->causes[i].part == k)
			return &ov->causes[i];
	return NULL;
}

/* "`time.sleep` inside `load_batch`", the names marked (output.h) */
static char *
cause_words(const struct ov_cause *c)
{
	if (c->context[0] != '\0' && strcmp(c->context, c->activity) != 0)
		return xasprintf(OUT_CODE "%s" OUT_END_CODE " inside " OUT_CODE
		    "%s" OUT_END_CODE, c->activity, c->context);
	return xasprintf(OUT_CODE "%s" OUT_END_CODE, c->activity);
}

/* A time per step: the part's time over the steps' count. */
static void
per_step(char *buf, size_t size, const struct overview *ov, int64_t ps)
{
	fmt_duration(buf, size, ov->nsteps > 0 ? ps / (int64_t)ov->nsteps :
	    0);
}

/* "48.7 ms of each 68.3 ms step": the means, as the shares are. */
static char *
of_each(const struct overview *ov, int64_t ps)
{
	char a[40], b[40];

	per_step(a, sizeof a, ov, ps);
	per_step(b, sizeof b, ov, ov->steps_ps);
	return xasprintf("%s of each %s step on average", a, b);
}

/* Whether compute is the largest part of the steps. */
static int
compute_largest(const struct overview *ov)
{
	int k;

	if (ov->steps_ps <= 0)
		return 0;
	for (k = 0; k < OV_NPARTS; k++)
		if (ov->part_ps[k] > ov->part_ps[OV_COMPUTE])
			return 0;
	return 1;
}

/*
 * The compute verdict: the largest part, and in it the top line; "why"
 * says what else was weighed.
 */
static void
compute_verdict(struct overview *ov, const char *why)
{
	const struct ov_rule *rule = rule_named("compute");
	char each[40], line[40];

	per_step(each, sizeof each, ov, ov->part_ps[OV_COMPUTE]);
	per_step(line, sizeof line, ov, ov->lines[0].total_ps);
	ov->verdict_rule = rule->name;
	free(ov->verdict);
	ov->verdict = xasprintf("%s: compute takes %.1f%% of step time (%s a "
	    "step)%s; of it " OUT_CODE "%s" OUT_END_CODE " first, %.1f%% of "
	    "device time (%s a step)", rule->verdict,
	    overview_part_pct(ov, OV_COMPUTE), each, why, ov->lines[0].name,
	    ov->lines[0].pct, line);
}

/* Whether a recommendation of rule name says no more than the verdict. */
static int
in_verdict(const struct overview *ov, const char *name)
{
	const struct ov_rule *rule = rule_named(name);
	size_t i;

	if (strcmp(ov->verdict_rule, name) == 0)
		return 1;
	for (i = 0; i < OV_SAID_BY; i++)
		if (rule->said_by[i] != NULL &&
		    strcmp(rule->said_by[i], ov->verdict_rule) == 0)
			return 1;
	return 0;
}

static int
cmp_rec_save(const void *a, const void *b)
{
	const struct ov_rec *x = a, *y = b;

	return (x->save_ps < y->save_ps) - (x->save_ps > y->save_ps);
}

/* A recommendation's text ends with what fixing it could save. */
static void
say_save(const struct overview *ov, struct ov_rec *rec)
{
	char save[40], *t;

	fmt_duration(save, sizeof save, rec->save_ps);
	t = xasprintf("%s; fixing it could save up to %s %s", rec->text, save,
	    ov->nsteps > 0 ? "a step" : "in the capture");
	free(rec->text);
	rec->text = t;
}

/*
 * The advice: what the verdict does not already say, most time to gain
 * first (ties in rule order), OV_RECS at most, each saying its gain.
 */
static void
order_recs(struct overview *ov)
{
	size_t i, n = 0;

	for (i = 0; i < ov->nrecs; i++) {
		if (in_verdict(ov, ov->recs[i].rule)) {
			free(ov->recs[i].text);
			continue;
		}
		ov->recs[n++] = ov->recs[i];
	}
	ov->nrecs = n;
	/* Stable: insertion order breaks ties; qsort is not stable. */
	for (i = 1; i < ov->nrecs; i++) {
		size_t j = i;

		while (j > 0 && cmp_rec_save(&ov->recs[j - 1],
		    &ov->recs[j]) > 0) {
			struct ov_rec tmp = ov->recs[j];

			ov->recs[j] = ov->recs[j - 1];
			ov->recs[--j] = tmp;
		}
	}
	while (ov->nrecs > OV_RECS)
		free(ov->recs[--ov->nrecs].text);
	for (i = 0; i < ov->nrecs; i++)
		say_save(ov, &ov->recs[i]);
}

/*
 * The wait rules: each that fired is a recommendation; the largest share
 * is the verdict.  Returns the verdict's time.
 */
static int64_t
judge_waits(struct overview *ov)
{
	double best = 0;
	int64_t verdict_ps = 0;
	size_t i;

	for (i = 0; i < ov_nrules; i++) {
		const struct ov_rule *rule = &ov_rules[i];
		enum ov_part k = rule->part;
		double pct;
		const struct ov_cause *c;
		char *text, *each, *what;

		if (rule->lead == NULL)
			continue;
		pct = rule->measured(ov, rule);
		if (pct < rule->threshold)
			continue;
		c = top_cause(ov, k);
		each = of_each(ov, ov->part_ps[k]);
		what = c != NULL ? cause_words(c) : NULL;
		text = xasprintf("%s %.1f%% of step time (%s)%s%s%s",
		    rule->lead, pct, each, rule->during, !rule->names_cause ?
		    "" : what, rule->advice);
		free(what);
		free(each);
		if (pct > best) {
			best = pct;
			verdict_ps = ov->part_ps[k];
			ov->verdict_rule = rule->name;
			free(ov->verdict);
			ov->verdict = xasprintf("%s: %s", rule->verdict, text);
		}
		add_rec(ov, rule->name, pct, rule->threshold, ov->part_ps[k],
		    text);
	}
	return verdict_ps;
}

/* The rules of jaxprof-summary(1) RULES, in its words. */
static void
apply_rules(struct overview *ov)
{
	const struct ov_rule *rule = rule_named("recompile");
	const struct ov_compile *re = NULL;
	int64_t verdict_ps = judge_waits(ov);
	char *what;

	if (rule->measured(ov, rule) >= rule->threshold)
		re = &ov->compiles[0];
	if (re != NULL) {
		char total[40];

		fmt_duration(total, sizeof total, re->total_ps);
		what = xasprintf(OUT_CODE "%s" OUT_END_CODE " compiled %lld "
		    "times (%s%s%s%s%s%s%s%s), %s in all: %s",
		    re->function, (long long)re->count,
		    re->shapes[0] ? "input shapes " : "", re->shapes,
		    re->shapes[0] && (re->programs[0] || re->steps[0]) ?
		    "; " : "",
		    re->programs[0] ? "programs " : "", re->programs,
		    re->steps[0] && re->programs[0] ? "; " : "",
		    re->steps[0] ? "in steps " : "", re->steps, total,
		    rule->advice);
		if (ov->verdict_rule != NULL &&
		    strcmp(ov->verdict_rule, "compile") == 0) {
			char *v = xasprintf("%s; %s", ov->verdict, what);

			free(ov->verdict);
			ov->verdict = v;
			ov->verdict_rule = rule->name;
		} else if (ov->verdict_rule == NULL) {
			ov->verdict_rule = rule->name;
			ov->verdict = xasprintf("%s: %s", rule->verdict, what);
			verdict_ps = re->total_ps;
		}
		add_rec(ov, rule->name, (double)re->count, rule->threshold,
		    re->total_ps, what);
	}
	/*
	 * Compute is the largest part and one line most of it, more time
	 * than the wait that fired: that line is what bounds the step.
	 */
	rule = rule_named("compute");
	if (ov->nlines > 0 && compute_largest(ov) &&
	    rule->measured(ov, rule) >= rule->threshold &&
	    ov->lines[0].total_ps > verdict_ps)
		compute_verdict(ov, ov->verdict_rule != NULL ? ", more than "
		    "any wait" : " and no wait reaches its threshold");
	rule = rule_named("few-ops");
	if (ov->verdict_rule == NULL && ov->nops > 0 &&
	    rule->measured(ov, rule) >= rule->threshold) {
		ov->verdict_rule = rule->name;
		ov->verdict = xasprintf("%s: the top %zu ops take %.1f%% of "
		    "device time, " OUT_CODE "%s" OUT_END_CODE " first "
		    "(%.1f%%)", rule->verdict, ov->nops < 3 ? ov->nops : 3,
		    rule->measured(ov, rule), ov->ops[0].name,
		    ov->ops[0].pct);
	}
	if (ov->verdict_rule == NULL && ov->steps_ps > 0 && ov->nlines > 0)
		compute_verdict(ov, " and no wait reaches its threshold");
	if (ov->verdict_rule == NULL && ov->steps_ps > 0) {
		double busy = overview_part_pct(ov, OV_COMPUTE) +
		    overview_part_pct(ov, OV_COLLECTIVE) +
		    overview_part_pct(ov, OV_TRANSFER);

		ov->verdict_rule = rule_named("compute")->name;
		ov->verdict = xasprintf("compute: the device is busy %.1f%% of "
		    "step time and no wait reaches its threshold; the ops "
		    "bound the step", busy);
	}
	rule = rule_named("no-steps");
	if (ov->verdict_rule == NULL &&
	    rule->measured(ov, rule) >= rule->threshold) {
		/* No step windows: no idle time to weigh, only the ops. */
		ov->verdict_rule = rule->name;
		ov->verdict = xasprintf("%s (no step annotation and no program "
		    "run repeatedly), so no wait can be weighed; of the ops, "
		    OUT_CODE "%s" OUT_END_CODE " takes the most (%.1f%% of "
		    "device time)", rule->verdict, ov->ops[0].name,
		    ov->ops[0].pct);
	}
	if (ov->verdict_rule == NULL) {
		rule = rule_named("none");
		ov->verdict_rule = rule->name;
		ov->verdict = xasprintf("%s: nothing to judge", rule->verdict);
	}
	rule = rule_named("top-line");
	if (ov->nlines > 0 && rule->measured(ov, rule) >= rule->threshold)
		add_rec(ov, rule->name, ov->lines[0].pct, rule->threshold,
		    ov->lines[0].total_ps,
		    xasprintf(OUT_CODE "%s" OUT_END_CODE " takes %.1f%% of "
		    "device time: %s", ov->lines[0].name, ov->lines[0].pct,
		    rule->advice));
	rule = rule_named("top-op");
	if (ov->nops > 0 && rule->measured(ov, rule) >= rule->threshold)
		add_rec(ov, rule->name, ov->ops[0].pct, rule->threshold,
		    ov->ops[0].total_ps,
		    xasprintf("op " OUT_CODE "%s" OUT_END_CODE " takes %.1f%% "
		    "of device time%s%s%s%s", ov->ops[0].name,
		    ov->ops[0].pct, rule->advice, ov->ops[0].detail[0] ?
		    " (" : "", ov->ops[0].detail, ov->ops[0].detail[0] ?
		    ")" : ""));
	order_recs(ov);
}

/*
 * The hosts the others wait for (jaxprof-hosts(1)) come first in the
 * verdict, whatever bounds the step: the others' waits are their doing.
 */
static void
name_stragglers(struct overview *ov, struct report *r)
{
	const struct ov_rule *rule = rule_named("straggler");
	struct hosts h;
	size_t i;

	if (ov->nhosts < 2)
		return;	/* no one to wait for */
	hosts_load(&h, r);
	for (i = h.nrows; i > 0; i--) {
		const struct host_row *row = &h.rows[i - 1];
		char *v;

		if (!row->straggler)
			continue;
		v = xasprintf("%s %s: %s; %s", rule->verdict, row->host,
		    row->evidence, ov->verdict);
		free(ov->verdict);
		ov->verdict = v;
		ov->verdict_rule = rule->name;
		/* What the others wait for it is what it could save. */
		add_rec(ov, rule->name, (double)row->last_steps,
		    rule->threshold * (double)row->joined_steps,
		    ps_from_double(row->lateness_ps),
		    xasprintf("the other hosts wait for %s in their "
		    "collectives: make %s%s faster on it, or give it less "
		    "work (jaxprof hosts; jaxprof idle --host=%s)", row->host,
		    *row->idle_in != '\0' ? "its " : "what it runs",
		    row->idle_in, row->host));
		/* First among the recommendations, as in the verdict. */
		if (ov->nrecs > 1 && strcmp(ov->recs[ov->nrecs - 1].rule,
		    rule->name) == 0) {
			struct ov_rec first = ov->recs[ov->nrecs - 1];

			memmove(&ov->recs[1], &ov->recs[0], (ov->nrecs - 1) *
			    sizeof *ov->recs);
			ov->recs[0] = first;
		}
		say_save(ov, &ov->recs[0]);
	}
	hosts_release(&h);
}

void
overview_judge(struct overview *ov, struct report *r)
{
	apply_rules(ov);
	name_stragglers(ov, r);
}
