/*
 * The SQLite index: a refresh stores what the profiles hold, re-reads only
 * files that changed, forgets deleted and unreadable ones, rebuilds an
 * index of another schema version and refuses a database that is not one.
 * A file stored in two halves (its HLO while its planes are read) ends as
 * one stored at once, or not at all.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check_suites.h"
#include "load/discover.h"
#include "index/index.h"
#include "index/index-rows.h"
#include "index/index-write.h"
#include "index/index.h"
#include "index/index-schema.h"
#include "load/formats.h"
#include "read/read-hlo.h"
#include "classify/transfer-totals.h"
#include "lib/xmalloc.h"

static char	*tmp;			/* the fixture's folder */
static char	 prof[PATH_MAX];	/* tmp/a: the profile tree */
static char	 file_a[PATH_MAX];	/* run 00: the MLP training */
static char	 file_b[PATH_MAX];	/* run 01: inference */
static char	 db_path[PATH_MAX];

static void
copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = test_slurp(from, &len);

	test_spew(to, data, len);
	free(data);
}

static void
setup(void)
{
	const char *td = test_env("TESTDATA");
	char src[PATH_MAX], real[PATH_MAX];

	ck_assert_msg(td != NULL, "TESTDATA is not set");
	tmp = test_mkdtemp();
	ck_assert_ptr_nonnull(realpath(tmp, real));
	test_fmt(prof, sizeof prof, "%s/a", real);
	test_fmt(file_a, sizeof file_a, "%s/plugins/profile/"
	    "2026_01_01_00_00_00/testhost.xplane.pb", prof);
	test_fmt(file_b, sizeof file_b, "%s/plugins/profile/"
	    "2026_01_01_00_00_01/testhost.xplane.pb", prof);
	test_fmt(db_path, sizeof db_path, "%s/index.sqlite", real);
	test_fmt(src, sizeof src, "%s/jax-mlp/plugins/profile/"
	    "2026_01_01_00_00_00/testhost.xplane.pb", td);
	copy_file(src, file_a);
	test_fmt(src, sizeof src, "%s/jax-mlp/plugins/profile/"
	    "2026_01_01_00_00_01/testhost.xplane.pb", td);
	copy_file(src, file_b);
}

static void
teardown(void)
{
	test_rmtree(tmp);
	free(tmp);
	tmp = NULL;
}

/* One integer from a query with optional text parameters (NULL ends). */
static int64_t
q_int(struct index *ix, const char *sql, ...)
{
	sqlite3 *db = index_db(ix);
	sqlite3_stmt *st;
	const char *arg;
	int64_t v = INT64_MIN;
	va_list ap;
	int i = 1;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK,
	    "%s: %s", sql, sqlite3_errmsg(db));
	va_start(ap, sql);
	while ((arg = va_arg(ap, const char *)) != NULL)
		sqlite3_bind_text(st, i++, arg, -1, SQLITE_TRANSIENT);
	va_end(ap);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void
q_exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK,
	    "%s: %s", sql, msg);
}

static const char *const per_file_tables[] = {
	"planes", "ops", "kernels", "modules", "steps", "compiles", "transfers",
	"compile_phases", "executions", "gaps", "host_events", "scopes",
	"programs", "hlo_instructions", "transfer_totals",
	"step_collectives", "step_annotations",
};

/* Rows of table that belong to the file at path. */
static int64_t
rows_of(struct index *ix, const char *table, const char *path)
{
	char sql[256];

	test_fmt(sql, sizeof sql, "SELECT count(*) FROM %s WHERE file_id = "
	    "(SELECT id FROM files WHERE path = ?)", table);
	return q_int(ix, sql, path, (char *)NULL);
}

/* No rows anywhere for a file id that is not in files. */
static void
assert_no_orphans(struct index *ix)
{
	char sql[256];
	size_t i;

	for (i = 0; i < sizeof per_file_tables / sizeof per_file_tables[0];
	    i++) {
		test_fmt(sql, sizeof sql, "SELECT count(*) FROM %s WHERE "
		    "file_id NOT IN (SELECT id FROM files)",
		    per_file_tables[i]);
		ck_assert_msg(q_int(ix, sql, (char *)NULL) == 0,
		    "%s has rows of a file that is gone", per_file_tables[i]);
	}
}

static int64_t
file_id(struct index *ix, const char *path)
{
	return q_int(ix, "SELECT id FROM files WHERE path = ?", path,
	    (char *)NULL);
}

static int64_t
indexed_at(struct index *ix, const char *path)
{
	return q_int(ix, "SELECT indexed_at FROM files WHERE path = ?", path,
	    (char *)NULL);
}

/* Discovers the tree again and refreshes the index with it. */
static int
refresh(struct index *ix)
{
	struct found f;
	char *cause = NULL;
	int r;

	found_init(&f);
	ck_assert_msg(discover(&f, prof, &cause) == 0, "%s", cause);
	found_finish(&f);
	r = index_refresh(ix, &f);
	found_release(&f);
	return r;
}

