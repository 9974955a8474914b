/*
 * Op and kernel totals per run (files.run) and device name, summed over
 * the run's files: `top` on whole runs reads these few rows instead of one
 * per file, device and op (hundreds of thousands on a logdir of many
 * hosts).  Only runs of two files or more that hold rows have them: a
 * run whose rows are all one file's (one profile, or an XPlane beside a
 * trace of no ops) reads that file's rows, as few; summing them again
 * would only copy them.
 *
 * Storing or forgetting a file marks its run stale (index-write.c);
 * index_refresh() rebuilds stale runs once its files are stored, and
 * until then readers fall back to the per-file rows.
 */
#ifndef JAXPROF_RUN_TOTALS_H
#define JAXPROF_RUN_TOTALS_H

#include "index/index.h"

/*
 * Whether file f (an alias of files) holds rows that totals sum: runs
 * with two such files or more have totals, the others none.
 */
#define RUN_TOTALS_FILE_HAS_ROWS(f)					\
	"(EXISTS (SELECT 1 FROM ops WHERE file_id = " f ".id) OR "	\
	"EXISTS (SELECT 1 FROM kernels WHERE file_id = " f ".id))"

/* Marks run stale, inside the caller's write transaction. */
int		 run_totals_mark_stale(struct index *ix, const char *run,
		    char **cause);
/*
 * Rebuilds the totals of every stale run: inside the caller's write
 * transaction, or in one of its own.
 */
int		 run_totals_rebuild(struct index *ix, int in_transaction,
		    char **cause);
/*
 * The totals o are read by op_rows_columns(OP_ROWS_TOTALS) (the ops'
 * columns have the same names); rows of run R (of two files with rows or
 * more) are
 * those "WHERE o.run = R", of its kernels "AND o.kernels = 1", of its
 * autotuning "AND o.compile_work", of a device "AND o.device =
 * '/device:GPU:0'" (its planes' name).
 */

#endif
