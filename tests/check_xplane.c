/*
 * The XSpace reader: the fast wire walker (xplane_read) must emit exactly
 * the stream a plain protobuf-c unpack gives (xplane_read_unpacked), on
 * real, generated, truncated and hand-made profiles, and must reject
 * corrupt input with a message that says where and what; and for a
 * handler that reads stats by key only, the same less some event stats
 * without a key.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include "check_suites.h"
#include "model/profile.h"
#include "read/read-xplane.h"
#include "xplane-reference.h"
#include "input/source.h"
#include "lib/varint.h"

/* ---- A canonical text dump of everything a reader emits ---- */

static void
put_bytes(FILE *fp, const char *p, size_t n)
{
	size_t i;

	ck_assert_msg(p != NULL || n == 0, "NULL bytes of length %zu", n);
	fprintf(fp, "%zu:\"", n);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			putc(c, fp);
		else
			fprintf(fp, "\\x%02x", c);
	}
	putc('"', fp);
}

static void
put_str(FILE *fp, const char *s)
{
	ck_assert_msg(s != NULL, "NULL string in the stream");
	put_bytes(fp, s, strlen(s));
}

static void
put_stat(FILE *fp, const char *indent, const struct pf_stat *st)
{
	uint64_t bits;

	fprintf(fp, "%sstat md=%lld name=", indent, (long long)st->metadata_id);
	put_str(fp, st->name);
	fprintf(fp, " key=%d kind=%d", (int)st->key, (int)st->kind);
	ck_assert_int_eq(st->key, pf_key_of(st->name));
	switch (st->kind) {
	case PF_NONE:
		break;
	case PF_DOUBLE:
		memcpy(&bits, &st->num.d, sizeof bits);
		fprintf(fp, " d=%016llx", (unsigned long long)bits);
		break;
	case PF_UINT64:
		fprintf(fp, " u=%llu", (unsigned long long)st->num.u);
		break;
	case PF_INT64:
		fprintf(fp, " i=%lld", (long long)st->num.i);
		break;
	case PF_STR:
	case PF_BYTES:
		fputs(" s=", fp);
		put_bytes(fp, st->str.ptr, st->str.len);
		break;
	case PF_REF:
		fprintf(fp, " ref=%llu s=", (unsigned long long)st->num.u);
		put_bytes(fp, st->str.ptr, st->str.len);
		break;
	default:
		ck_abort_msg("stat kind %d", (int)st->kind);
	}
	putc('\n', fp);
}

static void
put_stats(FILE *fp, const char *indent, const struct pf_stat *st, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		put_stat(fp, indent, &st[i]);
}

/*
 * With skip_mode set, plane_begin answers PF_SKIP for every third plane
 * and line_begin for every second line (counted from 0 in each read).
 */
static int	 skip_mode;
static unsigned	 nplanes_seen, nlines_seen;
/*
 * With keyed_view set, an event's stats without a key are left out of
 * the dump and counted in nunkeyed_seen; so are the allocators' stats
 * (PF_KEY_MEMORY) unless keyed_memory is set, for which read_keyed()
 * then asks (pf_handler.memory_stats).
 */
static int	 keyed_view, keyed_memory;
static size_t	 nunkeyed_seen;

static int
is_keyed(const struct pf_stat *st)
{
	return st->key != PF_KEY_OTHER &&
	    (st->key != PF_KEY_MEMORY || keyed_memory);
}

static int
dump_space(void *ctx, const struct pf_space *s)
{
	FILE *fp = ctx;
	size_t i;

	fputs("space path=", fp);
	put_str(fp, s->path);
	fprintf(fp, " hostnames=%zu", s->nhostnames);
	for (i = 0; i < s->nhostnames; i++) {
		putc(' ', fp);
		put_str(fp, s->hostnames[i]);
	}
	fprintf(fp, " errors=%zu", s->nerrors);
	for (i = 0; i < s->nerrors; i++) {
		putc(' ', fp);
		put_str(fp, s->errors[i]);
	}
	fprintf(fp, " warnings=%zu", s->nwarnings);
	for (i = 0; i < s->nwarnings; i++) {
		putc(' ', fp);
		put_str(fp, s->warnings[i]);
	}
	fprintf(fp, " nplanes=%zu\n", s->nplanes);
	return 0;
}

static int
dump_plane_begin(void *ctx, const struct pf_plane *p)
{
	FILE *fp = ctx;
	size_t i, j;

	fprintf(fp, "plane id=%lld name=", (long long)p->id);
	put_str(fp, p->name);
	fprintf(fp, " nstats=%zu nlines=%zu nmetas=%zu\n", p->nstats,
	    p->nlines, p->nmetas);
	put_stats(fp, " ", p->stats, p->nstats);
	/* metas[nmetas] is the empty entry of unknown ids: dumped too. */
	for (i = 0; i <= p->nmetas; i++) {
		const struct pf_event_meta *m = &p->metas[i];

		ck_assert_uint_eq(m->index, i);
		fprintf(fp, " meta id=%lld index=%u name=", (long long)m->id,
		    m->index);
		put_str(fp, m->name);
		fputs(" display=", fp);
		put_str(fp, m->display_name);
		fputs(" metadata=", fp);
		put_bytes(fp, m->metadata.ptr, m->metadata.len);
		fprintf(fp, " nstats=%zu children=[", m->nstats);
		for (j = 0; j < m->nchild_ids; j++)
			fprintf(fp, "%s%lld", j > 0 ? "," : "",
			    (long long)m->child_ids[j]);
		fputs("]\n", fp);
		put_stats(fp, "  ", m->stats, m->nstats);
	}
	if (skip_mode && nplanes_seen++ % 3 == 2) {
		fputs("plane_skip\n", fp);
		return PF_SKIP;
	}
	return 0;
}

static int
dump_line_begin(void *ctx, const struct pf_plane *p, const struct pf_line *l)
{
	FILE *fp = ctx;

	(void)p;
	fprintf(fp, "line id=%lld display_id=%lld name=", (long long)l->id,
	    (long long)l->display_id);
	put_str(fp, l->name);
	fputs(" display=", fp);
	put_str(fp, l->display_name);
	fprintf(fp, " ts=%lld dur=%lld nevents=%zu\n",
	    (long long)l->timestamp_ns, (long long)l->duration_ps, l->nevents);
	if (skip_mode && nlines_seen++ % 2 == 1) {
		fputs("line_skip\n", fp);
		return PF_SKIP;
	}
	return 0;
}

static int
dump_event(void *ctx, const struct pf_plane *p, const struct pf_line *l,
    const struct pf_event *e)
{
	FILE *fp = ctx;
	size_t i, nkeyed = 0;

	(void)l;
	/* The meta is one of the plane's entries (or the empty one). */
	ck_assert_ptr_nonnull(e->meta);
	ck_assert_uint_le(e->meta->index, p->nmetas);
	ck_assert_ptr_eq(e->meta, &p->metas[e->meta->index]);
	fprintf(fp, "event md=%lld meta=%u name=", (long long)e->metadata_id,
	    e->meta->index);
	put_str(fp, e->meta->name);
	fputs(" display=", fp);
	put_str(fp, e->meta->display_name);
	for (i = 0; i < e->nstats; i++)
		nkeyed += is_keyed(&e->stats[i]);
	nunkeyed_seen += e->nstats - nkeyed;
	fprintf(fp, " agg=%d off=%lld nocc=%lld dur=%lld start=%lld "
	    "nstats=%zu\n", e->aggregated, (long long)e->offset_ps,
	    (long long)e->num_occurrences, (long long)e->duration_ps,
	    (long long)e->start_ps, keyed_view ? nkeyed : e->nstats);
	for (i = 0; i < e->nstats; i++)
		if (!keyed_view || is_keyed(&e->stats[i]))
			put_stat(fp, " ", &e->stats[i]);
	return 0;
}

static int
dump_line_end(void *ctx, const struct pf_plane *p, const struct pf_line *l)
{
	(void)p;
	fprintf(ctx, "line_end id=%lld\n", (long long)l->id);
	return 0;
}

