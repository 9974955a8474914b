/* check's rules judged, one row of check_rules each (check-rules.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-diff.h"
#include "report/analyze-ops.h"
#include "report/check-int.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "output/output.h"
#include "report/report.h"
#include "report/summary.h"
#include "lib/xmalloc.h"

static const struct {
	const char	*name;
	struct check_threshold value;
} check_options[NOPTIONS] = {
	[O_BASELINE] = { "baseline", { CHECK_PATH, 0, 0, 0 } },
	[O_MIN_OP_SHARE] = { "min-op-share", { CHECK_PERCENT, 1, 0, 1 } },
	[O_SKIP] = { "skip", { CHECK_COUNT, 0, 0, 0 } },
	[O_STEP_PERCENTILE] = { "step-percentile",
	    { CHECK_PERCENT, 50, 0, 1 } },
	[O_RULES] = { "rules", { CHECK_PATH, 0, 0, 0 } },
};

/* A setting's value as a rules file would give it: "5%", "150 ms". */
static void
fmt_setting(char *buf, size_t size, const struct check_setting *s)
{
	char num[64];
	size_t len;

	if (s->off) {
		snprintf(buf, size, "off");
		return;
	}
	if (s->kind == CHECK_TIME) {
		check_fmt_ps(buf, size, s->num);
		return;
	}
	if (s->kind == CHECK_SIZE) {
		fmt_bytes(buf, size, (int64_t)s->num);
		return;
	}
	fmt_fixed(num, sizeof num, s->num, 6);
	len = strlen(num);
	while (len > 0 && num[len - 1] == '0')
		len--;
	if (len > 0 && num[len - 1] == '.')
		len--;
	num[len] = '\0';
	snprintf(buf, size, "%s%s", num, s->kind == CHECK_PERCENT &&
	    strcmp(s->name, "step-percentile") != 0 ? "%" : "");
}

/* "Rules: max-compiles = off (default), ..."; then the other settings. */
static void
add_rules_title(struct output *o, const struct check_settings *cs)
{
	char *line = NULL, *next, value[64];
	size_t i;
	int rules;

	for (rules = 1; rules >= 0; rules--) {
		line = xstrdup(rules ? "Rules:" : "Settings:");
		for (i = 0; i < cs->n; i++) {
			const struct check_setting *s = &cs->v[cs->by_name[i]];

			if (s->is_rule != rules || s->kind == CHECK_PATH)
				continue;
			fmt_setting(value, sizeof value, s);
			next = xasprintf("%s%s %s = %s (%s)", line,
			    line[strlen(line) - 1] == ':' ? "" : ",",
			    s->name, value, check_setting_from(s));
			free(line);
			line = next;
		}
		output_title(o, line);
		free(line);
	}
}

/* The steps' percentile on both sides, after each device's first skip. */
struct step_figs {
	double		 vb, vn;
	size_t		 nb, nn;
	struct fig	 fb, fn;
	char		 subject[128];
};

static void
step_figs(const struct check_judge *v, struct step_figs *f)
{
	size_t skip = (size_t)check_option(v->cs, O_SKIP)->num;
	double p = check_option(v->cs, O_STEP_PERCENTILE)->num;
	char pn[64];

	f->vb = summary_step_percentile(v->base, skip, p, &f->nb);
	f->vn = summary_step_percentile(v->new, skip, p, &f->nn);
	f->fb = f->nb == 0 ? fig_words("no steps") : fig(f->vb, U_PS);
	f->fn = f->nn == 0 ? fig_words("no steps") : fig(f->vn, U_PS);
	fmt_fixed(pn, sizeof pn, p, 0);
	snprintf(f->subject, sizeof f->subject, "p%s of %zu step%s", pn,
	    f->nn, f->nn == 1 ? "" : "s");
}

static void
check_step_regression(struct check_judge *v,
    const struct check_setting *rule)
{
	struct step_figs f;

	step_figs(v, &f);
	check_put_row(v, rule, f.subject, f.fb, f.fn, f.nb == 0 || f.nn == 0 ?
	    fig_words("") : fig((f.vn / f.vb - 1) * 100, U_CHANGE),
	    fig(rule->num, U_PCT), NULL, NULL);
}

