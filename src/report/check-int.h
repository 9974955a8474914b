/*
 * What check-settings.c, check-rules.c and check-rows.c share: a setting's
 * value, the check under way, and the figures of its rows.
 */
#ifndef JAXPROF_CHECK_INT_H
#define JAXPROF_CHECK_INT_H

#include <stdio.h>

#include "report/check-rules.h"
#include "output/output.h"

struct op_pairs;
struct op_row;
struct summary;

/* A rule's or setting's value: its default, or what it was told. */
struct check_setting {
	const char	*name;
	enum check_kind	 kind;
	int		 is_rule;	/* may be "off" */
	int		 set;		/* 1: from a file, 2: command line */
	int		 off;		/* a rule turned off */
	double		 num;
	char		*str;
	int		 share;		/* a percentage of a whole: <= 100 */
};

/* The settings that are no rule: what is compared, and how. */
enum {
	O_BASELINE,
	O_MIN_OP_SHARE,
	O_SKIP,
	O_STEP_PERCENTILE,
	O_RULES,		/* command line only */
	NOPTIONS,
};

/* The setting o of the settings that are no rule. */
static inline struct check_setting *
check_option(const struct check_settings *cs, int o)
{
	return &cs->v[check_nrules + (size_t)o];
}

/*
 * A check under way: what the rules weigh, the rows being printed, and
 * how many rules failed.
 */
struct check_judge {
	const struct check_settings *cs;
	const struct summary *base, *new;
	const struct op_pairs *op;	/* both runs' ops, paired once */
	struct output	*o;
	int		 machine;	/* csv or json: numbers, units apart */
	int		 nrules;
	int		 nfailed;	/* rules with a FAIL row */
	int		 nfail_rows;
	int		 rows_before;	/* nfail_rows when the rule began */
};

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

static inline struct fig
fig(double v, enum unit unit)
{
	struct fig f = { v, unit, NULL };

	return f;
}

/* A figure with no number, only words: "absent", "no steps". */
static inline struct fig
fig_words(const char *words)
{
	struct fig f = { 0, U_COUNT, words };

	return f;
}

/* Where a setting's value came from, as the report says it. */
const char *check_setting_from(const struct check_setting *s);
/* A rule's rows begin; whether it has failed so far; they end. */
void	check_rule_begin(struct check_judge *v);
int	check_rule_failed(const struct check_judge *v);
void	check_rule_end(struct check_judge *v);
/* "+12.50%" (sign) or "12.50%"; "new" for an infinite share. */
void	check_fmt_pct(char *buf, size_t size, double pct, int sign);
/* A time in ps as a table shows it: "21.498 ms". */
void	check_fmt_ps(char *buf, size_t size, double ps);
/*
 * One row of rule: its measured figure against its limit; judged says
 * how the limit was set where it is not the rule's value as given; op,
 * when the row is about one, gives its columns.
 */
void	check_put_row(struct check_judge *v, const struct check_setting *rule,
	    const char *subject, struct fig base, struct fig new,
	    struct fig measured, struct fig limit, const char *judged,
	    const struct op_row *op);
/* The output of check's rows in format: numbers apart in csv and json. */
struct output *check_output_new(enum out_format format, FILE *fp);

#endif
