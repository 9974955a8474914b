/*
 * The trace JSON reader: the same run read as an XSpace and as the JSON
 * written beside it gives the same events; the quirks of real files; bad
 * input rejected with the byte offset.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "check_suites.h"
#include "model/profile.h"
#include "read/json-number.h"
#include "read/read-json.h"
#include "read/read-xplane.h"
#include "input/source.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

#define JAX_RUN		"/jax-mlp/plugins/profile/2026_01_01_00_00_00/"
#define AMPERE_RUN	"/ampere/natural_language_processing/huggingface/" \
	"bert-base-uncased_2021_07_22_01_55_32/plugins/profile/" \
	"2021_07_22_01_55_36/690019ccf0dc"

/* ---- Aggregates per (plane name, line name, event name) ---- */

struct agg {
	struct strmap	 keys;
	uint64_t	*count;
	int64_t		*total_ps;
	uint64_t	 nevents;
	uint64_t	 nplanes;
	uint64_t	 ngpu;		/* planes named /device:GPU:N */
	uint64_t	 nhost;		/* planes named /host:CPU */
	const char	*plane;
	const char	*line;
};

static int
agg_plane(void *ctx, const struct pf_plane *p)
{
	struct agg *a = ctx;

	a->plane = p->name;
	a->nplanes++;
	a->ngpu += strncmp(p->name, "/device:GPU:", 12) == 0;
	a->nhost += strcmp(p->name, "/host:CPU") == 0;
	return 0;
}

static int
agg_line(void *ctx, const struct pf_plane *p, const struct pf_line *l)
{
	struct agg *a = ctx;

	(void)p;
	a->line = l->display_name[0] != '\0' ? l->display_name : l->name;
	return 0;
}

/* The JSON writers name an event after its step_name stat (FORMATS 8.1). */
static void
event_name(const struct pf_event *e, char *buf, size_t size)
{
	const struct pf_stat *st[2] = { e->stats, e->meta->stats };
	size_t n[2] = { e->nstats, e->meta->nstats }, i, j;
	struct pf_bytes s;

	for (i = 0; i < 2; i++)
		for (j = 0; j < n[i]; j++)
			if (strcmp(st[i][j].name, "step_name") == 0 &&
			    pf_stat_str(&st[i][j], &s)) {
				test_fmt(buf, size, "%.*s", (int)s.len, s.ptr);
				return;
			}
	test_fmt(buf, size, "%s", pf_event_name(e));
}

static int
agg_event(void *ctx, const struct pf_plane *p, const struct pf_line *l,
    const struct pf_event *e)
{
	struct agg *a = ctx;
	char key[8192], name[4096];
	uint32_t id;

	(void)p;
	(void)l;
	event_name(e, name, sizeof name);
	test_fmt(key, sizeof key, "%s | %s | %s", a->plane, a->line, name);
	id = strmap_intern(&a->keys, key, strlen(key));
	if (id + 1 == a->keys.n) {
		a->count = realloc(a->count, a->keys.n * sizeof *a->count);
		a->total_ps = realloc(a->total_ps,
		    a->keys.n * sizeof *a->total_ps);
		ck_assert(a->count != NULL && a->total_ps != NULL);
		a->count[id] = 0;
		a->total_ps[id] = 0;
	}
	a->count[id]++;
	a->total_ps[id] += e->duration_ps;
	a->nevents++;
	return 0;
}

static void
agg_handler(struct agg *a, struct pf_handler *h)
{
	memset(a, 0, sizeof *a);
	strmap_init(&a->keys);
	memset(h, 0, sizeof *h);
	h->ctx = a;
	h->plane_begin = agg_plane;
	h->line_begin = agg_line;
	h->event = agg_event;
}

static void
agg_release(struct agg *a)
{
	strmap_release(&a->keys);
	free(a->count);
	free(a->total_ps);
}

static void
agg_xplane(const char *path, struct agg *a)
{
	struct pf_read_stats rs;
	struct pf_handler h;
	struct source src;
	char *cause = NULL;

	agg_handler(a, &h);
	ck_assert_msg(source_open(&src, path, &cause) == 0, "%s: %s", path,
	    cause);
	ck_assert_msg(xplane_read(&src, path, &h, &rs, &cause) == 0, "%s: %s",
	    path, cause);
	source_close(&src);
}

static void
agg_json(const char *path, struct agg *a)
{
	struct pf_read_stats rs;
	struct pf_handler h;
	char *cause = NULL;

	agg_handler(a, &h);
	ck_assert_msg(json_read(path, &h, &rs, &cause) == 0, "%s: %s", path,
	    cause);
	ck_assert_uint_gt(rs.bytes, 0);
}

/*
 * Every (plane, line, event) of the JSON is in the XSpace with the same
 * count and, µs having 3 decimals there, a total within 1 ns per event.
 */