static void
check_step_time(struct check_judge *v, const struct check_setting *rule)
{
	struct step_figs f;

	step_figs(v, &f);
	check_put_row(v, rule, f.subject, f.fb, f.fn, f.nn == 0 ?
	    fig_words("") : fig(f.vn, U_PS), fig(rule->num, U_PS), NULL,
	    NULL);
}

/*
 * How many standard errors a change must exceed to count: the noise of a
 * mean of n runs of something that spreads by x is x / sqrt(n).
 */
#define NOISE_TIMES	2

/* A spread and how many runs its mean is over; the noise of that mean. */
struct spread {
	double		 pct;	/* in percent of the mean */
	double		 n;
	const char	*what;	/* "op's", "steps'" */
};

static double
spread_noise(const struct spread *s)
{
	return s->n >= 1 ? NOISE_TIMES * s->pct / sqrt(s->n) : 0;
}

/*
 * An op's spread over its executions: half its range, in percent of its
 * mean (0 when unknown).
 */
static struct spread
op_spread(const struct op_row *r)
{
	struct spread s = { 0, 0, "op's" };

	if (r->has_min && r->has_max && r->count >= 2 && r->total_ps > 0) {
		s.pct = 100.0 * ((double)r->max_ps - (double)r->min_ps) / 2 /
		    ((double)r->total_ps / (double)r->count);
		s.n = (double)r->count;
	}
	return s;
}

/* The noisier of two spreads. */
static struct spread
noisier(struct spread a, struct spread b)
{
	return spread_noise(&b) > spread_noise(&a) ? b : a;
}

/*
 * The limit a change is judged against: the rule's, or the noise of the
 * spread when that is larger, so a move within the run's own noise
 * passes; *judged says which (a row's last column).
 */
static double
noise_limit(double rule, const struct spread *s, char *judged, size_t size)
{
	double noise = spread_noise(s);
	char no[64], sp[64];

	check_fmt_pct(no, sizeof no, noise, 0);
	check_fmt_pct(sp, sizeof sp, s->pct, 0);
	snprintf(judged, size, "%s%s = %dx the %s spread %s / sqrt(%.0f)%s",
	    noise > rule ? "noise " : "the rule; noise ", no, NOISE_TIMES,
	    s->what, sp, s->n, noise > rule ? ", over the rule" : "");
	return noise > rule ? noise : rule;
}

/*
 * Both sides' ops paired once (by self time, per step or execution), for
 * every rule about ops: the pairing diff shows.
 */
struct op_pairs {
	struct op_row	*rb, *rn;
	size_t		 nb, nn;
	struct diff_pair *pairs;
	size_t		 n;
	double		 tb, tn;	/* each side's sum */
	const char	*per;
	struct spread	 steps;		/* the noisier side's */
};

/* The steps' spread after each device's first skip. */
static struct spread
steps_spread(const struct summary *s, size_t skip)
{
	struct spread sp = { 0, 0, "steps'" };
	size_t n;

	summary_step_percentile(s, skip, 50, &n);
	sp.pct = summary_step_spread_pct(s, skip);
	sp.n = (double)n;
	return sp;
}

static void
op_pairs_make(struct op_pairs *op, const struct summary *base,
    const struct summary *new, size_t skip)
{
	double db, dn;
	size_t i;

	memset(op, 0, sizeof *op);
	summary_op_rows(base, GROUP_OP, &op->rb, &op->nb);
	summary_op_rows(new, GROUP_OP, &op->rn, &op->nn);
	diff_ops(op->rb, op->nb, op->rn, op->nn, BY_SELF_TIME,
	    !base->pairs_by_name && !new->pairs_by_name, &op->pairs, &op->n);
	/* Per step (or execution): a longer run is not a slower one. */
	op->per = summary_op_norm(base, new, &db, &dn);
	diff_normalize(op->pairs, op->n, db, dn);
	for (i = 0; i < op->n; i++) {
		op->tb += op->pairs[i].base_value;
		op->tn += op->pairs[i].new_value;
	}
	op->steps = noisier(steps_spread(base, skip), steps_spread(new, skip));
}

