/* Cost rules: FLOPs and bytes of HLO instructions (hlo-cost.h). */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arena.h"
#include "lib/checked.h"
#include "lib/xmalloc.h"
#include "model/hlo-cost.h"

typedef Xla__HloInstructionProto InstrProto;
typedef Xla__HloComputationProto CompProto;
typedef Xla__ShapeProto ShapeProto;

/*
 * Computations called from called computations, followed at most: deeper
 * call trees are refused, so that a hostile one cannot exhaust the stack.
 */
#define MAX_CALL_DEPTH	32

/*
 * Steps of a fused computation's walk per member (keeping each root once
 * per instruction): past them the fusion is refused, not walked to its end.
 */
#define ROOT_STEPS_PER_MEMBER	4096

/*
 * Tap positions a convolution's dimension is counted by, at most, where
 * padding or dilation make the count more than a product.
 */
#define MAX_CONV_STEPS	(INT64_C(1) << 24)

/* XLA PrimitiveType values the rules treat apart. */
enum { PT_F32 = 11, PT_TUPLE = 13 };

/* The bytes of one element of XLA PrimitiveType t; 0 for none. */
static double
hlo_cost_type_bytes(int32_t t)
{
	/* By PrimitiveType: sub-byte types take a byte, as XLA sizes them. */
	static const unsigned char bytes[] = {
		0, 1, 1, 2, 4, 8, 1, 2, 4, 8,	/* INVALID PRED S8..U64 */
		2, 4, 8, 0, 0, 8, 2, 0, 16, 1,	/* F16 F32 F64 TUPLE OPAQUE
						   C64 BF16 TOKEN C128 F8E5M2 */
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* F8E4M3FN S4 U4 ... */
		1, 1, 1, 1, 1, 1,
	};

	return t >= 0 && (size_t)t < sizeof bytes ? bytes[t] : 0;
}

static double
elements(const ShapeProto *s)
{
	double n = 1;
	size_t i;

	if (s == NULL)
		return 0;
	for (i = 0; i < s->n_dimensions; i++)
		n *= (double)s->dimensions[i];
	return n;
}

/*
 * A tuple's element i as a shape of its own, in *tmp.  The schema reads
 * tuples one level deep; read_shape() puts the elements of a tuple nested
 * in one after it among the outer tuple's, at every depth, so that the
 * leaves are all there (the nested tuple itself, of no array, has no
 * bytes).  Only element 0 is asked for by its index.
 */
static const ShapeProto *
tuple_element(const ShapeProto *s, size_t i, ShapeProto *tmp)
{
	static const ShapeProto init = XLA__SHAPE_PROTO__INIT;
	const Xla__TupleElementShapeProto *e = s->tuple_shapes[i];

	*tmp = init;
	tmp->element_type = e->element_type;
	tmp->n_dimensions = e->n_dimensions;
	tmp->dimensions = e->dimensions;
	return tmp;
}

/*
 * Bytes of a shape: a tuple's are its arrays', at every depth, as
 * HloCostAnalysis sums the array subshapes of a fusion's output.
 */
static double
shape_bytes(const ShapeProto *s)
{
	ShapeProto tmp;
	double b = 0;
	size_t i;

	if (s == NULL)
		return 0;
	if (s->element_type != PT_TUPLE)
		return elements(s) * hlo_cost_type_bytes(s->element_type);
	for (i = 0; i < s->n_tuple_shapes; i++)
		b += shape_bytes(tuple_element(s, i, &tmp));
	return b;
}

/*
 * The array a library call returns: a tuple's first (the rest is
 * scratch), in *tmp.
 */
static const ShapeProto *
result_array(const ShapeProto *s, ShapeProto *tmp)
{
	if (s != NULL && s->element_type == PT_TUPLE)
		return s->n_tuple_shapes > 0 ? tuple_element(s, 0, tmp) : NULL;
	return s;
}

static int64_t
dim(const ShapeProto *s, int64_t i)
{
	return s != NULL && i >= 0 && (size_t)i < s->n_dimensions ?
	    s->dimensions[i] : 1;
}

struct hlo_cost_scratch {
	size_t		 n;		/* instructions of the module */
	double		*util;		/* per instruction */
	double		*root_util;	/* as a root */
	uint32_t	*head, *tail;	/* its roots: nodes[] index + 1 */
	uint32_t	*next;		/* order_from()'s: operand to visit */
	uint32_t	*mark;		/* serial of the walk it is a member of */
	uint32_t	*seen;		/* serial of the walk that reached it */
	uint8_t		*kind;		/* kinds[] index + 1, UINT8_MAX none, 0 unknown */
	const ShapeProto **shape;	/* decoded, no_shape for none */
	struct arena	 arena;		/* of the decoded shapes */
	struct root_node {
		uint32_t	 root, next;	/* next: nodes[] index + 1 */
	}		*nodes;
	size_t		 nnodes, capnodes;
	uint32_t	 serial;
	uint64_t	 steps, max_steps;	/* of the current fused walk */
	/* Called computations costed, by id: an open-addressed table. */
	struct comp_memo *memo;
	size_t		 memo_mask, nmemo;
	/*
	 * Of the instruction being costed: a cycle or a size beyond counting
	 * met (refused, as are the computations that lead there), a call
	 * tree deeper than MAX_CALL_DEPTH (too_deep), the depth reached.
	 */
	int		 refused, too_deep, reach;
	int		 has_entry;
	int64_t		 entry_id;
};

/* How a computation is called: applied per element, or fused. */
enum use { USE_APPLIED, USE_FUSED, NUSES };

enum memo_state { MEMO_NONE, MEMO_RUNNING, MEMO_DONE, MEMO_REFUSED };

struct comp_memo {
	int64_t		 id;
	int		 used;
	uint8_t		 state[NUSES];
	uint8_t		 height[NUSES];	/* of its call tree, when done */
	double		 flops[NUSES];
	double		 read;		/* fused: of its parameters */
};

