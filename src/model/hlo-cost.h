/*
 * Cost rules: the FLOPs and bytes accessed of one HLO instruction, by the
 * rules of XLA's GPU cost analysis (GpuHloCostAnalysis, which xprof runs
 * on a GPU profile's HLO); jaxprof-top(1) lists the rules.  Read by
 * read-hlo.c for the instructions that launch device work.
 *
 *	struct hlo_cost_env env = { index_of, instr, comp, ctx, n, NULL };
 *	struct hlo_cost c;
 *	hlo_cost_env_entry(&env, entry_id);
 *	if (hlo_cost_of(&env, in, &c) == 0) ... c.flops, c.bytes ...
 *	hlo_cost_env_release(&env);
 */
#ifndef JAXPROF_HLO_COST_H
#define JAXPROF_HLO_COST_H

#include <stdint.h>

#include "model/precision.h"
#include "proto/hlo.pb-c.h"

/*
 * How the rules find a module's instructions and called computations:
 * instructions by an index in [0, n), which index_of() gives for an id (-1
 * when none has it).  scratch starts NULL: the rules keep there what
 * they need per instruction and each called computation's cost, and
 * hlo_cost_env_release() frees it.
 */
struct hlo_cost_scratch;
struct hlo_cost_env {
	int64_t		(*index_of)(void *ctx, int64_t id);
	const Xla__HloInstructionProto *(*instr)(void *ctx, size_t i);
	const Xla__HloComputationProto *(*comp)(void *ctx, int64_t id);
	void		*ctx;
	size_t		 n;
	struct hlo_cost_scratch *scratch;
};

struct hlo_cost {
	double		 flops;
	double		 bytes;		/* read and written */
	/*
	 * The precision it computes in (precision.h): a dot's or
	 * convolution's (a fusion's first) by its lhs operand's element
	 * type, any other's by its result's; PREC_UNKNOWN when neither
	 * says.  f32_dot: an f32 dot or convolution whose precision config
	 * allows fewer bits (DEFAULT, HIGH), which precision_of_f32_dot()
	 * resolves on a device.
	 */
	int		 precision;
	int		 f32_dot;
};

/*
 * The cost and precision of in: 0, or -1 when the rules do not know it (a custom call
 * other than cuBLAS/cuDNN, an instruction without a shape) or refuse it:
 * it calls a computation that calls itself or the entry, its calls nest
 * deeper than the rules follow, or its sizes are beyond counting.
 */
int		 hlo_cost_of(struct hlo_cost_env *env,
		    const Xla__HloInstructionProto *in, struct hlo_cost *out);
/*
 * The id of the module's entry computation, which no instruction may
 * call (one that does is refused); kept until hlo_cost_env_release().
 */
void		 hlo_cost_env_entry(struct hlo_cost_env *env, int64_t id);
/* Frees env->scratch; env can be used again. */
void		 hlo_cost_env_release(struct hlo_cost_env *env);

#endif
