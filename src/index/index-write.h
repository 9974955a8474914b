/* Storing one file's summary in the index, all or nothing (index-write.c). */
#ifndef JAXPROF_INDEX_WRITE_H
#define JAXPROF_INDEX_WRITE_H

#include "classify/classify.h"
#include "load/discover.h"
#include "index/index-db.h"

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

#endif