static int
dump_plane_end(void *ctx, const struct pf_plane *p)
{
	fprintf(ctx, "plane_end id=%lld\n", (long long)p->id);
	return 0;
}

/* What one read gave: return value, cause, dump and read stats. */
struct result {
	int		 rc;
	char		*cause;
	char		*dump;
	size_t		 len;
	struct pf_read_stats rs;
};

static FILE *
dump_open(struct result *r, struct pf_handler *h)
{
	FILE *fp;

	memset(r, 0, sizeof *r);
	nplanes_seen = nlines_seen = 0;
	nunkeyed_seen = 0;
	fp = open_memstream(&r->dump, &r->len);
	ck_assert_ptr_nonnull(fp);
	memset(h, 0, sizeof *h);
	h->ctx = fp;
	h->space = dump_space;
	h->plane_begin = dump_plane_begin;
	h->line_begin = dump_line_begin;
	h->event = dump_event;
	h->line_end = dump_line_end;
	h->plane_end = dump_plane_end;
	return fp;
}

static void
dump_close(FILE *fp, struct result *r)
{
	fprintf(fp, "result rc=%d missing_event_metadata=%llu "
	    "missing_stat_metadata=%llu bytes=%llu\n", r->rc,
	    (unsigned long long)r->rs.missing_event_metadata,
	    (unsigned long long)r->rs.missing_stat_metadata,
	    (unsigned long long)r->rs.bytes);
	ck_assert_int_eq(fclose(fp), 0);
}

static void
read_fast(struct source *src, const char *path, struct result *r)
{
	struct pf_handler h;
	FILE *fp = dump_open(r, &h);

	r->rc = xplane_read(src, path, &h, &r->rs, &r->cause);
	dump_close(fp, r);
}

/* The same for a handler that reads stats by key only. */
static void
read_keyed(struct source *src, const char *path, struct result *r)
{
	struct pf_handler h;
	FILE *fp = dump_open(r, &h);

	h.keyed_stats_only = 1;
	h.memory_stats = keyed_memory;
	r->rc = xplane_read(src, path, &h, &r->rs, &r->cause);
	dump_close(fp, r);
}

/* xplane_read on bytes in memory, through a source filled by hand. */
static void
read_fast_mem(const uint8_t *data, size_t size, struct result *r)
{
	struct source src;

	memset(&src, 0, sizeof src);
	src.data = data;
	src.size = size;
	read_fast(&src, "mem", r);
}

static void
read_unpacked(const uint8_t *data, size_t size, const char *path,
    struct result *r)
{
	struct pf_handler h;
	FILE *fp = dump_open(r, &h);

	r->rc = xplane_read_unpacked(data, size, path, &h, &r->rs, &r->cause);
	dump_close(fp, r);
}

static void
result_free(struct result *r)
{
	free(r->cause);
	free(r->dump);
	memset(r, 0, sizeof *r);
}

/* Fails with the first differing byte and the text around it. */
static void
assert_same_dump(const char *what, const struct result *fast,
    const struct result *ref)
{
	size_t i, n = fast->len < ref->len ? fast->len : ref->len, from;
	int wa, wb;

	for (i = 0; i < n && fast->dump[i] == ref->dump[i]; i++)
		;
	if (i == n && fast->len == ref->len)
		return;
	from = i > 200 ? i - 200 : 0;
	wa = (int)((fast->len - from) < 400 ? fast->len - from : 400);
	wb = (int)((ref->len - from) < 400 ? ref->len - from : 400);
	ck_abort_msg("%s: xplane_read and xplane_read_unpacked differ at "
	    "byte %zu of the dump (%zu vs %zu bytes)\n"
	    "--- xplane_read from byte %zu:\n%.*s\n"
	    "--- xplane_read_unpacked from byte %zu:\n%.*s\n", what, i,
	    fast->len, ref->len, from, wa, fast->dump + from, from, wb,
	    ref->dump + from);
}

/* Two reads of the same bytes: the same return, cause, stream and stats. */
static void
assert_same_result(const char *what, const char *variant,
    const struct result *r, const struct result *fast)
{
	ck_assert_msg(r->rc == fast->rc, "%s: %s %d (%s), not %d (%s)",
	    what, variant, r->rc, r->cause ? r->cause : "", fast->rc,
	    fast->cause ? fast->cause : "");
	ck_assert_msg((r->cause == NULL) == (fast->cause == NULL) &&
	    (fast->cause == NULL || strcmp(r->cause, fast->cause) == 0),
	    "%s: %s cause '%s', not '%s'", what, variant,
	    r->cause ? r->cause : "", fast->cause ? fast->cause : "");
	ck_assert_msg(r->len == fast->len &&
	    memcmp(r->dump, fast->dump, fast->len) == 0,
	    "%s: the %s stream differs (%zu vs %zu bytes)", what, variant,
	    r->len, fast->len);
}

/*
 * With the stats read by key only, xplane_read gives what it gives with
 * all stats, less the event stats without a key, and less the
 * allocators' stats unless the handler reads them.
 */
static void
assert_keyed_same(const char *what, struct source *src, const char *path)
{
	struct result all, keyed;

	keyed_view = 1;
	for (keyed_memory = 0; keyed_memory < 2; keyed_memory++) {
		read_fast(src, path, &all);
		read_keyed(src, path, &keyed);
		assert_same_result(what, keyed_memory ? "keyed (memory)" :
		    "keyed", &keyed, &all);
		result_free(&keyed);
		result_free(&all);
	}
	keyed_memory = 0;
	keyed_view = 0;
}

/* Both readers on the bytes of a file: same stream, same stats. */
static void
differential_file(const char *path)
{
	struct result fast, ref;
	struct source src;
	char *cause = NULL;

	ck_assert_msg(source_open(&src, path, &cause) == 0, "%s: %s", path,
	    cause);
	read_fast(&src, path, &fast);
	ck_assert_msg(fast.rc == 0, "%s: xplane_read: %s", path, fast.cause);
	read_unpacked(src.data, src.size, path, &ref);
	ck_assert_msg(ref.rc == 0, "%s: unpack: %s", path, ref.cause);
	ck_assert_uint_eq(fast.rs.bytes, src.size);
	ck_assert_msg(strstr(fast.dump, "\nevent ") != NULL,
	    "%s: no events in the stream", path);
	assert_same_dump(path, &fast, &ref);
	assert_keyed_same(path, &src, path);
	source_close(&src);
	result_free(&fast);
	result_free(&ref);
}

/* ---- Finding *.xplane.pb[.gz] below a folder ---- */

static char	**found_paths;
static size_t	  nfound_paths;

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int
collect_xplane(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_F && (has_suffix(path, ".xplane.pb") ||
	    has_suffix(path, ".xplane.pb.gz"))) {
		found_paths = realloc(found_paths,
		    (nfound_paths + 1) * sizeof *found_paths);
		ck_assert_ptr_nonnull(found_paths);
		found_paths[nfound_paths++] = strdup(path);
	}
	return 0;
}

/* Reads every profile below dir both ways; returns how many there were. */
static size_t
differential_tree(const char *dir)
{
	size_t i, n;

	nfound_paths = 0;
	ck_assert_msg(nftw(dir, collect_xplane, 16, FTW_PHYS) == 0,
	    "cannot walk %s: %s", dir, strerror(errno));
	n = nfound_paths;
	for (i = 0; i < nfound_paths; i++) {
		differential_file(found_paths[i]);
		free(found_paths[i]);
	}
	free(found_paths);
	found_paths = NULL;
	nfound_paths = 0;
	return n;
}

START_TEST(test_differential_testdata)
{
	const char *dir = test_env("TESTDATA");

	ck_assert_msg(dir != NULL, "TESTDATA is not set");
	ck_assert_uint_ge(differential_tree(dir), 2);
}
END_TEST

