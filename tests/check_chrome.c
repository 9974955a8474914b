/*
 * The Chrome-trace writer: its JSON parses (yajl here, Python's json
 * independently), holds every event of the source with the same names and
 * durations, nests properly on every thread, moves partial overlaps to an
 * overlap thread, honours the window, and writes valid gzip.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yajl/yajl_tree.h>
#include <zlib.h>

#include "check_suites.h"
#include "lib/err.h"
#include "model/profile.h"
#include "read/read-xplane.h"
#include "input/source.h"
#include "lib/strmap.h"
#include "load/write-chrome.h"
#include "lib/xmalloc.h"

#define JAX_MLP "/jax-mlp/plugins/profile/2026_01_01_00_00_00/" \
	"testhost.xplane.pb"
#define TPU_FILE "/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb"

/* ---- Counts and summed durations per (pid, line, name) ---- */

struct tally {
	struct strmap	 keys;		/* "pid/line/name" */
	uint64_t	*count;
	int64_t		*sum_ps;
	size_t		 cap;
	uint64_t	 events;
	/* Stream state, when filled from a reader. */
	int64_t		 pid, tid;
	const struct chrome_options *opt;
	uint64_t	 aggregated, outside;
	int64_t		 min_start, max_end;
};

static void
tally_init(struct tally *t, const struct chrome_options *opt)
{
	memset(t, 0, sizeof *t);
	strmap_init(&t->keys);
	t->opt = opt;
	t->min_start = INT64_MAX;
	t->max_end = INT64_MIN;
}

static void
tally_release(struct tally *t)
{
	strmap_release(&t->keys);
	free(t->count);
	free(t->sum_ps);
}

static void
tally_add(struct tally *t, int64_t pid, int64_t line, const char *name,
    int64_t dur_ps)
{
	char *key = xasprintf("%" PRId64 "/%" PRId64 "/%s", pid, line, name);
	uint32_t id = strmap_intern(&t->keys, key, strlen(key));

	free(key);
	if (id >= t->cap) {
		size_t ncap = t->cap * 2 + 64;

		t->count = realloc(t->count, ncap * sizeof *t->count);
		t->sum_ps = realloc(t->sum_ps, ncap * sizeof *t->sum_ps);
		ck_assert(t->count != NULL && t->sum_ps != NULL);
		memset(t->count + t->cap, 0, (ncap - t->cap) *
		    sizeof *t->count);
		memset(t->sum_ps + t->cap, 0, (ncap - t->cap) *
		    sizeof *t->sum_ps);
		t->cap = ncap;
	}
	t->count[id]++;
	t->sum_ps[id] += dur_ps;
	t->events++;
}

/* Whether [s, s + d) overlaps the window, computed apart from the writer. */
static int
in_window(const struct chrome_options *opt, int64_t s, int64_t d)
{
	if (opt == NULL || opt->start_ps >= opt->end_ps)
		return 1;
	if (d == 0)
		return s >= opt->start_ps && s < opt->end_ps;
	return s < opt->end_ps && s + d > opt->start_ps;
}

static int
tally_plane(void *ctx, const struct pf_plane *plane)
{
	struct tally *t = ctx;

	(void)plane;
	t->pid++;
	t->tid = 0;
	return 0;
}

static int
tally_line(void *ctx, const struct pf_plane *plane, const struct pf_line *line)
{
	struct tally *t = ctx;

	(void)plane;
	(void)line;
	t->tid++;
	return 0;
}

static int
tally_event(void *ctx, const struct pf_plane *plane,
    const struct pf_line *line, const struct pf_event *ev)
{
	struct tally *t = ctx;
	int64_t d = ev->duration_ps > 0 ? ev->duration_ps : 0;

	(void)plane;
	(void)line;
	if (ev->aggregated) {
		t->aggregated++;
		return 0;
	}
	if (ev->start_ps < t->min_start)
		t->min_start = ev->start_ps;
	if (ev->start_ps + d > t->max_end)
		t->max_end = ev->start_ps + d;
	if (!in_window(t->opt, ev->start_ps, d)) {
		t->outside++;
		return 0;
	}
	tally_add(t, t->pid, t->tid, pf_event_name(ev), d);
	return 0;
}

static void
tally_file(const char *path, struct tally *t)
{
	struct pf_handler h;
	struct pf_read_stats rs;
	struct source src;
	char *cause = NULL;

	memset(&h, 0, sizeof h);
	h.ctx = t;
	h.plane_begin = tally_plane;
	h.line_begin = tally_line;
	h.event = tally_event;
	ck_assert_msg(source_open(&src, path, &cause) == 0, "%s", cause);
	ck_assert_msg(xplane_read(&src, path, &h, &rs, &cause) == 0, "%s",
	    cause);
	source_close(&src);
}