static struct hlo_cost_scratch *
scratch_of(struct hlo_cost_env *env)
{
	struct hlo_cost_scratch *sc = env->scratch;
	size_t n = env->n;

	if (sc != NULL)
		return sc;
	sc = env->scratch = xcalloc(1, sizeof *sc);
	sc->n = n;
	sc->util = xcalloc(n + 1, sizeof *sc->util);
	sc->root_util = xcalloc(n + 1, sizeof *sc->root_util);
	sc->head = xcalloc(n + 1, sizeof *sc->head);
	sc->tail = xcalloc(n + 1, sizeof *sc->tail);
	sc->next = xcalloc(n + 1, sizeof *sc->next);
	sc->mark = xcalloc(n + 1, sizeof *sc->mark);
	sc->seen = xcalloc(n + 1, sizeof *sc->seen);
	sc->kind = xcalloc(n + 1, sizeof *sc->kind);
	sc->shape = xcalloc(n + 1, sizeof *sc->shape);
	return sc;
}

void
hlo_cost_env_entry(struct hlo_cost_env *env, int64_t id)
{
	struct hlo_cost_scratch *sc = scratch_of(env);

	sc->has_entry = 1;
	sc->entry_id = id;
}

void
hlo_cost_env_release(struct hlo_cost_env *env)
{
	struct hlo_cost_scratch *sc = env->scratch;

	if (sc == NULL)
		return;
	free(sc->util);
	free(sc->root_util);
	free(sc->head);
	free(sc->tail);
	free(sc->next);
	free(sc->mark);
	free(sc->seen);
	free(sc->kind);
	free(sc->shape);
	arena_release(&sc->arena);
	free(sc->nodes);
	free(sc->memo);
	free(sc);
	env->scratch = NULL;
}

static void *
arena_pb_alloc(void *arena, size_t n)
{
	return arena_alloc(arena, n);
}

static void
arena_pb_free(void *arena, void *p)
{
	(void)arena;
	(void)p;
}

static const ShapeProto no_shape = XLA__SHAPE_PROTO__INIT;

/* A varint at *p, below end, into *v; -1 when cut off or too long. */
static int
shape_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned i;

	*v = 0;
	for (i = 0; i < 10 && *p < end; i++) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (b < 0x80)
			return 0;
	}
	return -1;
}

/*
 * Dimensions: one varint (wire type 0) or a packed run (2), appended to
 * *dims, which count_dims() sized to hold them all.
 */
static int
shape_dims(int wt, const uint8_t **p, const uint8_t *end, int64_t *dims,
    size_t *n, size_t cap)
{
	const uint8_t *stop = end;
	uint64_t v;

	if (wt == 2) {
		if (shape_varint(p, end, &v) == -1 ||
		    v > (uint64_t)(end - *p))
			return -1;
		stop = *p + v;
	} else if (wt != 0)
		return -1;
	do {
		if (wt == 2 && *p == stop)
			break;		/* an empty run */
		if (*n == cap || shape_varint(p, stop, &v) == -1)
			return -1;
		dims[(*n)++] = (int64_t)v;
	} while (wt == 2);
	return 0;
}

/* Skips one field of wire type wt. */
static int
shape_skip(int wt, const uint8_t **p, const uint8_t *end)
{
	uint64_t v;

	switch (wt) {
	case 0:
		return shape_varint(p, end, &v);
	case 1:
	case 5:
		v = wt == 1 ? 8 : 4;
		break;
	case 2:
		if (shape_varint(p, end, &v) == -1)
			return -1;
		break;
	default:
		return -1;
	}
	if (v > (uint64_t)(end - *p))
		return -1;
	*p += v;
	return 0;
}

/*
 * The dimensions of the message in [p, end), not its tuples': counted
 * before they are read, so that a shape of many separate dims fields
 * gets one array, not one copy per field.
 */
static int
count_dims(const uint8_t *p, const uint8_t *end, size_t *n)
{
	const uint8_t *q;
	uint64_t key, len;

	*n = 0;
	while (p < end) {
		if (shape_varint(&p, end, &key) == -1)
			return -1;
		if (key == (3 << 3 | 0)) {
			*n += 1;
			if (shape_varint(&p, end, &len) == -1)
				return -1;
		} else if (key == (3 << 3 | 2)) {
			if (shape_varint(&p, end, &len) == -1 ||
			    len > (uint64_t)(end - p))
				return -1;
			for (q = p, p += len; q < p; q++)
				*n += *q < 0x80;
		} else if (shape_skip((int)(key & 7), &p, end) == -1)
			return -1;
	}
	return 0;
}

/* Tuples nested in tuples, followed at most. */
#define MAX_TUPLE_DEPTH	8

/* A new element at the end of the tuple s, whose array holds *cap. */
static Xla__TupleElementShapeProto *
tuple_add(struct arena *a, ShapeProto *s, size_t *cap)
{
	static const Xla__TupleElementShapeProto einit =
	    XLA__TUPLE_ELEMENT_SHAPE_PROTO__INIT;
	Xla__TupleElementShapeProto *e;

	if (s->n_tuple_shapes == *cap) {
		Xla__TupleElementShapeProto **grown;

		*cap = *cap == 0 ? 4 : *cap * 2;
		grown = arena_alloc(a, *cap * sizeof *grown);
		if (s->n_tuple_shapes > 0)
			memcpy(grown, s->tuple_shapes,
			    s->n_tuple_shapes * sizeof *grown);
		s->tuple_shapes = grown;
	}
	e = arena_alloc(a, sizeof *e);
	*e = einit;
	s->tuple_shapes[s->n_tuple_shapes++] = e;
	return e;
}

/*
 * Into s, or (s NULL) into e, an element of the tuple top at the given
 * depth (1 for top's own elements); a tuple's elements, nested ones too,
 * become top's (tuple_element()).  *cap: what top's array holds.
 */