static void
op_pairs_release(struct op_pairs *op)
{
	diff_pairs_free(op->pairs, op->n);
	op_rows_free(op->rb, op->nb);
	op_rows_free(op->rn, op->nn);
}

/*
 * An op as the person who changed the Python knows it: framework op and
 * source line first, then the HLO name(s) and the figure's unit.
 */
static void
op_subject(char *buf, size_t size, const struct diff_pair *p,
    const char *per)
{
	const struct op_row *r = p->new != NULL ? p->new : p->base;
	const char *fop = strcmp(r->framework_op, r->name) != 0 ?
	    r->framework_op : "";
	char names[256];

	if (p->base != NULL && p->new != NULL &&
	    strcmp(p->base->name, p->new->name) != 0)
		snprintf(names, sizeof names, "%s, was %s", p->new->name,
		    p->base->name);
	else
		snprintf(names, sizeof names, "%s", r->name);
	if (*fop != '\0' && *r->source != '\0')
		snprintf(buf, size, "%s at %s (%s; per %s)", fop, r->source,
		    names, per);
	else if (*fop != '\0' || *r->source != '\0')
		snprintf(buf, size, "%s (%s; per %s)", *fop != '\0' ? fop :
		    r->source, names, per);
	else
		snprintf(buf, size, "%s (per %s)", names, per);
}

/*
 * Each paired op with enough share fails when its self time grew past
 * the rule and past its noise: self time, so a slower op inside a loop
 * names that op, not the loop too.  Passing, the op that grew most is
 * one row; the checked ops' sums are another, judged against the steps'
 * noise.  Ops only in the new run are max-new-op-share's.
 */
static void
check_ops(struct check_judge *v, const struct check_setting *rule)
{
	const struct op_pairs *op = v->op;
	double min_share = check_option(v->cs, O_MIN_OP_SHARE)->num;
	const struct diff_pair *most = NULL;
	size_t i, nchecked = 0;
	double most_change = 0, most_limit = 0, sb = 0, sn = 0, lim;
	char subject[1024], judged[320], most_judged[320], share[64];
	struct spread sp;

	for (i = 0; i < op->n; i++) {
		const struct diff_pair *p = &op->pairs[i];
		double change;

		if (p->new == NULL || p->base == NULL ||
		    diff_share_pct(p, op->tb, op->tn) < min_share)
			continue;
		nchecked++;
		sb += p->base_value;
		sn += p->new_value;
		change = diff_change_pct(p);
		sp = noisier(noisier(op_spread(p->base), op_spread(p->new)),
		    op->steps);
		lim = noise_limit(rule->num, &sp, judged, sizeof judged);
		if (most == NULL || change > most_change) {
			most = p;
			most_change = change;
			most_limit = lim;
			memcpy(most_judged, judged, sizeof judged);
		}
		if (change <= lim)
			continue;
		op_subject(subject, sizeof subject, p, op->per);
		check_put_row(v, rule, subject, fig(p->base_value, U_PS),
		    fig(p->new_value, U_PS), fig(change, U_CHANGE),
		    fig(lim, U_PCT), judged, p->new);
	}
	check_fmt_pct(share, sizeof share, min_share, 0);
	if (!check_rule_failed(v) && most != NULL) {
		char name[960];

		op_subject(name, sizeof name, most, op->per);
		snprintf(subject, sizeof subject, "grew most of %zu: %s",
		    nchecked, name);
		check_put_row(v, rule, subject, fig(most->base_value, U_PS),
		    fig(most->new_value, U_PS), fig(most_change, U_CHANGE),
		    fig(most_limit, U_PCT), most_judged, most->new);
	}
	snprintf(subject, sizeof subject, "%zu paired op%s with >= %s share, "
	    "summed (per %s)", nchecked, nchecked == 1 ? "" : "s", share,
	    op->per);
	lim = noise_limit(rule->num, &op->steps, judged, sizeof judged);
	check_put_row(v, rule, subject, fig(sb, U_PS), fig(sn, U_PS),
	    fig(sb > 0 ? (sn / sb - 1) * 100 : 0, U_CHANGE), fig(lim, U_PCT),
	    judged, NULL);
}

/* The added ops of one source line (or of one name, without a line). */
struct new_work {
	const struct diff_pair *largest;
	size_t		 nops;
	double		 value;
};

