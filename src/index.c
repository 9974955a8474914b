/* The SQLite index: schema, incremental refresh, one transaction per file. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "classify.h"
#include "err.h"
#include "index.h"
#include "load.h"
#include "read-xplane.h"
#include "source.h"
#include "xmalloc.h"

/* Files read at once, at most (and no more than there are CPUs). */
#define MAX_THREADS	8

/* How long a process waits for another one holding the index (ms). */
#define BUSY_TIMEOUT_MS	(10 * 60 * 1000)

struct index {
	sqlite3	*db;
	char	*path;
};

static const char *const schema[] = {
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
	"CREATE TABLE files("
	    "id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, "
	    "kind TEXT NOT NULL, run TEXT NOT NULL, host TEXT NOT NULL, "
	    "size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, "
	    "hostname TEXT, planes INTEGER, lines INTEGER, events INTEGER, "
	    "start_ps INTEGER, end_ps INTEGER, profile_start_ns INTEGER, "
	    "op_source TEXT, errors TEXT, warnings TEXT, "
	    "missing_metadata INTEGER, indexed_at INTEGER)",
	"CREATE TABLE planes("
	    "id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, "
	    "plane_id INTEGER, name TEXT NOT NULL, kind TEXT NOT NULL, "
	    "lines INTEGER, events INTEGER, start_ps INTEGER, end_ps INTEGER)",
	"CREATE TABLE ops("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, module TEXT NOT NULL, category TEXT NOT NULL, "
	    "count INTEGER, total_ps INTEGER, self_ps INTEGER, "
	    "min_ps INTEGER, max_ps INTEGER, flops INTEGER, "
	    "bytes_accessed INTEGER, framework_op TEXT)",
	"CREATE TABLE kernels("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, op TEXT, count INTEGER, total_ps INTEGER, "
	    "min_ps INTEGER, max_ps INTEGER)",
	"CREATE TABLE modules("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "name TEXT NOT NULL, program_id INTEGER, count INTEGER, "
	    "total_ps INTEGER, min_ps INTEGER, max_ps INTEGER)",
	"CREATE TABLE steps("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "source TEXT NOT NULL, step INTEGER, name TEXT, "
	    "start_ps INTEGER, dur_ps INTEGER, compute_ps INTEGER, "
	    "collective_ps INTEGER, transfer_ps INTEGER, idle_ps INTEGER)",
	"CREATE TABLE compiles("
	    "id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, "
	    "plane INTEGER NOT NULL, line TEXT, name TEXT NOT NULL, "
	    "function TEXT, start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE compile_phases("
	    "file_id INTEGER NOT NULL, compile INTEGER NOT NULL, "
	    "name TEXT NOT NULL, start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE executions("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "module TEXT NOT NULL, program_id INTEGER, run_id INTEGER, "
	    "start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE gaps("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "start_ps INTEGER, dur_ps INTEGER)",
	"CREATE TABLE host_events("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, line TEXT, "
	    "name TEXT NOT NULL, depth INTEGER, start_ps INTEGER, "
	    "dur_ps INTEGER)",
	"CREATE TABLE scopes("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, "
	    "path TEXT NOT NULL, name TEXT NOT NULL, depth INTEGER, "
	    "count INTEGER, total_ps INTEGER, self_ps INTEGER)",
	"CREATE TABLE programs("
	    "file_id INTEGER NOT NULL, module TEXT NOT NULL, "
	    "program_id INTEGER)",
	"CREATE TABLE transfers("
	    "file_id INTEGER NOT NULL, plane INTEGER NOT NULL, line TEXT, "
	    "name TEXT NOT NULL, direction TEXT NOT NULL, "
	    "on_host INTEGER NOT NULL, bytes INTEGER, start_ps INTEGER, "
	    "dur_ps INTEGER)",
	"CREATE INDEX planes_file ON planes(file_id)",
	"CREATE INDEX ops_file ON ops(file_id)",
	"CREATE INDEX kernels_file ON kernels(file_id)",
	"CREATE INDEX modules_file ON modules(file_id)",
	"CREATE INDEX steps_file ON steps(file_id)",
	"CREATE INDEX compiles_file ON compiles(file_id)",
	"CREATE INDEX transfers_file ON transfers(file_id)",
	"CREATE INDEX compile_phases_file ON compile_phases(file_id)",
	"CREATE INDEX executions_file ON executions(file_id)",
	"CREATE INDEX gaps_file ON gaps(file_id)",
	"CREATE INDEX host_events_file ON host_events(file_id)",
	"CREATE INDEX scopes_file ON scopes(file_id)",
	"CREATE INDEX programs_file ON programs(file_id)",
};

