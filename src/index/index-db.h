/*
 * The index's connection (index-db.c): the SQLite handle, statements
 * prepared once and kept, and the helpers that run them and name errors.
 */
#ifndef JAXPROF_INDEX_DB_H
#define JAXPROF_INDEX_DB_H

#include <sqlite3.h>

/* After SQLite's message when the index is damaged. */
#define INDEX_DAMAGED_HINT	" (a damaged index: delete it, and jaxprof " \
	"builds it again from the profiles)"

/* Statements prepared once and kept: storing many files re-parses none. */
#define INDEX_NCACHED	80

struct index {
	sqlite3	*db;
	char	*path;
	int	 readonly;	/* on read-only storage: answers, never writes */
	/*
	 * The event-level tables exist (index_want_events()): every file
	 * stored writes its rows there, one stored without is not current.
	 */
	int	 events;
	int	 memory;	/* the memory tables too (index_want_memory) */
	int	 cache;		/* the default cache: set aside when damaged */
	struct index *next_open;	/* the indexes open (index_row()) */
	struct {
		char		*sql;
		sqlite3_stmt	*st;
	}	 cached[INDEX_NCACHED];
	size_t	 ncached;
};

/*
 * The statement for sql, prepared on first use and kept by the index
 * until index_close(): reset, its bindings cleared.  The caller resets it
 * when done (index_step() does) and never finalizes it.
 */
sqlite3_stmt *index_cached(struct index *ix, const char *sql);

/* Whether the index holds a table of that name. */
int	index_has_table(struct index *ix, const char *name);
/* Runs sql; -1 with *cause (caller frees). */
int	index_exec(struct index *ix, const char *sql, char **cause);
/* Binds a copy of s (or NULL) to parameter i. */
void	index_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Steps st once and resets it; -1 with *cause on an error. */
int	index_step(struct index *ix, sqlite3_stmt *st, char **cause);
/*
 * Steps a query: 1 for a row, 0 at its end.  A step that fails (a damaged
 * index, an I/O error) exits 2 naming the index and SQLite's error, never
 * reads as the end of the rows: an error is not an empty answer.  The
 * default cache is set aside first, so the next command builds it again.
 */
int	index_row(sqlite3_stmt *st);
/* Makes ix known to index_row() until index_forget(). */
void	index_track(struct index *ix);
void	index_forget(struct index *ix);
/*
 * Renames path and its -wal, -shm and -journal to path.damaged...; *to
 * is that name (caller frees).  -1 on failure.
 */
int	index_set_aside(const char *path, char **to);


/* SQLite's last error message, with INDEX_DAMAGED_HINT when it applies. */
char		*index_errmsg(sqlite3 *db);
/* A prepared statement, or exits 2 naming the SQLite error. */
sqlite3_stmt	*index_prepare(struct index *ix, const char *sql);
/* A new copy of text column i of the current row; "" for NULL. */
char		*index_column_text(sqlite3_stmt *st, int i);
/* A new copy of text column i of the current row; NULL for NULL. */
char		*index_column_dup(sqlite3_stmt *st, int i);
/*
 * Integer column i of the current row as SQL's ORDER BY ranks it (NULL
 * first, as INT64_MIN): for sorting rows in C.
 */
sqlite3_int64	 index_column_order(sqlite3_stmt *st, int i);
sqlite3		*index_db(struct index *ix);

#endif