START_TEST(test_differential_corpus)
{
	const char *dir = test_env("CORPUS");
	struct stat st;
	size_t n;

	if (dir == NULL || stat(dir, &st) == -1) {
		printf("xplane: CORPUS (%s) not found: skipping the corpus "
		    "profiles\n", dir != NULL ? dir : "unset");
		return;
	}
	n = differential_tree(dir);
	printf("xplane: %zu corpus profiles read both ways\n", n);
}
END_TEST

START_TEST(test_differential_generated)
{
	char *dir = test_mkdtemp(), *sub, *path;
	size_t n = strlen(dir) + 8;
	int gz;

	sub = malloc(n);
	ck_assert_ptr_nonnull(sub);
	for (gz = 0; gz <= 1; gz++) {
		snprintf(sub, n, "%s/%s", dir, gz ? "gz" : "plain");
		path = test_gen_profile(sub, "--seed=7 --devices=2 --steps=3 "
		    "--warn", gz);
		differential_file(path);
		free(path);
	}
	free(sub);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * PF_SKIP from plane_begin or line_begin: both readers pass over that
 * plane's lines or that line's events, call no plane_end or line_end for
 * it, and go on with the next one.
 */
static void
check_skip(const char *path)
{
	struct result fast, ref;
	struct source src;
	char *cause = NULL;

	ck_assert_msg(source_open(&src, path, &cause) == 0, "%s", cause);
	skip_mode = 1;
	read_fast(&src, path, &fast);
	read_unpacked(src.data, src.size, path, &ref);
	assert_keyed_same("PF_SKIP", &src, path);
	skip_mode = 0;
	ck_assert_msg(fast.rc == 0, "%s", fast.cause);
	ck_assert_int_eq(ref.rc, 0);
	assert_same_dump("PF_SKIP", &fast, &ref);
	ck_assert_ptr_nonnull(strstr(fast.dump, "\nplane_skip\n"));
	ck_assert_ptr_nonnull(strstr(fast.dump, "\nline_skip\n"));
	ck_assert_ptr_nonnull(strstr(fast.dump, "\nevent "));
	ck_assert_ptr_null(strstr(fast.dump, "plane_skip\nline "));
	ck_assert_ptr_null(strstr(fast.dump, "plane_skip\nplane_end"));
	ck_assert_ptr_null(strstr(fast.dump, "line_skip\nevent "));
	ck_assert_ptr_null(strstr(fast.dump, "line_skip\nline_end"));
	result_free(&fast);
	result_free(&ref);
	source_close(&src);
}

START_TEST(test_skip)
{
	const char *dir = test_env("TESTDATA");
	char path[4096], *tmp, *gen;

	ck_assert_msg(dir != NULL, "TESTDATA is not set");
	test_fmt(path, sizeof path, "%s/jax-mlp/plugins/profile/"
	    "2026_01_01_00_00_00/testhost.xplane.pb", dir);
	check_skip(path);
	/* Planes: host, GPU:0, GPU:1 (skipped, with its lines). */
	tmp = test_mkdtemp();
	gen = test_gen_profile(tmp, "--seed=5 --devices=2 --steps=2", 0);
	check_skip(gen);
	free(gen);
	test_rmtree(tmp);
	free(tmp);
}
END_TEST

/* ---- Truncation: every prefix fails exactly when protobuf-c fails ---- */

static void
check_prefix(const uint8_t *data, size_t len, size_t *nok)
{
	uint8_t *copy = malloc(len > 0 ? len : 1);
	struct result fast, ref;
	struct source src;
	unsigned long long at;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, data, len);	/* exact size: overreads are caught */
	read_fast_mem(copy, len, &fast);
	read_unpacked(copy, len, "mem", &ref);
	memset(&src, 0, sizeof src);
	src.data = copy;
	src.size = len;
	assert_keyed_same("prefix", &src, "mem");
	ck_assert_msg(fast.rc == 0 || fast.rc == -1, "prefix %zu: rc %d",
	    len, fast.rc);
	ck_assert_msg(fast.rc == ref.rc, "prefix %zu: xplane_read %d (%s), "
	    "unpack %d", len, fast.rc, fast.cause ? fast.cause : "",
	    ref.rc);
	if (fast.rc == -1) {
		ck_assert_ptr_nonnull(fast.cause);
		ck_assert_msg(sscanf(fast.cause, "at byte %llu: ", &at) == 1 &&
		    strncmp(fast.cause, "at byte ", 8) == 0,
		    "prefix %zu: cause '%s'", len, fast.cause);
		ck_assert_msg(at <= len, "prefix %zu: cause '%s'", len,
		    fast.cause);
	} else {
		assert_same_dump("prefix", &fast, &ref);
		(*nok)++;
	}
	result_free(&fast);
	result_free(&ref);
	free(copy);
}

START_TEST(test_truncated)
{
	const char *dir = test_env("TESTDATA");
	size_t size, len, i, nok = 0, ntried = 0;
	char path[4096];
	uint8_t *data;

	ck_assert_msg(dir != NULL, "TESTDATA is not set");
	test_fmt(path, sizeof path, "%s/jax-mlp/plugins/profile/"
	    "2026_01_01_00_00_00/testhost.xplane.pb", dir);
	data = (uint8_t *)test_slurp(path, &size);
	ck_assert_uint_gt(size, 8192);
	for (len = 0; len <= size; len++) {
		int dense = len <= 2048 || len >= size - 2048;
		int spread = (len - 2048) % ((size - 4096) / 1500) == 0;

		if (!dense && !spread)
			continue;
		check_prefix(data, len, &nok);
		ntried++;
	}
	ck_assert_uint_ge(ntried, 4096 + 1400);
	/* At least the empty prefix and the whole file parse. */
	ck_assert_uint_ge(nok, 2);
	free(data);

	/* Length 0 as a file: source_open refuses it. */
	{
		char *tmp = test_mkdtemp(), *cause = NULL;
		struct source src;

		for (i = 0; i < 2; i++) {
			test_fmt(path, sizeof path, "%s/empty%zu.xplane.pb", tmp,
			    i);
			if (i == 0) {
				test_spew(path, "", 0);
			} else {
				/* A gzip file of nothing is just as empty. */
				gzFile gz = gzopen(path, "wb");

				ck_assert_ptr_nonnull(gz);
				ck_assert_int_eq(gzclose(gz), Z_OK);
			}
			ck_assert_int_eq(source_open(&src, path, &cause), -1);
			ck_assert_str_eq(cause, "empty file");
			free(cause);
			cause = NULL;
		}
		test_rmtree(tmp);
		free(tmp);
	}
}
END_TEST

/* ---- A tiny protobuf encoder for hand-made inputs ---- */

struct enc {
	uint8_t	*p;
	size_t	 n, cap;
};

static void
enc_raw(struct enc *e, const void *d, size_t n)
{
	if (e->n + n > e->cap) {
		e->cap = (e->n + n) * 2 + 64;
		e->p = realloc(e->p, e->cap);
		ck_assert_ptr_nonnull(e->p);
	}
	if (n > 0)
		memcpy(e->p + e->n, d, n);
	e->n += n;
}

static void
enc_byte(struct enc *e, unsigned b)
{
	uint8_t c = (uint8_t)b;

	enc_raw(e, &c, 1);
}

static void
enc_varint(struct enc *e, uint64_t v)
{
	while (v >= 0x80) {
		enc_byte(e, (unsigned)(v & 0x7f) | 0x80);
		v >>= 7;
	}
	enc_byte(e, (unsigned)v);
}

static void
enc_tag(struct enc *e, unsigned field, unsigned wt)
{
	enc_varint(e, (uint64_t)field << 3 | wt);
}

static void
enc_int(struct enc *e, unsigned field, int64_t v)
{
	enc_tag(e, field, 0);
	enc_varint(e, (uint64_t)v);
}

static void
enc_bytes(struct enc *e, unsigned field, const void *d, size_t n)
{
	enc_tag(e, field, 2);
	enc_varint(e, n);
	enc_raw(e, d, n);
}

static void
enc_str(struct enc *e, unsigned field, const char *s)
{
	enc_bytes(e, field, s, strlen(s));
}