/* Tables holding one file's rows, cleared when it is re-read. */
static const char *const per_file_tables[] = {
	"planes", "ops", "kernels", "modules", "steps", "compiles", "transfers",
	"compile_phases", "executions", "gaps", "host_events", "scopes",
	"programs",
};

static int
exec(struct index *ix, const char *sql, char **cause)
{
	char *msg = NULL;

	if (sqlite3_exec(ix->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	*cause = xasprintf("%s", msg != NULL ? msg :
	    sqlite3_errmsg(ix->db));
	sqlite3_free(msg);
	return -1;
}

sqlite3_stmt *
index_prepare(struct index *ix, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
		jp_errx(EXIT_TROUBLE, "index '%s': %s", ix->path,
		    sqlite3_errmsg(ix->db));
	return st;
}

sqlite3 *
index_db(struct index *ix)
{
	return ix->db;
}

/* The schema version stored in the database; 0 if it has none. */
static int
stored_version(struct index *ix)
{
	sqlite3_stmt *st;
	int v = 0;

	if (sqlite3_prepare_v2(ix->db,
	    "SELECT value FROM meta WHERE key = 'schema_version'", -1, &st,
	    NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = atoi((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/*
 * Whether the database holds tables but no jaxprof schema version: then
 * it is somebody else's, and nothing in it may be changed.
 */
static int
is_foreign(struct index *ix)
{
	sqlite3_stmt *st;
	int tables = 0, ours = 0;

	if (sqlite3_prepare_v2(ix->db, "SELECT count(*), "
	    "count(CASE WHEN name = 'meta' THEN 1 END) FROM sqlite_master "
	    "WHERE type = 'table'", -1, &st, NULL) != SQLITE_OK)
		return 0;	/* not a database at all: open says so */
	if (sqlite3_step(st) == SQLITE_ROW) {
		tables = sqlite3_column_int(st, 0);
		ours = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return tables > 0 && !ours;
}

/* Creates the schema, dropping an index of another version first. */
static int
ensure_schema(struct index *ix, char **cause)
{
	sqlite3_stmt *st;
	size_t i;
	char *sql;

	if (exec(ix, "BEGIN IMMEDIATE", cause) == -1)
		return -1;
	if (stored_version(ix) == INDEX_SCHEMA_VERSION)
		return exec(ix, "COMMIT", cause);
	/* An index of another version: rebuilt from scratch. */
	st = index_prepare(ix, "SELECT name FROM sqlite_master "
	    "WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
	while (sqlite3_step(st) == SQLITE_ROW) {
		sql = xasprintf("DROP TABLE IF EXISTS \"%s\"",
		    (const char *)sqlite3_column_text(st, 0));
		sqlite3_reset(st);
		if (exec(ix, sql, cause) == -1) {
			free(sql);
			sqlite3_finalize(st);
			return -1;
		}
		free(sql);
	}
	sqlite3_finalize(st);
	for (i = 0; i < sizeof schema / sizeof schema[0]; i++)
		if (exec(ix, schema[i], cause) == -1)
			return -1;
	sql = xasprintf("INSERT INTO meta VALUES ('schema_version', '%d')",
	    INDEX_SCHEMA_VERSION);
	if (exec(ix, sql, cause) == -1) {
		free(sql);
		return -1;
	}
	free(sql);
	return exec(ix, "COMMIT", cause);
}

/*
 * While another process turns a fresh index to WAL, this pragma answers
 * SQLITE_BUSY at once, without calling the busy handler: wait and retry.
 */
static int
set_wal(struct index *ix, char **cause)
{
	int rc, waited;

	for (waited = 0; (rc = sqlite3_exec(ix->db, "PRAGMA journal_mode = WAL",
	    NULL, NULL, NULL)) == SQLITE_BUSY && waited < BUSY_TIMEOUT_MS;
	    waited += 10)
		sqlite3_sleep(10);
	if (rc == SQLITE_OK)
		return 0;
	*cause = xstrdup(sqlite3_errmsg(ix->db));
	return -1;
}

int
index_open(struct index **ixp, const char *path, char **cause)
{
	struct index *ix = xcalloc(1, sizeof *ix);

	ix->path = xstrdup(path);
	if (sqlite3_open_v2(path, &ix->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		*cause = xasprintf("cannot open index '%s': %s", path,
		    ix->db != NULL ? sqlite3_errmsg(ix->db) : "out of memory");
		index_close(ix);
		return -1;
	}
	sqlite3_busy_timeout(ix->db, BUSY_TIMEOUT_MS);
	if (is_foreign(ix)) {
		*cause = xasprintf("index '%s': not a jaxprof index (it has tables "
		    "but no schema_version)", path);
		index_close(ix);
		return -1;
	}
	if (set_wal(ix, cause) == -1 ||
	    exec(ix, "PRAGMA synchronous = NORMAL", cause) == -1 ||
	    ensure_schema(ix, cause) == -1 ||
	    exec(ix, "CREATE TEMP TABLE selected("
	    "file_id INTEGER PRIMARY KEY)", cause) == -1) {
		char *c = *cause;

		*cause = xasprintf("index '%s': %s", path, c);
		free(c);
		index_close(ix);
		return -1;
	}
	*ixp = ix;
	return 0;
}

void
index_close(struct index *ix)
{
	if (ix == NULL)
		return;
	sqlite3_close(ix->db);
	free(ix->path);
	free(ix);
}

/* ---- writing one file ---- */

static void
bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

static int
step_done(struct index *ix, sqlite3_stmt *st, char **cause)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	*cause = xasprintf("%s", sqlite3_errmsg(ix->db));
	return -1;
}

static char *
join_lines(char **v, size_t n)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(s, "\n");
		strcat(s, v[i]);
	}
	return s;
}

/* Deletes every row of the file with this path (inside a transaction). */
static int
delete_file(struct index *ix, const char *path, char **cause)
{
	sqlite3_stmt *st;
	sqlite3_int64 id = -1;
	size_t i;

	st = index_prepare(ix, "SELECT id FROM files WHERE path = ?");
	bind_text(st, 1, path);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (id == -1)
		return 0;
	for (i = 0; i < sizeof per_file_tables / sizeof per_file_tables[0];
	    i++) {
		char *sql = xasprintf("DELETE FROM %s WHERE file_id = ?",
		    per_file_tables[i]);

		st = index_prepare(ix, sql);
		free(sql);
		sqlite3_bind_int64(st, 1, id);
		if (step_done(ix, st, cause) == -1) {
			sqlite3_finalize(st);
			return -1;
		}
		sqlite3_finalize(st);
	}
	st = index_prepare(ix, "DELETE FROM files WHERE id = ?");
	sqlite3_bind_int64(st, 1, id);
	if (step_done(ix, st, cause) == -1) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

static sqlite3_int64
insert_file(struct index *ix, const struct found_file *ff,
    const struct file_summary *fs, char **cause)
{
	sqlite3_stmt *st;
	sqlite3_int64 id = -1;

	st = index_prepare(ix, "INSERT INTO files(path, kind, run, host, "
	    "size, mtime_ns, hostname, planes, lines, events, start_ps, "
	    "end_ps, profile_start_ns, op_source, errors, warnings, "
	    "missing_metadata, indexed_at) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	bind_text(st, 1, ff->path);
	bind_text(st, 2, file_kind_name(ff->kind));
	bind_text(st, 3, ff->run);
	bind_text(st, 4, ff->host);
	sqlite3_bind_int64(st, 5, ff->size);
	sqlite3_bind_int64(st, 6, ff->mtime_ns);
	if (fs != NULL) {
		char *errors = join_lines(fs->errors, fs->nerrors);
		char *warnings = join_lines(fs->warnings, fs->nwarnings);

		bind_text(st, 7, fs->host);
		sqlite3_bind_int64(st, 8, (sqlite3_int64)fs->nplanes);
		sqlite3_bind_int64(st, 9, (sqlite3_int64)fs->nlines);
		sqlite3_bind_int64(st, 10, (sqlite3_int64)fs->nevents);
		if (fs->nevents > 0) {
			sqlite3_bind_int64(st, 11, fs->start_ps);
			sqlite3_bind_int64(st, 12, fs->end_ps);
		}
		if (fs->profile_start_ns != 0)
			sqlite3_bind_int64(st, 13, fs->profile_start_ns);
		bind_text(st, 14, op_source_name(fs->op_source));
		bind_text(st, 15, errors);
		bind_text(st, 16, warnings);
		sqlite3_bind_int64(st, 17, (sqlite3_int64)
		    (fs->read_stats.missing_event_metadata +
		    fs->read_stats.missing_stat_metadata));
		free(errors);
		free(warnings);
	}
	sqlite3_bind_int64(st, 18, (sqlite3_int64)time(NULL));
	if (step_done(ix, st, cause) == 0)
		id = sqlite3_last_insert_rowid(ix->db);
	sqlite3_finalize(st);
	return id;
}

/* Statements for the per-plane tables, prepared once per file. */
struct writers {
	sqlite3_stmt	*plane, *op, *kernel, *module, *step, *compile,
			*transfer, *phase, *exec, *gap, *host_event, *scope,
			*program;
};

static void
writers_prepare(struct index *ix, struct writers *w)
{
	w->plane = index_prepare(ix, "INSERT INTO planes(file_id, plane_id, "
	    "name, kind, lines, events, start_ps, end_ps) "
	    "VALUES (?,?,?,?,?,?,?,?)");
	w->op = index_prepare(ix, "INSERT INTO ops VALUES "
	    "(?,?,?,?,?,?,?,?,?,?,?,?,?)");
	w->kernel = index_prepare(ix, "INSERT INTO kernels VALUES "
	    "(?,?,?,?,?,?,?,?)");
	w->module = index_prepare(ix, "INSERT INTO modules VALUES "
	    "(?,?,?,?,?,?,?,?)");
	w->step = index_prepare(ix, "INSERT INTO steps VALUES "
	    "(?,?,?,?,?,?,?,?,?,?,?)");
	w->compile = index_prepare(ix, "INSERT INTO compiles(file_id, plane, "
	    "line, name, function, start_ps, dur_ps) VALUES (?,?,?,?,?,?,?)");
	w->phase = index_prepare(ix, "INSERT INTO compile_phases VALUES "
	    "(?,?,?,?,?)");
	w->exec = index_prepare(ix, "INSERT INTO executions VALUES "
	    "(?,?,?,?,?,?,?)");
	w->gap = index_prepare(ix, "INSERT INTO gaps VALUES (?,?,?,?)");
	w->host_event = index_prepare(ix, "INSERT INTO host_events VALUES "
	    "(?,?,?,?,?,?,?)");
	w->scope = index_prepare(ix, "INSERT INTO scopes VALUES "
	    "(?,?,?,?,?,?,?,?)");
	w->program = index_prepare(ix, "INSERT INTO programs VALUES (?,?,?)");
	w->transfer = index_prepare(ix, "INSERT INTO transfers VALUES "
	    "(?,?,?,?,?,?,?,?,?)");
}

static void
writers_finalize(struct writers *w)
{
	sqlite3_finalize(w->plane);
	sqlite3_finalize(w->op);
	sqlite3_finalize(w->kernel);
	sqlite3_finalize(w->module);
	sqlite3_finalize(w->step);
	sqlite3_finalize(w->compile);
	sqlite3_finalize(w->transfer);
	sqlite3_finalize(w->phase);
	sqlite3_finalize(w->exec);
	sqlite3_finalize(w->gap);
	sqlite3_finalize(w->host_event);
	sqlite3_finalize(w->scope);
	sqlite3_finalize(w->program);
}

static int
write_phases(struct index *ix, struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    const struct compile_rec *r, sqlite3_int64 compile, char **cause)
{
	size_t i;

	for (i = r->first_phase; i < r->first_phase + r->nphases; i++) {
		const struct compile_phase *ph = &p->phases[i];

		sqlite3_bind_int64(w->phase, 1, file_id);
		sqlite3_bind_int64(w->phase, 2, compile);
		bind_text(w->phase, 3, fs->strings.strings[ph->name]);
		sqlite3_bind_int64(w->phase, 4, ph->start_ps);
		sqlite3_bind_int64(w->phase, 5, ph->dur_ps);
		if (step_done(ix, w->phase, cause) == -1)
			return -1;
	}
	return 0;
}

/* A scope's path: its ancestors' names and its own, joined by ';'. */
static char *
scope_path(const struct file_summary *fs, const struct plane_summary *p,
    uint32_t i, int *depth)
{
	const char *name = fs->strings.strings[p->scopes[i].name];
	char *parent, *path;

	if (p->scopes[i].parent == NO_SCOPE) {
		*depth = 0;
		return xstrdup(name);
	}
	parent = scope_path(fs, p, p->scopes[i].parent, depth);
	(*depth)++;
	path = xasprintf("%s;%s", parent, name);
	free(parent);
	return path;
}

/* Executions, idle gaps, long host events and scopes of a plane. */
static int
write_timeline(struct index *ix, struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    sqlite3_int64 plane, char **cause)
{
	char *const *s = fs->strings.strings;
	size_t i;

	for (i = 0; i < p->nexecs; i++) {
		const struct exec_rec *e = &p->execs[i];
		sqlite3_stmt *st = w->exec;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, s[e->module]);
		if (e->program_id != -1)
			sqlite3_bind_int64(st, 4, e->program_id);
		if (e->run_id != -1)
			sqlite3_bind_int64(st, 5, e->run_id);
		sqlite3_bind_int64(st, 6, e->start_ps);
		sqlite3_bind_int64(st, 7, e->dur_ps);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->ngaps; i++) {
		sqlite3_bind_int64(w->gap, 1, file_id);
		sqlite3_bind_int64(w->gap, 2, plane);
		sqlite3_bind_int64(w->gap, 3, p->gaps[i].start_ps);
		sqlite3_bind_int64(w->gap, 4, p->gaps[i].dur_ps);
		if (step_done(ix, w->gap, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nhost_events; i++) {
		const struct host_event_rec *h = &p->host_events[i];
		sqlite3_stmt *st = w->host_event;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, s[h->line]);
		bind_text(st, 4, s[h->name]);
		sqlite3_bind_int(st, 5, h->depth);
		sqlite3_bind_int64(st, 6, h->start_ps);
		sqlite3_bind_int64(st, 7, h->dur_ps);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nscopes; i++) {
		const struct scope_agg *sc = &p->scopes[i];
		sqlite3_stmt *st = w->scope;
		int depth;
		char *path = scope_path(fs, p, (uint32_t)i, &depth);

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, path);
		bind_text(st, 4, s[sc->name]);
		sqlite3_bind_int(st, 5, depth);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)sc->count);
		sqlite3_bind_int64(st, 7, sc->total_ps);
		sqlite3_bind_int64(st, 8, sc->self_ps);
		free(path);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	return 0;
}

static int
write_programs(struct index *ix, struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, char **cause)
{
	size_t i;

	for (i = 0; i < fs->nprograms; i++) {
		sqlite3_bind_int64(w->program, 1, file_id);
		bind_text(w->program, 2,
		    fs->strings.strings[fs->programs[i].module]);
		sqlite3_bind_int64(w->program, 3, fs->programs[i].program_id);
		if (step_done(ix, w->program, cause) == -1)
			return -1;
	}
	return 0;
}

static int
write_plane(struct index *ix, struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    char **cause)
{
	char *const *s = fs->strings.strings;
	sqlite3_int64 plane;
	size_t i;

	sqlite3_bind_int64(w->plane, 1, file_id);
	sqlite3_bind_int64(w->plane, 2, p->id);
	bind_text(w->plane, 3, s[p->name]);
	bind_text(w->plane, 4, plane_kind_name(p->kind));
	sqlite3_bind_int64(w->plane, 5, (sqlite3_int64)p->nlines);
	sqlite3_bind_int64(w->plane, 6, (sqlite3_int64)p->nevents);
	if (p->nevents > 0) {
		sqlite3_bind_int64(w->plane, 7, p->start_ps);
		sqlite3_bind_int64(w->plane, 8, p->end_ps);
	}
	if (step_done(ix, w->plane, cause) == -1)
		return -1;
	plane = sqlite3_last_insert_rowid(ix->db);

	for (i = 0; i < p->nops; i++) {
		const struct op_agg *o = &p->ops[i];
		sqlite3_stmt *st = w->op;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, s[o->name]);
		bind_text(st, 4, s[o->module]);
		bind_text(st, 5, s[o->category]);
		sqlite3_bind_int64(st, 6, (sqlite3_int64)o->count);
		sqlite3_bind_int64(st, 7, o->total_ps);
		sqlite3_bind_int64(st, 8, o->self_ps);
		sqlite3_bind_int64(st, 9, o->min_ps);
		sqlite3_bind_int64(st, 10, o->max_ps);
		if (o->has_flops)
			sqlite3_bind_int64(st, 11, (sqlite3_int64)o->flops);
		if (o->has_bytes)
			sqlite3_bind_int64(st, 12,
			    (sqlite3_int64)o->bytes_accessed);
		bind_text(st, 13, s[o->framework_op]);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nkernels; i++) {
		const struct kernel_agg *k = &p->kernels[i];
		sqlite3_stmt *st = w->kernel;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, s[k->name]);
		if (k->op != UINT32_MAX)
			bind_text(st, 4, s[k->op]);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)k->count);
		sqlite3_bind_int64(st, 6, k->total_ps);
		sqlite3_bind_int64(st, 7, k->min_ps);
		sqlite3_bind_int64(st, 8, k->max_ps);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nmodules; i++) {
		const struct module_agg *m = &p->modules[i];
		sqlite3_stmt *st = w->module;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, s[m->name]);
		if (m->program_id != -1)
			sqlite3_bind_int64(st, 4, m->program_id);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)m->count);
		sqlite3_bind_int64(st, 6, m->total_ps);
		sqlite3_bind_int64(st, 7, m->min_ps);
		sqlite3_bind_int64(st, 8, m->max_ps);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nsteps; i++) {
		const struct step_rec *r = &p->steps[i];
		sqlite3_stmt *st = w->step;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, step_source_name(r->source));
		sqlite3_bind_int64(st, 4, r->step);
		bind_text(st, 5, s[r->name]);
		sqlite3_bind_int64(st, 6, r->start_ps);
		sqlite3_bind_int64(st, 7, r->dur_ps);
		sqlite3_bind_int64(st, 8, r->busy_ps[BUSY_COMPUTE]);
		sqlite3_bind_int64(st, 9, r->busy_ps[BUSY_COLLECTIVE]);
		sqlite3_bind_int64(st, 10, r->busy_ps[BUSY_TRANSFER]);
		sqlite3_bind_int64(st, 11, r->idle_ps);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->ncompiles; i++) {
		const struct compile_rec *r = &p->compiles[i];
		sqlite3_stmt *st = w->compile;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, s[r->line]);
		bind_text(st, 4, s[r->name]);
		bind_text(st, 5, s[r->function]);
		sqlite3_bind_int64(st, 6, r->start_ps);
		sqlite3_bind_int64(st, 7, r->dur_ps);
		if (step_done(ix, st, cause) == -1 ||
		    write_phases(ix, w, file_id, fs, p, r,
		    sqlite3_last_insert_rowid(ix->db), cause) == -1)
			return -1;
	}
	for (i = 0; i < p->ntransfers; i++) {
		const struct transfer_rec *r = &p->transfers[i];
		sqlite3_stmt *st = w->transfer;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		bind_text(st, 3, s[r->line]);
		bind_text(st, 4, s[r->name]);
		bind_text(st, 5, transfer_dir_name(r->dir));
		sqlite3_bind_int(st, 6, r->on_host);
		if (r->bytes >= 0)
			sqlite3_bind_int64(st, 7, r->bytes);
		sqlite3_bind_int64(st, 8, r->start_ps);
		sqlite3_bind_int64(st, 9, r->dur_ps);
		if (step_done(ix, st, cause) == -1)
			return -1;
	}
	return write_timeline(ix, w, file_id, fs, p, plane, cause);
}