static void
assert_equivalent(const char *xplane, const char *json, uint64_t nevents)
{
	struct agg x, j;
	size_t i;

	agg_xplane(xplane, &x);
	agg_json(json, &j);
	ck_assert_uint_gt(j.nevents, 0);
	if (nevents != 0)
		ck_assert_uint_eq(j.nevents, nevents);
	for (i = 0; i < j.keys.n; i++) {
		int64_t k = strmap_find(&x.keys, j.keys.strings[i],
		    j.keys.lengths[i]);
		int64_t d;

		ck_assert_msg(k >= 0, "%s: '%s' is not in %s", json,
		    j.keys.strings[i], xplane);
		ck_assert_msg(x.count[k] == j.count[i], "%s: '%s': %llu "
		    "events, %llu in the XSpace", json, j.keys.strings[i],
		    (unsigned long long)j.count[i],
		    (unsigned long long)x.count[k]);
		d = j.total_ps[i] - x.total_ps[k];
		ck_assert_msg(llabs(d) <= 1000 * (int64_t)j.count[i],
		    "%s: '%s': %lld ps in all, %lld in the XSpace", json,
		    j.keys.strings[i], (long long)j.total_ps[i],
		    (long long)x.total_ps[k]);
	}
	agg_release(&x);
	agg_release(&j);
}

/*
 * JSON numbers as trace times, microseconds to picoseconds (scale 6):
 * exact where they can be, else rounded half away from zero, the quick
 * path and the general one alike.  Hand-computed answers.
 */
static const struct {
	const char	*text;
	int		 scale;
	int		 fits;	/* json_number_to_int() succeeds */
	int64_t		 want;
	int		 exact;
} numbers[] = {
	{ "1.5", 6, 1, 1500000, 1 },
	{ "-2.25", 6, 1, -2250000, 1 },
	{ "0.0000005", 6, 1, 1, 0 },
	{ "-0.0000005", 6, 1, -1, 0 },
	{ "0.0000004", 6, 1, 0, 0 },
	{ "1e3", 6, 1, 1000000000, 1 },
	{ "9223372036854.775807", 6, 1, INT64_MAX, 1 },
	{ "-9223372036854.775808", 6, 1, INT64_MIN, 1 },
	{ "9223372036854.775808", 6, 0, 0, 0 },
	{ "1e400", 0, 0, 0, 0 },
};

START_TEST(test_numbers)
{
	struct json_number d;
	int64_t got = 0, quick = 0;
	int exact = -1, fits;
	const char *t = numbers[_i].text;

	ck_assert_int_eq(json_number_parse(t, strlen(t), &d), 0);
	fits = json_number_to_int(&d, numbers[_i].scale, &got, &exact) == 0;
	ck_assert_msg(fits == numbers[_i].fits, "%s: fits %d", t, fits);
	if (fits) {
		ck_assert_msg(got == numbers[_i].want && exact ==
		    numbers[_i].exact, "%s: %lld (exact %d)", t,
		    (long long)got, exact);
		if (json_number_quick(t, strlen(t), numbers[_i].scale,
		    &quick))
			ck_assert_msg(quick == got, "%s: quick %lld", t,
			    (long long)quick);
	} else
		ck_assert(!json_number_quick(t, strlen(t), numbers[_i].scale,
		    &quick));
	ck_assert_int_eq(json_number_parse("1.5x", 4, &d), -1);
	ck_assert_int_eq(json_number_parse("-", 1, &d), -1);
}
END_TEST

START_TEST(test_equivalent_testdata)
{
	const char *td = test_env("TESTDATA");
	char xp[4096], js[4096];

	ck_assert_msg(td != NULL, "TESTDATA is not set (run via make check)");
	test_fmt(xp, sizeof xp, "%s%stesthost.xplane.pb", td, JAX_RUN);
	test_fmt(js, sizeof js, "%s%sperfetto_trace.json.gz", td, JAX_RUN);
	assert_equivalent(xp, js, 3377);
	test_fmt(js, sizeof js, "%s%stesthost.trace.json.gz", td, JAX_RUN);
	assert_equivalent(xp, js, 3377);
}
END_TEST

START_TEST(test_equivalent_corpus)
{
	const char *corpus = test_env("CORPUS");
	char xp[4096], js[4096];
	FILE *fp;

	if (corpus == NULL) {
		printf("json: CORPUS is not set: skipping the ampere pair\n");
		return;
	}
	test_fmt(xp, sizeof xp, "%s%s.xplane.pb", corpus, AMPERE_RUN);
	test_fmt(js, sizeof js, "%s%s.trace.json.gz", corpus, AMPERE_RUN);
	if ((fp = fopen(xp, "rb")) == NULL) {
		printf("json: %s is absent: skipping the ampere pair\n", xp);
		return;
	}
	fclose(fp);
	assert_equivalent(xp, js, 3117);
}
END_TEST

START_TEST(test_smdebug)
{
	const char *corpus = test_env("CORPUS");
	struct agg a;
	struct pf_read_stats rs;
	struct pf_handler h;
	char path[4096], *cause = NULL;
	FILE *fp;

	test_fmt(path, sizeof path, "%s/smdebug/tests/profiler/"
	    "ip-172-31-19-241.trace.json", corpus != NULL ? corpus : ".");
	if (corpus == NULL || (fp = fopen(path, "rb")) == NULL) {
		printf("json: no corpus: skipping %s\n", path);
		return;
	}
	fclose(fp);
	agg_handler(&a, &h);
	ck_assert_msg(json_read(path, &h, &rs, &cause) == 0, "%s: %s", path,
	    cause);
	ck_assert_uint_eq(a.nplanes, 9);
	ck_assert_uint_eq(a.ngpu, 8);
	ck_assert_uint_eq(a.nhost, 1);
	ck_assert_uint_eq(a.nevents, 1663);
	agg_release(&a);
}
END_TEST