static void
set_mtime(const char *path, time_t sec)
{
	struct timespec ts[2] = { { sec, 0 }, { sec, 0 } };

	ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

START_TEST(test_refresh)
{
	struct index *ix;
	char *cause = NULL;
	int64_t id_a, ops_b;
	size_t i;

	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_msg(index_want_events(ix, &cause) == 0, "%s", cause);
	ck_assert_int_eq(refresh(ix), 0);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 2);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM selected", NULL), 2);
	ck_assert_int_gt(rows_of(ix, "ops", file_a), 0);
	ck_assert_int_gt(rows_of(ix, "ops", file_b), 0);
	ck_assert_int_gt(rows_of(ix, "planes", file_a), 0);
	ck_assert_int_eq(rows_of(ix, "steps", file_a), 6);
	ck_assert_int_eq(rows_of(ix, "compiles", file_a), 3);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files WHERE path = ? "
	    "AND kind = 'xplane' AND host = 'testhost' AND op_source = "
	    "'host-xla' AND run = '2026_01_01_00_00_00' AND events > 0",
	    file_a, (char *)NULL), 1);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM ops WHERE module "
	    "NOT IN ('jit_train_step', 'jit_normalize') AND file_id = "
	    "(SELECT id FROM files WHERE path = ?)", file_a, (char *)NULL),
	    0);

	/* Unchanged files are not read again: the marks stay. */
	q_exec(index_db(ix), "UPDATE files SET indexed_at = -1");
	id_a = file_id(ix, file_a);
	ops_b = rows_of(ix, "ops", file_b);
	ck_assert_int_eq(refresh(ix), 0);
	ck_assert_int_eq(indexed_at(ix, file_a), -1);
	ck_assert_int_eq(indexed_at(ix, file_b), -1);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM selected", NULL), 2);

	/* A new mtime: that file alone is read again. */
	set_mtime(file_b, 1000000000);
	ck_assert_int_eq(refresh(ix), 0);
	ck_assert_int_eq(indexed_at(ix, file_a), -1);
	ck_assert_int_eq(file_id(ix, file_a), id_a);
	ck_assert_int_gt(indexed_at(ix, file_b), 0);
	ck_assert_int_eq(q_int(ix, "SELECT mtime_ns FROM files WHERE "
	    "path = ?", file_b, (char *)NULL), 1000000000 * INT64_C(1000000000));
	ck_assert_int_eq(rows_of(ix, "ops", file_b), ops_b);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 2);
	assert_no_orphans(ix);

	/* A deleted file: its rows go. */
	ck_assert_int_eq(unlink(file_b), 0);
	ck_assert_int_eq(refresh(ix), 0);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 1);
	ck_assert_int_eq(file_id(ix, file_a), id_a);
	ck_assert_int_eq(indexed_at(ix, file_a), -1);
	assert_no_orphans(ix);

	/* A file that became unreadable: one bad file, no rows for it. */
	test_spew(file_a, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff",
	    12);
	set_mtime(file_a, 1100000000);
	ck_assert_int_eq(refresh(ix), 1);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 0);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM selected", NULL), 0);
	for (i = 0; i < sizeof per_file_tables / sizeof per_file_tables[0];
	    i++) {
		char sql[64];

		test_fmt(sql, sizeof sql, "SELECT count(*) FROM %s",
		    per_file_tables[i]);
		ck_assert_int_eq(q_int(ix, sql, NULL), 0);
	}
	index_close(ix);
}
END_TEST

/*
 * Every row of the file at path, as text, but for the ids a new store
 * renumbers (the file's, its planes' and compiles') and its times.
 */
static char *
file_dump(struct index *ix, const char *path)
{
	sqlite3 *db = index_db(ix);
	char *out = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	for (i = 0; i <= sizeof per_file_tables / sizeof per_file_tables[0];
	    i++) {
		const char *table = i == 0 ? "files" : per_file_tables[i - 1];
		sqlite3_stmt *st;
		char sql[256];

		test_fmt(sql, sizeof sql, "SELECT * FROM %s WHERE %s = (SELECT "
		    "id FROM files WHERE path = ?) ORDER BY rowid", table,
		    i == 0 ? "id" : "file_id");
		ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL),
		    SQLITE_OK);
		sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
		fprintf(f, "%s:\n", table);
		while (sqlite3_step(st) == SQLITE_ROW) {
			int c;

			for (c = 0; c < sqlite3_column_count(st); c++) {
				const char *name = sqlite3_column_name(st, c);
				const unsigned char *v =
				    sqlite3_column_text(st, c);

				if (strcmp(name, "id") == 0 ||
				    strcmp(name, "file_id") == 0 ||
				    strcmp(name, "plane") == 0 ||
				    strcmp(name, "compile") == 0 ||
				    strcmp(name, "mtime_ns") == 0 ||
				    strcmp(name, "indexed_at") == 0)
					continue;
				fprintf(f, "%s|", v != NULL ?
				    (const char *)v : "NULL");
			}
			fputc('\n', f);
		}
		sqlite3_finalize(st);
	}
	ck_assert_int_eq(fclose(f), 0);
	return out;
}

/* What load hooks were told, and whether the set could be read then. */
struct told {
	const struct hlo_set *hlo;
	size_t		 ninstrs;
	int		 read, gone;
};

static void
told_read(void *ctx, const struct hlo_set *hlo)
{
	struct told *t = ctx;
	size_t i;

	t->read++;
	t->hlo = hlo;
	for (i = 0; i < hlo_set_count(hlo); i++)
		t->ninstrs += hlo_set_module(hlo, i)->ninstrs;
}

static void
told_gone(void *ctx)
{
	struct told *t = ctx;

	ck_assert_int_eq(t->read, 1);
	t->gone++;
}

/*
 * The file at path of host as discovery finds it, but changed: not
 * current in the index.
 */
static void
changed_file(struct found_file *ff, char *path, const char *host)
{
	struct stat sb;

	ck_assert_int_eq(stat(path, &sb), 0);
	memset(ff, 0, sizeof *ff);
	ff->path = path;
	ff->kind = KIND_XPLANE;
	ff->run = (char *)"2026_01_01_00_00_00";
	ff->host = (char *)host;
	ff->size = sb.st_size;
	ff->mtime_ns = 1;
}

