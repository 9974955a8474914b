/* Op rows: an op's (or kernel's) sums, folded from stored rows. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "index/index-rows.h"
#include "index/op-rows.h"
#include "lib/checked.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

/* How a column of the stored rows folds into an op's row, as SQL would. */
enum fold {
	FOLD_KEY,	/* name, module: what rows are grouped by */
	FOLD_SUM,	/* sum(): NULLs left out */
	FOLD_MIN,	/* min() */
	FOLD_MAX,	/* max() */
	FOLD_MIN_TEXT,	/* min() of a text */
	FOLD_MAX_TEXT,	/* max() of a text */
};

#define NONE	((size_t)-1)
#define AT(m)	offsetof(struct op_row, m)

/*
 * The columns of an op row, in the order stored rows are selected and
 * the run totals stored: the column of ops, of kernels (which have no
 * self time of their own: self is total), how it folds, where it goes in
 * struct op_row and the has_* flag set when a value was seen.
 */
static const struct op_col {
	const char	*ops, *kernels;
	const char	*totals;	/* run_totals', where not ops' */
	enum fold	 fold;
	size_t		 at, has;
} op_cols[] = {
	{ "name", "name", NULL, FOLD_KEY, AT(name), NONE },
	{ "module", "coalesce(o.module, '')", NULL, FOLD_KEY, AT(module),
	    NONE },
	{ "category", "coalesce(o.category, o.op)", NULL, FOLD_MIN_TEXT,
	    AT(category), NONE },
	{ "count", "count", NULL, FOLD_SUM, AT(count), NONE },
	{ "total_ps", "total_ps", NULL, FOLD_SUM, AT(total_ps), NONE },
	{ "self_ps", "total_ps", NULL, FOLD_SUM, AT(self_ps), NONE },
	{ "min_ps", "min_ps", NULL, FOLD_MIN, AT(min_ps), AT(has_min) },
	{ "max_ps", "max_ps", NULL, FOLD_MAX, AT(max_ps), AT(has_max) },
	{ "flops", NULL, NULL, FOLD_SUM, AT(flops), AT(has_flops) },
	{ "bytes_accessed", NULL, NULL, FOLD_SUM, AT(bytes), AT(has_bytes) },
	{ "framework_op", "coalesce(o.framework_op, '')", NULL,
	    FOLD_MIN_TEXT, AT(framework_op), NONE },
	{ "source", "source", NULL, FOLD_MAX_TEXT, AT(source), NONE },
	{ "source_function", NULL, NULL, FOLD_MAX_TEXT, AT(source_function),
	    NONE },
	{ "NULL", "details", "details", FOLD_MIN_TEXT, AT(details), NONE },
	{ "NULL", "op", "hlo_op", FOLD_MIN_TEXT, AT(hlo_op), NONE },
	{ "precision", "NULL", NULL, FOLD_MIN_TEXT, AT(precision), NONE },
};

#define NOP_COLS	(sizeof op_cols / sizeof op_cols[0])

static int64_t *
int_at(struct op_row *row, size_t at)
{
	return (int64_t *)(void *)((char *)row + at);
}

static char **
text_at(struct op_row *row, size_t at)
{
	return (char **)(void *)((char *)row + at);
}

static int *
flag_at(struct op_row *row, size_t at)
{
	return (int *)(void *)((char *)row + at);
}

/* The columns rows are grouped by: name, module, and three texts. */
static const int keycols[] = { 0, 1, 10, 11, 13 };
#define NKEYS	(sizeof keycols / sizeof keycols[0])

/*
 * Folds one stored row (one file, device and op) into its op's row; keys
 * are the row's texts of keycols[] as read.  A text that is part of the
 * key is the same in every row of the op but where NULL, so it is kept
 * the first time it is not NULL, not compared.
 */
static void
fold_row(struct op_row *row, sqlite3_stmt *st, const char **keys)
{
	size_t i, k = 0;

	for (i = 0; i < NOP_COLS; i++) {
		const struct op_col *c = &op_cols[i];
		int col = (int)i, *has, null;
		int64_t v, *acc = int_at(row, c->at);
		const char *t;
		char **text;

		if (k < NKEYS && keycols[k] == col) {
			text = text_at(row, c->at);
			if (c->fold != FOLD_KEY && *text == NULL &&
			    keys[k] != NULL)
				*text = xstrdup(keys[k]);
			k++;
			continue;
		}
		has = c->has != NONE ? flag_at(row, c->has) : NULL;
		null = sqlite3_column_type(st, col) == SQLITE_NULL;
		switch (c->fold) {
		case FOLD_KEY:
			break;
		case FOLD_SUM:
			if (null)
				break;
			*acc = sat_add(*acc, sqlite3_column_int64(st, col));
			if (has != NULL)
				*has = 1;
			break;
		case FOLD_MIN:
		case FOLD_MAX:
			v = sqlite3_column_int64(st, col);
			if (!null && (!*has || (c->fold == FOLD_MIN ?
			    v < *acc : v > *acc))) {
				*acc = v;
				*has = 1;
			}
			break;
		case FOLD_MIN_TEXT:
		case FOLD_MAX_TEXT:
			t = (const char *)sqlite3_column_text(st, col);
			text = text_at(row, c->at);
			if (t != NULL && (*text == NULL ||
			    (c->fold == FOLD_MIN_TEXT ? -1 : 1) *
			    strcmp(t, *text) > 0)) {
				free(*text);
				*text = xstrdup(t);
			}
			break;
		}
	}
}

