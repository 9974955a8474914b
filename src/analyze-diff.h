/*
 * Diff math: pairing two sides' op rows and measuring the change.  No
 * SQL, no I/O; the rows come from summaries (summary.h).
 *
 *	struct diff_pair *p;
 *	size_t n;
 *	diff_ops(base, nbase, new, nnew, BY_DEVICE_TIME, &p, &n);
 *	for (i = 0; i < n; i++) ... p[i].base, p[i].new, p[i].delta ...
 *	free(p);                     (the rows are borrowed, not copied)
 *
 * Matching: ops with the same name and module pair up; the rest pair up
 * by their stem (the name without XLA's numeric suffixes, "fusion.123"
 * and "fusion.98" are both "fusion"), category and module, when that key
 * is unique on each side, so a recompiled program still lines up.  What
 * is left is added (new only) or removed (base only).
 */
#ifndef JAXPROF_ANALYZE_DIFF_H
#define JAXPROF_ANALYZE_DIFF_H

#include <stddef.h>

#include "analyze-ops.h"

enum diff_match {
	MATCH_SAME,	/* same name and module */
	MATCH_STEM,	/* same stem, category and module */
	MATCH_ADDED,	/* base is NULL */
	MATCH_REMOVED,	/* new is NULL */
};

struct diff_pair {
	const struct op_row *base;	/* borrowed; NULL when added */
	const struct op_row *new;	/* borrowed; NULL when removed */
	enum diff_match	 match;
	double		 base_value;	/* op_by_value(), 0 when absent */
	double		 new_value;
	double		 delta;		/* new_value - base_value */
};

/* "same", "renamed", "added", "removed". */
const char	*diff_match_name(enum diff_match m);
/* name without trailing ".<digits>" parts; a new string, caller frees. */
char		*diff_stem(const char *name);
/*
 * Pairs the rows and measures them by `by`; *pairs is new (caller frees
 * the array only), sorted by the size of the change, largest first, then
 * by name.
 */
void		 diff_ops(const struct op_row *base, size_t nbase,
		    const struct op_row *new, size_t nnew, enum op_by by,
		    struct diff_pair **pairs, size_t *n);
/*
 * Divides each side's values by its divisor (steps or executions: the
 * per-step figure) and sorts the pairs again.
 */
void		 diff_normalize(struct diff_pair *pairs, size_t n,
		    double base_div, double new_div);
/* new / base value; 0 when the base value is 0. */
double		 diff_ratio(const struct diff_pair *p);
/* Relative change in percent, (new / base - 1) * 100; HUGE_VAL if added. */
double		 diff_change_pct(const struct diff_pair *p);
/*
 * The larger of the pair's shares of its side's total, in percent
 * (base_total and new_total: the sum of each side's values).
 */
double		 diff_share_pct(const struct diff_pair *p, double base_total,
		    double new_total);

#endif