static void
assert_same_tally(const char *what, const struct tally *a,
    const struct tally *b)
{
	size_t i;

	ck_assert_msg(a->events == b->events, "%s: %" PRIu64 " events vs %"
	    PRIu64, what, a->events, b->events);
	ck_assert_msg(a->keys.n == b->keys.n, "%s: %zu keys vs %zu", what,
	    a->keys.n, b->keys.n);
	for (i = 0; i < a->keys.n; i++) {
		int64_t j = strmap_find(&b->keys, a->keys.strings[i],
		    a->keys.lengths[i]);

		ck_assert_msg(j >= 0, "%s: '%s' missing", what,
		    a->keys.strings[i]);
		ck_assert_msg(a->count[i] == b->count[j] &&
		    a->sum_ps[i] == b->sum_ps[j], "%s: '%s': %" PRIu64
		    " events, %" PRId64 " ps vs %" PRIu64 ", %" PRId64, what,
		    a->keys.strings[i], a->count[i], a->sum_ps[i],
		    b->count[j], b->sum_ps[j]);
	}
}

/* ---- Reading the output back ---- */

/* The output file, gunzipped when its name ends in .gz. */
static char *
read_output(const char *path)
{
	size_t n = strlen(path), len = 0, cap = 0;
	unsigned char magic[2];
	char *buf = NULL;
	gzFile gz;
	FILE *fp;
	int r;

	if (n < 3 || strcmp(path + n - 3, ".gz") != 0)
		return test_slurp(path, NULL);
	fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "%s: %s", path, strerror(errno));
	ck_assert_msg(fread(magic, 1, 2, fp) == 2 && magic[0] == 0x1f &&
	    magic[1] == 0x8b, "%s: not gzip", path);
	fclose(fp);
	gz = gzopen(path, "rb");
	ck_assert_ptr_nonnull(gz);
	do {
		if (cap - len < 65536) {
			cap = cap * 2 + 65536;
			buf = realloc(buf, cap + 1);
			ck_assert_ptr_nonnull(buf);
		}
		r = gzread(gz, buf + len, (unsigned)(cap - len));
		ck_assert_msg(r >= 0, "%s: bad gzip", path);
		len += (size_t)r;
	} while (r > 0);
	ck_assert_int_eq(gzclose(gz), Z_OK);
	buf[len] = '\0';
	return buf;
}

static yajl_val
get(yajl_val obj, const char *key)
{
	size_t i;

	ck_assert(YAJL_IS_OBJECT(obj));
	for (i = 0; i < obj->u.object.len; i++)
		if (strcmp(obj->u.object.keys[i], key) == 0)
			return obj->u.object.values[i];
	return NULL;
}

static int64_t
get_int(yajl_val obj, const char *key)
{
	yajl_val v = get(obj, key);

	ck_assert_msg(v != NULL && YAJL_IS_INTEGER(v), "'%s' is not an "
	    "integer", key);
	return YAJL_GET_INTEGER(v);
}

static const char *
get_str(yajl_val obj, const char *key)
{
	yajl_val v = get(obj, key);

	ck_assert_msg(v != NULL && YAJL_IS_STRING(v), "'%s' is not a string",
	    key);
	return YAJL_GET_STRING(v);
}

/* A ts or dur ("-12.000345": exactly 6 decimals) to ps, exactly. */
static int64_t
get_us(yajl_val obj, const char *key)
{
	yajl_val v = get(obj, key);
	const char *r, *p;
	int64_t ps = 0;
	int neg, digits = 0;

	ck_assert_msg(v != NULL && YAJL_IS_NUMBER(v), "'%s' is not a number",
	    key);
	r = v->u.number.r;
	neg = *r == '-';
	for (p = r + neg; *p >= '0' && *p <= '9'; p++)
		ps = ps * 10 + (*p - '0');
	ck_assert_msg(p > r + neg && *p == '.', "bad µs '%s'", r);
	for (p++; *p >= '0' && *p <= '9'; p++, digits++)
		ps = ps * 10 + (*p - '0');
	ck_assert_msg(*p == '\0' && digits == 6, "bad µs '%s'", r);
	return neg ? -ps : ps;
}

struct slice {
	int64_t		 pid, tid, ts, end;
};

static int
slice_cmp(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return 0;
}

/* Partial overlaps among the slices of each (pid, tid). */
static size_t
count_unnested(struct slice *v, size_t n)
{
	int64_t *stack = malloc((n + 1) * sizeof *stack);
	size_t i, depth = 0, bad = 0;

	ck_assert_ptr_nonnull(stack);
	qsort(v, n, sizeof *v, slice_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || v[i].pid != v[i - 1].pid ||
		    v[i].tid != v[i - 1].tid)
			depth = 0;
		while (depth > 0 && stack[depth - 1] <= v[i].ts)
			depth--;
		if (depth > 0 && v[i].end > stack[depth - 1]) {
			bad++;
			continue;
		}
		stack[depth++] = v[i].end;
	}
	free(stack);
	return bad;
}

struct parsed {
	yajl_val	 root;
	struct tally	 tally;		/* line = tid % 10000 */
	uint64_t	 nx;
	uint64_t	 on_overlap;	/* X events with tid >= 10000 */
	size_t		 unnested;
	struct strmap	 threads;	/* "pid/tid" with a thread_name */
	char		**thread_names;	/* by threads id; borrowed */
	struct strmap	 procs;		/* "pid" with a process_name */
};

