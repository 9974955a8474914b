/*
 * What `jaxprof export` writes (export.h): the table list, each table a
 * query on the index for one file's rows, and the parts that hold them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/utf8.h"
#include "lib/xmalloc.h"
#include "output/output.h"
#include "index/index-db.h"
#include "output/parquet.h"
#include "report/export.h"

/*
 * One row per exported table: its name, its columns ("name TYPE [NOT
 * NULL]", TYPE one of STRING, INT64, DOUBLE, BOOLEAN) and the query that
 * gives the rows of file ?1, selecting those columns by those names in
 * that order.  Run and host are the partition's, not columns.  A change
 * of columns is a new EXPORT_SCHEMA_VERSION and jaxprof-export(1).
 */
struct export_table {
	const char	*name;
	const char	*columns;
	const char	*sql;
};

/* The rows of file ?1 in a table keyed by plane, with the plane's name. */
#define ON_PLANE(table) " FROM " table " t JOIN planes p ON p.id = t.plane " \
	"WHERE t.file_id = ?1 ORDER BY t.rowid"

static const struct export_table tables[] = {
	{ "files", "path STRING NOT NULL, kind STRING NOT NULL, "
	    "hostname STRING, planes INT64, lines INT64, events INT64, "
	    "start_ps INT64, end_ps INT64, profile_start_ns INT64, "
	    "op_source STRING, errors STRING, warnings STRING",
	    "SELECT path, kind, hostname, planes, lines, events, start_ps, "
	    "end_ps, profile_start_ns, op_source, errors, warnings "
	    "FROM files WHERE id = ?1" },
	{ "devices", "device STRING NOT NULL, kind STRING NOT NULL, "
	    "plane_id INT64, lines INT64, events INT64, start_ps INT64, "
	    "end_ps INT64, peak_gflops DOUBLE, peak_gbps DOUBLE",
	    "SELECT name AS device, kind, plane_id, lines, events, start_ps, "
	    "end_ps, peak_gflops, peak_gbps FROM planes WHERE file_id = ?1 "
	    "ORDER BY id" },
	{ "ops", "device STRING NOT NULL, name STRING NOT NULL, "
	    "module STRING NOT NULL, category STRING NOT NULL, count INT64, "
	    "total_ps INT64, self_ps INT64, min_ps INT64, max_ps INT64, "
	    "flops INT64, bytes_accessed INT64, framework_op STRING, "
	    "source STRING, source_function STRING, parent STRING, "
	    "compile_work BOOLEAN NOT NULL",
	    "SELECT p.name AS device, t.name, t.module, t.category, t.count, "
	    "t.total_ps, t.self_ps, t.min_ps, t.max_ps, t.flops, "
	    "t.bytes_accessed, t.framework_op, t.source, t.source_function, "
	    "t.parent, t.compile_work" ON_PLANE("ops") },
	{ "kernels", "device STRING NOT NULL, name STRING NOT NULL, "
	    "op STRING, count INT64, total_ps INT64, min_ps INT64, "
	    "max_ps INT64, compile_work BOOLEAN NOT NULL, details STRING, "
	    "module STRING, category STRING, source STRING, "
	    "framework_op STRING",
	    "SELECT p.name AS device, t.name, t.op, t.count, t.total_ps, "
	    "t.min_ps, t.max_ps, t.compile_work, t.details, t.module, "
	    "t.category, t.source, t.framework_op" ON_PLANE("kernels") },
	{ "modules", "device STRING NOT NULL, name STRING NOT NULL, "
	    "program_id INT64, count INT64, total_ps INT64, min_ps INT64, "
	    "max_ps INT64, device_ps INT64, compile_work BOOLEAN NOT NULL",
	    "SELECT p.name AS device, t.name, t.program_id, t.count, "
	    "t.total_ps, t.min_ps, t.max_ps, t.device_ps, t.compile_work"
	    ON_PLANE("modules") },
	{ "steps", "device STRING NOT NULL, source STRING NOT NULL, "
	    "step INT64, name STRING, start_ps INT64, dur_ps INT64, "
	    "compute_ps INT64, collective_ps INT64, transfer_ps INT64, "
	    "idle_ps INT64",
	    "SELECT p.name AS device, t.source, t.step, t.name, t.start_ps, "
	    "t.dur_ps, t.compute_ps, t.collective_ps, t.transfer_ps, "
	    "t.idle_ps" ON_PLANE("steps") },
	{ "step_collectives", "device STRING NOT NULL, step INT64 NOT NULL, "
	    "name STRING NOT NULL, occurrence INT64 NOT NULL, "
	    "start_ps INT64, dur_ps INT64",
	    "SELECT p.name AS device, t.step, t.name, t.occurrence, "
	    "t.start_ps, t.dur_ps" ON_PLANE("step_collectives") },
	{ "step_annotations", "device STRING NOT NULL, step INT64 NOT NULL, "
	    "name STRING NOT NULL, count INT64, dur_ps INT64",
	    "SELECT p.name AS device, t.step, t.name, t.count, t.dur_ps"
	    ON_PLANE("step_annotations") },
	{ "compiles", "device STRING NOT NULL, line STRING, "
	    "name STRING NOT NULL, function STRING, start_ps INT64, "
	    "dur_ps INT64, autotune_ps INT64 NOT NULL",
	    "SELECT p.name AS device, t.line, t.name, t.function, "
	    "t.start_ps, t.dur_ps, t.autotune_ps" ON_PLANE("compiles") },
	{ "transfers", "device STRING NOT NULL, line STRING, "
	    "name STRING NOT NULL, direction STRING NOT NULL, "
	    "on_host BOOLEAN NOT NULL, bytes INT64, start_ps INT64, "
	    "dur_ps INT64, compile_work BOOLEAN NOT NULL",
	    "SELECT p.name AS device, t.line, t.name, t.direction, "
	    "t.on_host, t.bytes, t.start_ps, t.dur_ps, t.compile_work"
	    ON_PLANE("transfers") },
	{ "transfer_totals", "device STRING NOT NULL, "
	    "direction STRING NOT NULL, on_host BOOLEAN NOT NULL, "
	    "count INT64, bytes INT64, dur_ps INT64, rated_ps INT64, "
	    "rated_count INT64, wait_ps INT64, compile_work BOOLEAN NOT NULL",
	    "SELECT p.name AS device, t.direction, t.on_host, t.count, "
	    "t.bytes, t.dur_ps, t.rated_ps, t.rated_count, t.wait_ps, "
	    "t.compile_work" ON_PLANE("transfer_totals") },
	{ "memory_peaks", "device STRING NOT NULL, allocator STRING NOT NULL, "
	    "peak_bytes INT64 NOT NULL, heap_bytes INT64, stack_bytes INT64, "
	    "free_bytes INT64, fragmentation DOUBLE, peak_ps INT64, "
	    "step INT64, tf_op STRING, lifetime_peak_bytes INT64, "
	    "events INT64 NOT NULL, damage STRING",
	    "SELECT p.name AS device, t.allocator, t.peak_bytes, "
	    "t.heap_bytes, t.stack_bytes, t.free_bytes, t.fragmentation, "
	    "t.peak_ps, t.step, t.tf_op, t.lifetime_peak_bytes, t.events, "
	    "t.damage" ON_PLANE("memory_allocators") },
	{ "program_memory", "program_id INT64, module STRING NOT NULL, "
	    "peak_bytes INT64 NOT NULL, heap_peak_bytes INT64, "
	    "parameter_bytes INT64, output_bytes INT64, constant_bytes INT64, "
	    "temp_bytes INT64, allocations INT64",
	    "SELECT program_id, module, peak_bytes, heap_peak_bytes, "
	    "parameter_bytes, output_bytes, constant_bytes, temp_bytes, "
	    "allocations FROM program_memory WHERE file_id = ?1 "
	    "ORDER BY rowid" },
	{ "scopes", "device STRING NOT NULL, path STRING NOT NULL, "
	    "name STRING NOT NULL, depth INT64, count INT64, total_ps INT64, "
	    "self_ps INT64",
	    "SELECT p.name AS device, t.path, t.name, t.depth, t.count, "
	    "t.total_ps, t.self_ps" ON_PLANE("scopes") },
	{ "gaps", "device STRING NOT NULL, start_ps INT64, dur_ps INT64",
	    "SELECT p.name AS device, t.start_ps, t.dur_ps" ON_PLANE("gaps") },
};

