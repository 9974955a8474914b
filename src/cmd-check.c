/* Check a profile against a baseline with rules; exit 1 when one fails. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze-diff.h"
#include "analyze-ops.h"
#include "cmd.h"
#include "err.h"
#include "output.h"
#include "report.h"
#include "summary.h"
#include "xmalloc.h"

static int	check_run(int argc, char **argv);

const struct cmd cmd_check = {
	.name = "check",
	.usage = "jaxprof check --baseline=base [--rules=file] "
	    "[--max-step-regression=pct] [--max-step-time=time] "
	    "[--step-percentile=p] [--skip=n] [--max-op-regression=pct] "
	    "[--min-op-share=pct] [--max-compiles=n] "
	    "[--include-compile-work] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--format=fmt] "
	    "[--db=file] new",
	.summary = "check a profile against a baseline; exit 1 on regression",
	.options =
	    "  --baseline=BASE          a baseline file or profile path\n"
	    "  --rules=FILE             read 'key = value' settings (the long\n"
	    "                           option names) from FILE; options win\n"
	    "  --max-step-regression=PCT  step time may grow by PCT at most\n"
	    "  --max-step-time=TIME     step time at most TIME (150ms, 2s)\n"
	    "  --step-percentile=P      step time is this percentile "
	    "(default 50)\n"
	    "  --skip=N                 leave each device's first N steps out\n"
	    "  --max-op-regression=PCT  an op's self time may grow by PCT\n"
	    "  --min-op-share=PCT       ops below PCT of the self time on "
	    "both\n"
	    "                           sides are not checked (default 1%)\n"
	    "  --max-compiles=N         no function compiled more than N "
	    "times\n"
	    "  --include-compile-work   also the ops of device work done while\n"
	    "                           compiling (autotuning)\n"
	    "  --device=GLOB, --host=GLOB, --run=GLOB, --latest\n"
	    "                           select what both sides hold\n"
	    "  --format=FMT             table (default), csv, json, markdown\n"
	    "  --db=FILE                the index to use\n"
	    "Without rules: --max-step-regression=5% --max-op-regression=10%.\n",
	.run = check_run,
};

enum setting_kind {
	SET_PATH,
	SET_PERCENT,	/* "5%" or "5": a number >= 0 */
	SET_TIME,	/* "150ms": a number and ns, us, ms or s; in ps */
	SET_COUNT,	/* a whole number >= 0 */
};

/*
 * What check can be told, from the command line or a rules file; the
 * command line wins.  Sorted by name; also the rules file's keys.
 */
struct setting {
	const char	*name;
	enum setting_kind kind;
	int		 is_rule;	/* enables a rule when given */
	int		 set;		/* 1: from a file, 2: command line */
	double		 num;
	char		*str;
};

enum {
	S_BASELINE,
	S_MAX_COMPILES,
	S_MAX_OP_REGRESSION,
	S_MAX_STEP_REGRESSION,
	S_MAX_STEP_TIME,
	S_MIN_OP_SHARE,
	S_SKIP,
	S_STEP_PERCENTILE,
	S_RULES,		/* command line only */
	NSETTINGS,
};

static const struct setting setting_defaults[NSETTINGS] = {
	[S_BASELINE] = { "baseline", SET_PATH, 0, 0, 0, NULL },
	[S_MAX_COMPILES] = { "max-compiles", SET_COUNT, 1, 0, 0, NULL },
	[S_MAX_OP_REGRESSION] = { "max-op-regression", SET_PERCENT, 1, 0,
	    10, NULL },
	[S_MAX_STEP_REGRESSION] = { "max-step-regression", SET_PERCENT, 1, 0,
	    5, NULL },
	[S_MAX_STEP_TIME] = { "max-step-time", SET_TIME, 1, 0, 0, NULL },
	[S_MIN_OP_SHARE] = { "min-op-share", SET_PERCENT, 0, 0, 1, NULL },
	[S_SKIP] = { "skip", SET_COUNT, 0, 0, 0, NULL },
	[S_STEP_PERCENTILE] = { "step-percentile", SET_PERCENT, 0, 0, 50,
	    NULL },
	[S_RULES] = { "rules", SET_PATH, 0, 0, 0, NULL },
};

/* Parses v for setting s; -1 if it is not a valid value. */
static int
parse_value(struct setting *s, const char *v)
{
	char *end;
	double d;
	int64_t ps;

	if (s->kind == SET_PATH) {
		if (*v == '\0')
			return -1;
		free(s->str);
		s->str = xstrdup(v);
		return 0;
	}
	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || end == v || !isfinite(d) || d < 0)
		return -1;
	switch (s->kind) {
	case SET_PERCENT:
		if (strcmp(end, "%") != 0 && *end != '\0')
			return -1;
		if (d > 100 && strcmp(s->name, "step-percentile") == 0)
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
		break;
	}
	s->num = d;
	return 0;
}