/*
 * Parses the output at path with yajl and checks its shape: the top-level
 * keys, events with a ph, metadata before the events of a thread, ts and
 * dur with 6 decimals; then tallies the X events and counts the slices
 * that do not nest.
 */
static void
parse_back(const char *path, struct parsed *pb)
{
	char *json = read_output(path), err[512];
	yajl_val ev, evs;
	struct slice *slices;
	size_t i, nslices = 0;

	memset(pb, 0, sizeof *pb);
	tally_init(&pb->tally, NULL);
	strmap_init(&pb->threads);
	strmap_init(&pb->procs);
	pb->root = yajl_tree_parse(json, err, sizeof err);
	ck_assert_msg(pb->root != NULL, "%s: %s", path, err);
	free(json);
	ck_assert(YAJL_IS_OBJECT(pb->root));
	ck_assert_uint_eq(pb->root->u.object.len, 2);
	ck_assert_str_eq(pb->root->u.object.keys[0], "displayTimeUnit");
	ck_assert_str_eq(get_str(pb->root, "displayTimeUnit"), "ns");
	evs = get(pb->root, "traceEvents");
	ck_assert(evs != NULL && YAJL_IS_ARRAY(evs));
	slices = malloc((evs->u.array.len + 1) * sizeof *slices);
	ck_assert_ptr_nonnull(slices);
	pb->thread_names = calloc(evs->u.array.len + 1, sizeof (char *));
	ck_assert_ptr_nonnull(pb->thread_names);
	for (i = 0; i < evs->u.array.len; i++) {
		const char *ph, *name;
		int64_t pid, tid;
		char key[64];

		ev = evs->u.array.values[i];
		ck_assert_msg(YAJL_IS_OBJECT(ev), "event %zu not an object", i);
		ph = get_str(ev, "ph");
		name = get_str(ev, "name");
		pid = get_int(ev, "pid");
		ck_assert_int_ge(pid, 1);
		if (strcmp(ph, "M") == 0) {
			yajl_val args = get(ev, "args");

			ck_assert_ptr_nonnull(args);
			if (strcmp(name, "process_name") == 0) {
				test_fmt(key, sizeof key, "%" PRId64, pid);
				ck_assert_int_lt(strmap_find(&pb->procs, key,
				    strlen(key)), 0);
				strmap_intern(&pb->procs, key, strlen(key));
				(void)get_str(args, "name");
			} else if (strcmp(name, "thread_name") == 0) {
				uint32_t id;

				test_fmt(key, sizeof key, "%" PRId64 "/%" PRId64,
				    pid, get_int(ev, "tid"));
				ck_assert_int_lt(strmap_find(&pb->threads, key,
				    strlen(key)), 0);
				id = strmap_intern(&pb->threads, key,
				    strlen(key));
				pb->thread_names[id] = (char *)get_str(args,
				    "name");
			} else {
				ck_assert_msg(strcmp(name,
				    "process_sort_index") == 0 || strcmp(name,
				    "thread_sort_index") == 0, "metadata '%s'",
				    name);
				(void)get_int(args, "sort_index");
			}
			continue;
		}
		ck_assert_str_eq(ph, "X");
		tid = get_int(ev, "tid");
		test_fmt(key, sizeof key, "%" PRId64, pid);
		ck_assert_msg(strmap_find(&pb->procs, key, strlen(key)) >= 0,
		    "pid %s has no process_name before its events", key);
		test_fmt(key, sizeof key, "%" PRId64 "/%" PRId64, pid, tid);
		ck_assert_msg(strmap_find(&pb->threads, key, strlen(key)) >= 0,
		    "thread %s has no thread_name before its events", key);
		ck_assert(YAJL_IS_OBJECT(get(ev, "args")));
		slices[nslices].pid = pid;
		slices[nslices].tid = tid;
		slices[nslices].ts = get_us(ev, "ts");
		slices[nslices].end = slices[nslices].ts + get_us(ev, "dur");
		tally_add(&pb->tally, pid, tid % 10000, name,
		    slices[nslices].end - slices[nslices].ts);
		if (tid >= 10000)
			pb->on_overlap++;
		nslices++;
		pb->nx++;
	}
	pb->unnested = count_unnested(slices, nslices);
	free(slices);
}

static void
parsed_release(struct parsed *pb)
{
	yajl_tree_free(pb->root);
	tally_release(&pb->tally);
	strmap_release(&pb->threads);
	strmap_release(&pb->procs);
	free(pb->thread_names);
}

static const char *
thread_name(const struct parsed *pb, int64_t pid, int64_t tid)
{
	char key[64];
	int64_t id;

	test_fmt(key, sizeof key, "%" PRId64 "/%" PRId64, pid, tid);
	id = strmap_find(&pb->threads, key, strlen(key));
	return id >= 0 ? pb->thread_names[id] : NULL;
}

/*
 * X events in path as Python's json module counts them, -1 when $PYTHON
 * (default python3) cannot import json.  Invalid JSON or UTF-8, or an
 * event with no "ph" (a trailing {}), fails the test.
 */
