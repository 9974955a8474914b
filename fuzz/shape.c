/*
 * Recipes into profiles (shape.h).  A recipe is read a byte at a time,
 * zeros past its end.  A repeated record (planes, lines, events,
 * processes) is read once and built count times: each copy rereads the
 * same bytes and differs only by its index (ids, times), so that two bytes
 * can ask for 100,000 lines.  Names and values come from tables of what
 * the readers look for and of extremes.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape.h"
#include "lib/xmalloc.h"

struct recipe {
	const uint8_t	*p, *end;
};

static unsigned
next_byte(struct recipe *r)
{
	return r->p < r->end ? *r->p++ : 0;
}

/* Counts: mostly small, else one of the extremes. */
static size_t
next_count(struct recipe *r)
{
	static const size_t extreme[] = {
		0, 1, 2, 3, 7, 8, 15, 16, 127, 128, 255, 256, 1000, 1024,
		4095, 4096, 10000, 65535, 65536, 100000, 131072, 1000000,
	};
	unsigned b = next_byte(r);

	if (b < 0xc0)
		return b % 6;
	return extreme[(b - 0xc0) % (sizeof extreme / sizeof extreme[0])];
}

/* Numbers: small, extreme, or eight bytes of the recipe. */
static int64_t
next_int(struct recipe *r)
{
	static const int64_t extreme[] = {
		0, 1, -1, 2, 1000, 1000000, 1000000000, 1000000000000,
		1700000000000000000, (INT64_C(1) << 61) - 1, INT64_C(1) << 61,
		INT64_C(1) << 62, INT64_MAX, INT64_MIN, INT64_MIN + 1,
		INT64_MAX / 1000, 4294967295, 4294967296,
	};
	unsigned b = next_byte(r);
	uint64_t v = 0;
	int i;

	if (b < 0x80)
		return b % 16;
	if (b < 0xf0)
		return extreme[(b - 0x80) % (sizeof extreme / sizeof extreme[0])];
	for (i = 0; i < 8; i++)
		v = v << 8 | next_byte(r);
	return (int64_t)v;
}

static const char *
next_of(struct recipe *r, const char *const *v, size_t n)
{
	return v[next_byte(r) % n];
}

#define NEXT_OF(r, v)	next_of(r, v, sizeof v / sizeof v[0])

static const char *const plane_names[] = {
	"/device:GPU:0", "/device:GPU:1", "/device:TPU:0", "/host:CPU",
	"/host:metadata", "Task Environment", "", "/device:GPU:%zu",
	"/host:CPU%zu", "/device:CUSTOM:0",
};
static const char *const line_names[] = {
	"XLA Ops", "XLA Modules", "Steps", "Stream #7(MemcpyH2D,MemcpyD2H)",
	"python", "tf_XLAPjRtCpuClient/5", "", "XLA TraceMe", "Stream #%zu",
	"Launch Stats",
};
static const char *const event_names[] = {
	"fusion.1", "%fusion.3 = f32[64]{0} fusion(p), kind=kLoop, calls=c",
	"while.1", "train", "PjitFunction(train_step)", "jit_train_step(77)",
	"MemcpyH2D", "MemcpyD2H", "backend_compile_and_load", "0", "%zu",
	"", "copy-start.1", "all-reduce.2", "\xff\xfe", "custom-call.4",
};
static const char *const stat_names[] = {
	"hlo_op", "hlo_module", "program_id", "step_num", "_r", "group_id",
	"flops", "bytes_accessed", "memcpy_details", "kernel_details",
	"hlo_category", "device_offset_ps", "device_duration_ps",
	"correlation_id", "scope_range_id", "profile_start_time", "tf_op",
	"Hlo Proto", "run_id", "",
};
static const char *const stat_strings[] = {
	"fusion.1", "jit_train_step",
	("kind_src:pageable kind_dst:device size:4096 dest:0 async:0"),
	"loop fusion", "all-reduce", "", "0", "\xc3\x28", "a\0b",
};

/* ---- output, under one budget ---- */

static size_t budget;		/* bytes the recipe may still write */