static void
enc_double(struct enc *e, unsigned field, double d)
{
	uint64_t bits;
	uint8_t b[8];
	int i;

	memcpy(&bits, &d, sizeof bits);
	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(bits >> (8 * i));
	enc_tag(e, field, 1);
	enc_raw(e, b, 8);
}

/* Appends sub as field `field` and empties it. */
static void
enc_msg(struct enc *e, unsigned field, struct enc *sub)
{
	enc_bytes(e, field, sub->p, sub->n);
	free(sub->p);
	memset(sub, 0, sizeof *sub);
}

/* A map<int64, message> entry: key, then the value (may be NULL). */
static void
enc_map_entry(struct enc *e, unsigned field, int64_t key, struct enc *value)
{
	struct enc ent = { 0 };

	enc_int(&ent, 1, key);
	if (value != NULL)
		enc_msg(&ent, 2, value);
	enc_msg(e, field, &ent);
}

static void
enc_stat_meta(struct enc *plane, int64_t key, const char *name)
{
	struct enc v = { 0 };

	enc_int(&v, 1, key);
	enc_str(&v, 2, name);
	enc_map_entry(plane, 5, key, &v);
}

static void
enc_int_stat(struct enc *msg, unsigned field, int64_t md, int64_t value)
{
	struct enc st = { 0 };

	enc_int(&st, 1, md);
	enc_int(&st, 4, value);
	enc_msg(msg, field, &st);
}

/* ---- Corrupt inputs: refused with a cause naming what and where ---- */

