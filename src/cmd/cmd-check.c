/* Check a profile against a baseline with rules; exit 1 when one fails. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-diff.h"
#include "report/analyze-ops.h"
#include "report/op-what.h"
#include "cmd/cmd.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "output/output.h"
#include "report/report.h"
#include "report/summary.h"
#include "lib/xmalloc.h"

static int	check_run(int argc, char **argv);

const struct cmd cmd_check = {
	.name = "check",
	.usage = "jaxprof check --baseline=base [--rules=file] "
	    "[--max-step-regression=pct] [--max-step-time=time] "
	    "[--step-percentile=p] [--skip=n] [--max-op-regression=pct] "
	    "[--max-new-op-share=pct] [--min-op-share=pct] [--max-compiles=n] "
	    "[--max-memory-growth=pct] [--max-peak-memory=size] "
	    "[--include-compile-work] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--format=fmt] [--wide] "
	    "[--db=file] new",
	.summary = "check a profile against a baseline; exit 1 on regression",
	.options =
	    "  --baseline=BASE          a baseline file or profile path\n"
	    "  --rules=FILE             read 'key = value' settings (the long\n"
	    "                           option names) from FILE; options win\n"
	    "  --max-step-regression=PCT  step time may grow by PCT at most\n"
	    "                           (default 5%)\n"
	    "  --max-step-time=TIME     step time at most TIME (150ms, 2s;\n"
	    "                           default off)\n"
	    "  --step-percentile=P      step time is this percentile "
	    "(default 50)\n"
	    "  --skip=N                 leave each device's first N steps out\n"
	    "  --max-op-regression=PCT  an op's self time may grow by PCT\n"
	    "                           (default 10%), or by twice its noise\n"
	    "                           when that is more\n"
	    "  --max-new-op-share=PCT   ops only in the new run may take PCT\n"
	    "                           of the base's device time per step\n"
	    "                           (default 5%)\n"
	    "  --min-op-share=PCT       ops below PCT of the self time on "
	    "both\n"
	    "                           sides are not checked (default 1%)\n"
	    "  --max-compiles=N         no function compiled more than N "
	    "times\n"
	    "                           (default off)\n"
	    "  --max-memory-growth=PCT  an allocator's or a program's peak\n"
	    "                           memory may grow by PCT at most\n"
	    "                           (default off)\n"
	    "  --max-peak-memory=SIZE   no allocator's peak above SIZE (16G;\n"
	    "                           default off)\n"
	    "  --include-compile-work   also the ops of device work done while\n"
	    "                           compiling (autotuning)\n"
	    "  --device=GLOB, --host=GLOB, --run=GLOB, --latest\n"
	    "                           select what both sides hold\n"
	    "  --format=FMT             table (default), csv, json, markdown\n"
	    "  --wide                   tables at a terminal: every column, not cut\n"
	    "  --db=FILE                the index to use\n"
	    "Every rule has its default unless set; a rule's value 'off'\n"
	    "turns it off.  Numbers are plain decimals (no sign, exponent,\n"
	    "0x or leading 0); shares and the percentile are 0 to 100.\n"
	    "Ops pair by identity (jaxprof-diff(1), PAIRING).\n",
	.run = check_run,
};

enum setting_kind {
	SET_PATH,
	SET_PERCENT,	/* "5%" or "5": a number >= 0; a share: <= 100 */
	SET_TIME,	/* "150ms": a number and ns, us, ms or s; in ps */
	SET_COUNT,	/* a whole number >= 0 */
	SET_SIZE,	/* "16G", "512M": bytes */
};

/*
 * What check can be told, from the command line or a rules file; the
 * command line wins.  Sorted by name; also the rules file's keys.
 */
struct setting {
	const char	*name;
	enum setting_kind kind;
	int		 is_rule;	/* may be "off" */
	int		 set;		/* 1: from a file, 2: command line */
	int		 off;		/* a rule turned off */
	double		 num;
	char		*str;
	int		 share;		/* a percentage of a whole: <= 100 */
};

