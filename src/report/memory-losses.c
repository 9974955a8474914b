/* The selection's device memory that could not be read, said. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "index/index.h"
#include "lib/err.h"
#include "report/memory-losses.h"
#include "lib/xmalloc.h"

void
memory_losses_load(struct memory_losses *ml, struct report *r,
    unsigned what)
{
	sqlite3_stmt *st;

	memset(ml, 0, sizeof *ml);
	st = index_prepare(r->ix, "SELECT 0, f.path, m.allocator, m.damage "
	    "FROM memory_allocators m JOIN files f ON f.id = m.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE ?1 AND "
	    "m.damage IS NOT NULL AND f.host GLOB ?101 AND f.run GLOB ?103 "
	    "AND (NOT ?3 OR " REPORT_DEVICE_SQL("m.allocator") ") "
	    "UNION ALL "
	    "SELECT 1, f.path, pm.module, pm.damage FROM program_memory pm "
	    "JOIN files f ON f.id = pm.file_id JOIN selected s ON "
	    "s.file_id = f.id WHERE ?2 AND pm.damage IS NOT NULL AND "
	    "f.host GLOB ?101 AND f.run GLOB ?103 ORDER BY 1, 2, 3");
	report_bind_filters(r, st);
	sqlite3_bind_int(st, 1, (what & LOSSES_ALLOCATORS) != 0);
	sqlite3_bind_int(st, 2, (what & LOSSES_PROGRAMS) != 0);
	sqlite3_bind_int(st, 3, (what & LOSSES_DEVICE_ALLOCATORS) != 0);
	while (index_row(st)) {
		struct memory_loss *l;

		ml->v = xreallocarray(ml->v, ml->n + 1, sizeof *ml->v);
		l = &ml->v[ml->n++];
		l->kind = sqlite3_column_int(st, 0) == 0 ? LOSS_ALLOCATOR :
		    LOSS_PROGRAM;
		l->file = index_column_text(st, 1);
		l->name = index_column_text(st, 2);
		l->why = index_column_text(st, 3);
		if (l->kind == LOSS_ALLOCATOR) {
			l->text = xasprintf("damaged memory event in '%s': %s",
			    l->file, l->why);
			l->subject = xasprintf("allocator '%s'", l->name);
		} else {
			l->text = xasprintf("unreadable buffer assignment of "
			    "program '%s' in '%s': %s", l->name, l->file,
			    l->why);
			l->subject = xasprintf("program '%s'", l->name);
		}
	}
	sqlite3_finalize(st);
}

void
memory_losses_warn(const struct memory_losses *ml, const char *where)
{
	size_t i;

	for (i = 0; i < ml->n; i++)
		jp_warnx("%s; %s left out of %s", ml->v[i].text,
		    ml->v[i].subject, where);
}

void
memory_losses_release(struct memory_losses *ml)
{
	size_t i;

	for (i = 0; i < ml->n; i++) {
		free(ml->v[i].file);
		free(ml->v[i].name);
		free(ml->v[i].why);
		free(ml->v[i].text);
		free(ml->v[i].subject);
	}
	free(ml->v);
	memset(ml, 0, sizeof *ml);
}