static void
out_add(struct shape_out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2 + 256;
		o->data = xreallocarray(o->data, o->cap, 1);
	}
	if (n > 0)
		memcpy(o->data + o->len, p, n);
	o->len += n;
	budget = n < budget ? budget - n : 0;
}

static void
out_varint(struct shape_out *o, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (uint8_t)v;
	out_add(o, b, n);
}

static void
pb_int(struct shape_out *o, int field, int64_t v)
{
	out_varint(o, (uint64_t)field << 3);
	out_varint(o, (uint64_t)v);
}

static void
pb_bytes(struct shape_out *o, int field, const void *p, size_t n)
{
	out_varint(o, (uint64_t)field << 3 | 2);
	out_varint(o, n);
	out_add(o, p, n);
}

/* A name of the table, "%zu" in it replaced by i. */
static void
pb_name(struct shape_out *o, int field, const char *name, size_t i)
{
	const char *pct = strstr(name, "%zu");
	char buf[160];

	if (pct != NULL) {
		snprintf(buf, sizeof buf, "%.*s%zu", (int)(pct - name), name, i);
		name = buf;
	}
	pb_bytes(o, field, name, strlen(name));
}

static void
pb_sub(struct shape_out *o, int field, struct shape_out *sub)
{
	pb_bytes(o, field, sub->data, sub->len);
	shape_out_free(sub);
}

/* ---- XSpace ---- */

static void
xstat(struct recipe *r, struct shape_out *o, int field)
{
	struct shape_out s = { 0 };
	unsigned kind = next_byte(r);
	const char *str;
	double d;
	int64_t v;

	pb_int(&s, 1, (int64_t)(next_byte(r) % 24));
	switch (kind % 6) {
	case 0:		/* double */
		v = next_int(r);
		d = (double)v;
		out_varint(&s, 2 << 3 | 1);
		out_add(&s, &d, sizeof d);
		break;
	case 1:
	case 2:
		pb_int(&s, 3 + (int)(kind % 6 == 2), next_int(r));
		break;
	case 3:
		str = NEXT_OF(r, stat_strings);
		/* "a\0b" whole: a NUL inside a string. */
		pb_bytes(&s, 5, str, strcmp(str, "a") == 0 ? 3 : strlen(str));
		break;
	case 4:
		pb_bytes(&s, 6, "\x08\x01", 2);
		break;
	default:	/* ref to a stat metadata */
		pb_int(&s, 7, (int64_t)(next_byte(r) % 24));
		break;
	}
	pb_sub(o, field, &s);
}

static void
xevent(struct recipe *r, struct shape_out *o, size_t i)
{
	struct shape_out e = { 0 };
	int64_t step = next_int(r), base = next_int(r);
	size_t n, k;

	pb_int(&e, 1, (int64_t)(next_byte(r) % 12));
	if (next_byte(r) % 8 == 7)
		pb_int(&e, 5, next_int(r));	/* num_occurrences */
	else
		pb_int(&e, 2, (int64_t)((uint64_t)base + (uint64_t)step * i));
	pb_int(&e, 3, next_int(r));
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++)
		xstat(r, &e, 4);
	pb_sub(o, 4, &e);
}

/* Builds count copies of what build reads, each from the same bytes. */
#define REPEAT(r, count, i, build) do {					\
	const uint8_t *at_ = (r)->p;					\
	for ((i) = 0; (i) < (count) && budget > 0; (i)++) {		\
		(r)->p = at_;						\
		build;							\
	}								\
} while (0)

/* One time in `one_in`, an empty record as field: 1 when written. */
static int
empty_record(struct recipe *r, struct shape_out *o, int field,
    unsigned one_in)
{
	if (next_byte(r) % one_in != 0)
		return 0;
	pb_bytes(o, field, NULL, 0);
	return 1;
}

static void
xline(struct recipe *r, struct shape_out *o, size_t i)
{
	struct shape_out l = { 0 };
	size_t n, k;

	if (empty_record(r, o, 3, 8))
		return;
	pb_int(&l, 1, (int64_t)i);
	pb_name(&l, 2, NEXT_OF(r, line_names), i);
	if (next_byte(r) % 4 == 0)
		pb_name(&l, 11, NEXT_OF(r, line_names), i);
	pb_int(&l, 3, next_int(r));
	if (next_byte(r) % 4 == 0)
		pb_int(&l, 9, next_int(r));
	n = next_count(r);
	REPEAT(r, n, k, xevent(r, &l, k));
	pb_sub(o, 3, &l);
}