static int
read_shape_in(struct arena *a, const uint8_t *p, const uint8_t *end,
    ShapeProto *s, Xla__TupleElementShapeProto *e, ShapeProto *top,
    size_t *cap, int depth)
{
	uint64_t key, v;
	int32_t *type = s != NULL ? &s->element_type : &e->element_type;
	int64_t **dims = s != NULL ? &s->dimensions : &e->dimensions;
	size_t *ndims = s != NULL ? &s->n_dimensions : &e->n_dimensions;
	size_t room;

	if (count_dims(p, end, &room) == -1)
		return -1;
	if (room > 0)
		*dims = arena_alloc(a, room * sizeof **dims);
	while (p < end) {
		int wt;

		if (shape_varint(&p, end, &key) == -1)
			return -1;
		wt = (int)(key & 7);
		switch (key >> 3) {
		case 2:
			if (wt != 0 || shape_varint(&p, end, &v) == -1)
				return -1;
			*type = (int32_t)(uint32_t)v;
			break;
		case 3:
			if (shape_dims(wt, &p, end, *dims, ndims, room) == -1)
				return -1;
			break;
		case 4:
			if (wt != 2 || shape_varint(&p, end, &v) == -1 ||
			    v > (uint64_t)(end - p) || depth >= MAX_TUPLE_DEPTH)
				return -1;
			if (read_shape_in(a, p, p + v, NULL, tuple_add(a, top,
			    cap), top, cap, depth + 1) == -1)
				return -1;
			p += v;
			break;
		default:
			if (shape_skip(wt, &p, end) == -1)
				return -1;
		}
	}
	return 0;
}

/*
 * A ShapeProto read from its bytes into the arena: element_type,
 * dimensions and the tuple's elements (nested ones' after theirs), the
 * rest skipped.  Shapes are most of what the rules read and all alike,
 * so they skip protobuf-c's general reader (bench/RESULTS.md).  -1 in doubt
 * (then protobuf-c decides, reading tuples one level deep).
 */
static int
read_shape(struct arena *a, const uint8_t *p, const uint8_t *end,
    ShapeProto *s)
{
	size_t cap = 0;

	return read_shape_in(a, p, end, s, NULL, s, &cap, 0);
}

/* The shape of in, decoded from its bytes into sc's arena; NULL if none. */
static const ShapeProto *
decode_shape(struct hlo_cost_scratch *sc, const InstrProto *in)
{
	ProtobufCAllocator a = { arena_pb_alloc, arena_pb_free, &sc->arena };
	ShapeProto *s;

	if (in->shape.len == 0)
		return NULL;
	s = arena_alloc(&sc->arena, sizeof *s);
	*s = no_shape;
	if (read_shape(&sc->arena, in->shape.data, in->shape.data +
	    in->shape.len, s) == 0)
		return s;
	return (const ShapeProto *)protobuf_c_message_unpack(
	    &xla__shape_proto__descriptor, &a, in->shape.len, in->shape.data);
}

/*
 * The shape of in, or NULL.  Shapes come as bytes and are decoded here,
 * once each: most instructions of most modules are never asked about.
 */
static const ShapeProto *
shape_of(struct hlo_cost_env *env, const InstrProto *in)
{
	struct hlo_cost_scratch *sc = scratch_of(env);
	int64_t k = env->index_of(env->ctx, in->id);
	const ShapeProto *s;

	if (k < 0 || (size_t)k >= env->n || env->instr(env->ctx, (size_t)k) != in)
		return decode_shape(sc, in);	/* not the one of its id */
	if (sc->shape[k] == NULL) {
		s = decode_shape(sc, in);
		sc->shape[k] = s != NULL ? s : &no_shape;
	}
	return sc->shape[k] != &no_shape ? sc->shape[k] : NULL;
}

static const InstrProto *
operand(struct hlo_cost_env *env, const InstrProto *in, size_t i)
{
	int64_t k = i < in->n_operand_ids ?
	    env->index_of(env->ctx, in->operand_ids[i]) : -1;

	return k >= 0 && (size_t)k < env->n ?
	    env->instr(env->ctx, (size_t)k) : NULL;
}

static const ShapeProto *
operand_shape(struct hlo_cost_env *env, const InstrProto *in, size_t i)
{
	const InstrProto *op = operand(env, in, i);

	return op != NULL ? shape_of(env, op) : NULL;
}

/* What the rules do with an opcode. */
enum kind {
	K_OTHER, K_ELEMENTWISE, K_PASS, K_SLICE, K_FUSION, K_DOT, K_CONV,
	K_REDUCE, K_REDUCE_WINDOW, K_CONCAT, K_PARAMETER, K_CUSTOM_CALL,
	K_SCATTER,
};

/*
 * Sorted by opcode, with the FLOPs per f32 element of
 * the elementwise ops: the clock cycles of XLA's measured GPU op profile
 * where it has the op, those xprof 2.24's cost analysis counts
 * (jaxprof-top(1)); 0 for its default of 3, which other types take too.
 */
struct op_kind {
	const char	*opcode;
	enum kind	 kind;
	int		 f32;
};