static int
cmp_new_work(const void *a, const void *b)
{
	const struct new_work *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return strcmp(x->largest->new->name, y->largest->new->name);
}

/* Rows of the largest new work named: this many source lines at most. */
#define NEW_WORK_ROWS	5

/*
 * The ops only in the new run together may take so much of the base's
 * device time per step; failing, the largest of them by source line are
 * named, their framework op and line, so the change that added them
 * shows.
 */
static void
check_new_ops(struct check_judge *v, const struct check_setting *rule)
{
	const struct op_pairs *op = v->op;
	struct new_work *w = xcalloc(op->n + 1, sizeof *w);
	size_t i, j, nw = 0, nnew = 0;
	double added = 0, share;
	char subject[1024], m[64];

	/* The pairs are sorted largest change first: w[j].largest is. */
	for (i = 0; i < op->n; i++) {
		const struct diff_pair *p = &op->pairs[i];
		const char *src;

		if (p->base != NULL)
			continue;
		nnew++;
		added += p->new_value;
		src = *p->new->source != '\0' ? p->new->source : p->new->name;
		for (j = 0; j < nw; j++)
			if (strcmp(*w[j].largest->new->source != '\0' ?
			    w[j].largest->new->source :
			    w[j].largest->new->name, src) == 0)
				break;
		if (j == nw)
			w[nw++].largest = p;
		w[j].nops++;
		w[j].value += p->new_value;
	}
	share = op->tb > 0 ? 100 * added / op->tb : added > 0 ? HUGE_VAL : 0;
	check_fmt_pct(m, sizeof m, share, 0);
	snprintf(subject, sizeof subject, "%zu new op%s, %s of the base's "
	    "device time (per %s)", nnew, nnew == 1 ? "" : "s", m, op->per);
	check_put_row(v, rule, subject, fig_words("absent"), fig(added, U_PS),
	    isinf(share) ? fig_words("new") : fig(share, U_PCT),
	    fig(rule->num, U_PCT), NULL, NULL);
	/* Failing, what it is made of: each part judged on its own share. */
	if (check_rule_failed(v)) {
		qsort(w, nw, sizeof *w, cmp_new_work);
		for (i = 0; i < nw && i < NEW_WORK_ROWS; i++) {
			const struct op_row *r = w[i].largest->new;

			snprintf(subject, sizeof subject, "new at %s: %s "
			    "(%zu op%s, largest %s; per %s)", *r->source !=
			    '\0' ? r->source : "(no source)",
			    *r->framework_op != '\0' ? r->framework_op :
			    r->name, w[i].nops, w[i].nops == 1 ? "" : "s",
			    r->name, op->per);
			check_put_row(v, rule, subject, fig_words("absent"),
			    fig(w[i].value, U_PS), op->tb > 0 ?
			    fig(100 * w[i].value / op->tb, U_PCT) :
			    fig_words("new"), fig(rule->num, U_PCT), NULL, r);
		}
	}
	free(w);
}

/* The compilations of function in s; 0 when none. */
static int64_t
compiles_of(const struct summary *s, const char *function)
{
	size_t i;

	for (i = 0; i < s->ncompiles; i++)
		if (strcmp(s->compiles[i].function, function) == 0)
			return s->compiles[i].count;
	return 0;
}

/* Each function compiled more often than allowed fails. */
static void
check_compiles(struct check_judge *v, const struct check_setting *rule)
{
	const struct summary *base = v->base, *new = v->new;
	const struct compile_fn *most = summary_most_compiled(new);
	size_t i;

	for (i = 0; i < new->ncompiles; i++) {
		const struct compile_fn *c = &new->compiles[i];

		if ((double)c->count <= rule->num)
			continue;
		check_put_row(v, rule, *c->function != '\0' ?
		    c->function : "(unknown function)",
		    fig((double)compiles_of(base, c->function), U_COUNT),
		    fig((double)c->count, U_COUNT),
		    fig((double)c->count, U_COUNT), fig(rule->num, U_COUNT),
		    NULL, NULL);
	}
	if (check_rule_failed(v))
		return;
	check_put_row(v, rule, most == NULL ? "no compilations" :
	    *most->function != '\0' ? most->function : "(unknown function)",
	    fig(most != NULL ? (double)compiles_of(base, most->function) : 0,
	    U_COUNT), fig(most != NULL ? (double)most->count : 0, U_COUNT),
	    fig(most != NULL ? (double)most->count : 0, U_COUNT),
	    fig(rule->num, U_COUNT), NULL, NULL);
}

