/*
 * The cost rules (hlo-cost.c) on small HLO modules built by hand: a dot,
 * a convolution with and without padding, fusions (elementwise, a slice
 * read in part, a tuple nested in its output), a reduce, a cuBLAS call and
 * an opaque custom call, each against FLOPs and bytes worked out by hand
 * in the comments; and the precision each computes in.
 */
#include "config.h"

#include <string.h>

#include "check_suites.h"
#include "model/hlo-cost.h"

enum { F32 = 11, S8 = 2, TUPLE = 13, BF16 = 16, F8E4M3FN = 20 };

/* A module: instructions and computations by id (an index + 1). */
#define MAXN	16
struct mod {
	Xla__HloInstructionProto in[MAXN];
	Xla__ShapeProto shape[MAXN];	/* packed into in[].shape by pack() */
	uint8_t	 packed[MAXN][256];
	int64_t	 dims[MAXN][4];
	int64_t	 ops[MAXN][3];
	Xla__HloComputationProto comp[4];
	Xla__HloInstructionProto *comp_in[4][MAXN];
};

static int64_t
find_index(void *ctx, int64_t id)
{
	(void)ctx;
	return id >= 1 && id <= MAXN ? id - 1 : -1;
}

static const Xla__HloInstructionProto *
find_instr(void *ctx, size_t i)
{
	struct mod *m = ctx;

	return &m->in[i];
}

static const Xla__HloComputationProto *
find_comp(void *ctx, int64_t id)
{
	struct mod *m = ctx;

	return id >= 1 && id <= 4 ? &m->comp[id - 1] : NULL;
}

/* Instruction id of opcode and shape type[d0,d1,...] (n dims), operands. */
static Xla__HloInstructionProto *
add(struct mod *m, int64_t id, const char *opcode, int type, size_t n,
    const int64_t *d, size_t nops, const int64_t *ops)
{
	Xla__HloInstructionProto *in = &m->in[id - 1];
	Xla__ShapeProto *s = &m->shape[id - 1];
	Xla__HloInstructionProto init = XLA__HLO_INSTRUCTION_PROTO__INIT;
	Xla__ShapeProto sinit = XLA__SHAPE_PROTO__INIT;

	*in = init;
	*s = sinit;
	s->element_type = type;
	s->n_dimensions = n;
	s->dimensions = m->dims[id - 1];
	if (n > 0)
		memcpy(m->dims[id - 1], d, n * sizeof *d);
	in->id = id;
	in->opcode = (char *)(uintptr_t)opcode;	/* only read */
	in->n_operand_ids = nops;
	in->operand_ids = m->ops[id - 1];
	if (nops > 0)
		memcpy(m->ops[id - 1], ops, nops * sizeof *ops);
	return in;
}

/* Computation cid of instructions ids[0..n-1], the last its root. */
static void
comp(struct mod *m, int64_t cid, size_t n, const int64_t *ids)
{
	Xla__HloComputationProto init = XLA__HLO_COMPUTATION_PROTO__INIT;
	Xla__HloComputationProto *c = &m->comp[cid - 1];
	size_t i;

	*c = init;
	c->id = cid;
	for (i = 0; i < n; i++)
		m->comp_in[cid - 1][i] = &m->in[ids[i] - 1];
	c->instructions = m->comp_in[cid - 1];
	c->n_instructions = n;
	c->root_id = ids[n - 1];
}

/* Each instruction's shape as the profile has it: serialized. */
static void
pack(struct mod *m)
{
	size_t i;

	for (i = 0; i < MAXN; i++) {
		if (m->shape[i].base.descriptor == NULL)
			continue;	/* not made by add() */
		ck_assert_uint_le(xla__shape_proto__get_packed_size(&m->shape[i]),
		    sizeof m->packed[i]);
		m->in[i].shape.len = xla__shape_proto__pack(&m->shape[i],
		    m->packed[i]);
		m->in[i].shape.data = m->packed[i];
	}
}

static struct hlo_cost
cost(struct mod *m, int64_t id)
{
	struct hlo_cost_env env = { find_index, find_instr, find_comp, m,
	    MAXN, NULL };
	struct hlo_cost c = { -1, -1, PREC_UNKNOWN, 0 };

	pack(m);
	ck_assert_int_eq(hlo_cost_of(&env, &m->in[id - 1], &c), 0);
	hlo_cost_env_release(&env);
	return c;
}