enum {
	S_BASELINE,
	S_MAX_COMPILES,
	S_MAX_MEMORY_GROWTH,
	S_MAX_NEW_OP_SHARE,
	S_MAX_OP_REGRESSION,
	S_MAX_PEAK_MEMORY,
	S_MAX_STEP_REGRESSION,
	S_MAX_STEP_TIME,
	S_MIN_OP_SHARE,
	S_SKIP,
	S_STEP_PERCENTILE,
	S_RULES,		/* command line only */
	NSETTINGS,
};

/* The defaults: rules without a sensible one are off. */
static const struct setting setting_defaults[NSETTINGS] = {
	[S_BASELINE] = { "baseline", SET_PATH, 0, 0, 0, 0, NULL },
	[S_MAX_COMPILES] = { "max-compiles", SET_COUNT, 1, 0, 1, 0, NULL },
	[S_MAX_MEMORY_GROWTH] = { "max-memory-growth", SET_PERCENT, 1, 0, 1,
	    0, NULL },
	[S_MAX_NEW_OP_SHARE] = { "max-new-op-share", SET_PERCENT, 1, 0, 0,
	    5, NULL, 1 },
	[S_MAX_PEAK_MEMORY] = { "max-peak-memory", SET_SIZE, 1, 0, 1, 0,
	    NULL },
	[S_MAX_OP_REGRESSION] = { "max-op-regression", SET_PERCENT, 1, 0, 0,
	    10, NULL },
	[S_MAX_STEP_REGRESSION] = { "max-step-regression", SET_PERCENT, 1, 0,
	    0, 5, NULL },
	[S_MAX_STEP_TIME] = { "max-step-time", SET_TIME, 1, 0, 1, 0, NULL },
	[S_MIN_OP_SHARE] = { "min-op-share", SET_PERCENT, 0, 0, 0, 1, NULL,
	    1 },
	[S_SKIP] = { "skip", SET_COUNT, 0, 0, 0, 0, NULL },
	[S_STEP_PERCENTILE] = { "step-percentile", SET_PERCENT, 0, 0, 0, 50,
	    NULL, 1 },
	[S_RULES] = { "rules", SET_PATH, 0, 0, 0, 0, NULL },
};

/*
 * The length of the plain decimal number v starts with ("12", "0.5"), or
 * 0: no sign, exponent, hex, inf or nan, and no leading zero ("010"
 * could be meant as octal), so a value reads as a person reads it.
 */
static size_t
decimal_len(const char *v)
{
	size_t n = strspn(v, "0123456789"), frac;

	if (n == 0 || (n > 1 && v[0] == '0'))
		return 0;
	if (v[n] == '.') {
		if ((frac = strspn(v + n + 1, "0123456789")) == 0)
			return 0;
		n += 1 + frac;
	}
	return n;
}

/* Parses v for setting s; -1 if it is not a valid value. */
static int
parse_value(struct setting *s, const char *v)
{
	char *end;
	double d;
	int64_t ps;
	size_t n;

	if (s->kind == SET_PATH) {
		if (*v == '\0')
			return -1;
		free(s->str);
		s->str = xstrdup(v);
		return 0;
	}
	s->off = s->is_rule && strcmp(v, "off") == 0;
	if (s->off)
		return 0;
	if ((n = decimal_len(v)) == 0)
		return -1;
	if (s->kind == SET_SIZE) {
		if ((ps = parse_size(v)) == -1)
			return -1;
		s->num = (double)ps;
		return 0;
	}
	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || end != v + n || !isfinite(d))
		return -1;
	switch (s->kind) {
	case SET_PERCENT:
		if (strcmp(end, "%") != 0 && *end != '\0')
			return -1;
		if (s->share && d > 100)
			return -1;
		break;
	case SET_TIME:
		/* A rule's time names its unit: no bare number. */
		if (*end == '\0' || (ps = parse_duration(v)) == -1)
			return -1;
		d = (double)ps;
		break;
	case SET_COUNT:
		if (*end != '\0' || d != floor(d) || d > 1e9)
			return -1;
		break;
	case SET_PATH:
	case SET_SIZE:
		break;
	}
	s->num = d;
	return 0;
}