static const struct op_kind kinds[] = {
	{ "abs", K_ELEMENTWISE, 0 }, { "add", K_ELEMENTWISE, 0 },
	{ "and", K_ELEMENTWISE, 0 }, { "atan2", K_ELEMENTWISE, 0 },
	{ "cbrt", K_ELEMENTWISE, 0 }, { "ceil", K_ELEMENTWISE, 0 },
	{ "clamp", K_ELEMENTWISE, 0 }, { "clz", K_ELEMENTWISE, 0 },
	{ "compare", K_ELEMENTWISE, 0 }, { "complex", K_ELEMENTWISE, 0 },
	{ "concatenate", K_CONCAT, 0 }, { "convert", K_ELEMENTWISE, 0 },
	{ "convolution", K_CONV, 0 }, { "copy", K_PASS, 0 },
	{ "cosine", K_ELEMENTWISE, 662 }, { "custom-call", K_CUSTOM_CALL, 0 },
	{ "divide", K_ELEMENTWISE, 0 }, { "dot", K_DOT, 0 },
	{ "dynamic-slice", K_SLICE, 0 }, { "erf", K_ELEMENTWISE, 0 },
	{ "exponential", K_ELEMENTWISE, 86 },
	{ "exponential-minus-one", K_ELEMENTWISE, 0 },
	{ "floor", K_ELEMENTWISE, 0 }, { "fusion", K_FUSION, 0 },
	{ "gather", K_SLICE, 0 }, { "get-tuple-element", K_PASS, 0 },
	{ "imag", K_ELEMENTWISE, 0 }, { "is-finite", K_ELEMENTWISE, 0 },
	{ "log", K_ELEMENTWISE, 1429 }, { "log-plus-one", K_ELEMENTWISE, 0 },
	{ "logistic", K_ELEMENTWISE, 0 }, { "maximum", K_ELEMENTWISE, 0 },
	{ "minimum", K_ELEMENTWISE, 0 }, { "multiply", K_ELEMENTWISE, 0 },
	{ "negate", K_ELEMENTWISE, 0 }, { "not", K_ELEMENTWISE, 0 },
	{ "or", K_ELEMENTWISE, 0 }, { "parameter", K_PARAMETER, 0 },
	{ "popcnt", K_ELEMENTWISE, 0 }, { "power", K_ELEMENTWISE, 925 },
	{ "real", K_ELEMENTWISE, 0 }, { "reduce", K_REDUCE, 0 },
	{ "reduce-precision", K_ELEMENTWISE, 0 },
	{ "reduce-window", K_REDUCE_WINDOW, 0 },
	{ "remainder", K_ELEMENTWISE, 0 },
	{ "round-nearest-afz", K_ELEMENTWISE, 0 },
	{ "round-nearest-even", K_ELEMENTWISE, 0 },
	{ "rsqrt", K_ELEMENTWISE, 75 }, { "scatter", K_SCATTER, 0 },
	{ "select", K_ELEMENTWISE, 0 },
	{ "shift-left", K_ELEMENTWISE, 0 },
	{ "shift-right-arithmetic", K_ELEMENTWISE, 0 },
	{ "shift-right-logical", K_ELEMENTWISE, 0 },
	{ "sign", K_ELEMENTWISE, 0 }, { "sine", K_ELEMENTWISE, 662 },
	{ "slice", K_SLICE, 0 }, { "sqrt", K_ELEMENTWISE, 75 },
	{ "subtract", K_ELEMENTWISE, 0 }, { "tan", K_ELEMENTWISE, 0 },
	{ "tanh", K_ELEMENTWISE, 190 }, { "tuple", K_PASS, 0 },
	{ "xor", K_ELEMENTWISE, 0 },
};

/*
 * cost_kind_of() by a hash of the opcode: every instruction a rule reaches is
 * looked up, and a binary search of strcmp()s was most of a fused
 * instruction's cost.  Built once, for all threads.
 */
#define OPCODE_SLOTS	256	/* a power of 2, > 2 x kinds[] */
static uint8_t kind_slots[OPCODE_SLOTS];	/* kinds[] index + 1; 0 empty */
static pthread_once_t kind_once = PTHREAD_ONCE_INIT;

static unsigned
kind_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h & (OPCODE_SLOTS - 1);
}

static void
kind_build(void)
{
	size_t i;
	unsigned j;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		for (j = kind_hash(kinds[i].opcode); kind_slots[j] != 0;
		    j = (j + 1) & (OPCODE_SLOTS - 1))
			;
		kind_slots[j] = (uint8_t)(i + 1);
	}
}

static const struct op_kind *
cost_kind_of(const InstrProto *in)
{
	static const struct op_kind other = { "", K_OTHER, 0 };
	unsigned j;

	pthread_once(&kind_once, kind_build);
	for (j = kind_hash(in->opcode); kind_slots[j] != 0;
	    j = (j + 1) & (OPCODE_SLOTS - 1))
		if (strcmp(kinds[kind_slots[j] - 1].opcode, in->opcode) == 0)
			return &kinds[kind_slots[j] - 1];
	return &other;
}

static void called_cost(struct hlo_cost_env *env, const InstrProto *in,
		    enum use use, int depth, double *flops, double *read);

/* FLOPs of a computation applied once per element (a reducer). */
static double
applied_flops(struct hlo_cost_env *env, const InstrProto *in, int depth)
{
	double flops, read;

	called_cost(env, in, USE_APPLIED, depth + 1, &flops, &read);
	return flops;
}

/* 2 x the output's elements x the contracted elements of the lhs. */
static double
dot_flops(const ShapeProto *lhs, const ShapeProto *out,
    const int64_t *contracting, size_t n)
{
	double k = 1;
	size_t i;

	for (i = 0; i < n; i++)
		k *= (double)dim(lhs, contracting[i]);
	return 2 * elements(out) * k;
}

/*
 * How many t in [0, n) put from + t x step (step > 0) in [0, last] on a
 * multiple of bdil, in *count; -1 when that takes more than *budget
 * steps, which it spends.  Without dilation the range is worked out,
 * with it walked.
 */
static int
count_on_input(int64_t from, int64_t step, int64_t n, int64_t last,
    int64_t bdil, int64_t *budget, double *count)
{
	int64_t lo, hi, t;

	/* lo: the first t at or past 0; hi: the last at or before last. */
	if (from > last)
		return 0;
	lo = from >= 0 ? 0 : (sat_sub(0, from) - 1) / step + 1;
	hi = sat_sub(last, from) / step;
	if (hi > n - 1)
		hi = n - 1;
	if (hi < lo)
		return 0;
	if (bdil == 1) {
		*count += (double)(hi - lo) + 1;
		return 0;
	}
	if (hi - lo >= *budget)
		return -1;
	*budget -= hi - lo + 1;
	for (t = lo; t <= hi; t++)
		if (sat_add(from, sat_mul(t, step)) % bdil == 0)
			++*count;
	return 0;
}

