/* The formatter: csv quoting, json escaping, locale-proof numbers. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "lib/err.h"
#include "output/output.h"
#include "lib/xmalloc.h"

static const struct out_col cols[] = {
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "count", COL_INT, NULL, 0, UNIT_NONE },
	{ "total_us", COL_PS, "total", 0, UNIT_NONE },
	{ "percent", COL_PCT, "%", 0, UNIT_NONE },
};

/* Renders two fixed rows in fmt and returns the text (caller frees). */
static char *
render(enum out_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct output *o = output_new(fmt, fp, cols, 4);

	output_str(o, "fusion.1");
	output_int(o, 3);
	output_ps(o, 1500000);
	output_double(o, 12.345);
	output_end_row(o);
	output_str(o, "a,\"b\"");
	output_int(o, -1);
	output_ps(o, 2500000000.0);
	output_null(o);
	output_end_row(o);
	ck_assert_int_eq(output_finish(o), 0);
	fclose(fp);
	return buf;
}

START_TEST(test_csv)
{
	char *s = render(FMT_CSV);

	ck_assert_str_eq(s, "name,count,total_us,percent\n"
	    "fusion.1,3,1.500,12.35\n"
	    "\"a,\"\"b\"\"\",-1,2500.000,\n");
	free(s);
}
END_TEST

START_TEST(test_json)
{
	char *s = render(FMT_JSON);

	ck_assert_str_eq(s, "[\n"
	    "  {\"name\": \"fusion.1\", \"count\": 3, \"total_us\": 1.500, "
	    "\"percent\": 12.35},\n"
	    "  {\"name\": \"a,\\\"b\\\"\", \"count\": -1, \"total_us\": "
	    "2500.000, \"percent\": null}\n]\n");
	free(s);
}
END_TEST

START_TEST(test_table)
{
	char *s = render(FMT_TABLE);

	ck_assert_str_eq(s,
	    "name      count     total       %\n"
	    "fusion.1      3  1.500 us  12.35%\n"
	    "a,\"b\"        -1  2.500 ms\n");
	free(s);
}
END_TEST

START_TEST(test_markdown)
{
	char *s = render(FMT_MARKDOWN);

	ck_assert_str_eq(s,
	    "| name     | count |    total |      % |\n"
	    "|----------|------:|---------:|-------:|\n"
	    "| fusion.1 |     3 | 1.500 us | 12.35% |\n"
	    "| a,\"b\"    |    -1 | 2.500 ms |        |\n");
	free(s);
}
END_TEST

/*
 * A text like the one above it shares that cell: the same text, an
 * escaped one, a null above, a number above an equal text, and a change
 * must all show as themselves, in a buffer the caller reuses.
 */
START_TEST(test_repeated_texts)
{
	static const struct out_col two[] = {
		{ "name", COL_STR, NULL, 0, UNIT_NONE }, { "n", COL_STR, NULL, 0, UNIT_NONE },
	};
	static const char *const names[] = {
		"a|b", "a|b", "x\ty", "x\ty", NULL, "", "", "c", "c", "d",
	};
	char *buf = NULL, text[16];
	size_t len = 0, i;
	FILE *fp = open_memstream(&buf, &len);
	struct output *o = output_new(FMT_MARKDOWN, fp, two, 2);

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (names[i] == NULL)
			output_null(o);
		else {
			snprintf(text, sizeof text, "%s", names[i]);
			output_str(o, text);
		}
		if (i == 6)
			output_int(o, 7);
		else
			output_str(o, i == 7 ? "7" : "same");
		output_end_row(o);
	}
	ck_assert_int_eq(output_finish(o), 0);
	fclose(fp);
	ck_assert_str_eq(buf,
	    "| name | n    |\n"
	    "|------|------|\n"
	    "| a\\|b | same |\n"
	    "| a\\|b | same |\n"
	    "| x?y  | same |\n"
	    "| x?y  | same |\n"
	    "|      | same |\n"
	    "|      | same |\n"
	    "|      | 7    |\n"
	    "| c    | 7    |\n"
	    "| c    | same |\n"
	    "| d    | same |\n");
	free(buf);
}
END_TEST

/* A long table prints each row as printf pads it, in order. */
START_TEST(test_long_table)
{
	static const struct out_col two[] = {
		{ "name", COL_STR, NULL, 0, UNIT_NONE },
		{ "count", COL_INT, NULL, 0, UNIT_NONE },
	};
	enum { NROWS = 9001 };
	char *got = NULL, *want = xmalloc(32 * (NROWS + 1)), *w = want;
	size_t len = 0;
	FILE *fp = open_memstream(&got, &len);
	struct output *o = output_new(FMT_TABLE, fp, two, 2);
	char name[16];
	int i;

	w += sprintf(w, "name      count\n");
	for (i = 0; i < NROWS; i++) {
		/* Names of 1 to 8 bytes: widths that differ row to row. */
		snprintf(name, sizeof name, "%.*s", 1 + i % 8, "abcdefgh");
		output_str(o, name);
		output_int(o, (int64_t)i * 7);
		output_end_row(o);
		w += sprintf(w, "%-8s  %5d\n", name, i * 7);
	}
	ck_assert_int_eq(output_finish(o), 0);
	fclose(fp);
	ck_assert_uint_eq(len, strlen(want));
	ck_assert_msg(strcmp(got, want) == 0, "long table differs");
	free(got);
	free(want);
}
END_TEST