static void
xmeta(struct recipe *r, struct shape_out *o, size_t i)
{
	struct shape_out m = { 0 }, ent = { 0 };
	int64_t id = (int64_t)(next_byte(r) % 12) + (int64_t)i;
	size_t n, k;

	pb_int(&m, 1, next_byte(r) % 16 == 0 ? next_int(r) : id);
	pb_name(&m, 2, NEXT_OF(r, event_names), i);
	if (next_byte(r) % 4 == 0)
		pb_name(&m, 4, NEXT_OF(r, event_names), i);
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++)
		xstat(r, &m, 5);
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++)
		pb_int(&m, 6, (int64_t)(next_byte(r) % 12));
	pb_int(&ent, 1, id);
	pb_sub(&ent, 2, &m);
	pb_sub(o, 4, &ent);
}

static void
xstat_meta(struct recipe *r, struct shape_out *o, size_t i)
{
	struct shape_out m = { 0 }, ent = { 0 };
	int64_t id = (int64_t)i + 1;

	pb_int(&m, 1, id);
	pb_name(&m, 2, NEXT_OF(r, stat_names), i);
	pb_int(&ent, 1, id);
	pb_sub(&ent, 2, &m);
	pb_sub(o, 5, &ent);
}

static void
xplane(struct recipe *r, struct shape_out *o, size_t i)
{
	struct shape_out p = { 0 };
	size_t n, k;

	if (empty_record(r, o, 1, 16))
		return;
	pb_int(&p, 1, (int64_t)i);
	pb_name(&p, 2, NEXT_OF(r, plane_names), i);
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++)
		xstat_meta(r, &p, k);
	n = next_count(r);
	REPEAT(r, n, k, xmeta(r, &p, k));
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++)
		xstat(r, &p, 6);
	/* Lines last, as the profiler writes them, or first. */
	n = next_count(r);
	REPEAT(r, n, k, xline(r, &p, k));
	pb_sub(o, 1, &p);
}

/* ---- HLO: an xla.HloProto for /host:metadata ---- */

static const char *const hlo_opcodes[] = {
	"parameter", "constant", "add", "exponential", "fusion", "reduce",
	"convolution", "dot", "tuple", "get-tuple-element", "slice",
	"reduce-window", "scatter", "custom-call", "call", "while",
	"concatenate", "negate", "gather", "all-reduce",
};
static const int64_t element_types[] = { 11, 16, 4, 13, 1, 0, 99, -1 };
static const char *const custom_targets[] = {
	"__cublas$gemm", "__cudnn$convForward", "__hipblas$gemm",
	"__miopen$convForward", "my_kernel", "",
};
static const char *const backend_configs[] = {
	"{\"gemm_backend_config\":{\"dot_dimension_numbers\":"
	"{\"lhs_contracting_dimensions\":[\"1\"]}}}",
	"{\"lhs_contracting_dimensions\":[\"-1\",\"9223372036854775807\","
	"\"0\",\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"]}",
	"", "{\"lhs_contracting_dimensions\":[",
};

/*
 * A ShapeProto: an element type, dimensions (packed or a field each, many
 * at times), and for a tuple its elements, nested.
 */
static void
hlo_shape(struct recipe *r, struct shape_out *o, int depth)
{
	struct shape_out d = { 0 }, e;
	int64_t type = element_types[next_byte(r) % 8];
	size_t n, k;

	pb_int(o, 2, type);
	n = next_count(r);
	if (next_byte(r) % 2 == 0) {
		for (k = 0; k < n && budget > 0; k++)
			out_varint(&d, (uint64_t)next_int(r));
		pb_sub(o, 3, &d);
	} else
		for (k = 0; k < n && budget > 0; k++)
			pb_int(o, 3, next_int(r));
	if (type != 13 || depth >= 4)
		return;
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++) {
		memset(&e, 0, sizeof e);
		hlo_shape(r, &e, depth + 1);
		pb_sub(o, 4, &e);
	}
}

