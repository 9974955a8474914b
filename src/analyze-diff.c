/* Diff math: op matching across two profiles and the change measures. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze-diff.h"
#include "err.h"
#include "xmalloc.h"

const char *
diff_match_name(enum diff_match m)
{
	switch (m) {
	case MATCH_SAME:
		return "same";
	case MATCH_STEM:
		return "renamed";
	case MATCH_ADDED:
		return "added";
	case MATCH_REMOVED:
		return "removed";
	}
	return "";
}

char *
diff_stem(const char *name)
{
	size_t len = strlen(name), i;

	/* Strip ".<digits>" from the end while something is left before. */
	for (;;) {
		i = len;
		while (i > 0 && isdigit((unsigned char)name[i - 1]))
			i--;
		if (i == len || i < 2 || name[i - 1] != '.')
			break;
		len = i - 1;
	}
	return xstrndup(name, len);
}

/* A row and its matching key, for sorting one side. */
struct keyed {
	const struct op_row *row;
	char		*key;
	int		 used;
};

static int
cmp_keyed(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key,
	    ((const struct keyed *)b)->key);
}

/* name, module (or stem, category, module) joined by a separator. */
static char *
make_key(const struct op_row *row, int stem)
{
	char *s, *k;

	if (!stem)
		return xasprintf("%s\x1f%s", row->name, row->module);
	s = diff_stem(row->name);
	k = xasprintf("%s\x1f%s\x1f%s", s, row->category, row->module);
	free(s);
	return k;
}

static struct keyed *
keyed_new(const struct op_row *rows, size_t n)
{
	struct keyed *k = xcalloc(n + 1, sizeof *k);
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].row = &rows[i];
		k[i].key = make_key(&rows[i], 0);
	}
	qsort(k, n, sizeof *k, cmp_keyed);
	return k;
}

/* Re-keys the rows not used yet by stem, and sorts them so. */
static void
keyed_restem(struct keyed *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(k[i].key);
		k[i].key = make_key(k[i].row, 1);
	}
	qsort(k, n, sizeof *k, cmp_keyed);
}

static void
keyed_free(struct keyed *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(k[i].key);
	free(k);
}

static void
add_pair(struct diff_pair **pairs, size_t *n, const struct op_row *base,
    const struct op_row *new, enum diff_match match)
{
	struct diff_pair *p;

	*pairs = xreallocarray(*pairs, *n + 1, sizeof **pairs);
	p = &(*pairs)[(*n)++];
	memset(p, 0, sizeof *p);
	p->base = base;
	p->new = new;
	p->match = match;
}

/* Length of the run of equal keys starting at k[i]. */
static size_t
run_length(const struct keyed *k, size_t n, size_t i)
{
	size_t j = i + 1;

	while (j < n && strcmp(k[j].key, k[i].key) == 0)
		j++;
	return j - i;
}

/*
 * Merges the two sorted sides: with unique_only, a key pairs only when
 * it occurs once on each side (stem matching); otherwise equal keys pair
 * one to one (names and modules are unique per side anyway).
 */
static void
merge(struct keyed *a, size_t na, struct keyed *b, size_t nb,
    int unique_only, enum diff_match match, struct diff_pair **pairs,
    size_t *n)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		int c = strcmp(a[i].key, b[j].key);
		size_t ra, rb;

		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		ra = run_length(a, na, i);
		rb = run_length(b, nb, j);
		if (!unique_only || (ra == 1 && rb == 1)) {
			size_t m = ra < rb ? ra : rb, x;

			for (x = 0; x < m; x++) {
				a[i + x].used = b[j + x].used = 1;
				add_pair(pairs, n, a[i + x].row, b[j + x].row,
				    match);
			}
		}
		i += ra;
		j += rb;
	}
}

/* Moves the unused entries to the front; returns how many. */
static size_t
compact(struct keyed *k, size_t n)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		if (k[i].used) {
			free(k[i].key);
			continue;
		}
		k[m++] = k[i];
	}
	return m;
}

static int
cmp_pairs(const void *a, const void *b)
{
	const struct diff_pair *x = a, *y = b;
	const struct op_row *rx = x->new != NULL ? x->new : x->base;
	const struct op_row *ry = y->new != NULL ? y->new : y->base;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	int c;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if ((c = strcmp(rx->name, ry->name)) != 0)
		return c;
	return strcmp(rx->module, ry->module);
}

void
diff_ops(const struct op_row *base, size_t nbase, const struct op_row *new,
    size_t nnew, enum op_by by, struct diff_pair **pairs, size_t *n)
{
	struct keyed *a = keyed_new(base, nbase), *b = keyed_new(new, nnew);
	size_t na = nbase, nb = nnew, i;

	*pairs = NULL;
	*n = 0;
	merge(a, na, b, nb, 0, MATCH_SAME, pairs, n);
	na = compact(a, na);
	nb = compact(b, nb);
	keyed_restem(a, na);
	keyed_restem(b, nb);
	merge(a, na, b, nb, 1, MATCH_STEM, pairs, n);
	for (i = 0; i < na; i++)
		if (!a[i].used)
			add_pair(pairs, n, a[i].row, NULL, MATCH_REMOVED);
	for (i = 0; i < nb; i++)
		if (!b[i].used)
			add_pair(pairs, n, NULL, b[i].row, MATCH_ADDED);
	keyed_free(a, na);
	keyed_free(b, nb);
	for (i = 0; i < *n; i++) {
		struct diff_pair *p = &(*pairs)[i];

		p->base_value = p->base != NULL ? op_by_value(by, p->base) : 0;
		p->new_value = p->new != NULL ? op_by_value(by, p->new) : 0;
		/* An average that does not exist (count 0) counts as 0. */
		if (p->base_value < 0)
			p->base_value = 0;
		if (p->new_value < 0)
			p->new_value = 0;
		p->delta = p->new_value - p->base_value;
	}
	if (*n > 0)
		qsort(*pairs, *n, sizeof **pairs, cmp_pairs);
}

void
diff_normalize(struct diff_pair *pairs, size_t n, double base_div,
    double new_div)
{
	size_t i;

	for (i = 0; i < n; i++) {
		pairs[i].base_value /= base_div;
		pairs[i].new_value /= new_div;
		pairs[i].delta = pairs[i].new_value - pairs[i].base_value;
	}
	if (n > 0)
		qsort(pairs, n, sizeof *pairs, cmp_pairs);
}

double
diff_ratio(const struct diff_pair *p)
{
	return p->base_value > 0 ? p->new_value / p->base_value : 0;
}

double
diff_change_pct(const struct diff_pair *p)
{
	if (p->base_value > 0)
		return (p->new_value / p->base_value - 1) * 100;
	return p->new_value > 0 ? HUGE_VAL : 0;
}

double
diff_share_pct(const struct diff_pair *p, double base_total,
    double new_total)
{
	double sb = base_total > 0 ? 100 * p->base_value / base_total : 0;
	double sn = new_total > 0 ? 100 * p->new_value / new_total : 0;

	return sb > sn ? sb : sn;
}