const char *
op_rows_columns(enum op_rows_from from)
{
	static char *list[3];
	size_t i;

	if (list[from] == NULL) {
		char *s = xstrdup(""), *more;

		for (i = 0; i < NOP_COLS; i++) {
			const char *name = from == OP_ROWS_KERNELS ?
			    op_cols[i].kernels : from == OP_ROWS_TOTALS &&
			    op_cols[i].totals != NULL ? op_cols[i].totals :
			    op_cols[i].ops;

			/* Plain column names are o's; expressions say so. */
			more = xasprintf("%s%s%s%s", s, i > 0 ? ", " : "",
			    name == NULL || strspn(name,
			    "abcdefghijklmnopqrstuvwxyz_") != strlen(name) ?
			    "" : "o.", name != NULL ? name : "NULL");
			free(s);
			s = more;
		}
		list[from] = s;
	}
	return list[from];
}

size_t
op_rows_ncolumns(void)
{
	return NOP_COLS;
}

int
op_rows_store(struct index_rows *w, int first, const struct op_row *row,
    char **cause)
{
	size_t i;

	const char *base = (const char *)row;

	for (i = 0; i < NOP_COLS; i++) {
		const struct op_col *c = &op_cols[i];
		int col = first + (int)i, has = 1;
		const char *text;
		int64_t v;

		if (c->has != NONE)
			memcpy(&has, base + c->has, sizeof has);
		if (c->fold == FOLD_KEY || c->fold == FOLD_MIN_TEXT ||
		    c->fold == FOLD_MAX_TEXT) {
			memcpy(&text, base + c->at, sizeof text);
			index_rows_text(w, col, text);
		} else if (has) {
			memcpy(&v, base + c->at, sizeof v);
			index_rows_int(w, col, v);
		}
	}
	return index_rows_end(w, cause);
}

void
op_rows_fold(sqlite3_stmt *st, struct op_row **rows, size_t *n)
{
	struct strmap ops;
	char *key = NULL;
	size_t keycap = 0;

	/*
	 * Summed per (name, module, framework op, source) here: SQL's GROUP
	 * BY sorts every row first, and a logdir of many hosts has many
	 * (bench/RESULTS.md).  Programs that share a module name keep their
	 * own framework ops and source lines.
	 */
	strmap_init(&ops);
	while (index_row(st)) {
		/* name, module, framework_op, source, details */
		const char *keys[NKEYS], *parts[NKEYS];
		size_t lens[NKEYS], klen = 0, p;
		uint32_t id;

		for (p = 0; p < NKEYS; p++) {
			keys[p] = (const char *)sqlite3_column_text(st,
			    keycols[p]);
			parts[p] = keys[p] != NULL ? keys[p] : "";
			lens[p] = strlen(parts[p]);
			klen += lens[p] + 1;
		}
		/*
		 * The key "name\0module\0framework_op\0source\0details"
		 * (a kernel's launch configuration): no NULs.
		 */
		if (keycap < klen) {
			keycap = klen;
			key = xreallocarray(key, keycap, 1);
		}
		for (klen = 0, p = 0; p < NKEYS; p++) {
			memcpy(key + klen, parts[p], lens[p]);
			key[klen + lens[p]] = '\0';
			klen += lens[p] + 1;
		}
		id = strmap_intern(&ops, key, klen - 1);
		if (id == *n) {
			*rows = xgrow1(*rows, *n, sizeof **rows);
			memset(&(*rows)[*n], 0, sizeof **rows);
			(*rows)[*n].name = xstrdup(parts[0]);
			(*rows)[*n].module = xstrdup(parts[1]);
			(*n)++;
		}
		fold_row(&(*rows)[id], st, keys);
	}
	strmap_release(&ops);
	free(key);
}

void
op_rows_free(struct op_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].name);
		free(rows[i].module);
		free(rows[i].category);
		free(rows[i].framework_op);
		free(rows[i].source);
		free(rows[i].source_function);
		free(rows[i].details);
		free(rows[i].hlo_op);
		free(rows[i].precision);
	}
	free(rows);
}
