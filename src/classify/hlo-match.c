/* Command-buffer kernels to HLO instructions (hlo-match.h). */
#include "config.h"

#include <string.h>

#include "classify/hlo-match.h"

static const struct hlo_instr *
at(const struct hlo_module *m, size_t pos)
{
	return &m->instrs[m->launches[pos]];
}

/* An XLA kernel named after `named` runs the instruction at pos? */
static int
runs_kernel_of(const struct hlo_module *m, size_t pos,
    const struct hlo_instr *named)
{
	const struct hlo_instr *in = at(m, pos);

	return in == named || (in->launch == HLO_LAUNCH_KERNEL &&
	    in->kernel_class == named->kernel_class);
}

static const struct hlo_instr *
take(struct hlo_cursor *cur, size_t pos)
{
	cur->next = pos + 1;
	cur->last = (int64_t)pos;
	return at(cur->module, pos);
}

/*
 * A kernel XLA emitted: the next instruction in the schedule that runs
 * it (identical fusions share one kernel, named after the first), else
 * the closest one before (the cursor went too far on a library kernel).
 */
static const struct hlo_instr *
match_named(struct hlo_cursor *cur, const struct hlo_instr *named)
{
	const struct hlo_module *m = cur->module;
	size_t pos;

	/* Fusions may launch several kernels: still the last instruction. */
	if (cur->last >= 0 && at(m, (size_t)cur->last) == named)
		return named;
	for (pos = cur->next; pos < m->nlaunches; pos++)
		if (runs_kernel_of(m, pos, named))
			return take(cur, pos);
	for (pos = cur->next; pos > 0; pos--)
		if (runs_kernel_of(m, pos - 1, named))
			return take(cur, pos - 1);
	return named;
}

/* A library kernel: the next instruction that a library runs. */
static const struct hlo_instr *
match_library(struct hlo_cursor *cur)
{
	const struct hlo_module *m = cur->module;
	size_t pos;

	for (pos = cur->next; pos < m->nlaunches; pos++)
		if (at(m, pos)->launch == HLO_LAUNCH_LIBRARY)
			return take(cur, pos);
	return NULL;
}

const struct hlo_instr *
hlo_match_kernel(struct hlo_cursor *cur, const struct hlo_module *m,
    int64_t launch, const char *kernel, size_t len)
{
	return hlo_match_named_kernel(cur, m, launch,
	    hlo_module_kernel(m, kernel, len), kernel, len);
}

const struct hlo_instr *
hlo_match_named_kernel(struct hlo_cursor *cur, const struct hlo_module *m,
    int64_t launch, const struct hlo_instr *named, const char *kernel,
    size_t len)
{
	if (cur->module != m || cur->launch != launch) {
		cur->module = m;
		cur->launch = launch;
		cur->next = 0;
		cur->last = -1;
	}
	if (named != NULL && named->launch == HLO_LAUNCH_KERNEL)
		return match_named(cur, named);
	/*
	 * A memset clears a buffer for the instruction that comes next
	 * (a library call's workspace, a scatter's output).
	 */
	if (len >= 6 && memcmp(kernel, "Memset", 6) == 0)
		return cur->next < m->nlaunches ? at(m, cur->next) : NULL;
	return match_library(cur);
}

void
hlo_match_seen(struct hlo_cursor *cur, const struct hlo_module *m,
    int64_t launch, const struct hlo_instr *in)
{
	if (in->schedule_index < 0)
		return;
	cur->module = m;
	cur->launch = launch;
	take(cur, (size_t)in->schedule_index);
}
