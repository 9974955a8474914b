/*
 * The memory of a summary: the peaks of struct summary (summary.h), for
 * diff and check, and each allocator's peak and timeline for jaxprof
 * summary (overview.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "index.h"
#include "overview.h"
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

sqlite3_stmt *
summary_memory_context(struct report *r)
{
	/* The module and step running then: on any plane of the file. */
	return index_prepare(r->ix, "SELECT (SELECT e.module FROM "
	    "executions e WHERE e.file_id = ?1 AND e.start_ps <= ?2 AND "
	    "?2 < e.start_ps + e.dur_ps ORDER BY e.start_ps DESC LIMIT 1), "
	    "(SELECT st.step FROM steps st WHERE st.file_id = ?1 AND "
	    "st.start_ps <= ?2 AND ?2 < st.start_ps + st.dur_ps "
	    "ORDER BY st.start_ps DESC LIMIT 1)");
}

static char *
column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

static void
load_points(struct ov_memory *m, sqlite3_stmt *st, sqlite3_int64 file_id,
    sqlite3_int64 id)
{
	size_t cap = 0;

	sqlite3_bind_int64(st, 1, file_id);
	sqlite3_bind_int64(st, 2, id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (m->npoints == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			m->points = xreallocarray(m->points, cap,
			    sizeof *m->points);
		}
		m->points[m->npoints].time_ps = sqlite3_column_int64(st, 0);
		m->points[m->npoints++].bytes = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
}

/*
 * The allocators of the selection in jaxprof memory's order, with its
 * numbers; --device names planes here, not allocators, as for the peaks
 * of summary_load_memory().
 */
void
overview_load_memory(struct overview *ov, struct report *r)
{
	sqlite3_stmt *st, *at, *pts;

	st = index_prepare(r->ix, "SELECT m.file_id, m.id, f.run, f.host, "
	    "m.allocator, m.peak_bytes, m.peak_ps, m.step, m.tf_op, "
	    "m.peak_bytes + m.free_bytes, f.start_ps, f.end_ps "
	    "FROM memory_allocators m JOIN files f ON f.id = m.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE m.damage IS NULL AND "
	    "f.host GLOB ?101 AND f.run GLOB ?103 "
	    "ORDER BY f.run, f.host, m.file_id, m.allocator, m.plane");
	report_bind_filters(r, st);
	at = summary_memory_context(r);
	pts = index_prepare(r->ix, "SELECT time_ps, heap_bytes + stack_bytes "
	    "FROM memory_samples WHERE file_id = ?1 AND allocator = ?2 "
	    "ORDER BY seq");
	while (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_int64 file_id = sqlite3_column_int64(st, 0);
		struct ov_memory *m;

		ov->memory = xreallocarray(ov->memory, ov->nmemory + 1,
		    sizeof *ov->memory);
		m = &ov->memory[ov->nmemory++];
		memset(m, 0, sizeof *m);
		m->run = column_dup(st, 2);
		m->host = column_dup(st, 3);
		m->allocator = column_dup(st, 4);
		m->peak_bytes = sqlite3_column_int64(st, 5);
		m->peak_ps = sqlite3_column_int64(st, 6);
		m->step = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 7);
		m->op = column_dup(st, 8);
		m->capacity_bytes = sqlite3_column_type(st, 9) ==
		    SQLITE_NULL ? -1 : sqlite3_column_int64(st, 9);
		m->start_ps = sqlite3_column_int64(st, 10);
		m->end_ps = sqlite3_column_int64(st, 11);
		sqlite3_bind_int64(at, 1, file_id);
		sqlite3_bind_int64(at, 2, m->peak_ps);
		if (sqlite3_step(at) == SQLITE_ROW) {
			m->module = column_dup(at, 0);
			if (sqlite3_column_type(at, 1) != SQLITE_NULL)
				m->step = sqlite3_column_int64(at, 1);
		}
		sqlite3_reset(at);
		load_points(m, pts, file_id, sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	sqlite3_finalize(at);
	sqlite3_finalize(pts);
}

void
overview_release_memory(struct overview *ov)
{
	size_t i;

	for (i = 0; i < ov->nmemory; i++) {
		free(ov->memory[i].run);
		free(ov->memory[i].host);
		free(ov->memory[i].allocator);
		free(ov->memory[i].module);
		free(ov->memory[i].op);
		free(ov->memory[i].points);
	}
	free(ov->memory);
	ov->memory = NULL;
	ov->nmemory = 0;
}