/* ---- A compact dump of the stream, for the quirks table ---- */

static int
dump_plane(void *ctx, const struct pf_plane *p)
{
	size_t i;

	fprintf(ctx, "plane %lld '%s' lines=%zu metas=%zu\n",
	    (long long)p->id, p->name, p->nlines, p->nmetas);
	/* The entry past the end is the empty one. */
	ck_assert_str_eq(p->metas[p->nmetas].name, "");
	for (i = 0; i < p->nmetas; i++)
		ck_assert_uint_eq(p->metas[i].index, i);
	return 0;
}

static int
dump_line(void *ctx, const struct pf_plane *p, const struct pf_line *l)
{
	(void)p;
	ck_assert_int_eq(l->timestamp_ns, 0);
	fprintf(ctx, " line %lld '%s' events=%zu\n", (long long)l->id,
	    l->name, l->nevents);
	return 0;
}

static int
dump_event(void *ctx, const struct pf_plane *p, const struct pf_line *l,
    const struct pf_event *e)
{
	FILE *fp = ctx;
	size_t i;

	(void)l;
	ck_assert_ptr_eq(e->meta, &p->metas[e->meta->index]);
	ck_assert_int_eq(e->metadata_id, e->meta->id);
	ck_assert_int_eq(e->offset_ps, e->start_ps);
	fprintf(fp, "  '%s'", e->meta->name);
	if (e->meta->display_name[0] != '\0')
		fprintf(fp, " as '%s'", e->meta->display_name);
	fprintf(fp, " %lld+%lld", (long long)e->start_ps,
	    (long long)e->duration_ps);
	for (i = 0; i < e->nstats; i++) {
		const struct pf_stat *st = &e->stats[i];

		ck_assert_int_eq(st->key, pf_key_of(st->name));
		fprintf(fp, " %s=", st->name);
		switch (st->kind) {
		case PF_INT64:
			fprintf(fp, "%lld", (long long)st->num.i);
			break;
		case PF_DOUBLE:
			fprintf(fp, "%gd", st->num.d);
			break;
		case PF_STR:
			fprintf(fp, "'%.*s'", (int)st->str.len, st->str.ptr);
			break;
		default:
			ck_abort_msg("stat kind %d", (int)st->kind);
		}
	}
	putc('\n', fp);
	return 0;
}

static int
dump_line_end(void *ctx, const struct pf_plane *p, const struct pf_line *l)
{
	(void)ctx;
	(void)p;
	(void)l;
	return 0;
}

static int
dump_plane_end(void *ctx, const struct pf_plane *p)
{
	fprintf(ctx, "end %lld\n", (long long)p->id);
	return 0;
}

static void
dump_handler(struct pf_handler *h, FILE *fp)
{
	memset(h, 0, sizeof *h);
	h->ctx = fp;
	h->plane_begin = dump_plane;
	h->line_begin = dump_line;
	h->event = dump_event;
	h->line_end = dump_line_end;
	h->plane_end = dump_plane_end;
}

/*
 * Reads path, with json_read_budget(), or when jt is given, with
 * json_emit(jt); returns the dump (or "error: cause"); caller frees.
 */
static char *
dump_any(const char *path, size_t budget, struct json_trace *jt)
{
	struct pf_read_stats rs;
	struct pf_handler h;
	char *dump = NULL, *cause = NULL;
	size_t len;
	FILE *fp = open_memstream(&dump, &len);
	int rc;

	ck_assert_ptr_nonnull(fp);
	dump_handler(&h, fp);
	if (jt != NULL)
		rc = json_emit(jt, &h, &cause);
	else
		rc = json_read_budget(path, budget, &h, &rs, &cause);
	if (rc != 0) {
		ck_assert_int_eq(rc, -1);
		ck_assert_ptr_nonnull(cause);
		ck_assert_msg(strchr(cause, '\n') == NULL, "newline in '%s'",
		    cause);
		fprintf(fp, "error: %s", cause);
		free(cause);
	}
	ck_assert_int_eq(fclose(fp), 0);
	return dump;
}

static char *
dump_read(const char *path, size_t budget)
{
	return dump_any(path, budget, NULL);
}

/* Writes text to dir/name, through gzip when gz. */
static char *
write_trace(const char *dir, const char *text, size_t len, int gz)
{
	char *path = malloc(strlen(dir) + 32);
	gzFile z;

	ck_assert_ptr_nonnull(path);
	sprintf(path, "%s/t.trace.json%s", dir, gz ? ".gz" : "");
	if (!gz) {
		test_spew(path, text, len);
		return path;
	}
	z = gzopen(path, "wb");
	ck_assert_ptr_nonnull(z);
	ck_assert(len == 0 || gzwrite(z, text, (unsigned)len) == (int)len);
	ck_assert_int_eq(gzclose(z), Z_OK);
	return path;
}