static const char *
expected(enum setting_kind kind)
{
	switch (kind) {
	case SET_PATH:
		return "a path";
	case SET_PERCENT:
		return "a percentage such as 5%";
	case SET_TIME:
		return "a time such as 150ms, with ns, us, ms or s";
	case SET_COUNT:
		return "a whole number";
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
			    expected(set[i].kind));
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

/* The rule rows being printed, and how many rules failed. */
struct verdict {
	struct output	*o;
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

static void
put_verdict(struct verdict *v, const char *rule, const char *subject,
    const char *base, const char *new, const char *measured,
    const char *limit, int pass)
{
	output_str(v->o, rule);
	output_str(v->o, subject);
	output_str(v->o, base);
	output_str(v->o, new);
	output_str(v->o, measured);
	output_str(v->o, limit);
	output_str(v->o, pass ? "PASS" : "FAIL");
	output_end_row(v->o);
	v->nfail_rows += !pass;
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
	fmt_duration(buf, size, (int64_t)llround(ps));
}

static void
check_steps(struct verdict *v, const struct setting *set,
    const struct summary *base, const struct summary *new)
{
	size_t skip = (size_t)set[S_SKIP].num, nb, nn;
	double p = set[S_STEP_PERCENTILE].num;
	double vb = summary_step_percentile(base, skip, p, &nb);
	double vn = summary_step_percentile(new, skip, p, &nn);
	char subject[128], b[64], n[64], m[64], lim[64], pn[64];

	fmt_fixed(pn, sizeof pn, p, 0);
	snprintf(subject, sizeof subject, "p%s of %zu step%s", pn, nn,
	    nn == 1 ? "" : "s");
	fmt_ps(b, sizeof b, vb);
	fmt_ps(n, sizeof n, vn);
	if (set[S_MAX_STEP_REGRESSION].set) {
		rule_begin(v);
		fmt_pct(lim, sizeof lim, set[S_MAX_STEP_REGRESSION].num, 0);
		if (nb == 0 || nn == 0)
			put_verdict(v, "max-step-regression", subject,
			    nb == 0 ? "no steps" : b, nn == 0 ? "no steps" : n,
			    "", lim, 0);
		else {
			double change = (vn / vb - 1) * 100;

			fmt_pct(m, sizeof m, change, 1);
			put_verdict(v, "max-step-regression", subject, b, n, m,
			    lim, change <= set[S_MAX_STEP_REGRESSION].num);
		}
		rule_end(v);
	}
	if (set[S_MAX_STEP_TIME].set) {
		rule_begin(v);
		fmt_ps(lim, sizeof lim, set[S_MAX_STEP_TIME].num);
		put_verdict(v, "max-step-time", subject,
		    nb == 0 ? "no steps" : b, nn == 0 ? "no steps" : n,
		    nn == 0 ? "" : n, lim,
		    nn > 0 && vn <= set[S_MAX_STEP_TIME].num);
		rule_end(v);
	}
}

/*
 * Every op with enough share whose self time grew too much fails: self
 * time, so a slower op inside a loop names that op, not the loop too.
 */
static void
check_ops(struct verdict *v, const struct setting *set,
    const struct summary *base, const struct summary *new)
{
	struct op_row *rb, *rn;
	struct diff_pair *pairs;
	size_t nb, nn, np, i, nchecked = 0;
	double tb = 0, tn = 0, worst = -HUGE_VAL;
	double max = set[S_MAX_OP_REGRESSION].num, db, dn;
	char subject[512], b[64], n[64], m[64], lim[64], share[64];
	const char *per;

	rule_begin(v);
	summary_op_rows(base, GROUP_OP, &rb, &nb);
	summary_op_rows(new, GROUP_OP, &rn, &nn);
	diff_ops(rb, nb, rn, nn, BY_SELF_TIME, &pairs, &np);
	/* Per step (or execution): a longer run is not a slower one. */
	per = summary_op_norm(base, new, &db, &dn);
	diff_normalize(pairs, np, db, dn);
	for (i = 0; i < np; i++) {
		tb += pairs[i].base_value;
		tn += pairs[i].new_value;
	}
	fmt_pct(lim, sizeof lim, max, 0);
	for (i = 0; i < np; i++) {
		const struct diff_pair *p = &pairs[i];
		double change;

		if (p->new == NULL ||
		    diff_share_pct(p, tb, tn) < set[S_MIN_OP_SHARE].num)
			continue;
		nchecked++;
		change = diff_change_pct(p);
		if (change > worst)
			worst = change;
		if (change <= max)
			continue;
		if (p->match == MATCH_STEM)
			snprintf(subject, sizeof subject, "%s (was %s; per %s)",
			    p->new->name, p->base->name, per);
		else
			snprintf(subject, sizeof subject, "%s (per %s)",
			    p->new->name, per);
		fmt_ps(b, sizeof b, p->base_value);
		fmt_ps(n, sizeof n, p->new_value);
		fmt_pct(m, sizeof m, change, 1);
		put_verdict(v, "max-op-regression", subject,
		    p->base != NULL ? b : "absent", n, m, lim, 0);
	}
	if (!rule_failed(v)) {
		fmt_pct(share, sizeof share, set[S_MIN_OP_SHARE].num, 0);
		snprintf(subject, sizeof subject, "%zu op%s with >= %s share "
		    "(per %s)", nchecked, nchecked == 1 ? "" : "s", share, per);
		fmt_ps(b, sizeof b, tb);
		fmt_ps(n, sizeof n, tn);
		if (nchecked > 0)
			fmt_pct(m, sizeof m, worst, 1);
		else
			snprintf(m, sizeof m, "none");
		put_verdict(v, "max-op-regression", subject, b, n, m, lim, 1);
	}
	rule_end(v);
	free(pairs);
	op_rows_free(rb, nb);
	op_rows_free(rn, nn);
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
	const struct compile_fn *most = summary_most_compiled(new);
	int64_t max = (int64_t)set[S_MAX_COMPILES].num;
	char b[32], n[32], lim[32];
	size_t i;

	rule_begin(v);
	snprintf(lim, sizeof lim, "%lld", (long long)max);
	for (i = 0; i < new->ncompiles; i++) {
		const struct compile_fn *c = &new->compiles[i];

		if (c->count <= max)
			continue;
		snprintf(b, sizeof b, "%lld",
		    (long long)compiles_of(base, c->function));
		snprintf(n, sizeof n, "%lld", (long long)c->count);
		put_verdict(v, "max-compiles", *c->function != '\0' ?
		    c->function : "(unknown function)", b, n, n, lim, 0);
	}
	if (rule_failed(v)) {
		rule_end(v);
		return;
	}
	snprintf(b, sizeof b, "%lld", (long long)(most != NULL ?
	    compiles_of(base, most->function) : 0));
	snprintf(n, sizeof n, "%lld", (long long)(most != NULL ?
	    most->count : 0));
	put_verdict(v, "max-compiles", most == NULL ? "no compilations" :
	    *most->function != '\0' ? most->function : "(unknown function)",
	    b, n, n, lim, 1);
	rule_end(v);
}

static const struct out_col columns[] = {
	{ "rule", COL_STR, NULL },
	{ "subject", COL_STR, NULL },
	{ "base", COL_STR, NULL },
	{ "new", COL_STR, NULL },
	{ "measured", COL_STR, NULL },
	{ "limit", COL_STR, NULL },
	{ "result", COL_STR, NULL },
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
		{ "max-op-regression", required_argument, NULL,
		    0x200 + S_MAX_OP_REGRESSION },
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
	struct verdict v;
	char *line;
	int ch, i, any_rule = 0, status;

	memcpy(set, setting_defaults, sizeof set);
	report_init(&r, "check");
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
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
			    expected(set[ch - 0x200].kind));
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
	for (i = 0; i < NSETTINGS; i++)
		any_rule |= set[i].is_rule && set[i].set;
	if (!any_rule)
		set[S_MAX_STEP_REGRESSION].set =
		    set[S_MAX_OP_REGRESSION].set = 1;

	summary_init(&base);
	summary_init(&new);
	status = summary_load(&base, &r, set[S_BASELINE].str, 1);
	if (summary_load(&new, &r, argv[optind], 0) != EXIT_OK)
		status = EXIT_TROUBLE;

	memset(&v, 0, sizeof v);
	v.o = output_new(r.format, stdout, columns,
	    sizeof columns / sizeof columns[0]);
	summary_note_runs(&base, v.o, "baseline");
	summary_note_runs(&new, v.o, "new");
	line = xasprintf("Check of %s against %s", new.label, base.label);
	output_title(v.o, line);
	free(line);
	check_steps(&v, set, &base, &new);
	if (set[S_MAX_OP_REGRESSION].set)
		check_ops(&v, set, &base, &new);
	if (set[S_MAX_COMPILES].set)
		check_compiles(&v, set, &base, &new);
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