static long
python_count(const char *path)
{
	static const char script[] =
	    "import gzip,json,sys\n"
	    "p=sys.argv[1]\n"
	    "f=(gzip.open if p.endswith('.gz') else open)(p,'rt',"
	    "encoding='utf-8',errors='strict')\n"
	    "d=json.load(f,parse_constant=lambda c: sys.exit('bad ' + c))\n"
	    "assert sorted(d)==['displayTimeUnit','traceEvents'], sorted(d)\n"
	    "ev=d['traceEvents']\n"
	    "assert all(isinstance(e,dict) and 'ph' in e for e in ev)\n"
	    "print(sum(1 for e in ev if e['ph']=='X'))\n";
	const char *py = test_env("PYTHON");
	char cmd[8192], spath[4096], out[64];
	FILE *pp;
	long n;

	if (py == NULL)
		py = "python3";
	test_fmt(cmd, sizeof cmd, "'%s' -c 'import json' >/dev/null 2>&1", py);
	if (system(cmd) != 0) {
		printf("chrome: %s cannot import json: skipping the Python "
		    "check\n", py);
		return -1;
	}
	test_fmt(spath, sizeof spath, "%s.check.py", path);
	test_spew(spath, script, sizeof script - 1);
	test_fmt(cmd, sizeof cmd, "'%s' '%s' '%s'", py, spath, path);
	pp = popen(cmd, "r");
	ck_assert_ptr_nonnull(pp);
	ck_assert_msg(fgets(out, sizeof out, pp) != NULL,
	    "%s: Python could not parse it", path);
	ck_assert_msg(pclose(pp) == 0, "%s: Python check failed", path);
	unlink(spath);
	n = strtol(out, NULL, 10);
	return n;
}

static void
convert(const char *in, const char *out, const struct chrome_options *opt,
    struct chrome_stats *st)
{
	struct chrome_writer *w;
	struct pf_handler h;
	struct pf_read_stats rs;
	struct source src;
	char *cause = NULL;

	ck_assert_msg(source_open(&src, in, &cause) == 0, "%s", cause);
	w = chrome_writer_new(NULL, out, opt, &h, &cause);
	ck_assert_msg(w != NULL, "%s", cause);
	ck_assert_msg(xplane_read(&src, in, &h, &rs, &cause) == 0, "%s",
	    cause);
	ck_assert_msg(chrome_writer_finish(w, st, &cause) == 0, "%s", cause);
	source_close(&src);
}

/*
 * Converts in to dir/name and checks the output against the source:
 * parses (yajl and Python), the same events per (plane, line, name) with
 * the same summed durations, nested on every thread.
 */
static void
check_roundtrip(const char *in, const char *dir, const char *name,
    const struct chrome_options *opt, struct chrome_stats *st)
{
	struct tally src;
	struct parsed pb;
	char out[4096];
	long py;

	test_fmt(out, sizeof out, "%s/%s", dir, name);
	convert(in, out, opt, st);
	tally_init(&src, opt);
	tally_file(in, &src);
	parse_back(out, &pb);
	ck_assert_uint_eq(pb.nx, st->events);
	ck_assert_uint_eq(src.aggregated, st->aggregated);
	ck_assert_uint_eq(src.outside, st->outside);
	assert_same_tally(name, &src, &pb.tally);
	ck_assert_msg(pb.unnested == st->unnested, "%s: %zu partial "
	    "overlaps on one thread, writer says %" PRIu64, name, pb.unnested,
	    st->unnested);
	ck_assert_uint_eq(pb.on_overlap, st->overlaps);
	py = python_count(out);
	if (py >= 0)
		ck_assert_int_eq(py, (long)st->events);
	printf("chrome: %s: %" PRIu64 " events (%" PRIu64 " on overlap "
	    "threads, %" PRIu64 " outside the window), %" PRIu64 " bytes\n",
	    name, st->events, st->overlaps, st->outside, st->bytes);
	tally_release(&src);
	parsed_release(&pb);
}

static char *
testdata_file(void)
{
	const char *td = test_env("TESTDATA");

	ck_assert_msg(td != NULL, "TESTDATA is not set");
	return xasprintf("%s%s", td, JAX_MLP);
}

/* ---- (a, b, c) the jax-mlp profile ---- */

START_TEST(test_roundtrip_testdata)
{
	char *in = testdata_file(), *dir = test_mkdtemp();
	struct chrome_stats st;

	check_roundtrip(in, dir, "mlp.json", NULL, &st);
	ck_assert_uint_gt(st.events, 1000);
	ck_assert_uint_eq(st.unnested, 0);
	test_rmtree(dir);
	free(dir);
	free(in);
}
END_TEST

/* ---- (g) gzip ---- */

START_TEST(test_gzip)
{
	char *in = testdata_file(), *dir = test_mkdtemp();
	struct chrome_stats plain, gz;

	check_roundtrip(in, dir, "mlp.json", NULL, &plain);
	check_roundtrip(in, dir, "mlp.json.gz", NULL, &gz);
	ck_assert_uint_eq(plain.events, gz.events);
	ck_assert_uint_eq(plain.bytes, gz.bytes);
	test_rmtree(dir);
	free(dir);
	free(in);
}
END_TEST