static const struct {
	const char	*what;
	const char	*json;
	const char	*want;
} quirks[] = {
	{ "names, sort index, trailing {}, fractional us",
	  "{\"displayTimeUnit\":\"ns\",\"metadata\":{\"highres-ticks\":true},"
	  "\"traceEvents\":["
	  "{\"ph\":\"M\",\"pid\":701,\"name\":\"process_name\","
	  "\"args\":{\"name\":\"/host:CPU\"}},"
	  "{\"ph\":\"M\",\"pid\":701,\"name\":\"process_sort_index\","
	  "\"args\":{\"sort_index\":701}},"
	  "{\"ph\":\"M\",\"pid\":701,\"tid\":5,\"name\":\"thread_name\","
	  "\"args\":{\"name\":\"python\"}},"
	  "{\"ph\":\"M\",\"pid\":701,\"tid\":5,\"name\":\"thread_sort_index\","
	  "\"args\":{\"sort_index\":2}},"
	  "{\"ph\":\"M\",\"pid\":701,\"tid\":9,\"name\":\"thread_name\","
	  "\"args\":{\"name\":\"worker\"}},"
	  "{\"ph\":\"M\",\"pid\":701,\"tid\":9,\"name\":\"thread_sort_index\","
	  "\"args\":{\"sort_index\":\"1\"}},"
	  "{\"ph\":\"X\",\"pid\":701,\"tid\":5,\"ts\":1.5,\"dur\":0.000001,"
	  "\"name\":\"a\"},"
	  "{\"ph\":\"X\",\"pid\":701,\"tid\":9,\"ts\":628856.27000000002,"
	  "\"dur\":9.9999999999999995e-07,\"name\":\"b\"},"
	  "{\"ph\":\"X\",\"pid\":701,\"tid\":9,\"ts\":0.0004996,"
	  "\"dur\":1.5e-6,\"name\":\"b\"},"
	  "{}]}",
	  "plane 701 '/host:CPU' lines=2 metas=2\n"
	  " line 9 'worker' events=2\n"
	  "  'b' 500+2\n"
	  "  'b' 628856270000+1\n"
	  " line 5 'python' events=1\n"
	  "  'a' 1500000+1\n"
	  "end 701\n" },
	{ "bare array, missing dur, no names, planes by pid",
	  "[{\"ph\":\"X\",\"pid\":3,\"tid\":1,\"ts\":10,\"name\":\"x\"},"
	  " {\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":1,"
	  "\"name\":\"y\"},"
	  " {\"ph\":\"X\",\"pid\":1,\"tid\":-1,\"ts\":-0.0000004,"
	  "\"dur\":1}]",
	  "plane 1 'pid 1' lines=2 metas=2\n"
	  " line -1 'tid -1' events=1\n"
	  "  '' 0+1000000\n"
	  " line 2 'tid 2' events=1\n"
	  "  'y' 5000000+1000000\n"
	  "end 1\n"
	  "plane 3 'pid 3' lines=1 metas=1\n"
	  " line 1 'tid 1' events=1\n"
	  "  'x' 10000000+0\n"
	  "end 3\n" },
	{ "numbers as strings, arg kinds",
	  "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":\"1\",\"tid\":\"2\","
	  "\"ts\":\"1.25\",\"dur\":\"2\",\"name\":\"s\",\"args\":{"
	  "\"step_num\":\"0\",\"big\":\"99999999999999999999\","
	  "\"neg\":\"-5\",\"f\":1.5,\"i\":3,\"t\":true,\"fl\":false,"
	  "\"s\":\"hi\",\"n\":null,\"o\":{\"a\":1},\"arr\":[1,{\"b\":2}],"
	  "\"lead\":\"007\",\"e\":1e3,\"u\":18446744073709551615,"
	  "\"x\":\"1.5\",\"group_id\":7}}]}",
	  "plane 1 'pid 1' lines=1 metas=1\n"
	  " line 2 'tid 2' events=1\n"
	  "  's' 1250000+2000000 step_num=0 big='99999999999999999999'"
	  " neg=-5 f=1.5d i=3 t=1 fl=0 s='hi' lead='007' e=1000"
	  " u=1.84467e+19d x='1.5' group_id=7\n"
	  "end 1\n" },
	{ "B/E pairs, instants, other ph, nesting order",
	  "{\"traceEvents\":["
	  "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":10,\"name\":\"outer\","
	  "\"args\":{\"a\":\"x\"}},"
	  "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":12,\"name\":\"inner\"},"
	  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":15},"
	  "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":13,\"name\":\"mark\","
	  "\"s\":\"t\"},"
	  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":20,\"name\":\"outer\"},"
	  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":21},"
	  "{\"ph\":\"E\",\"pid\":1,\"tid\":8,\"ts\":21},"
	  "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":30,\"name\":\"never\"},"
	  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":20,"
	  "\"name\":\"longer\"},"
	  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1,"
	  "\"name\":\"first\"},"
	  "{\"ph\":\"I\",\"pid\":1,\"tid\":1,\"ts\":1,\"name\":\"inst\"},"
	  "{\"ph\":\"C\",\"pid\":1,\"name\":\"ctr\",\"ts\":3,"
	  "\"args\":{\"v\":1}},"
	  "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"ts\":3,\"id\":1,"
	  "\"name\":\"flow\"},"
	  "{\"ph\":\"b\",\"pid\":2,\"tid\":1,\"ts\":3,\"id\":1,"
	  "\"name\":\"async\"},"
	  "{\"ph\":\"XX\",\"pid\":1,\"tid\":1,\"ts\":3,\"name\":\"bad\"}"
	  "]}",
	  "plane 1 'pid 1' lines=1 metas=7\n"
	  " line 1 'tid 1' events=6\n"
	  "  'inst' 1000000+0\n"
	  "  'first' 5000000+1000000\n"
	  "  'longer' 10000000+20000000\n"
	  "  'outer' 10000000+10000000 a='x'\n"
	  "  'inner' 12000000+3000000\n"
	  "  'mark' 13000000+0\n"
	  "end 1\n" },
	{ "long_name, keys in any order, other keys ignored",
	  "{\"otherData\":{\"x\":[1,{\"traceEvents\":5}]},"
	  "\"traceEvents\":[{\"args\":{\"x\":\"1\",\"long_name\":"
	  "\"Iterator::Long::short\"},\"name\":\"short\",\"dur\":1,\"ts\":1,"
	  "\"tid\":1,\"pid\":1,\"ph\":\"X\"},"
	  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1,"
	  "\"name\":\"short\"},"
	  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1,"
	  "\"name\":\"short\",\"args\":{\"long_name\":7}}],"
	  "\"displayTimeUnit\":\"ns\"}",
	  "plane 1 'pid 1' lines=1 metas=2\n"
	  " line 1 'tid 1' events=3\n"
	  "  'Iterator::Long::short' as 'short' 1000000+1000000 x=1\n"
	  "  'short' 2000000+1000000\n"
	  "  'short' 3000000+1000000 long_name=7\n"
	  "end 1\n" },
	{ "metadata only: planes and lines without events",
	  "{\"traceEvents\":["
	  "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\","
	  "\"args\":{\"name\":\"/device:GPU:0\"}},"
	  "{\"ph\":\"M\",\"pid\":4,\"tid\":2,\"name\":\"thread_name\","
	  "\"args\":{\"name\":\"t\"}},{}]}",
	  "plane 0 '/device:GPU:0' lines=0 metas=0\n"
	  "end 0\n"
	  "plane 4 'pid 4' lines=1 metas=0\n"
	  " line 2 't' events=0\n"
	  "end 4\n" },
	{ "integer strings as names, long_name and args",
	  "{\"traceEvents\":["
	  "{\"ph\":\"M\",\"pid\":3,\"name\":\"process_name\","
	  "\"args\":{\"name\":\"12\"}},"
	  "{\"ph\":\"M\",\"pid\":3,\"tid\":5,\"name\":\"thread_name\","
	  "\"args\":{\"name\":\"-4\"}},"
	  "{\"ph\":\"X\",\"pid\":3,\"tid\":5,\"ts\":1,\"dur\":1,"
	  "\"name\":\"k\",\"args\":{\"id\":\"77\",\"long_name\":\"0\","
	  "\"s\":\"x\",\"long_name\":\"second\"}}]}",
	  "plane 3 '12' lines=1 metas=1\n"
	  " line 5 '-4' events=1\n"
	  "  '0' as 'k' 1000000+1000000 id=77 s='x' long_name='second'\n"
	  "end 3\n" },
	{ "empty traceEvents", "{\"traceEvents\":[]}", "" },
};