/* A convolution's or reduce-window's window and dimension numbers. */
static void
hlo_window(struct recipe *r, struct shape_out *o)
{
	struct shape_out w = { 0 }, d, c = { 0 };
	size_t n = next_byte(r) % 4, k;
	int f;

	for (k = 0; k < n; k++) {
		memset(&d, 0, sizeof d);
		for (f = 1; f <= 6; f++)
			if (next_byte(r) % 2 == 0)
				pb_int(&d, f, next_int(r));
		pb_sub(&w, 1, &d);
	}
	pb_sub(o, 15, &w);
	for (f = 3; f <= 10; f++)
		if (f != 5 && f != 6)
			pb_int(&c, f, (int64_t)(next_byte(r) % 5));
	for (k = 0; k < n; k++) {
		pb_int(&c, 6, (int64_t)(next_byte(r) % 5));
		pb_int(&c, 11, (int64_t)(next_byte(r) % 5));
		pb_int(&c, 12, (int64_t)(next_byte(r) % 5));
	}
	pb_sub(o, 16, &c);
}

/*
 * Instruction id, the i-th of a computation of the ncomps: its opcode
 * one, or (a byte past 0x7f) one by i, its operands mostly those just
 * before it, its called computation any of them (itself, the entry) or
 * one that is not there.
 */
static void
hlo_instr(struct recipe *r, struct shape_out *o, int64_t id, size_t i,
    size_t ncomps)
{
	const size_t nops = sizeof hlo_opcodes / sizeof hlo_opcodes[0];
	struct shape_out in = { 0 }, sh = { 0 }, dd = { 0 };
	unsigned b = next_byte(r);
	const char *opcode = hlo_opcodes[(b < 0x80 ? b : b + i) % nops], *text;
	char name[32];
	size_t n, k;

	snprintf(name, sizeof name, "op.%" PRId64, id);
	pb_bytes(&in, 1, name, strlen(name));
	pb_bytes(&in, 2, opcode, strlen(opcode));
	if (next_byte(r) % 8 != 7) {
		hlo_shape(r, &sh, 0);
		pb_sub(&in, 3, &sh);
	}
	if (strcmp(opcode, "fusion") == 0)
		pb_bytes(&in, 11, "kLoop", 5);
	if (strcmp(opcode, "convolution") == 0 ||
	    strcmp(opcode, "reduce-window") == 0 ||
	    strcmp(opcode, "custom-call") == 0) {
		hlo_window(r, &in);
		pb_int(&in, 50, next_int(r));	/* feature_group_count */
	}
	if (strcmp(opcode, "custom-call") == 0) {
		text = NEXT_OF(r, custom_targets);
		pb_bytes(&in, 28, text, strlen(text));
		text = NEXT_OF(r, backend_configs);
		pb_bytes(&in, 43, text, strlen(text));
	}
	if (strcmp(opcode, "dot") == 0) {
		pb_int(&dd, 1, (int64_t)(next_byte(r) % 4));
		pb_sub(&in, 30, &dd);
	}
	pb_int(&in, 35, id);
	n = next_byte(r) % 4;
	for (k = 0; k < n; k++)
		pb_int(&in, 36, next_byte(r) % 16 == 15 ? next_int(r) :
		    id - 1 - (int64_t)(next_byte(r) % 4));
	if (next_byte(r) % 2 == 0)
		pb_int(&in, 38, (int64_t)(next_byte(r) % (ncomps + 1)) + 1);
	pb_sub(o, 2, &in);
}

/*
 * A buffer assignment: logical buffers, allocations assigned them, and a
 * heap-simulator trace of their events.
 */