/* A gzip member holding data (level 1). */
static void
gzip_bytes(const uint8_t *data, size_t n, struct enc *out)
{
	z_stream zs;
	uint8_t buf[4096];
	int zr;

	memset(&zs, 0, sizeof zs);
	ck_assert_int_eq(deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (Bytef *)(uintptr_t)data;
	zs.avail_in = (uInt)n;
	do {
		zs.next_out = buf;
		zs.avail_out = sizeof buf;
		zr = deflate(&zs, Z_FINISH);
		ck_assert(zr == Z_OK || zr == Z_STREAM_END);
		enc_raw(out, buf, sizeof buf - zs.avail_out);
	} while (zr != Z_STREAM_END);
	deflateEnd(&zs);
}

/* A small valid XSpace: one plane, one line, one event. */
static void
small_space(struct enc *space)
{
	struct enc plane = { 0 }, line = { 0 }, ev = { 0 }, meta = { 0 };

	enc_int(&ev, 1, 1);
	enc_int(&ev, 2, 100);
	enc_int(&ev, 3, 50);
	enc_int_stat(&ev, 4, 1, 42);
	enc_int(&line, 1, 1);
	enc_str(&line, 2, "XLA Ops");
	enc_int(&line, 3, 1000);
	enc_msg(&line, 4, &ev);
	enc_int(&plane, 1, 3);
	enc_str(&plane, 2, "/device:GPU:0");
	enc_msg(&plane, 3, &line);
	enc_int(&meta, 1, 1);
	enc_str(&meta, 2, "fusion.1");
	enc_map_entry(&plane, 4, 1, &meta);
	enc_stat_meta(&plane, 1, "flops");
	enc_msg(space, 1, &plane);
	enc_str(space, 4, "host0");
}

enum corrupt_kind {
	RAW,		/* the bytes as given */
	SMALL_GZIP,	/* small_space(), gzip, cut to half */
	SMALL_BAD_DEFLATE,	/* small_space(), gzip, deflate data spoiled */
	EVENT_BAD_WT,	/* small_space() with XEvent.metadata_id as LEN */
	EVENT_TRUNC_VARINT,	/* an XEvent ending inside a varint */
	EVENT_CUT_VARINT,	/* the same, and more of the file after it */
	STAT_BAD_DOUBLE,	/* XStat.double_value with 4 bytes (fixed32) */
};

static const struct corrupt_case {
	const char	*what;
	enum corrupt_kind kind;
	const char	*bytes;
	size_t		 len;
	int		 open_fails;	/* source_open refuses it */
	const char	*cause;		/* substring of the message */
} corrupt_cases[] = {
	{ "varint of 11 bytes", RAW,
	    "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, 0,
	    "at byte 0: varint longer than 10 bytes in XSpace" },
	{ "length past the end", RAW, "\x22\x05h", 3, 0,
	    "at byte 1: length 5 in XSpace runs past the end of its message "
	    "(1 bytes left)" },
	{ "truncated varint", RAW, "\x22\x80", 2, 0,
	    "at byte 1: truncated varint in XSpace" },
	{ "wire type 7", RAW, "\x2f\x00", 2, 0,
	    "at byte 1: invalid wire type 7 in XSpace" },
	{ "group wire type 3", RAW, "\x2b\x00", 2, 0,
	    "at byte 1: unsupported group wire type in XSpace" },
	{ "XSpace.planes as varint", RAW, "\x08\x01", 2, 0,
	    "at byte 1: field 1 of XSpace has wire type 0, expected 2" },
	{ "XSpace.hostnames as fixed32", RAW, "\x25\x01\x02\x03\x04", 5, 0,
	    "at byte 1: field 4 of XSpace has wire type 5, expected 2" },
	{ "field number 0", RAW, "\x02\x00", 2, 0,
	    "at byte 0: invalid field number 0 in XSpace" },
	{ "JSON text", RAW, "{\"traceEvents\":[]}", 18, 0,
	    "at byte 1: unsupported group wire type in XSpace" },
	/*
	 * Event metadata that fails part way: the clean-up once freed one
	 * entry past the end of the metadata array (issue 12, class 1).
	 */
	{ "XEventMetadata failing part way", RAW,
	    "\x0a\x07\x22\x05\x08\x01\x12\x01\x0f", 9, 0,
	    "field 1 of XEventMetadata has wire type 7" },
	{ "XEvent.metadata_id as LEN", EVENT_BAD_WT, NULL, 0, 0,
	    "field 1 of XEvent has wire type 2, expected 0" },
	{ "XEvent ending in a varint", EVENT_TRUNC_VARINT, NULL, 0, 0,
	    "truncated varint in XEvent" },
	/* The same with bytes after it: a word read runs past the event. */
	{ "XEvent's varint cut by its end", EVENT_CUT_VARINT, NULL, 0, 0,
	    "truncated varint in XEvent" },
	{ "XStat.double_value as fixed32", STAT_BAD_DOUBLE, NULL, 0, 0,
	    "field 2 of XStat has wire type 5, expected 1" },
	{ "truncated gzip", SMALL_GZIP, NULL, 0, 1,
	    "truncated gzip data at byte " },
	{ "corrupt deflate data", SMALL_BAD_DEFLATE, NULL, 0, 1,
	    "corrupt gzip data at byte " },
};

/* One plane holding one event whose bytes are ev (consumed). */
static void
space_with_event(struct enc *space, struct enc *ev)
{
	struct enc plane = { 0 }, line = { 0 };

	enc_int(&line, 1, 1);
	enc_int(&line, 3, 1000);
	enc_msg(&line, 4, ev);
	enc_str(&plane, 2, "/device:GPU:0");
	enc_msg(&plane, 3, &line);
	enc_msg(space, 1, &plane);
}

static void
build_corrupt(const struct corrupt_case *cc, struct enc *out)
{
	struct enc space = { 0 }, ev = { 0 }, st = { 0 };

	switch (cc->kind) {
	case RAW:
		enc_raw(out, cc->bytes, cc->len);
		break;
	case SMALL_GZIP:
		small_space(&space);
		gzip_bytes(space.p, space.n, out);
		out->n /= 2;
		break;
	case SMALL_BAD_DEFLATE:
		small_space(&space);
		gzip_bytes(space.p, space.n, out);
		/* The first deflate block header: final, type 3 (invalid). */
		out->p[10] = 0x07;
		break;
	case EVENT_BAD_WT:
		enc_bytes(&ev, 1, "x", 1);
		space_with_event(out, &ev);
		break;
	case EVENT_TRUNC_VARINT:
		enc_tag(&ev, 3, 0);
		enc_byte(&ev, 0x80);
		space_with_event(out, &ev);
		break;
	case EVENT_CUT_VARINT:
		enc_tag(&ev, 3, 0);
		enc_byte(&ev, 0x80);
		space_with_event(out, &ev);
		enc_str(out, 4, "a hostname after the plane");
		break;
	case STAT_BAD_DOUBLE:
		enc_int(&st, 1, 1);
		enc_tag(&st, 2, 5);
		enc_raw(&st, "\0\0\0\0", 4);
		enc_int(&ev, 1, 1);
		enc_msg(&ev, 4, &st);
		space_with_event(out, &ev);
		break;
	}
	free(space.p);
}

START_TEST(test_corrupt)
{
	const struct corrupt_case *cc = &corrupt_cases[_i];
	char *dir = test_mkdtemp(), *cause = NULL, path[4096];
	struct enc bytes = { 0 };
	struct result fast, ref;
	struct source src;

	build_corrupt(cc, &bytes);
	test_fmt(path, sizeof path, "%s/bad.xplane.pb", dir);
	test_spew(path, bytes.p, bytes.n);
	if (cc->open_fails) {
		ck_assert_msg(source_open(&src, path, &cause) == -1,
		    "%s: source_open accepted it", cc->what);
		ck_assert_msg(strstr(cause, cc->cause) != NULL,
		    "%s: cause '%s', want '%s'", cc->what, cause, cc->cause);
		free(cause);
	} else {
		ck_assert_msg(source_open(&src, path, &cause) == 0, "%s: %s",
		    cc->what, cause);
		read_fast(&src, path, &fast);
		ck_assert_msg(fast.rc == -1, "%s: xplane_read returned %d",
		    cc->what, fast.rc);
		ck_assert_msg(strstr(fast.cause, cc->cause) != NULL &&
		    strncmp(fast.cause, "at byte ", 8) == 0,
		    "%s: cause '%s', want '%s'", cc->what, fast.cause,
		    cc->cause);
		assert_keyed_same(cc->what, &src, path);
		/* protobuf-c refuses these bytes too. */
		read_unpacked(src.data, src.size, path, &ref);
		ck_assert_msg(ref.rc == -1, "%s: protobuf-c accepted it",
		    cc->what);
		result_free(&fast);
		result_free(&ref);
		source_close(&src);
	}
	free(bytes.p);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- Tolerated defects (FORMATS.md 2.2) ---- */

/*
 * One plane: stat metadata 1 is given twice ("flops", then
 * "bytes_accessed": the last wins); event metadata 10 has packed
 * children, 11 unpacked ones, 12 is given twice ("old", then "new");
 * events refer to missing event (99) and stat (77, 78) metadata, and use
 * num_occurrences and both oneof orders.
 */
static void
defects_space(struct enc *space)
{
	struct enc plane = { 0 }, line = { 0 }, ev = { 0 }, meta = { 0 },
	    packed = { 0 }, st = { 0 };

	enc_int(&plane, 1, 5);
	enc_str(&plane, 2, "/device:GPU:0");

	enc_int(&line, 1, 1);
	enc_str(&line, 2, "XLA Ops");
	enc_str(&line, 11, "Ops");
	enc_int(&line, 10, 9);
	enc_int(&line, 3, 1000);
	enc_int(&line, 9, 777);
	/* 1: known metadata, a stat named by the second entry of id 1 */
	enc_int(&ev, 1, 10);
	enc_int(&ev, 2, 5);
	enc_int(&ev, 3, 3);
	enc_int_stat(&ev, 4, 1, -4);
	enc_msg(&line, 4, &ev);
	/* 2: missing event metadata */
	enc_int(&ev, 1, 99);
	enc_int(&ev, 2, 6);
	enc_int(&ev, 3, 1);
	enc_msg(&line, 4, &ev);
	/* 3: aggregated */
	enc_int(&ev, 1, 11);
	enc_int(&ev, 5, 4);
	enc_int(&ev, 3, 2);
	enc_msg(&line, 4, &ev);
	/* 4: missing stat metadata, and a ref to a missing string */
	enc_int(&ev, 1, 12);
	enc_int(&ev, 2, 8);
	enc_int_stat(&ev, 4, 77, 1);
	enc_int(&st, 1, 2);
	enc_tag(&st, 7, 0);
	enc_varint(&st, 78);
	enc_msg(&ev, 4, &st);
	enc_msg(&line, 4, &ev);
	/* 5: offset, then num_occurrences: the last of the oneof wins */
	enc_int(&ev, 1, 10);
	enc_int(&ev, 2, 9);
	enc_int(&ev, 5, 6);
	enc_msg(&line, 4, &ev);
	/* 6: num_occurrences, then offset */
	enc_int(&ev, 1, 10);
	enc_int(&ev, 5, 6);
	enc_int(&ev, 2, 11);
	enc_msg(&line, 4, &ev);
	/* 7: a double, a string and a resolved ref */
	enc_int(&ev, 1, 10);
	enc_int(&ev, 2, 12);
	enc_int(&st, 1, 2);
	enc_double(&st, 2, 0.5);
	enc_msg(&ev, 4, &st);
	enc_int(&st, 1, 2);
	enc_str(&st, 5, "s\"v");
	enc_msg(&ev, 4, &st);
	enc_int(&st, 1, 3);
	enc_tag(&st, 7, 0);
	enc_varint(&st, 4);
	enc_msg(&ev, 4, &st);
	enc_msg(&line, 4, &ev);
	enc_msg(&plane, 3, &line);

	/* Metadata after the lines, as protobuf writes them. */
	enc_int(&meta, 1, 10);
	enc_str(&meta, 2, "a");
	enc_str(&meta, 4, "A");
	enc_bytes(&meta, 3, "\x00\x01", 2);
	enc_varint(&packed, 11);
	enc_varint(&packed, 300);
	enc_msg(&meta, 6, &packed);
	enc_int_stat(&meta, 5, 2, 7);
	enc_map_entry(&plane, 4, 10, &meta);
	enc_int(&meta, 1, 11);
	enc_str(&meta, 2, "b");
	enc_int(&meta, 6, 13);
	enc_int(&meta, 6, 14);
	enc_map_entry(&plane, 4, 11, &meta);
	enc_int(&meta, 1, 12);
	enc_str(&meta, 2, "old");
	enc_int(&meta, 6, 1);
	enc_map_entry(&plane, 4, 12, &meta);
	enc_int(&meta, 1, 12);
	enc_str(&meta, 2, "new");
	enc_map_entry(&plane, 4, 12, &meta);
	enc_stat_meta(&plane, 1, "flops");
	enc_stat_meta(&plane, 2, "hlo_op");
	enc_stat_meta(&plane, 3, "memcpy_details");
	enc_stat_meta(&plane, 4, "size:8");
	enc_stat_meta(&plane, 1, "bytes_accessed");
	enc_int_stat(&plane, 6, 3, 1);
	enc_msg(space, 1, &plane);
	enc_str(space, 2, "an error");
	enc_str(space, 3, "a warning");
	enc_str(space, 4, "h0");
	enc_str(space, 4, "h1");
}

static void
want_line(const char *dump, const char *line)
{
	ck_assert_msg(strstr(dump, line) != NULL, "missing from the "
	    "stream:\n%s\n--- stream:\n%s", line, dump);
}

/* Reads space both ways into *fast and *ref, which must agree. */
static void
read_both_same(const char *what, const struct enc *space,
    struct result *fast, struct result *ref)
{
	read_fast_mem(space->p, space->n, fast);
	ck_assert_msg(fast->rc == 0, "%s: %s", what, fast->cause);
	read_unpacked(space->p, space->n, "mem", ref);
	ck_assert_msg(ref->rc == 0, "%s: %s", what, ref->cause);
	assert_same_dump(what, fast, ref);
}

/* A varint's length and value, a byte at a time: the reference. */
static size_t
varint_bytewise(const uint8_t *p, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < 10; i++) {
		*v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (p[i] < 0x80)
			return i + 1;
	}
	return 0;
}

/* Checks varint_word() on the 16 bytes at p. */
static void
check_word(const uint8_t *p)
{
	uint64_t want, got = 0;
	size_t want_n = varint_bytewise(p, &want), n = varint_word(p, &got);

	if (want_n == 0 || want_n > 8)	/* longer than a word */
		ck_assert_uint_eq(n, 0);
	else {
		ck_assert_uint_eq(n, want_n);
		ck_assert_msg(got == want, "%llx for %llx",
		    (unsigned long long)got, (unsigned long long)want);
	}
}

/*
 * varint_word() gives what a byte at a time gives: every length of the
 * values at the ends of each length's range, and random bytes (the bytes
 * after a varint are the next field's, anything).
 */
START_TEST(test_varint_word)
{
	uint64_t state = 88172645463325252u, v;
	uint8_t buf[16];
	int len, i, round;

	for (len = 1; len <= 10; len++)
		for (i = 0; i < 2; i++) {
			/* The least and greatest value of len bytes. */
			v = len == 1 ? (uint64_t)i * 0x7f :
			    i == 0 ? (uint64_t)1 << (7 * (len - 1)) :
			    len >= 10 ? UINT64_MAX :
			    ((uint64_t)1 << (7 * len)) - 1;
			memset(buf, 0xa5, sizeof buf);
			for (round = 0; round < len - 1; round++, v >>= 7)
				buf[round] = (uint8_t)(v & 0x7f) | 0x80;
			buf[round] = (uint8_t)v;
			check_word(buf);
		}
	for (round = 0; round < 200000; round++) {
		for (i = 0; i < 16; i++) {
			state ^= state << 13;
			state ^= state >> 7;
			state ^= state << 17;
			/* Mostly continuation bytes: every length comes up. */
			buf[i] = (uint8_t)(state >> 24) | (state % 5 != 0 ? 0x80 : 0);
		}
		check_word(buf);
	}
}
END_TEST

/*
 * Varints of every length, 1 to 10 bytes, at either end of its range, as
 * event metadata ids, times and stat values: the fast reader joins up to
 * 8 bytes a word at a time, the unpacker a byte at a time.
 */
START_TEST(test_varint_lengths)
{
	struct enc space = { 0 }, plane = { 0 }, line = { 0 }, ev = { 0 },
	    st = { 0 };
	struct result fast, ref;
	uint64_t v[20];
	size_t i, n = 0;
	int len;

	for (len = 1; len <= 10; len++) {
		v[n++] = len == 1 ? 0 : (uint64_t)1 << (7 * (len - 1));
		v[n++] = len == 10 ? UINT64_MAX :
		    ((uint64_t)1 << (7 * len)) - 1;
	}
	enc_int(&plane, 1, 1);
	enc_str(&plane, 2, "/host:CPU");
	enc_int(&line, 1, 1);
	enc_int(&line, 3, 0);
	for (i = 0; i < n; i++) {
		/* Times past PS_LIMIT are refused: those wrap below it. */
		int64_t ps = (int64_t)(v[i] % ((uint64_t)1 << 61));

		enc_int(&ev, 1, (int64_t)v[i]);
		enc_int(&ev, 2, ps);
		enc_int(&ev, 3, ps);
		enc_int(&st, 1, 1);
		enc_tag(&st, 3, 0);
		enc_varint(&st, v[i]);
		enc_msg(&ev, 4, &st);
		enc_int_stat(&ev, 4, 1, (int64_t)v[i]);
		enc_msg(&line, 4, &ev);
	}
	enc_msg(&plane, 3, &line);
	enc_stat_meta(&plane, 1, "value");
	enc_msg(&space, 1, &plane);

	read_both_same("varints of every length", &space, &fast, &ref);
	/* 9 bytes as a time, 10 as a stat, 8 as an id. */
	want_line(fast.dump, "off=2305843009213693951 nocc=0 "
	    "dur=2305843009213693951 ");
	want_line(fast.dump, " u=18446744073709551615\n");
	want_line(fast.dump, " i=-1\n");
	want_line(fast.dump, "event md=72057594037927935 ");
	result_free(&fast);
	result_free(&ref);
	free(space.p);
}
END_TEST

START_TEST(test_tolerated)
{
	struct enc space = { 0 };
	struct result fast, ref;

	defects_space(&space);
	read_both_same("tolerated defects", &space, &fast, &ref);

	want_line(fast.dump, "space path=3:\"mem\" hostnames=2 2:\"h0\" "
	    "2:\"h1\" errors=1 8:\"an error\" warnings=1 9:\"a warning\" "
	    "nplanes=1\n");
	want_line(fast.dump, "plane id=5 name=13:\"/device:GPU:0\" nstats=1 "
	    "nlines=1 nmetas=3\n stat md=3 name=14:\"memcpy_details\" key=11 "
	    "kind=3 i=1\n");
	/* Packed and unpacked children; the last "12" entry wins. */
	want_line(fast.dump, " meta id=10 index=0 name=1:\"a\" "
	    "display=1:\"A\" metadata=2:\"\\x00\\x01\" nstats=1 "
	    "children=[11,300]\n  stat md=2 name=6:\"hlo_op\" key=8 kind=3 "
	    "i=7\n");
	want_line(fast.dump, " meta id=11 index=1 name=1:\"b\" "
	    "display=0:\"\" metadata=0:\"\" nstats=0 children=[13,14]\n");
	want_line(fast.dump, " meta id=12 index=2 name=3:\"new\" "
	    "display=0:\"\" metadata=0:\"\" nstats=0 children=[]\n");
	want_line(fast.dump, " meta id=0 index=3 name=0:\"\" display=0:\"\" "
	    "metadata=0:\"\" nstats=0 children=[]\n");
	want_line(fast.dump, "line id=1 display_id=9 name=7:\"XLA Ops\" "
	    "display=3:\"Ops\" ts=1000 dur=777 nevents=7\n");
	/* Stat id 1 is named by its last entry. */
	want_line(fast.dump, "event md=10 meta=0 name=1:\"a\" display=1:\"A\" "
	    "agg=0 off=5 nocc=0 dur=3 start=1000005 nstats=1\n"
	    " stat md=1 name=14:\"bytes_accessed\" key=1 kind=3 i=-4\n");
	/* Unknown event metadata: the empty entry, named "". */
	want_line(fast.dump, "event md=99 meta=3 name=0:\"\" display=0:\"\" "
	    "agg=0 off=6 nocc=0 dur=1 start=1000006 nstats=0\n");
	want_line(fast.dump, "event md=11 meta=1 name=1:\"b\" display=0:\"\" "
	    "agg=1 off=0 nocc=4 dur=2 start=1000000 nstats=0\n");
	/* Unknown stat metadata and ref target: named "", empty string. */
	want_line(fast.dump, "event md=12 meta=2 name=3:\"new\" "
	    "display=0:\"\" agg=0 off=8 nocc=0 dur=0 start=1000008 nstats=2\n"
	    " stat md=77 name=0:\"\" key=0 kind=3 i=1\n"
	    " stat md=2 name=6:\"hlo_op\" key=8 kind=6 ref=78 s=0:\"\"\n");
	want_line(fast.dump, "event md=10 meta=0 name=1:\"a\" display=1:\"A\" "
	    "agg=1 off=0 nocc=6 dur=0 start=1000000 nstats=0\n");
	want_line(fast.dump, "event md=10 meta=0 name=1:\"a\" display=1:\"A\" "
	    "agg=0 off=11 nocc=0 dur=0 start=1000011 nstats=0\n");
	want_line(fast.dump, "nstats=3\n"
	    " stat md=2 name=6:\"hlo_op\" key=8 kind=1 d=3fe0000000000000\n"
	    " stat md=2 name=6:\"hlo_op\" key=8 kind=4 s=3:\"s\\x22v\"\n"
	    " stat md=3 name=14:\"memcpy_details\" key=11 kind=6 ref=4 "
	    "s=6:\"size:8\"\n");
	want_line(fast.dump, "line_end id=1\nplane_end id=5\n"
	    "result rc=0 missing_event_metadata=1 missing_stat_metadata=2 ");
	ck_assert_uint_eq(fast.rs.missing_event_metadata, 1);
	ck_assert_uint_eq(fast.rs.missing_stat_metadata, 2);
	ck_assert_uint_eq(fast.rs.bytes, space.n);
	result_free(&fast);
	result_free(&ref);
	free(space.p);
}
END_TEST

/* ---- Stats read by key only ---- */

/*
 * A plane whose stats 5 and 6 have names without a key, 2 is hlo_op, 7
 * Memset_details, 4 a string for references, and 200 and 20000 are ids
 * of two and three bytes without a key; its one line holds ev (consumed).
 */
static void
keyed_space(struct enc *space, struct enc *ev)
{
	struct enc plane = { 0 }, line = { 0 }, meta = { 0 };

	enc_str(&plane, 2, "/device:GPU:0");
	enc_int(&line, 1, 1);
	enc_int(&line, 3, 1000);
	enc_msg(&line, 4, ev);
	enc_msg(&plane, 3, &line);
	enc_int(&meta, 1, 10);
	enc_str(&meta, 2, "k");
	enc_map_entry(&plane, 4, 10, &meta);
	enc_stat_meta(&plane, 2, "hlo_op");
	enc_stat_meta(&plane, 4, "size:8");
	enc_stat_meta(&plane, 5, "context_id");
	enc_stat_meta(&plane, 6, "occupancy");
	enc_stat_meta(&plane, 7, "Memset_details");
	enc_stat_meta(&plane, 8, "bytes_allocated");
	enc_stat_meta(&plane, 200, "wide");
	enc_stat_meta(&plane, 20000, "wider");
	enc_msg(space, 1, &plane);
}

/* A stat of raw bytes. */
static void
enc_raw_stat(struct enc *ev, const char *bytes, size_t n)
{
	enc_bytes(ev, 4, bytes, n);
}

/*
 * Left out are exactly the stats without a key in the usual form (a
 * one-byte id, then one value filling the rest); a stat in any other
 * form is decoded, so that what it hides is found: a missing name,
 * bytes that do not decode.
 */
START_TEST(test_keyed_stats_only)
{
	static const struct {
		const char	*what, *bytes;
		size_t		 len;
	} bad[] = {
		{ "truncated varint", "\x08\x05\x18\x80", 4 },
		{ "a byte after the value", "\x08\x05\x18\x01\x01", 5 },
		{ "string past its end", "\x08\x05\x2a\x05" "ab", 6 },
		{ "a byte after the string", "\x08\x06\x2a\x01" "ab", 6 },
		{ "truncated double", "\x08\x06\x11\x00\x00\x00", 6 },
		{ "two-byte id, no value", "\x08\xc8\x01\x18", 4 },
		{ "uint64 as fixed32", "\x08\x05\x1d\x00\x00\x00\x00", 7 },
		{ "reference as a string", "\x08\x05\x3a\x01" "a", 5 },
	};
	struct enc space = { 0 }, ev = { 0 }, st = { 0 };
	struct result all, keyed;
	struct source src;
	size_t i, all_unkeyed;

	enc_int(&ev, 1, 10);
	enc_int(&ev, 2, 1);
	/* The usual form: left out. */
	enc_raw_stat(&ev, "\x08\x05\x18\x07", 4);	/* uint64 */
	enc_int_stat(&ev, 4, 5, -1);			/* int64 of 10 bytes */
	enc_int(&st, 1, 6);
	enc_double(&st, 2, 0.25);
	enc_msg(&ev, 4, &st);
	enc_raw_stat(&ev, "\x08\x06\x2a\x03" "abc", 7);	/* string */
	enc_raw_stat(&ev, "\x08\x06\x32\x00", 4);	/* empty bytes */
	enc_raw_stat(&ev, "\x08\x05\x38\x04", 4);	/* reference, to 4 */
	enc_int_stat(&ev, 4, 200, 1);			/* two-byte id */
	enc_int_stat(&ev, 4, 2, 7);			/* hlo_op: kept */
	/* Other forms: decoded. */
	enc_raw_stat(&ev, "\x08\x05\x38\x4e", 4);	/* reference to 78 */
	enc_int_stat(&ev, 4, 20000, 1);			/* three-byte id */
	enc_raw_stat(&ev, "\x18\x01\x08\x05", 4);	/* value first */
	enc_raw_stat(&ev, "\x08\x05\x08\x05\x18\x03", 6);	/* id twice */
	enc_int_stat(&ev, 4, 77, 1);			/* no such id */
	keyed_space(&space, &ev);
	memset(&src, 0, sizeof src);
	src.data = space.p;
	src.size = space.n;
	keyed_view = 1;
	read_fast(&src, "mem", &all);
	all_unkeyed = nunkeyed_seen;
	read_keyed(&src, "mem", &keyed);
	keyed_view = 0;
	ck_assert_msg(all.rc == 0, "%s", all.cause);
	assert_same_result("keyed", "keyed", &keyed, &all);
	ck_assert_uint_eq(all_unkeyed, 12);
	ck_assert_uint_eq(nunkeyed_seen, 5);
	ck_assert_uint_eq(keyed.rs.missing_stat_metadata, 2);
	want_line(keyed.dump, "nstats=1\n stat md=2 name=6:\"hlo_op\" key=8 "
	    "kind=3 i=7\nline_end id=1\n");
	result_free(&all);
	result_free(&keyed);
	free(space.p);
	memset(&space, 0, sizeof space);

	/* Memset_details has a key: the classifier reads its num_bytes. */
	enc_int(&ev, 1, 10);
	enc_raw_stat(&ev, "\x08\x07\x38\x04", 4);
	keyed_space(&space, &ev);
	src.data = space.p;
	src.size = space.n;
	read_keyed(&src, "mem", &keyed);
	want_line(keyed.dump, "nstats=1\n stat md=7 name=14:\"Memset_details\" "
	    "key=12 kind=6 ref=4 s=6:\"size:8\"\nline_end id=1\n");
	result_free(&keyed);
	free(space.p);
	memset(&space, 0, sizeof space);

	/* An allocator's stat: left out unless the handler reads them. */
	enc_int(&ev, 1, 10);
	enc_int_stat(&ev, 4, 8, 4096);
	keyed_space(&space, &ev);
	src.data = space.p;
	src.size = space.n;
	read_keyed(&src, "mem", &keyed);
	want_line(keyed.dump, "nstats=0\nline_end id=1\n");
	result_free(&keyed);
	keyed_memory = 1;
	keyed_view = 1;
	read_keyed(&src, "mem", &keyed);
	keyed_view = 0;
	keyed_memory = 0;
	want_line(keyed.dump, "nstats=1\n stat md=8 "
	    "name=15:\"bytes_allocated\" key=22 kind=3 i=4096\n"
	    "line_end id=1\n");
	result_free(&keyed);
	free(space.p);
	memset(&space, 0, sizeof space);

	/* Bytes that do not decode fail the same, read by key or not. */
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct result fast;

		enc_int(&ev, 1, 10);
		enc_raw_stat(&ev, bad[i].bytes, bad[i].len);
		keyed_space(&space, &ev);
		src.data = space.p;
		src.size = space.n;
		read_fast(&src, "mem", &fast);
		ck_assert_msg(fast.rc == -1 && strstr(fast.cause, "XStat"),
		    "%s: %d %s", bad[i].what, fast.rc,
		    fast.cause ? fast.cause : "");
		assert_keyed_same(bad[i].what, &src, "mem");
		result_free(&fast);
		free(space.p);
		memset(&space, 0, sizeof space);
	}
}
END_TEST

