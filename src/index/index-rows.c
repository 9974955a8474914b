/* Rows of one index table, inserted many to a statement (index-rows.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index/index-db.h"
#include "index/index-rows.h"
#include "lib/xmalloc.h"

/* SQLite's smallest limit on parameters of one statement (before 3.32). */
#define MAX_PARAMS	999
/*
 * Rows a statement inserts at most: 16 take most of the statement cost off
 * a row; longer statements cost more to prepare than they save on small
 * profiles.
 */
#define MAX_ROWS	16

enum cell_kind { CELL_NULL, CELL_INT, CELL_TEXT, CELL_COPY };

struct cell {
	enum cell_kind	 kind;
	union {
		sqlite3_int64	 i;
		const char	*text;
		size_t		 copy;	/* offset in index_rows.copies */
	} u;
};

struct index_rows {
	struct index	*ix;
	const char	*table;
	/* Kept by the index (index_cached()), prepared when first needed. */
	sqlite3_stmt	*one, *many;
	int		 ncols;
	int		 max_rows;
	int		 nrows;		/* complete rows waiting in cells */
	int		 cap_rows;	/* grown to max_rows as rows come */
	struct cell	*cells;		/* cap_rows rows of ncols */
	char		*copies;	/* texts the caller does not keep */
	size_t		 copies_len, copies_cap;
};

/* "INSERT OR FAIL INTO table VALUES (?,...)" with nrows rows. */
static char *
insert_sql(const char *table, int ncols, int nrows)
{
	size_t len = strlen(table) + 32 + (size_t)nrows * ((size_t)ncols * 2 + 3);
	char *sql = xmalloc(len), *p;
	int r, c;

	/*
	 * OR FAIL: a failed insert then leaves the rows before it in place,
	 * so SQLite keeps no statement journal for a multi-row insert; the
	 * caller rolls the whole file back on any failure anyway.
	 */
	p = sql + snprintf(sql, len, "INSERT OR FAIL INTO %s VALUES ", table);
	for (r = 0; r < nrows; r++) {
		*p++ = r > 0 ? ',' : ' ';
		*p++ = '(';
		for (c = 0; c < ncols; c++) {
			if (c > 0)
				*p++ = ',';
			*p++ = '?';
		}
		*p++ = ')';
	}
	*p = '\0';
	return sql;
}

struct index_rows *
index_rows_new(struct index *ix, const char *table, int ncols)
{
	struct index_rows *r = xcalloc(1, sizeof *r);

	r->ix = ix;
	r->table = table;
	r->ncols = ncols;
	r->max_rows = MAX_PARAMS / ncols < MAX_ROWS ? MAX_PARAMS / ncols :
	    MAX_ROWS;
	r->cap_rows = 1;
	r->cells = xcalloc((size_t)ncols, sizeof *r->cells);
	return r;
}

void
index_rows_free(struct index_rows *r)
{
	if (r == NULL)
		return;
	free(r->cells);
	free(r->copies);
	free(r);
}

static struct cell *
cell_at(struct index_rows *r, int col)
{
	return &r->cells[r->nrows * r->ncols + col - 1];
}

void
index_rows_int(struct index_rows *r, int col, sqlite3_int64 v)
{
	struct cell *c = cell_at(r, col);

	c->kind = CELL_INT;
	c->u.i = v;
}

void
index_rows_text(struct index_rows *r, int col, const char *s)
{
	struct cell *c = cell_at(r, col);

	c->kind = s != NULL ? CELL_TEXT : CELL_NULL;
	c->u.text = s;
}

void
index_rows_text_copy(struct index_rows *r, int col, const char *s)
{
	struct cell *c = cell_at(r, col);
	size_t len = strlen(s) + 1;

	if (r->copies_len + len > r->copies_cap) {
		r->copies_cap = (r->copies_len + len) * 2;
		r->copies = xreallocarray(r->copies, r->copies_cap, 1);
	}
	memcpy(r->copies + r->copies_len, s, len);
	c->kind = CELL_COPY;
	c->u.copy = r->copies_len;
	r->copies_len += len;
}

/* Binds rows [first, first + n) to st from parameter 1 on, steps it. */
static int
insert(struct index_rows *r, sqlite3_stmt *st, int first, int n,
    char **cause)
{
	const struct cell *c = &r->cells[first * r->ncols];
	int i;

	for (i = 1; i <= n * r->ncols; i++, c++)
		switch (c->kind) {
		case CELL_NULL:
			sqlite3_bind_null(st, i);
			break;
		case CELL_INT:
			sqlite3_bind_int64(st, i, c->u.i);
			break;
		case CELL_TEXT:
			sqlite3_bind_text(st, i, c->u.text, -1, SQLITE_STATIC);
			break;
		case CELL_COPY:
			sqlite3_bind_text(st, i, r->copies + c->u.copy, -1,
			    SQLITE_STATIC);
			break;
		}
	return index_step(r->ix, st, cause);
}

/*
 * The statement inserting nrows rows: a small profile's tables never fill
 * one of max_rows, and preparing it costs as much as a few rows.
 */
static sqlite3_stmt *
statement(struct index_rows *r, sqlite3_stmt **st, int nrows)
{
	if (*st == NULL) {
		char *sql = insert_sql(r->table, r->ncols, nrows);

		*st = index_cached(r->ix, sql);
		free(sql);
	}
	return *st;
}

/* The rows waiting in cells inserted. */
static int
rows_drain(struct index_rows *r, char **cause)
{
	int i, rc = 0;

	if (r->nrows == r->max_rows)
		rc = insert(r, statement(r, &r->many, r->max_rows), 0,
		    r->nrows, cause);
	else
		for (i = 0; i < r->nrows && rc == 0; i++)
			rc = insert(r, statement(r, &r->one, 1), i, 1, cause);
	r->nrows = 0;
	r->copies_len = 0;
	memset(r->cells, 0, (size_t)r->ncols * sizeof *r->cells);
	return rc;
}

int
index_rows_flush(struct index_rows *r, char **cause)
{
	return rows_drain(r, cause);
}

int
index_rows_end(struct index_rows *r, char **cause)
{
	if (++r->nrows == r->max_rows)
		return rows_drain(r, cause);
	if (r->nrows == r->cap_rows) {
		r->cap_rows = r->cap_rows * 2 < r->max_rows ? r->cap_rows * 2 :
		    r->max_rows;
		r->cells = xreallocarray(r->cells,
		    (size_t)r->cap_rows * (size_t)r->ncols, sizeof *r->cells);
	}
	memset(cell_at(r, 1), 0, (size_t)r->ncols * sizeof *r->cells);
	return 0;
}