/*
 * Line number `which` of path's /host:CPU plane starts with field number
 * 0: its HLO (/host:metadata) and the lines before are read, then its
 * planes fail.
 */
static void
break_host_line(const char *path, size_t which)
{
	size_t len, i = 0;
	unsigned char *b = (unsigned char *)test_slurp(path, &len);
	int broken = 0;

	/* XSpace.planes (field 1), each XPlane's name (2) and lines (3). */
	while (i < len && !broken) {
		size_t n, end, line = 0, nlines = 0, j;
		const unsigned char *name = NULL;
		uint64_t v = 0;
		int shift = 0, key = b[i++];

		ck_assert_int_eq(key & 7, 2);
		do
			v |= (uint64_t)(b[i] & 0x7f) << shift, shift += 7;
		while (b[i++] & 0x80);
		n = (size_t)v, end = i + n;
		for (j = i; key == 0x0a && j < end; ) {
			int pkey = b[j++], w = pkey & 7;

			for (v = 0, shift = 0; ; shift += 7) {
				v |= (uint64_t)(b[j] & 0x7f) << shift;
				if (!(b[j++] & 0x80))
					break;
			}
			if (w != 2)
				continue;
			if (pkey == 0x12 && v == 9)
				name = b + j;
			if (pkey == 0x1a && nlines++ == which)
				line = j;
			j += (size_t)v;
		}
		if (name != NULL && memcmp(name, "/host:CPU", 9) == 0 &&
		    line != 0) {
			b[line] = 0x07;
			broken = 1;
		}
		i = end;
	}
	ck_assert(broken);
	test_spew(path, b, len);
	free(b);
}

START_TEST(test_store_halves)
{
	struct load_hooks hooks = { told_read, told_gone, NULL, NULL, 0 };
	struct file_summary fs;
	struct file_store fst;
	struct found_file ff;
	struct told told;
	struct index *ix;
	char *cause = NULL, *stored, *halves;
	sqlite3_int64 id;
	int64_t old_id;
	size_t i;

	/* A load tells its HLO before its planes: the set it keeps. */
	memset(&told, 0, sizeof told);
	hooks.ctx = &told;
	ck_assert_msg(load_file(file_a, KIND_XPLANE, 2, &hooks, &fs,
	    &cause) == 0, "%s", cause);
	ck_assert_int_eq(told.read, 1);
	ck_assert_int_eq(told.gone, 0);
	ck_assert_ptr_eq(told.hlo, fs.hlo);
	ck_assert_uint_gt(told.ninstrs, 0);

	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_msg(index_want_events(ix, &cause) == 0, "%s", cause);
	ck_assert_int_eq(refresh(ix), 0);
	old_id = file_id(ix, file_a);
	stored = file_dump(ix, file_a);
	ck_assert_int_eq(rows_of(ix, "hlo_instructions", file_a),
	    (int64_t)told.ninstrs);

	/* Begun, then abandoned: the file as it was. */
	changed_file(&ff, file_a, "testhost");
	q_exec(index_db(ix), "BEGIN");
	ck_assert_msg(index_store_begin(ix, &ff, fs.hlo, &fst, &cause) == 0,
	    "%s", cause);
	ck_assert_int_ne(file_id(ix, file_a), old_id);
	ck_assert_int_eq(rows_of(ix, "hlo_instructions", file_a),
	    (int64_t)told.ninstrs);
	ck_assert_int_eq(rows_of(ix, "planes", file_a), 0);
	index_store_abandon(ix, &fst);
	q_exec(index_db(ix), "COMMIT");
	ck_assert_int_eq(file_id(ix, file_a), old_id);
	halves = file_dump(ix, file_a);
	ck_assert_str_eq(halves, stored);
	free(halves);

	/* Begun and finished: the same rows as stored at once. */
	q_exec(index_db(ix), "BEGIN");
	ck_assert_msg(index_store_begin(ix, &ff, fs.hlo, &fst, &cause) == 0,
	    "%s", cause);
	ck_assert_msg(index_store_finish(ix, &fst, &fs, &id, &cause) == 0,
	    "%s", cause);
	q_exec(index_db(ix), "COMMIT");
	ck_assert_int_eq(id, file_id(ix, file_a));
	ck_assert_int_ne(id, old_id);
	halves = file_dump(ix, file_a);
	ck_assert_str_eq(halves, stored);
	free(halves);
	free(stored);
	file_summary_release(&fs);

	/* Its planes fail after its HLO was told: gone, and no rows of it. */
	break_host_line(file_a, 0);
	set_mtime(file_a, 1200000000);
	memset(&told, 0, sizeof told);
	ck_assert_int_eq(load_file(file_a, KIND_XPLANE, 2, &hooks, &fs,
	    &cause), -1);
	ck_assert_msg(strstr(cause, "in XLine") != NULL, "%s", cause);
	free(cause);
	ck_assert_int_eq(told.read, 1);
	ck_assert_int_eq(told.gone, 1);
	ck_assert_int_eq(refresh(ix), 1);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 1);
	for (i = 0; i < sizeof per_file_tables / sizeof per_file_tables[0];
	    i++)
		ck_assert_int_eq(rows_of(ix, per_file_tables[i], file_a), 0);
	assert_no_orphans(ix);
	index_close(ix);
}
END_TEST

/* Host events given by a load (load_hooks.host_events), in order. */
struct given {
	struct told	 told;		/* first: the HLO hooks' too */
	struct host_event_batch *first, **end;
	size_t		 nbatches, nrows;
};