#undef ON_PLANE

/* A table's columns, parsed from its row. */
struct columns {
	struct pq_col	*pq;
	struct out_col	*out;
	char		**names;
	size_t		 n;
};

static const struct {
	const char	*name;
	enum pq_type	 pq;
	enum col_type	 out;
} types[] = {
	{ "BOOLEAN", PQ_BOOLEAN, COL_INT },
	{ "DOUBLE", PQ_DOUBLE, COL_REAL },
	{ "INT64", PQ_INT64, COL_INT },
	{ "STRING", PQ_STRING, COL_STR },
};

static void
parse_columns(const struct export_table *t, struct columns *c)
{
	char *spec = xstrdup(t->columns), *item, *save = NULL;

	memset(c, 0, sizeof *c);
	for (item = strtok_r(spec, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		char name[64], type[16], rest[16];
		size_t k;
		int n;

		n = sscanf(item, " %63s %15s %15[A-Z ]", name, type, rest);
		for (k = 0; k < sizeof types / sizeof *types; k++)
			if (n >= 2 && strcmp(types[k].name, type) == 0)
				break;
		if (k == sizeof types / sizeof *types)
			jp_errx(EXIT_TROUBLE, "export: table %s: bad column "
			    "'%s'", t->name, item);
		c->pq = xreallocarray(c->pq, c->n + 1, sizeof *c->pq);
		c->out = xreallocarray(c->out, c->n + 1, sizeof *c->out);
		c->names = xreallocarray(c->names, c->n + 1,
		    sizeof *c->names);
		c->names[c->n] = xstrdup(name);
		c->pq[c->n].name = c->names[c->n];
		c->pq[c->n].type = types[k].pq;
		c->pq[c->n].nullable = n < 3;
		c->out[c->n].name = c->names[c->n];
		c->out[c->n].type = types[k].out;
		c->out[c->n].header = NULL;
		c->n++;
	}
	free(spec);
}

static void
free_columns(struct columns *c)
{
	free_strings(c->names, c->n);
	free(c->pq);
	free(c->out);
}

int
export_parse_format(const char *s, enum export_format *fmt)
{
	if (strcmp(s, "parquet") == 0)
		*fmt = EXPORT_PARQUET;
	else if (strcmp(s, "ndjson") == 0)
		*fmt = EXPORT_NDJSON;
	else
		return -1;
	return 0;
}

/*
 * A partition value as Hive escapes it (Spark unescapes it so): '%XX'
 * for the bytes a path cannot hold or a reader would take for syntax.
 */
static char *
hive_escape(const char *s)
{
	char *out = xmalloc(3 * strlen(s) + 1), *o = out;

	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch == 0x7f || strchr("\"#%'*/:=?\\{[]^", ch))
			o += sprintf(o, "%%%02X", ch);
		else
			*o++ = (char)ch;
	}
	*o = '\0';
	/* Hive's name for an empty value; dots that are no folder. */
	if (*out == '\0' || strcmp(out, ".") == 0 || strcmp(out, "..") == 0) {
		char *name = *out == '\0' ? xstrdup("__HIVE_DEFAULT_PARTITION__")
		    : xstrdup(out[1] == '\0' ? "%2E" : "%2E%2E");

		free(out);
		return name;
	}
	return out;
}

