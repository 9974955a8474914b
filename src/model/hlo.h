/*
 * The HLO of a compiled program as jaxprof keeps it: a module's
 * instructions in plain tables, read by read-hlo.c, costed by hlo-cost.c
 * and matched to kernels by hlo-match.c.
 */
#ifndef JAXPROF_HLO_H
#define JAXPROF_HLO_H

#include <stddef.h>
#include <stdint.h>

#include "lib/strmap.h"


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
	/*
	 * One run's cost by hlo-cost.h, of those in launches, once
	 * hlo_module_cost_launches() (read-hlo.h) has been called.
	 */
	double		 flops, bytes;
	int		 has_cost;
	/* Its precision and whether an f32 dot may be TF32 (hlo-cost.h). */
	int		 precision, f32_dot;
};

struct arena;
struct hlo_costing;

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
	/* Until the launches are costed, what that needs (read-hlo.c). */
	struct hlo_costing *costing;
};

#endif
