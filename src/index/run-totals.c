/* Op and kernel totals per run: rebuilt after indexing, read by top. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "index/index-db.h"
#include "index/index-rows.h"
#include "index/op-rows.h"
#include "index/run-totals.h"
#include "lib/xmalloc.h"

int
run_totals_mark_stale(struct index *ix, const char *run, char **cause)
{
	sqlite3_stmt *st;

	st = index_cached(ix, "INSERT OR IGNORE INTO stale_runs VALUES (?)");
	index_bind_text(st, 1, run);
	return index_step(ix, st, cause);
}

/* What one part of the totals is: run, device, kind, compile work. */
struct part {
	const char	*run, *device;
	int		 kernels, compile_work;
};

/* Stores the folded rows of one part, many to a statement. */
static int
store_rows(struct index *ix, const struct part *pt, const struct op_row *rows,
    size_t n, char **cause)
{
	struct index_rows *w = index_rows_new(ix, "run_totals",
	    4 + (int)op_rows_ncolumns());
	size_t i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		const struct op_row *row = &rows[i];

		index_rows_text(w, 1, pt->run);
		index_rows_text(w, 2, pt->device);
		index_rows_int(w, 3, pt->kernels);
		index_rows_int(w, 4, pt->compile_work);
		rc = op_rows_store(w, 5, row, cause);
	}
	if (rc == 0)
		rc = index_rows_flush(w, cause);
	index_rows_free(w);
	return rc;
}

/*
 * Folds the stored rows of one part and stores them.  The joins run from
 * the run's files to their planes of that name to those planes' rows
 * (ops_file is (file_id, plane)), not through every row of the table.
 */
static int
rebuild_part(struct index *ix, const struct part *pt, char **cause)
{
	struct op_row *rows = NULL;
	sqlite3_stmt *st;
	size_t n = 0;
	char *sql;
	int rc;

	sql = xasprintf("SELECT %s FROM files f "
	    "CROSS JOIN planes p ON p.file_id = f.id "
	    "CROSS JOIN %s o ON o.file_id = f.id AND o.plane = p.id "
	    "WHERE f.run = ?1 AND p.name = ?2%s",
	    op_rows_columns(pt->kernels ? OP_ROWS_KERNELS : OP_ROWS_OPS),
	    pt->kernels ? "kernels" : "ops",
	    pt->compile_work ? " AND o.compile_work != 0" :
	    " AND o.compile_work = 0");
	st = index_cached(ix, sql);
	free(sql);
	index_bind_text(st, 1, pt->run);
	index_bind_text(st, 2, pt->device);
	op_rows_fold(st, &rows, &n);
	sqlite3_reset(st);
	rc = store_rows(ix, pt, rows, n, cause);
	op_rows_free(rows, n);
	return rc;
}

/* The distinct names of the run's planes: each has totals of its own. */
static char **
run_devices(struct index *ix, const char *run, size_t *n)
{
	sqlite3_stmt *st;
	char **names = NULL;

	st = index_cached(ix, "SELECT DISTINCT p.name FROM files f "
	    "JOIN planes p ON p.file_id = f.id WHERE f.run = ?");
	index_bind_text(st, 1, run);
	*n = 0;
	while (index_row(st)) {
		names = xreallocarray(names, *n + 1, sizeof *names);
		names[(*n)++] =
		    xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_reset(st);
	return names;
}

/*
 * How many of the run's files there are, or (with_rows) hold rows: the
 * plain count first, as most runs are of one file.
 */
static sqlite3_int64
run_files(struct index *ix, const char *run, int with_rows)
{
	sqlite3_stmt *st;
	sqlite3_int64 n;

	st = index_cached(ix, with_rows ? "SELECT count(*) FROM files f "
	    "WHERE f.run = ? AND " RUN_TOTALS_FILE_HAS_ROWS("f") :
	    "SELECT count(*) FROM files WHERE run = ?");
	index_bind_text(st, 1, run);
	n = index_row(st) ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_reset(st);
	return n;
}

/*
 * A run with one file of rows gets no totals: that file's rows are as
 * few, and summing them again would only slow a cold report on one
 * profile (an XPlane and its trace JSON are a run of two files, of which
 * only the XPlane has ops).  Readers take that file's rows
 * (op_rows_query()).
 */
static int
rebuild_run(struct index *ix, const char *run, char **cause)
{
	sqlite3_stmt *st;
	char **devices = NULL;
	size_t ndevices = 0, i;
	int rc;

	st = index_cached(ix, "DELETE FROM run_totals WHERE run = ?");
	index_bind_text(st, 1, run);
	if (index_step(ix, st, cause) == -1)
		return -1;
	if (run_files(ix, run, 0) > 1 && run_files(ix, run, 1) > 1)
		devices = run_devices(ix, run, &ndevices);
	rc = 0;
	for (i = 0; i < ndevices && rc == 0; i++) {
		struct part ops = { run, devices[i], 0, 0 };
		struct part autotuning = { run, devices[i], 0, 1 };
		struct part kernels = { run, devices[i], 1, 0 };
		struct part autotune_kernels = { run, devices[i], 1, 1 };

		rc = rebuild_part(ix, &ops, cause) == -1 ||
		    rebuild_part(ix, &autotuning, cause) == -1 ||
		    rebuild_part(ix, &kernels, cause) == -1 ||
		    rebuild_part(ix, &autotune_kernels, cause) == -1 ? -1 : 0;
	}
	for (i = 0; i < ndevices; i++)
		free(devices[i]);
	free(devices);
	if (rc == -1)
		return -1;
	st = index_cached(ix, "DELETE FROM stale_runs WHERE run = ?");
	index_bind_text(st, 1, run);
	return index_step(ix, st, cause);
}

int
run_totals_rebuild(struct index *ix, int in_transaction, char **cause)
{
	sqlite3_stmt *st;
	char **runs = NULL;
	size_t n = 0, i;
	int any, rc = 0;

	if (ix->readonly)
		return 0;
	st = index_cached(ix, "SELECT 1 FROM stale_runs LIMIT 1");
	any = index_row(st);
	sqlite3_reset(st);
	if (!any)
		return 0;
	if (!in_transaction && index_exec(ix, "BEGIN IMMEDIATE", cause) == -1)
		return -1;
	/* Read first: rebuilding deletes from the table being read. */
	st = index_cached(ix, "SELECT run FROM stale_runs");
	while (index_row(st)) {
		runs = xreallocarray(runs, n + 1, sizeof *runs);
		runs[n++] = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_reset(st);
	for (i = 0; i < n && rc == 0; i++)
		rc = rebuild_run(ix, runs[i], cause);
	for (i = 0; i < n; i++)
		free(runs[i]);
	free(runs);
	if (in_transaction)
		return rc;
	if (rc == -1) {
		sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return index_exec(ix, "COMMIT", cause);
}
