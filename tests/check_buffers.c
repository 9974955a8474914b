/*
 * The buffer-assignment reader (read-buffers.c) on protos written here by
 * hand, whose answers follow from XLA's rules: a program allocates the sum
 * of its allocations; its heap peaks where the simulation's live buffers
 * are largest; shared buffers count once; a damaged trace is refused.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "read/read-buffers.h"
#include "read/read-hlo.h"

#define MIB	((uint64_t)1 << 20)

struct pb {
	uint8_t	 b[4096];
	size_t	 n;
};

static void
put_varint(struct pb *p, uint64_t v)
{
	do {
		ck_assert_uint_lt(p->n, sizeof p->b);
		p->b[p->n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v != 0);
}

static void
put_int(struct pb *p, unsigned field, uint64_t v)
{
	put_varint(p, (uint64_t)field << 3);
	put_varint(p, v);
}

static void
put_msg(struct pb *p, unsigned field, const struct pb *m)
{
	put_varint(p, (uint64_t)field << 3 | 2);
	put_varint(p, m->n);
	ck_assert_uint_le(p->n + m->n, sizeof p->b);
	memcpy(p->b + p->n, m->b, m->n);
	p->n += m->n;
}

static void
put_str(struct pb *p, unsigned field, const char *s)
{
	struct pb m = { { 0 }, 0 };

	memcpy(m.b, s, strlen(s));
	m.n = strlen(s);
	put_msg(p, field, &m);
}

/* An instruction of computation "main" with an f32[rows,1024] shape. */
static void
put_instr(struct pb *comp, const char *name, int64_t id, uint64_t rows)
{
	struct pb in = { { 0 }, 0 }, shape = { { 0 }, 0 };

	put_int(&shape, 2, 11);		/* F32 */
	put_int(&shape, 3, rows);
	put_int(&shape, 3, 1024);
	put_str(&in, 1, name);
	put_msg(&in, 3, &shape);
	put_int(&in, 35, (uint64_t)id);
	put_msg(comp, 2, &in);
}

static void
put_logical(struct pb *ba, int64_t id, uint64_t size, int64_t instr)
{
	struct pb lb = { { 0 }, 0 }, loc = { { 0 }, 0 };

	put_int(&loc, 4, (uint64_t)instr);
	put_int(&lb, 1, (uint64_t)id);
	put_int(&lb, 2, size);
	put_msg(&lb, 3, &loc);
	put_msg(ba, 1, &lb);
}

/* flag: 5 parameter, 7 maybe live out, 0 none (a temporary). */
static void
put_allocation(struct pb *ba, int64_t index, uint64_t size, unsigned flag,
    const int64_t *lbs, size_t n)
{
	struct pb al = { { 0 }, 0 };
	size_t i;

	put_int(&al, 1, (uint64_t)index);
	put_int(&al, 2, size);
	if (flag != 0)
		put_int(&al, flag, 1);
	for (i = 0; i < n; i++) {
		struct pb as = { { 0 }, 0 };

		put_int(&as, 1, (uint64_t)lbs[i]);
		put_msg(&al, 9, &as);
	}
	put_msg(ba, 3, &al);
}

/* Trace events: kind, buffer, canonical (for SHARE_WITH), in triples. */
static void
put_trace(struct pb *ba, const int64_t *ev, size_t n)
{
	struct pb t = { { 0 }, 0 };
	size_t i;

	for (i = 0; i < n; i += 3) {
		struct pb e = { { 0 }, 0 };

		put_int(&e, 1, (uint64_t)ev[i]);
		put_int(&e, 2, (uint64_t)ev[i + 1]);
		if (ev[i] == 2)
			put_int(&e, 5, (uint64_t)ev[i + 2]);
		put_msg(&t, 1, &e);
	}
	put_msg(ba, 4, &t);
}

/* The instructions the module of hlo_module_read() would have. */
static struct hlo_instr instrs[] = {
	{ .name = "p", .opcode = "parameter", .computation = "main", .id = 10 },
	{ .name = "fusion.1", .opcode = "fusion", .computation = "main",
	    .op_name = "jit(f)/mul", .source_file = "f.py", .source_line = 7,
	    .id = 11 },
	{ .name = "fusion.2", .opcode = "fusion", .computation = "main",
	    .id = 12 },
	{ .name = "out", .opcode = "add", .computation = "main", .id = 13 },
};

/*
 * A program with a 4 MiB parameter, a 3 MiB output and a 4 MiB temporary
 * allocation holding two 2 MiB buffers; trace: the heap simulation of the
 * temporary one (NULL: none).
 */
