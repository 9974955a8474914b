/*
 * The HLO reader (read-hlo.c) and the command-buffer matcher (hlo-match.c)
 * on the H200 corpus profiles: instruction counts checked against a wire
 * walk of our own, names, kernel names, categories, source lines and the
 * run order; and bad protos.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_suites.h"
#include "classify/hlo-match.h"
#include "read/read-hlo.h"
#include "read/read-xplane.h"
#include "input/source.h"

/* ---- a tiny protobuf wire walk, independent of protobuf-c ---- */

static int
varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
	}
	return -1;
}

/*
 * Calls fn for each length-delimited field number `field` of the message
 * [p, end); skips the others.
 */
static void
each_field(const unsigned char *p, const unsigned char *end, uint64_t field,
    void (*fn)(const unsigned char *, const unsigned char *, void *),
    void *arg)
{
	while (p < end) {
		uint64_t key, len;

		ck_assert_int_eq(varint(&p, end, &key), 0);
		switch (key & 7) {
		case 0:
			ck_assert_int_eq(varint(&p, end, &len), 0);
			break;
		case 1:
			p += 8;
			break;
		case 5:
			p += 4;
			break;
		case 2:
			ck_assert_int_eq(varint(&p, end, &len), 0);
			ck_assert_uint_le(len, (uint64_t)(end - p));
			if (key >> 3 == field)
				fn(p, p + len, arg);
			p += len;
			break;
		default:
			ck_abort_msg("wire type %d", (int)(key & 7));
		}
	}
}

static void
count_one(const unsigned char *p, const unsigned char *end, void *arg)
{
	(void)p;
	(void)end;
	(*(size_t *)arg)++;
}

static void
count_instrs(const unsigned char *p, const unsigned char *end, void *arg)
{
	each_field(p, end, 2, count_one, arg);	/* computation.instructions */
}

static void
count_in_module(const unsigned char *p, const unsigned char *end, void *arg)
{
	each_field(p, end, 3, count_instrs, arg);	/* module.computations */
}

/* ---- the Hlo Proto stats of a profile ---- */

struct protos {
	struct hlo_set	*set;
	size_t		 nprotos;
	size_t		 wire_instrs;	/* of the module named "want" */
	const char	*want;
	size_t		 want_instrs;	/* what the reader found in it */
};

static int
on_plane(void *ctx, const struct pf_plane *plane)
{
	struct protos *ps = ctx;
	size_t i, j;

	if (strcmp(plane->name, "/host:metadata") != 0)
		return PF_SKIP;
	for (i = 0; i < plane->nmetas; i++)
		for (j = 0; j < plane->metas[i].nstats; j++) {
			const struct pf_stat *st = &plane->metas[i].stats[j];
			const unsigned char *p =
			    (const unsigned char *)st->str.ptr;
			char *cause = NULL;
			size_t before = hlo_set_count(ps->set);

			if (strcmp(st->name, "Hlo Proto") != 0)
				continue;
			ps->nprotos++;
			ck_assert_msg(hlo_set_add(ps->set, p, st->str.len, -1,
			    &cause) == 0, "%s: %s", plane->metas[i].name,
			    cause);
			if (hlo_set_count(ps->set) == before ||
			    strncmp(plane->metas[i].name, ps->want,
			    strlen(ps->want)) != 0)
				continue;
			each_field(p, p + st->str.len, 1, count_in_module,
			    &ps->wire_instrs);
			ps->want_instrs = hlo_set_module(ps->set,
			    before)->ninstrs;
		}
	return PF_SKIP;
}