static void
given_batch(void *ctx, struct host_event_batch *b)
{
	struct given *g = ctx;

	ck_assert_uint_gt(b->nrows, 0);
	ck_assert_uint_le(b->nrows, HOST_EVENT_BATCH);
	b->next = NULL;
	*g->end = b;
	g->end = &b->next;
	g->nbatches++;
	g->nrows += b->nrows;
}

static void
given_free(struct given *g)
{
	host_event_batches_free(g->first);
	g->first = NULL;
	g->end = &g->first;
}

/*
 * path loaded twice: streamed, its long host events given to g by hooks,
 * and kept whole, its planes read on kept_threads.
 */
static void
load_given_and_kept(const char *path, struct load_hooks *hooks,
    struct given *g, struct file_summary *streamed, int kept_threads,
    struct file_summary *kept)
{
	char *cause = NULL;

	memset(g, 0, sizeof *g);
	g->end = &g->first;
	hooks->ctx = g;
	ck_assert_msg(load_file(path, KIND_XPLANE, 2, hooks, streamed,
	    &cause) == 0, "%s", cause);
	ck_assert_msg(load_file(path, KIND_XPLANE, kept_threads, NULL, kept,
	    &cause) == 0, "%s", cause);
}

/* fs stored at once as the file ff, in a transaction of its own. */
static void
store_at_once(struct index *ix, const struct found_file *ff,
    const struct file_summary *fs)
{
	sqlite3_int64 id;
	char *cause = NULL;

	q_exec(index_db(ix), "BEGIN");
	ck_assert_msg(index_store_file(ix, ff, fs, &id, &cause) == 0, "%s",
	    cause);
	q_exec(index_db(ix), "COMMIT");
}

