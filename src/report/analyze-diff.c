/* Diff math: op matching across two profiles and the change measures. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-diff.h"
#include "lib/checked.h"
#include "lib/err.h"
#include "lib/xmalloc.h"

const char *
diff_match_name(enum diff_match m)
{
	switch (m) {
	case MATCH_SAME:
		return "same";
	case MATCH_RENAMED:
		return "renamed";
	case MATCH_ADDED:
		return "added";
	case MATCH_REMOVED:
		return "removed";
	}
	return "";
}

const char *
diff_outcome(const struct diff_pair *p)
{
	if (p->match != MATCH_SAME)
		return diff_match_name(p->match);
	if (p->base_value == p->new_value ||
	    fabs(diff_change_pct(p)) <= DIFF_SAME_PCT)
		return "same";
	return "changed";
}

const char *
diff_pairing_name(enum diff_pairing how)
{
	switch (how) {
	case PAIRED_IDENTITY:
		return "identity";
	case PAIRED_SUMMED:
		return "identity-summed";
	case PAIRED_NAME:
		return "name";
	case PAIRED_STEM:
		return "stem";
	case PAIRED_NONE:
		return "";
	}
	return "";
}

/* The framework op, unless it is only the HLO name again. */
static const char *
framework_op_of(const struct op_row *row)
{
	return strcmp(row->framework_op, row->name) != 0 ?
	    row->framework_op : "";
}

/* Whether row has an identity to pair by (a framework op or source). */
static int
diff_has_identity(const struct op_row *row)
{
	return *framework_op_of(row) != '\0' || *row->source != '\0';
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

/*
 * strcmp() but runs of digits compare as numbers: "fusion.9" before
 * "fusion.10", the order XLA made them in.
 */
static int
natural_cmp(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			size_t la, lb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (la = 0; isdigit((unsigned char)a[la]); la++)
				;
			for (lb = 0; isdigit((unsigned char)b[lb]); lb++)
				;
			if (la != lb)
				return la < lb ? -1 : 1;
			if ((c = strncmp(a, b, la)) != 0)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* A row and its matching key, for sorting one side. */
struct keyed {
	const struct op_row *row;
	char		*key;	/* "" never pairs */
	int		 has_id;
	int		 used;
};

enum key_kind {
	KEY_IDENTITY,
	KEY_NAME,
	KEY_STEM,
};

/* Key, then the HLO names in their natural order. */
static int
cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : natural_cmp(x->row->name, y->row->name);
}

/* The key of kind for row, fields joined by a separator no name holds. */
static char *
make_key(const struct keyed *k, enum key_kind kind)
{
	const struct op_row *row = k->row;
	char *s, *key;

	switch (kind) {
	case KEY_IDENTITY:
		if (!k->has_id)
			return xstrdup("");
		return xasprintf("%s\x1f%s\x1f%s\x1f%s", row->module,
		    row->category, framework_op_of(row), row->source);
	case KEY_NAME:
		return xasprintf("%s\x1f%s", row->name, row->module);
	case KEY_STEM:
		break;
	}
	s = diff_stem(row->name);
	key = xasprintf("%s\x1f%s\x1f%s", s, row->category, row->module);
	free(s);
	return key;
}

static struct keyed *
keyed_new(const struct op_row *rows, size_t n, int by_identity)
{
	struct keyed *k = xcalloc(n + 1, sizeof *k);
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].row = &rows[i];
		k[i].has_id = by_identity && diff_has_identity(&rows[i]);
	}
	return k;
}

/* (Re-)keys the rows by kind and sorts them so. */
static void
keyed_rekey(struct keyed *k, size_t n, enum key_kind kind)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(k[i].key);
		k[i].key = make_key(&k[i], kind);
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

static struct diff_pair *
add_pair(struct diff_pair **pairs, size_t *n, const struct op_row *base,
    const struct op_row *new, enum diff_pairing how)
{
	struct diff_pair *p;

	*pairs = xreallocarray(*pairs, *n + 1, sizeof **pairs);
	p = &(*pairs)[(*n)++];
	memset(p, 0, sizeof *p);
	p->base = base;
	p->new = new;
	p->paired_by = how;
	p->nbase = base != NULL;
	p->nnew = new != NULL;
	if (base == NULL)
		p->match = MATCH_ADDED;
	else if (new == NULL)
		p->match = MATCH_REMOVED;
	else
		p->match = strcmp(base->name, new->name) == 0 ? MATCH_SAME :
		    MATCH_RENAMED;
	return p;
}

/*
 * One row of the m ops k[0..m-1] share an identity with: the first's name
 * and texts, "(+N)" after the name, the others' counts and times added.
 */