/*
 * The kernel positions of one spatial dimension that land on input, over
 * all output positions: what padding and dilation leave of out x size;
 * -1 when beyond MAX_CONV_STEPS to count.  The shorter of the outputs
 * and the taps is walked, the positions of the other counted for each.
 */
static double
valid_positions(int64_t in_size, int64_t out_size,
    const Xla__WindowDimension *w)
{
	int64_t stride = w->stride > 0 ? w->stride : 1;
	int64_t wdil = w->window_dilation > 0 ? w->window_dilation : 1;
	int64_t bdil = w->base_dilation > 0 ? w->base_dilation : 1;
	int64_t last, i, budget = MAX_CONV_STEPS;
	double n = 0;

	if (w->padding_low == 0 && w->padding_high == 0 && wdil == 1 &&
	    bdil == 1)
		return (double)out_size * (double)w->size;
	if (in_size <= 0 || out_size <= 0 || w->size <= 0)
		return 0;
	if ((out_size <= w->size ? out_size : w->size) > MAX_CONV_STEPS)
		return -1;
	last = sat_mul(in_size - 1, bdil);
	if (out_size <= w->size) {
		for (i = 0; i < out_size; i++)
			if (--budget < 0 || count_on_input(sat_add(sat_mul(i,
			    stride), sat_sub(0, w->padding_low)), wdil,
			    w->size, last, bdil, &budget, &n) == -1)
				return -1;
	} else {
		for (i = 0; i < w->size; i++)
			if (--budget < 0 || count_on_input(sat_add(sat_mul(i,
			    wdil), sat_sub(0, w->padding_low)), stride,
			    out_size, last, bdil, &budget, &n) == -1)
				return -1;
	}
	return n;
}

/*
 * 2 x FMAs: input features per group x output features x batch per group
 * x the valid kernel positions of each spatial dimension; -1 beyond
 * counting.
 */
static double
conv_flops(const InstrProto *in, const ShapeProto *lhs, const ShapeProto *out)
{
	const Xla__ConvolutionDimensionNumbers *d =
	    in->convolution_dimension_numbers;
	int64_t fg = in->feature_group_count > 0 ? in->feature_group_count : 1;
	int64_t bg = in->batch_group_count > 0 ? in->batch_group_count : 1;
	double fma;
	size_t i;

	if (d == NULL || lhs == NULL || out == NULL)
		return 0;
	fma = (double)(dim(lhs, d->input_feature_dimension) / fg) *
	    (double)dim(out, d->output_feature_dimension) *
	    (double)(dim(lhs, d->input_batch_dimension) / bg);
	for (i = 0; i < d->n_output_spatial_dimensions &&
	    i < d->n_input_spatial_dimensions; i++) {
		if (in->window != NULL && i < in->window->n_dimensions) {
			double v = valid_positions(
			    dim(lhs, d->input_spatial_dimensions[i]),
			    dim(out, d->output_spatial_dimensions[i]),
			    in->window->dimensions[i]);

			if (v < 0)
				return -1;
			fma *= v;
		} else
			fma *= (double)dim(out,
			    d->output_spatial_dimensions[i]);
	}
	return 2 * fma;
}

/* The numbers of a JSON array of (quoted) integers after key, up to 8. */
static size_t
json_ints(const char *json, const char *key, int64_t *out, size_t max)
{
	const char *p = strstr(json, key);
	size_t n = 0;

	if (p == NULL || (p = strchr(p + strlen(key), '[')) == NULL)
		return 0;
	for (p++; *p != '\0' && *p != ']' && n < max; ) {
		char *end;
		long long v;

		if (*p == '"' || *p == ',' || *p == ' ') {
			p++;
			continue;
		}
		v = strtoll(p, &end, 10);
		if (end == p)
			break;
		out[n++] = v;
		p = end;
	}
	return n;
}

static int
is_gemm_call(const char *target)
{
	return strncmp(target, "__cublas$", 9) == 0 ||
	    strncmp(target, "__hipblas$", 10) == 0;
}

static int
is_dnn_conv_call(const char *target)
{
	return strncmp(target, "__cudnn$conv", 12) == 0 ||
	    strncmp(target, "__miopen$conv", 13) == 0;
}

/* FLOPs of one instruction of kind kd; fused computations as the fusion's. */
static double
kind_flops(struct hlo_cost_env *env, const InstrProto *in,
    const struct op_kind *ok, int depth)
{
	const ShapeProto *s = shape_of(env, in);
	const Xla__DotDimensionNumbers *dd = in->dot_dimension_numbers;
	ShapeProto tmp;
	double flops, read, w = 1;
	size_t i;

	switch (ok->kind) {
	case K_FUSION:
		called_cost(env, in, USE_FUSED, depth + 1, &flops, &read);
		return flops;
	case K_ELEMENTWISE:
		return (s != NULL && s->element_type == PT_F32 && ok->f32 > 0 ?
		    ok->f32 : 3) * elements(s);
	case K_DOT:
		return dd != NULL ? dot_flops(operand_shape(env, in, 0), s,
		    dd->lhs_contracting_dimensions,
		    dd->n_lhs_contracting_dimensions) : 0;
	case K_CONV:
		if ((flops = conv_flops(in, operand_shape(env, in, 0), s)) < 0)
			env->scratch->refused = 1;
		return flops < 0 ? 0 : flops;
	case K_REDUCE:
		/* Each reduced element but one per output goes through it. */
		return (elements(operand_shape(env, in, 0)) -
		    elements(result_array(s, &tmp))) * applied_flops(env, in, depth);
	case K_REDUCE_WINDOW:
		if (in->window == NULL)
			return 0;
		for (i = 0; i < in->window->n_dimensions; i++)
			w *= (double)in->window->dimensions[i]->size;
		return elements(result_array(s, &tmp)) * (w - 1) *
		    applied_flops(env, in, depth);
	case K_CONCAT:
		return 6 * elements(s);	/* a compare and a branch each */
	case K_SCATTER:
		/* The update computation once per update element. */
		return elements(operand_shape(env, in, in->n_operand_ids - 1)) *
		    applied_flops(env, in, depth);
	default:
		return 0;
	}
}

