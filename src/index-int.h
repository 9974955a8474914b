/*
 * The index's private parts, shared by index.c (opening, schema),
 * index-write.c (storing one file) and index-refresh.c (refreshing).
 */
#ifndef JAXPROF_INDEX_INT_H
#define JAXPROF_INDEX_INT_H

#include <sqlite3.h>

#include "classify.h"
#include "discover.h"
#include "index.h"

/* Statements prepared once and kept: storing many files re-parses none. */
#define INDEX_NCACHED	64

struct index {
	sqlite3	*db;
	char	*path;
	int	 readonly;	/* on read-only storage: answers, never writes */
	int	 files_changed;	/* a file stored or forgotten, not committed */
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

/* Runs sql; -1 with *cause (caller frees). */
int	index_exec(struct index *ix, const char *sql, char **cause);
/* Binds a copy of s (or NULL) to parameter i. */
void	index_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Steps st once and resets it; -1 with *cause on an error. */
int	index_step(struct index *ix, sqlite3_stmt *st, char **cause);

/* Whether the index holds ff as it is on disk; its id if so. */
int	index_is_current(struct index *ix, const struct found_file *ff,
	    sqlite3_int64 *id);
/*
 * Writes ff (and fs when it was read; NULL: listed only), replacing what
 * the index held for its path: all or nothing, inside the write
 * transaction the caller holds.
 */
int	index_store_file(struct index *ix, const struct found_file *ff,
	    const struct file_summary *fs, sqlite3_int64 *id, char **cause);
/* Deletes every row of the file at path, inside the caller's transaction. */
int	index_forget_file(struct index *ix, const char *path, char **cause);

#endif
