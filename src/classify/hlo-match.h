/*
 * Which HLO instruction a kernel of a CUDA graph ("command buffer") runs.
 * Every kernel of a graph launch carries the hlo_op of the call that
 * launched the graph, so the instruction is found from the kernel's name
 * and its place in the program's schedule (docs/command-buffers.md):
 *
 *	struct hlo_cursor cur = HLO_CURSOR_INIT;	(one per device line)
 *	in = hlo_match_kernel(&cur, module, launch, "loop_add_fusion_8", 17);
 */
#ifndef JAXPROF_HLO_MATCH_H
#define JAXPROF_HLO_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "read/read-hlo.h"

struct hlo_cursor {
	const struct hlo_module *module;
	int64_t		launch;		/* the launch being matched */
	size_t		next;		/* in module->launches: where to look */
	int64_t		last;		/* the last match's position, or -1 */
};

#define HLO_CURSOR_INIT	{ NULL, -1, 0, -1 }

/*
 * The instruction the kernel runs in launch `launch` of module m (a new
 * launch id starts over at the schedule's beginning), or NULL when neither
 * its name nor its place says.
 */
const struct hlo_instr *hlo_match_kernel(struct hlo_cursor *cur,
		    const struct hlo_module *m, int64_t launch,
		    const char *kernel, size_t len);
/*
 * The same with the instruction the kernel's name gives already looked
 * up: named = hlo_module_kernel(m, kernel, len), which a caller may keep
 * for kernels of the same name.
 */
const struct hlo_instr *hlo_match_named_kernel(struct hlo_cursor *cur,
		    const struct hlo_module *m, int64_t launch,
		    const struct hlo_instr *named, const char *kernel,
		    size_t len);

/*
 * Moves the cursor past instruction `in` of module m, launch `launch`: a
 * graph kernel that names its own instruction (hlo_op) says where the
 * launch is, for the memsets and library kernels that do not.
 */
void		 hlo_match_seen(struct hlo_cursor *cur,
		    const struct hlo_module *m, int64_t launch,
		    const struct hlo_instr *in);

#endif