static double
instr_flops(struct hlo_cost_env *env, const InstrProto *in, int depth)
{
	return kind_flops(env, in, cost_kind_of(in), depth);
}

/* Plain computations (a reducer): each instruction once. */
static double
applied_walk(struct hlo_cost_env *env, const CompProto *c, int depth)
{
	double f = 0;
	size_t i;

	for (i = 0; i < c->n_instructions && !env->scratch->refused &&
	    !env->scratch->too_deep; i++)
		f += instr_flops(env, c->instructions[i], depth);
	return f;
}

/* The share of its first operand's elements a slice or gather reads. */
static double
sliced_share(struct hlo_cost_env *env, const InstrProto *in)
{
	double n = elements(operand_shape(env, in, 0));

	return n > 0 ? elements(shape_of(env, in)) / n : 1;
}

/*
 * A fusion as XLA's GPU cost analysis sees it: going from the root to
 * the parameters, an instruction is emitted once for each "root" that
 * uses it elementwise (the fusion's root, and each operand of an
 * instruction that is not elementwise, weighed by the share of it read),
 * its FLOPs counted that many times; a parameter is read that share of
 * its bytes, at most once.
 *
 * The state of the walk is kept per instruction of the module, by
 * env->index_of(), in one scratch for all the fusions of a module (fused
 * computations are small and many: one allocation each was most of
 * their cost).  A fusion's members are those with its serial in mark[].
 */
/* The kind of instruction i, looked up once. */
static const struct op_kind *
kind_at(struct hlo_cost_scratch *sc, size_t i, const InstrProto *in)
{
	const struct op_kind *k;

	static const struct op_kind other = { "", K_OTHER, 0 };
	const size_t nkinds = sizeof kinds / sizeof kinds[0];

	if (sc->kind[i] != 0)
		return sc->kind[i] <= nkinds ? &kinds[sc->kind[i] - 1] : &other;
	k = cost_kind_of(in);
	sc->kind[i] = k->kind != K_OTHER ? (uint8_t)(k - kinds + 1) :
	    UINT8_MAX;
	return k;
}

/* The module index of operand j of in when it is a member of walk s. */
static int64_t
member(struct hlo_cost_env *env, const InstrProto *in, size_t j, uint32_t s)
{
	int64_t o = env->index_of(env->ctx, in->operand_ids[j]);

	return o >= 0 && (size_t)o < env->n &&
	    env->scratch->mark[o] == s ? o : -1;
}

/*
 * order: the members the root reaches, each after all its users (a
 * reversed post order, by an explicit stack: fusions can be deep).
 */
static size_t
order_from(struct hlo_cost_env *env, uint32_t s, uint32_t root,
    uint32_t *order, uint32_t *stack)
{
	struct hlo_cost_scratch *sc = env->scratch;
	size_t sp = 0, n = 0;

	stack[sp++] = root;
	sc->seen[root] = s;
	while (sp > 0) {
		uint32_t k = stack[sp - 1];
		const InstrProto *in = env->instr(env->ctx, k);

		if (sc->next[k] < in->n_operand_ids) {
			int64_t o = member(env, in, sc->next[k]++, s);

			if (o >= 0 && sc->seen[o] != s) {
				sc->seen[o] = s;
				stack[sp++] = (uint32_t)o;
			}
			continue;
		}
		order[n++] = k;	/* post order, reversed below */
		sp--;
	}
	for (sp = 0; sp < n / 2; sp++) {
		uint32_t t = order[sp];

		order[sp] = order[n - 1 - sp];
		order[n - 1 - sp] = t;
	}
	return n;
}

/*
 * Root r into the roots of instruction to, once, in the order added;
 * past the walk's max_steps, the walk is refused instead.
 */
static void
add_root(struct hlo_cost_scratch *sc, size_t to, uint32_t r)
{
	uint32_t i;

	for (i = sc->head[to]; i != 0; i = sc->nodes[i - 1].next) {
		if (++sc->steps > sc->max_steps) {
			sc->refused = 1;
			return;
		}
		if (sc->nodes[i - 1].root == r)
			return;
	}
	if (sc->nnodes == sc->capnodes) {
		sc->capnodes = sc->capnodes == 0 ? 256 : sc->capnodes * 2;
		sc->nodes = xreallocarray(sc->nodes, sc->capnodes,
		    sizeof *sc->nodes);
	}
	sc->nodes[sc->nnodes].root = r;
	sc->nodes[sc->nnodes].next = 0;
	if (sc->tail[to] != 0)
		sc->nodes[sc->tail[to] - 1].next = (uint32_t)sc->nnodes + 1;
	else
		sc->head[to] = (uint32_t)sc->nnodes + 1;
	sc->tail[to] = (uint32_t)++sc->nnodes;
}