/* The file's host events, each with the name of the plane it names. */
static char *
host_events_dump(struct index *ix, const char *path)
{
	sqlite3 *db = index_db(ix);
	sqlite3_stmt *st;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT coalesce(p.name, "
	    "'none'), h.line, h.name, h.depth, h.start_ps, h.dur_ps "
	    "FROM host_events h LEFT JOIN planes p ON p.id = h.plane AND "
	    "p.file_id = h.file_id WHERE h.file_id = (SELECT id FROM files "
	    "WHERE path = ?) ORDER BY h.rowid", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		fprintf(f, "%s|%s|%s|%lld|%lld|%lld\n",
		    sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		    sqlite3_column_text(st, 2),
		    (long long)sqlite3_column_int64(st, 3),
		    (long long)sqlite3_column_int64(st, 4),
		    (long long)sqlite3_column_int64(st, 5));
	sqlite3_finalize(st);
	ck_assert_int_eq(fclose(f), 0);
	return out;
}

/*
 * Appends a copy of path's /host:CPU plane named /host:CPX: a second host
 * plane of long events, after the first in file order.
 */
static void
copy_host_plane(const char *path)
{
	size_t len, i = 0, copied = 0;
	unsigned char *b = (unsigned char *)test_slurp(path, &len), *out;

	out = malloc(2 * len);
	ck_assert_ptr_nonnull(out);
	memcpy(out, b, len);
	while (i < len) {
		size_t start = i, end, j;
		uint64_t v = 0;
		int shift = 0, key = b[i++];

		ck_assert_int_eq(key & 7, 2);
		do
			v |= (uint64_t)(b[i] & 0x7f) << shift, shift += 7;
		while (b[i++] & 0x80);
		end = i + (size_t)v;
		for (j = i; key == 0x0a && j + 11 < end; j++)
			if (memcmp(b + j, "\x12\x09/host:CPU", 11) == 0) {
				memcpy(out + len, b + start, end - start);
				out[len + (j - start) + 10] = 'X';
				copied = end - start;
				break;
			}
		i = end;
	}
	ck_assert_uint_gt(copied, 0);
	test_spew(path, out, len + copied);
	free(out);
	free(b);
}

/*
 * A host plane's long host events, given in batches while it is read and
 * stored ahead of the rest of the file, make the same tables as the
 * summary stored at once; a plane that fails after some were given
 * leaves no rows.
 */
START_TEST(test_host_events_ahead)
{
	struct load_hooks hooks = { told_read, told_gone, given_batch, NULL,
	    0 };
	struct file_summary kept, streamed;
	struct file_store fst;
	struct found_file ff;
	struct host_event_batch *b;
	struct given given;
	struct index *ix;
	char *cause = NULL, *path, *refreshed, *whole, *ahead;
	char *events_whole, *events_ahead;
	sqlite3_int64 id;
	size_t i, nkept = 0;

	/* 2,100 steps: over two batches of long events on /host:CPU. */
	path = test_gen_profile(prof, "--steps=2100 --ops=1 --devices=1", 0);
	load_given_and_kept(path, &hooks, &given, &streamed, 2, &kept);
	for (i = 0; i < kept.nplanes; i++) {
		nkept += kept.planes[i].nhost_events;
		ck_assert_uint_eq(streamed.planes[i].nhost_events, 0);
	}
	ck_assert_uint_gt(given.nbatches, 2);
	ck_assert_uint_eq(given.nrows, nkept);
	for (b = given.first; b->next != NULL; b = b->next)
		ck_assert_uint_le(b->plane, b->next->plane);

	/* At once, then again in halves with the host events ahead. */
	changed_file(&ff, path, "host0");
	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_msg(index_want_events(ix, &cause) == 0, "%s", cause);
	ck_assert_int_eq(refresh(ix), 0);	/* as jaxprof stores it */
	refreshed = file_dump(ix, path);
	events_ahead = host_events_dump(ix, path);
	ck_assert_int_eq(rows_of(ix, "host_events", path), (int64_t)nkept);
	store_at_once(ix, &ff, &kept);
	whole = file_dump(ix, path);
	events_whole = host_events_dump(ix, path);
	ck_assert_msg(strcmp(refreshed, whole) == 0 &&
	    strcmp(events_ahead, events_whole) == 0,
	    "stored while read: not the rows stored at once");
	free(refreshed);
	free(events_ahead);

	ff.mtime_ns = 2;
	q_exec(index_db(ix), "BEGIN");
	ck_assert_msg(index_store_begin(ix, &ff, streamed.hlo, &fst,
	    &cause) == 0, "%s", cause);
	for (b = given.first; b != NULL; b = b->next)
		ck_assert_msg(index_store_host_events(ix, &fst, b,
		    &cause) == 0, "%s", cause);
	ck_assert_msg(index_store_finish(ix, &fst, &streamed, &id,
	    &cause) == 0, "%s", cause);
	q_exec(index_db(ix), "COMMIT");
	ahead = file_dump(ix, path);
	events_ahead = host_events_dump(ix, path);
	ck_assert_msg(strcmp(ahead, whole) == 0,
	    "stored ahead: not the rows stored at once");
	ck_assert_msg(strcmp(events_ahead, events_whole) == 0,
	    "stored ahead: host events name other planes");
	ck_assert_ptr_null(strstr(events_ahead, "none|"));
	free(ahead);
	free(events_ahead);

	/* Begun, some stored ahead, abandoned: the file as it was. */
	ff.mtime_ns = 3;
	q_exec(index_db(ix), "BEGIN");
	ck_assert_msg(index_store_begin(ix, &ff, streamed.hlo, &fst,
	    &cause) == 0, "%s", cause);
	ck_assert_msg(index_store_host_events(ix, &fst, given.first,
	    &cause) == 0, "%s", cause);
	index_store_abandon(ix, &fst);
	q_exec(index_db(ix), "COMMIT");
	ahead = file_dump(ix, path);
	ck_assert_msg(strcmp(ahead, whole) == 0,
	    "abandoned: the file not as it was");
	free(ahead);
	free(whole);
	free(events_whole);
	given_free(&given);
	file_summary_release(&kept);
	file_summary_release(&streamed);

	/* Its second line fails after the first's events were given. */
	break_host_line(path, 1);
	given.nbatches = given.nrows = 0;
	ck_assert_int_eq(load_file(path, KIND_XPLANE, 2, &hooks, &kept,
	    &cause), -1);
	ck_assert_msg(strstr(cause, "in XLine") != NULL, "%s", cause);
	free(cause);
	ck_assert_uint_gt(given.nbatches, 0);
	given_free(&given);
	set_mtime(path, 1200000000);
	ck_assert_int_eq(refresh(ix), 1);
	for (i = 0; i < sizeof per_file_tables / sizeof per_file_tables[0];
	    i++)
		ck_assert_int_eq(rows_of(ix, per_file_tables[i], path), 0);
	assert_no_orphans(ix);
	index_close(ix);
	free(path);
}
END_TEST

/*
 * Two host planes read at once: their batches still come in file order,
 * and make the same tables as the summary stored at once.
 */
START_TEST(test_host_events_two_planes)
{
	struct load_hooks hooks = { told_read, told_gone, given_batch, NULL,
	    0 };
	struct file_summary kept, streamed;
	struct host_event_batch *b;
	struct found_file ff;
	struct given given;
	struct index *ix;
	char *cause = NULL, *path, *whole, *ahead;
	size_t first_x = 0;

	path = test_gen_profile(prof, "--steps=2100 --ops=1 --devices=1", 0);
	copy_host_plane(path);
	load_given_and_kept(path, &hooks, &given, &streamed, 1, &kept);
	for (b = given.first; b->next != NULL; b = b->next) {
		ck_assert_uint_le(b->plane, b->next->plane);
		if (b->plane != b->next->plane)
			first_x = b->next->plane;
	}
	ck_assert_uint_gt(first_x, 0);
	ck_assert_str_eq(kept.strings.strings[kept.planes[first_x].name],
	    "/host:CPX");

	/* Stored as jaxprof stores it, then at once. */
	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_msg(index_want_events(ix, &cause) == 0, "%s", cause);
	ck_assert_int_eq(refresh(ix), 0);
	ahead = host_events_dump(ix, path);
	ck_assert_ptr_nonnull(strstr(ahead, "/host:CPX|"));
	changed_file(&ff, path, "host0");
	store_at_once(ix, &ff, &kept);
	whole = host_events_dump(ix, path);
	ck_assert_msg(strcmp(ahead, whole) == 0,
	    "two host planes: not the rows stored at once");
	free(ahead);
	free(whole);
	index_close(ix);
	given_free(&given);
	file_summary_release(&kept);
	file_summary_release(&streamed);
	free(path);
}
END_TEST

START_TEST(test_other_version)
{
	struct index *ix;
	char *cause = NULL;
	sqlite3 *db;

	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_int_eq(refresh(ix), 0);
	ck_assert_int_gt(q_int(ix, "SELECT count(*) FROM ops", NULL), 0);
	db = index_db(ix);
	q_exec(db, "UPDATE meta SET value = '999' WHERE key = "
	    "'schema_version'");
	q_exec(db, "CREATE TABLE old_stuff(x)");
	index_close(ix);

	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_int_eq(q_int(ix, "SELECT value FROM meta WHERE key = "
	    "'schema_version'", NULL), INDEX_SCHEMA_VERSION);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 0);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM ops", NULL), 0);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM sqlite_master WHERE "
	    "name = 'old_stuff'", NULL), 0);
	ck_assert_int_eq(refresh(ix), 0);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 2);
	index_close(ix);

	/* The same version: kept as it is. */
	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 2);
	index_close(ix);
}
END_TEST

