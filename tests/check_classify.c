/*
 * Classify: op categories from names, and the ops, steps, transfers and
 * compiles of whole files against the answers gen-xplane computed and the
 * stable facts of the real CPU testdata (testdata/README.md).
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "classify/classify.h"
#include "classify/classify-event.h"
#include "load/formats.h"
#include "read/read-xplane.h"
#include "input/source.h"
#include "classify/steps.h"
#include "classify/step-parts.h"
#include "lib/timeline.h"

static const struct {
	const char	*name;
	const char	*category;
} categories[] = {
	{ "fusion.12", "fusion" },
	{ "loop_add_fusion.3", "loop fusion" },
	{ "input_reduce_fusion", "input fusion" },
	{ "output_fusion.7", "output fusion" },
	{ "all-reduce-start.3", "all-reduce-start" },
	{ "custom-call.1.2", "custom-call" },
	{ "dot", "dot" },
	{ "copy.0", "copy" },
	{ "copy.", "copy." },
	{ "7", "7" },
	{ "", "" },
};

START_TEST(test_derive_category)
{
	char *got = derive_category(categories[_i].name);

	ck_assert_msg(strcmp(got, categories[_i].category) == 0,
	    "derive_category(\"%s\") = \"%s\", want \"%s\"",
	    categories[_i].name, got, categories[_i].category);
	free(got);
}
END_TEST

/*
 * As the index reads a file: the step pre-pass, then classify_new +
 * xplane_read + classify_finish.
 */
static void
classify_path(const char *path, struct file_summary *fs)
{
	struct step_windows *windows;
	struct pf_read_stats rs;
	struct pf_handler h;
	struct classify *c;
	struct source src;
	char *cause = NULL;
	int rc;

	ck_assert_msg(source_open(&src, path, &cause) == 0, "%s: %s", path,
	    cause);
	windows = steps_prepass_new(&h);
	rc = xplane_read(&src, path, &h, &rs, &cause);
	ck_assert_msg(rc == 0, "%s: pre-pass: %s", path, cause);
	c = classify_new(fs, windows, &h);
	rc = xplane_read(&src, path, &h, &fs->read_stats, &cause);
	classify_finish(c);
	step_windows_free(windows);
	source_close(&src);
	ck_assert_msg(rc == 0, "%s: %s", path, cause);
}

/* ---- Lists of CSV lines, compared as sorted sets ---- */

struct lines {
	char	**v;
	size_t	  n;
};

static void
lines_add(struct lines *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
lines_add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&s, fmt, ap), 0);
	va_end(ap);
	l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
	ck_assert_ptr_nonnull(l->v);
	l->v[l->n++] = s;
}