START_TEST(test_quirks)
{
	int i = _i / 2, gz = _i % 2;
	char *dir = test_mkdtemp(), *path, *got, *batched;

	path = write_trace(dir, quirks[i].json, strlen(quirks[i].json), gz);
	got = dump_read(path, JSON_BATCH_BYTES);
	ck_assert_msg(strcmp(got, quirks[i].want) == 0,
	    "%s (%s):\n--- got:\n%s--- want:\n%s", quirks[i].what,
	    gz ? "gzip" : "plain", got, quirks[i].want);
	/* A line per batch gives the same stream. */
	batched = dump_read(path, 1);
	ck_assert_str_eq(batched, got);
	free(batched);
	free(got);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * Names longer than a read chunk, split across the tokenizer's buffers:
 * gzip'd, and plain.
 */
START_TEST(test_long_name)
{
	size_t n = 600000, len;
	int gz = _i;
	char *dir = test_mkdtemp(), *json, *path, *got, *want;

	json = malloc(n + 256);
	want = malloc(n + 256);
	ck_assert(json != NULL && want != NULL);
	len = (size_t)sprintf(json, "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,"
	    "\"ts\":1,\"dur\":1,\"name\":\"");
	memset(json + len, 'n', n);
	len += n;
	len += (size_t)sprintf(json + len, "\"}]");
	path = write_trace(dir, json, len, gz);
	got = dump_read(path, JSON_BATCH_BYTES);
	len = (size_t)sprintf(want, "plane 1 'pid 1' lines=1 metas=1\n"
	    " line 1 'tid 1' events=1\n  '");
	memset(want + len, 'n', n);
	len += n;
	sprintf(want + len, "' 1000000+1000000\nend 1\n");
	ck_assert(strcmp(got, want) == 0);
	free(got);
	free(want);
	free(json);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* A real file read in batches of every size gives the same stream. */
START_TEST(test_batches)
{
	const char *td = test_env("TESTDATA");
	char path[4096], *whole, *part;
	size_t budgets[] = { 1, 4096, 100000 };
	size_t i;

	ck_assert_msg(td != NULL, "TESTDATA is not set (run via make check)");
	test_fmt(path, sizeof path, "%s%sperfetto_trace.json.gz", td, JAX_RUN);
	whole = dump_read(path, JSON_BATCH_BYTES);
	ck_assert_msg(strncmp(whole, "plane 701 '/host:CPU'", 21) == 0, "%.200s",
	    whole);
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		part = dump_read(path, budgets[i]);
		ck_assert_msg(strcmp(part, whole) == 0, "budget %zu differs",
		    budgets[i]);
		free(part);
	}
	free(whole);
}
END_TEST

/*
 * json_open() then json_emit() twice gives json_read()'s stream each time,
 * the events kept by the first pass (a budget they fit) or read in
 * batches (a budget of 1 byte).
 */
START_TEST(test_emit_twice)
{
	const char *td = test_env("TESTDATA");
	char path[4096], *whole, *again, *cause = NULL;
	size_t budgets[] = { JSON_BATCH_BYTES, 1 };
	struct pf_read_stats rs, rs_read;
	struct pf_handler h;
	struct json_trace *jt;
	size_t i, k;

	ck_assert_msg(td != NULL, "TESTDATA is not set (run via make check)");
	test_fmt(path, sizeof path, "%s%sperfetto_trace.json.gz", td, JAX_RUN);
	whole = dump_read(path, JSON_BATCH_BYTES);
	memset(&h, 0, sizeof h);
	ck_assert_int_eq(json_read(path, &h, &rs_read, &cause), 0);
	for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		ck_assert_int_eq(json_open(path, budgets[i], &jt, &rs, &cause),
		    0);
		ck_assert(memcmp(&rs, &rs_read, sizeof rs) == 0);
		for (k = 0; k < 2; k++) {
			again = dump_any(path, 0, jt);
			ck_assert_msg(strcmp(again, whole) == 0,
			    "budget %zu, emission %zu differs", budgets[i], k);
			free(again);
		}
		json_close(jt);
	}
	free(whole);
}
END_TEST