/* The programs' HLO of a corpus file, or NULL (skipped) without corpus. */
static struct hlo_set *
corpus_hlo(const char *rel, struct protos *ps)
{
	const char *corpus = test_env("CORPUS");
	struct pf_handler h;
	struct pf_read_stats rs;
	struct source src;
	char path[4096], *cause = NULL;
	struct stat st;

	if (corpus == NULL) {
		printf("hlo: CORPUS is not set: skipping %s\n", rel);
		return NULL;
	}
	test_fmt(path, sizeof path, "%s/%s", corpus, rel);
	if (stat(path, &st) == -1) {
		printf("hlo: no %s: skipping it\n", path);
		return NULL;
	}
	memset(ps, 0, sizeof *ps);
	ps->set = hlo_set_new();
	ps->want = "jit_train_step(";
	memset(&h, 0, sizeof h);
	memset(&rs, 0, sizeof rs);
	h.ctx = ps;
	h.plane_begin = on_plane;
	ck_assert_msg(source_open(&src, path, &cause) == 0, "%s", cause);
	ck_assert_msg(xplane_read(&src, path, &h, &rs, &cause) == 0, "%s",
	    cause);
	source_close(&src);
	return ps->set;
}

#define CMDBUF_WARM \
	"h200/cmdbuf-warm/plugins/profile/2026_11_26_03_51_57/vm.xplane.pb"

START_TEST(test_corpus_modules)
{
	const struct hlo_module *m;
	const struct hlo_instr *in;
	struct protos ps;
	size_t i, nfusions = 0;

	if (corpus_hlo(CMDBUF_WARM, &ps) == NULL)
		return;
	ck_assert_uint_eq(ps.nprotos, 30);
	ck_assert_uint_eq(hlo_set_count(ps.set), 30);
	/* Every instruction the wire holds, none more. */
	ck_assert_uint_gt(ps.wire_instrs, 1000);
	ck_assert_uint_eq(ps.want_instrs, ps.wire_instrs);

	m = hlo_set_find(ps.set, 355977, NULL, 0);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->name, "jit_train_step");
	ck_assert_ptr_eq(hlo_set_find(ps.set, -1, "jit_train_step", 14), m);
	/* Recompiled: several modules share the name, none is picked. */
	ck_assert_ptr_null(hlo_set_find(ps.set, -1, "jit_multiply", 12));

	for (i = 0; i < m->ninstrs; i++) {
		in = &m->instrs[i];
		ck_assert_ptr_eq(hlo_module_instr(m, in->name,
		    strlen(in->name)), in);
		if (strcmp(in->opcode, "fusion") == 0)
			nfusions++;
		if (in->schedule_index >= 0)
			ck_assert_ptr_eq(&m->instrs[m->launches[
			    in->schedule_index]], in);
	}
	ck_assert_uint_gt(nfusions, 100);

	/* A cuBLAS call: a gemm, with the source line xprof shows. */
	in = hlo_module_instr(m, "custom-call.22", 14);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(in->category, "gemm");
	ck_assert_int_eq(in->launch, HLO_LAUNCH_LIBRARY);
	ck_assert_str_eq(in->source_file,
	    "/home/research/gpu/make_gpu_profiles.py");
	ck_assert_int_eq(in->source_line, 69);
	ck_assert_str_eq(in->op_name,
	    "jit(train_step)/transpose(jvp())/transpose");

	/* XLA names kernels after instructions: '.' becomes '_'. */
	in = hlo_module_kernel(m, "loop_add_fusion_8", 17);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(in->name, "loop_add_fusion.8");
	ck_assert_str_eq(in->category, "loop fusion");
	ck_assert_str_eq(in->fusion_kind, "kLoop");
	ck_assert_ptr_null(hlo_module_kernel(m, "sm90_xmma_gemm", 14));
	ck_assert_str_eq(hlo_module_instr(m, "gemm_fusion_dot.106",
	    19)->category, "gemm fusion");
	hlo_set_free(ps.set);
}
END_TEST