static void
fused_walk(struct hlo_cost_env *env, const CompProto *c, int depth,
    double *flops, double *read)
{
	struct hlo_cost_scratch *sc = env->scratch;
	size_t i, j, t, n, nmem = 0, start = sc->nnodes;
	uint32_t *mem, *order, *stack, s, root = UINT32_MAX, last = 0;
	uint64_t outer_steps = sc->steps, outer_max = sc->max_steps;

	*flops = *read = 0;
	if (c->n_instructions == 0)
		return;
	s = ++sc->serial;
	sc->steps = 0;
	sc->max_steps = ROOT_STEPS_PER_MEMBER * ((uint64_t)c->n_instructions +
	    1);
	mem = xcalloc(c->n_instructions, 3 * sizeof *mem);
	order = mem + c->n_instructions;
	stack = order + c->n_instructions;
	for (i = 0; i < c->n_instructions; i++) {
		int64_t k = env->index_of(env->ctx, c->instructions[i]->id);

		if (k < 0 || (size_t)k >= env->n || sc->mark[k] == s)
			continue;
		sc->mark[k] = s;
		sc->util[k] = sc->root_util[k] = 0;
		sc->head[k] = sc->tail[k] = sc->next[k] = 0;
		mem[nmem++] = last = (uint32_t)k;
		if (c->instructions[i]->id == c->root_id)
			root = (uint32_t)k;
	}
	if (nmem == 0)
		goto out;
	if (root == UINT32_MAX)
		root = last;
	n = order_from(env, s, root, order, stack);
	sc->root_util[root] = 1;
	add_root(sc, root, root);
	for (t = 0; t < n && !sc->refused && !sc->too_deep; t++) {
		uint32_t k = order[t], r;
		const InstrProto *in = env->instr(env->ctx, k);
		const struct op_kind *ok = kind_at(sc, k, in);
		enum kind kd = ok->kind;

		for (r = sc->head[k]; r != 0; r = sc->nodes[r - 1].next)
			sc->util[k] += sc->root_util[sc->nodes[r - 1].root];
		*flops += sc->util[k] * kind_flops(env, in, ok, depth);
		for (j = 0; j < in->n_operand_ids; j++) {
			int64_t o = member(env, in, j, s);
			double u, ne;

			if (o < 0)
				continue;
			if (kd == K_ELEMENTWISE || kd == K_PASS) {
				for (r = sc->head[k]; r != 0;
				    r = sc->nodes[r - 1].next)
					add_root(sc, (size_t)o,
					    sc->nodes[r - 1].root);
				continue;
			}
			add_root(sc, (size_t)o, (uint32_t)o);
			u = sc->util[k] * (kd == K_SLICE && j == 0 ?
			    sliced_share(env, in) : 1);
			/* Whole elements: a part read reads them all. */
			ne = elements(shape_of(env,
			    env->instr(env->ctx, (size_t)o)));
			sc->root_util[o] += ne > 0 ? ceil(u * ne) / ne : 0;
		}
	}
	for (i = 0; i < nmem; i++) {
		uint32_t k = mem[i];
		const InstrProto *in = env->instr(env->ctx, k);

		if (sc->util[k] > 0 && kind_at(sc, k, in)->kind == K_PARAMETER)
			*read += shape_bytes(shape_of(env, in)) *
			    (sc->util[k] < 1 ? sc->util[k] : 1);
	}
out:
	/* The nodes of this walk are done with (nested walks', too). */
	sc->nnodes = start;
	sc->steps = outer_steps;
	sc->max_steps = outer_max;
	free(mem);
}

/* The memo of computation id, added when new. */
static struct comp_memo *
memo_of(struct hlo_cost_scratch *sc, int64_t id)
{
	static const struct comp_memo empty;
	struct comp_memo *old = sc->memo;
	size_t i, j, oldcap = old != NULL ? sc->memo_mask + 1 : 0;

	if (2 * (sc->nmemo + 1) > oldcap) {
		size_t cap = oldcap == 0 ? 64 : 2 * oldcap;

		sc->memo = xcalloc(cap, sizeof *sc->memo);
		sc->memo_mask = cap - 1;
		for (i = 0; i < oldcap; i++) {
			if (!old[i].used)
				continue;
			for (j = (size_t)((uint64_t)old[i].id *
			    0x9e3779b97f4a7c15ULL >> 32) & sc->memo_mask;
			    sc->memo[j].used; j = (j + 1) & sc->memo_mask)
				;
			sc->memo[j] = old[i];
		}
		free(old);
	}
	for (i = (size_t)((uint64_t)id * 0x9e3779b97f4a7c15ULL >> 32) &
	    sc->memo_mask; sc->memo[i].used; i = (i + 1) & sc->memo_mask)
		if (sc->memo[i].id == id)
			return &sc->memo[i];
	sc->memo[i] = empty;
	sc->memo[i].used = 1;
	sc->memo[i].id = id;
	sc->nmemo++;
	return &sc->memo[i];
}

/*
 * The cost of the computation in calls (its first), used as use says,
 * at depth: worked out once per module.  A computation that reaches
 * itself or the entry is refused, as is every one that reaches it: its
 * cost has no meaning, and following it would not end.
 */
static void
called_cost(struct hlo_cost_env *env, const InstrProto *in, enum use use,
    int depth, double *flops, double *read)
{
	struct hlo_cost_scratch *sc = scratch_of(env);
	const CompProto *c = in->n_called_computation_ids > 0 ?
	    env->comp(env->ctx, in->called_computation_ids[0]) : NULL;
	struct comp_memo *m;
	int outer_reach = sc->reach;

	*flops = *read = 0;
	if (c == NULL || sc->refused || sc->too_deep)
		return;
	if (sc->has_entry && c->id == sc->entry_id) {
		sc->refused = 1;
		return;
	}
	m = memo_of(sc, c->id);
	switch (m->state[use]) {
	case MEMO_DONE:
		if (depth + m->height[use] > MAX_CALL_DEPTH) {
			sc->too_deep = 1;
			return;
		}
		if (depth + m->height[use] > sc->reach)
			sc->reach = depth + m->height[use];
		*flops = m->flops[use];
		*read = use == USE_FUSED ? m->read : 0;
		return;
	case MEMO_RUNNING:
	case MEMO_REFUSED:
		sc->refused = 1;
		return;
	}
	if (depth > MAX_CALL_DEPTH) {
		sc->too_deep = 1;
		return;
	}
	m->state[use] = MEMO_RUNNING;
	sc->reach = depth;
	if (use == USE_FUSED)
		fused_walk(env, c, depth, flops, read);
	else
		*flops = applied_walk(env, c, depth);
	m = memo_of(sc, c->id);		/* the table may have grown */
	if (sc->refused)
		m->state[use] = MEMO_REFUSED;
	else if (sc->too_deep)
		m->state[use] = MEMO_NONE;	/* deep only from here */
	else {
		m->state[use] = MEMO_DONE;
		m->height[use] = (uint8_t)(sc->reach - depth);
		m->flops[use] = *flops;
		if (use == USE_FUSED)
			m->read = *read;
	}
	if (sc->refused || sc->too_deep)
		*flops = *read = 0;
	if (outer_reach > sc->reach)
		sc->reach = outer_reach;
}