START_TEST(test_foreign)
{
	struct index *ix = NULL;
	char *cause = NULL;
	sqlite3 *db;
	sqlite3_stmt *st;

	ck_assert_int_eq(sqlite3_open(db_path, &db), SQLITE_OK);
	q_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1)");
	sqlite3_close(db);

	ck_assert_int_eq(index_open(&ix, db_path, &cause), -1);
	ck_assert_ptr_nonnull(cause);
	ck_assert_msg(strstr(cause, "not a jaxprof index") != NULL &&
	    strncmp(cause, "index '", 7) == 0, "cause '%s'", cause);
	free(cause);

	/* Its tables are left alone. */
	ck_assert_int_eq(sqlite3_open(db_path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*), "
	    "(SELECT count(*) FROM sqlite_master) FROM t", -1, &st, NULL),
	    SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 1);
	ck_assert_int_eq(sqlite3_column_int(st, 1), 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_unopenable)
{
	struct index *ix = NULL;
	char *cause = NULL, path[PATH_MAX + 16];

	test_fmt(path, sizeof path, "%s/no/such/dir/x.sqlite", prof);
	ck_assert_int_eq(index_open(&ix, path, &cause), -1);
	ck_assert_ptr_nonnull(cause);
	ck_assert_msg(strstr(cause, path) != NULL, "cause '%s'", cause);
	free(cause);
}
END_TEST

/*
 * Rows inserted many to a statement (index-rows.c) land as one at a time
 * would: in order, NULL where no value was set, texts copied or not.
 */
START_TEST(test_rows)
{
	static const char *const words[] = { "alpha", "beta", "gamma" };
	struct index *ix;
	struct index_rows *r;
	sqlite3 *db;
	sqlite3_stmt *st;
	char *cause = NULL, buf[32];
	int i, n = 0;

	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	db = index_db(ix);
	q_exec(db, "CREATE TEMP TABLE r(a, b, c, d NOT NULL)");
	r = index_rows_new(ix, "r", 4);
	/* Two full statements and a tail inserted one by one. */
	for (i = 0; i < 37; i++) {
		index_rows_int(r, 1, i);
		if (i % 3 != 0)
			index_rows_text(r, 2, words[i % 3]);
		test_fmt(buf, sizeof buf, "row %d", i);
		index_rows_text_copy(r, 3, buf);
		index_rows_int(r, 4, -i);
		ck_assert_int_eq(index_rows_end(r, &cause), 0);
	}
	ck_assert_int_eq(index_rows_flush(r, &cause), 0);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT a, b, c, d FROM r "
	    "ORDER BY rowid", -1, &st, NULL), SQLITE_OK);
	for (; sqlite3_step(st) == SQLITE_ROW; n++) {
		test_fmt(buf, sizeof buf, "row %d", n);
		ck_assert_int_eq(sqlite3_column_int(st, 0), n);
		if (n % 3 == 0)
			ck_assert_int_eq(sqlite3_column_type(st, 1), SQLITE_NULL);
		else
			ck_assert_str_eq((const char *)sqlite3_column_text(st,
			    1), words[n % 3]);
		ck_assert_str_eq((const char *)sqlite3_column_text(st, 2), buf);
		ck_assert_int_eq(sqlite3_column_int(st, 3), -n);
	}
	sqlite3_finalize(st);
	ck_assert_int_eq(n, 37);

	/* A failure in a full statement says which constraint. */
	for (i = 0; i < 16 && index_rows_end(r, &cause) == 0; i++)
		continue;
	ck_assert_int_lt(i, 16);
	ck_assert_msg(strstr(cause, "NOT NULL constraint failed: r.d") != NULL,
	    "cause '%s'", cause);
	free(cause);
	index_rows_free(r);
	index_close(ix);
}
END_TEST

/* A number in [0, n) from a fixed sequence (the test's own generator). */
static int64_t
next_rand(uint64_t *state, int64_t n)
{
	*state = *state * 6364136223846793005u + 1442695040888963407u;
	return (int64_t)((*state >> 33) % (uint64_t)n);
}

/*
 * transfer_totals() gives what the SQL it replaced gave: random executions
 * on two planes and random calls on each, summed both ways.
 */
