/* The index's tables and indexes, as SQL: what index_open() creates. */
#ifndef JAXPROF_INDEX_SCHEMA_H
#define JAXPROF_INDEX_SCHEMA_H

#include <sqlite3.h>

/* Bump with any change of the schema: older indexes are rebuilt on open. */
#define INDEX_SCHEMA_VERSION	17
/*
 * What tells a jaxprof index from any other SQLite file: the application
 * id in its header ("JAXP") and a meta row ('application', this).
 */
#define INDEX_APPLICATION_ID	0x4a415850
#define INDEX_APPLICATION_ROW	"jaxprof profile index"

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
