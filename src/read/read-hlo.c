/* HLO reader: serialized xla.HloProto -> struct hlo_module (read-hlo.h). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arena.h"
#include "model/hlo-cost.h"
#include "read/hlo-wire.h"
#include "proto/hlo.pb-c.h"
#include "read/read-buffers.h"
#include "read/read-hlo.h"
#include "lib/xmalloc.h"

/* Nesting of called computations followed when ordering launches. */
#define MAX_CALL_DEPTH	64
/*
 * Computations spliced into the launch order, at most, per instruction
 * of the module: a call graph that shares computations can otherwise
 * splice exponentially many (found by fuzzing); XLA's do not come near.
 */
#define SPLICES_PER_INSTR	16
/*
 * Instructions and calls looked at while splicing, at most, per
 * instruction: each splice walks its computation, so splices alone
 * still leave quadratic work (found by fuzzing).
 */
#define STEPS_PER_INSTR		16

struct hlo_set {
	struct hlo_module **mods;
	size_t		 n;
};

static void *
pb_alloc(void *arena, size_t n)
{
	return arena_alloc(arena, n);
}

static void
pb_free(void *arena, void *p)
{
	(void)arena;
	(void)p;
}

typedef Xla__HloModuleProto ModuleProto;
typedef Xla__HloComputationProto CompProto;
typedef Xla__HloInstructionProto InstrProto;

/* A string many instructions share (opcodes, fusion kinds, files...). */
static const char *
module_keep(struct hlo_module *m, const char *s)
{
	uint32_t id;

	if (s == NULL || *s == '\0')
		return "";
	id = strmap_intern(&m->strings, s, strlen(s));
	return m->strings.strings[id];
}

/* A string of mostly one instruction each: copied, not looked up. */
static const char *
copy(struct hlo_module *m, const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(arena_alloc(m->texts, len), s, len);
}

/* XLA's PrimitiveType numbers (xla_data.proto) as HLO text writes them. */
static const char *const element_types[] = {
	"invalid", "pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32",
	"u64", "f16", "f32", "f64", "tuple", "opaque", "c64", "bf16", "token",
	"c128",
};

/* An array shape as HLO text writes it: "f32[8,128]" at buf + strlen. */
static void
array_text(char *buf, size_t size, int32_t type, const int64_t *dims,
    size_t ndims)
{
	size_t len = strlen(buf), i;

	if (type == 13) {	/* a tuple inside a tuple: not read */
		snprintf(buf + len, size - len, "(...)");
		return;
	}
	if (type >= 0 && (size_t)type <
	    sizeof element_types / sizeof element_types[0])
		snprintf(buf + len, size - len, "%s[", element_types[type]);
	else
		snprintf(buf + len, size - len, "type%d[", (int)type);
	for (i = 0; i < ndims; i++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%lld", i > 0 ? "," : "",
		    (long long)dims[i]);
	}
	len = strlen(buf);
	snprintf(buf + len, size - len, "]");
}

/* A shape as HLO text writes it, "f32[8,128]" or "(s32[], f32[2])". */
static void
shape_text(char *buf, size_t size, const Xla__ShapeProto *sp)
{
	size_t i, len;

	buf[0] = '\0';
	if (sp == NULL)
		return;
	if (sp->n_tuple_shapes == 0 && sp->element_type != 13) {
		array_text(buf, size, sp->element_type, sp->dimensions,
		    sp->n_dimensions);
		return;
	}
	snprintf(buf, size, "(");
	for (i = 0; i < sp->n_tuple_shapes; i++) {
		const Xla__TupleElementShapeProto *e = sp->tuple_shapes[i];

		len = strlen(buf);
		if (i > 0)
			snprintf(buf + len, size - len, ", ");
		array_text(buf, size, e->element_type, e->dimensions,
		    e->n_dimensions);
	}
	len = strlen(buf);
	snprintf(buf + len, size - len, ")");
}

/* The entry's parameter shapes and names (host_program_shape). */
static void
params_build(struct hlo_module *m, const ModuleProto *mp)
{
	const Xla__ProgramShapeProto *ps = mp->host_program_shape;
	char buf[256];
	size_t i;

	if (ps == NULL || ps->n_parameters == 0)
		return;
	m->nparams = ps->n_parameters;
	m->param_shapes = xcalloc(m->nparams, sizeof *m->param_shapes);
	m->param_names = xcalloc(m->nparams, sizeof *m->param_names);
	for (i = 0; i < m->nparams; i++) {
		shape_text(buf, sizeof buf, ps->parameters[i]);
		m->param_shapes[i] = module_keep(m, buf);
		m->param_names[i] = i < ps->n_parameter_names ?
		    module_keep(m, ps->parameter_names[i]) : "";
	}
}