START_TEST(test_transfer_totals)
{
	static const enum transfer_dir dirs[] = {
		XFER_H2D, XFER_D2H, XFER_D2D, XFER_OTHER, XFER_MEMSET,
	};
	struct plane_summary planes[2];
	struct file_summary fs;
	struct exec_ends *x;
	struct transfer_total *t;
	sqlite3 *db;
	sqlite3_stmt *ins, *q;
	uint64_t seed = 11;
	char *cause = NULL;
	size_t i, k, n;
	int round;

	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	q_exec(db, "CREATE TABLE executions(file_id, start_ps, dur_ps)");
	q_exec(db, "CREATE TABLE transfers(file_id, plane, direction, "
	    "on_host, bytes, start_ps, dur_ps)");
	for (round = 0; round < 100; round++) {
		memset(&fs, 0, sizeof fs);
		memset(planes, 0, sizeof planes);
		fs.planes = planes;
		fs.nplanes = 2;
		q_exec(db, "DELETE FROM executions");
		q_exec(db, "DELETE FROM transfers");
		ck_assert_int_eq(sqlite3_prepare_v2(db, "INSERT INTO "
		    "executions VALUES (1, ?, ?)", -1, &ins, NULL), SQLITE_OK);
		for (k = 0; k < 2; k++) {
			planes[k].nexecs = (size_t)next_rand(&seed, 8);
			planes[k].execs = calloc(planes[k].nexecs + 1,
			    sizeof *planes[k].execs);
			for (i = 0; i < planes[k].nexecs; i++) {
				struct exec_rec *e = &planes[k].execs[i];

				e->start_ps = next_rand(&seed, 100);
				e->dur_ps = next_rand(&seed, 20);
				sqlite3_bind_int64(ins, 1, e->start_ps);
				sqlite3_bind_int64(ins, 2, e->dur_ps);
				ck_assert_int_eq(sqlite3_step(ins), SQLITE_DONE);
				sqlite3_reset(ins);
			}
		}
		sqlite3_finalize(ins);
		x = exec_ends_new(&fs);
		ck_assert_int_eq(sqlite3_prepare_v2(db, "INSERT INTO "
		    "transfers VALUES (1, ?, ?, ?, ?, ?, ?)", -1, &ins, NULL),
		    SQLITE_OK);
		ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT t.direction, "
		    "t.on_host, count(*), sum(t.bytes), sum(t.dur_ps), "
		    "sum(CASE WHEN t.bytes IS NOT NULL THEN t.dur_ps - "
		    INDEX_WAIT_PS_SQL " END), count(t.bytes), sum("
		    INDEX_WAIT_PS_SQL ") FROM transfers t WHERE t.plane = ? "
		    "GROUP BY t.plane, t.direction, t.on_host", -1, &q, NULL),
		    SQLITE_OK);
		for (k = 0; k < 2; k++) {
			struct plane_summary *p = &planes[k];

			p->ntransfers = (size_t)next_rand(&seed, 40);
			p->transfers = calloc(p->ntransfers + 1,
			    sizeof *p->transfers);
			for (i = 0; i < p->ntransfers; i++) {
				struct transfer_rec *r = &p->transfers[i];

				r->dir = dirs[next_rand(&seed, 5)];
				r->on_host = (int)next_rand(&seed, 2);
				r->bytes = next_rand(&seed, 4) - 1;
				r->start_ps = next_rand(&seed, 110);
				r->dur_ps = next_rand(&seed, 15);
				sqlite3_bind_int64(ins, 1, (sqlite3_int64)k);
				sqlite3_bind_text(ins, 2,
				    transfer_dir_name(r->dir), -1,
				    SQLITE_STATIC);
				sqlite3_bind_int(ins, 3, r->on_host);
				if (r->bytes >= 0)
					sqlite3_bind_int64(ins, 4, r->bytes);
				sqlite3_bind_int64(ins, 5, r->start_ps);
				sqlite3_bind_int64(ins, 6, r->dur_ps);
				ck_assert_int_eq(sqlite3_step(ins), SQLITE_DONE);
				sqlite3_reset(ins);
				sqlite3_clear_bindings(ins);
			}
			ck_assert_int_eq(transfer_totals(p, x, &t, &n, &cause),
			    0);
			sqlite3_bind_int64(q, 1, (sqlite3_int64)k);
			for (i = 0; sqlite3_step(q) == SQLITE_ROW; i++) {
				ck_assert_uint_lt(i, n);
				ck_assert_str_eq((const char *)
				    sqlite3_column_text(q, 0),
				    transfer_dir_name(t[i].dir));
				ck_assert_int_eq(sqlite3_column_int(q, 1),
				    t[i].on_host);
				ck_assert_int_eq(sqlite3_column_int64(q, 2),
				    t[i].count);
				ck_assert_int_eq(sqlite3_column_type(q, 3) ==
				    SQLITE_NULL, t[i].rated_count == 0);
				ck_assert_int_eq(sqlite3_column_int64(q, 3),
				    t[i].rated_count > 0 ? t[i].bytes : 0);
				ck_assert_int_eq(sqlite3_column_int64(q, 4),
				    t[i].dur_ps);
				ck_assert_int_eq(sqlite3_column_int64(q, 5),
				    t[i].rated_count > 0 ? t[i].rated_ps : 0);
				ck_assert_int_eq(sqlite3_column_int64(q, 6),
				    t[i].rated_count);
				ck_assert_int_eq(sqlite3_column_int64(q, 7),
				    t[i].wait_ps);
			}
			ck_assert_uint_eq(i, n);
			sqlite3_reset(q);
			free(t);
		}
		sqlite3_finalize(q);
		sqlite3_finalize(ins);
		exec_ends_free(x);
		for (k = 0; k < 2; k++) {
			free(planes[k].execs);
			free(planes[k].transfers);
		}
	}
	sqlite3_close(db);

	/* A sum past int64 fails as SQLite's sum() does. */
	memset(&fs, 0, sizeof fs);
	memset(planes, 0, sizeof planes);
	planes[0].ntransfers = 2;
	planes[0].transfers = calloc(2, sizeof *planes[0].transfers);
	planes[0].transfers[0].bytes = INT64_MAX;
	planes[0].transfers[1].bytes = 1;
	fs.planes = planes;
	fs.nplanes = 1;
	x = exec_ends_new(&fs);
	ck_assert_int_eq(transfer_totals(&planes[0], x, &t, &n, &cause), -1);
	ck_assert_str_eq(cause, "integer overflow");
	free(cause);
	exec_ends_free(x);
	free(planes[0].transfers);
}
END_TEST

/*
 * What a query's rows say, as text: "a|b\nc|d\n", NULLs as "".  The
 * caller frees it.
 */