static void
hlo_buffers(struct recipe *r, struct shape_out *o, int64_t ninstrs)
{
	struct shape_out ba = { 0 }, m, l, t = { 0 };
	size_t nlb = next_count(r), n, k;

	for (k = 0; k < nlb && budget > 0; k++) {
		memset(&m, 0, sizeof m);
		memset(&l, 0, sizeof l);
		pb_int(&m, 1, (int64_t)k);
		pb_int(&m, 2, next_int(r));
		pb_int(&l, 4, (int64_t)(next_byte(r) % (ninstrs + 1)) + 1);
		pb_sub(&m, 3, &l);
		pb_int(&m, 4, (int64_t)(next_byte(r) % 2));
		pb_sub(&ba, 1, &m);
	}
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++) {
		memset(&m, 0, sizeof m);
		memset(&l, 0, sizeof l);
		pb_int(&m, 1, (int64_t)k);
		pb_int(&m, 2, next_int(r));
		pb_int(&m, 3 + 2 * (int)(next_byte(r) % 5), 1);	/* a flag */
		pb_int(&l, 1, nlb > 0 ? (int64_t)(next_byte(r) % nlb) : 0);
		pb_sub(&m, 9, &l);
		pb_sub(&ba, 3, &m);
	}
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++) {
		memset(&m, 0, sizeof m);
		pb_int(&m, 1, (int64_t)(next_byte(r) % 3));
		pb_int(&m, 2, nlb > 0 ? (int64_t)(next_byte(r) % nlb) : 0);
		pb_int(&m, 5, nlb > 0 ? (int64_t)(next_byte(r) % nlb) : 0);
		pb_sub(&t, 1, &m);
	}
	pb_sub(&ba, 4, &t);
	pb_sub(o, 3, &ba);
}

/*
 * An xla.HloProto of program id: computations that call each other (and
 * themselves, and the entry), each of instructions built from the same
 * bytes, so that two bytes ask for a reducer of 65,536 self-calling
 * reduces; *ninstrs: how many.
 */
static void
hlo_proto(struct recipe *r, struct shape_out *o, int64_t id,
    int64_t *ninstrs)
{
	struct shape_out mod = { 0 }, c, seq = { 0 }, ent = { 0 },
	    sched = { 0 };
	size_t ncomps = 1 + next_byte(r) % 6, i, n, k;
	int64_t next_id = 1, entry;

	pb_bytes(&mod, 1, "jit_fuzz", 8);
	for (i = 1; i <= ncomps && budget > 0; i++) {
		memset(&c, 0, sizeof c);
		pb_name(&c, 1, "comp.%zu", i);
		n = next_count(r);
		REPEAT(r, n, k, hlo_instr(r, &c, next_id++, k, ncomps));
		pb_int(&c, 5, (int64_t)i);
		pb_int(&c, 6, next_byte(r) % 4 == 0 ? next_int(r) : next_id - 1);
		if (next_byte(r) % 2 == 0)
			pb_int(&c, 7, 1);	/* a fused computation */
		pb_sub(&mod, 3, &c);
	}
	*ninstrs = next_id - 1;
	pb_int(&mod, 5, id);
	entry = (int64_t)(next_byte(r) % (ncomps + 1)) + 1;
	pb_int(&mod, 6, entry);
	if (next_byte(r) % 2 == 0) {
		for (k = 1; k < (size_t)next_id && budget > 0; k++)
			out_varint(&seq, k);
		pb_sub(&ent, 1, &seq);	/* packed instruction ids */
		memset(&seq, 0, sizeof seq);
		pb_int(&sched, 1, entry);
		pb_sub(&sched, 2, &ent);
		pb_sub(&seq, 1, &sched);
		pb_sub(&mod, 7, &seq);
	}
	pb_sub(o, 1, &mod);
	if (next_byte(r) % 2 == 0)
		hlo_buffers(r, o, *ninstrs);
}

/*
 * Program i + 1: its HLO in a /host:metadata plane, and a GPU plane whose
 * "XLA Ops" events name the program and its instructions, so that the
 * load costs its launches.
 */
