/* check's rows: a rule's figures against its limit, PASS or FAIL. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-ops.h"
#include "report/check-int.h"
#include "report/op-what.h"
#include "lib/ptime.h"
#include "output/output.h"

/* Where a setting's value came from, as the report says it. */
const char *
check_setting_from(const struct check_setting *s)
{
	return s->set == 2 ? "option" : s->set == 1 ? "rules file" :
	    "default";
}

void
check_rule_begin(struct check_judge *v)
{
	v->nrules++;
	v->rows_before = v->nfail_rows;
}

/* Whether the rule begun last has failed so far. */
int
check_rule_failed(const struct check_judge *v)
{
	return v->nfail_rows > v->rows_before;
}

void
check_rule_end(struct check_judge *v)
{
	v->nfailed += check_rule_failed(v);
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

void
check_fmt_pct(char *buf, size_t size, double pct, int sign)
{
	char num[48];

	if (isinf(pct)) {
		snprintf(buf, size, "new");
		return;
	}
	fmt_fixed(num, sizeof num, pct, 2);
	snprintf(buf, size, "%s%s%%", sign && num[0] != '-' ? "+" : "", num);
}

void
check_fmt_ps(char *buf, size_t size, double ps)
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
		check_fmt_ps(buf, size, f.v);
	else if (f.unit == U_PCT || f.unit == U_CHANGE)
		check_fmt_pct(buf, size, f.v, f.unit == U_CHANGE);
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
void
check_put_row(struct check_judge *v, const struct check_setting *rule,
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
	output_str(v->o, check_setting_from(rule));
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

struct output *
check_output_new(enum out_format format, FILE *fp)
{
	return format == FMT_CSV || format == FMT_JSON ? output_new(format, fp,
	    machine_columns, sizeof machine_columns / sizeof machine_columns[0]) :
	    output_new(format, fp, columns, sizeof columns / sizeof columns[0]);
}
