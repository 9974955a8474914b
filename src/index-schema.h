/* The index's tables and indexes, as SQL: what index_open() creates. */
#ifndef JAXPROF_INDEX_SCHEMA_H
#define JAXPROF_INDEX_SCHEMA_H

#include <sqlite3.h>

/* A new index's pages, set before its schema (index_open() says why). */
#define INDEX_PAGE_SIZE_SQL	"PRAGMA page_size = 16384"

/*
 * Creates the schema and records INDEX_SCHEMA_VERSION in table meta, in
 * the caller's transaction; SQLITE_OK, or the first failure's code.
 */
int	index_schema_create(sqlite3 *db);
/* Creates the event-level tables, as index_schema_create(). */
int	index_schema_create_events(sqlite3 *db);
/* Creates the memory tables, as index_schema_create(). */
int	index_schema_create_memory(sqlite3 *db);

#endif
