/*
 * Compile work: device activity that XLA itself ran while compiling (the
 * autotuner's candidate kernels), told apart from the user's programs
 * once all of a file's planes are classified (man/jaxprof-compile.1,
 * AUTOTUNING).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "classify/classify-compile.h"
#include "classify/classify-int.h"
#include "lib/xmalloc.h"

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

/* Whether string id `module` names a module marked compile work. */
static int
is_compile_module(const struct plane_summary *p, uint32_t module)
{
	size_t i;

	for (i = 0; i < p->nmodules; i++)
		if (p->modules[i].name == module && p->modules[i].compile_work)
			return 1;
	return 0;
}

/*
 * A kernel with no hlo_op that is compile work, as an op of its own (its
 * kernel name, category "kernel"), so that --include-compile-work shows
 * all of the device time that steps count: unless the plane's ops are its
 * kernels already (a TensorFlow GPU profile).
 */
static void
add_kernel_op(struct file_summary *fs, struct plane_summary *p,
    const struct kernel_agg *k)
{
	uint32_t empty = strmap_intern(&fs->strings, "", 0);
	uint32_t module = k->context != UINT32_MAX ? k->context : empty;
	struct op_agg *o;
	size_t i;

	for (i = 0; i < p->nops; i++)
		if (p->ops[i].name == k->name && p->ops[i].module == module)
			return;
	p->ops = xgrow1(p->ops, p->nops, sizeof *p->ops);
	o = &p->ops[p->nops++];
	memset(o, 0, sizeof *o);
	o->name = o->framework_op = k->name;
	o->module = module;
	o->category = strmap_intern(&fs->strings, "kernel", 6);
	o->source = o->source_function = o->parent = empty;
	o->count = k->count;
	o->total_ps = o->self_ps = k->total_ps;
	o->min_ps = k->min_ps;
	o->max_ps = k->max_ps;
	o->compile_work = 1;
	o->precision = PREC_UNKNOWN;
}

/*
 * The rule for compile work, the one every report applies: a module is
 * compile work on a device plane when it is none of the programs
 * /host:metadata names and every execution of it on that plane starts
 * inside a compile on the host.  Its executions, module row, ops and
 * kernels are marked, and their device time is added to the compile's
 * autotune_ps.  A kernel without hlo_op is compile work with the module
 * before it on its line (the autotuner's buffer checks and comparisons).
 */
static void
mark_plane(struct file_summary *fs, struct plane_summary *p,
    const struct window_ref *w, size_t nw)
{
	size_t i, j, nkernels = p->nkernels;

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
	for (i = 0; i < nkernels; i++) {
		struct kernel_agg *k = &p->kernels[i];

		k->compile_work = k->context != UINT32_MAX &&
		    is_compile_module(p, k->context);
		if (k->compile_work && k->op == UINT32_MAX)
			add_kernel_op(fs, p, k);
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
			w = xgrow1(w, nw, sizeof *w);
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
