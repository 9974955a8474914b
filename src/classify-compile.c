/*
 * Compile work: device activity that XLA itself ran while compiling (the
 * autotuner's candidate kernels), told apart from the user's programs
 * once all of a file's planes are classified (man/jaxprof-compile.1,
 * AUTOTUNING).
 */
#include "config.h"

#include <stdlib.h>

#include "classify-int.h"
#include "xmalloc.h"

/* A host compile window: [start, end), and the compile it is. */
struct window_ref {
	int64_t		 start_ps, end_ps;
	struct compile_rec *compile;
};

static int
is_program(const struct file_summary *fs, uint32_t module)
{
	size_t i;

	for (i = 0; i < fs->nprograms; i++)
		if (fs->programs[i].module == module)
			return 1;
	return 0;
}

/* The compile window holding time t, or NULL. */
static struct compile_rec *
window_at(const struct window_ref *w, size_t n, int64_t t)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i].start_ps <= t && t < w[i].end_ps)
			return w[i].compile;
	return NULL;
}

/*
 * A module is compile work on a device plane when it is none of the
 * programs /host:metadata names and every execution of it on that plane
 * starts inside a compile on the host.  Its executions, module row and
 * ops are marked, and their device time is added to the compile's
 * autotune_ps.
 */
static void
mark_plane(struct file_summary *fs, struct plane_summary *p,
    const struct window_ref *w, size_t nw)
{
	size_t i, j;

	for (i = 0; i < p->nmodules; i++) {
		struct module_agg *m = &p->modules[i];
		int inside = 1, any = 0;

		if (is_program(fs, m->name))
			continue;
		for (j = 0; j < p->nexecs && inside; j++)
			if (p->execs[j].module == m->name &&
			    p->execs[j].program_id == m->program_id) {
				any = 1;
				inside = window_at(w, nw,
				    p->execs[j].start_ps) != NULL;
			}
		if (!any || !inside)
			continue;
		m->compile_work = 1;
		for (j = 0; j < p->nexecs; j++) {
			struct exec_rec *e = &p->execs[j];

			if (e->module != m->name ||
			    e->program_id != m->program_id)
				continue;
			e->compile_work = 1;
			window_at(w, nw, e->start_ps)->autotune_ps +=
			    e->device_ps;
		}
		for (j = 0; j < p->nops; j++)
			if (p->ops[j].module == m->name)
				p->ops[j].compile_work = 1;
	}
}

void
mark_compile_work(struct file_summary *fs)
{
	struct window_ref *w = NULL;
	size_t nw = 0, i, j;

	for (i = 0; i < fs->nplanes; i++) {
		struct plane_summary *p = &fs->planes[i];

		for (j = 0; p->kind == PLANE_HOST && j < p->ncompiles; j++) {
			w = xreallocarray(w, nw + 1, sizeof *w);
			w[nw].start_ps = p->compiles[j].start_ps;
			w[nw].end_ps = p->compiles[j].start_ps +
			    p->compiles[j].dur_ps;
			w[nw].compile = &p->compiles[j];
			nw++;
		}
	}
	for (i = 0; nw > 0 && i < fs->nplanes; i++)
		if (fs->planes[i].kind == PLANE_DEVICE)
			mark_plane(fs, &fs->planes[i], w, nw);
	free(w);
}
