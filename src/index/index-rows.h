/* Rows of one table inserted many to a statement (index-rows.c). */
#ifndef JAXPROF_INDEX_ROWS_H
#define JAXPROF_INDEX_ROWS_H

#include "index/index-db.h"

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

#endif