/* A callback's non-zero value stops both readers and is returned. */
static int
stop_at_event(void *ctx, const struct pf_plane *p, const struct pf_line *l,
    const struct pf_event *e)
{
	int *n = ctx;

	(void)p;
	(void)l;
	(void)e;
	return ++*n == 1 ? 42 : 0;
}

START_TEST(test_callback_stops)
{
	struct enc space = { 0 };
	struct pf_read_stats rs;
	struct pf_handler h;
	struct source src;
	char *cause = NULL;
	int n = 0;

	defects_space(&space);
	memset(&h, 0, sizeof h);
	h.ctx = &n;
	h.event = stop_at_event;
	memset(&src, 0, sizeof src);
	src.data = space.p;
	src.size = space.n;
	ck_assert_int_eq(xplane_read(&src, "mem", &h, &rs, &cause), 42);
	ck_assert_int_eq(n, 1);
	ck_assert_ptr_null(cause);
	n = 0;
	ck_assert_int_eq(xplane_read_unpacked(space.p, space.n, "mem", &h,
	    &rs, &cause), 42);
	ck_assert_int_eq(n, 1);
	ck_assert_ptr_null(cause);
	free(space.p);
}
END_TEST

/*
 * A long line's events decoded ahead by a helping thread (xspace_help())
 * come to the handler as the plane's own thread decodes them: the same
 * stream, stats and errors as xplane_read() on one thread.
 */