/* ---- (e) the window ---- */

START_TEST(test_window_testdata)
{
	char *in = testdata_file(), *dir = test_mkdtemp();
	struct chrome_options opt;
	struct chrome_stats all, st;
	struct tally t;
	int64_t span;

	tally_init(&t, NULL);
	tally_file(in, &t);
	span = t.max_end - t.min_start;
	ck_assert_int_gt(span, 0);
	chrome_options_init(&opt);
	opt.start_ps = t.min_start + span / 3;
	opt.end_ps = t.min_start + 2 * (span / 3);
	check_roundtrip(in, dir, "window.json", &opt, &st);
	check_roundtrip(in, dir, "all.json", NULL, &all);
	ck_assert_uint_gt(st.events, 0);
	ck_assert_uint_gt(st.outside, 0);
	ck_assert_uint_eq(st.events + st.outside, all.events);
	tally_release(&t);
	test_rmtree(dir);
	free(dir);
	free(in);
}
END_TEST

/* ---- Hand-built streams ---- */

struct hand {
	struct pf_event_meta metas[4];
	struct pf_stat	 mstats[3], estats[8];
	struct pf_plane	 planes[3];
	struct pf_line	 lines[2];
};

static struct pf_stat
stat_int(int64_t md, const char *name, int64_t v)
{
	struct pf_stat s;

	memset(&s, 0, sizeof s);
	s.metadata_id = md;
	s.name = name;
	s.kind = PF_INT64;
	s.num.i = v;
	return s;
}

static struct pf_stat
stat_str(int64_t md, const char *name, enum pf_value_kind kind,
    const char *p, size_t n)
{
	struct pf_stat s;

	memset(&s, 0, sizeof s);
	s.metadata_id = md;
	s.name = name;
	s.kind = kind;
	s.str.ptr = p;
	s.str.len = n;
	return s;
}

static struct pf_event
event_at(const struct pf_event_meta *m, int64_t start, int64_t dur)
{
	struct pf_event e;

	memset(&e, 0, sizeof e);
	e.meta = m;
	e.meta_index = m->index;
	e.metadata_id = m->id;
	e.start_ps = start;
	e.offset_ps = start;
	e.duration_ps = dur;
	return e;
}

static void
hand_init(struct hand *hd)
{
	static const char bad[] = "\xff\xc0ok\x01\xed\xa0\x80 \xc3\xa9 "
	    "\xf0\x9f\x98\x80 \xf4\x90\x80\x80 \xe2\x82";
	size_t i;

	memset(hd, 0, sizeof *hd);
	hd->mstats[0] = stat_int(1, "x", -5);
	hd->mstats[1] = stat_str(2, "tf_op", PF_STR, "a\"b\\c\n", 6);
	hd->mstats[2] = stat_int(3, "flops", 10);
	hd->mstats[2].kind = PF_UINT64;
	hd->mstats[2].num.u = UINT64_MAX;
	hd->estats[0] = stat_int(1, "x", 7);
	hd->estats[1] = stat_str(4, "d", PF_NONE, NULL, 0);
	hd->estats[1].kind = PF_DOUBLE;
	hd->estats[1].num.d = 1.5;
	hd->estats[2] = stat_str(5, "bad", PF_STR, bad, sizeof bad - 1);
	hd->estats[3] = stat_str(6, "blob", PF_BYTES, "\0\1\2", 3);
	hd->estats[4] = stat_str(99, "", PF_REF, "r", 1);
	hd->estats[4].num.u = 12;
	hd->estats[5] = stat_str(7, "nan", PF_NONE, NULL, 0);
	hd->estats[5].kind = PF_DOUBLE;
	hd->estats[5].num.d = NAN;
	hd->estats[6] = stat_str(8, "none", PF_NONE, NULL, 0);
	hd->estats[7] = stat_str(9, "small", PF_NONE, NULL, 0);
	hd->estats[7].kind = PF_DOUBLE;
	hd->estats[7].num.d = 0.1;
	for (i = 0; i < 4; i++) {
		hd->metas[i].id = (int64_t)i + 1;
		hd->metas[i].index = (uint32_t)i;
		hd->metas[i].display_name = "";
	}
	hd->metas[0].name = "fusion.1 long";
	hd->metas[0].display_name = "fusion.1";
	hd->metas[0].stats = hd->mstats;
	hd->metas[0].nstats = 3;
	hd->metas[1].name = "B";
	hd->metas[2].name = "C";
	hd->metas[3].name = "E";
	for (i = 0; i < 3; i++) {
		hd->planes[i].id = (int64_t)i;
		hd->planes[i].nlines = i == 0 ? 2 : 1;
		hd->planes[i].metas = hd->metas;
		hd->planes[i].nmetas = 4;
	}
	hd->planes[0].name = "/device:GPU:0";
	hd->planes[1].name = "empty";
	hd->planes[2].name = "/host:CPU";
	hd->lines[0].id = 7;
	hd->lines[0].name = "Stream #7";
	hd->lines[0].display_name = "";
	hd->lines[1].id = 8;
	hd->lines[1].name = "";
	hd->lines[1].display_name = "";
}