START_TEST(test_empty_json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_int_eq(output_finish(output_new(FMT_JSON, fp, cols, 4)), 0);
	fclose(fp);
	ck_assert_str_eq(buf, "[]\n");
	free(buf);
}
END_TEST

/* A German locale writes "1,5" with printf; our numbers must not. */
START_TEST(test_locale)
{
	char buf[64];

	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) {
		/* .ci/run installs locales-all, so CI always runs this. */
		fprintf(stderr, "de_DE.UTF-8 is not installed: the locale "
		    "part of test_locale is skipped\n");
		return;
	}
	snprintf(buf, sizeof buf, "%.1f", 1.5);
	ck_assert_str_eq(buf, "1,5");	/* the locale is really in force */
	fmt_fixed(buf, sizeof buf, 1.5, 1);
	ck_assert_str_eq(buf, "1.5");
	fmt_duration(buf, sizeof buf, 1234567);
	ck_assert_str_eq(buf, "1.235 us");
	setlocale(LC_NUMERIC, "C");
}
END_TEST

START_TEST(test_durations)
{
	static const struct {
		int64_t		 ps;
		const char	*want;
	} cases[] = {
		{ 0, "0 ns" },
		{ 999, "1 ns" },
		{ 850000, "850 ns" },
		{ 1000000, "1.000 us" },
		{ 12345678901LL, "12.346 ms" },
		{ 2500000000000LL, "2.500 s" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fmt_duration(buf, sizeof buf, cases[i].ps);
		ck_assert_str_eq(buf, cases[i].want);
	}
}
END_TEST

/* The durations as printf prints them: what fmt_duration() must equal. */
static void
printf_duration(char *buf, size_t size, int64_t ps)
{
	int64_t a = ps < 0 ? -ps : ps;
	double v = (double)ps;
	const char *unit = "s";
	char *p;

	if (a < 1000000LL) {
		snprintf(buf, size, "%.0f ns", v / 1e3);
		p = buf;
	} else {
		if (a >= 1000000000000LL)
			v /= 1e12;
		else if (a >= 1000000000LL)
			v /= 1e9, unit = "ms";
		else
			v /= 1e6, unit = "us";
		snprintf(buf, size, "%.3f %s", v, unit);
		p = buf;
	}
	if (strncmp(p, "-0 ", 3) == 0 || strncmp(p, "-0.000 ", 7) == 0)
		memmove(buf, buf + 1, strlen(buf));
}

/*
 * Durations are formatted without printf where that is exact: on many
 * values of every size, ties of rounding and their neighbours included,
 * the text is printf's, in tables (fmt_duration) and csv (output_ps).
 */
START_TEST(test_durations_match_printf)
{
	static const struct out_col us_col[] = { { "t_us", COL_PS, NULL, 0, UNIT_NONE } };
	uint64_t x = 88172645463325252ULL;
	char got[64], want[64], *s = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&s, &len);
	struct output *o = output_new(FMT_CSV, fp, us_col, 1);
	int64_t *v = calloc(200000, sizeof *v);

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < 200000; i++) {
		int64_t unit, m;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift */
		m = (int64_t)(x >> (x % 60 + 4));	/* every magnitude */
		unit = (int64_t[]){ 500, 500000, 500000000 }[x % 3];
		if (x % 5 == 0)	/* on a tie, or one off it */
			m = m / (2 * unit) * (2 * unit) + unit +
			    (int64_t)(x / 7 % 3) - 1;
		v[i] = x % 2 ? -m : m;
		fmt_duration(got, sizeof got, v[i]);
		printf_duration(want, sizeof want, v[i]);
		ck_assert_msg(strcmp(got, want) == 0, "%lld ps: '%s', printf "
		    "'%s'", (long long)v[i], got, want);
		output_ps(o, (double)v[i]);
		output_end_row(o);
	}
	ck_assert_int_eq(output_finish(o), 0);
	fclose(fp);
	fp = fmemopen(s, len, "r");
	ck_assert_ptr_nonnull(fgets(got, sizeof got, fp));	/* header */
	for (i = 0; i < 200000; i++) {
		ck_assert_ptr_nonnull(fgets(got, sizeof got, fp));
		snprintf(want, sizeof want, "%.3f\n", (double)v[i] / 1e6);
		if (strcmp(want, "-0.000\n") == 0)
			memmove(want, want + 1, strlen(want));
		ck_assert_msg(strcmp(got, want) == 0, "%lld ps in csv: '%s', "
		    "printf '%s'", (long long)v[i], got, want);
	}
	fclose(fp);
	free(s);
	free(v);
}
END_TEST