/* A plane of two lines of n events (one with a stat per 100), bad at bad. */
static void
long_line_space(struct enc *space, size_t n, size_t bad)
{
	struct enc plane = { 0 }, meta = { 0 };
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		struct enc line = { 0 };

		enc_int(&line, 1, k);
		enc_str(&line, 2, k == 0 ? "python3" : "XLA Ops");
		enc_int(&line, 3, 1000);
		for (i = 0; i < n; i++) {
			struct enc ev = { 0 };

			enc_int(&ev, 1, i % 7 == 0 ? 9 : 1);
			enc_int(&ev, 2, (int64_t)i * 1000);
			enc_int(&ev, 3, i == bad && k == 1 ? -5 : 500);
			if (i % 100 == 0)
				enc_int_stat(&ev, 4, 1, (int64_t)i);
			enc_msg(&line, 4, &ev);
		}
		enc_msg(&plane, 3, &line);
	}
	enc_int(&plane, 1, 3);
	enc_str(&plane, 2, "/host:CPU");
	enc_int(&meta, 1, 1);
	enc_str(&meta, 2, "frame");
	enc_map_entry(&plane, 4, 1, &meta);
	enc_stat_meta(&plane, 1, "step_num");
	enc_msg(space, 1, &plane);
}

struct helped {
	const struct xspace *xs;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 started;
	size_t		 segments;	/* xspace_help()'s */
};

