/* The index's connection: statements kept, run, stepped; errors named. */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "lib/err.h"
#include "index/index-db.h"
#include "lib/xmalloc.h"

/*
 * SQLite's message for the last error, with what to do when the index is
 * damaged (a power loss while it was written: it does not wait for the
 * disk).  The caller frees it.
 */
char *
index_errmsg(sqlite3 *db)
{
	return xasprintf("%s%s", sqlite3_errmsg(db),
	    sqlite3_errcode(db) == SQLITE_CORRUPT ? INDEX_DAMAGED_HINT : "");
}

/* Whether the filesystem holding path has no block left for SQLite. */
static int
disk_full(const char *path)
{
	struct statvfs sv;

	return statvfs(path, &sv) == 0 && sv.f_bavail * sv.f_frsize < 65536;
}

int
index_exec(struct index *ix, const char *sql, char **cause)
{
	if (sqlite3_exec(ix->db, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	/*
	 * A write that failed on a full disk rolls the transaction back
	 * itself: COMMIT then says only "no transaction is active".
	 */
	if (strcmp(sql, "COMMIT") == 0 && sqlite3_get_autocommit(ix->db)) {
		*cause = xasprintf("a write failed and was rolled back%s",
		    disk_full(ix->path) ? ": the disk is full" : "");
		return -1;
	}
	*cause = index_errmsg(ix->db);
	return -1;
}

void
index_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

int
index_step(struct index *ix, sqlite3_stmt *st, char **cause)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	*cause = index_errmsg(ix->db);
	return -1;
}

/* The indexes open, for index_row(), which has only a statement. */
static struct index *open_indexes;

void
index_track(struct index *ix)
{
	ix->next_open = open_indexes;
	open_indexes = ix;
}

void
index_forget(struct index *ix)
{
	struct index **p;

	for (p = &open_indexes; *p != NULL; p = &(*p)->next_open)
		if (*p == ix) {
			*p = ix->next_open;
			return;
		}
}

int
index_set_aside(const char *path, char **to)
{
	static const char *const side[] = { "", "-wal", "-shm", "-journal" };
	size_t i;
	int rc = 0;

	*to = xasprintf("%s.damaged", path);
	for (i = 0; i < sizeof side / sizeof side[0]; i++) {
		char *from = xasprintf("%s%s", path, side[i]),
		    *dest = xasprintf("%s%s", *to, side[i]);

		if (rename(from, dest) == -1 && errno != ENOENT)
			rc = -1;
		free(from);
		free(dest);
	}
	return rc;
}

/* The index open on st's connection, exit 2 as index_row() does. */
static void __attribute__((noreturn))
index_fail(sqlite3 *db)
{
	struct index *ix;
	const char *path = sqlite3_db_filename(db, "main");
	char *to;
	int code = sqlite3_errcode(db);

	for (ix = open_indexes; ix != NULL && ix->db != db; ix = ix->next_open)
		;
	if (ix != NULL)
		path = ix->path;
	/* A cache is only rebuilt: this one is set aside for the next. */
	if (ix != NULL && ix->cache && (code == SQLITE_CORRUPT ||
	    code == SQLITE_NOTADB) && index_set_aside(ix->path, &to) == 0)
		jp_errx(EXIT_TROUBLE, "index '%s': %s; set aside as '%s': "
		    "the next command builds the index again", path,
		    sqlite3_errmsg(db), to);
	jp_errx(EXIT_TROUBLE, "index '%s': %s", path != NULL ? path : "",
	    index_errmsg(db));
}

int
index_row(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	index_fail(sqlite3_db_handle(st));
}

sqlite3_stmt *
index_prepare(struct index *ix, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
		index_fail(ix->db);
	return st;
}

char *
index_column_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return xstrdup(s != NULL ? (const char *)s : "");
}

char *
index_column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

sqlite3_int64
index_column_order(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? INT64_MIN :
	    sqlite3_column_int64(st, i);
}

sqlite3 *
index_db(struct index *ix)
{
	return ix->db;
}

sqlite3_stmt *
index_cached(struct index *ix, const char *sql)
{
	size_t i;

	for (i = 0; i < ix->ncached; i++)
		if (strcmp(ix->cached[i].sql, sql) == 0) {
			sqlite3_reset(ix->cached[i].st);
			sqlite3_clear_bindings(ix->cached[i].st);
			return ix->cached[i].st;
		}
	assert(ix->ncached < INDEX_NCACHED);
	ix->cached[i].sql = xstrdup(sql);
	ix->cached[i].st = index_prepare(ix, sql);
	ix->ncached++;
	return ix->cached[i].st;
}

int
index_has_table(struct index *ix, const char *name)
{
	sqlite3_stmt *st;
	int has = 0;

	if (sqlite3_prepare_v2(ix->db, "SELECT 1 FROM sqlite_master WHERE "
	    "type = 'table' AND name = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	has = index_row(st);
	sqlite3_finalize(st);
	return has;
}