static size_t
write_proto(struct pb *out, const int64_t *trace, size_t ntrace)
{
	struct pb mod = { { 0 }, 0 }, comp = { { 0 }, 0 }, ba = { { 0 }, 0 };
	static const int64_t lb0[] = { 0 }, lb12[] = { 1, 2 }, lb3[] = { 3 };

	put_str(&comp, 1, "main");
	put_instr(&comp, "p", 10, 1024);
	put_instr(&comp, "fusion.1", 11, 512);
	put_instr(&comp, "fusion.2", 12, 512);
	put_instr(&comp, "out", 13, 768);
	put_msg(&mod, 3, &comp);
	put_logical(&ba, 0, 4 * MIB, 10);
	put_logical(&ba, 1, 2 * MIB, 11);
	put_logical(&ba, 2, 2 * MIB, 12);
	put_logical(&ba, 3, 3 * MIB, 13);
	put_allocation(&ba, 0, 4 * MIB, 5, lb0, 1);
	put_allocation(&ba, 1, 4 * MIB, 0, lb12, 2);
	put_allocation(&ba, 2, 3 * MIB, 7, lb3, 1);
	if (trace != NULL)
		put_trace(&ba, trace, ntrace);
	memset(out, 0, sizeof *out);
	put_msg(out, 1, &mod);
	put_msg(out, 3, &ba);
	return out->n;
}

static struct hlo_module module = {
	.name = "jit_f", .instrs = instrs,
	.ninstrs = sizeof instrs / sizeof instrs[0],
};

START_TEST(test_peak_and_buffers)
{
	static const int64_t trace[] = {
		0, 1, 0,  0, 2, 0,  1, 1, 0,  1, 2, 0,
	};
	struct hlo_memory *mem;
	struct pb p;
	char *cause = NULL;

	write_proto(&p, trace, sizeof trace / sizeof trace[0]);
	ck_assert_int_eq(hlo_memory_read(p.b, p.n, &module, &mem, &cause), 0);
	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(mem->peak_bytes, 11 * MIB);
	/* Both temporaries at once, and what lives throughout. */
	ck_assert_int_eq(mem->heap_peak_bytes, 4 * MIB + 7 * MIB);
	ck_assert_int_eq(mem->parameter_bytes, 4 * MIB);
	ck_assert_int_eq(mem->output_bytes, 3 * MIB);
	ck_assert_int_eq(mem->temp_bytes, 4 * MIB);
	ck_assert_uint_eq(mem->nallocations, 3);
	ck_assert_uint_eq(mem->nbuffers, 4);
	ck_assert_str_eq(mem->buffers[0].name, "p");
	ck_assert_str_eq(mem->buffers[0].kind, "parameter");
	ck_assert_str_eq(mem->buffers[0].shape, "f32[1024,1024]");
	ck_assert_str_eq(mem->buffers[1].name, "out");
	ck_assert_str_eq(mem->buffers[1].kind, "output");
	ck_assert_str_eq(mem->buffers[2].name, "fusion.1");
	ck_assert_str_eq(mem->buffers[2].kind, "temporary");
	ck_assert_str_eq(mem->buffers[2].shape, "f32[512,1024]");
	ck_assert_int_eq(mem->buffers[2].size_bytes, 2 * MIB);
	ck_assert_int_eq(mem->buffers[2].instr->source_line, 7);
	ck_assert_str_eq(mem->buffers[3].name, "fusion.2");
	hlo_memory_free(mem);
}
END_TEST

START_TEST(test_shared_counts_once)
{
	/* fusion.2 shares fusion.1's memory: the heap holds 2 MiB. */
	static const int64_t trace[] = {
		0, 1, 0,  2, 2, 1,  1, 1, 0,  1, 2, 0,
	};
	struct hlo_memory *mem;
	struct pb p;
	char *cause = NULL;

	write_proto(&p, trace, sizeof trace / sizeof trace[0]);
	ck_assert_int_eq(hlo_memory_read(p.b, p.n, &module, &mem, &cause), 0);
	ck_assert_int_eq(mem->heap_peak_bytes, 2 * MIB + 7 * MIB);
	ck_assert_uint_eq(mem->nbuffers, 3);
	ck_assert_str_eq(mem->buffers[2].name, "fusion.1");
	hlo_memory_free(mem);
}
END_TEST

START_TEST(test_no_assignment)
{
	struct pb mod = { { 0 }, 0 }, p = { { 0 }, 0 };
	struct hlo_memory *mem = (struct hlo_memory *)&mod;
	char *cause = NULL;

	put_str(&mod, 1, "jit_f");
	put_msg(&p, 1, &mod);
	ck_assert_int_eq(hlo_memory_read(p.b, p.n, &module, &mem, &cause), 0);
	ck_assert_ptr_null(mem);
}
END_TEST

START_TEST(test_damaged_refused)
{
	static const int64_t twice[] = {
		0, 1, 0,  1, 1, 0,  1, 1, 0,
	};
	struct hlo_memory *mem;
	struct pb p;
	char *cause = NULL;
	size_t n, cut;

	write_proto(&p, twice, sizeof twice / sizeof twice[0]);
	ck_assert_int_eq(hlo_memory_read(p.b, p.n, &module, &mem, &cause), -1);
	ck_assert_str_eq(cause, "a buffer freed twice");
	free(cause);
	/* Cut short anywhere: refused or read, never past its end. */
	n = write_proto(&p, NULL, 0);
	for (cut = 1; cut < n; cut++) {
		uint8_t *copy = malloc(cut);

		memcpy(copy, p.b, cut);
		cause = NULL;
		if (hlo_memory_read(copy, cut, &module, &mem, &cause) == 0)
			hlo_memory_free(mem);
		else
			ck_assert_ptr_nonnull(cause);
		free(cause);
		free(copy);
	}
}
END_TEST