START_TEST(test_corpus_matching)
{
	struct hlo_cursor cur = HLO_CURSOR_INIT;
	const struct hlo_module *m;
	struct protos ps;

	if (corpus_hlo(CMDBUF_WARM, &ps) == NULL)
		return;
	m = hlo_set_find(ps.set, 355977, NULL, 0);
	/* The first kernels of a launch, as the profile has them. */
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3, "input_reduce_fusion_9",
	    21)->name, "input_reduce_fusion.9");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3, "loop_multiply_fusion",
	    20)->name, "loop_multiply_fusion");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3, "input_reduce_fusion_11",
	    22)->name, "input_reduce_fusion.11");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3, "loop_rsqrt_fusion",
	    17)->name, "loop_rsqrt_fusion");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3, "loop_multiply_fusion_2",
	    22)->name, "loop_multiply_fusion.2");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3, "fusion_842", 10)->name,
	    "fusion.842");
	/* A workspace memset and the gemm: the next library call. */
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3, "Memset 0", 8)->name,
	    "custom-call.31");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3,
	    "sm90_xmma_gemm_f32f32", 21)->name, "custom-call.31");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 3,
	    "loop_transpose_fusion_18", 24)->name, "loop_transpose_fusion.18");
	/* A new launch starts over. */
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 4, "input_reduce_fusion_9",
	    21)->name, "input_reduce_fusion.9");
	ck_assert_str_eq(hlo_match_kernel(&cur, m, 4, "fusion_842", 10)->name,
	    "fusion.842");
	hlo_set_free(ps.set);
}
END_TEST

START_TEST(test_bad_protos)
{
	static const unsigned char truncated[] = { 0x0a, 0x20, 0x0a, 0x03 };
	static const unsigned char no_module[] = { 0x1a, 0x00 };
	struct hlo_set *set = hlo_set_new();
	char *cause = NULL;

	ck_assert_int_eq(hlo_set_add(set, truncated, sizeof truncated, 1,
	    &cause), -1);
	ck_assert_str_eq(cause, "not a valid xla.HloProto");
	free(cause);
	cause = NULL;
	ck_assert_int_eq(hlo_set_add(set, no_module, sizeof no_module, 2,
	    &cause), -1);
	ck_assert_str_eq(cause, "xla.HloProto without a module");
	free(cause);
	ck_assert_uint_eq(hlo_set_count(set), 0);
	ck_assert_ptr_null(hlo_set_find(set, 1, NULL, 0));
	hlo_set_free(set);
}
END_TEST

/*
 * Modules parsed apart (on any thread) are kept in the caller's order,
 * the first of a program id winning, as hlo_set_add() keeps them.
 */
START_TEST(test_keep_order)
{
	/* An xla.HloProto whose module is named "m" and has no code. */
	static const unsigned char proto[] = { 0x0a, 0x03, 0x0a, 0x01, 'm' };
	struct hlo_module *first, *again, *other;
	struct hlo_set *set = hlo_set_new();
	char *cause = NULL;

	first = hlo_module_read(proto, sizeof proto, 7, 1, &cause);
	again = hlo_module_read(proto, sizeof proto, 7, 1, &cause);
	other = hlo_module_read(proto, sizeof proto, 8, 1, &cause);
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(again);
	ck_assert_ptr_nonnull(other);
	ck_assert_ptr_null(hlo_module_read(proto, 3, 9, 1, &cause));
	ck_assert_str_eq(cause, "not a valid xla.HloProto");
	free(cause);
	hlo_set_keep(set, first);
	hlo_set_keep(set, again);	/* freed: program 7 is there */
	hlo_set_keep(set, other);
	ck_assert_uint_eq(hlo_set_count(set), 2);
	ck_assert_ptr_eq(hlo_set_module(set, 0), first);
	ck_assert_ptr_eq(hlo_set_module(set, 1), other);
	ck_assert_str_eq(first->name, "m");
	ck_assert_int_eq(other->program_id, 8);
	hlo_set_free(set);
}
END_TEST

Suite *
suite_hlo(void)
{
	Suite *s = suite_create("hlo");
	TCase *tc = tcase_create("hlo");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_corpus_modules);
	tcase_add_test(tc, test_corpus_matching);
	tcase_add_test(tc, test_bad_protos);
	tcase_add_test(tc, test_keep_order);
	suite_add_tcase(s, tc);
	return s;
}
