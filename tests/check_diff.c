/* analyze-diff: stems, op matching across recompiles, change measures. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-diff.h"
#include "check_suites.h"

START_TEST(test_stem)
{
	static const struct {
		const char	*name;
		const char	*stem;
	} cases[] = {
		{ "fusion.123", "fusion" },
		{ "fusion.98", "fusion" },
		{ "fusion.1.2", "fusion" },
		{ "fusion", "fusion" },
		{ "dot", "dot" },
		{ "ynn_fusion.4", "ynn_fusion" },
		{ "copy-start.3", "copy-start" },
		{ "all-reduce.1x", "all-reduce.1x" },
		{ "v2.0", "v2" },
		{ ".5", ".5" },
		{ "", "" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = diff_stem(cases[i].name);

		ck_assert_str_eq(s, cases[i].stem);
		free(s);
	}
}
END_TEST

/* A row with just what matching and measuring look at. */
static struct op_row
row(const char *name, const char *module, const char *category,
    int64_t total)
{
	struct op_row r;

	memset(&r, 0, sizeof r);
	r.name = (char *)name;
	r.module = (char *)module;
	r.category = (char *)category;
	r.framework_op = r.source = r.source_function = (char *)"";
	r.count = 2;
	r.total_ps = r.self_ps = total;
	return r;
}

static const struct diff_pair *
find(const struct diff_pair *p, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct op_row *r = p[i].new != NULL ? p[i].new :
		    p[i].base;

		if (strcmp(r->name, name) == 0)
			return &p[i];
	}
	ck_abort_msg("no pair for %s", name);
	return NULL;
}

START_TEST(test_match_recompiled)
{
	struct op_row base[] = {
		row("dot", "jit_f", "dot", 100),
		row("fusion.123", "jit_f", "fusion", 50),
		row("fusion.7", "jit_f", "fusion", 5),
		row("copy.3", "jit_f", "copy", 10),
		row("copy.4", "jit_f", "copy", 10),
		row("gone", "jit_f", "fusion", 1),
	};
	struct op_row new[] = {
		row("dot", "jit_f", "dot", 110),
		row("fusion.98", "jit_f", "fusion", 70),
		row("fusion.7", "jit_f", "fusion", 5),
		row("copy.9", "jit_f", "copy", 10),
		row("copy.10", "jit_f", "copy", 10),
		row("fusion.98", "jit_g", "fusion", 3),
	};
	struct diff_pair *p;
	const struct diff_pair *q;
	size_t n;

	diff_ops(base, 6, new, 6, BY_DEVICE_TIME, 1, &p, &n);
	/* dot, fusion.7 same; fusion.123 ~ fusion.98; 2+2 copies ambiguous. */
	ck_assert_uint_eq(n, 9);
	q = find(p, n, "dot");
	ck_assert_int_eq(q->match, MATCH_SAME);
	ck_assert(q->delta == 10);
	q = find(p, n, "fusion.7");
	ck_assert_int_eq(q->match, MATCH_SAME);
	/* "fusion.123" is left after exact matching: the stem pairs it. */
	q = &p[0];
	ck_assert_int_eq(q->match, MATCH_RENAMED);
	ck_assert_int_eq(q->paired_by, PAIRED_STEM);
	ck_assert_str_eq(q->base->name, "fusion.123");
	ck_assert_str_eq(q->new->name, "fusion.98");
	ck_assert_str_eq(q->new->module, "jit_f");
	ck_assert(q->delta == 20);
	ck_assert(fabs(diff_ratio(q) - 1.4) < 1e-12);
	ck_assert(fabs(diff_change_pct(q) - 40) < 1e-9);
	/* Two copies on each side share a stem: no guessing. */
	ck_assert_int_eq(find(p, n, "copy.3")->match, MATCH_REMOVED);
	ck_assert_int_eq(find(p, n, "copy.10")->match, MATCH_ADDED);
	ck_assert_int_eq(find(p, n, "gone")->match, MATCH_REMOVED);
	/* Largest change first, then by name. */
	ck_assert_str_eq(p[1].new->name, "copy.10");
	diff_pairs_free(p, n);
}
END_TEST