static void
hlo_program(struct recipe *r, struct shape_out *o, size_t i)
{
	static const char *const stats[] = { "Hlo Proto", "hlo_module",
	    "program_id" };
	struct shape_out p = { 0 }, hlo = { 0 }, m, ent, st, line = { 0 },
	    ev;
	int64_t id = (int64_t)i + 1, ninstrs, k;
	char name[48];

	hlo_proto(r, &hlo, id, &ninstrs);
	memset(&st, 0, sizeof st);
	pb_int(&st, 1, 1);
	pb_sub(&st, 6, &hlo);
	memset(&m, 0, sizeof m);
	pb_int(&m, 1, id);
	snprintf(name, sizeof name, "jit_fuzz(%" PRId64 ")", id);
	pb_bytes(&m, 2, name, strlen(name));
	pb_sub(&m, 5, &st);
	memset(&ent, 0, sizeof ent);
	pb_int(&ent, 1, id);
	pb_sub(&ent, 2, &m);
	pb_name(&p, 2, "/host:metadata", 0);
	pb_sub(&p, 4, &ent);
	for (k = 0; k < 3; k++) {
		memset(&m, 0, sizeof m);
		memset(&ent, 0, sizeof ent);
		pb_int(&m, 1, k + 1);
		pb_name(&m, 2, stats[k], 0);
		pb_int(&ent, 1, k + 1);
		pb_sub(&ent, 2, &m);
		pb_sub(&p, 5, &ent);
	}
	pb_sub(o, 1, &p);

	/* The device: an event per instruction (64 at most), in order. */
	pb_int(&p, 1, id);
	pb_name(&p, 2, "/device:GPU:%zu", i);
	for (k = 1; k <= ninstrs && k <= 64 && budget > 0; k++) {
		memset(&m, 0, sizeof m);
		memset(&ent, 0, sizeof ent);
		pb_int(&m, 1, k);
		snprintf(name, sizeof name, "op.%" PRId64, k);
		pb_bytes(&m, 2, name, strlen(name));
		pb_int(&ent, 1, k);
		pb_sub(&ent, 2, &m);
		pb_sub(&p, 4, &ent);
		memset(&ev, 0, sizeof ev);
		pb_int(&ev, 1, k);
		pb_int(&ev, 2, 10000000 * k);
		pb_int(&ev, 3, 5000000);
		memset(&st, 0, sizeof st);
		pb_int(&st, 1, 2);
		pb_bytes(&st, 5, "jit_fuzz", 8);
		pb_sub(&ev, 4, &st);
		memset(&st, 0, sizeof st);
		pb_int(&st, 1, 3);
		pb_int(&st, 4, id);
		pb_sub(&ev, 4, &st);
		pb_sub(&line, 4, &ev);
	}
	for (k = 0; k < 3; k++) {
		memset(&m, 0, sizeof m);
		memset(&ent, 0, sizeof ent);
		pb_int(&m, 1, k + 1);
		pb_name(&m, 2, stats[k], 0);
		pb_int(&ent, 1, k + 1);
		pb_sub(&ent, 2, &m);
		pb_sub(&p, 5, &ent);
	}
	memset(&m, 0, sizeof m);
	pb_int(&m, 1, 1);
	pb_name(&m, 2, "XLA Ops", 0);
	out_add(&m, line.data, line.len);
	shape_out_free(&line);
	pb_sub(&p, 3, &m);
	pb_sub(o, 1, &p);
}

void
shape_xspace(const uint8_t *data, size_t size, struct shape_out *out)
{
	struct recipe r = { data + SHAPE_MAGIC_LEN, data + size };
	size_t n, i;

	memset(out, 0, sizeof *out);
	budget = SHAPE_MAX_OUT;
	n = next_count(&r);
	REPEAT(&r, n, i, xplane(&r, out, i));
	n = next_count(&r);
	for (i = 0; i < n && budget > 0; i++)
		pb_name(out, 2 + (int)(next_byte(&r) % 3), NEXT_OF(&r,
		    stat_strings), i);
	/* Last, so that the recipes written before them build as they did. */
	n = next_count(&r);
	REPEAT(&r, n, i, hlo_program(&r, out, i));
	if (out->data == NULL)
		out_add(out, "\0", 1);	/* never a NULL buffer */
}

/* ---- trace JSON ---- */