/* Whether the index already holds ff as it is on disk; its id if so. */
static int
is_current(struct index *ix, const struct found_file *ff, sqlite3_int64 *id)
{
	sqlite3_stmt *st;
	int current = 0;

	st = index_prepare(ix, "SELECT id FROM files WHERE path = ? AND "
	    "size = ? AND mtime_ns = ? AND kind = ?");
	bind_text(st, 1, ff->path);
	sqlite3_bind_int64(st, 2, ff->size);
	sqlite3_bind_int64(st, 3, ff->mtime_ns);
	bind_text(st, 4, file_kind_name(ff->kind));
	if (sqlite3_step(st) == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		current = 1;
	}
	sqlite3_finalize(st);
	return current;
}

static int
select_file(struct index *ix, sqlite3_int64 id, char **cause)
{
	sqlite3_stmt *st;
	int rc;

	st = index_prepare(ix, "INSERT OR IGNORE INTO selected VALUES (?)");
	sqlite3_bind_int64(st, 1, id);
	rc = step_done(ix, st, cause);
	sqlite3_finalize(st);
	return rc;
}

/*
 * Writes ff (and fs when it was parsed) in one transaction, replacing
 * what the index held for that path.
 */
static int
store_file(struct index *ix, const struct found_file *ff,
    const struct file_summary *fs, sqlite3_int64 *id, char **cause)
{
	struct writers w;
	size_t i;

	if (exec(ix, "BEGIN IMMEDIATE", cause) == -1)
		return -1;
	/* Another jaxprof may have stored it while this one was reading. */
	if (is_current(ix, ff, id))
		return exec(ix, "COMMIT", cause);
	if (delete_file(ix, ff->path, cause) == -1 ||
	    (*id = insert_file(ix, ff, fs, cause)) == -1)
		goto fail;
	if (fs != NULL) {
		writers_prepare(ix, &w);
		if (write_programs(ix, &w, *id, fs, cause) == -1) {
			writers_finalize(&w);
			goto fail;
		}
		for (i = 0; i < fs->nplanes; i++)
			if (write_plane(ix, &w, *id, fs, &fs->planes[i],
			    cause) == -1) {
				writers_finalize(&w);
				goto fail;
			}
		writers_finalize(&w);
	}
	return exec(ix, "COMMIT", cause);
fail:
	sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int
forget_file(struct index *ix, const char *path, char **cause)
{
	if (exec(ix, "BEGIN IMMEDIATE", cause) == -1)
		return -1;
	if (delete_file(ix, path, cause) == -1) {
		sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return exec(ix, "COMMIT", cause);
}

static int
found_has(const struct found *f, const char *path)
{
	size_t lo = 0, hi = f->nfiles;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(f->files[mid].path, path);

		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Drops indexed files under the roots that no longer exist. */
static int
drop_deleted(struct index *ix, const struct found *f, char **cause)
{
	sqlite3_stmt *st;
	char **gone = NULL;
	size_t ngone = 0, i;
	int rc = 0;

	st = index_prepare(ix, "SELECT path FROM files WHERE path = ?1 OR "
	    "substr(path, 1, length(?1) + 1) = ?1 || '/'");
	for (i = 0; i < f->nroots; i++) {
		bind_text(st, 1, f->roots[i]);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *path =
			    (const char *)sqlite3_column_text(st, 0);
			struct stat sb;

			if (found_has(f, path) || stat(path, &sb) == 0)
				continue;
			gone = xreallocarray(gone, ngone + 1, sizeof *gone);
			gone[ngone++] = xstrdup(path);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	for (i = 0; i < ngone; i++) {
		if (rc == 0 && forget_file(ix, gone[i], cause) == -1)
			rc = -1;
		free(gone[i]);
	}
	free(gone);
	return rc;
}

/* Whether a and b are in the same folder. */
static int
same_dir(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	return sa != NULL && sb != NULL && sa - a == sb - b &&
	    strncmp(a, b, (size_t)(sa - a)) == 0;
}

/*
 * Whether file i of f is read.  A run folder's trace JSON holds the same
 * events as its XSpace, and JAX's perfetto_trace.json.gz is a copy of
 * <host>.trace.json.gz: reading both would count everything twice, so
 * the XSpace wins, then the host's JSON.  Skipped files are still listed.
 */
static int
worth_reading(const struct found *f, size_t i)
{
	const struct found_file *ff = &f->files[i];
	const char *base = strrchr(ff->path, '/');
	int perfetto;
	size_t j;

	if (ff->kind == KIND_XPLANE)
		return 1;
	if (ff->kind != KIND_TRACE_JSON)
		return 0;
	base = base != NULL ? base + 1 : ff->path;
	perfetto = strncmp(base, "perfetto_trace.json", 19) == 0;
	for (j = 0; j < f->nfiles; j++) {
		const struct found_file *o = &f->files[j];
		const char *ob = strrchr(o->path, '/');

		if (j == i || !same_dir(o->path, ff->path))
			continue;
		ob = ob != NULL ? ob + 1 : o->path;
		if (o->kind == KIND_XPLANE || (perfetto &&
		    o->kind == KIND_TRACE_JSON &&
		    strncmp(ob, "perfetto_trace.json", 19) != 0))
			return 0;
	}
	return 1;
}

/*
 * Files to read are parsed by worker threads (hosts are independent) and
 * stored by the calling thread in order, one transaction each.
 */
struct job {
	const struct found_file *ff;
	struct file_summary fs;
	char		*cause;		/* set when rc is -1 */
	int		 rc;
	int		 done;
};

struct pool {
	struct job	*jobs;
	size_t		 njobs;
	size_t		 next;		/* the next job a worker takes */
	int		 plane_threads;	/* per file: CPUs left to its planes */
	pthread_mutex_t	 mu;
	pthread_cond_t	 done;
};

static void *
worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct job *j;

		pthread_mutex_lock(&p->mu);
		if (p->next == p->njobs) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		j = &p->jobs[p->next++];
		pthread_mutex_unlock(&p->mu);
		j->rc = load_file(j->ff->path, j->ff->kind, p->plane_threads,
		    &j->fs, &j->cause);
		pthread_mutex_lock(&p->mu);
		j->done = 1;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Stores one finished job; -1 on a database error (*cause set). */
static int
store_job(struct index *ix, struct job *j, sqlite3_int64 *id, int *bad,
    char **cause)
{
	const struct pf_read_stats *rs = &j->fs.read_stats;
	int rc;

	if (j->rc == -1) {
		jp_warnx("cannot read '%s': %s", j->ff->path, j->cause);
		free(j->cause);
		(*bad)++;
		*id = -1;
		return forget_file(ix, j->ff->path, cause);
	}
	if (rs->missing_event_metadata + rs->missing_stat_metadata > 0)
		jp_warnx("warning: '%s': %llu events and %llu stats refer to "
		    "missing metadata; their names are empty", j->ff->path,
		    (unsigned long long)rs->missing_event_metadata,
		    (unsigned long long)rs->missing_stat_metadata);
	rc = store_file(ix, j->ff, &j->fs, id, cause);
	file_summary_release(&j->fs);
	return rc;
}

int
index_refresh(struct index *ix, const struct found *f)
{
	struct pool pool;
	pthread_t threads[MAX_THREADS];
	sqlite3_int64 *ids = xcalloc(f->nfiles + 1, sizeof *ids);
	size_t *job_of = xcalloc(f->nfiles + 1, sizeof *job_of);
	char *cause = NULL;
	size_t i, nthreads = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int bad = 0, rc = -1;

	memset(&pool, 0, sizeof pool);
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.done, NULL);
	if (exec(ix, "DELETE FROM selected", &cause) == -1)
		goto out;
	/* Which files need reading. */
	pool.jobs = xcalloc(f->nfiles + 1, sizeof *pool.jobs);
	for (i = 0; i < f->nfiles; i++) {
		job_of[i] = SIZE_MAX;
		if (is_current(ix, &f->files[i], &ids[i]))
			continue;
		ids[i] = -1;
		if (worth_reading(f, i)) {
			job_of[i] = pool.njobs;
			pool.jobs[pool.njobs++].ff = &f->files[i];
		}
	}
	/* Fewer files than CPUs: the others read planes of a file. */
	pool.plane_threads = pool.njobs == 0 ? 1 :
	    (int)((ncpu > 0 ? (size_t)ncpu : 1) / pool.njobs);
	if (pool.plane_threads < 1)
		pool.plane_threads = 1;
	while (nthreads < MAX_THREADS && nthreads < pool.njobs &&
	    (long)nthreads < (ncpu > 0 ? ncpu : 1)) {
		if (pthread_create(&threads[nthreads], NULL, worker,
		    &pool) != 0)
			break;
		nthreads++;
	}
	if (nthreads == 0)
		worker(&pool);	/* no thread could start: read here */
	for (i = 0; i < f->nfiles; i++) {
		const struct found_file *ff = &f->files[i];

		if (job_of[i] != SIZE_MAX) {
			struct job *j = &pool.jobs[job_of[i]];

			pthread_mutex_lock(&pool.mu);
			while (!j->done)
				pthread_cond_wait(&pool.done, &pool.mu);
			pthread_mutex_unlock(&pool.mu);
			if (store_job(ix, j, &ids[i], &bad, &cause) == -1)
				goto out;
			if (ids[i] == -1)
				continue;
		} else if (ids[i] == -1 &&
		    store_file(ix, ff, NULL, &ids[i], &cause) == -1)
			goto out;
		if (select_file(ix, ids[i], &cause) == -1)
			goto out;
	}
	if (drop_deleted(ix, f, &cause) == -1)
		goto out;
	rc = bad;
out:
	if (rc == -1) {
		jp_warnx("index '%s': %s", ix->path,
		    cause != NULL ? cause : "error");
		free(cause);
		/* Let the workers finish before their jobs are freed. */
		pthread_mutex_lock(&pool.mu);
		pool.next = pool.njobs;
		pthread_mutex_unlock(&pool.mu);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	if (rc == -1)
		for (i = 0; i < pool.njobs; i++) {
			if (pool.jobs[i].done && pool.jobs[i].rc == 0)
				file_summary_release(&pool.jobs[i].fs);
			else if (pool.jobs[i].done)
				free(pool.jobs[i].cause);
		}
	pthread_mutex_destroy(&pool.mu);
	pthread_cond_destroy(&pool.done);
	free(pool.jobs);
	free(ids);
	free(job_of);
	return rc;
}