/* Feeds the writer's handler like a reader would. */
static void
feed(const struct pf_handler *h, const struct pf_plane *p,
    const struct pf_line *l, const struct pf_event *ev, size_t n)
{
	size_t i;

	ck_assert_int_eq(h->line_begin(h->ctx, p, l), 0);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(h->event(h->ctx, p, l, &ev[i]), 0);
	if (h->line_end != NULL)
		ck_assert_int_eq(h->line_end(h->ctx, p, l), 0);
}

static void
plane_begin(const struct pf_handler *h, const struct pf_plane *p)
{
	ck_assert_int_eq(h->plane_begin(h->ctx, p), 0);
}

static void
plane_end(const struct pf_handler *h, const struct pf_plane *p)
{
	if (h->plane_end != NULL)
		ck_assert_int_eq(h->plane_end(h->ctx, p), 0);
}

/*
 * (d) A [1000, 101000) on the line; B [51000, 151000) starts inside A and
 * ends after it: the overlap thread; C [60000, 70000) nests in A; E
 * [500, 510) arrives out of order, so neither the line nor the first
 * overlap thread can take it: the second.  An aggregated event is not
 * written; an empty line, an empty plane get no metadata.
 */
START_TEST(test_overlap)
{
	char *dir = test_mkdtemp(), path[4096], *cause = NULL, *json;
	struct hand hd;
	struct pf_handler h;
	struct pf_event ev[5], agg;
	struct chrome_writer *w;
	struct chrome_stats st;
	struct parsed pb;
	long py;

	hand_init(&hd);
	ev[0] = event_at(&hd.metas[0], 1000, 100000);
	ev[0].stats = hd.estats;
	ev[0].nstats = 8;
	ev[1] = event_at(&hd.metas[1], 51000, 100000);
	ev[2] = event_at(&hd.metas[2], 60000, 10000);
	ev[3] = event_at(&hd.metas[3], 500, 10);
	ev[4] = event_at(&hd.metas[3], -1, 1234567890123LL);
	agg = event_at(&hd.metas[2], 0, 5);
	agg.aggregated = 1;
	agg.num_occurrences = 3;

	test_fmt(path, sizeof path, "%s/hand.json", dir);
	w = chrome_writer_new(NULL, path, NULL, &h, &cause);
	ck_assert_msg(w != NULL, "%s", cause);
	plane_begin(&h, &hd.planes[0]);
	feed(&h, &hd.planes[0], &hd.lines[0], ev, 4);
	feed(&h, &hd.planes[0], &hd.lines[1], &agg, 1);
	plane_end(&h, &hd.planes[0]);
	plane_begin(&h, &hd.planes[1]);
	plane_end(&h, &hd.planes[1]);
	plane_begin(&h, &hd.planes[2]);
	feed(&h, &hd.planes[2], &hd.lines[1], &ev[4], 1);
	plane_end(&h, &hd.planes[2]);
	ck_assert_msg(chrome_writer_finish(w, &st, &cause) == 0, "%s", cause);

	ck_assert_uint_eq(st.events, 5);
	ck_assert_uint_eq(st.aggregated, 1);
	ck_assert_uint_eq(st.overlaps, 2);
	ck_assert_uint_eq(st.unnested, 0);
	parse_back(path, &pb);
	ck_assert_uint_eq(pb.nx, 5);
	ck_assert_uint_eq(pb.unnested, 0);
	ck_assert_str_eq(thread_name(&pb, 1, 1), "Stream #7");
	ck_assert_str_eq(thread_name(&pb, 1, 10001), "Stream #7 (overlaps)");
	ck_assert_str_eq(thread_name(&pb, 1, 20001),
	    "Stream #7 (overlaps 2)");
	ck_assert_ptr_null(thread_name(&pb, 1, 2));	/* only aggregated */
	ck_assert_str_eq(thread_name(&pb, 3, 1), "line 8");
	ck_assert_int_lt(strmap_find(&pb.procs, "2", 1), 0);
	ck_assert_int_ge(strmap_find(&pb.procs, "3", 1), 0);
	parsed_release(&pb);

	json = test_slurp(path, NULL);
	/*
	 * Exactly, byte for byte: the format the UI reads, strings escaped
	 * as every JSON jaxprof writes (json-string.h: a line feed as \n).
	 */
	ck_assert_ptr_eq(strstr(json, "{\"displayTimeUnit\":\"ns\","
	    "\"traceEvents\":[\n"), json);
	ck_assert_ptr_nonnull(strstr(json,
	    "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\","
	    "\"args\":{\"name\":\"/device:GPU:0\"}},\n"
	    "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_sort_index\","
	    "\"args\":{\"sort_index\":1}},\n"
	    "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\","
	    "\"args\":{\"name\":\"Stream #7\"}},\n"
	    "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":"
	    "\"thread_sort_index\",\"args\":{\"sort_index\":2}},\n"
	    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0.001000,"
	    "\"dur\":0.100000,\"name\":\"fusion.1\",\"args\":{"
	    "\"long_name\":\"fusion.1 long\",\"tf_op\":\"a\\\"b\\\\c\\n\","
	    "\"flops\":18446744073709551615,\"x\":7,\"d\":1.5,"
	    "\"bad\":\"\\ufffd\\ufffdok\\u0001\\ufffd\\ufffd\\ufffd "
	    "\xc3\xa9 \xf0\x9f\x98\x80 \\ufffd\\ufffd\\ufffd\\ufffd "
	    "\\ufffd\\ufffd\","
	    "\"blob\":\"<3 bytes>\",\"stat_99\":\"r\",\"nan\":\"nan\","
	    "\"none\":null,\"small\":0.1}},\n"
	    "{\"ph\":\"M\",\"pid\":1,\"tid\":10001,\"name\":\"thread_name\","
	    "\"args\":{\"name\":\"Stream #7 (overlaps)\"}},\n"
	    "{\"ph\":\"M\",\"pid\":1,\"tid\":10001,\"name\":"
	    "\"thread_sort_index\",\"args\":{\"sort_index\":3}},\n"
	    "{\"ph\":\"X\",\"pid\":1,\"tid\":10001,\"ts\":0.051000,"
	    "\"dur\":0.100000,\"name\":\"B\",\"args\":{}},\n"
	    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0.060000,"
	    "\"dur\":0.010000,\"name\":\"C\",\"args\":{}},\n"));
	ck_assert_ptr_nonnull(strstr(json,
	    "{\"ph\":\"X\",\"pid\":1,\"tid\":20001,\"ts\":0.000500,"
	    "\"dur\":0.000010,\"name\":\"E\",\"args\":{}},\n"));
	ck_assert_ptr_nonnull(strstr(json,
	    "{\"ph\":\"M\",\"pid\":3,\"name\":\"process_name\","
	    "\"args\":{\"name\":\"/host:CPU\"}},\n"));
	ck_assert_ptr_nonnull(strstr(json,
	    "{\"ph\":\"X\",\"pid\":3,\"tid\":1,\"ts\":-0.000001,"
	    "\"dur\":1234567.890123,\"name\":\"E\",\"args\":{}}\n]}\n"));
	ck_assert_ptr_null(strstr(json, "\"pid\":2"));
	ck_assert_ptr_null(strstr(json, "{}\n]"));
	free(json);

	py = python_count(path);
	if (py >= 0)
		ck_assert_int_eq(py, 5);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* (e) Which events a window keeps, at its edges. */
START_TEST(test_window_edges)
{
	static const struct {
		int64_t		 start, dur;
		int		 kept;
	} cases[] = {
		{ 0, 1000, 0 },		/* ends where the window starts */
		{ 0, 1001, 1 },
		{ 500, 3000, 1 },	/* covers it */
		{ 1000, 0, 1 },		/* instant at the start */
		{ 1500, 10, 1 },
		{ 1999, 5000, 1 },
		{ 2000, 0, 0 },		/* instant at the end */
		{ 2000, 100, 0 },
		{ 999, 0, 0 },
	};
	size_t n = sizeof cases / sizeof cases[0], i, kept = 0;
	struct chrome_options opt;
	struct chrome_writer *w;
	struct chrome_stats st;
	struct pf_handler h;
	struct hand hd;
	char *cause = NULL, buf[8192];
	FILE *fp;

	hand_init(&hd);
	chrome_options_init(&opt);
	opt.start_ps = 1000;
	opt.end_ps = 2000;
	for (i = 0; i < n; i++) {
		struct pf_event ev = event_at(&hd.metas[1], cases[i].start,
		    cases[i].dur);

		memset(buf, 0, sizeof buf);
		fp = fmemopen(buf, sizeof buf - 1, "w");
		ck_assert_ptr_nonnull(fp);
		w = chrome_writer_new(fp, NULL, &opt, &h, &cause);
		ck_assert_ptr_nonnull(w);
		plane_begin(&h, &hd.planes[0]);
		feed(&h, &hd.planes[0], &hd.lines[0], &ev, 1);
		plane_end(&h, &hd.planes[0]);
		ck_assert_msg(chrome_writer_finish(w, &st, &cause) == 0, "%s",
		    cause);
		fclose(fp);
		ck_assert_msg(st.events == (uint64_t)cases[i].kept &&
		    st.outside == (uint64_t)!cases[i].kept,
		    "[%" PRId64 ", +%" PRId64 "): kept %" PRIu64,
		    cases[i].start, cases[i].dur, st.events);
		ck_assert_int_eq(strstr(buf, "\"ph\":\"X\"") != NULL,
		    cases[i].kept);
		if (!cases[i].kept)
			ck_assert_str_eq(buf, "{\"displayTimeUnit\":\"ns\","
			    "\"traceEvents\":[\n]}\n");
		kept += (size_t)cases[i].kept;
	}
	ck_assert_uint_eq(kept, 5);
}
END_TEST

/* (f) ps to µs text. */
START_TEST(test_fmt_us)
{
	static const struct {
		int64_t		 ps;
		const char	*us;
	} cases[] = {
		{ 0, "0.000000" },
		{ 1, "0.000001" },
		{ 999999, "0.999999" },
		{ 1000000, "1.000000" },
		{ 1234567890123LL, "1234567.890123" },
		{ -1, "-0.000001" },
		{ -1000000, "-1.000000" },
		{ -1234567890123LL, "-1234567.890123" },
		{ INT64_MAX, "9223372036854.775807" },
		{ INT64_MIN, "-9223372036854.775808" },
	};
	char buf[CHROME_US_MAX];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_str_eq(chrome_fmt_us(buf, cases[i].ps), cases[i].us);
}
END_TEST

/* Numbers ignore the locale: 1.5 stays 1.5 under de_DE. */
START_TEST(test_locale)
{
	struct chrome_writer *w;
	struct pf_handler h;
	struct pf_event ev;
	struct hand hd;
	char *cause = NULL, buf[4096];
	FILE *fp;

	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL &&
	    setlocale(LC_NUMERIC, "de_DE.utf8") == NULL) {
		printf("chrome: no de_DE locale: skipping the locale check\n");
		return;
	}
	hand_init(&hd);
	ev = event_at(&hd.metas[0], 1500000, 2500000);
	ev.stats = hd.estats;
	ev.nstats = 8;
	memset(buf, 0, sizeof buf);
	fp = fmemopen(buf, sizeof buf - 1, "w");
	ck_assert_ptr_nonnull(fp);
	w = chrome_writer_new(fp, NULL, NULL, &h, &cause);
	ck_assert_ptr_nonnull(w);
	plane_begin(&h, &hd.planes[0]);
	feed(&h, &hd.planes[0], &hd.lines[0], &ev, 1);
	plane_end(&h, &hd.planes[0]);
	ck_assert_int_eq(chrome_writer_finish(w, NULL, &cause), 0);
	fclose(fp);
	setlocale(LC_NUMERIC, "C");
	ck_assert_ptr_nonnull(strstr(buf, "\"ts\":1.500000,\"dur\":2.500000,"));
	ck_assert_ptr_nonnull(strstr(buf, "\"d\":1.5,"));
	ck_assert_ptr_nonnull(strstr(buf, "\"small\":0.1}"));
}
END_TEST