static char *
q_dump(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	char *out = xstrdup(""), *t;
	int i;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK,
	    "%s: %s", sql, sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char *v = sqlite3_column_text(st, i);

			t = xasprintf("%s%s%s", out, i > 0 ? "|" : "",
			    v != NULL ? (const char *)v : "");
			free(out);
			out = t;
		}
		t = xasprintf("%s\n", out);
		free(out);
		out = t;
	}
	sqlite3_finalize(st);
	return out;
}

/* The schema, meta, page size and soundness of the database at path. */
static char *
describe_db(const char *path)
{
	sqlite3 *db;
	char *a, *b, *c, *d;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	a = q_dump(db, "SELECT type, name, tbl_name, sql FROM sqlite_master "
	    "ORDER BY name");
	b = q_dump(db, "SELECT key, value FROM meta ORDER BY key");
	c = q_dump(db, "PRAGMA page_size");
	d = q_dump(db, "PRAGMA integrity_check");
	sqlite3_close(db);
	ck_assert_str_eq(d, "ok\n");
	free(d);
	d = xasprintf("%s--\n%s--\n%s", a, b, c);
	free(a);
	free(b);
	free(c);
	return d;
}

/*
 * A new index holds the schema, built with a rollback journal (turned to
 * WAL at the next open: index_open() says why).
 */
START_TEST(test_new_index)
{
	char made[PATH_MAX], *want, *got, *cause = NULL;
	struct index *ix;
	sqlite3 *db;

	test_fmt(made, sizeof made, "%s/made.db", tmp);
	ck_assert_int_eq(sqlite3_open(made, &db), SQLITE_OK);
	q_exec(db, INDEX_PAGE_SIZE_SQL);
	q_exec(db, "BEGIN IMMEDIATE");
	ck_assert_int_eq(index_schema_create(db), SQLITE_OK);
	q_exec(db, "COMMIT");
	sqlite3_close(db);
	want = describe_db(made);

	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	/* Built with a rollback journal, as a new index is (index_open()). */
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM "
	    "pragma_journal_mode WHERE journal_mode = 'delete'", NULL), 1);
	index_close(ix);
	got = describe_db(db_path);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
}
END_TEST

/*
 * Another database's side file (its path + suffix, "-journal" say), as it
 * is now, copied beside the new index's path.
 */
static void
copy_beside(const char *other, const char *suffix)
{
	char path[PATH_MAX], *data;
	size_t len;

	test_fmt(path, sizeof path, "%s%s", other, suffix);
	data = test_slurp(path, &len);
	ck_assert_uint_gt(len, 0);
	test_fmt(path, sizeof path, "%s%s", db_path, suffix);
	test_spew(path, data, len);
	free(data);
}

/* A new index at db_path, opened beside such a file: ours, whole, usable. */
static void
assert_new_index_sound(void)
{
	struct index *ix;
	char *cause = NULL;

	ck_assert_msg(index_open(&ix, db_path, &cause) == 0, "%s", cause);
	ck_assert_int_eq(q_int(ix, "SELECT value FROM meta WHERE key = "
	    "'schema_version'", NULL), INDEX_SCHEMA_VERSION);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM sqlite_master WHERE "
	    "name = 't'", NULL), 0);
	ck_assert_int_eq(refresh(ix), 0);
	ck_assert_int_eq(q_int(ix, "SELECT count(*) FROM files", NULL), 2);
	index_close(ix);
}

/*
 * A -journal beside a new index's path (a write cut off in a database
 * that was there before): the new index is still whole and ours.
 */
START_TEST(test_new_beside_journal)
{
	char other[PATH_MAX];
	sqlite3 *db;

	/*
	 * Another database's journal, taken while a write is open; not
	 * synced, as the index's are not, SQLite plays back all it holds.
	 */
	test_fmt(other, sizeof other, "%s/other.db", tmp);
	ck_assert_int_eq(sqlite3_open(other, &db), SQLITE_OK);
	q_exec(db, INDEX_PAGE_SIZE_SQL);
	q_exec(db, "PRAGMA synchronous = OFF");
	q_exec(db, "CREATE TABLE t(x)");
	q_exec(db, "BEGIN IMMEDIATE");
	q_exec(db, "INSERT INTO t VALUES (1)");
	copy_beside(other, "-journal");
	q_exec(db, "ROLLBACK");
	sqlite3_close(db);

	assert_new_index_sound();
}
END_TEST

/* The same for another database's -wal. */
START_TEST(test_new_beside_wal)
{
	char other[PATH_MAX];
	sqlite3 *db;

	/* Another database's log, taken before it is checkpointed. */
	test_fmt(other, sizeof other, "%s/other.db", tmp);
	ck_assert_int_eq(sqlite3_open(other, &db), SQLITE_OK);
	q_exec(db, INDEX_PAGE_SIZE_SQL);
	q_exec(db, "PRAGMA journal_mode = WAL");
	q_exec(db, "CREATE TABLE t(x)");
	q_exec(db, "INSERT INTO t VALUES (1)");
	copy_beside(other, "-wal");
	sqlite3_close(db);

	assert_new_index_sound();
}
END_TEST

Suite *
suite_index(void)
{
	Suite *s = suite_create("index");
	TCase *tc = tcase_create("index");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_refresh);
	tcase_add_test(tc, test_store_halves);
	tcase_add_test(tc, test_host_events_ahead);
	tcase_add_test(tc, test_host_events_two_planes);
	tcase_add_test(tc, test_other_version);
	tcase_add_test(tc, test_foreign);
	tcase_add_test(tc, test_new_index);
	tcase_add_test(tc, test_new_beside_journal);
	tcase_add_test(tc, test_new_beside_wal);
	tcase_add_test(tc, test_unopenable);
	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_transfer_totals);
	suite_add_tcase(s, tc);
	return s;
}
