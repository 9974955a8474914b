/* A file's memory tables (index-memory.c); -1 with *cause. */
#ifndef JAXPROF_INDEX_MEMORY_H
#define JAXPROF_INDEX_MEMORY_H

#include "index/index-db.h"

struct file_summary;
struct plane_summary;
struct hlo_set;
int	index_write_memory_samples(struct index *ix, sqlite3_int64 file_id,
	    const struct file_summary *fs, const struct plane_summary *p,
	    sqlite3_int64 plane, char **cause);
int	index_write_program_memory(struct index *ix, sqlite3_int64 file_id,
	    const struct hlo_set *hlo, char **cause);

#endif
