/*
 * Packed rows (index.h): the tables only some commands read, kept
 * compressed in packed_rows by a run that does not need them, and stored
 * in their tables by the first command that does.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "index-int.h"
#include "xmalloc.h"

/* More than a packed batch can hold: the size of a damaged row. */
#define PACKED_MAX_BYTES	((size_t)1 << 30)

void
index_pack(struct index *ix, unsigned tables)
{
	ix->pack = tables & INDEX_PACKABLE;
}

/* "tbl IN ('host_events', ...)" for the tables of the mask; NULL: none. */
static char *
tables_where(unsigned tables)
{
	const char *table;
	char *sql = NULL, *more;
	size_t i;

	for (i = 0; (table = index_packable_nth(i, tables)) != NULL; i++) {
		more = xasprintf("%s%s'%s'", sql != NULL ? sql : "tbl IN (",
		    sql != NULL ? ", " : "", table);
		free(sql);
		sql = more;
	}
	if (sql == NULL)
		return NULL;
	more = xasprintf("%s)", sql);
	free(sql);
	return more;
}

static int
damaged(const char *table, char **cause)
{
	*cause = xasprintf("the packed rows of %s are damaged%s", table,
	    INDEX_DAMAGED_HINT);
	return -1;
}

struct cursor {
	const unsigned char *p, *end;
	/* The packed row's texts so far, for its references (PACKED_REF). */
	const char	**texts;
	size_t		 ntexts, texts_cap;
};

/* The varint at cur into *v; -1 if it does not end in the row. */
static int
get_varint(struct cursor *cur, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	do {
		if (cur->p == cur->end || shift > 63)
			return -1;
		*v |= (uint64_t)(*cur->p & 0x7f) << shift;
		shift += 7;
	} while (*cur->p++ & 0x80);
	return 0;
}

/* One packed cell (index-int.h) into column col of r; -1 if damaged. */
static int
unpack_cell(struct cursor *cur, struct index_rows *r, int col)
{
	const unsigned char *nul;
	uint64_t v;

	if (cur->p == cur->end)
		return -1;
	switch (*cur->p++) {
	case PACKED_NULL:
		return 0;
	case PACKED_INT:
		if (get_varint(cur, &v) == -1)
			return -1;
		/* Zigzag: 0, -1, 1, -2... as 0, 1, 2, 3... */
		index_rows_int(r, col, (v & 1) != 0 ?
		    -(sqlite3_int64)(v >> 1) - 1 : (sqlite3_int64)(v >> 1));
		return 0;
	case PACKED_TEXT:
		nul = memchr(cur->p, '\0', (size_t)(cur->end - cur->p));
		if (nul == NULL)
			return -1;
		if (cur->ntexts == cur->texts_cap) {
			cur->texts_cap = cur->texts_cap * 2 + 64;
			cur->texts = xreallocarray(cur->texts, cur->texts_cap,
			    sizeof *cur->texts);
		}
		cur->texts[cur->ntexts++] = (const char *)cur->p;
		index_rows_text(r, col, (const char *)cur->p);
		cur->p = nul + 1;
		return 0;
	case PACKED_REF:
		if (get_varint(cur, &v) == -1 || v >= cur->ntexts)
			return -1;
		index_rows_text(r, col, cur->texts[v]);
		return 0;
	}
	return -1;
}

/* The nrows rows packed in buf (n bytes) inserted into table. */
static int
unpack_rows(struct index *ix, const char *table, int ncols,
    const unsigned char *buf, size_t n, sqlite3_int64 nrows, char **cause)
{
	struct index_rows *r = index_rows_new(ix, table, ncols);
	struct cursor cur = { buf, buf + n, NULL, 0, 0 };
	sqlite3_int64 i;
	int c, rc = 0;

	for (i = 0; rc == 0 && i < nrows; i++) {
		for (c = 1; rc == 0 && c <= ncols; c++)
			if (unpack_cell(&cur, r, c) == -1)
				rc = damaged(table, cause);
		if (rc == 0)
			rc = index_rows_end(r, cause);
	}
	if (rc == 0 && cur.p != cur.end)
		rc = damaged(table, cause);
	if (rc == 0)
		rc = index_rows_flush(r, cause);
	index_rows_free(r);
	free(cur.texts);
	return rc;
}

