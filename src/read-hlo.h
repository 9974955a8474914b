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

#include "strmap.h"

/*
 * What kind of device work an instruction launches, for matching the
 * kernels of a CUDA graph to it (docs/command-buffers.md).
 */
enum hlo_launch {
	HLO_LAUNCH_NONE,	/* runs nothing on the device (tuple, bitcast...) */
	HLO_LAUNCH_KERNEL,	/* XLA emits the kernel and names it after it */
	HLO_LAUNCH_LIBRARY,	/* a library runs it: cuBLAS, cuDNN, NCCL... */
};

struct hlo_instr {
	const char	*name;		/* "loop_add_fusion.8" */
	const char	*opcode;	/* "fusion" */
	const char	*category;	/* from opcode, fusion kind, target */
	const char	*fusion_kind;	/* "kLoop", or "" */
	const char	*custom_call_target;	/* "__cublas$lt$matmul", or "" */
	const char	*computation;	/* the computation holding it */
	const char	*op_name;	/* "jit(f)/jvp(mlp)/dot_general", or "" */
	const char	*op_type;
	const char	*source_file;	/* "" when unknown */
	int32_t		 source_line;	/* 0 when unknown */
	const char	*source_function;	/* "" when unknown */
	int64_t		 id;
	int32_t		 schedule_index;	/* in hlo_module.launches, or -1 */
	int		 in_loop;	/* may run twice per execution */
	enum hlo_launch	 launch;
	/* Instructions with the same kernel_class run the same kernel. */
	uint64_t	 kernel_class;
	/* One run's cost by hlo-cost.h, of those in launches. */
	double		 flops, bytes;
	int		 has_cost;
};

struct arena;

struct hlo_module {
	const char	*name;		/* "jit_train_step" */
	int64_t		 program_id;	/* as events name it (program_id) */
	/* The entry's parameters: "s32[8,16]", and their names or "". */
	const char	**param_shapes, **param_names;
	size_t		 nparams;
	struct hlo_instr *instrs;
	size_t		 ninstrs;
	/*
	 * The instructions that launch device work, in the order they run:
	 * the entry computation's schedule with called computations (call,
	 * while, conditional, async) spliced in where they are called.
	 */
	uint32_t	*launches;
	size_t		 nlaunches;
	struct strmap	 names;		/* instruction names; id -> instrs index */
	struct strmap	 kernel_names;	/* names as XLA names kernels */
	uint32_t	*instr_of_name;	/* names id -> index in instrs */
	uint32_t	*instr_of_kernel;	/* kernel_names id -> index */
	struct strmap	 strings;	/* owns the strings instructions share */
	/*
	 * Its buffer assignment's memory (read-buffers.h), or NULL: none,
	 * not read, or damaged, memory_why then saying why (owned).
	 */
	struct hlo_memory *memory;
	char		*memory_why;
	struct arena *texts;	/* owns those of one instruction each */
};

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
