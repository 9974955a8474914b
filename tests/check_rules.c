/*
 * The rules as rows: check's rules (report/check-rules.h) and the
 * summary's (report/overview.h) are tables; each row is complete, and
 * every rule the man pages name has its row, and every row its entry.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "cmd/cmd.h"
#include "report/check-rules.h"
#include "report/overview.h"

/* The man page man/NAME.1 of the source tree. */
static char *
man_page(const char *name)
{
	const char *src = test_env("SRCDIR");
	char path[4096];

	snprintf(path, sizeof path, "%s/man/%s.1", src != NULL ? src : ".",
	    name);
	return test_slurp(path, NULL);
}

/*
 * The words that follow each line start `mark` (".It Fl -", ".Cm ") in
 * text, up to a space, a tab or the end of the line; NULL-terminated.
 */
static char **
marked_words(const char *text, const char *mark)
{
	char **v = calloc(1, sizeof *v);
	size_t n = 0, len = strlen(mark), w;
	const char *p = text;

	ck_assert_ptr_nonnull(v);
	while (p != NULL && *p != '\0') {
		if (strncmp(p, mark, len) == 0) {
			w = strcspn(p + len, " \t\n");
			v = realloc(v, (n + 2) * sizeof *v);
			ck_assert_ptr_nonnull(v);
			v[n] = strndup(p + len, w);
			ck_assert_ptr_nonnull(v[n]);
			v[++n] = NULL;
		}
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
	return v;
}

static void
free_words(char **v)
{
	size_t i;

	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

static int
has_word(char **v, const char *word)
{
	size_t i;

	for (i = 0; v[i] != NULL; i++)
		if (strcmp(v[i], word) == 0)
			return 1;
	return 0;
}

static const struct check_rule *
check_rule_named(const char *name)
{
	size_t i;

	for (i = 0; i < check_nrules; i++)
		if (strcmp(check_rules[i].name, name) == 0)
			return &check_rules[i];
	return NULL;
}

static const struct ov_rule *
ov_rule_named(const char *name)
{
	size_t i;

	for (i = 0; i < ov_nrules; i++)
		if (strcmp(ov_rules[i].name, name) == 0)
			return &ov_rules[i];
	return NULL;
}

/*
 * Each of check's rules has a name of its own, the part it weighs, what
 * measures it, a threshold of a known kind (a default or off) and its
 * advice, which --help gives as it is.
 */
START_TEST(test_check_rows_complete)
{
	size_t i, j;

	ck_assert_uint_gt(check_nrules, 0);
	for (i = 0; i < check_nrules; i++) {
		const struct check_rule *r = &check_rules[i];

		ck_assert_ptr_nonnull(r->name);
		ck_assert_uint_gt(strlen(r->name), 0);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(check_rules[j].name, r->name);
		ck_assert_msg(r->part != NULL && *r->part != '\0',
		    "rule '%s' has no part", r->name);
		ck_assert_msg(r->measured != NULL, "rule '%s' measures "
		    "nothing", r->name);
		ck_assert_msg(r->threshold.kind != CHECK_PATH,
		    "rule '%s' has no threshold", r->name);
		ck_assert_msg(r->threshold.off || r->threshold.value > 0,
		    "rule '%s': no default and not off", r->name);
		ck_assert_msg(r->advice != NULL && *r->advice != '\0',
		    "rule '%s' has no advice", r->name);
		ck_assert_msg(strstr(cmd_check.options, r->advice) != NULL,
		    "rule '%s': --help does not say '%s'", r->name,
		    r->advice);
	}
}
END_TEST

/*
 * jaxprof-check(1)'s rules are its --max- options: each is a row, and
 * each row is an option there, a key of the rules file.
 */
START_TEST(test_check_rows_in_man_page)
{
	char *man = man_page("jaxprof-check");
	char **opts = marked_words(man, ".It Fl -");
	size_t i, nmax = 0;

	for (i = 0; opts[i] != NULL; i++) {
		if (strncmp(opts[i], "max-", 4) != 0)
			continue;
		nmax++;
		ck_assert_msg(check_rule_named(opts[i]) != NULL,
		    "jaxprof-check(1) names rule '%s'; check_rules has no "
		    "row", opts[i]);
	}
	ck_assert_uint_gt(nmax, 0);
	for (i = 0; i < check_nrules; i++)
		ck_assert_msg(has_word(opts, check_rules[i].name),
		    "rule '%s' is not in jaxprof-check(1)",
		    check_rules[i].name);
	free_words(opts);
	free(man);
}
END_TEST

/* A rules file names every rule by its row's name, and only those. */
START_TEST(test_check_rows_are_keys)
{
	char *dir = test_mkdtemp(), path[4096], *cause = NULL;
	size_t i;

	snprintf(path, sizeof path, "%s/all.rules", dir);
	{
		FILE *fp = fopen(path, "w");

		ck_assert_ptr_nonnull(fp);
		for (i = 0; i < check_nrules; i++)
			fprintf(fp, "%s = off\n", check_rules[i].name);
		fclose(fp);
	}
	ck_assert_int_eq(check_rules_validate(path, &cause), 0);
	ck_assert_ptr_null(cause);
	test_spew(path, "max-no-such-rule = 1\n", 21);
	ck_assert_int_eq(check_rules_validate(path, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "unknown key 'max-no-such-rule'"));
	free(cause);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * Each of the summary's rules has a name of its own, a part, a threshold,
 * and words: a verdict or advice; a wait has what measures it and all
 * its words; the verdicts that say a rule already are rules.
 */
START_TEST(test_summary_rows_complete)
{
	size_t i, j;

	ck_assert_uint_gt(ov_nrules, 0);
	for (i = 0; i < ov_nrules; i++) {
		const struct ov_rule *r = &ov_rules[i];

		ck_assert_ptr_nonnull(r->name);
		ck_assert_uint_gt(strlen(r->name), 0);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(ov_rules[j].name, r->name);
		ck_assert_msg(r->part <= OV_NPARTS, "rule '%s' has no part",
		    r->name);
		ck_assert_msg(r->threshold >= 0, "rule '%s' has no threshold",
		    r->name);
		ck_assert_msg(r->verdict != NULL || r->advice != NULL,
		    "rule '%s' says nothing", r->name);
		if (r->lead != NULL)
			ck_assert_msg(r->measured != NULL && r->part <
			    OV_NPARTS && r->threshold > 0 && r->during !=
			    NULL && r->verdict != NULL && r->advice != NULL,
			    "wait rule '%s' is missing a field", r->name);
		for (j = 0; j < OV_SAID_BY; j++)
			ck_assert_msg(r->said_by[j] == NULL ||
			    ov_rule_named(r->said_by[j]) != NULL,
			    "rule '%s': no rule '%s'", r->name, r->said_by[j]);
	}
}
END_TEST

/*
 * Every rule jaxprof-summary(1) RULES names is a row, and every row is
 * named there.
 */
START_TEST(test_summary_rows_in_man_page)
{
	char *man = man_page("jaxprof-summary"), *rules, *end, **items, **cm;
	size_t i;

	rules = strstr(man, "\n.Sh RULES\n");
	ck_assert_ptr_nonnull(rules);
	end = strstr(rules + 1, "\n.Sh ");
	if (end != NULL)
		*end = '\0';
	/* Its list names the rules; its text, the two more. */
	items = marked_words(rules, ".It Cm ");
	cm = marked_words(rules, ".Cm ");
	ck_assert_ptr_nonnull(items[0]);
	for (i = 0; items[i] != NULL; i++)
		ck_assert_msg(ov_rule_named(items[i]) != NULL,
		    "jaxprof-summary(1) names rule '%s'; ov_rules has no row",
		    items[i]);
	for (i = 0; cm[i] != NULL; i++)
		ck_assert_msg(ov_rule_named(cm[i]) != NULL,
		    "jaxprof-summary(1) RULES names rule '%s'; ov_rules has "
		    "no row", cm[i]);
	for (i = 0; i < ov_nrules; i++)
		ck_assert_msg(has_word(items, ov_rules[i].name) ||
		    has_word(cm, ov_rules[i].name),
		    "rule '%s' is not in jaxprof-summary(1) RULES",
		    ov_rules[i].name);
	free_words(items);
	free_words(cm);
	free(man);
}
END_TEST

Suite *
suite_rules(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_check_rows_complete);
	tcase_add_test(tc, test_check_rows_in_man_page);
	tcase_add_test(tc, test_check_rows_are_keys);
	tcase_add_test(tc, test_summary_rows_complete);
	tcase_add_test(tc, test_summary_rows_in_man_page);
	suite_add_tcase(s, tc);
	return s;
}