static double
operands_bytes(struct hlo_cost_env *env, const InstrProto *in)
{
	double b = 0;
	size_t i;

	for (i = 0; i < in->n_operand_ids; i++)
		b += shape_bytes(operand_shape(env, in, i));
	return b;
}

/*
 * Whether an f32 dot's precision config keeps it at f32: HIGHEST for an
 * operand (Precision 2), or for a library call, its backend config
 * naming HIGHEST or the F32_F32_F32 algorithm.
 */
static int
asks_full_f32(const InstrProto *in)
{
	const Xla__PrecisionConfig *pc = in->precision_config;
	size_t i;

	for (i = 0; pc != NULL && i < pc->n_operand_precision; i++)
		if (pc->operand_precision[i] == 2)
			return 1;
	return strstr(in->backend_config, "HIGHEST") != NULL ||
	    strstr(in->backend_config, "ALG_DOT_F32_F32_F32") != NULL;
}

/* A dot's, convolution's or library call's precision: its lhs's type. */
static void
dot_precision(struct hlo_cost_env *env, const InstrProto *in,
    struct hlo_cost *out)
{
	const ShapeProto *lhs = operand_shape(env, in, 0);

	out->precision = lhs != NULL ? precision_of_type(lhs->element_type) :
	    PREC_UNKNOWN;
	out->f32_dot = out->precision == PREC_FP32 && !asks_full_f32(in);
}

/*
 * Instructions fused_dot() looks at for one op: fusions that share
 * computations would otherwise be walked path by path (issue 41.2).
 */
#define FUSED_DOT_BUDGET	4096

/*
 * The first dot or convolution of a fused computation, nested ones too,
 * looking at *budget instructions at most.
 */
static const InstrProto *
fused_dot(struct hlo_cost_env *env, const InstrProto *fusion, int depth,
    size_t *budget)
{
	const CompProto *c = fusion->n_called_computation_ids > 0 ?
	    env->comp(env->ctx, fusion->called_computation_ids[0]) : NULL;
	const InstrProto *d;
	size_t i;

	if (c == NULL || depth > MAX_CALL_DEPTH)
		return NULL;
	for (i = 0; i < c->n_instructions && *budget > 0; i++) {
		const InstrProto *x = c->instructions[i];
		enum kind k = cost_kind_of(x)->kind;

		--*budget;
		if (k == K_DOT || k == K_CONV)
			return x;
		if (k == K_FUSION &&
		    (d = fused_dot(env, x, depth + 1, budget)) != NULL)
			return d;
	}
	return NULL;
}

static void
precision_of(struct hlo_cost_env *env, const InstrProto *in,
    const ShapeProto *s, struct hlo_cost *out)
{
	const struct op_kind *ok = cost_kind_of(in);
	size_t budget = FUSED_DOT_BUDGET;
	const InstrProto *d = ok->kind == K_FUSION ?
	    fused_dot(env, in, 0, &budget) :
	    ok->kind == K_DOT || ok->kind == K_CONV ||
	    (ok->kind == K_CUSTOM_CALL && (is_gemm_call(in->custom_call_target)
	    || is_dnn_conv_call(in->custom_call_target))) ? in : NULL;
	const ShapeProto *r;
	ShapeProto tmp;

	out->f32_dot = 0;
	if (d != NULL) {
		dot_precision(env, d, out);
		return;
	}
	r = result_array(s, &tmp);
	out->precision = r != NULL ? precision_of_type(r->element_type) :
	    PREC_UNKNOWN;
}

int
hlo_cost_of(struct hlo_cost_env *env, const InstrProto *in,
    struct hlo_cost *out)
{
	const char *t = in->custom_call_target;
	const ShapeProto *s = shape_of(env, in);
	struct hlo_cost_scratch *sc = scratch_of(env);
	const struct op_kind *ok;
	ShapeProto tmp;

	if (s == NULL)
		return -1;
	sc->refused = sc->too_deep = sc->reach = 0;
	precision_of(env, in, s, out);
	out->bytes = operands_bytes(env, in) + shape_bytes(s);
	ok = cost_kind_of(in);
	if (ok->kind == K_FUSION) {
		double read;

		called_cost(env, in, USE_FUSED, 0, &out->flops, &read);
		out->bytes = read + shape_bytes(s);
		return sc->refused || sc->too_deep ? -1 : 0;
	}
	if (ok->kind != K_CUSTOM_CALL) {
		out->flops = kind_flops(env, in, ok, 0);
		return sc->refused || sc->too_deep ? -1 : 0;
	}
	if (is_gemm_call(t)) {
		int64_t k[8];
		size_t n = json_ints(in->backend_config,
		    "\"lhs_contracting_dimensions\"", k, 8);

		out->flops = dot_flops(operand_shape(env, in, 0),
		    result_array(s, &tmp), k, n);
	} else if (is_dnn_conv_call(t)) {
		out->flops = conv_flops(in, operand_shape(env, in, 0),
		    result_array(s, &tmp));
		if (out->flops < 0)
			return -1;
	} else
		return -1;
	/* The scratch buffer of the result's tuple is not data. */
	out->bytes = operands_bytes(env, in) +
	    shape_bytes(result_array(s, &tmp));
	return 0;
}
