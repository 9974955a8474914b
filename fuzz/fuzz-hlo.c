/*
 * Fuzz target: one serialized xla.HloProto (an `Hlo Proto` stat of the
 * /host:metadata plane) through the HLO reader and its buffer assignment,
 * then every lookup the classification makes: by program, by instruction
 * and kernel name, the command-buffer matcher over each module's
 * schedule, and the cost rules over its launches.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "classify/hlo-match.h"
#include "read/read-hlo.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hlo_set *set = hlo_set_new();
	char *cause = NULL;
	size_t i, k;

	if (hlo_set_add(set, data, size, -1, &cause) == 0)
		(void)hlo_set_add(set, data, size, 7, &cause);
	for (i = 0; i < hlo_set_count(set); i++) {
		const struct hlo_module *m = hlo_set_module(set, i);
		struct hlo_cursor cur = HLO_CURSOR_INIT;

		(void)hlo_set_find(set, m->program_id, m->name,
		    strlen(m->name));
		(void)hlo_set_find(set, -1, m->name, strlen(m->name));
		for (k = 0; k < m->ninstrs; k++) {
			const char *name = m->instrs[k].name;

			(void)hlo_module_instr(m, name, strlen(name));
			(void)hlo_module_kernel(m, name, strlen(name));
		}
		for (k = 0; k < m->nlaunches; k++) {
			const char *name = m->instrs[m->launches[k]].name;

			(void)hlo_match_kernel(&cur, m, (int64_t)(k / 8),
			    name, strlen(name));
			(void)hlo_match_kernel(&cur, m, (int64_t)(k / 8),
			    "loop_fusion", 11);
		}
		hlo_module_cost_launches(m);
	}
	free(cause);
	hlo_set_free(set);
	return 0;
}