static void *
help_thread(void *arg)
{
	struct helped *hp = arg;

	pthread_mutex_lock(&hp->mu);
	/* Not before the plane is being read: it would return at once. */
	while (!hp->started)
		pthread_cond_wait(&hp->cv, &hp->mu);
	pthread_mutex_unlock(&hp->mu);
	hp->segments = xspace_help(hp->xs);
	return NULL;
}

static struct helped *the_helped;
static int (*inner_event)(void *, const struct pf_plane *,
    const struct pf_line *, const struct pf_event *);

/* The dump's event callback, letting the helper go and waiting on it. */
static int
slow_event(void *ctx, const struct pf_plane *p, const struct pf_line *l,
    const struct pf_event *e)
{
	static const struct timespec pause = { 0, 2000000 };

	if (e->offset_ps == 0) {
		pthread_mutex_lock(&the_helped->mu);
		the_helped->started = 1;
		pthread_cond_broadcast(&the_helped->cv);
		pthread_mutex_unlock(&the_helped->mu);
	}
	/* A slow classifier: the helper gets ahead. */
	if (e->offset_ps % (4096 * 1000) == 0)
		nanosleep(&pause, NULL);
	return inner_event(ctx, p, l, e);
}

/* The stream of the XSpace in data, its planes read beside a helper. */
static void
read_helped(const uint8_t *data, size_t size, struct result *r,
    size_t *segments)
{
	struct helped hp;
	struct pf_handler h;
	struct source src;
	struct xspace *xs;
	pthread_t t;
	size_t i;
	FILE *fp = dump_open(r, &h);

	memset(&src, 0, sizeof src);
	src.data = data;
	src.size = size;
	r->rs.bytes = size;
	ck_assert_int_eq(xspace_open(&src, "mem", &xs, &r->cause), 0);
	memset(&hp, 0, sizeof hp);
	hp.xs = xs;
	pthread_mutex_init(&hp.mu, NULL);
	pthread_cond_init(&hp.cv, NULL);
	the_helped = &hp;
	inner_event = h.event;
	h.event = slow_event;
	ck_assert_int_eq(pthread_create(&t, NULL, help_thread, &hp), 0);
	r->rc = xspace_read_space(xs, &h);
	for (i = 0; r->rc == 0 && i < xspace_nplanes(xs); i++)
		r->rc = xspace_read_plane(xs, i, &h, &r->rs, &r->cause);
	/* A read that failed before any event: the helper goes anyway. */
	pthread_mutex_lock(&hp.mu);
	hp.started = 1;
	pthread_cond_broadcast(&hp.cv);
	pthread_mutex_unlock(&hp.mu);
	pthread_join(t, NULL);
	*segments = hp.segments;
	pthread_cond_destroy(&hp.cv);
	pthread_mutex_destroy(&hp.mu);
	xspace_free(xs);
	dump_close(fp, r);
}

START_TEST(test_helped_long_lines)
{
	/* Whole, and bad in the XLA Ops line's fourth segment. */
	static const size_t bads[] = { SIZE_MAX, 3 * 4096 + 3 };
	size_t b, segments;

	for (b = 0; b < sizeof bads / sizeof bads[0]; b++) {
		struct enc space = { 0 };
		struct result helped, plain, ref;

		long_line_space(&space, 4 * 4096 + 17, bads[b]);
		read_fast_mem(space.p, space.n, &plain);
		read_unpacked(space.p, space.n, "mem", &ref);
		read_helped(space.p, space.n, &helped, &segments);
		ck_assert_int_eq(plain.rc, bads[b] == SIZE_MAX ? 0 : -1);
		if (bads[b] != SIZE_MAX)
			ck_assert_msg(strstr(plain.cause, "impossible "
			    "duration_ps -5") != NULL, "cause: %s",
			    plain.cause);
		assert_same_result("long lines", "helped", &helped, &plain);
		/* The plane's thread waited: the helper decoded some. */
		ck_assert_uint_gt(segments, 0);
		if (bads[b] == SIZE_MAX)
			assert_same_dump("long lines", &plain, &ref);
		result_free(&helped);
		result_free(&plain);
		result_free(&ref);
		free(space.p);
	}
}
END_TEST

Suite *
suite_xplane(void)
{
	Suite *s = suite_create("xplane");
	TCase *tc = tcase_create("differential");

	tcase_add_test(tc, test_differential_testdata);
	tcase_add_test(tc, test_differential_corpus);
	tcase_add_test(tc, test_differential_generated);
	tcase_add_test(tc, test_skip);
	suite_add_tcase(s, tc);
	tc = tcase_create("truncated");
	tcase_add_test(tc, test_truncated);
	suite_add_tcase(s, tc);
	tc = tcase_create("corrupt");
	tcase_add_loop_test(tc, test_corrupt, 0,
	    (int)(sizeof corrupt_cases / sizeof corrupt_cases[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("tolerated");
	tcase_add_test(tc, test_tolerated);
	tcase_add_test(tc, test_varint_lengths);
	tcase_add_test(tc, test_varint_word);
	tcase_add_test(tc, test_callback_stops);
	tcase_add_test(tc, test_keyed_stats_only);
	suite_add_tcase(s, tc);
	/* Threads on a busy machine: more than the default time. */
	tc = tcase_create("helped");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_helped_long_lines);
	suite_add_tcase(s, tc);
	return s;
}