/* Integers as printf's %lld writes them, the extremes included. */
START_TEST(test_ints_match_printf)
{
	static const struct out_col int_col[] = { { "n", COL_INT, NULL, 0, UNIT_NONE } };
	static const int64_t v[] = { 0, 7, -7, 10, -10, 1234567890123LL,
	    INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	char *s = NULL, want[512] = "n\n";
	size_t len = 0, i;
	FILE *fp = open_memstream(&s, &len);
	struct output *o = output_new(FMT_CSV, fp, int_col, 1);

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		output_int(o, v[i]);
		output_end_row(o);
		snprintf(want + strlen(want), sizeof want - strlen(want),
		    "%lld\n", (long long)v[i]);
	}
	ck_assert_int_eq(output_finish(o), 0);
	fclose(fp);
	ck_assert_str_eq(s, want);
	free(s);
}
END_TEST

/*
 * Extreme numbers (issue 12, class 2): INT64_MIN has no absolute value
 * and a double past int64 no conversion; both were undefined behaviour.
 * Not a number is a null cell (JSON has no NaN).
 */
START_TEST(test_extreme_numbers)
{
	char buf[64], *s = NULL;
	size_t len = 0;
	FILE *fp;
	struct output *o;

	fmt_duration(buf, sizeof buf, INT64_MIN);
	ck_assert_str_eq(buf, "-9223372.037 s");
	fmt_duration(buf, sizeof buf, INT64_MAX);
	ck_assert_str_eq(buf, "9223372.037 s");

	fp = open_memstream(&s, &len);
	o = output_new(FMT_TABLE, fp, cols, 4);
	output_str(o, "x");
	output_int(o, 1);
	output_ps(o, 1e300);
	output_double(o, -1e300);
	output_end_row(o);
	ck_assert_int_eq(output_finish(o), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(s, "9223372.037 s"));
	free(s);

	s = NULL;
	fp = open_memstream(&s, &len);
	o = output_new(FMT_JSON, fp, cols, 4);
	output_str(o, "x");
	output_int(o, 1);
	output_ps(o, 0.0 / 0.0);
	output_double(o, 1.0 / 0.0);
	output_end_row(o);
	ck_assert_int_eq(output_finish(o), 0);
	fclose(fp);
	ck_assert_str_eq(s, "[\n  {\"name\": \"x\", \"count\": 1, "
	    "\"total_us\": null, \"percent\": null}\n]\n");
	free(s);
}
END_TEST

/*
 * --format=json is valid UTF-8 whatever the names hold (issue 12, class
 * 5): valid sequences pass, each other byte becomes U+FFFD.
 */
START_TEST(test_json_utf8)
{
	static const struct {
		const char	*name;
		const char	*want;
	} cases[] = {
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		{ "a\xff" "b", "\"a\\ufffdb\"" },
		{ "\xc3", "\"\\ufffd\"" },			/* truncated */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },	/* overlong */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" }, /* surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	};
	static const struct out_col one[] = { { "name", COL_STR, NULL, 0, UNIT_NONE } };
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = NULL, *want;
		size_t len = 0;
		FILE *fp = open_memstream(&s, &len);
		struct output *o = output_new(FMT_JSON, fp, one, 1);

		output_str(o, cases[i].name);
		output_end_row(o);
		ck_assert_int_eq(output_finish(o), 0);
		fclose(fp);
		want = xasprintf("[\n  {\"name\": %s}\n]\n", cases[i].want);
		ck_assert_str_eq(s, want);
		free(want);
		free(s);
	}
}
END_TEST

START_TEST(test_parse_format)
{
	enum out_format f;

	ck_assert_int_eq(output_parse_format("csv", &f), 0);
	ck_assert_int_eq(f, FMT_CSV);
	ck_assert_int_eq(output_parse_format("markdown", &f), 0);
	ck_assert_int_eq(f, FMT_MARKDOWN);
	ck_assert_int_eq(output_parse_format("yaml", &f), -1);
}
END_TEST

/* Rates only over durations that mean something: 1 us each on average. */
START_TEST(test_rate_meaningful)
{
	/* copy-start on the TPU corpus: 2400 issues in 8.981 us. */
	ck_assert(!rate_meaningful(8981e3, 2400));
	ck_assert(!rate_meaningful(0, 1));
	ck_assert(!rate_meaningful(5e6, 0));
	ck_assert(rate_meaningful(1e6, 1));
	ck_assert(rate_meaningful(304033212062e3, 2400));
	ck_assert(!rate_meaningful(999999, 1));
}
END_TEST

Suite *
suite_output(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("formats");

	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_markdown);
	tcase_add_test(tc, test_repeated_texts);
	tcase_add_test(tc, test_long_table);
	tcase_add_test(tc, test_empty_json);
	tcase_add_test(tc, test_locale);
	tcase_add_test(tc, test_durations);
	tcase_add_test(tc, test_durations_match_printf);
	tcase_add_test(tc, test_ints_match_printf);
	tcase_add_test(tc, test_parse_format);
	tcase_add_test(tc, test_extreme_numbers);
	tcase_add_test(tc, test_json_utf8);
	tcase_add_test(tc, test_rate_meaningful);
	suite_add_tcase(s, tc);
	return s;
}