/* One plane of jt, emitted into its own dump. */
struct plane_dump {
	struct json_trace *jt;
	size_t		 i;
	char		*dump;
	int		 rc;
};

static void *
dump_plane_of(void *arg)
{
	struct plane_dump *pd = arg;
	struct pf_handler h;
	char *cause = NULL;
	size_t len;
	FILE *fp = open_memstream(&pd->dump, &len);

	ck_assert_ptr_nonnull(fp);
	dump_handler(&h, fp);
	pd->rc = json_emit_plane(pd->jt, pd->i, &h, &cause);
	if (pd->rc != 0)
		fprintf(fp, "error: %s", cause);
	free(cause);
	ck_assert_int_eq(fclose(fp), 0);
	return NULL;
}

/* The dump of path's planes emitted one by one, up to an error. */
static char *
dump_by_planes(const char *path, size_t budget)
{
	struct pf_read_stats rs;
	struct json_trace *jt;
	struct plane_dump pd;
	char *dump, *cause = NULL;
	size_t len;
	FILE *fp = open_memstream(&dump, &len);

	ck_assert_ptr_nonnull(fp);
	if (json_open(path, budget, &jt, &rs, &cause) == -1) {
		fprintf(fp, "error: %s", cause);
		free(cause);
	} else {
		for (pd.i = 0, pd.rc = 0; pd.rc == 0 &&
		    pd.i < json_nplanes(jt); pd.i++) {
			pd.jt = jt;
			dump_plane_of(&pd);
			fputs(pd.dump, fp);
			free(pd.dump);
		}
		json_close(jt);
	}
	ck_assert_int_eq(fclose(fp), 0);
	return dump;
}

/* Three planes, not in pid order, with lines, B/E pairs and stats. */
static const char three_planes[] =
    "{\"traceEvents\":["
    "{\"ph\":\"M\",\"pid\":3,\"name\":\"process_name\","
    "\"args\":{\"name\":\"/host:CPU\"}},"
    "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\","
    "\"args\":{\"name\":\"/device:GPU:0\"}},"
    "{\"ph\":\"X\",\"pid\":3,\"tid\":9,\"ts\":5,\"dur\":4,"
    "\"name\":\"step\",\"args\":{\"step_num\":\"1\",\"x\":1.5}},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":6,\"dur\":1,"
    "\"name\":\"dot.1\",\"args\":{\"hlo_op\":\"dot.1\",\"b\":true}},"
    "{\"ph\":\"B\",\"pid\":2,\"tid\":1,\"ts\":1,\"name\":\"a\"},"
    "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3,"
    "\"name\":\"add.2\"},"
    "{\"ph\":\"E\",\"pid\":2,\"tid\":1,\"ts\":8},"
    "{\"ph\":\"X\",\"pid\":3,\"tid\":8,\"ts\":1,\"dur\":2,"
    "\"name\":\"step\",\"args\":{\"s\":\"text\"}}]}";

/*
 * Planes emitted one by one give json_emit()'s stream: from two threads
 * at once, the last first, when the first pass kept the events; one at a
 * time, in order, when they are read in batches.
 */