/* The packed row st is on, unpacked into its table. */
static int
unpack_one(struct index *ix, sqlite3_stmt *st, unsigned tables,
    char **cause)
{
	const char *name = (const char *)sqlite3_column_text(st, 0);
	sqlite3_int64 nrows = sqlite3_column_int64(st, 1);
	sqlite3_int64 size = sqlite3_column_int64(st, 2);
	const char *table;
	unsigned char *buf;
	int ncols, rc;

	/* tbl is one of tables: the query asked for those alone. */
	table = index_packable_table(name, tables, &ncols);
	if (nrows < 0 || size < 0 || (size_t)size > PACKED_MAX_BYTES)
		return damaged(table, cause);
	buf = xmalloc(size > 0 ? (size_t)size : 1);
	if (ZSTD_decompress(buf, (size_t)size, sqlite3_column_blob(st, 3),
	    (size_t)sqlite3_column_bytes(st, 3)) != (size_t)size)
		rc = damaged(table, cause);
	else
		rc = unpack_rows(ix, table, ncols, buf, (size_t)size, nrows,
		    cause);
	free(buf);
	return rc;
}

/* Whether packed_rows holds rows matching where. */
static int
has_packed(struct index *ix, const char *where)
{
	char *sql = xasprintf("SELECT EXISTS (SELECT 1 FROM packed_rows "
	    "WHERE %s)", where);
	sqlite3_stmt *st = index_prepare(ix, sql);
	int any = sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_int(st, 0) != 0;

	sqlite3_finalize(st);
	free(sql);
	return any;
}

/*
 * A read-only index cannot take them: a temporary copy of each table, which
 * queries find before the index's own, takes its rows and the unpacked.
 */
static int
temp_copies(struct index *ix, unsigned tables, char **cause)
{
	const char *t;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && (t = index_packable_nth(i, tables)) != NULL;
	    i++) {
		char *sql = xasprintf("CREATE TEMP TABLE %s AS SELECT * FROM "
		    "main.%s; CREATE INDEX temp.%s_file ON %s(file_id)", t, t,
		    t, t);
		rc = index_exec(ix, sql, cause);
		free(sql);
	}
	return rc;
}

int
index_unpack(struct index *ix, unsigned tables, char **cause)
{
	char *where, *sql;
	sqlite3_stmt *st;
	int rc = 0, step = SQLITE_DONE;

	/* From now on this run stores them as rows. */
	ix->pack &= ~tables;
	if ((where = tables_where(tables)) == NULL || !has_packed(ix, where)) {
		free(where);
		return 0;
	}
	if ((ix->readonly ? temp_copies(ix, tables, cause) : 0) == -1 ||
	    index_exec(ix, ix->readonly ? "BEGIN" : "BEGIN IMMEDIATE",
	    cause) == -1) {
		free(where);
		return -1;
	}
	/* Another process may have unpacked them while this one waited. */
	sql = xasprintf("SELECT tbl, rows, size, data FROM packed_rows "
	    "WHERE %s ORDER BY rowid", where);
	st = index_prepare(ix, sql);
	free(sql);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = unpack_one(ix, st, tables, cause);
	if (rc == 0 && step != SQLITE_DONE) {
		*cause = index_errmsg(ix->db);
		rc = -1;
	}
	sqlite3_finalize(st);
	if (rc == 0 && !ix->readonly) {
		sql = xasprintf("DELETE FROM packed_rows WHERE %s", where);
		rc = index_exec(ix, sql, cause);
		free(sql);
	}
	free(where);
	if (rc == 0)
		return index_exec(ix, "COMMIT", cause);
	(void)sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