/*
 * Read as a program, a proto whose buffer assignment is damaged keeps its
 * instructions; only its memory is unknown, and why is said.  Without
 * memory asked for, the assignment is not read at all.
 */
START_TEST(test_damaged_keeps_program)
{
	static const int64_t twice[] = {
		0, 1, 0,  1, 1, 0,  1, 1, 0,
	};
	struct hlo_set *set = hlo_set_new();
	struct hlo_module *m;
	struct pb p;
	char *cause = NULL;

	write_proto(&p, twice, sizeof twice / sizeof twice[0]);
	m = hlo_module_read(p.b, p.n, 7, 1, &cause);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(cause);
	ck_assert_uint_eq(m->ninstrs, 4);
	ck_assert_ptr_null(m->memory);
	ck_assert_str_eq(m->memory_why, "a buffer freed twice");
	hlo_set_keep(set, m);
	m = hlo_module_read(p.b, p.n, 8, 0, &cause);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(m->memory);
	ck_assert_ptr_null(m->memory_why);
	hlo_set_keep(set, m);
	write_proto(&p, NULL, 0);
	m = hlo_module_read(p.b, p.n, 9, 1, &cause);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(m->memory);
	ck_assert_ptr_null(m->memory_why);
	ck_assert_int_eq(m->memory->peak_bytes, 11 * MIB);
	hlo_set_keep(set, m);
	ck_assert_uint_eq(hlo_set_count(set), 3);
	hlo_set_free(set);
}
END_TEST

/*
 * Byte counts come from the file: one past 8 PiB (BYTES_LIMIT) is a
 * damaged assignment, and so are counts that only add up past it; a sum
 * never wraps into a negative peak.
 */
START_TEST(test_sizes_bounded)
{
	static const int64_t lb0[] = { 0 }, lb1[] = { 1 };
	static const struct {
		uint64_t	 size0, size1;
		const char	*cause;
	} cases[] = {
		{ (uint64_t)1 << 62, 25088, "a damaged buffer assignment" },
		{ UINT64_MAX - 127, 25088, "a damaged buffer assignment" },
		{ (uint64_t)1 << 53, (uint64_t)1 << 53,
		    "allocations that add up past 8 PiB" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pb mod = { { 0 }, 0 }, ba = { { 0 }, 0 };
		struct pb p = { { 0 }, 0 };
		struct hlo_memory *mem = NULL;
		char *cause = NULL;

		put_str(&mod, 1, "jit_f");
		put_logical(&ba, 0, MIB, 10);
		put_logical(&ba, 1, MIB, 11);
		put_allocation(&ba, 0, cases[i].size0, 0, lb0, 1);
		put_allocation(&ba, 1, cases[i].size1, 0, lb1, 1);
		put_msg(&p, 1, &mod);
		put_msg(&p, 3, &ba);
		ck_assert_int_eq(hlo_memory_read(p.b, p.n, &module, &mem,
		    &cause), -1);
		ck_assert_ptr_null(mem);
		ck_assert_str_eq(cause, cases[i].cause);
		free(cause);
	}
}
END_TEST

/* Buffers each within the limit, live together past it: refused. */
START_TEST(test_heap_bounded)
{
	static const int64_t lb0[] = { 0 }, lb1[] = { 1 };
	static const int64_t trace[] = { 0, 0, 0,  0, 1, 0 };
	struct pb mod = { { 0 }, 0 }, ba = { { 0 }, 0 }, p = { { 0 }, 0 };
	struct hlo_memory *mem = NULL;
	char *cause = NULL;

	put_str(&mod, 1, "jit_f");
	put_logical(&ba, 0, (uint64_t)1 << 53, 10);
	put_logical(&ba, 1, (uint64_t)1 << 53, 11);
	put_allocation(&ba, 0, MIB, 0, lb0, 1);
	put_allocation(&ba, 1, MIB, 0, lb1, 1);
	put_trace(&ba, trace, sizeof trace / sizeof trace[0]);
	put_msg(&p, 1, &mod);
	put_msg(&p, 3, &ba);
	ck_assert_int_eq(hlo_memory_read(p.b, p.n, &module, &mem, &cause), -1);
	ck_assert_str_eq(cause, "a heap past 8 PiB");
	free(cause);
}
END_TEST

Suite *
suite_buffers(void)
{
	Suite *s = suite_create("buffers");
	TCase *tc = tcase_create("buffers");

	tcase_add_test(tc, test_peak_and_buffers);
	tcase_add_test(tc, test_shared_counts_once);
	tcase_add_test(tc, test_no_assignment);
	tcase_add_test(tc, test_damaged_refused);
	tcase_add_test(tc, test_damaged_keeps_program);
	tcase_add_test(tc, test_sizes_bounded);
	tcase_add_test(tc, test_heap_bounded);
	suite_add_tcase(s, tc);
	return s;
}