/*
 * --max-memory-growth (growth): each allocator's and program's peak on
 * both sides may grow by the limit at most; --max-peak-memory: no
 * allocator's peak above the size.  A pass row names the largest peak.
 */
static void
check_memory(struct check_judge *v, const struct check_setting *rule,
    int growth)
{
	const struct summary *base = v->base, *new = v->new;
	const struct memory_peak *largest = NULL;
	struct fig lim = fig(rule->num, growth ? U_PCT : U_BYTES);
	char subject[256];
	size_t i;

	for (i = 0; i < new->nmemory; i++) {
		const struct memory_peak *pn = &new->memory[i];
		const struct memory_peak *pb = summary_memory(base,
		    pn->kind, pn->name);
		struct fig m;

		if (growth && pb == NULL)
			continue;
		if (!growth && strcmp(pn->kind, "allocator") != 0)
			continue;
		if (largest == NULL || pn->bytes > largest->bytes)
			largest = pn;
		m = growth ? fig(pb->bytes > 0 ? ((double)pn->bytes /
		    (double)pb->bytes - 1) * 100 : 0, U_CHANGE) :
		    fig((double)pn->bytes, U_BYTES);
		if (m.v <= lim.v)
			continue;
		snprintf(subject, sizeof subject, "peak of %s %s",
		    pn->kind, pn->name);
		check_put_row(v, rule, subject, pb != NULL ?
		    fig((double)pb->bytes, U_BYTES) : fig_words(""),
		    fig((double)pn->bytes, U_BYTES), m, lim, NULL,
		    NULL);
	}
	if (!check_rule_failed(v)) {
		const struct memory_peak *pb = largest == NULL ? NULL :
		    summary_memory(base, largest->kind,
		    largest->name);

		if (largest != NULL)
			snprintf(subject, sizeof subject, "peak of %s "
			    "%s", largest->kind, largest->name);
		check_put_row(v, rule, largest == NULL ?
		    "no memory peaks" : subject, pb != NULL ?
		    fig((double)pb->bytes, U_BYTES) : fig_words(""),
		    largest != NULL ? fig((double)largest->bytes,
		    U_BYTES) : fig_words(""), largest == NULL ?
		    fig(0, growth ? U_CHANGE : U_BYTES) : growth ?
		    fig(pb != NULL && pb->bytes > 0 ?
		    ((double)largest->bytes / (double)pb->bytes - 1) *
		    100 : 0, U_CHANGE) : fig((double)largest->bytes,
		    U_BYTES), lim, NULL, NULL);
	}
}

static void
check_memory_growth(struct check_judge *v, const struct check_setting *rule)
{
	check_memory(v, rule, 1);
}

static void
check_peak_memory(struct check_judge *v, const struct check_setting *rule)
{
	check_memory(v, rule, 0);
}

/*
 * The rules, in the order their rows come.  A rule's default limit is
 * its threshold; rules without a sensible one are off.
 */
const struct check_rule check_rules[] = {
	{ "max-step-regression", "steps", check_step_regression,
	    { CHECK_PERCENT, 5, 0, 0 }, "step time may grow by PCT at most" },
	{ "max-step-time", "steps", check_step_time,
	    { CHECK_TIME, 0, 1, 0 }, "step time at most TIME" },
	{ "max-op-regression", "ops", check_ops,
	    { CHECK_PERCENT, 10, 0, 0 }, "an op's self time may grow by PCT" },
	{ "max-new-op-share", "ops", check_new_ops,
	    { CHECK_PERCENT, 5, 0, 1 }, "ops only in the new run may take PCT" },
	{ "max-compiles", "compiles", check_compiles,
	    { CHECK_COUNT, 0, 1, 0 }, "no function compiled more than N" },
	{ "max-memory-growth", "memory", check_memory_growth,
	    { CHECK_PERCENT, 0, 1, 0 },
	    "an allocator's or a program's peak" },
	{ "max-peak-memory", "memory", check_peak_memory,
	    { CHECK_SIZE, 0, 1, 0 }, "no allocator's peak above SIZE" },
};
const size_t check_nrules = sizeof check_rules / sizeof check_rules[0];

