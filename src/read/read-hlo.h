/*
 * HLO reader: the `Hlo Proto` stats of a profile's /host:metadata plane
 * (an xla.HloProto per compiled program) turned into plain instruction
 * tables.  With hlo-cost.c, the only file that sees the generated HLO
 * protobuf-c types.
 *
 *	struct hlo_set *set = hlo_set_new();
 *	if (hlo_set_add(set, bytes, len, &cause) == -1) ... warn, go on ...
 *	const struct hlo_module *m = hlo_set_find(set, program_id, "jit_f");
 *	const struct hlo_instr *in = hlo_module_instr(m, "fusion.3", 8);
 *	hlo_set_free(set);
 */
#ifndef JAXPROF_READ_HLO_H
#define JAXPROF_READ_HLO_H

#include <stddef.h>
#include <stdint.h>

#include "model/hlo.h"

struct hlo_set;

struct hlo_set	*hlo_set_new(void);
void		 hlo_set_free(struct hlo_set *set);
/*
 * Parses one serialized xla.HloProto and adds its module as program
 * program_id (-1: the module's own id), unless a module with that program
 * id is there already.  Returns 0, or -1 with *cause a new message
 * (caller frees).
 */
int		 hlo_set_add(struct hlo_set *set, const void *data, size_t len,
		    int64_t program_id, char **cause);
/*
 * hlo_set_add() in two halves, so that protos are parsed on several
 * threads: hlo_module_read() parses one (NULL with *cause when it cannot),
 * its buffer assignment too with memory (hlo_set_add() always reads it),
 * hlo_set_keep() adds the module to the set in the caller's order, or
 * frees it when a module with its program id is there already.
 */
struct hlo_module *hlo_module_read(const void *data, size_t len,
		    int64_t program_id, int memory, char **cause);
void		 hlo_set_keep(struct hlo_set *set, struct hlo_module *m);
size_t		 hlo_set_count(const struct hlo_set *set);
const struct hlo_module *hlo_set_module(const struct hlo_set *set, size_t i);
/*
 * The module of a program: by program id when it is not -1 and known, else
 * the only module with that name; NULL when none (or the name is ambiguous).
 */
const struct hlo_module *hlo_set_find(const struct hlo_set *set,
		    int64_t program_id, const char *name, size_t name_len);

/*
 * Works out the cost of each instruction of m's launches (flops, bytes
 * and has_cost of m->instrs) by hlo-cost.h's rules, on the first call for
 * m from any thread, and frees the protos that took; later calls return
 * at once.  After it returns, the caller's thread reads those fields.
 */
void		 hlo_module_cost_launches(const struct hlo_module *m);

/* The instruction of that name, or NULL. */
const struct hlo_instr *hlo_module_instr(const struct hlo_module *m,
		    const char *name, size_t len);
/*
 * The instruction a kernel of that name was emitted for: XLA names the
 * kernels of fusions after the instruction with '.' and '-' turned into
 * '_' ("loop_add_fusion_8"), or NULL when no instruction has that name.
 */
const struct hlo_instr *hlo_module_kernel(const struct hlo_module *m,
		    const char *kernel, size_t len);

#endif