static int
in_list(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* Opcodes that run nothing of their own on the device. */
static const char *const no_launch_opcodes[] = {
	"parameter", "constant", "get-tuple-element", "tuple", "bitcast",
	"after-all", "add-dependency", "opt-barrier", "domain",
	"partition-id", "replica-id", "call", "while", "conditional",
	"async-start", "async-update", "async-done", "copy-done",
	"all-reduce-done", "all-gather-done", "collective-permute-done",
	"send-done", "recv-done", "get-dimension-size", NULL,
};

/* Opcodes that a library (cuBLAS, cuDNN, NCCL, cuFFT...) runs. */
static const char *const library_opcodes[] = {
	"custom-call", "all-reduce", "all-reduce-start", "all-gather",
	"all-gather-start", "reduce-scatter", "all-to-all",
	"collective-permute", "collective-permute-start",
	"collective-broadcast", "send", "recv", "fft", "triangular-solve",
	"cholesky", "convolution", "dot", NULL,
};

static enum hlo_launch
launch_of(const char *opcode)
{
	if (in_list(opcode, no_launch_opcodes))
		return HLO_LAUNCH_NONE;
	if (in_list(opcode, library_opcodes))
		return HLO_LAUNCH_LIBRARY;
	return HLO_LAUNCH_KERNEL;
}

/*
 * launch_of() once per opcode of a module, by its id in m->strings: its
 * string compares are too many to run per instruction.
 */
struct launch_memo {
	uint8_t		*by_id;		/* launch + 1; 0 not yet known */
	size_t		 n;
};

static enum hlo_launch
launch_of_kept(struct launch_memo *lm, const struct hlo_module *m,
    uint32_t id)
{
	if (id >= lm->n) {
		size_t n = m->strings.n;

		lm->by_id = xreallocarray(lm->by_id, n, 1);
		memset(lm->by_id + lm->n, 0, n - lm->n);
		lm->n = n;
	}
	if (lm->by_id[id] == 0)
		lm->by_id[id] = (uint8_t)launch_of(m->strings.strings[id]) + 1;
	return (enum hlo_launch)(lm->by_id[id] - 1);
}

/* What fused computations are asked about (comp_has()). */
enum held { HOLDS_CONVOLUTION, HOLDS_DOT, NHELD };
static const char *const held_opcode[NHELD] = { "convolution", "dot" };
enum { HELD_UNKNOWN, HELD_LOOKING, HELD_NO, HELD_YES };

/* A module's computations by id, and what each was found to hold. */
struct comps {
	const ModuleProto *mp;
	uint32_t	*by_id;		/* indexes of computations, by id */
	uint8_t		*held[NHELD];	/* per computation: HELD_* */
	/* Per computation: a hash of its opcodes in order, once hashed. */
	uint64_t	*opcodes;
	uint8_t		*hashed;
	/* Per computation: its schedule's sequence (the last listed), or -1. */
	int32_t		*sequence;
};

static int
cmp_comp_ids(const void *a, const void *b, void *mp)
{
	CompProto *const *c = ((const ModuleProto *)mp)->computations;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (c[x]->id != c[y]->id)
		return c[x]->id < c[y]->id ? -1 : 1;
	return x < y ? -1 : x > y;	/* the first of an id is found */
}

static void
comps_init(struct comps *cs, const ModuleProto *mp)
{
	size_t i;

	cs->mp = mp;
	cs->by_id = xcalloc(mp->n_computations + 1, sizeof *cs->by_id);
	for (i = 0; i < mp->n_computations; i++)
		cs->by_id[i] = (uint32_t)i;
	qsort_r(cs->by_id, mp->n_computations, sizeof *cs->by_id,
	    cmp_comp_ids, (void *)mp);
	for (i = 0; i < NHELD; i++)
		cs->held[i] = xcalloc(mp->n_computations + 1,
		    sizeof *cs->held[i]);
	cs->opcodes = xcalloc(mp->n_computations + 1, sizeof *cs->opcodes);
	cs->hashed = xcalloc(mp->n_computations + 1, sizeof *cs->hashed);
	cs->sequence = NULL;
}

static void
comps_release(struct comps *cs)
{
	size_t i;

	free(cs->by_id);
	for (i = 0; i < NHELD; i++)
		free(cs->held[i]);
	free(cs->opcodes);
	free(cs->hashed);
	free(cs->sequence);
}

/* The index of the (first) computation of that id, or -1. */
static int64_t
comp_index(const struct comps *cs, int64_t id)
{
	CompProto *const *c = cs->mp->computations;
	size_t lo = 0, hi = cs->mp->n_computations;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c[cs->by_id[mid]]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cs->mp->n_computations && c[cs->by_id[lo]]->id == id ?
	    (int64_t)cs->by_id[lo] : -1;
}

static const CompProto *
find_comp(const struct comps *cs, int64_t id)
{
	int64_t i = comp_index(cs, id);

	return i < 0 ? NULL : cs->mp->computations[i];
}

/*
 * Finds each computation's schedule sequence once: looking it up per
 * splice scanned the whole schedule each time (found by fuzzing).
 */
static void
comps_index_schedule(struct comps *cs)
{
	const Xla__HloScheduleProto *sched = cs->mp->schedule;
	size_t i;

	if (sched == NULL || sched->n_sequences == 0 ||
	    sched->n_sequences > INT32_MAX)
		return;
	cs->sequence = xcalloc(cs->mp->n_computations + 1,
	    sizeof *cs->sequence);
	memset(cs->sequence, 0xff, (cs->mp->n_computations + 1) *
	    sizeof *cs->sequence);
	for (i = 0; i < sched->n_sequences; i++) {
		int64_t ci = comp_index(cs, sched->sequences[i]->key);

		if (ci >= 0 && sched->sequences[i]->value != NULL)
			cs->sequence[ci] = (int32_t)i;
	}
}

/*
 * Whether computation i (or one it calls) holds an instruction of the
 * opcode asked.  Each computation is looked into once per question: a
 * call graph that shares computations was explored path by path before,
 * exponentially long (found by fuzzing).  One on a cycle, or deeper than
 * MAX_CALL_DEPTH, holds nothing.
 */
static int
comp_has(struct comps *cs, int64_t i, enum held what, int depth)
{
	const CompProto *c;
	uint8_t *state;
	size_t k, j;
	int yes = 0;

	if (i < 0 || depth > MAX_CALL_DEPTH)
		return 0;
	state = &cs->held[what][i];
	if (*state != HELD_UNKNOWN)
		return *state == HELD_YES;
	*state = HELD_LOOKING;
	c = cs->mp->computations[i];
	for (k = 0; !yes && k < c->n_instructions; k++) {
		const InstrProto *in = c->instructions[k];

		yes = strcmp(in->opcode, held_opcode[what]) == 0;
		for (j = 0; !yes && j < in->n_called_computation_ids; j++)
			yes = comp_has(cs, comp_index(cs,
			    in->called_computation_ids[j]), what, depth + 1);
	}
	*state = yes ? HELD_YES : HELD_NO;
	return yes;
}

/*
 * The category of an instruction (jaxprof-top(1) lists the rules): library
 * calls by what they compute, fusions by kind or the dot/convolution they
 * hold, everything else by opcode.
 */
static const char *
hlo_category_of(struct comps *cs, const InstrProto *in)
{
	const char *t = in->custom_call_target;

	if (strcmp(in->opcode, "custom-call") == 0) {
		if (strstr(t, "cublas") != NULL || strstr(t, "hipblas") != NULL ||
		    strstr(t, "gemm") != NULL || strstr(t, "matmul") != NULL)
			return "gemm";
		if (strstr(t, "conv") != NULL)
			return "convolution";
		if (strstr(t, "fmha") != NULL || strstr(t, "attention") != NULL ||
		    strstr(t, "attn") != NULL)
			return "attention";
		return "custom-call";
	}
	if (strcmp(in->opcode, "fusion") == 0) {
		int64_t fused = in->n_called_computation_ids > 0 ?
		    comp_index(cs, in->called_computation_ids[0]) : -1;

		if (comp_has(cs, fused, HOLDS_CONVOLUTION, 0))
			return "convolution fusion";
		if (comp_has(cs, fused, HOLDS_DOT, 0))
			return "gemm fusion";
		if (strcmp(in->fusion_kind, "kLoop") == 0)
			return "loop fusion";
		if (strcmp(in->fusion_kind, "kInput") == 0)
			return "input fusion";
		if (strcmp(in->fusion_kind, "kOutput") == 0)
			return "output fusion";
		if (strcmp(in->fusion_kind, "kCustom") == 0)
			return "custom fusion";
		return "fusion";
	}
	if (strcmp(in->opcode, "dot") == 0)
		return "gemm";
	return in->opcode;
}

/*
 * Fusions whose fused computations hold the same opcodes in the same order
 * may share one kernel: XLA compiles identical fusions once and names the
 * kernel after the first.  Other instructions are a class of their own.
 * A computation's opcodes are hashed once, however many fusions call it.
 */
static uint64_t
kernel_class_of(struct comps *cs, const InstrProto *in)
{
	const CompProto *fused;
	int64_t k;
	uint64_t h = 0;
	size_t i;

	if (strcmp(in->opcode, "fusion") != 0 ||
	    in->n_called_computation_ids == 0 ||
	    (k = comp_index(cs, in->called_computation_ids[0])) < 0)
		return strmap_hash(in->name, strlen(in->name));
	if (!cs->hashed[k]) {
		fused = cs->mp->computations[k];
		for (i = 0; i < fused->n_instructions; i++)
			h = (h ^ strmap_hash(fused->instructions[i]->opcode,
			    strlen(fused->instructions[i]->opcode))) *
			    0x100000001b3ULL;
		cs->opcodes[k] = h;
		cs->hashed[k] = 1;
	}
	return (strmap_hash(in->fusion_kind, strlen(in->fusion_kind)) ^
	    cs->opcodes[k]) * 0x100000001b3ULL;
}

/* The innermost frame of the module's stack-frame tables (1-based ids). */
static void
frame_source(struct hlo_module *m, const ModuleProto *mp, int32_t frame_id,
    struct hlo_instr *out)
{
	const Xla__StackFrameIndexProto *sfi = mp->stack_frame_index;
	const Xla__StackFrameIndexProto__FileLocation *loc;
	int32_t loc_id;

	if (sfi == NULL || frame_id < 1 || (size_t)frame_id > sfi->n_stack_frames)
		return;
	loc_id = sfi->stack_frames[frame_id - 1]->file_location_id;
	if (loc_id < 1 || (size_t)loc_id > sfi->n_file_locations)
		return;
	loc = sfi->file_locations[loc_id - 1];
	if (loc->file_name_id >= 1 &&
	    (size_t)loc->file_name_id <= sfi->n_file_names)
		out->source_file = module_keep(m, sfi->file_names[loc->file_name_id - 1]);
	if (loc->function_name_id >= 1 &&
	    (size_t)loc->function_name_id <= sfi->n_function_names)
		out->source_function = module_keep(m,
		    sfi->function_names[loc->function_name_id - 1]);
	out->source_line = loc->line;
}

/*
 * Fills m->instrs[k] from in, of computation c (its name copied once by
 * the caller), and records its name in m->names.
 */
static void
fill_instr(struct hlo_module *m, struct comps *cs, const char *comp_name,
    const InstrProto *in, size_t k, struct launch_memo *lm)
{
	const Xla__OpMetadata *md = in->metadata;
	struct hlo_instr *out = &m->instrs[k];
	size_t nnames = m->names.n;
	uint32_t name = strmap_intern(&m->names, in->name, strlen(in->name));
	const char *category;
	uint32_t opcode;

	/* The first of instructions of the same name is the one found. */
	if (m->names.n > nnames)
		m->instr_of_name[name] = (uint32_t)k;
	memset(out, 0, sizeof *out);
	out->name = m->names.strings[name];
	opcode = strmap_intern(&m->strings, in->opcode, strlen(in->opcode));
	out->opcode = m->strings.strings[opcode];
	category = hlo_category_of(cs, in);
	/* A category is a literal or the opcode, kept just above. */
	out->category = category == in->opcode ? out->opcode : category;
	out->fusion_kind = module_keep(m, in->fusion_kind);
	out->custom_call_target = module_keep(m, in->custom_call_target);
	out->computation = comp_name;
	out->op_name = md != NULL && md->op_name[0] != '\0' ?
	    copy(m, md->op_name) : "";
	out->op_type = md != NULL ? module_keep(m, md->op_type) : "";
	out->source_file = "";
	out->source_function = "";
	if (md != NULL && md->source_file[0] != '\0') {
		out->source_file = module_keep(m, md->source_file);
		out->source_line = md->source_line;
	} else if (md != NULL)
		frame_source(m, cs->mp, md->stack_frame_id, out);
	out->id = in->id;
	out->schedule_index = -1;
	out->launch = launch_of_kept(lm, m, opcode);
	out->kernel_class = kernel_class_of(cs, in);
}

/* The index in m->instrs of the instruction with that id, or -1. */
static int64_t
instr_by_id(const struct hlo_module *m, const int64_t *sorted_ids,
    const uint32_t *order, int64_t id)
{
	size_t lo = 0, hi = m->ninstrs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted_ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->ninstrs && sorted_ids[lo] == id ? (int64_t)order[lo] : -1;
}

struct order_ctx {
	struct hlo_module *m;
	const ModuleProto *mp;
	const struct comps *comps;
	int64_t		*sorted_ids;
	uint32_t	*order;
	const InstrProto **protos;	/* of m->instrs, index for index */
	size_t		 cap;
	size_t		 splices_left;	/* SPLICES_PER_INSTR of them */
	size_t		 steps_left;	/* STEPS_PER_INSTR of them */
	/* instr_by_id() by hash: ids and m->instrs indexes, or NULL. */
	int64_t		*hash_ids;
	int32_t		*hash_at;	/* -1: an empty slot */
	size_t		 hash_mask;
};

/*
 * Every bit of the id moves the slot (splitmix64's finalizer): ids that
 * differ only in their high bits, as a hostile file's may, must not all
 * probe one cluster (found by fuzzing).
 */
static size_t
id_slot(const struct order_ctx *o, int64_t id)
{
	uint64_t x = (uint64_t)id;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (size_t)(x ^ (x >> 31)) & o->hash_mask;
}

/* The index in m->instrs of the instruction with that id, or -1. */
static int64_t
order_instr(const struct order_ctx *o, int64_t id)
{
	size_t i;

	if (o->hash_at == NULL)
		return instr_by_id(o->m, o->sorted_ids, o->order, id);
	for (i = id_slot(o, id); o->hash_at[i] >= 0; i = (i + 1) & o->hash_mask)
		if (o->hash_ids[i] == id)
			return o->hash_at[i];
	return -1;
}

/*
 * Ids are looked up for every launch, operand and fused instruction;
 * XLA's hold the computation's id in their high half, so a table by id
 * would be sparse: a hash table answers in a step or two, a binary search
 * in a step per halving.  The first of equal ids in sorted order is
 * the one, as instr_by_id()'s.
 */
static void
order_hash(struct order_ctx *o)
{
	size_t n = o->m->ninstrs, cap = 16, i, j;

	if (n > INT32_MAX / 4)
		return;
	while (cap < 2 * n)
		cap *= 2;
	o->hash_mask = cap - 1;
	o->hash_ids = xcalloc(cap, sizeof *o->hash_ids);
	o->hash_at = xcalloc(cap, sizeof *o->hash_at);
	memset(o->hash_at, 0xff, cap * sizeof *o->hash_at);
	for (i = 0; i < n; i++) {
		if (i > 0 && o->sorted_ids[i] == o->sorted_ids[i - 1])
			continue;
		for (j = id_slot(o, o->sorted_ids[i]); o->hash_at[j] >= 0;
		    j = (j + 1) & o->hash_mask)
			;
		o->hash_ids[j] = o->sorted_ids[i];
		o->hash_at[j] = (int32_t)o->order[i];
	}
}

/*
 * Spends one of the steps splicing may take; none left stops it.  A step
 * is spent before the work it pays for, so the count never runs below 0.
 */
static int
order_step(struct order_ctx *o)
{
	if (o->steps_left == 0)
		return 0;
	o->steps_left--;
	return 1;
}

/*
 * Appends the launches of computation ci (an index into the module's
 * computations, or -1) in run order (see read-hlo.h).
 */
static void
add_launches(struct order_ctx *o, int64_t ci, int depth, int loop)
{
	const Xla__HloScheduleProto *sched = o->mp->schedule;
	const CompProto *c;
	const int64_t *ids = NULL;
	size_t n, i, j;
	int32_t seq;

	if (ci < 0 || depth > MAX_CALL_DEPTH || o->splices_left == 0)
		return;
	c = o->mp->computations[ci];
	if (c->is_fusion_computation)
		return;
	o->splices_left--;
	seq = o->comps->sequence != NULL ? o->comps->sequence[ci] : -1;
	if (seq >= 0) {
		ids = sched->sequences[seq]->value->instruction_ids;
		n = sched->sequences[seq]->value->n_instruction_ids;
	} else
		n = c->n_instructions;
	for (i = 0; i < n && order_step(o); i++) {
		int64_t id = ids != NULL ? ids[i] : c->instructions[i]->id;
		int64_t k = order_instr(o, id);
		const InstrProto *in;
		struct hlo_instr *hi;

		if (k < 0)
			continue;
		hi = &o->m->instrs[k];
		if (hi->launch != HLO_LAUNCH_NONE) {
			if (o->m->nlaunches == o->cap) {
				o->cap = o->cap == 0 ? 64 : o->cap * 2;
				o->m->launches = xreallocarray(o->m->launches,
				    o->cap, sizeof *o->m->launches);
			}
			/* A computation called twice runs it twice too. */
			hi->in_loop |= loop || hi->schedule_index >= 0;
			if (hi->schedule_index < 0)
				hi->schedule_index = (int32_t)o->m->nlaunches;
			o->m->launches[o->m->nlaunches++] = (uint32_t)k;
			continue;
		}
		/* A call, loop or branch runs its computations here. */
		in = o->protos[k];
		for (j = 0; j < in->n_called_computation_ids &&
		    o->splices_left > 0 && order_step(o); j++)
			add_launches(o, comp_index(o->comps,
			    in->called_computation_ids[j]), depth + 1,
			    loop || strcmp(in->opcode, "while") == 0);
	}
}

static int64_t
cost_index(void *ctx, int64_t id)
{
	const struct order_ctx *o = ctx;

	return order_instr(o, id);
}

static const InstrProto *
cost_instr(void *ctx, size_t i)
{
	return ((const struct order_ctx *)ctx)->protos[i];
}

static const CompProto *
cost_comp(void *ctx, int64_t id)
{
	return find_comp(((const struct order_ctx *)ctx)->comps, id);
}

/*
 * The cost of each instruction the program launches (not those inside
 * fused computations, which the fusion's cost holds), once each.
 */
static void
add_costs(struct order_ctx *o)
{
	struct hlo_cost_env env = { cost_index, cost_instr, cost_comp, o,
	    o->m->ninstrs, NULL };
	struct hlo_cost cost;
	size_t i;

	hlo_cost_env_entry(&env, o->mp->entry_computation_id);
	for (i = 0; i < o->m->nlaunches; i++) {
		uint32_t k = o->m->launches[i];
		struct hlo_instr *hi = &o->m->instrs[k];

		if (hi->schedule_index != (int32_t)i ||
		    hlo_cost_of(&env, o->protos[k], &cost) == -1)
			continue;
		hi->flops = cost.flops;
		hi->bytes = cost.bytes;
		hi->precision = cost.precision;
		hi->f32_dot = cost.f32_dot;
		hi->has_cost = 1;
	}
	hlo_cost_env_release(&env);
}

static int
cmp_ids(const void *a, const void *b, void *ids)
{
	int64_t x = ((const int64_t *)ids)[*(const uint32_t *)a];
	int64_t y = ((const int64_t *)ids)[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

/* The kernel name XLA gives an instruction: [A-Za-z0-9_] kept, rest '_'. */
static void
kernel_name(const char *name, char *out)
{
	for (; *name != '\0'; name++)
		*out++ = (*name >= 'a' && *name <= 'z') ||
		    (*name >= 'A' && *name <= 'Z') ||
		    (*name >= '0' && *name <= '9') || *name == '_' ? *name : '_';
	*out = '\0';
}

/* The instructions by the names XLA gives their kernels. */
static void
index_kernel_names(struct hlo_module *m)
{
	char *kname = NULL;
	size_t i, cap = 0;

	for (i = 0; i < m->ninstrs; i++) {
		const char *name = m->instrs[i].name;
		size_t len = strlen(name), before = m->kernel_names.n;
		uint32_t id;

		if (len + 1 > cap) {
			cap = (len + 1) * 2;
			kname = xreallocarray(kname, cap, 1);
		}
		kernel_name(name, kname);
		id = strmap_intern(&m->kernel_names, kname, len);
		if (m->kernel_names.n > before)
			m->instr_of_kernel[id] = (uint32_t)i;
	}
	free(kname);
}

/*
 * What costing a module's launches needs until it is done: its protos
 * (costs are worked out at the first event that names the program, and
 * most programs of a profile are never named), the computations by id
 * and the instructions by id.
 */
struct hlo_costing {
	pthread_mutex_t	 mu;
	int		 done;		/* the launches are costed */
	struct arena	 unpacked;	/* the protos, from hlo_module_read() */
	struct comps	 cs;
	struct order_ctx o;
	int64_t		*ids;		/* of m->instrs, index for index */
};

/* Frees what costing needed; the mutex and done stay. */
static void
costing_release(struct hlo_costing *k)
{
	comps_release(&k->cs);
	free(k->o.hash_ids);
	free(k->o.hash_at);
	free(k->o.sorted_ids);
	free(k->o.order);
	free(k->o.protos);
	free(k->ids);
	arena_release(&k->unpacked);
	memset(&k->cs, 0, sizeof k->cs);
	memset(&k->o, 0, sizeof k->o);
	k->ids = NULL;
}

void
hlo_module_cost_launches(const struct hlo_module *m)
{
	struct hlo_costing *k = m->costing;

	if (k == NULL)
		return;
	pthread_mutex_lock(&k->mu);
	if (!k->done) {
		add_costs(&k->o);
		costing_release(k);
		k->done = 1;
	}
	pthread_mutex_unlock(&k->mu);
}

/*
 * Fills m from mp, whose arena k->unpacked holds; k keeps what costing
 * will need.
 */
static void
module_build(struct hlo_module *m, const ModuleProto *mp,
    struct hlo_costing *k)
{
	struct launch_memo lm = { NULL, 0 };
	struct order_ctx *op = &k->o;
	struct comps *csp = &k->cs;
	int64_t *ids;
	size_t i, j, n;

	comps_init(csp, mp);
	m->name = module_keep(m, mp->name);
	m->program_id = mp->id;
	params_build(m, mp);
	for (i = 0; i < mp->n_computations; i++)
		m->ninstrs += mp->computations[i]->n_instructions;
	m->instrs = xcalloc(m->ninstrs + 1, sizeof *m->instrs);
	m->instr_of_name = xcalloc(m->ninstrs + 1, sizeof *m->instr_of_name);
	m->instr_of_kernel = xcalloc(m->ninstrs + 1,
	    sizeof *m->instr_of_kernel);
	ids = k->ids = xcalloc(m->ninstrs + 1, sizeof *ids);
	memset(op, 0, sizeof *op);
	op->protos = xcalloc(m->ninstrs + 1, sizeof *op->protos);
	for (i = n = 0; i < mp->n_computations; i++) {
		const CompProto *c = mp->computations[i];
		const char *comp_name = copy(m, c->name);

		for (j = 0; j < c->n_instructions; j++, n++) {
			op->protos[n] = c->instructions[j];
			fill_instr(m, csp, comp_name, op->protos[n], n, &lm);
			ids[n] = m->instrs[n].id;
		}
	}
	free(lm.by_id);
	index_kernel_names(m);

	op->m = m;
	op->mp = mp;
	op->comps = csp;
	op->splices_left = SPLICES_PER_INSTR * (m->ninstrs + 1);
	op->steps_left = STEPS_PER_INSTR * (m->ninstrs + 1);
	op->order = xcalloc(m->ninstrs + 1, sizeof *op->order);
	for (i = 0; i < m->ninstrs; i++)
		op->order[i] = (uint32_t)i;
	qsort_r(op->order, m->ninstrs, sizeof *op->order, cmp_ids, ids);
	op->sorted_ids = xcalloc(m->ninstrs + 1, sizeof *op->sorted_ids);
	for (i = 0; i < m->ninstrs; i++)
		op->sorted_ids[i] = ids[op->order[i]];
	order_hash(op);
	comps_index_schedule(csp);
	add_launches(op, comp_index(csp, mp->entry_computation_id), 0, 0);
}

static void
module_free(struct hlo_module *m)
{
	if (m == NULL)
		return;
	hlo_memory_free(m->memory);
	if (m->costing != NULL) {
		costing_release(m->costing);
		pthread_mutex_destroy(&m->costing->mu);
		free(m->costing);
	}
	free(m->memory_why);
	free(m->instrs);
	free(m->launches);
	free(m->param_shapes);
	free(m->param_names);
	free(m->instr_of_name);
	free(m->instr_of_kernel);
	strmap_release(&m->names);
	strmap_release(&m->kernel_names);
	strmap_release(&m->strings);
	arena_release(m->texts);
	free(m->texts);
	free(m);
}

struct hlo_set *
hlo_set_new(void)
{
	return xcalloc(1, sizeof(struct hlo_set));
}

void
hlo_set_free(struct hlo_set *set)
{
	size_t i;

	if (set == NULL)
		return;
	for (i = 0; i < set->n; i++)
		module_free(set->mods[i]);
	free(set->mods);
	free(set);
}

struct hlo_module *
hlo_module_read(const void *data, size_t len, int64_t program_id,
    int memory, char **cause)
{
	struct hlo_costing *k = xcalloc(1, sizeof *k);
	ProtobufCAllocator alloc = { pb_alloc, pb_free, &k->unpacked };
	Xla__HloProto *hp;
	struct hlo_module *m;

	hp = (Xla__HloProto *)hlo_wire_unpack(&xla__hlo_proto__descriptor,
	    &alloc, data, len);
	if (hp == NULL)
		hp = xla__hlo_proto__unpack(&alloc, len, data);
	if (hp == NULL || hp->hlo_module == NULL) {
		*cause = xstrdup(hp == NULL ? "not a valid xla.HloProto" :
		    "xla.HloProto without a module");
		arena_release(&k->unpacked);
		free(k);
		return NULL;
	}
	m = xcalloc(1, sizeof *m);
	strmap_init(&m->strings);
	strmap_init(&m->names);
	strmap_init(&m->kernel_names);
	m->texts = xcalloc(1, sizeof *m->texts);
	module_build(m, hp->hlo_module, k);
	m->program_id = program_id != -1 ? program_id : hp->hlo_module->id;
	pthread_mutex_init(&k->mu, NULL);
	m->costing = k;
	if (m->nlaunches == 0) {
		/* Nothing to cost: the protos go now, all at once. */
		costing_release(k);
		k->done = 1;
	}
	/* Its ops are read all the same: only its memory is unknown. */
	if (memory && hlo_memory_read(data, len, m, &m->memory,
	    &m->memory_why) == -1)
		m->memory = NULL;
	return m;
}

void
hlo_set_keep(struct hlo_set *set, struct hlo_module *m)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->mods[i]->program_id == m->program_id) {
			module_free(m);
			return;
		}
	set->mods = xreallocarray(set->mods, set->n + 1, sizeof *set->mods);
	set->mods[set->n++] = m;
}

int
hlo_set_add(struct hlo_set *set, const void *data, size_t len,
    int64_t program_id, char **cause)
{
	struct hlo_module *m = hlo_module_read(data, len, program_id, 1,
	    cause);

	if (m == NULL)
		return -1;
	hlo_set_keep(set, m);
	return 0;
}

size_t
hlo_set_count(const struct hlo_set *set)
{
	return set != NULL ? set->n : 0;
}

const struct hlo_module *
hlo_set_module(const struct hlo_set *set, size_t i)
{
	return set->mods[i];
}

const struct hlo_module *
hlo_set_find(const struct hlo_set *set, int64_t program_id, const char *name,
    size_t name_len)
{
	const struct hlo_module *found = NULL;
	size_t i;

	if (set == NULL)
		return NULL;
	if (program_id != -1)
		for (i = 0; i < set->n; i++)
			if (set->mods[i]->program_id == program_id)
				return set->mods[i];
	if (name == NULL)
		return NULL;
	for (i = 0; i < set->n; i++)
		if (strlen(set->mods[i]->name) == name_len &&
		    memcmp(set->mods[i]->name, name, name_len) == 0) {
			if (found != NULL)
				return NULL;	/* recompiled: ambiguous */
			found = set->mods[i];
		}
	return found;
}

const struct hlo_instr *
hlo_module_instr(const struct hlo_module *m, const char *name, size_t len)
{
	int64_t id = strmap_find(&m->names, name, len);

	return id < 0 ? NULL : &m->instrs[m->instr_of_name[id]];
}

const struct hlo_instr *
hlo_module_kernel(const struct hlo_module *m, const char *kernel, size_t len)
{
	int64_t id = strmap_find(&m->kernel_names, kernel, len);

	return id < 0 ? NULL : &m->instrs[m->instr_of_kernel[id]];
}