START_TEST(cost_dot)
{
	static struct mod m;
	Xla__DotDimensionNumbers dd = XLA__DOT_DIMENSION_NUMBERS__INIT;
	int64_t contract[] = { 2 }, batch[] = { 0 };
	struct hlo_cost c;

	/* [2,3,4] x [2,4,5] -> [2,3,5]: batch 2, M 3, N 5, K 4. */
	add(&m, 1, "parameter", F32, 3, (int64_t[]){ 2, 3, 4 }, 0, NULL);
	add(&m, 2, "parameter", F32, 3, (int64_t[]){ 2, 4, 5 }, 0, NULL);
	add(&m, 3, "dot", F32, 3, (int64_t[]){ 2, 3, 5 }, 2,
	    (int64_t[]){ 1, 2 })->dot_dimension_numbers = &dd;
	dd.lhs_contracting_dimensions = contract;
	dd.n_lhs_contracting_dimensions = 1;
	dd.lhs_batch_dimensions = batch;
	dd.n_lhs_batch_dimensions = 1;
	c = cost(&m, 3);
	/* 2 x 2 x 3 x 5 x 4 */
	ck_assert_double_eq(c.flops, 240);
	/* (24 + 40 + 30) elements of 4 bytes */
	ck_assert_double_eq(c.bytes, 376);
}
END_TEST

/* A 3x3 convolution of [1,5,5,2] by [3,3,2,4] (b01f_01io->b01f). */
static void
conv(struct mod *m, Xla__Window *w, Xla__WindowDimension *wd,
    Xla__ConvolutionDimensionNumbers *cd, int64_t pad, int64_t out)
{
	static int64_t in_sp[] = { 1, 2 }, k_sp[] = { 0, 1 };
	Xla__HloInstructionProto *in;
	size_t i;

	add(m, 1, "parameter", F32, 4, (int64_t[]){ 1, 5, 5, 2 }, 0, NULL);
	add(m, 2, "parameter", F32, 4, (int64_t[]){ 3, 3, 2, 4 }, 0, NULL);
	in = add(m, 3, "convolution", F32, 4, (int64_t[]){ 1, out, out, 4 },
	    2, (int64_t[]){ 1, 2 });
	cd->input_batch_dimension = 0;
	cd->input_feature_dimension = 3;
	cd->input_spatial_dimensions = in_sp;
	cd->n_input_spatial_dimensions = 2;
	cd->kernel_input_feature_dimension = 2;
	cd->kernel_output_feature_dimension = 3;
	cd->kernel_spatial_dimensions = k_sp;
	cd->n_kernel_spatial_dimensions = 2;
	cd->output_batch_dimension = 0;
	cd->output_feature_dimension = 3;
	cd->output_spatial_dimensions = in_sp;
	cd->n_output_spatial_dimensions = 2;
	for (i = 0; i < 2; i++) {
		wd[i].size = 3;
		wd[i].stride = 1;
		wd[i].padding_low = wd[i].padding_high = pad;
	}
	w->n_dimensions = 2;	/* the caller points it at wd */
	in->window = w;
	in->convolution_dimension_numbers = cd;
}

START_TEST(cost_convolution)
{
	static struct mod m;
	Xla__Window w = XLA__WINDOW__INIT;
	Xla__WindowDimension wd[2] = { XLA__WINDOW_DIMENSION__INIT,
	    XLA__WINDOW_DIMENSION__INIT };
	Xla__ConvolutionDimensionNumbers cd =
	    XLA__CONVOLUTION_DIMENSION_NUMBERS__INIT;
	Xla__WindowDimension *wds[2] = { &wd[0], &wd[1] };
	struct hlo_cost c;

	/* No padding: 3x3 outputs x 3x3 taps each, 2 in x 4 out features. */
	conv(&m, &w, wd, &cd, 0, 3);
	w.dimensions = wds;
	c = cost(&m, 3);
	ck_assert_double_eq(c.flops, 2.0 * 2 * 4 * (3 * 3) * (3 * 3));
	ck_assert_double_eq(c.bytes, (50 + 72 + 36) * 4);
	/*
	 * Padding 1 (5x5 out): per dimension the edge outputs see 2 taps,
	 * the 3 inner ones 3: 2 + 9 + 2 = 13, so 13 x 13 in all.
	 */
	conv(&m, &w, wd, &cd, 1, 5);
	w.dimensions = wds;
	c = cost(&m, 3);
	ck_assert_double_eq(c.flops, 2.0 * 2 * 4 * 13 * 13);
}
END_TEST