static struct check_setting
setting_of(const char *name, const struct check_threshold *t, int is_rule)
{
	struct check_setting s = { name, t->kind, is_rule, 0, t->off,
	    t->value, NULL, t->share };

	return s;
}

struct check_settings *
check_settings_new(void)
{
	struct check_settings *cs = xcalloc(1, sizeof *cs);
	size_t i, j;

	cs->n = check_nrules + NOPTIONS;
	cs->v = xcalloc(cs->n, sizeof *cs->v);
	cs->by_name = xcalloc(cs->n, sizeof *cs->by_name);
	for (i = 0; i < check_nrules; i++)
		cs->v[i] = setting_of(check_rules[i].name,
		    &check_rules[i].threshold, 1);
	for (i = 0; i < NOPTIONS; i++)
		*check_option(cs, (int)i) = setting_of(check_options[i].name,
		    &check_options[i].value, 0);
	/* The report's "Rules:" and "Settings:" lines go by name. */
	for (i = 0; i < cs->n; i++) {
		for (j = i; j > 0 && strcmp(cs->v[cs->by_name[j - 1]].name,
		    cs->v[i].name) > 0; j--)
			cs->by_name[j] = cs->by_name[j - 1];
		cs->by_name[j] = i;
	}
	return cs;
}

void
check_settings_free(struct check_settings *cs)
{
	size_t i;

	if (cs == NULL)
		return;
	for (i = 0; i < cs->n; i++)
		free(cs->v[i].str);
	free(cs->v);
	free(cs->by_name);
	free(cs);
}

int
check_report(struct report *r, const struct check_settings *cs,
    const char *new_path)
{
	struct summary base, new;
	struct op_pairs op;
	struct check_judge v;
	char *line;
	size_t i;
	int status;

	summary_init(&base);
	summary_init(&new);
	status = summary_load(&base, r, check_option(cs, O_BASELINE)->str, 1);
	if (summary_load(&new, r, new_path, 0) != EXIT_OK)
		status = EXIT_TROUBLE;

	memset(&v, 0, sizeof v);
	v.cs = cs;
	v.base = &base;
	v.new = &new;
	v.op = &op;
	v.machine = r->format == FMT_CSV || r->format == FMT_JSON;
	v.o = check_output_new(r->format, stdout);
	summary_note_runs(&base, v.o, "baseline");
	summary_note_runs(&new, v.o, "new");
	line = xasprintf("Check of %s against %s", new.label, base.label);
	output_title(v.o, line);
	free(line);
	add_rules_title(v.o, cs);
	if (base.pairs_by_name || new.pairs_by_name) {
		line = xasprintf("Ops paired by name: %s is a version 1 "
		    "baseline (no op identities); save it again to pair ops "
		    "by what they are.", base.pairs_by_name ? base.label :
		    new.label);
		output_title(v.o, line);
		free(line);
	}
	op_pairs_make(&op, &base, &new,
	    (size_t)check_option(cs, O_SKIP)->num);
	for (i = 0; i < check_nrules; i++) {
		if (cs->v[i].off)
			continue;
		check_rule_begin(&v);
		check_rules[i].measured(&v, &cs->v[i]);
		check_rule_end(&v);
	}
	op_pairs_release(&op);
	if (v.nfailed > 0)
		line = xasprintf("FAIL: %d of %d rule%s failed.",
		    v.nfailed, v.nrules, v.nrules == 1 ? "" : "s");
	else
		line = xasprintf("PASS: all %d rule%s passed.", v.nrules,
		    v.nrules == 1 ? "" : "s");
	output_note(v.o, line);
	free(line);
	if (output_finish(v.o) == -1)
		status = EXIT_TROUBLE;
	if (status == EXIT_OK && v.nfailed > 0)
		status = EXIT_CHECK_FAILED;
	summary_release(&base);
	summary_release(&new);
	return status;
}