static struct op_row *
sum_rows(const struct keyed *k, size_t m)
{
	struct op_row *sum = xcalloc(1, sizeof *sum);
	size_t i;

	op_row_copy(sum, k[0].row);
	free(sum->name);
	sum->name = xasprintf("%s (+%zu)", k[0].row->name, m - 1);
	for (i = 1; i < m; i++) {
		const struct op_row *r = k[i].row;

		sum->count = sat_add(sum->count, r->count);
		sum->total_ps = sat_add(sum->total_ps, r->total_ps);
		sum->self_ps = sat_add(sum->self_ps, r->self_ps);
		if (r->has_min && (!sum->has_min || r->min_ps < sum->min_ps)) {
			sum->min_ps = r->min_ps;
			sum->has_min = 1;
		}
		if (r->has_max && (!sum->has_max || r->max_ps > sum->max_ps)) {
			sum->max_ps = r->max_ps;
			sum->has_max = 1;
		}
		if (r->has_flops) {
			sum->flops = sat_add(sum->flops, r->flops);
			sum->has_flops = 1;
		}
		if (r->has_bytes) {
			sum->bytes = sat_add(sum->bytes, r->bytes);
			sum->has_bytes = 1;
		}
	}
	return sum;
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

/* Pairs the ra ops of a with the rb of b that share their key. */
static void
pair_run(struct keyed *a, size_t ra, struct keyed *b, size_t rb,
    enum key_kind kind, struct diff_pair **pairs, size_t *n)
{
	struct diff_pair *p;
	size_t x;

	switch (kind) {
	case KEY_IDENTITY:
		if (ra == rb) {
			for (x = 0; x < ra; x++) {
				a[x].used = b[x].used = 1;
				add_pair(pairs, n, a[x].row, b[x].row,
				    PAIRED_IDENTITY);
			}
			return;
		}
		p = add_pair(pairs, n, NULL, NULL, PAIRED_SUMMED);
		p->base = p->owned[0] = sum_rows(a, ra);
		p->new = p->owned[1] = sum_rows(b, rb);
		p->nbase = ra;
		p->nnew = rb;
		p->match = strcmp(a[0].row->name, b[0].row->name) == 0 ?
		    MATCH_SAME : MATCH_RENAMED;
		for (x = 0; x < ra; x++)
			a[x].used = 1;
		for (x = 0; x < rb; x++)
			b[x].used = 1;
		return;
	case KEY_NAME:
		/* Names are unique per side; identities, when both have one,
		 * decide alone. */
		if (a[0].has_id && b[0].has_id)
			return;
		a[0].used = b[0].used = 1;
		add_pair(pairs, n, a[0].row, b[0].row, PAIRED_NAME);
		return;
	case KEY_STEM:
		if (ra != 1 || rb != 1 || (a[0].has_id && b[0].has_id))
			return;
		a[0].used = b[0].used = 1;
		add_pair(pairs, n, a[0].row, b[0].row, PAIRED_STEM);
		return;
	}
}

/* Merges the two sides, sorted by their keys of kind. */
static void
merge(struct keyed *a, size_t na, struct keyed *b, size_t nb,
    enum key_kind kind, struct diff_pair **pairs, size_t *n)
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
		if (*a[i].key != '\0')
			pair_run(&a[i], ra, &b[j], rb, kind, pairs, n);
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
    size_t nnew, enum op_by by, int by_identity, struct diff_pair **pairs,
    size_t *n)
{
	static const enum key_kind passes[] = {
		KEY_IDENTITY, KEY_NAME, KEY_STEM,
	};
	struct keyed *a = keyed_new(base, nbase, by_identity);
	struct keyed *b = keyed_new(new, nnew, by_identity);
	size_t na = nbase, nb = nnew, i;

	*pairs = NULL;
	*n = 0;
	for (i = 0; i < sizeof passes / sizeof passes[0]; i++) {
		keyed_rekey(a, na, passes[i]);
		keyed_rekey(b, nb, passes[i]);
		merge(a, na, b, nb, passes[i], pairs, n);
		na = compact(a, na);
		nb = compact(b, nb);
	}
	for (i = 0; i < na; i++)
		add_pair(pairs, n, a[i].row, NULL, PAIRED_NONE);
	for (i = 0; i < nb; i++)
		add_pair(pairs, n, NULL, b[i].row, PAIRED_NONE);
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
diff_pairs_free(struct diff_pair *pairs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (pairs[i].owned[0] != NULL)
			op_rows_free(pairs[i].owned[0], 1);
		if (pairs[i].owned[1] != NULL)
			op_rows_free(pairs[i].owned[1], 1);
	}
	free(pairs);
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