START_TEST(cost_fusion)
{
	static struct mod m;
	Xla__HloInstructionProto *f;
	int64_t called = 1;
	struct hlo_cost c;

	/*
	 * fused: p0, p1 f32[4,8]; a = add(p0, p1); e = exp(a);
	 * root = multiply(e, a).  Each runs once per element of the root:
	 * 32 x (3 + 86 + 3) FLOPs; bytes: two operands and the output.
	 */
	add(&m, 1, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	add(&m, 2, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	add(&m, 3, "add", F32, 2, (int64_t[]){ 4, 8 }, 2, (int64_t[]){ 1, 2 });
	add(&m, 4, "exponential", F32, 2, (int64_t[]){ 4, 8 }, 1,
	    (int64_t[]){ 3 });
	add(&m, 5, "multiply", F32, 2, (int64_t[]){ 4, 8 }, 2,
	    (int64_t[]){ 4, 3 });
	comp(&m, 1, 5, (int64_t[]){ 1, 2, 3, 4, 5 });
	add(&m, 6, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	add(&m, 7, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	f = add(&m, 8, "fusion", F32, 2, (int64_t[]){ 4, 8 }, 2,
	    (int64_t[]){ 6, 7 });
	f->called_computation_ids = &called;
	f->n_called_computation_ids = 1;
	c = cost(&m, 8);
	ck_assert_double_eq(c.flops, 32 * (3 + 86 + 3));
	ck_assert_double_eq(c.bytes, 3 * 32 * 4);

	/*
	 * fused: p0 f32[100]; s = slice(p0) f32[10]; root = negate(s):
	 * 10 x 3 FLOPs; a tenth of the operand read: 40 + 40 bytes.
	 */
	add(&m, 1, "parameter", F32, 1, (int64_t[]){ 100 }, 0, NULL);
	add(&m, 2, "slice", F32, 1, (int64_t[]){ 10 }, 1, (int64_t[]){ 1 });
	add(&m, 3, "negate", F32, 1, (int64_t[]){ 10 }, 1, (int64_t[]){ 2 });
	comp(&m, 1, 3, (int64_t[]){ 1, 2, 3 });
	add(&m, 6, "parameter", F32, 1, (int64_t[]){ 100 }, 0, NULL);
	f = add(&m, 8, "fusion", F32, 1, (int64_t[]){ 10 }, 1,
	    (int64_t[]){ 6 });
	f->called_computation_ids = &called;
	f->n_called_computation_ids = 1;
	c = cost(&m, 8);
	ck_assert_double_eq(c.flops, 30);
	ck_assert_double_eq(c.bytes, 80);
}
END_TEST

START_TEST(cost_reduce)
{
	static struct mod m;
	Xla__HloInstructionProto *r;
	int64_t reducer = 2;
	struct hlo_cost c;

	/* The reducer: add of two f32[] scalars, 3 FLOPs. */
	add(&m, 1, "parameter", F32, 0, NULL, 0, NULL);
	add(&m, 2, "parameter", F32, 0, NULL, 0, NULL);
	add(&m, 3, "add", F32, 0, NULL, 2, (int64_t[]){ 1, 2 });
	comp(&m, 2, 3, (int64_t[]){ 1, 2, 3 });
	/* f32[8,16] -> f32[8]: (128 - 8) reductions of 3 FLOPs. */
	add(&m, 4, "parameter", F32, 2, (int64_t[]){ 8, 16 }, 0, NULL);
	add(&m, 5, "constant", F32, 0, NULL, 0, NULL);
	r = add(&m, 6, "reduce", F32, 1, (int64_t[]){ 8 }, 2,
	    (int64_t[]){ 4, 5 });
	r->called_computation_ids = &reducer;
	r->n_called_computation_ids = 1;
	c = cost(&m, 6);
	ck_assert_double_eq(c.flops, 360);
	/* 512 in, 4 of the init value, 32 out */
	ck_assert_double_eq(c.bytes, 548);
}
END_TEST

START_TEST(cost_custom_calls)
{
	static struct mod m;
	struct hlo_cost_env env = { find_index, find_instr, find_comp, &m,
	    MAXN, NULL };
	static int64_t d0[] = { 64, 16 }, d1[] = { 1024 };
	static Xla__TupleElementShapeProto parts[2] = {
		XLA__TUPLE_ELEMENT_SHAPE_PROTO__INIT,
		XLA__TUPLE_ELEMENT_SHAPE_PROTO__INIT,
	};
	Xla__TupleElementShapeProto *tuple[2] = { &parts[0], &parts[1] };
	Xla__HloInstructionProto *cc;
	struct hlo_cost c;
	static char target[] = "__cublas$lt$matmul", other[] = "my_kernel";
	static char config[] = "{\"gemm_backend_config\":{"
	    "\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":"
	    "[\"1\"],\"rhs_contracting_dimensions\":[\"0\"]}}}";

	/* cuBLAS: [64,32] x [32,16] -> ([64,16], s8[1024] scratch). */
	add(&m, 1, "parameter", F32, 2, (int64_t[]){ 64, 32 }, 0, NULL);
	add(&m, 2, "parameter", F32, 2, (int64_t[]){ 32, 16 }, 0, NULL);
	parts[0].element_type = F32;
	parts[0].n_dimensions = 2;
	parts[0].dimensions = d0;
	parts[1].element_type = S8;
	parts[1].n_dimensions = 1;
	parts[1].dimensions = d1;
	cc = add(&m, 3, "custom-call", TUPLE, 0, NULL, 2,
	    (int64_t[]){ 1, 2 });
	m.shape[2].tuple_shapes = tuple;
	m.shape[2].n_tuple_shapes = 2;

	cc->custom_call_target = target;
	cc->backend_config = config;
	c = cost(&m, 3);
	ck_assert_double_eq(c.flops, 2.0 * 64 * 16 * 32);
	/* operands and the result, not the scratch: (2048+512+1024) x 4 */
	ck_assert_double_eq(c.bytes, 14336);

	/* A custom call the rules do not know costs nothing known. */
	cc->custom_call_target = other;
	pack(&m);
	ck_assert_int_eq(hlo_cost_of(&env, cc, &c), -1);
	hlo_cost_env_release(&env);
}
END_TEST

START_TEST(cost_precision)
{
	static struct mod m;
	Xla__DotDimensionNumbers dd = XLA__DOT_DIMENSION_NUMBERS__INIT;
	Xla__PrecisionConfig pc = XLA__PRECISION_CONFIG__INIT;
	int32_t highest[] = { 2, 2 }, dflt[] = { 0, 0 };
	int64_t contract[] = { 1 }, called = 1;
	static char target[] = "__cublas$lt$matmul";
	static char config_default[] = "{\"gemm_backend_config\":{"
	    "\"precision_config\":{\"operand_precision\":[\"DEFAULT\","
	    "\"DEFAULT\"],\"algorithm\":\"ALG_UNSET\"}}}";
	static char config_highest[] = "{\"gemm_backend_config\":{"
	    "\"precision_config\":{\"operand_precision\":[\"HIGHEST\","
	    "\"HIGHEST\"]}}}";
	Xla__HloInstructionProto *d, *f, *cc;
	struct hlo_cost c;

	dd.lhs_contracting_dimensions = contract;
	dd.n_lhs_contracting_dimensions = 1;
	/* An f32 dot: DEFAULT (no config too) may be TF32, HIGHEST not. */
	add(&m, 1, "parameter", F32, 2, (int64_t[]){ 8, 4 }, 0, NULL);
	add(&m, 2, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	d = add(&m, 3, "dot", F32, 2, (int64_t[]){ 8, 8 }, 2,
	    (int64_t[]){ 1, 2 });
	d->dot_dimension_numbers = &dd;
	c = cost(&m, 3);
	ck_assert_int_eq(c.precision, PREC_FP32);
	ck_assert_int_eq(c.f32_dot, 1);
	pc.operand_precision = dflt;
	pc.n_operand_precision = 2;
	d->precision_config = &pc;
	c = cost(&m, 3);
	ck_assert_int_eq(c.f32_dot, 1);
	pc.operand_precision = highest;
	c = cost(&m, 3);
	ck_assert_int_eq(c.precision, PREC_FP32);
	ck_assert_int_eq(c.f32_dot, 0);

	/* A bf16 dot with an f32 result computes in bf16. */
	add(&m, 1, "parameter", BF16, 2, (int64_t[]){ 8, 4 }, 0, NULL);
	add(&m, 2, "parameter", BF16, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	c = cost(&m, 3);
	ck_assert_int_eq(c.precision, PREC_BF16);
	ck_assert_int_eq(c.f32_dot, 0);

	/*
	 * A fusion holding the dot takes the dot's, not its f32 output's:
	 * fp8 operands.
	 */
	add(&m, 1, "parameter", F8E4M3FN, 2, (int64_t[]){ 8, 4 }, 0, NULL);
	add(&m, 2, "parameter", F8E4M3FN, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	d = add(&m, 3, "dot", F32, 2, (int64_t[]){ 8, 8 }, 2,
	    (int64_t[]){ 1, 2 });
	d->dot_dimension_numbers = &dd;
	add(&m, 4, "negate", F32, 2, (int64_t[]){ 8, 8 }, 1,
	    (int64_t[]){ 3 });
	comp(&m, 1, 4, (int64_t[]){ 1, 2, 3, 4 });
	add(&m, 6, "parameter", F8E4M3FN, 2, (int64_t[]){ 8, 4 }, 0, NULL);
	add(&m, 7, "parameter", F8E4M3FN, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	f = add(&m, 8, "fusion", F32, 2, (int64_t[]){ 8, 8 }, 2,
	    (int64_t[]){ 6, 7 });
	f->called_computation_ids = &called;
	f->n_called_computation_ids = 1;
	c = cost(&m, 8);
	ck_assert_int_eq(c.precision, PREC_FP8);

	/* A fusion without one: its output's type, bf16. */
	add(&m, 1, "parameter", BF16, 2, (int64_t[]){ 8, 8 }, 0, NULL);
	add(&m, 2, "negate", BF16, 2, (int64_t[]){ 8, 8 }, 1,
	    (int64_t[]){ 1 });
	comp(&m, 1, 2, (int64_t[]){ 1, 2 });
	add(&m, 6, "parameter", BF16, 2, (int64_t[]){ 8, 8 }, 0, NULL);
	f = add(&m, 8, "fusion", BF16, 2, (int64_t[]){ 8, 8 }, 1,
	    (int64_t[]){ 6 });
	f->called_computation_ids = &called;
	f->n_called_computation_ids = 1;
	c = cost(&m, 8);
	ck_assert_int_eq(c.precision, PREC_BF16);
	ck_assert_int_eq(c.f32_dot, 0);

	/* cuBLAS on f32: its backend config's precision decides. */
	add(&m, 1, "parameter", F32, 2, (int64_t[]){ 8, 4 }, 0, NULL);
	add(&m, 2, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	cc = add(&m, 3, "custom-call", F32, 2, (int64_t[]){ 8, 8 }, 2,
	    (int64_t[]){ 1, 2 });
	cc->custom_call_target = target;
	cc->backend_config = config_default;
	c = cost(&m, 3);
	ck_assert_int_eq(c.precision, PREC_FP32);
	ck_assert_int_eq(c.f32_dot, 1);
	cc->backend_config = config_highest;
	c = cost(&m, 3);
	ck_assert_int_eq(c.f32_dot, 0);
}
END_TEST

/* in[id - 1]'s shape: the bytes given, not what add() made. */
static void
set_shape(struct mod *m, int64_t id, const uint8_t *bytes, size_t len)
{
	m->shape[id - 1].base.descriptor = NULL;	/* pack() skips it */
	m->in[id - 1].shape.data = (uint8_t *)(uintptr_t)bytes;
	m->in[id - 1].shape.len = len;
}

START_TEST(cost_nested_tuple)
{
	/*
	 * ShapeProtos on the wire (element_type 2, dimensions 3, tuple_shapes
	 * 4): (f32[8], f32[2,3]), and (f32[4], (f32[8], f32[2,3])), which
	 * the schema cannot build (it reads tuples one level deep).
	 */
	static const uint8_t inner[] = {
		0x10, TUPLE,
		0x22, 5, 0x10, F32, 0x1a, 1, 8,
		0x22, 6, 0x10, F32, 0x1a, 2, 2, 3,
	};
	static const uint8_t nested[] = {
		0x10, TUPLE,
		0x22, 5, 0x10, F32, 0x1a, 1, 4,
		0x22, sizeof inner,
		0x10, TUPLE,
		0x22, 5, 0x10, F32, 0x1a, 1, 8,
		0x22, 6, 0x10, F32, 0x1a, 2, 2, 3,
	};
	static struct mod m;
	Xla__HloInstructionProto *f;
	int64_t called = 1;
	struct hlo_cost c;

	/*
	 * fused: p0 f32[4], p1 f32[8], p2 f32[2,3], each negated (3 FLOPs an
	 * element), root = tuple(-p0, tuple(-p1, -p2)): 3 x (4 + 8 + 6)
	 * FLOPs.  Bytes as HloCostAnalysis counts a fusion: the parameters
	 * read, (4 + 8 + 6) x 4, and the output's arrays at every depth, as
	 * many again (the tuples' pointer tables are not counted).
	 */
	add(&m, 1, "parameter", F32, 1, (int64_t[]){ 4 }, 0, NULL);
	add(&m, 2, "parameter", F32, 1, (int64_t[]){ 8 }, 0, NULL);
	add(&m, 3, "parameter", F32, 2, (int64_t[]){ 2, 3 }, 0, NULL);
	add(&m, 4, "negate", F32, 1, (int64_t[]){ 4 }, 1, (int64_t[]){ 1 });
	add(&m, 5, "negate", F32, 1, (int64_t[]){ 8 }, 1, (int64_t[]){ 2 });
	add(&m, 6, "negate", F32, 2, (int64_t[]){ 2, 3 }, 1,
	    (int64_t[]){ 3 });
	add(&m, 7, "tuple", TUPLE, 0, NULL, 2, (int64_t[]){ 5, 6 });
	set_shape(&m, 7, inner, sizeof inner);
	add(&m, 8, "tuple", TUPLE, 0, NULL, 2, (int64_t[]){ 4, 7 });
	set_shape(&m, 8, nested, sizeof nested);
	comp(&m, 1, 8, (int64_t[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
	add(&m, 9, "parameter", F32, 1, (int64_t[]){ 4 }, 0, NULL);
	add(&m, 10, "parameter", F32, 1, (int64_t[]){ 8 }, 0, NULL);
	add(&m, 11, "parameter", F32, 2, (int64_t[]){ 2, 3 }, 0, NULL);
	f = add(&m, 12, "fusion", TUPLE, 0, NULL, 3,
	    (int64_t[]){ 9, 10, 11 });
	set_shape(&m, 12, nested, sizeof nested);
	f->called_computation_ids = &called;
	f->n_called_computation_ids = 1;
	c = cost(&m, 12);
	ck_assert_double_eq(c.flops, 3 * (4 + 8 + 6));
	ck_assert_double_eq(c.bytes, 2 * (4 + 8 + 6) * 4);
}
END_TEST

/* The cost of instruction id, or -1 as hlo_cost_of() says; entry: or 0. */
static int
cost_or_refused(struct mod *m, int64_t id, int64_t entry, struct hlo_cost *c)
{
	struct hlo_cost_env env = { find_index, find_instr, find_comp, m,
	    MAXN, NULL };
	int rc;

	pack(m);
	if (entry != 0)
		hlo_cost_env_entry(&env, entry);
	rc = hlo_cost_of(&env, &m->in[id - 1], c);
	hlo_cost_env_release(&env);
	return rc;
}

/* in's first called computation: cid. */
static void
calls(Xla__HloInstructionProto *in, int64_t *cid)
{
	in->called_computation_ids = cid;
	in->n_called_computation_ids = 1;
}

START_TEST(cost_shared_computations)
{
	static struct mod m;
	static int64_t fused = 2, reducer = 3;
	struct hlo_cost c;
	size_t i;

	/* The reducer, computation 3: an add of two f32[] scalars, 3 FLOPs. */
	add(&m, 1, "parameter", F32, 0, NULL, 0, NULL);
	add(&m, 2, "parameter", F32, 0, NULL, 0, NULL);
	add(&m, 3, "add", F32, 0, NULL, 2, (int64_t[]){ 1, 2 });
	comp(&m, 3, 3, (int64_t[]){ 1, 2, 3 });
	/*
	 * Computation 2, fused: p f32[4,8]; 0 constant; four reduces of p to
	 * f32[4] by the reducer, (32 - 4) x 3 FLOPs each, the root a tuple.
	 */
	add(&m, 4, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	add(&m, 5, "constant", F32, 0, NULL, 0, NULL);
	for (i = 6; i <= 9; i++)
		calls(add(&m, (int64_t)i, "reduce", F32, 1, (int64_t[]){ 4 }, 2,
		    (int64_t[]){ 4, 5 }), &reducer);
	add(&m, 10, "tuple", TUPLE, 0, NULL, 4, (int64_t[]){ 6, 7, 8, 9 });
	comp(&m, 2, 7, (int64_t[]){ 4, 5, 6, 7, 8, 9, 10 });
	/*
	 * Computation 1, fused: p; two fusions of computation 2, the
	 * second of the first's output; the root the second.
	 */
	add(&m, 11, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	calls(add(&m, 12, "fusion", F32, 1, (int64_t[]){ 4 }, 1,
	    (int64_t[]){ 11 }), &fused);
	calls(add(&m, 13, "fusion", F32, 1, (int64_t[]){ 4 }, 1,
	    (int64_t[]){ 12 }), &fused);
	comp(&m, 1, 3, (int64_t[]){ 11, 12, 13 });
	add(&m, 14, "parameter", F32, 2, (int64_t[]){ 4, 8 }, 0, NULL);
	calls(add(&m, 15, "fusion", F32, 1, (int64_t[]){ 4 }, 1,
	    (int64_t[]){ 14 }), &(int64_t){ 1 });
	ck_assert_int_eq(cost_or_refused(&m, 15, 0, &c), 0);
	/* Each costing of computation 2 the same: 2 x 4 x 28 x 3. */
	ck_assert_double_eq(c.flops, 2 * 4 * 28 * 3);
}
END_TEST

START_TEST(cost_cycles_refused)
{
	static struct mod m;
	static int64_t self = 2, entry = 1;
	struct hlo_cost c;
	size_t i;

	/*
	 * A reducer (computation 2) whose eight reduces apply itself:
	 * followed path by path, 8^8 walks; a cycle, refused.
	 */
	add(&m, 1, "parameter", F32, 0, NULL, 0, NULL);
	add(&m, 2, "parameter", F32, 0, NULL, 0, NULL);
	for (i = 3; i <= 10; i++)
		calls(add(&m, (int64_t)i, "reduce", F32, 0, NULL, 2,
		    (int64_t[]){ 1, 2 }), &self);
	comp(&m, 2, 10, (int64_t[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 });
	add(&m, 11, "parameter", F32, 2, (int64_t[]){ 8, 16 }, 0, NULL);
	add(&m, 12, "constant", F32, 0, NULL, 0, NULL);
	calls(add(&m, 13, "reduce", F32, 1, (int64_t[]){ 8 }, 2,
	    (int64_t[]){ 11, 12 }), &self);
	ck_assert_int_eq(cost_or_refused(&m, 13, 0, &c), -1);

	/* A fused computation: a chain of eight fusions of itself. */
	memset(&m, 0, sizeof m);
	add(&m, 1, "parameter", F32, 1, (int64_t[]){ 8 }, 0, NULL);
	for (i = 2; i <= 9; i++)
		calls(add(&m, (int64_t)i, "fusion", F32, 1, (int64_t[]){ 8 }, 1,
		    (int64_t[]){ (int64_t)i - 1 }), &self);
	comp(&m, 2, 9, (int64_t[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9 });
	add(&m, 10, "parameter", F32, 1, (int64_t[]){ 8 }, 0, NULL);
	calls(add(&m, 11, "fusion", F32, 1, (int64_t[]){ 8 }, 1,
	    (int64_t[]){ 10 }), &self);
	ck_assert_int_eq(cost_or_refused(&m, 11, 0, &c), -1);

	/*
	 * Fusions whose fused computation is the entry holding them: the
	 * same cycle, and refused when the entry is named even without one
	 * (a fusion of a computation that fuses the entry).
	 */
	memset(&m, 0, sizeof m);
	add(&m, 1, "parameter", F32, 1, (int64_t[]){ 8 }, 0, NULL);
	for (i = 2; i <= 9; i++)
		calls(add(&m, (int64_t)i, "fusion", F32, 1, (int64_t[]){ 8 }, 1,
		    (int64_t[]){ (int64_t)i - 1 }), &entry);
	comp(&m, 1, 9, (int64_t[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9 });
	ck_assert_int_eq(cost_or_refused(&m, 9, 1, &c), -1);
	ck_assert_int_eq(cost_or_refused(&m, 9, 0, &c), -1);
	add(&m, 10, "parameter", F32, 1, (int64_t[]){ 8 }, 0, NULL);
	add(&m, 11, "negate", F32, 1, (int64_t[]){ 8 }, 1, (int64_t[]){ 10 });
	comp(&m, 3, 2, (int64_t[]){ 10, 11 });
	add(&m, 12, "parameter", F32, 1, (int64_t[]){ 8 }, 0, NULL);
	calls(add(&m, 13, "fusion", F32, 1, (int64_t[]){ 8 }, 1,
	    (int64_t[]){ 12 }), &(int64_t){ 3 });
	ck_assert_int_eq(cost_or_refused(&m, 13, 0, &c), 0);
	ck_assert_double_eq(c.flops, 8 * 3);
	ck_assert_int_eq(cost_or_refused(&m, 13, 3, &c), -1);
}
END_TEST

/* A convolution of f32[1,in,1] by f32[size,1,1] to f32[1,out,1]. */
static Xla__HloInstructionProto *
conv1d(struct mod *m, int64_t in, int64_t out, int64_t size,
    Xla__Window *w, Xla__ConvolutionDimensionNumbers *cd)
{
	static int64_t sp[] = { 1 }, k_sp[] = { 0 };
	Xla__HloInstructionProto *c;

	add(m, 1, "parameter", F32, 3, (int64_t[]){ 1, in, 1 }, 0, NULL);
	add(m, 2, "parameter", F32, 3, (int64_t[]){ size, 1, 1 }, 0, NULL);
	c = add(m, 3, "convolution", F32, 3, (int64_t[]){ 1, out, 1 }, 2,
	    (int64_t[]){ 1, 2 });
	cd->input_batch_dimension = cd->output_batch_dimension = 0;
	cd->input_feature_dimension = cd->output_feature_dimension = 2;
	cd->input_spatial_dimensions = cd->output_spatial_dimensions = sp;
	cd->n_input_spatial_dimensions = cd->n_output_spatial_dimensions = 1;
	cd->kernel_input_feature_dimension = 1;
	cd->kernel_output_feature_dimension = 2;
	cd->kernel_spatial_dimensions = k_sp;
	cd->n_kernel_spatial_dimensions = 1;
	c->window = w;
	c->convolution_dimension_numbers = cd;
	return c;
}

/* The taps landing on input, one by one, as XLA's rules count them. */
static double
taps_walked(int64_t in, int64_t out, const Xla__WindowDimension *d)
{
	int64_t o, k, p;
	double n = 0;

	for (o = 0; o < out; o++)
		for (k = 0; k < d->size; k++) {
			p = o * d->stride - d->padding_low +
			    k * d->window_dilation;
			if (p >= 0 && p <= (in - 1) * d->base_dilation &&
			    p % d->base_dilation == 0)
				n++;
		}
	return n;
}

START_TEST(cost_conv_positions)
{
	static struct mod m;
	Xla__WindowDimension d = XLA__WINDOW_DIMENSION__INIT, *dp = &d;
	Xla__Window w = XLA__WINDOW__INIT;
	Xla__ConvolutionDimensionNumbers cd =
	    XLA__CONVOLUTION_DIMENSION_NUMBERS__INIT;
	int64_t in, size, stride, pad, wdil, bdil, out, span;
	struct hlo_cost c;

	w.dimensions = &dp;
	w.n_dimensions = 1;
	/* Every small window against the taps walked one by one. */
	for (in = 1; in <= 7; in += 3)
	for (size = 1; size <= 4; size++)
	for (stride = 1; stride <= 3; stride++)
	for (pad = 0; pad <= 3; pad++)
	for (wdil = 1; wdil <= 2; wdil++)
	for (bdil = 1; bdil <= 3; bdil++) {
		span = (in - 1) * bdil + 1 + 2 * pad - (size - 1) * wdil;
		if (span <= 0)
			continue;
		out = (span - 1) / stride + 1;
		d.size = size;
		d.stride = stride;
		d.padding_low = d.padding_high = pad;
		d.window_dilation = wdil;
		d.base_dilation = bdil;
		conv1d(&m, in, out, size, &w, &cd);
		ck_assert_int_eq(cost_or_refused(&m, 3, 0, &c), 0);
		ck_assert_double_eq(c.flops, 2 * taps_walked(in, out, &d));
	}

	/*
	 * A padded 3-tap window over 2^31 outputs: each sees 3 taps but the
	 * two at the edges, 2.
	 */
	d.size = 3;
	d.stride = d.window_dilation = d.base_dilation = 1;
	d.padding_low = d.padding_high = 1;
	conv1d(&m, INT64_C(1) << 31, INT64_C(1) << 31, 3, &w, &cd);
	ck_assert_int_eq(cost_or_refused(&m, 3, 0, &c), 0);
	ck_assert_double_eq(c.flops, 2 * (3 * 0x1p31 - 2));

	/*
	 * A stride of 2^62 over 4 outputs of an input of 4: only the first
	 * output lands, on 2 taps; the others lie past int64.
	 */
	d.stride = INT64_C(1) << 62;
	conv1d(&m, 4, 4, 3, &w, &cd);
	ck_assert_int_eq(cost_or_refused(&m, 3, 0, &c), 0);
	ck_assert_double_eq(c.flops, 2 * 2);

	/* Both the outputs and the taps past what is counted: refused. */
	d.stride = 1;
	d.size = INT64_C(1) << 40;
	conv1d(&m, INT64_C(1) << 40, INT64_C(1) << 40, 1, &w, &cd);
	ck_assert_int_eq(cost_or_refused(&m, 3, 0, &c), -1);
}
END_TEST

START_TEST(cost_shape_of_many_dims)
{
	enum { NDIMS = 60000 };
	static uint8_t bytes[2 + 2 * NDIMS];
	static struct mod m;
	struct hlo_cost c;
	size_t i;

	/*
	 * f32 of 60,000 dimensions of 1, each a field of its own (key 0x18,
	 * as a writer that does not pack them puts it), negated: 3 FLOPs.
	 */
	bytes[0] = 0x10;
	bytes[1] = F32;
	for (i = 0; i < NDIMS; i++) {
		bytes[2 + 2 * i] = 0x18;
		bytes[3 + 2 * i] = 1;
	}
	add(&m, 1, "parameter", F32, 0, NULL, 0, NULL);
	add(&m, 2, "negate", F32, 0, NULL, 1, (int64_t[]){ 1 });
	set_shape(&m, 1, bytes, sizeof bytes);
	set_shape(&m, 2, bytes, sizeof bytes);
	ck_assert_int_eq(cost_or_refused(&m, 2, 0, &c), 0);
	ck_assert_double_eq(c.flops, 3);
	ck_assert_double_eq(c.bytes, 8);
}
END_TEST

Suite *
suite_hlo_cost(void)
{
	Suite *s = suite_create("hlo_cost");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, cost_dot);
	tcase_add_test(tc, cost_convolution);
	tcase_add_test(tc, cost_fusion);
	tcase_add_test(tc, cost_reduce);
	tcase_add_test(tc, cost_custom_calls);
	tcase_add_test(tc, cost_precision);
	tcase_add_test(tc, cost_nested_tuple);
	tcase_add_test(tc, cost_shared_computations);
	tcase_add_test(tc, cost_cycles_refused);
	tcase_add_test(tc, cost_conv_positions);
	tcase_add_test(tc, cost_shape_of_many_dims);
	suite_add_tcase(s, tc);
	return s;
}