static const char *
expected(const struct setting *s)
{
	switch (s->kind) {
	case SET_PATH:
		return "a path";
	case SET_PERCENT:
		if (s->share)
			return s->is_rule ? "a percentage from 0 to 100 such "
			    "as 5%, or off" : "a percentage from 0 to 100 such "
			    "as 5%";
		return s->is_rule ? "a percentage such as 5%, or off" :
		    "a percentage such as 5%";
	case SET_TIME:
		return "a time such as 150ms, with ns, us, ms or s, or off";
	case SET_COUNT:
		return s->is_rule ? "a whole number, or off" :
		    "a whole number";
	case SET_SIZE:
		return s->is_rule ? "a size such as 16G, 512M or 1000, or off" :
		    "a size such as 16G, 512M or 1000";
	}
	return "";
}

static void
strip(char **s)
{
	char *e;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	e = *s + strlen(*s);
	while (e > *s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
	    e[-1] == '\n'))
		*--e = '\0';
}

/*
 * Reads a rules file: "key = value" lines, '#' comments, blank lines.
 * Keys are the long option names without "--".  Returns 0, or -1 with
 * *cause a new message (caller frees) naming the file and the line.
 */
static int
read_rules(struct setting *set, const char *path, char **cause)
{
	FILE *fp = fopen(path, "r");
	char line[4096], *p, *key, *value, *eq;
	unsigned lineno = 0;
	size_t i;

	*cause = NULL;
	if (fp == NULL) {
		*cause = xasprintf("cannot read rules '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	while (*cause == NULL && fgets(line, sizeof line, fp) != NULL) {
		lineno++;
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		key = line;
		strip(&key);
		if (*key == '\0')
			continue;
		if ((eq = strchr(key, '=')) == NULL) {
			*cause = xasprintf("rules '%s' line %u: expected "
			    "'key = value'", path, lineno);
			break;
		}
		*eq = '\0';
		value = eq + 1;
		strip(&key);
		strip(&value);
		for (i = 0; i < NSETTINGS; i++)
			if (i != S_RULES && strcmp(set[i].name, key) == 0)
				break;
		if (i == NSETTINGS) {
			*cause = xasprintf("rules '%s' line %u: unknown key "
			    "'%s'", path, lineno, key);
			break;
		}
		if (set[i].set == 2)
			continue;
		if (parse_value(&set[i], value) == -1) {
			*cause = xasprintf("rules '%s' line %u: invalid %s "
			    "'%s' (expected %s)", path, lineno, key, value,
			    expected(&set[i]));
			break;
		}
		set[i].set = 1;
	}
	if (*cause == NULL && ferror(fp))
		*cause = xasprintf("cannot read rules '%s': %s", path,
		    strerror(errno));
	fclose(fp);
	return *cause == NULL ? 0 : -1;
}

int
check_rules_validate(const char *path, char **cause)
{
	struct setting set[NSETTINGS];
	size_t i;
	int rc;

	memcpy(set, setting_defaults, sizeof set);
	rc = read_rules(set, path, cause);
	for (i = 0; i < NSETTINGS; i++)
		free(set[i].str);
	return rc;
}

/* Where a setting's value came from, as the report says it. */
static const char *
setting_from(const struct setting *s)
{
	return s->set == 2 ? "option" : s->set == 1 ? "rules file" :
	    "default";
}

/* The rule rows being printed, and how many rules failed. */
struct verdict {
	struct output	*o;
	int		 machine;	/* csv or json: numbers, units apart */
	int		 nrules;
	int		 nfailed;	/* rules with a FAIL row */
	int		 nfail_rows;
	int		 rows_before;	/* nfail_rows when the rule began */
};

static void
rule_begin(struct verdict *v)
{
	v->nrules++;
	v->rows_before = v->nfail_rows;
}

/* Whether the rule begun last has failed so far. */
static int
rule_failed(const struct verdict *v)
{
	return v->nfail_rows > v->rows_before;
}

static void
rule_end(struct verdict *v)
{
	v->nfailed += rule_failed(v);
}

/* The units of a row's numbers. */
enum unit {
	U_PS,		/* a time; "us" in csv and json */
	U_PCT,		/* a share */
	U_CHANGE,	/* a change in percent: "+12.50%" in a table */
	U_BYTES,
	U_COUNT,
};

/* A figure of a row: a number in its unit, or words where there is none. */
struct fig {
	double		 v;
	enum unit	 unit;
	const char	*words;	/* non-NULL: no number ("absent") */
};

static struct fig
fig(double v, enum unit unit)
{
	struct fig f = { v, unit, NULL };

	return f;
}

static struct fig
fig_words(const char *words)
{
	struct fig f = { 0, U_COUNT, words };

	return f;
}

static const char *
unit_name(enum unit u)
{
	switch (u) {
	case U_PS:
		return "us";
	case U_PCT:
	case U_CHANGE:
		return "%";
	case U_BYTES:
		return "bytes";
	case U_COUNT:
		return "count";
	}
	return "";
}

static void
fmt_pct(char *buf, size_t size, double pct, int sign)
{
	char num[48];

	if (isinf(pct)) {
		snprintf(buf, size, "new");
		return;
	}
	fmt_fixed(num, sizeof num, pct, 2);
	snprintf(buf, size, "%s%s%%", sign && num[0] != '-' ? "+" : "", num);
}

static void
fmt_ps(char *buf, size_t size, double ps)
{
	fmt_duration(buf, size, ps_from_double(round(ps)));
}

/* A figure as a table shows it: "21.498 ms", "+19.69%", "16.00 GiB". */
static void
fmt_fig(char *buf, size_t size, struct fig f)
{
	if (f.words != NULL)
		snprintf(buf, size, "%s", f.words);
	else if (f.unit == U_PS)
		fmt_ps(buf, size, f.v);
	else if (f.unit == U_PCT || f.unit == U_CHANGE)
		fmt_pct(buf, size, f.v, f.unit == U_CHANGE);
	else if (f.unit == U_BYTES)
		fmt_bytes(buf, size, (int64_t)f.v);
	else
		snprintf(buf, size, "%.0f", f.v);
}

/* A figure as csv and json give it: a number in its unit, or null. */
static void
put_fig(struct output *o, struct fig f)
{
	if (f.words != NULL || isinf(f.v))
		output_null(o);
	else if (f.unit == U_PS)
		output_double(o, round(f.v / 1e3) / 1e3);
	else if (f.unit == U_PCT || f.unit == U_CHANGE)
		output_double(o, round(f.v * 100) / 100);
	else
		output_double(o, f.v);
}

/*
 * One row of rule.  Its result is its own measured figure against its own
 * limit; judged says how the limit was set where it is not the rule's
 * value as given.  op, when the row is about one, gives its columns.
 */
static void
put_verdict(struct verdict *v, const struct setting *rule,
    const char *subject, struct fig base, struct fig new, struct fig measured,
    struct fig limit, const char *judged, const struct op_row *op)
{
	int pass = measured.words == NULL && measured.v <= limit.v;
	char buf[64];

	output_str(v->o, rule->name);
	output_str(v->o, subject);
	if (v->machine) {
		put_fig(v->o, base);
		put_fig(v->o, new);
		output_str(v->o, base.words != NULL && new.words != NULL ? "" :
		    unit_name(base.words != NULL ? new.unit : base.unit));
		put_fig(v->o, measured);
		put_fig(v->o, limit);
		output_str(v->o, unit_name(limit.unit));
	} else {
		fmt_fig(buf, sizeof buf, base);
		output_str(v->o, buf);
		fmt_fig(buf, sizeof buf, new);
		output_str(v->o, buf);
		fmt_fig(buf, sizeof buf, measured);
		output_str(v->o, buf);
		fmt_fig(buf, sizeof buf, limit);
		output_str(v->o, buf);
	}
	output_str(v->o, pass ? "PASS" : "FAIL");
	output_str(v->o, setting_from(rule));
	if (op == NULL)
		output_str(v->o, "");
	else if (v->machine)
		output_str(v->o, op->framework_op);
	else {
		/* For a person, as top's what column says it. */
		char *what = op_what(op->framework_op, NULL);

		output_str(v->o, what);
		free(what);
	}
	output_str(v->o, op != NULL ? op->source : "");
	output_str(v->o, judged != NULL ? judged : "");
	output_end_row(v->o);
	v->nfail_rows += !pass;
}

/* A setting's value as a rules file would give it: "5%", "150 ms". */
static void
fmt_setting(char *buf, size_t size, const struct setting *s)
{
	char num[64];
	size_t len;

	if (s->off) {
		snprintf(buf, size, "off");
		return;
	}
	if (s->kind == SET_TIME) {
		fmt_ps(buf, size, s->num);
		return;
	}
	if (s->kind == SET_SIZE) {
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
	snprintf(buf, size, "%s%s", num, s->kind == SET_PERCENT &&
	    strcmp(s->name, "step-percentile") != 0 ? "%" : "");
}

/* "Rules: max-compiles = off (default), ..."; then the other settings. */
static void
add_rules_title(struct output *o, const struct setting *set)
{
	char *line = NULL, *next, value[64];
	size_t i;
	int rules;

	for (rules = 1; rules >= 0; rules--) {
		line = xstrdup(rules ? "Rules:" : "Settings:");
		for (i = 0; i < NSETTINGS; i++) {
			if (set[i].is_rule != rules || set[i].kind == SET_PATH)
				continue;
			fmt_setting(value, sizeof value, &set[i]);
			next = xasprintf("%s%s %s = %s (%s)", line,
			    line[strlen(line) - 1] == ':' ? "" : ",",
			    set[i].name, value, setting_from(&set[i]));
			free(line);
			line = next;
		}
		output_title(o, line);
		free(line);
	}
}

static void
check_steps(struct verdict *v, const struct setting *set,
    const struct summary *base, const struct summary *new)
{
	size_t skip = (size_t)set[S_SKIP].num, nb, nn;
	double p = set[S_STEP_PERCENTILE].num;
	double vb = summary_step_percentile(base, skip, p, &nb);
	double vn = summary_step_percentile(new, skip, p, &nn);
	char subject[128], pn[64];
	struct fig fb = nb == 0 ? fig_words("no steps") : fig(vb, U_PS);
	struct fig fn = nn == 0 ? fig_words("no steps") : fig(vn, U_PS);
	const struct setting *rule;

	fmt_fixed(pn, sizeof pn, p, 0);
	snprintf(subject, sizeof subject, "p%s of %zu step%s", pn, nn,
	    nn == 1 ? "" : "s");
	rule = &set[S_MAX_STEP_REGRESSION];
	if (!rule->off) {
		rule_begin(v);
		put_verdict(v, rule, subject, fb, fn, nb == 0 || nn == 0 ?
		    fig_words("") : fig((vn / vb - 1) * 100, U_CHANGE),
		    fig(rule->num, U_PCT), NULL, NULL);
		rule_end(v);
	}
	rule = &set[S_MAX_STEP_TIME];
	if (!rule->off) {
		rule_begin(v);
		put_verdict(v, rule, subject, fb, fn, nn == 0 ? fig_words("") :
		    fig(vn, U_PS), fig(rule->num, U_PS), NULL, NULL);
		rule_end(v);
	}
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

	fmt_pct(no, sizeof no, noise, 0);
	fmt_pct(sp, sizeof sp, s->pct, 0);
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
check_ops(struct verdict *v, const struct setting *set,
    const struct op_pairs *op)
{
	const struct setting *rule = &set[S_MAX_OP_REGRESSION];
	const struct diff_pair *most = NULL;
	size_t i, nchecked = 0;
	double most_change = 0, most_limit = 0, sb = 0, sn = 0, lim;
	char subject[1024], judged[320], most_judged[320], share[64];
	struct spread sp;

	rule_begin(v);
	for (i = 0; i < op->n; i++) {
		const struct diff_pair *p = &op->pairs[i];
		double change;

		if (p->new == NULL || p->base == NULL ||
		    diff_share_pct(p, op->tb, op->tn) <
		    set[S_MIN_OP_SHARE].num)
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
		put_verdict(v, rule, subject, fig(p->base_value, U_PS),
		    fig(p->new_value, U_PS), fig(change, U_CHANGE),
		    fig(lim, U_PCT), judged, p->new);
	}
	fmt_pct(share, sizeof share, set[S_MIN_OP_SHARE].num, 0);
	if (!rule_failed(v) && most != NULL) {
		char name[960];

		op_subject(name, sizeof name, most, op->per);
		snprintf(subject, sizeof subject, "grew most of %zu: %s",
		    nchecked, name);
		put_verdict(v, rule, subject, fig(most->base_value, U_PS),
		    fig(most->new_value, U_PS), fig(most_change, U_CHANGE),
		    fig(most_limit, U_PCT), most_judged, most->new);
	}
	snprintf(subject, sizeof subject, "%zu paired op%s with >= %s share, "
	    "summed (per %s)", nchecked, nchecked == 1 ? "" : "s", share,
	    op->per);
	lim = noise_limit(rule->num, &op->steps, judged, sizeof judged);
	put_verdict(v, rule, subject, fig(sb, U_PS), fig(sn, U_PS),
	    fig(sb > 0 ? (sn / sb - 1) * 100 : 0, U_CHANGE), fig(lim, U_PCT),
	    judged, NULL);
	rule_end(v);
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
check_new_ops(struct verdict *v, const struct setting *set,
    const struct op_pairs *op)
{
	const struct setting *rule = &set[S_MAX_NEW_OP_SHARE];
	struct new_work *w = xcalloc(op->n + 1, sizeof *w);
	size_t i, j, nw = 0, nnew = 0;
	double added = 0, share;
	char subject[1024], m[64];

	rule_begin(v);
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
	fmt_pct(m, sizeof m, share, 0);
	snprintf(subject, sizeof subject, "%zu new op%s, %s of the base's "
	    "device time (per %s)", nnew, nnew == 1 ? "" : "s", m, op->per);
	put_verdict(v, rule, subject, fig_words("absent"), fig(added, U_PS),
	    isinf(share) ? fig_words("new") : fig(share, U_PCT),
	    fig(rule->num, U_PCT), NULL, NULL);
	/* Failing, what it is made of: each part judged on its own share. */
	if (rule_failed(v)) {
		qsort(w, nw, sizeof *w, cmp_new_work);
		for (i = 0; i < nw && i < NEW_WORK_ROWS; i++) {
			const struct op_row *r = w[i].largest->new;

			snprintf(subject, sizeof subject, "new at %s: %s "
			    "(%zu op%s, largest %s; per %s)", *r->source !=
			    '\0' ? r->source : "(no source)",
			    *r->framework_op != '\0' ? r->framework_op :
			    r->name, w[i].nops, w[i].nops == 1 ? "" : "s",
			    r->name, op->per);
			put_verdict(v, rule, subject, fig_words("absent"),
			    fig(w[i].value, U_PS), op->tb > 0 ?
			    fig(100 * w[i].value / op->tb, U_PCT) :
			    fig_words("new"), fig(rule->num, U_PCT), NULL, r);
		}
	}
	rule_end(v);
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
check_compiles(struct verdict *v, const struct setting *set,
    const struct summary *base, const struct summary *new)
{
	const struct setting *rule = &set[S_MAX_COMPILES];
	const struct compile_fn *most = summary_most_compiled(new);
	size_t i;

	rule_begin(v);
	for (i = 0; i < new->ncompiles; i++) {
		const struct compile_fn *c = &new->compiles[i];

		if ((double)c->count <= rule->num)
			continue;
		put_verdict(v, rule, *c->function != '\0' ?
		    c->function : "(unknown function)",
		    fig((double)compiles_of(base, c->function), U_COUNT),
		    fig((double)c->count, U_COUNT),
		    fig((double)c->count, U_COUNT), fig(rule->num, U_COUNT),
		    NULL, NULL);
	}
	if (rule_failed(v)) {
		rule_end(v);
		return;
	}
	put_verdict(v, rule, most == NULL ? "no compilations" :
	    *most->function != '\0' ? most->function : "(unknown function)",
	    fig(most != NULL ? (double)compiles_of(base, most->function) : 0,
	    U_COUNT), fig(most != NULL ? (double)most->count : 0, U_COUNT),
	    fig(most != NULL ? (double)most->count : 0, U_COUNT),
	    fig(rule->num, U_COUNT), NULL, NULL);
	rule_end(v);
}

/*
 * --max-memory-growth: each allocator's and program's peak on both sides
 * may grow by the limit at most; --max-peak-memory: no allocator's peak
 * above the size.  A pass row names the largest peak.
 */
static void
check_memory(struct verdict *v, const struct setting *set,
    const struct summary *base, const struct summary *new)
{
	const struct memory_peak *largest;
	char subject[256];
	size_t i;
	int growth;

	for (growth = 1; growth >= 0; growth--) {
		const struct setting *rule =
		    &set[growth ? S_MAX_MEMORY_GROWTH : S_MAX_PEAK_MEMORY];
		struct fig lim = fig(rule->num, growth ? U_PCT : U_BYTES);

		if (rule->off)
			continue;
		rule_begin(v);
		largest = NULL;
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
			put_verdict(v, rule, subject, pb != NULL ?
			    fig((double)pb->bytes, U_BYTES) : fig_words(""),
			    fig((double)pn->bytes, U_BYTES), m, lim, NULL,
			    NULL);
		}
		if (!rule_failed(v)) {
			const struct memory_peak *pb = largest == NULL ? NULL :
			    summary_memory(base, largest->kind,
			    largest->name);

			if (largest != NULL)
				snprintf(subject, sizeof subject, "peak of %s "
				    "%s", largest->kind, largest->name);
			put_verdict(v, rule, largest == NULL ?
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
		rule_end(v);
	}
}

/*
 * Table and markdown: each figure with its unit, as a person reads it.
 * A narrow terminal leaves out the largest drop first (output.h): a row's
 * rule, measured value, limit and result stay.
 */
static const struct out_col columns[] = {
	{ "rule", COL_STR, NULL, 0, UNIT_NONE },
	{ "subject", COL_STR, NULL, 0, UNIT_NONE },
	{ "base", COL_STR, NULL, 6, UNIT_NONE },
	{ "new", COL_STR, NULL, 5, UNIT_NONE },
	{ "measured", COL_STR, NULL, 0, UNIT_NONE },
	{ "limit", COL_STR, NULL, 0, UNIT_NONE },
	{ "result", COL_STR, NULL, 0, UNIT_NONE },
	{ "limit_from", COL_STR, "from", 9, UNIT_NONE },
	{ "framework_op", COL_STR, "framework op", 7, UNIT_NONE },
	{ "source", COL_STR, NULL, 8, UNIT_NONE },
	{ "judged", COL_STR, NULL, 10, UNIT_NONE },
};

/* Csv and json: numbers, each unit in a field of its own. */
static const struct out_col machine_columns[] = {
	{ "rule", COL_STR, NULL, 0, UNIT_NONE },
	{ "subject", COL_STR, NULL, 0, UNIT_NONE },
	{ "base", COL_REAL, NULL, 0, UNIT_NONE },
	{ "new", COL_REAL, NULL, 0, UNIT_NONE },
	{ "value_unit", COL_STR, NULL, 0, UNIT_NONE },
	{ "measured", COL_REAL, NULL, 0, UNIT_NONE },
	{ "limit", COL_REAL, NULL, 0, UNIT_NONE },
	{ "unit", COL_STR, NULL, 0, UNIT_NONE },
	{ "result", COL_STR, NULL, 0, UNIT_NONE },
	{ "limit_from", COL_STR, NULL, 0, UNIT_NONE },
	{ "framework_op", COL_STR, NULL, 0, UNIT_NONE },
	{ "source", COL_STR, NULL, 0, UNIT_NONE },
	{ "judged", COL_STR, NULL, 0, UNIT_NONE },
};

static int
check_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 0x200 + S_BASELINE },
		{ "help", no_argument, NULL, 'h' },
		{ "include-compile-work", no_argument, NULL, 0x300 },
		{ "max-compiles", required_argument, NULL,
		    0x200 + S_MAX_COMPILES },
		{ "max-memory-growth", required_argument, NULL,
		    0x200 + S_MAX_MEMORY_GROWTH },
		{ "max-new-op-share", required_argument, NULL,
		    0x200 + S_MAX_NEW_OP_SHARE },
		{ "max-op-regression", required_argument, NULL,
		    0x200 + S_MAX_OP_REGRESSION },
		{ "max-peak-memory", required_argument, NULL,
		    0x200 + S_MAX_PEAK_MEMORY },
		{ "max-step-regression", required_argument, NULL,
		    0x200 + S_MAX_STEP_REGRESSION },
		{ "max-step-time", required_argument, NULL,
		    0x200 + S_MAX_STEP_TIME },
		{ "min-op-share", required_argument, NULL,
		    0x200 + S_MIN_OP_SHARE },
		{ "rules", required_argument, NULL, 0x200 + S_RULES },
		{ "skip", required_argument, NULL, 0x200 + S_SKIP },
		{ "step-percentile", required_argument, NULL,
		    0x200 + S_STEP_PERCENTILE },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct setting set[NSETTINGS];
	struct report r;
	struct summary base, new;
	struct op_pairs op;
	struct verdict v;
	char *line;
	int ch, i, status;

	memcpy(set, setting_defaults, sizeof set);
	report_init(&r, "check");
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		if (ch == 'h') {
			cmd_print_help(&cmd_check, stdout);
			return EXIT_OK;
		}
		if (ch == 0x300) {
			r.include_compile_work = 1;
			continue;
		}
		if (ch < 0x200 || ch >= 0x200 + NSETTINGS)
			cmd_usage_error(&cmd_check);
		if (parse_value(&set[ch - 0x200], optarg) == -1)
			jp_errx(EXIT_TROUBLE, "invalid --%s '%s' (expected %s)",
			    set[ch - 0x200].name, optarg,
			    expected(&set[ch - 0x200]));
		set[ch - 0x200].set = 2;
	}
	if (argc - optind != 1)
		cmd_usage_error(&cmd_check);
	if (set[S_RULES].set && read_rules(set, set[S_RULES].str, &line) ==
	    -1)
		jp_errx(EXIT_TROUBLE, "%s", line);
	if (!set[S_BASELINE].set) {
		jp_warnx("no --baseline given");
		cmd_usage_error(&cmd_check);
	}

	summary_init(&base);
	summary_init(&new);
	status = summary_load(&base, &r, set[S_BASELINE].str, 1);
	if (summary_load(&new, &r, argv[optind], 0) != EXIT_OK)
		status = EXIT_TROUBLE;

	memset(&v, 0, sizeof v);
	v.machine = r.format == FMT_CSV || r.format == FMT_JSON;
	v.o = v.machine ? output_new(r.format, stdout, machine_columns,
	    sizeof machine_columns / sizeof machine_columns[0]) :
	    output_new(r.format, stdout, columns,
	    sizeof columns / sizeof columns[0]);
	summary_note_runs(&base, v.o, "baseline");
	summary_note_runs(&new, v.o, "new");
	line = xasprintf("Check of %s against %s", new.label, base.label);
	output_title(v.o, line);
	free(line);
	add_rules_title(v.o, set);
	if (base.pairs_by_name || new.pairs_by_name) {
		line = xasprintf("Ops paired by name: %s is a version 1 "
		    "baseline (no op identities); save it again to pair ops "
		    "by what they are.", base.pairs_by_name ? base.label :
		    new.label);
		output_title(v.o, line);
		free(line);
	}
	check_steps(&v, set, &base, &new);
	op_pairs_make(&op, &base, &new, (size_t)set[S_SKIP].num);
	if (!set[S_MAX_OP_REGRESSION].off)
		check_ops(&v, set, &op);
	if (!set[S_MAX_NEW_OP_SHARE].off)
		check_new_ops(&v, set, &op);
	op_pairs_release(&op);
	if (!set[S_MAX_COMPILES].off)
		check_compiles(&v, set, &base, &new);
	check_memory(&v, set, &base, &new);
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
	for (i = 0; i < NSETTINGS; i++)
		free(set[i].str);
	return status;
}
