/* Op rows: an op's (or kernel's) sums, folded from stored rows. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "op-rows.h"
#include "strmap.h"
#include "xmalloc.h"

/*
 * Keeps in *acc the least (sign < 0) or greatest (sign > 0) non-NULL text
 * of column col seen so far, as SQL's min() and max() do.
 */
static void
keep_extreme(char **acc, sqlite3_stmt *st, int col, int sign)
{
	const char *v = (const char *)sqlite3_column_text(st, col);

	if (v != NULL && (*acc == NULL || sign * strcmp(v, *acc) > 0)) {
		free(*acc);
		*acc = xstrdup(v);
	}
}

/* Adds integer column col to *sum unless it is NULL, as SQL's sum(). */
static void
add_int(int64_t *sum, int *seen, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return;
	if (__builtin_add_overflow(*sum, sqlite3_column_int64(st, col), sum))
		*sum = INT64_MAX;
	*seen = 1;
}

/* Folds one stored row (one file, device and op) into its op's row. */
static void
fold_row(struct op_row *row, sqlite3_stmt *st)
{
	int seen = 0;

	keep_extreme(&row->category, st, 2, -1);
	add_int(&row->count, &seen, st, 3);
	add_int(&row->total_ps, &seen, st, 4);
	add_int(&row->self_ps, &seen, st, 5);
	if (sqlite3_column_type(st, 6) != SQLITE_NULL &&
	    (!row->has_min || sqlite3_column_int64(st, 6) < row->min_ps)) {
		row->min_ps = sqlite3_column_int64(st, 6);
		row->has_min = 1;
	}
	if (sqlite3_column_type(st, 7) != SQLITE_NULL &&
	    (!row->has_max || sqlite3_column_int64(st, 7) > row->max_ps)) {
		row->max_ps = sqlite3_column_int64(st, 7);
		row->has_max = 1;
	}
	add_int(&row->flops, &row->has_flops, st, 8);
	add_int(&row->bytes, &row->has_bytes, st, 9);
	keep_extreme(&row->framework_op, st, 10, -1);
	keep_extreme(&row->source, st, 11, 1);
	keep_extreme(&row->source_function, st, 12, 1);
}

const char *
op_rows_columns(int kernels)
{
	/* Kernels have no self time of their own (self is total). */
	return kernels ?
	    "o.name, coalesce(o.module, ''), coalesce(o.category, o.op), "
	    "o.count, o.total_ps, o.total_ps, o.min_ps, o.max_ps, NULL, NULL, "
	    "coalesce(o.framework_op, ''), o.source, NULL, o.details, o.op" :
	    "o.name, o.module, o.category, o.count, o.total_ps, o.self_ps, "
	    "o.min_ps, o.max_ps, o.flops, o.bytes_accessed, o.framework_op, "
	    "o.source, o.source_function, NULL, NULL";
}

void
op_rows_fold(sqlite3_stmt *st, struct op_row **rows, size_t *n)
{
	struct strmap ops;
	char *key = NULL;
	size_t keycap = 0;

	/*
	 * Summed per (name, module) here: SQL's GROUP BY sorts every row
	 * first, 5x slower on a logdir of many hosts.
	 */
	strmap_init(&ops);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *module = (const char *)sqlite3_column_text(st, 1);
		const char *details = (const char *)sqlite3_column_text(st, 13);
		const char *fw = (const char *)sqlite3_column_text(st, 10);
		size_t nlen = strlen(name), mlen = strlen(module);
		size_t dlen = details != NULL ? strlen(details) + 1 : 0;
		size_t flen = details != NULL && fw != NULL ? strlen(fw) + 1 : 0;
		uint32_t id;

		/*
		 * The key "name\0module", kernels' "\0details\0framework op"
		 * after it: names hold no NUL.
		 */
		if (keycap < nlen + mlen + 1 + dlen + flen) {
			keycap = nlen + mlen + 1 + dlen + flen;
			key = xreallocarray(key, keycap, 1);
		}
		memcpy(key, name, nlen);
		key[nlen] = '\0';
		memcpy(key + nlen + 1, module, mlen);
		if (details != NULL) {
			key[nlen + 1 + mlen] = '\0';
			memcpy(key + nlen + mlen + 2, details, dlen - 1);
		}
		if (flen > 0) {
			key[nlen + mlen + dlen + 1] = '\0';
			memcpy(key + nlen + mlen + dlen + 2, fw, flen - 1);
		}
		id = strmap_intern(&ops, key, nlen + mlen + 1 + dlen + flen);
		if (id == *n) {
			*rows = xgrow1(*rows, *n, sizeof **rows);
			memset(&(*rows)[*n], 0, sizeof **rows);
			(*rows)[*n].name = xstrdup(name);
			(*rows)[*n].module = xstrdup(module);
			if (details != NULL)
				(*rows)[*n].details = xstrdup(details);
			if (sqlite3_column_text(st, 14) != NULL)
				(*rows)[*n].hlo_op = xstrdup((const char *)
				    sqlite3_column_text(st, 14));
			(*n)++;
		}
		fold_row(&(*rows)[id], st);
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
	}
	free(rows);
}