START_TEST(test_emit_planes)
{
	char *dir = test_mkdtemp(), *path, *whole, *cause = NULL;
	size_t budgets[] = { JSON_BATCH_BYTES, 1 };
	struct pf_read_stats rs;
	struct json_trace *jt;
	size_t b, i, n;

	path = write_trace(dir, three_planes, strlen(three_planes), 0);
	whole = dump_read(path, JSON_BATCH_BYTES);
	ck_assert_msg(strstr(whole, "error") == NULL, "%s", whole);
	for (b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
		struct plane_dump *pd;
		pthread_t thread;
		char *joined;
		size_t len;
		FILE *fp = open_memstream(&joined, &len);

		ck_assert_int_eq(json_open(path, budgets[b], &jt, &rs, &cause),
		    0);
		ck_assert_int_eq(json_planes_apart(jt), b == 0);
		n = json_nplanes(jt);
		ck_assert_uint_eq(n, 3);
		ck_assert_str_eq(json_plane_names(jt)[0], "/device:GPU:0");
		ck_assert_str_eq(json_plane_names(jt)[1], "pid 2");
		ck_assert_str_eq(json_plane_names(jt)[2], "/host:CPU");
		pd = calloc(n, sizeof *pd);
		for (i = 0; i < n; i++) {
			pd[i].jt = jt;
			pd[i].i = i;
		}
		if (json_planes_apart(jt)) {
			ck_assert_int_eq(pthread_create(&thread, NULL,
			    dump_plane_of, &pd[n - 1]), 0);
			for (i = n - 1; i-- > 0;)
				dump_plane_of(&pd[i]);
			ck_assert_int_eq(pthread_join(thread, NULL), 0);
		} else
			for (i = 0; i < n; i++)
				dump_plane_of(&pd[i]);
		for (i = 0; i < n; i++) {
			ck_assert_int_eq(pd[i].rc, 0);
			fputs(pd[i].dump, fp);
			free(pd[i].dump);
		}
		ck_assert_int_eq(fclose(fp), 0);
		ck_assert_msg(strcmp(joined, whole) == 0, "budget %zu differs",
		    budgets[b]);
		free(joined);
		free(pd);
		json_close(jt);
	}
	free(whole);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * A 'B' closed before it began is found by the first pass when the events
 * fit, by a batch when they do not: the same message either way, and an
 * error the first pass finds later in the file comes first, as it did.
 */
static const struct {
	const char	*json;
	const char	*want;
} late[] = {
	{ "[{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":10,\"name\":\"a\"},"
	  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5},"
	  "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"b\"}]",
	  "error: at byte 80: pid 1 tid 1: impossible 'E' at ts 5000000 ps, "
	  "before its 'B' at 10000000 ps (a negative duration)" },
	{ "[{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":10,\"name\":\"a\"},"
	  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5},"
	  "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":-1,\"dur\":1}]",
	  "error: at byte 123: pid 1 tid 1 event '': impossible ts" },
	{ "[{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":10,\"name\":\"a\"},"
	  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5},]",
	  "error: at byte 82: parse error: unallowed token" },
};

