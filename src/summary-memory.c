/* The memory peaks of a summary (summary.h), for diff and check. */
#include "config.h"

#include <string.h>

#include "index.h"
#include "report.h"
#include "summary.h"
#include "xmalloc.h"

void
summary_load_memory(struct summary *s, struct report *r)
{
	sqlite3_stmt *st;

	/*
	 * Of several files (hosts) or programs of one name, the largest:
	 * what must fit on a device.  Damaged samples count for nothing.
	 * --device names planes, not allocators: it does not narrow these.
	 */
	st = index_prepare(r->ix, "SELECT kind, name, max(bytes) FROM ("
	    "SELECT 'allocator' AS kind, m.allocator AS name, "
	    "m.peak_bytes AS bytes FROM memory_allocators m JOIN files f ON "
	    "f.id = m.file_id JOIN selected s ON s.file_id = f.id WHERE "
	    "m.damage IS NULL AND f.host GLOB ?101 AND f.run GLOB ?103 "
	    "UNION ALL "
	    "SELECT 'program', pm.module, pm.peak_bytes FROM program_memory pm "
	    "JOIN files f ON f.id = pm.file_id JOIN selected s ON "
	    "s.file_id = f.id WHERE f.host GLOB ?101 AND f.run GLOB ?103) "
	    "GROUP BY kind, name ORDER BY kind, name");
	report_bind_filters(r, st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct memory_peak *m;

		s->memory = xreallocarray(s->memory, s->nmemory + 1,
		    sizeof *s->memory);
		m = &s->memory[s->nmemory++];
		m->kind = index_column_text(st, 0);
		m->name = index_column_text(st, 1);
		m->bytes = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
}

const struct memory_peak *
summary_memory(const struct summary *s, const char *kind, const char *name)
{
	size_t i;

	for (i = 0; i < s->nmemory; i++)
		if (strcmp(s->memory[i].kind, kind) == 0 &&
		    strcmp(s->memory[i].name, name) == 0)
			return &s->memory[i];
	return NULL;
}