/* A full disk: finish says so. */
START_TEST(test_write_error)
{
	struct chrome_writer *w;
	struct pf_handler h;
	struct pf_event ev;
	struct hand hd;
	char *cause = NULL;
	FILE *fp = fopen("/dev/full", "w");
	int i, rc = 0;

	if (fp == NULL) {
		printf("chrome: no /dev/full: skipping the write error "
		    "check\n");
		return;
	}
	hand_init(&hd);
	ev = event_at(&hd.metas[0], 0, 10);
	ev.stats = hd.estats;
	ev.nstats = 8;
	w = chrome_writer_new(fp, "/dev/full", NULL, &h, &cause);
	ck_assert_ptr_nonnull(w);
	plane_begin(&h, &hd.planes[0]);
	ck_assert_int_eq(h.line_begin(h.ctx, &hd.planes[0], &hd.lines[0]), 0);
	for (i = 0; i < 100000 && rc == 0; i++)
		rc = h.event(h.ctx, &hd.planes[0], &hd.lines[0], &ev);
	ck_assert_int_eq(rc, CHROME_STOPPED);
	ck_assert_int_eq(chrome_writer_finish(w, NULL, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "cannot write '/dev/full': "));
	free(cause);
	fclose(fp);

	cause = NULL;
	ck_assert_ptr_null(chrome_writer_new(NULL, "/nonexistent/x.json.gz",
	    NULL, &h, &cause));
	ck_assert_ptr_nonnull(strstr(cause, "cannot create "));
	free(cause);
}
END_TEST

