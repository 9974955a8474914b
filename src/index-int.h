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
 * Rows of one table inserted many to a statement: a statement's start and
 * halt cost SQLite more than inserting one row of a small table.  The
 * values of a row are set by column (1-based; a column not set is NULL),
 * index_rows_end() completes the row, and the rows wait in the writer
 * until a statement's worth is full or index_rows_flush().  Texts set with
 * index_rows_text() must stay valid until then; index_rows_text_copy()
 * keeps a copy.  Rows keep
 * their order, and so their rowids.
 */
struct index_rows;

/* table: a name that outlives the writer (a literal). */
struct index_rows *index_rows_new(struct index *ix, const char *table,
	    int ncols);
void	index_rows_free(struct index_rows *r);
void	index_rows_int(struct index_rows *r, int col, sqlite3_int64 v);
void	index_rows_text(struct index_rows *r, int col, const char *s);
void	index_rows_text_copy(struct index_rows *r, int col, const char *s);
/* Completes the row; -1 with *cause when a full batch fails to insert. */
int	index_rows_end(struct index_rows *r, char **cause);
/* Inserts the rows waiting; -1 with *cause on an error. */
int	index_rows_flush(struct index_rows *r, char **cause);

/*
 * Whether the index holds ff as it is on disk, read (read: 1) or listed
 * only (0); its id if so.
 */
int	index_is_current(struct index *ix, const struct found_file *ff,
	    int read, sqlite3_int64 *id);
/*
 * Writes ff (and fs when it was read; NULL: listed only), replacing what
 * the index held for its path: all or nothing, inside the write
 * transaction the caller holds.
 */
int	index_store_file(struct index *ix, const struct found_file *ff,
	    const struct file_summary *fs, sqlite3_int64 *id, char **cause);
/*
 * A file stored in two halves, so that its programs' HLO goes in while
 * its planes are still being read.  index_store_begin() opens the file's
 * savepoint and writes its files row and the HLO (hlo must not change
 * until the store is finished or abandoned); index_store_finish() writes
 * the rest of fs, whose HLO is hlo, and releases the savepoint;
 * index_store_abandon() rolls the file back (its load failed).  Nothing
 * may commit between begin and finish: the file stays all or nothing.
 * Both return -1 with *cause on a database error, the file rolled back.
 */
struct file_store {
	int		 begun;		/* and not finished or abandoned */
	int		 open;		/* its savepoint is */
	int		 current;	/* found stored already: left as it is */
	sqlite3_int64	 id;
	/* Its plane 0's rowid, fixed by host events stored ahead; or -1. */
	sqlite3_int64	 plane_base;
};
int	index_store_begin(struct index *ix, const struct found_file *ff,
	    const struct hlo_set *hlo, struct file_store *fst, char **cause);
/*
 * Between begin and finish: stores a batch of a host plane's long host
 * events (load_hooks.host_events; the summary finish gets keeps none).
 * The planes of the file get the rowids that follow the table's last at
 * the first batch: finish fails rather than store others.
 */
int	index_store_host_events(struct index *ix, struct file_store *fst,
	    const struct host_event_batch *b, char **cause);
int	index_store_finish(struct index *ix, struct file_store *fst,
	    const struct file_summary *fs, sqlite3_int64 *id, char **cause);
void	index_store_abandon(struct index *ix, struct file_store *fst);
/* Deletes every row of the file at path, inside the caller's transaction. */
int	index_forget_file(struct index *ix, const char *path, char **cause);

/* index-memory.c: a file's memory tables; -1 with *cause. */
struct file_summary;
struct plane_summary;
struct hlo_set;
int	index_write_memory_samples(struct index *ix, sqlite3_int64 file_id,
	    const struct file_summary *fs, const struct plane_summary *p,
	    sqlite3_int64 plane, char **cause);
int	index_write_program_memory(struct index *ix, sqlite3_int64 file_id,
	    const struct hlo_set *hlo, char **cause);

#endif