START_TEST(test_negative_late)
{
	char *dir = test_mkdtemp(), *path, *kept, *batched;

	path = write_trace(dir, late[_i].json, strlen(late[_i].json), 0);
	kept = dump_read(path, JSON_BATCH_BYTES);
	batched = dump_read(path, 1);
	ck_assert_msg(strstr(kept, late[_i].want) != NULL, "got '%s'", kept);
	ck_assert_str_eq(kept, batched);
	free(batched);
	/* Plane by plane: the same error, on the same plane. */
	batched = dump_by_planes(path, JSON_BATCH_BYTES);
	ck_assert_str_eq(kept, batched);
	free(batched);
	batched = dump_by_planes(path, 1);
	ck_assert_str_eq(kept, batched);
	free(kept);
	free(batched);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- Bad input: -1 and a one-line cause ---- */

static const struct {
	const char	*what;
	const char	*json;
	const char	*want;		/* the cause starts so */
} bad[] = {
	{ "truncated", "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1",
	  "error: at byte 33: parse error: premature EOF" },
	{ "garbage", "\x08\x01\x12\x05hello",
	  "error: at byte 1: lexical error: invalid char in json text" },
	{ "trailing garbage", "[] x",
	  "error: at byte 4: parse error: trailing garbage" },
	{ "empty", "", "error: empty file" },
	{ "blank", "  \n", "error: at byte 3: parse error: premature EOF" },
	{ "no events", "{\"foo\":{\"traceEvents\":[]}}",
	  "error: not a trace: no traceEvents array" },
	{ "scalar", "42",
	  "error: at byte 2: not a trace: the JSON text is not an object" },
	{ "events not an array", "{\"traceEvents\":{}}",
	  "error: at byte 16: traceEvents is not an array" },
	{ "events a string", "{\"traceEvents\":\"x\"}",
	  "error: at byte 18: traceEvents is not an array" },
	{ "bad ts", "[{\"ph\":\"X\",\"ts\":\"abc\"}]",
	  "error: at byte 21: ts 'abc' is not a number" },
	/* 1.7e15 us is a time since the epoch, rebased; this is beyond. */
	{ "ts out of range", "[{\"ph\":\"X\",\"ts\":9.9e17}]",
	  "error: at byte 22: ts 9.9e17 us is out of range" },
	{ "bad pid", "[{\"ph\":\"X\",\"pid\":1.5}]",
	  "error: at byte 20: pid '1.5' is not an integer" },
	/* The reader keeps the last pid and tid: an empty one is still bad. */
	{ "empty pid after one", "[{\"pid\":7},{\"pid\":7},{\"pid\":\"\"}]",
	  "error: at byte 30: pid '' is not an integer" },
	{ "bad tid after one", "[{\"tid\":\"12345678901\"},"
	  "{\"tid\":\"12345678901\"},{\"tid\":\"1234567890x\"}]",
	  "error: at byte 65: tid '1234567890x' is not an integer" },
};

START_TEST(test_bad)
{
	int i = _i / 2, gz = _i % 2;
	char *dir = test_mkdtemp(), *path, *got, want[256];
	const char *at = "error: at byte ";

	/* In a gzip file, offsets count the uncompressed bytes, and say so. */
	if (gz && strncmp(bad[i].want, at, strlen(at)) == 0)
		snprintf(want, sizeof want, "error: at uncompressed byte %s",
		    bad[i].want + strlen(at));
	else
		snprintf(want, sizeof want, "%s", bad[i].want);
	path = write_trace(dir, bad[i].json, strlen(bad[i].json), gz);
	got = dump_read(path, JSON_BATCH_BYTES);
	ck_assert_msg(strncmp(got, want, strlen(want)) == 0,
	    "%s (%s): got '%s', want '%s...'", bad[i].what,
	    gz ? "gzip" : "plain", got, want);
	free(got);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* Damaged gzip: truncated, and with flipped bytes in the deflate data. */
START_TEST(test_bad_gzip)
{
	char *dir = test_mkdtemp(), *json, *path, *data, *got, *want;
	size_t i, len, n = 0;

	json = malloc(300000);
	ck_assert_ptr_nonnull(json);
	len = (size_t)sprintf(json, "{\"traceEvents\":[");
	for (i = 0; i < 3000; i++)
		len += (size_t)sprintf(json + len, "{\"ph\":\"X\",\"pid\":1,"
		    "\"tid\":%zu,\"ts\":%zu.%03zu,\"dur\":1,\"name\":\"e%zu\"},",
		    i % 7, i * 13, i % 1000, i * i);
	len += (size_t)sprintf(json + len, "{}]}");
	path = write_trace(dir, json, len, 1);
	data = test_slurp(path, &n);

	/*
	 * One gzip policy for every reader (gzip.h, issue 12 class 6):
	 * offsets are bytes of the compressed file.
	 */
	test_spew(path, data, n / 2);
	got = dump_read(path, JSON_BATCH_BYTES);
	want = xasprintf("error: truncated gzip data at byte %zu", n / 2);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);

	/* Trailing garbage was accepted here, refused for an XSpace. */
	data = realloc(data, n + 8);
	ck_assert_ptr_nonnull(data);
	memcpy(data + n, "garbage", 7);
	test_spew(path, data, n + 7);
	got = dump_read(path, JSON_BATCH_BYTES);
	want = xasprintf("error: trailing garbage after gzip data at byte "
	    "%zu", n);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);

	/* A bad CRC was said to be "at byte 0". */
	data[n - 8] ^= 0xff;
	test_spew(path, data, n);
	got = dump_read(path, JSON_BATCH_BYTES);
	want = xasprintf("error: corrupt gzip data at byte %zu: incorrect "
	    "data check", n - 8);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	data[n - 8] ^= 0xff;

	for (i = n / 3; i < n / 3 + 64; i++)
		data[i] ^= 0x5a;
	test_spew(path, data, n);
	got = dump_read(path, JSON_BATCH_BYTES);
	ck_assert_msg(strstr(got, "byte ") != NULL, "%s", got);
	free(got);

	free(data);
	free(json);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_missing_file)
{
	char *got = dump_read("/nonexistent/x.trace.json", JSON_BATCH_BYTES);

	ck_assert_str_eq(got, "error: No such file or directory");
	free(got);
}
END_TEST

/* A callback's non-zero value stops the reader and is returned. */
static int
stop_line(void *ctx, const struct pf_plane *p, const struct pf_line *l)
{
	(void)ctx;
	(void)p;
	return l->id == 5 ? 42 : 0;
}

START_TEST(test_callback_stops)
{
	char *dir = test_mkdtemp(), *path, *cause = NULL;
	struct pf_read_stats rs;
	struct pf_handler h;

	path = write_trace(dir, quirks[0].json, strlen(quirks[0].json), 0);
	memset(&h, 0, sizeof h);
	h.line_begin = stop_line;
	ck_assert_int_eq(json_read(path, &h, &rs, &cause), 42);
	ck_assert_ptr_null(cause);
	free(path);
	test_rmtree(dir);
	free(dir);
}
END_TEST

Suite *
suite_json(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("equivalent");

	tcase_add_loop_test(tc, test_numbers, 0,
	    (int)(sizeof numbers / sizeof numbers[0]));
	tcase_add_test(tc, test_equivalent_testdata);
	tcase_add_test(tc, test_equivalent_corpus);
	tcase_add_test(tc, test_smdebug);
	tcase_add_test(tc, test_batches);
	tcase_add_test(tc, test_emit_twice);
	tcase_add_test(tc, test_emit_planes);
	suite_add_tcase(s, tc);
	tc = tcase_create("quirks");
	tcase_add_loop_test(tc, test_quirks, 0,
	    (int)(2 * sizeof quirks / sizeof quirks[0]));
	tcase_add_loop_test(tc, test_long_name, 0, 2);
	tcase_add_test(tc, test_callback_stops);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad");
	tcase_add_loop_test(tc, test_bad, 0,
	    (int)(2 * sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_bad_gzip);
	tcase_add_loop_test(tc, test_negative_late, 0,
	    (int)(sizeof late / sizeof late[0]));
	tcase_add_test(tc, test_missing_file);
	suite_add_tcase(s, tc);
	return s;
}