/* mkdir -p: 0, or -1 with errno set. */
static int
make_dirs(const char *path)
{
	char *p = xstrdup(path), *slash = p;
	int rc = 0;

	while (rc == 0 && slash != NULL) {
		slash = strchr(slash + 1, '/');
		if (slash != NULL)
			*slash = '\0';
		if (mkdir(p, 0777) == -1 && errno != EEXIST)
			rc = -1;
		if (slash != NULL)
			*slash = '/';
	}
	free(p);
	return rc;
}

/* The part's name: a hash of the file's name, the same on every rerun. */
static char *
part_name(const char *path, enum export_format fmt)
{
	const char *base = strrchr(path, '/');
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (base = base != NULL ? base + 1 : path; *base != '\0'; base++) {
		h ^= (unsigned char)*base;
		h *= 0x100000001b3ULL;
	}
	return xasprintf("part-%016llx.%s", (unsigned long long)h,
	    fmt == EXPORT_PARQUET ? "parquet" : "ndjson");
}

/* A text cell as UTF-8: each byte that is not becomes U+FFFD. */
static char *
valid_utf8(const unsigned char *s, size_t n, size_t *len)
{
	char *out = xmalloc(3 * n + 1);
	size_t i = 0, o = 0, k;

	while (i < n) {
		k = s[i] < 0x80 ? 1 : utf8_seq_len(s + i, n - i);
		if (k == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			continue;
		}
		memcpy(out + o, s + i, k);
		o += k;
		i += k;
	}
	*len = o;
	return out;
}