START_TEST(test_added_and_share)
{
	struct op_row base[] = { row("a", "", "x", 90), row("b", "", "y", 10) };
	struct op_row new[] = { row("a", "", "x", 90), row("c", "", "z", 10) };
	struct diff_pair *p;
	const struct diff_pair *q;
	size_t n;

	diff_ops(base, 2, new, 2, BY_COUNT, 1, &p, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert(find(p, n, "a")->delta == 0);
	diff_pairs_free(p, n);
	diff_ops(base, 2, new, 2, BY_SELF_TIME, 1, &p, &n);
	q = find(p, n, "c");
	ck_assert_int_eq(q->match, MATCH_ADDED);
	ck_assert(isinf(diff_change_pct(q)));
	ck_assert(diff_ratio(q) == 0);
	ck_assert(fabs(diff_share_pct(q, 100, 100) - 10) < 1e-12);
	q = find(p, n, "b");
	ck_assert_int_eq(q->match, MATCH_REMOVED);
	ck_assert(q->delta == -10);
	ck_assert(fabs(diff_change_pct(q) + 100) < 1e-12);
	ck_assert_str_eq(diff_match_name(MATCH_RENAMED), "renamed");
	diff_pairs_free(p, n);
	diff_ops(NULL, 0, NULL, 0, BY_AVG, 1, &p, &n);
	ck_assert_uint_eq(n, 0);
	diff_pairs_free(p, n);
}
END_TEST

/* A row of an op with an identity: framework op and source line. */
static struct op_row
idrow(const char *name, const char *fop, const char *source, int64_t total)
{
	struct op_row r = row(name, "jit_f", "gemm", total);

	r.framework_op = (char *)fop;
	r.source = (char *)source;
	return r;
}

START_TEST(test_match_identity)
{
	/*
	 * A recompile renumbered the custom-calls: custom-call.42 is now
	 * another op (the trap); two layers' dots stay in order;
	 * a line with 2 ops before and 3 after is summed.
	 */
	struct op_row base[] = {
		idrow("custom-call.42", "jit(f)/attn/dot_general", "m.py:49", 47),
		idrow("custom-call.7", "jit(f)/mlp/dot_general", "m.py:52", 100),
		idrow("custom-call.10", "jit(f)/mlp/dot_general", "m.py:52", 200),
		idrow("fusion.1", "jit(f)/add", "m.py:60", 10),
		idrow("fusion.2", "jit(f)/add", "m.py:60", 10),
		row("copy.3", "jit_f", "copy", 5),
		idrow("fusion.9", "fusion.9", "", 3),
	};
	struct op_row new[] = {
		idrow("custom-call.50", "jit(f)/attn/dot_general", "m.py:49", 49),
		idrow("custom-call.42", "jit(f)/out/transpose", "m.py:69", 551),
		idrow("custom-call.9", "jit(f)/mlp/dot_general", "m.py:52", 110),
		idrow("custom-call.12", "jit(f)/mlp/dot_general", "m.py:52", 190),
		idrow("fusion.3", "jit(f)/add", "m.py:60", 10),
		idrow("fusion.4", "jit(f)/add", "m.py:60", 10),
		idrow("fusion.5", "jit(f)/add", "m.py:60", 10),
		row("copy.3", "jit_f", "copy", 6),
		idrow("fusion.8", "fusion.8", "", 3),
	};
	struct diff_pair *p;
	const struct diff_pair *q;
	size_t n;

	diff_ops(base, 7, new, 9, BY_DEVICE_TIME, 1, &p, &n);
	ck_assert_uint_eq(n, 7);
	q = find(p, n, "custom-call.50");
	ck_assert_ptr_nonnull(q->base);
	ck_assert_str_eq(q->base->name, "custom-call.42");
	ck_assert_int_eq(q->paired_by, PAIRED_IDENTITY);
	ck_assert_str_eq(diff_outcome(q), "renamed");
	/* Both have an identity, and they differ: never paired by name. */
	q = find(p, n, "custom-call.42");
	ck_assert_int_eq(q->match, MATCH_ADDED);
	/* In the order of their numbers, not of their names' bytes. */
	ck_assert_str_eq(find(p, n, "custom-call.9")->base->name,
	    "custom-call.7");
	ck_assert_str_eq(find(p, n, "custom-call.12")->base->name,
	    "custom-call.10");
	q = find(p, n, "fusion.3 (+2)");
	ck_assert_int_eq(q->paired_by, PAIRED_SUMMED);
	ck_assert_str_eq(q->base->name, "fusion.1 (+1)");
	ck_assert_uint_eq(q->nbase, 2);
	ck_assert_uint_eq(q->nnew, 3);
	ck_assert(q->delta == 10);
	ck_assert(q->new->count == 6);
	/* No identity: by name; a framework op that is its name is none. */
	q = find(p, n, "copy.3");
	ck_assert_int_eq(q->paired_by, PAIRED_NAME);
	ck_assert_str_eq(diff_outcome(q), "changed");
	q = find(p, n, "fusion.8");
	ck_assert_int_eq(q->paired_by, PAIRED_STEM);
	ck_assert_str_eq(q->base->name, "fusion.9");
	ck_assert_str_eq(diff_outcome(q), "renamed");
	diff_pairs_free(p, n);

	/* Pairing by name only (an old baseline): the trap pairs. */
	diff_ops(base, 7, new, 9, BY_DEVICE_TIME, 0, &p, &n);
	q = find(p, n, "custom-call.42");
	ck_assert_ptr_nonnull(q->base);
	ck_assert_int_eq(q->paired_by, PAIRED_NAME);
	diff_pairs_free(p, n);
}
END_TEST

Suite *
suite_diff(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_stem);
	tcase_add_test(tc, test_match_recompiled);
	tcase_add_test(tc, test_added_and_share);
	tcase_add_test(tc, test_match_identity);
	suite_add_tcase(s, tc);
	return s;
}
