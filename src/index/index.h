/*
 * The SQLite index: what reports read instead of the profiles.  Its schema
 * is in index-schema.c and documented in man/jaxprof.1 (INDEX SCHEMA);
 * bump INDEX_SCHEMA_VERSION (index-schema.h) with any change, and old indexes are rebuilt
 * on open.
 *
 *	struct index *ix;
 *	if (index_open(&ix, "/tmp/x.sqlite", &cause) == -1) ...;
 *	nbad = index_refresh(ix, &found, quiet);   (fills temp table "selected")
 *	sqlite3_stmt *st = index_prepare(ix, "SELECT ... JOIN selected ...");
 *	index_close(ix);
 */
#ifndef JAXPROF_INDEX_H
#define JAXPROF_INDEX_H

#include <sqlite3.h>

#include "load/discover.h"
#include "index/index-db.h"

struct index;

/*
 * For a command that reads the event-level tables (host_events,
 * executions, hlo_instructions): creates them when the index has none, and index_refresh() then reads again every
 * file stored without their rows (files.event_rows = 0).  On a read-only
 * index the refresh fails unless they are there.  -1 with *cause.
 */
int	index_want_events(struct index *ix, char **cause);
/*
 * The same for the memory tables (memory_allocators, memory_samples,
 * memory_allocations, program_memory, memory_buffers; files.memory_rows).
 */
int	index_want_memory(struct index *ix, char **cause);

/*
 * A D2H host call's waiting, in SQL over transfers t: from its start to
 * the end of the last program execution of its file that overlaps it (the
 * host blocks until the program that computes the value is done, as
 * float(loss) does; with asynchronous dispatch that program may start
 * after the call), at most its duration; 0 for other calls and for copies
 * on a device.  Stored per file in transfer_totals, and shown per call.
 */
#define INDEX_WAIT_PS_SQL \
	"(CASE WHEN t.on_host AND t.direction = 'D2H' THEN max(0, " \
	"min(t.dur_ps, coalesce((SELECT max(e.start_ps + e.dur_ps) FROM " \
	"executions e WHERE e.file_id = t.file_id AND " \
	"e.start_ps < t.start_ps + t.dur_ps AND " \
	"e.start_ps + e.dur_ps > t.start_ps), t.start_ps) - t.start_ps)) " \
	"ELSE 0 END)"

/* How to get a writable index, for messages. */
#define INDEX_WRITABLE_HINT	"give a writable index with --db=FILE or " \
	"$JAXPROF_DB, or set $XDG_CACHE_HOME to a writable folder"

/*
 * Opens or creates the database at path; -1 with *cause (caller frees).
 * An index on read-only storage is opened read-only: it answers when it
 * holds every file as it is now, and index_refresh() fails otherwise.
 */
int		 index_open(struct index **ix, const char *path, char **cause);
/*
 * The same for the default index, a cache: a file there that is not a
 * jaxprof index or is damaged is renamed to path.damaged (its -wal, -shm
 * and -journal with it), said on stderr, and a new index is built.
 * index_open() refuses such a file and leaves it as it is; both refuse
 * what is not a regular file before opening it.
 */
int		 index_open_cache(struct index **ix, const char *path,
		    char **cause);
void		 index_close(struct index *ix);

/*
 * Brings the index up to date with the files found: unchanged files (same
 * size and mtime) are not read again, changed or new ones are re-read and
 * stored in batches (each file all or nothing), and files gone from under
 * the roots are dropped.
 * Fills the temporary table selected(file_id) with the found files.
 * Prints one message per unreadable file and returns how many there were
 * (-1 on a database error, already reported).
 */
int		 index_refresh(struct index *ix, const struct found *found);


#endif