static void
parquet_cell(struct parquet *pq, sqlite3_stmt *st, int i, enum pq_type type)
{
	const unsigned char *s;
	char *text;
	size_t len;

	if (sqlite3_column_type(st, i) == SQLITE_NULL) {
		parquet_null(pq);
		return;
	}
	switch (type) {
	case PQ_BOOLEAN:
		parquet_bool(pq, sqlite3_column_int64(st, i) != 0);
		break;
	case PQ_INT64:
		parquet_int(pq, sqlite3_column_int64(st, i));
		break;
	case PQ_DOUBLE:
		parquet_double(pq, sqlite3_column_double(st, i));
		break;
	case PQ_STRING:
		s = sqlite3_column_text(st, i);
		text = valid_utf8(s, (size_t)sqlite3_column_bytes(st, i), &len);
		parquet_str(pq, text, len);
		free(text);
		break;
	}
}

static void
ndjson_cell(struct output *o, sqlite3_stmt *st, int i, enum pq_type type)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		output_null(o);
	else if (type == PQ_BOOLEAN)
		output_flag(o, sqlite3_column_int64(st, i) != 0, "yes");
	else if (type == PQ_INT64)
		output_int(o, sqlite3_column_int64(st, i));
	else if (type == PQ_DOUBLE)
		output_double(o, sqlite3_column_double(st, i));
	else
		output_str(o, (const char *)sqlite3_column_text(st, i));
}

/* Table t's rows of file_id into fd: 0, or -1 with errno set. */
static int
write_part(struct report *r, const struct export_table *t, int64_t file_id,
    enum export_format fmt, int fd)
{
	static const struct pq_kv kv_base[] = {
		{ "jaxprof.schema_version", EXPORT_SCHEMA_VERSION },
	};
	struct pq_kv kv[2];
	struct columns c;
	struct parquet *pq = NULL;
	struct output *o = NULL;
	sqlite3_stmt *st;
	FILE *fp = NULL;
	size_t i;
	int rc;