static void
json_text(struct shape_out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

static const char *const json_strings[] = {
	"fusion.1", "XLA Ops", "/device:GPU:0", "/host:CPU", "Steps",
	"\\ud800\\u0041", "a\\u0000b", "\\udc00", "\\ud83d\\ude00", "\\u00e9",
	"\\\"\\\\\\/\\b\\f\\n\\r\\t", "\xff", "", "jit_train_step(1)",
	"MemcpyH2D", "\\ud800", "\\ud800\\ud800", "XLA Modules",
};
static const char *const json_numbers[] = {
	"0", "1", "-1", "1.5", "1e308", "-0", "1e-7", "9223372036854775807",
	"-9223372036854775808", "18446744073709551616", "1700000000000000",
	"2305843009213693", "3.0e3", "0.001",
};
static const char *const json_phases[] = {
	"X", "B", "E", "M", "i", "C", "b", "e", "s", "f", "",
};
static const char *const json_keys[] = {
	"name", "ph", "pid", "tid", "ts", "dur", "args", "cat", "id",
	"hlo_op", "hlo_module", "step_num", "_r", "long_name", "sort_index",
};

static void
json_value(struct recipe *r, struct shape_out *o, size_t i, int depth)
{
	char buf[32];
	size_t n, k;

	switch (next_byte(r) % (depth > 3 ? 3 : 5)) {
	case 0:
		json_text(o, "\"");
		json_text(o, NEXT_OF(r, json_strings));
		json_text(o, "\"");
		break;
	case 1:
		json_text(o, NEXT_OF(r, json_numbers));
		break;
	case 2:
		snprintf(buf, sizeof buf, "%zu", i);
		json_text(o, buf);
		break;
	case 3:
		json_text(o, "[");
		n = next_count(r);
		for (k = 0; k < n && budget > 0; k++) {
			json_text(o, k > 0 ? "," : "");
			json_value(r, o, k, depth + 1);
		}
		json_text(o, "]");
		break;
	default:
		json_text(o, "{");
		n = next_count(r);
		for (k = 0; k < n && budget > 0; k++) {
			json_text(o, k > 0 ? ",\"" : "\"");
			json_text(o, NEXT_OF(r, json_keys));
			json_text(o, "\":");
			json_value(r, o, k, depth + 1);
		}
		json_text(o, "}");
		break;
	}
}

/* One trace event: pid and ts follow its index, the rest the recipe. */
static void
json_event(struct recipe *r, struct shape_out *o, size_t i)
{
	char buf[96];
	unsigned per = next_byte(r) % 4;
	size_t n, k;

	snprintf(buf, sizeof buf, "{\"ph\":\"%s\",\"pid\":%zu,\"tid\":%zu,",
	    NEXT_OF(r, json_phases), per == 0 ? i : per, i % (per + 1));
	json_text(o, buf);
	json_text(o, "\"name\":\"");
	json_text(o, NEXT_OF(r, json_strings));
	json_text(o, "\",\"ts\":");
	if (next_byte(r) % 2 == 0) {
		snprintf(buf, sizeof buf, "%zu", i * (1 + next_byte(r)));
		json_text(o, buf);
	} else
		json_text(o, NEXT_OF(r, json_numbers));
	json_text(o, ",\"dur\":");
	json_text(o, NEXT_OF(r, json_numbers));
	n = next_count(r);
	for (k = 0; k < n && budget > 0; k++) {
		json_text(o, ",\"");
		json_text(o, NEXT_OF(r, json_keys));
		json_text(o, "\":");
		json_value(r, o, k, 1);
	}
	json_text(o, "}");
}

void
shape_json(const uint8_t *data, size_t size, struct shape_out *out)
{
	struct recipe r = { data + SHAPE_MAGIC_LEN, data + size };
	size_t groups, g, n, i, written = 0;

	memset(out, 0, sizeof *out);
	budget = SHAPE_MAX_OUT;
	json_text(out, next_byte(&r) % 8 == 0 ? "[" : "{\"traceEvents\":[");
	groups = next_count(&r);
	for (g = 0; g < groups && budget > 0; g++) {
		const uint8_t *at;

		n = next_count(&r);
		at = r.p;
		for (i = 0; i < n && budget > 0; i++) {
			r.p = at;
			json_text(out, written++ > 0 ? "," : "");
			json_event(&r, out, i);
		}
	}
	json_text(out, out->data[0] == '[' ? "]" : "]}");
}

int
shape_is_recipe(const uint8_t *data, size_t size)
{
	return size >= SHAPE_MAGIC_LEN &&
	    memcmp(data, SHAPE_MAGIC, SHAPE_MAGIC_LEN) == 0;
}

void
shape_out_free(struct shape_out *out)
{
	free(out->data);
	memset(out, 0, sizeof *out);
}