/* The TPU profile of the corpus converts and reads back the same. */
START_TEST(test_corpus_tpu)
{
	const char *corpus = test_env("CORPUS");
	char *in, *dir;
	struct chrome_stats st;
	struct stat sb;

	if (corpus == NULL) {
		printf("chrome: CORPUS is not set: skipping the TPU profile\n");
		return;
	}
	in = xasprintf("%s%s", corpus, TPU_FILE);
	if (stat(in, &sb) == -1) {
		printf("chrome: %s not found: skipping it\n", in);
		free(in);
		return;
	}
	dir = test_mkdtemp();
	check_roundtrip(in, dir, "tpu.json.gz", NULL, &st);
	ck_assert_uint_gt(st.events, 0);
	test_rmtree(dir);
	free(dir);
	free(in);
}
END_TEST

Suite *
suite_chrome(void)
{
	Suite *s = suite_create("chrome");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fmt_us);
	tcase_add_test(tc, test_overlap);
	tcase_add_test(tc, test_window_edges);
	tcase_add_test(tc, test_locale);
	tcase_add_test(tc, test_write_error);
	tcase_add_test(tc, test_roundtrip_testdata);
	tcase_add_test(tc, test_gzip);
	tcase_add_test(tc, test_window_testdata);
	tcase_add_test(tc, test_corpus_tpu);
	suite_add_tcase(s, tc);
	return s;
}