	parse_columns(t, &c);
	st = index_prepare(r->ix, t->sql);
	if ((size_t)sqlite3_column_count(st) != c.n)
		jp_errx(EXIT_TROUBLE, "export: table %s: %d columns selected, "
		    "%zu named", t->name, sqlite3_column_count(st), c.n);
	for (i = 0; i < c.n; i++)
		if (strcmp(sqlite3_column_name(st, (int)i), c.names[i]) != 0)
			jp_errx(EXIT_TROUBLE, "export: table %s: column %zu is "
			    "'%s', not '%s'", t->name, i,
			    sqlite3_column_name(st, (int)i), c.names[i]);
	sqlite3_bind_int64(st, 1, file_id);
	if (fmt == EXPORT_PARQUET)
		pq = parquet_new(c.pq, c.n);
	else {
		if ((fp = fdopen(fd, "w")) == NULL)
			jp_err(EXIT_TROUBLE, "fdopen");
		o = output_new(FMT_NDJSON, fp, c.out, c.n);
	}
	while (index_row(st)) {
		for (i = 0; i < c.n; i++) {
			if (pq != NULL)
				parquet_cell(pq, st, (int)i, c.pq[i].type);
			else
				ndjson_cell(o, st, (int)i, c.pq[i].type);
		}
		if (pq != NULL)
			parquet_end_row(pq);
		else
			output_end_row(o);
	}
	sqlite3_finalize(st);
	if (pq != NULL) {
		memcpy(kv, kv_base, sizeof kv_base);
		kv[1].key = "jaxprof.table";
		kv[1].value = t->name;
		rc = parquet_write(pq, fd, kv, 2, PQ_GZIP);
		parquet_free(pq);
		if (close(fd) == -1)
			rc = -1;
	} else {
		rc = output_finish(o);
		if (fclose(fp) == EOF)
			rc = -1;
	}
	free_columns(&c);
	return rc;
}

/*
 * Table t's part of one file, written beside its final name and renamed
 * over it: a reader sees the old part or the new, never half of one.
 */
static int
export_part(struct report *r, const struct export_table *t, int64_t file_id,
    const char *dir, const char *part, enum export_format fmt)
{
	char *final = xasprintf("%s/%s", dir, part);
	char *tmp = xasprintf("%s/.%s.%ld.tmp", dir, part, (long)getpid());
	int fd, rc = -1;

	if (make_dirs(dir) == -1) {
		jp_warn("export: cannot make '%s'", dir);
		goto out;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1) {
		jp_warn("export: cannot write '%s'", tmp);
		goto out;
	}
	if (write_part(r, t, file_id, fmt, fd) == -1) {
		jp_warn("export: cannot write '%s'", tmp);
		(void)unlink(tmp);
		goto out;
	}
	if (rename(tmp, final) == -1) {
		jp_warn("export: cannot rename '%s' to '%s'", tmp, final);
		(void)unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(final);
	free(tmp);
	return rc;
}

int
export_files(struct report *r, enum export_format fmt, const char *dir)
{
	sqlite3_stmt *st = index_prepare(r->ix, "SELECT f.id, f.path, "
	    "f.run, f.host FROM files f JOIN selected s ON s.file_id = f.id "
	    "ORDER BY f.id");
	int rc = 0;

	while (rc == 0 && index_row(st)) {
		int64_t id = sqlite3_column_int64(st, 0);
		char *part = part_name((const char *)sqlite3_column_text(st, 1),
		    fmt);
		char *run = hive_escape((const char *)
		    sqlite3_column_text(st, 2));
		char *host = hive_escape((const char *)
		    sqlite3_column_text(st, 3));
		size_t i;

		for (i = 0; rc == 0 && i < sizeof tables / sizeof *tables;
		    i++) {
			char *sub = xasprintf("%s/%s/run=%s/host=%s", dir,
			    tables[i].name, run, host);

			rc = export_part(r, &tables[i], id, sub, part, fmt);
			free(sub);
		}
		free(part);
		free(run);
		free(host);
	}
	sqlite3_finalize(st);
	return rc;
}
