/*
 * Diff math: pairing two sides' op rows and measuring the change.  No
 * SQL, no I/O; the rows come from summaries (summary.h).
 *
 *	struct diff_pair *p;
 *	size_t n;
 *	diff_ops(base, nbase, new, nnew, BY_DEVICE_TIME, 1, &p, &n);
 *	for (i = 0; i < n; i++) ... p[i].base, p[i].new, p[i].delta ...
 *	diff_pairs_free(p, n);       (the rows are borrowed, not copied)
 *
 * Pairing (jaxprof-diff(1), PAIRING, is the specification): XLA renumbers
 * instructions on every compile, so ops pair first by what they are, their
 * identity: module, category (from the HLO opcode, fusion kind or
 * custom-call target), framework op and source line.  Ops sharing an
 * identity (one per layer) pair in the order of their HLO names when both
 * sides have as many, else each side's are summed into one row.  Ops
 * without an identity (no framework op nor source: TensorFlow, trace
 * JSON), or all ops when by_identity is 0, pair by name and module, then
 * by stem (the name without XLA's numeric suffixes) when that is unique on
 * each side.  Two ops that both have an identity never pair by name
 * alone.  What is left is added (new only) or removed (base only).
 */
#ifndef JAXPROF_ANALYZE_DIFF_H
#define JAXPROF_ANALYZE_DIFF_H

#include <stddef.h>

#include "report/analyze-ops.h"

/* Paired values this close (in percent) are "same", else "changed". */
#define DIFF_SAME_PCT	5.0

enum diff_match {
	MATCH_SAME,	/* paired under the same name */
	MATCH_RENAMED,	/* paired under another name */
	MATCH_ADDED,	/* base is NULL */
	MATCH_REMOVED,	/* new is NULL */
};

enum diff_pairing {
	PAIRED_IDENTITY,	/* one op of the identity on each side */
	PAIRED_SUMMED,		/* an identity's ops summed on each side */
	PAIRED_NAME,		/* same name and module */
	PAIRED_STEM,		/* same stem, category and module */
	PAIRED_NONE,		/* added or removed */
};

struct diff_pair {
	const struct op_row *base;	/* borrowed; NULL when added */
	const struct op_row *new;	/* borrowed; NULL when removed */
	enum diff_match	 match;
	enum diff_pairing paired_by;
	size_t		 nbase, nnew;	/* ops in each side's row */
	struct op_row	*owned[2];	/* summed rows, freed with the pairs */
	double		 base_value;	/* op_by_value(), 0 when absent */
	double		 new_value;
	double		 delta;		/* new_value - base_value */
};

/* "same", "renamed", "added", "removed". */
const char	*diff_match_name(enum diff_match m);
/*
 * What happened to the op: "same" or "changed" (paired under the same
 * name, values within DIFF_SAME_PCT or not), "renamed", "added",
 * "removed".
 */
const char	*diff_outcome(const struct diff_pair *p);
/* "identity", "identity-summed", "name", "stem", "" (unpaired). */
const char	*diff_pairing_name(enum diff_pairing how);
/* name without trailing ".<digits>" parts; a new string, caller frees. */
char		*diff_stem(const char *name);
/*
 * Pairs the rows (by identity first when by_identity) and measures them
 * by `by`; *pairs is new (free with diff_pairs_free()), sorted by the
 * size of the change, largest first, then by name.
 */
void		 diff_ops(const struct op_row *base, size_t nbase,
		    const struct op_row *new, size_t nnew, enum op_by by,
		    int by_identity, struct diff_pair **pairs, size_t *n);
void		 diff_pairs_free(struct diff_pair *pairs, size_t n);
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
