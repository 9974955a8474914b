/* The SQLite index: opening it, its schema and its event-level tables. */
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/err.h"
#include "index/index-db.h"
#include "index/index.h"
#include "index/index-schema.h"
#include "lib/xmalloc.h"

/* How long a process waits for another one holding the index (ms). */
#define BUSY_TIMEOUT_MS	(10 * 60 * 1000)
/*
 * Only the main thread touches the connection (index workers decode files,
 * never SQL), so SQLite's per-call mutexes are pure cost.
 */
#define INDEX_OPEN_FLAGS	SQLITE_OPEN_NOMUTEX

/* The schema version stored in the database; 0 if it has none. */
static int
stored_version(struct index *ix)
{
	sqlite3_stmt *st;
	int v = 0;

	if (sqlite3_prepare_v2(ix->db,
	    "SELECT value FROM meta WHERE key = 'schema_version'", -1, &st,
	    NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = atoi((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* Whether the database file is still empty: a new index. */
static int
is_new(struct index *ix)
{
	sqlite3_stmt *st;
	int pages = -1;

	if (sqlite3_prepare_v2(ix->db, "PRAGMA page_count", -1, &st,
	    NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		pages = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return pages == 0;
}

/*
 * What the file at path is, read before SQLite opens it (SQLite would
 * write beside another program's database, or block on a FIFO): nothing
 * yet (a new index), jaxprof's (by the application id in its header), or
 * not jaxprof's, with why in *why.
 */
enum index_file { IXF_NEW, IXF_OURS, IXF_NOT_OURS, IXF_NOT_FILE };

/* Whether the SQLite database at path has no table, index or view. */
static int
is_empty_db(const char *path)
{
	unsigned char page[108];
	char *wal = xasprintf("%s-wal", path);
	struct stat sb;
	int fd, empty = 0;

	if (stat(wal, &sb) == -1 || sb.st_size == 0) {
		/* Page 1's b-tree header follows the 100-byte file header. */
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) != -1) {
			empty = read(fd, page, sizeof page) ==
			    (ssize_t)sizeof page && page[100] == 0x0d &&
			    page[103] == 0 && page[104] == 0;
			(void)close(fd);
		}
	}
	free(wal);
	return empty;
}

static enum index_file
index_file_kind(const char *path, char **why)
{
	static const char magic[] = "SQLite format 3";
	unsigned char head[100];
	struct stat sb;
	uint32_t app;
	ssize_t n;
	int fd;

	*why = NULL;
	if (stat(path, &sb) == -1)
		return IXF_NEW;		/* SQLite says why it cannot create it */
	if (!S_ISREG(sb.st_mode)) {
		*why = xstrdup("not a regular file");
		return IXF_NOT_FILE;
	}
	if (sb.st_size == 0)
		return IXF_NEW;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1)
		return IXF_NEW;		/* SQLite says why it cannot open it */
	n = read(fd, head, sizeof head);
	(void)close(fd);
	if (n != (ssize_t)sizeof head || memcmp(head, magic, sizeof magic) != 0) {
		*why = xstrdup("not an SQLite database");
		return IXF_NOT_OURS;
	}
	/* The header's application id: 4 bytes, big-endian, at 68. */
	app = (uint32_t)head[68] << 24 | (uint32_t)head[69] << 16 |
	    (uint32_t)head[70] << 8 | head[71];
	/*
	 * A database without a table (page 1 a leaf of no cells, and no
	 * write-ahead log that may hold some): nothing to lose, taken.
	 */
	if (app == 0 && is_empty_db(path))
		return IXF_NEW;
	if (app != INDEX_APPLICATION_ID) {
		*why = xasprintf("an SQLite database with application id "
		    "0x%08x, not jaxprof's 0x%08x; an index of a jaxprof "
		    "before schema version 12 has none", (unsigned)app,
		    (unsigned)INDEX_APPLICATION_ID);
		return IXF_NOT_OURS;
	}
	return IXF_OURS;
}

/* Whether the open database holds the row that only jaxprof writes. */
/* -1 when it cannot be read: a damaged database (SQLite's message). */
static int
has_jaxprof_row(struct index *ix)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(ix->db, "SELECT 1 FROM meta WHERE key = "
	    "'application' AND value = '" INDEX_APPLICATION_ROW "'", -1, &st,
	    NULL);
	if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
		return -1;
	if (rc != SQLITE_OK)
		return 0;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Creates the schema, dropping an index of another version first. */
static int
ensure_schema(struct index *ix, char **cause)
{
	sqlite3_stmt *st;
	char *sql;

	if (index_exec(ix, "BEGIN IMMEDIATE", cause) == -1)
		return -1;
	if (stored_version(ix) == INDEX_SCHEMA_VERSION)
		return index_exec(ix, "COMMIT", cause);
	/* An index of another version: rebuilt from scratch. */
	st = index_prepare(ix, "SELECT name FROM sqlite_master "
	    "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
	while (index_row(st)) {
		sql = xasprintf("DROP TABLE IF EXISTS \"%s\"",
		    (const char *)sqlite3_column_text(st, 0));
		sqlite3_reset(st);
		if (index_exec(ix, sql, cause) == -1) {
			free(sql);
			sqlite3_finalize(st);
			return -1;
		}
		free(sql);
	}
	sqlite3_finalize(st);
	if (index_schema_create(ix->db) != SQLITE_OK) {
		*cause = index_errmsg(ix->db);
		return -1;
	}
	return index_exec(ix, "COMMIT", cause);
}

/*
 * While another process writes the index (a new one, still in rollback
 * mode) or turns it to WAL, this pragma answers SQLITE_BUSY at once,
 * without calling the busy handler: wait and retry.
 */
static int
set_wal(struct index *ix, char **cause)
{
	int rc, waited;

	for (waited = 0; (rc = sqlite3_exec(ix->db, "PRAGMA journal_mode = WAL",
	    NULL, NULL, NULL)) == SQLITE_BUSY && waited < BUSY_TIMEOUT_MS;
	    waited += 10)
		sqlite3_sleep(10);
	if (rc == SQLITE_OK)
		return 0;
	*cause = index_errmsg(ix->db);
	return -1;
}

/*
 * Whether the index at path can only be read: it exists, and it or its
 * folder (where SQLite writes its -wal and -shm files) is not writable,
 * as on a read-only mount.
 */
static int
is_readonly(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int ro;

	if (slash == dir)
		slash[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
	else {
		free(dir);
		dir = xstrdup(".");
	}
	ro = access(path, F_OK) == 0 &&
	    (access(path, W_OK) == -1 || access(dir, W_OK) == -1);
	free(dir);
	return ro;
}

/*
 * Whether a rollback journal lies beside the index: a write was cut off
 * (a new index is built with one) and only a writer can play it back.
 */
static int
has_journal(const char *path)
{
	char *journal = xasprintf("%s-journal", path);
	struct stat sb;
	int has = stat(journal, &sb) == 0 && sb.st_size > 0;

	free(journal);
	return has;
}

/*
 * An index on read-only storage, opened immutable (no locks, no journal):
 * it answers when it is up to date, and index_refresh() says so when not.
 */
static int
open_readonly(struct index *ix, char **cause)
{
	char *uri, *u;
	const char *p;
	sqlite3_stmt *st = NULL;
	int ok;

	/* Immutable, SQLite would read the pages the cut-off write left. */
	if (has_journal(ix->path)) {
		*cause = xasprintf("index '%s' is read-only and was left "
		    "part-written (its -journal is beside it); %s", ix->path,
		    INDEX_WRITABLE_HINT);
		return -1;
	}
	uri = u = xmalloc(strlen(ix->path) * 3 + 32);

	/* A URI: '%', '?' and '#' in the path are escaped. */
	u += sprintf(u, "file:");
	for (p = ix->path; *p != '\0'; p++)
		if (*p == '%' || *p == '?' || *p == '#')
			u += sprintf(u, "%%%02x", (unsigned char)*p);
		else
			*u++ = *p;
	strcpy(u, "?immutable=1");

	ix->readonly = 1;
	if (sqlite3_open_v2(uri, &ix->db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_URI | INDEX_OPEN_FLAGS, NULL) != SQLITE_OK) {
		*cause = xasprintf("cannot open index '%s': %s", ix->path,
		    ix->db != NULL ? sqlite3_errmsg(ix->db) : "out of memory");
		free(uri);
		return -1;
	}
	free(uri);
	ok = sqlite3_prepare_v2(ix->db, "SELECT value FROM meta WHERE "
	    "key = 'schema_version'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_int(st, 0) == INDEX_SCHEMA_VERSION;
	sqlite3_finalize(st);
	if (!ok) {
		*cause = xasprintf("index '%s' is read-only and not of this "
		    "jaxprof's version; %s", ix->path, INDEX_WRITABLE_HINT);
		return -1;
	}
	if (index_exec(ix, "CREATE TEMP TABLE selected("
	    "file_id INTEGER PRIMARY KEY)", cause) == -1)
		return -1;
	return 0;
}

/* Whether the index holds the event-level tables. */
static int
has_events(struct index *ix)
{
	return index_has_table(ix, "host_events");
}

/* Whether the index holds the memory tables. */
static int
has_memory(struct index *ix)
{
	return index_has_table(ix, "memory_allocators");
}

/*
 * index_open(); -1 when it fails, -2 when the file is not a jaxprof index
 * and -3 when it is damaged (both left as they are), *cause set.
 */
static int
open_index(struct index **ixp, const char *path, char **cause)
{
	struct index *ix;
	enum index_file kind;
	char *why;
	int fresh, ours;

	/* Another program's file is refused before SQLite touches it. */
	if ((kind = index_file_kind(path, &why)) == IXF_NOT_FILE ||
	    kind == IXF_NOT_OURS) {
		*cause = xasprintf("index '%s': %s%s", path, why,
		    kind == IXF_NOT_OURS ? " (not a jaxprof index)" : "");
		free(why);
		return kind == IXF_NOT_FILE ? -1 : -2;
	}
	ix = xcalloc(1, sizeof *ix);
	ix->path = xstrdup(path);
	if (is_readonly(path)) {
		if (open_readonly(ix, cause) == -1) {
			index_close(ix);
			return -1;
		}
		ix->events = has_events(ix);
		ix->memory = has_memory(ix);
		index_track(ix);
		*ixp = ix;
		return 0;
	}
	if (sqlite3_open_v2(path, &ix->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | INDEX_OPEN_FLAGS, NULL) != SQLITE_OK) {
		*cause = xasprintf("cannot open index '%s': %s", path,
		    ix->db != NULL ? sqlite3_errmsg(ix->db) : "out of memory");
		index_close(ix);
		return -1;
	}
	sqlite3_busy_timeout(ix->db, BUSY_TIMEOUT_MS);
	if (kind == IXF_OURS && (ours = has_jaxprof_row(ix)) != 1) {
		if (ours == 0)
			*cause = xasprintf("index '%s': jaxprof's application "
			    "id but not its meta row (not a jaxprof index)",
			    path);
		else {
			char *m = index_errmsg(ix->db);

			*cause = xasprintf("index '%s': %s", path, m);
			free(m);
		}
		index_close(ix);
		return ours == 0 ? -2 : -3;
	}
	/*
	 * The index is a cache of the profiles: writes go to the operating
	 * system without waiting for the disk (bench/RESULTS.md measures the
	 * fsyncs).  A killed run still loses nothing it committed;
	 * after a power loss the index may be damaged, and says so.
	 *
	 * A new index gets 16 KiB pages: every page written costs system
	 * calls, four times fewer than with 4 KiB pages.  An existing index keeps its size.  The
	 * cache is then set again in KiB: SQLite counted its default 2 MiB
	 * as 500 pages at open, which is 8 MiB of 16 KiB pages.
	 *
	 * A new index is built with a rollback journal, and the next open
	 * turns it to WAL, which lets reports read while another process
	 * writes.  Built in WAL, every page would be written twice (to the
	 * log, then back at the checkpoint); a rollback journal keeps only
	 * the few pages that existed before.
	 */
	fresh = is_new(ix);
	if (index_exec(ix, "PRAGMA synchronous = OFF", cause) == -1 ||
	    index_exec(ix, INDEX_PAGE_SIZE_SQL, cause) == -1 ||
	    index_exec(ix, "PRAGMA cache_size = -2000", cause) == -1 ||
	    (!fresh && set_wal(ix, cause) == -1) ||
	    ensure_schema(ix, cause) == -1 ||
	    index_exec(ix, "CREATE TEMP TABLE selected("
	    "file_id INTEGER PRIMARY KEY)", cause) == -1) {
		char *c = *cause;
		int damaged = sqlite3_errcode(ix->db) == SQLITE_CORRUPT ||
		    sqlite3_errcode(ix->db) == SQLITE_NOTADB;

		*cause = xasprintf("index '%s': %s", path, c);
		free(c);
		index_close(ix);
		return damaged ? -3 : -1;
	}
	ix->events = has_events(ix);
	ix->memory = has_memory(ix);
	index_track(ix);
	*ixp = ix;
	return 0;
}

/*
 * Makes a set of tables made on demand (what, for a message) unless the
 * index has them (*have); has() says whether another process made them.
 */
static int
want_tables(struct index *ix, int *have, const char *what,
    int (*has)(struct index *), int (*create)(sqlite3 *), char **cause)
{
	if (*have)
		return 0;
	if (ix->readonly) {
		*cause = xasprintf("index '%s' is read-only and has no %s "
		    "(made by the first command that reads them, or jaxprof "
		    "index --%s); %s", ix->path, what,
		    have == &ix->events ? "events" : "memory",
		    INDEX_WRITABLE_HINT);
		return -1;
	}
	if (index_exec(ix, "BEGIN IMMEDIATE", cause) == -1)
		return -1;
	/* Another process may have made them meanwhile. */
	if (!has(ix) && create(ix->db) != SQLITE_OK) {
		*cause = index_errmsg(ix->db);
		sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (index_exec(ix, "COMMIT", cause) == -1)
		return -1;
	*have = 1;
	return 0;
}

int
index_want_events(struct index *ix, char **cause)
{
	return want_tables(ix, &ix->events, "event-level tables", has_events,
	    index_schema_create_events, cause);
}

int
index_want_memory(struct index *ix, char **cause)
{
	return want_tables(ix, &ix->memory, "memory tables", has_memory,
	    index_schema_create_memory, cause);
}

int
index_open(struct index **ixp, const char *path, char **cause)
{
	int rc = open_index(ixp, path, cause);
	char *c;

	if (rc != -2)
		return rc == 0 ? 0 : -1;
	c = *cause;
	*cause = xasprintf("%s; left as it is", c);
	free(c);
	return -1;
}

int
index_open_cache(struct index **ixp, const char *path, char **cause)
{
	char *to;
	int rc = open_index(ixp, path, cause);

	if (rc == -1)
		return -1;
	if (rc != 0) {
		/* A cache: what is not an index is set aside, and one built. */
		if (index_set_aside(path, &to) == -1) {
			free(to);
			return -1;
		}
		jp_warnx("%s; set aside as '%s', building the index again",
		    *cause, to);
		free(*cause);
		*cause = NULL;
		free(to);
		if (open_index(ixp, path, cause) != 0)
			return -1;
	}
	(*ixp)->cache = 1;
	return 0;
}

void
index_close(struct index *ix)
{
	size_t i;

	if (ix == NULL)
		return;
	index_forget(ix);
	for (i = 0; i < ix->ncached; i++) {
		sqlite3_finalize(ix->cached[i].st);
		free(ix->cached[i].sql);
	}
	sqlite3_close(ix->db);
	free(ix->path);
	free(ix);
}