static void
lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* The data lines of a csv file, without its header. */
static void
lines_of_csv(const char *path, const char *header, struct lines *l)
{
	char *text = test_slurp(path, NULL), *p = text, *nl;
	int first = 1;

	memset(l, 0, sizeof *l);
	for (; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		*nl = '\0';
		if (first)
			ck_assert_str_eq(p, header);
		else
			lines_add(l, "%s", p);
		first = 0;
	}
	ck_assert_str_eq(p, "");
	free(text);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
assert_same_lines(const char *what, struct lines *got, struct lines *want)
{
	size_t i;

	qsort(got->v, got->n, sizeof *got->v, cmp_str);
	qsort(want->v, want->n, sizeof *want->v, cmp_str);
	for (i = 0; i < got->n && i < want->n; i++)
		ck_assert_msg(strcmp(got->v[i], want->v[i]) == 0,
		    "%s: row %zu differs:\n got  %s\n want %s", what, i,
		    got->v[i], want->v[i]);
	ck_assert_msg(got->n == want->n, "%s: %zu rows, want %zu", what,
	    got->n, want->n);
	ck_assert_uint_gt(want->n, 0);
}

/* ---- Ops summed over planes, by (name, module) ---- */

struct op_sum {
	const char	*name, *module, *category;
	uint64_t	 count, flops, bytes;
	int64_t		 total, self, min, max;
};

static void
sum_ops(const struct file_summary *fs, struct lines *out)
{
	char *const *s = fs->strings.strings;
	struct op_sum *sums = NULL;
	size_t nsums = 0, i, j, k;

	for (i = 0; i < fs->nplanes; i++)
		for (j = 0; j < fs->planes[i].nops; j++) {
			const struct op_agg *o = &fs->planes[i].ops[j];
			struct op_sum *x = NULL;

			for (k = 0; k < nsums; k++)
				if (strcmp(sums[k].name, s[o->name]) == 0 &&
				    strcmp(sums[k].module, s[o->module]) == 0)
					x = &sums[k];
			if (x == NULL) {
				sums = realloc(sums, (nsums + 1) *
				    sizeof *sums);
				ck_assert_ptr_nonnull(sums);
				x = &sums[nsums++];
				memset(x, 0, sizeof *x);
				x->name = s[o->name];
				x->module = s[o->module];
				x->category = s[o->category];
				x->min = o->min_ps;
				x->max = o->max_ps;
			}
			ck_assert_msg(strcmp(x->category, s[o->category]) == 0,
			    "%s: categories %s and %s", x->name, x->category,
			    s[o->category]);
			ck_assert_uint_gt(o->count, 0);
			x->count += o->count;
			x->total += o->total_ps;
			x->self += o->self_ps;
			if (o->min_ps < x->min)
				x->min = o->min_ps;
			if (o->max_ps > x->max)
				x->max = o->max_ps;
			x->flops += o->has_flops ? o->flops : 0;
			x->bytes += o->has_bytes ? o->bytes_accessed : 0;
		}
	memset(out, 0, sizeof *out);
	for (k = 0; k < nsums; k++)
		lines_add(out, "%s,%s,%s,%llu,%lld,%lld,%lld,%lld,%llu,%llu",
		    sums[k].name, sums[k].module, sums[k].category,
		    (unsigned long long)sums[k].count,
		    (long long)sums[k].total, (long long)sums[k].self,
		    (long long)sums[k].min, (long long)sums[k].max,
		    (unsigned long long)sums[k].flops,
		    (unsigned long long)sums[k].bytes);
	free(sums);
}

/* The steps of device planes taken from their "Steps" lines. */
static void
device_steps(const struct file_summary *fs, struct lines *out)
{
	char *const *s = fs->strings.strings;
	size_t i, j;

	memset(out, 0, sizeof *out);
	for (i = 0; i < fs->nplanes; i++)
		for (j = 0; j < fs->planes[i].nsteps; j++) {
			const struct step_rec *r = &fs->planes[i].steps[j];

			if (fs->planes[i].kind != PLANE_DEVICE ||
			    r->source != STEP_DEVICE)
				continue;
			lines_add(out, "%s,%s,%lld,%lld,%lld", fs->host,
			    s[fs->planes[i].name], (long long)r->step,
			    (long long)r->start_ps, (long long)r->dur_ps);
		}
}

static void
device_transfers(const struct file_summary *fs, struct lines *out)
{
	char *const *s = fs->strings.strings;
	size_t i, j;
	int d;

	memset(out, 0, sizeof *out);
	for (i = 0; i < fs->nplanes; i++) {
		const struct plane_summary *p = &fs->planes[i];

		for (d = XFER_H2D; d <= XFER_OTHER; d++) {
			int64_t count = 0, bytes = 0, time = 0;

			for (j = 0; j < p->ntransfers; j++) {
				const struct transfer_rec *r = &p->transfers[j];

				if (r->on_host || r->dir != (enum transfer_dir)d)
					continue;
				count++;
				bytes += r->bytes;
				time += r->dur_ps;
			}
			if (count > 0)
				lines_add(out, "%s,%s,%s,%lld,%lld,%lld",
				    fs->host, s[p->name],
				    transfer_dir_name((enum transfer_dir)d),
				    (long long)count, (long long)bytes,
				    (long long)time);
		}
	}
}

START_TEST(test_generated)
{
	char *dir = test_mkdtemp(), *path, csv[4096];
	struct lines got, want;
	struct file_summary fs;

	path = test_gen_profile(dir, "--seed=11 --devices=2 --steps=4 "
	    "--ops=25", 0);
	classify_path(path, &fs);
	ck_assert_int_eq(fs.op_source, OPS_DEVICE);
	ck_assert_str_eq(fs.host, "host0");
	ck_assert_uint_eq(fs.nplanes, 3);
	ck_assert_uint_eq(fs.read_stats.missing_event_metadata, 0);
	ck_assert_uint_eq(fs.read_stats.missing_stat_metadata, 0);

	sum_ops(&fs, &got);
	test_fmt(csv, sizeof csv, "%s/expected/top.csv", dir);
	lines_of_csv(csv, "name,module,category,count,total_ps,self_ps,"
	    "min_ps,max_ps,flops,bytes_accessed", &want);
	assert_same_lines("top.csv", &got, &want);
	lines_free(&got);
	lines_free(&want);

	device_steps(&fs, &got);
	test_fmt(csv, sizeof csv, "%s/expected/steps.csv", dir);
	lines_of_csv(csv, "host,device,step,start_ps,duration_ps", &want);
	assert_same_lines("steps.csv", &got, &want);
	lines_free(&got);
	lines_free(&want);

	device_transfers(&fs, &got);
	test_fmt(csv, sizeof csv, "%s/expected/transfers.csv", dir);
	lines_of_csv(csv, "host,device,direction,count,bytes,time_ps", &want);
	assert_same_lines("transfers.csv", &got, &want);
	lines_free(&got);
	lines_free(&want);

	file_summary_release(&fs);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

static int
cmp_compile(const void *a, const void *b)
{
	const struct compile_rec *x = a, *y = b;

	return x->start_ps < y->start_ps ? -1 : x->start_ps > y->start_ps;
}

START_TEST(test_cpu_testdata)
{
	/*
	 * By start: step 0 calls normalize, then train_step; eval_batch
	 * compiles normalize again (testdata/make-profiles.py, run 1).
	 */
	static const char *const functions[] = {
		"normalize", "train_step", "normalize",
	};
	const char *dir = test_env("TESTDATA");
	struct compile_rec compiles[16];
	struct file_summary fs;
	char path[4096];
	char *const *s;
	size_t i, j, nsteps = 0, ncompiles = 0, nops = 0;
	int64_t last_start = INT64_MIN;

	ck_assert_msg(dir != NULL, "TESTDATA is not set");
	test_fmt(path, sizeof path, "%s/jax-mlp/plugins/profile/"
	    "2026_01_01_00_00_00/testhost.xplane.pb", dir);
	classify_path(path, &fs);
	s = fs.strings.strings;
	ck_assert_int_eq(fs.op_source, OPS_HOST_XLA);
	for (i = 0; i < fs.nplanes; i++) {
		const struct plane_summary *p = &fs.planes[i];

		for (j = 0; j < p->nsteps; j++) {
			const struct step_rec *r = &p->steps[j];

			if (r->source != STEP_HOST)
				continue;
			ck_assert_int_eq(p->kind, PLANE_HOST);
			ck_assert_str_eq(s[r->name], "train");
			ck_assert_int_eq(r->step, (int64_t)nsteps);
			ck_assert_int_gt(r->start_ps, last_start);
			ck_assert_int_gt(r->dur_ps, 0);
			last_start = r->start_ps;
			nsteps++;
		}
		for (j = 0; j < p->ncompiles; j++) {
			ck_assert_uint_lt(ncompiles, 16);
			compiles[ncompiles++] = p->compiles[j];
		}
		for (j = 0; j < p->nops; j++) {
			const char *m = s[p->ops[j].module];

			ck_assert_msg(strcmp(m, "jit_train_step") == 0 ||
			    strcmp(m, "jit_normalize") == 0,
			    "op %s has module '%s'", s[p->ops[j].name], m);
			ck_assert_uint_gt(p->ops[j].count, 0);
			ck_assert_int_le(p->ops[j].min_ps, p->ops[j].max_ps);
			ck_assert_int_le(p->ops[j].self_ps,
			    p->ops[j].total_ps);
			nops++;
		}
	}
	ck_assert_uint_eq(nsteps, 6);
	ck_assert_uint_gt(nops, 0);
	ck_assert_uint_eq(ncompiles, 3);
	qsort(compiles, ncompiles, sizeof *compiles, cmp_compile);
	for (i = 0; i < ncompiles; i++) {
		ck_assert_str_eq(s[compiles[i].name],
		    "backend_compile_and_load");
		ck_assert_str_eq(s[compiles[i].function], functions[i]);
	}
	file_summary_release(&fs);
}
END_TEST

/*
 * Busy intervals: many more than one storage block holds, in order and
 * (with overlaps, negative and extreme times) out of order, come back
 * sorted and merged.
 */
/* ---- Steps measured as the ops come, against stored busy time ---- */

/* A protobuf message being written. */
struct msg {
	uint8_t		 b[4096];
	size_t		 n;
};

static void
msg_varint(struct msg *m, uint64_t v)
{
	do {
		ck_assert_uint_lt(m->n, sizeof m->b);
		m->b[m->n++] = (uint8_t)(v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
		v >>= 7;
	} while (v != 0);
}

static void
msg_int(struct msg *m, unsigned field, int64_t v)
{
	msg_varint(m, (uint64_t)field << 3);
	msg_varint(m, (uint64_t)v);
}

static void
msg_bytes(struct msg *m, unsigned field, const void *p, size_t n)
{
	msg_varint(m, (uint64_t)field << 3 | 2);
	msg_varint(m, n);
	ck_assert_uint_le(m->n + n, sizeof m->b);
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

/* A metadata map entry (field 4 events', 5 stats'): id and name. */
static void
msg_meta_entry(struct msg *plane, unsigned field, int64_t id,
    const char *name)
{
	struct msg md = { .n = 0 }, entry = { .n = 0 };

	msg_int(&md, 1, id);
	msg_bytes(&md, 2, name, strlen(name));
	msg_int(&entry, 1, id);
	msg_bytes(&entry, 2, md.b, md.n);
	msg_bytes(plane, field, entry.b, entry.n);
}

/* One event: metadata 1 "fusion.1", 2 "all-reduce.1", 3 "MemcpyH2D", 4 "0". */
struct test_ev {
	int		 meta;
	int64_t		 start_ps, dur_ps;
};

/*
 * A device plane of lines "Steps" (S: one window), "XLA Ops" (X: ops),
 * "Stream" (C: copies), in the order `order` says.
 */
static void
stream_space(struct msg *space, const char *order, const struct test_ev *ops,
    size_t nops, const struct test_ev *copies, size_t ncopies)
{
	static const char *const names[] = {
		"fusion.1", "all-reduce.1", "MemcpyH2D", "0",
	};
	static const struct test_ev step = { 4, 0, 40000000000 };
	struct msg plane = { .n = 0 }, line, ev;
	const char *o;
	size_t i, n;

	msg_bytes(&plane, 2, "/device:GPU:0", 13);
	for (o = order; *o != '\0'; o++) {
		const struct test_ev *v = *o == 'S' ? &step : *o == 'X' ? ops :
		    copies;
		const char *name = *o == 'S' ? "Steps" : *o == 'X' ?
		    "XLA Ops" : "Stream #1";

		n = *o == 'S' ? 1 : *o == 'X' ? nops : ncopies;
		line.n = 0;
		msg_bytes(&line, 2, name, strlen(name));
		for (i = 0; i < n; i++) {
			ev.n = 0;
			msg_int(&ev, 1, v[i].meta);
			msg_int(&ev, 2, v[i].start_ps);
			msg_int(&ev, 3, v[i].dur_ps);
			msg_bytes(&line, 4, ev.b, ev.n);
		}
		msg_bytes(&plane, 3, line.b, line.n);
	}
	for (i = 0; i < 4; i++)
		msg_meta_entry(&plane, 4, (int64_t)i + 1, names[i]);
	space->n = 0;
	msg_bytes(space, 1, plane.b, plane.n);
}

/* The steps and gaps of fs's planes, one CSV line each. */
static void
steps_and_gaps(const struct file_summary *fs, struct lines *out)
{
	char buf[512];
	size_t i, j;

	memset(out, 0, sizeof *out);
	for (i = 0; i < fs->nplanes; i++) {
		const struct plane_summary *p = &fs->planes[i];

		for (j = 0; j < p->nsteps; j++) {
			const struct step_rec *s = &p->steps[j];

			test_fmt(buf, sizeof buf, "step,%zu,%zu,%d,%lld,%s,"
			    "%lld,%lld,%lld,%lld,%lld,%lld", i, j, s->source,
			    (long long)s->step, fs->strings.strings[s->name],
			    (long long)s->start_ps, (long long)s->dur_ps,
			    (long long)s->busy_ps[0], (long long)s->busy_ps[1],
			    (long long)s->busy_ps[2], (long long)s->idle_ps);
			lines_add(out, "%s", buf);
		}
		for (j = 0; j < p->ngaps; j++) {
			test_fmt(buf, sizeof buf, "gap,%zu,%zu,%lld,%lld", i, j,
			    (long long)p->gaps[j].start_ps,
			    (long long)p->gaps[j].dur_ps);
			lines_add(out, "%s", buf);
		}
	}
}

/*
 * The one-pass reader (which streams where it can) and the two-pass one
 * (which stores) measure the same steps and gaps for lines in the order
 * given.
 */
static void
assert_stream_same(const char *order, const struct test_ev *ops, size_t nops,
    const struct test_ev *copies, size_t ncopies)
{
	char *dir = test_mkdtemp(), path[4096], *cause = NULL;
	struct file_summary streamed, stored;
	struct lines got, want;
	struct msg space;

	stream_space(&space, order, ops, nops, copies, ncopies);
	test_fmt(path, sizeof path, "%s/host0.xplane.pb", dir);
	test_spew(path, space.b, space.n);
	ck_assert_msg(load_memory(path, space.b, space.n, KIND_XPLANE, 1,
	    NULL, &streamed, &cause) == 0, "%s: %s", order, cause);
	classify_path(path, &stored);
	steps_and_gaps(&streamed, &got);
	steps_and_gaps(&stored, &want);
	ck_assert_uint_gt(want.n, 0);
	assert_same_lines(order, &got, &want);
	lines_free(&got);
	lines_free(&want);
	file_summary_release(&streamed);
	file_summary_release(&stored);
	test_rmtree(dir);
	free(dir);
}

START_TEST(test_steps_streamed)
{
	/* Nested ops, gaps of 1 ms, a collective inside a compute op. */
	static const struct test_ev ops[] = {
		{ 1, 1000000000, 3000000000 },
		{ 2, 1500000000, 500000000 },
		{ 1, 2500000000, 0 },
		{ 1, 5000000000, 1000000000 },
		{ 2, 5000000000, 2000000000 },
		{ 1, 9000000000, 1000000000 },
	};
	/* The same ops with one that begins before a closed stretch. */
	static const struct test_ev late[] = {
		{ 1, 1000000000, 3000000000 },
		{ 1, 5000000000, 1000000000 },
		{ 2, 2000000000, 4000000000 },
		{ 1, 9000000000, 1000000000 },
		{ 1, 11000000000, 100000000 },
		{ 1, 11500000000, 100000000 },
	};
	/* Later ones nested in the open stretch: taken as they come. */
	static const struct test_ev nested[] = {
		{ 1, 1000000000, 3000000000 },
		{ 2, 3000000000, 500000000 },
		{ 2, 3200000000, 100000000 },
		{ 1, 1100000000, 3500000000 },
		{ 1, 11000000000, 100000000 },
		{ 1, 11500000000, 100000000 },
	};
	static const struct test_ev copies[] = {
		{ 3, 500000000, 700000000 },
		{ 3, 3800000000, 1500000000 },
		{ 3, 12000000000, 1000000000 },
	};
	static const char *const orders[] = {
		"SXC", "SCX", "CSX", "XSC", "SXCC", "SXXC", "XCS",
	};
	size_t i, n = sizeof ops / sizeof ops[0];

	for (i = 0; i < sizeof orders / sizeof orders[0]; i++) {
		assert_stream_same(orders[i], ops, n, copies, 3);
		assert_stream_same(orders[i], late, 6, copies, 3);
		assert_stream_same(orders[i], nested, 6, copies, 3);
		/* More copies after the ops than half of them: stored. */
		assert_stream_same(orders[i], nested, 4, copies, 3);
	}
	assert_stream_same("SX", ops, n, copies, 0);
}
END_TEST

/* A bad event in a line read ahead is told as it is without reading ahead. */
START_TEST(test_steps_streamed_bad_ahead)
{
	static const struct test_ev ops[] = {
		{ 1, 1000000000, 3000000000 },
		{ 1, 5000000000, 1000000000 },
	};
	static const struct test_ev copies[] = {
		{ 3, 500000000, (int64_t)1 << 62 },
	};
	struct file_summary fs;
	struct pf_read_stats rs;
	struct pf_handler h;
	struct source src;
	struct msg space;
	char *cause = NULL, *want = NULL;

	stream_space(&space, "SXC", ops, 2, copies, 1);
	memset(&h, 0, sizeof h);
	source_borrow(&src, space.b, space.n);
	ck_assert_int_eq(xplane_read(&src, "mem", &h, &rs, &want), -1);
	source_close(&src);
	ck_assert_int_eq(load_memory("mem", space.b, space.n, KIND_XPLANE, 1,
	    NULL, &fs, &cause), -1);
	ck_assert_ptr_nonnull(strstr(want, "impossible duration_ps"));
	ck_assert_str_eq(cause, want);
	free(cause);
	free(want);
}
END_TEST

/* ---- Python tracer frames ($...), the bulk of a JAX host line ---- */

/* One host event: metadata `meta`, times in microseconds, maybe a stat. */
struct host_test_ev {
	int		 meta;
	int64_t		 start_us, dur_us;
	int		 with_stat;
};

/*
 * A compile inside a Python frame inside PjitFunction(f), its phases
 * frames (one with a stat of its own, which takes the slow path) and a
 * scope, a frame in that: frames nest like any event but are no scope.
 */
START_TEST(test_python_frames)
{
	static const char *const names[] = {
		"PjitFunction(f)", "$jax.py:10 trace",
		"backend_compile_and_load", "$x.py:1 pass", "MyScope",
		"$y.py:2 inner",
	};
	static const struct host_test_ev evs[] = {
		{ 1, 0, 1000, 0 }, { 2, 10, 900, 0 }, { 3, 20, 800, 0 },
		{ 4, 30, 50, 0 }, { 4, 100, 50, 1 }, { 5, 200, 20, 0 },
		{ 6, 205, 5, 0 },
	};
	struct msg space, plane = { .n = 0 }, line = { .n = 0 }, ev, st;
	const struct plane_summary *p = NULL;
	struct file_summary fs;
	char *cause = NULL, *const *s;
	size_t i;

	msg_bytes(&plane, 2, "/host:CPU", 9);
	msg_bytes(&line, 2, "python3", 7);
	for (i = 0; i < sizeof evs / sizeof evs[0]; i++) {
		ev.n = 0;
		msg_int(&ev, 1, evs[i].meta);
		msg_int(&ev, 2, evs[i].start_us * 1000000);
		msg_int(&ev, 3, evs[i].dur_us * 1000000);
		if (evs[i].with_stat) {
			st.n = 0;
			msg_int(&st, 1, 9);
			msg_int(&st, 4, 1);
			msg_bytes(&ev, 4, st.b, st.n);
		}
		msg_bytes(&line, 4, ev.b, ev.n);
	}
	msg_bytes(&plane, 3, line.b, line.n);
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		msg_meta_entry(&plane, 4, (int64_t)i + 1, names[i]);
	msg_meta_entry(&plane, 5, 9, "a_stat");
	space.n = 0;
	msg_bytes(&space, 1, plane.b, plane.n);

	ck_assert_msg(load_memory("mem", space.b, space.n, KIND_XPLANE, 1,
	    NULL, &fs, &cause) == 0, "%s", cause);
	s = fs.strings.strings;
	for (i = 0; i < fs.nplanes; i++)
		if (fs.planes[i].kind == PLANE_HOST)
			p = &fs.planes[i];
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->nevents, 7);
	/* The frame between it and PjitFunction(f) hides no function. */
	ck_assert_uint_eq(p->ncompiles, 1);
	ck_assert_str_eq(s[p->compiles[0].function], "f");
	/* Its direct children, frames or not; the frame in MyScope not. */
	ck_assert_uint_eq(p->compiles[0].nphases, 3);
	ck_assert_str_eq(s[p->phases[p->compiles[0].first_phase].name],
	    "$x.py:1 pass");
	ck_assert_str_eq(s[p->phases[p->compiles[0].first_phase + 1].name],
	    "$x.py:1 pass");
	ck_assert_int_eq(p->phases[p->compiles[0].first_phase + 1].start_ps,
	    100000000);
	ck_assert_str_eq(s[p->phases[p->compiles[0].first_phase + 2].name],
	    "MyScope");
	/* Events of 100 us and more, the frame too, at their depths. */
	ck_assert_uint_eq(p->nhost_events, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_str_eq(s[p->host_events[i].name], names[i]);
		ck_assert_int_eq(p->host_events[i].depth, (int)i);
		ck_assert_int_eq(p->host_events[i].dur_ps,
		    evs[i].dur_us * 1000000);
	}
	/* Scopes: no frame among them, nor in their self time. */
	ck_assert_uint_eq(p->nscopes, 3);
	for (i = 0; i < p->nscopes; i++) {
		const struct scope_agg *a = &p->scopes[i];
		const char *n = s[a->name];

		ck_assert_msg(n[0] != '$', "frame %s is a scope", n);
		if (strcmp(n, "PjitFunction(f)") == 0) {
			ck_assert_uint_eq(a->parent, NO_SCOPE);
			ck_assert_int_eq(a->self_ps, 200000000);
		} else if (strcmp(n, "backend_compile_and_load") == 0) {
			ck_assert_str_eq(s[p->scopes[a->parent].name],
			    "PjitFunction(f)");
			ck_assert_int_eq(a->self_ps, 780000000);
		} else {
			ck_assert_str_eq(n, "MyScope");
			ck_assert_str_eq(s[p->scopes[a->parent].name],
			    "backend_compile_and_load");
			ck_assert_int_eq(a->self_ps, 20000000);
		}
	}
	file_summary_release(&fs);
}
END_TEST

START_TEST(test_ivals_in_order)
{
	struct ivals s = { 0 };
	struct ivals_iter it;
	struct ival iv;
	int64_t i, n = 100000;

	for (i = 0; i < n; i++)	/* 1000 ps busy, 24 ps idle, repeated */
		ivals_add(&s, i * 1024 + 1000000000, i * 1024 + 1000001000);
	ivals_normalize(&s);
	for (i = 0, ivals_iter_init(&s, &it); ivals_next(&it, &iv); i++) {
		ck_assert_int_eq(iv.start, i * 1024 + 1000000000);
		ck_assert_int_eq(iv.end, i * 1024 + 1000001000);
	}
	ck_assert_int_eq(i, n);
	ivals_release(&s);
}
END_TEST

/*
 * Read in batches, a set gives what it gives one at a time: gaps and
 * lengths of many varint sizes (1 to 10 bytes), across block ends.
 */
START_TEST(test_ivals_read_batches)
{
	struct ivals s = { 0 };
	struct ivals_iter it, one;
	struct ival batch[7], iv;
	int64_t t = INT64_MIN / 2, len;
	size_t n, i, total = 0;
	int shift = 0;

	for (i = 0; i < 20000; i++) {
		len = ((int64_t)1 << shift) + (int64_t)i;
		ivals_add(&s, t, t + len);
		t += len + ((int64_t)1 << (shift / 2)) + 1;
		shift = (shift + 5) % 47;
	}
	ivals_add(&s, t, t + ((int64_t)1 << 62));
	ivals_normalize(&s);
	ivals_iter_init(&s, &it);
	ivals_iter_init(&s, &one);
	while ((n = ivals_read(&it, batch, 7)) > 0)
		for (i = 0; i < n; i++, total++) {
			ck_assert(ivals_next(&one, &iv));
			ck_assert_int_eq(batch[i].start, iv.start);
			ck_assert_int_eq(batch[i].end, iv.end);
		}
	ck_assert(!ivals_next(&one, &iv));
	ck_assert_uint_eq(total, 20001);
	ivals_release(&s);
}
END_TEST

START_TEST(test_ivals_out_of_order)
{
	struct ivals s = { 0 };
	struct ivals_iter it;
	struct ival iv;
	int64_t i, n = 30000;
	size_t k = 0;
	static const struct ival want[] = {
		{ INT64_MIN, INT64_MIN + 10 },
		{ -500, 0 },
		{ 1, 30000 * 10 + 15 },
		{ INT64_MAX - 10, INT64_MAX },
	};

	/* Backwards, each [10i + 1, 10i + 15): they overlap into one. */
	for (i = n; i >= 0; i--)
		ivals_add(&s, 10 * i + 1, 10 * i + 15);
	ivals_add(&s, INT64_MAX - 10, INT64_MAX);
	ivals_add(&s, -500, 0);
	ivals_add(&s, INT64_MIN, INT64_MIN + 10);
	ivals_add(&s, 7, 7);		/* empty: ignored */
	ivals_normalize(&s);
	for (ivals_iter_init(&s, &it); ivals_next(&it, &iv); k++) {
		ck_assert_uint_lt(k, sizeof want / sizeof want[0]);
		ck_assert_int_eq(iv.start, want[k].start);
		ck_assert_int_eq(iv.end, want[k].end);
	}
	ck_assert_uint_eq(k, sizeof want / sizeof want[0]);
	ivals_release(&s);
}
END_TEST

static int
cmp_start_end(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

/*
 * Lines that interleave, as on a TPU's busy sets: 16 runs each in order,
 * added one after another, with equal starts, starts across every byte
 * of an int64 and negative ones; the union is the one a plain sort and
 * merge gives.  Long runs and short ones: the radix sort takes wide
 * digits for a long set, bytes for a short one (timeline.c).
 */
static const size_t interleaved_run_lengths[] = { 5000, 60 };

START_TEST(test_ivals_interleaved)
{
	struct ivals s = { 0 };
	struct ivals_iter it;
	struct ival *all, iv, cur;
	size_t n = 0, k, i, nwant = 0, got = 0;
	size_t run_length = interleaved_run_lengths[_i];
	struct ival *want;
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	int run;

	all = calloc(16 * run_length, sizeof *all);
	want = calloc(16 * run_length, sizeof *want);
	ck_assert(all != NULL && want != NULL);
	for (run = 0; run < 16; run++) {
		int64_t t = run % 4 == 0 ? INT64_MIN / 2 :
		    (int64_t)run * 1000003 - 5000000;

		for (k = 0; k < run_length; k++) {
			int64_t len;

			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			len = (int64_t)(rng % 4000) + 1;
			all[n].start = t;
			all[n].end = t + len;
			ivals_add(&s, all[n].start, all[n].end);
			n++;
			/* Now and then a long jump, or the same start again. */
			t += rng % 7 == 0 ? 0 : rng % 11 == 0 ?
			    (int64_t)(rng >> 20) : (int64_t)(rng % 5000);
		}
	}
	ivals_normalize(&s);
	qsort(all, n, sizeof *all, cmp_start_end);
	for (i = 0; i < n; i++) {
		if (nwant > 0 && all[i].start <= want[nwant - 1].end) {
			if (all[i].end > want[nwant - 1].end)
				want[nwant - 1].end = all[i].end;
			continue;
		}
		want[nwant++] = all[i];
	}
	for (ivals_iter_init(&s, &it); ivals_next(&it, &iv); got++) {
		ck_assert_uint_lt(got, nwant);
		cur = want[got];
		ck_assert_int_eq(iv.start, cur.start);
		ck_assert_int_eq(iv.end, cur.end);
	}
	ck_assert_uint_eq(got, nwant);
	ck_assert_uint_gt(nwant, run_length / 50);
	free(all);
	free(want);
	ivals_release(&s);
}
END_TEST

/*
 * A plane's collectives by step: steps out of order, an op twice in a step
 * (occurrences 0 and 1), spans out of order, one before the first step and
 * one between steps (left out); annotations summed per step and name.
 */
START_TEST(test_step_parts)
{
	struct step_rec steps[2];
	struct named_span spans[] = {
		{ 7, 250, 5 },	/* step 4, op 7, second */
		{ 7, 205, 5 },	/* step 4, op 7, first */
		{ 8, 210, 5 },	/* step 4, op 8 */
		{ 7, 50, 5 },	/* before any step */
		{ 7, 300, 5 },	/* between steps */
		{ 7, 400, 9 },	/* step 5, op 7, first again */
	};
	struct plane_summary p;
	struct step_collective *c;
	struct step_annotation *a;
	size_t n;

	memset(steps, 0, sizeof steps);
	steps[0].step = 5;
	steps[0].start_ps = 400;
	steps[0].dur_ps = 100;
	steps[1].step = 4;
	steps[1].start_ps = 200;
	steps[1].dur_ps = 100;	/* ends at 300: a span there is not in it */
	memset(&p, 0, sizeof p);
	p.steps = steps;
	p.nsteps = 2;
	p.collectives = spans;
	p.ncollectives = sizeof spans / sizeof spans[0];
	n = step_collectives_of(&p, &c);
	ck_assert_uint_eq(n, 4);
	ck_assert(c[0].step == 4 && c[0].name == 7 && c[0].occurrence == 0 &&
	    c[0].start_ps == 205);
	ck_assert(c[1].step == 4 && c[1].name == 8 && c[1].occurrence == 0);
	ck_assert(c[2].step == 4 && c[2].name == 7 && c[2].occurrence == 1 &&
	    c[2].start_ps == 250);
	ck_assert(c[3].step == 5 && c[3].name == 7 && c[3].occurrence == 0 &&
	    c[3].dur_ps == 9);
	free(c);

	p.annotations = spans;
	p.nannotations = sizeof spans / sizeof spans[0];
	n = step_annotations_of(&p, steps, 2, &a);
	ck_assert_uint_eq(n, 3);
	ck_assert(a[0].step == 4 && a[0].name == 7 && a[0].count == 2 &&
	    a[0].dur_ps == 10);
	ck_assert(a[1].step == 4 && a[1].name == 8 && a[1].count == 1);
	ck_assert(a[2].step == 5 && a[2].name == 7 && a[2].count == 1 &&
	    a[2].dur_ps == 9);
	free(a);
	n = step_annotations_of(&p, NULL, 0, &a);
	ck_assert_uint_eq(n, 0);
	free(a);
}
END_TEST

Suite *
suite_classify(void)
{
	Suite *s = suite_create("classify");
	TCase *tc = tcase_create("category");

	tcase_add_loop_test(tc, test_derive_category, 0,
	    (int)(sizeof categories / sizeof categories[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("files");
	tcase_add_test(tc, test_generated);
	tcase_add_test(tc, test_cpu_testdata);
	tcase_add_test(tc, test_steps_streamed);
	tcase_add_test(tc, test_steps_streamed_bad_ahead);
	tcase_add_test(tc, test_python_frames);
	tcase_add_test(tc, test_step_parts);
	suite_add_tcase(s, tc);
	tc = tcase_create("timeline");
	tcase_add_test(tc, test_ivals_in_order);
	tcase_add_test(tc, test_ivals_out_of_order);
	tcase_add_loop_test(tc, test_ivals_interleaved, 0,
	    (int)(sizeof interleaved_run_lengths /
	    sizeof interleaved_run_lengths[0]));
	tcase_add_test(tc, test_ivals_read_batches);
	suite_add_tcase(s, tc);
	return s;
}
