/* Writing one file's summary into the index, in one transaction. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classify/classify.h"
#include "classify/step-parts.h"
#include "lib/err.h"
#include "index/index-db.h"
#include "index/index-memory.h"
#include "index/index-rows.h"
#include "index/index-write.h"
#include "read/read-hlo.h"
#include "index/run-totals.h"
#include "classify/transfer-totals.h"
#include "lib/xmalloc.h"

/* Tables holding one file's rows, cleared when it is re-read. */
static const char *const per_file_tables[] = {
	"planes", "ops", "kernels", "modules", "steps", "compiles", "transfers",
	"compile_phases", "executions", "gaps", "host_events", "scopes",
	"programs", "hlo_instructions", "transfer_totals",
	"step_collectives", "step_annotations", "memory_allocators", "memory_samples", "memory_allocations",
	"program_memory", "memory_buffers",
};

/* Whether table is one index_want_events() makes (index-schema.c). */
static int
is_event_table(const char *table)
{
	return strcmp(table, "host_events") == 0 ||
	    strcmp(table, "hlo_instructions") == 0 ||
	    strcmp(table, "executions") == 0 ||
	    strcmp(table, "transfers") == 0;
}

/* Whether table is one index_want_memory() makes (index-schema.c). */
static int
is_memory_table(const char *table)
{
	return strncmp(table, "memory_", 7) == 0 ||
	    strcmp(table, "program_memory") == 0;
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
	char *run = NULL;
	size_t i;
	int rc;

	st = index_cached(ix, "SELECT id, run FROM files WHERE path = ?");
	index_bind_text(st, 1, path);
	if (index_row(st)) {
		id = sqlite3_column_int64(st, 0);
		run = xstrdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_reset(st);
	if (id == -1)
		return 0;
	rc = run_totals_mark_stale(ix, run, cause);
	free(run);
	if (rc == -1)
		return -1;
	for (i = 0; i < sizeof per_file_tables / sizeof per_file_tables[0];
	    i++) {
		char *sql;

		/*
		 * Tables made on demand since this index was opened (by
		 * another process) hold its rows too.
		 */
		if (((!ix->events && is_event_table(per_file_tables[i])) ||
		    (!ix->memory && is_memory_table(per_file_tables[i]))) &&
		    !index_has_table(ix, per_file_tables[i]))
			continue;
		sql = xasprintf("DELETE FROM %s WHERE file_id = ?",
		    per_file_tables[i]);

		st = index_cached(ix, sql);
		free(sql);
		sqlite3_bind_int64(st, 1, id);
		if (index_step(ix, st, cause) == -1)
			return -1;
	}
	st = index_cached(ix, "DELETE FROM files WHERE id = ?");
	sqlite3_bind_int64(st, 1, id);
	return index_step(ix, st, cause);
}

/*
 * Binds fs's columns of the files row, parameters 7 to 18 of
 * insert_file()'s and update_summary()'s statements.
 */
static void
bind_summary(sqlite3_stmt *st, const struct file_summary *fs)
{
	if (fs != NULL) {
		char *errors = join_lines(fs->errors, fs->nerrors);
		char *warnings = join_lines(fs->warnings, fs->nwarnings);

		index_bind_text(st, 7, fs->host);
		sqlite3_bind_int64(st, 8, (sqlite3_int64)fs->nplanes);
		sqlite3_bind_int64(st, 9, (sqlite3_int64)fs->nlines);
		sqlite3_bind_int64(st, 10, (sqlite3_int64)fs->nevents);
		if (fs->nevents > 0) {
			sqlite3_bind_int64(st, 11, fs->start_ps);
			sqlite3_bind_int64(st, 12, fs->end_ps);
		}
		if (fs->profile_start_ns != 0)
			sqlite3_bind_int64(st, 13, fs->profile_start_ns);
		index_bind_text(st, 14, op_source_name(fs->op_source));
		index_bind_text(st, 15, errors);
		index_bind_text(st, 16, warnings);
		sqlite3_bind_int64(st, 17, (sqlite3_int64)
		    (fs->read_stats.missing_event_metadata +
		    fs->read_stats.missing_stat_metadata));
		free(errors);
		free(warnings);
	}
	sqlite3_bind_int64(st, 18, (sqlite3_int64)time(NULL));
}

/* The files row of ff, with fs's columns (NULL: none, or not yet). */
static sqlite3_int64
insert_file(struct index *ix, const struct found_file *ff,
    const struct file_summary *fs, char **cause)
{
	sqlite3_stmt *st;
	sqlite3_int64 id = -1;

	st = index_cached(ix, "INSERT INTO files(path, kind, run, host, "
	    "size, mtime_ns, hostname, planes, lines, events, start_ps, "
	    "end_ps, profile_start_ns, op_source, errors, warnings, "
	    "missing_metadata, indexed_at, event_rows, memory_rows) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	index_bind_text(st, 1, ff->path);
	index_bind_text(st, 2, file_kind_name(ff->kind));
	index_bind_text(st, 3, ff->run);
	index_bind_text(st, 4, ff->host);
	sqlite3_bind_int64(st, 5, ff->size);
	sqlite3_bind_int64(st, 6, ff->mtime_ns);
	bind_summary(st, fs);
	sqlite3_bind_int(st, 19, ix->events);
	sqlite3_bind_int(st, 20, ix->memory);
	if (index_step(ix, st, cause) == 0)
		id = sqlite3_last_insert_rowid(ix->db);
	if (id != -1 && run_totals_mark_stale(ix, ff->run, cause) == -1)
		id = -1;
	return id;
}

/* fs's columns of a files row inserted before fs was read. */
static int
update_summary(struct index *ix, sqlite3_int64 id,
    const struct file_summary *fs, char **cause)
{
	sqlite3_stmt *st;

	st = index_cached(ix, "UPDATE files SET hostname = ?7, planes = ?8, "
	    "lines = ?9, events = ?10, start_ps = ?11, end_ps = ?12, "
	    "profile_start_ns = ?13, op_source = ?14, errors = ?15, "
	    "warnings = ?16, missing_metadata = ?17, indexed_at = ?18 "
	    "WHERE id = ?1");
	sqlite3_bind_int64(st, 1, id);
	bind_summary(st, fs);
	return index_step(ix, st, cause);
}

/*
 * Statements for the per-plane tables, prepared once per index; the rows
 * of the tables a file may hold many of go in many to a statement.
 */
struct writers {
	sqlite3_stmt	*plane, *compile, *phase;
	struct index_rows *op, *kernel, *module, *step, *transfer, *exec,
			*gap, *host_event, *scope, *program, *transfer_total,
			*step_collective, *step_annotation;
	int		 events;	/* event-level rows stored (index_want_events()) */
	struct exec_ends *exec_ends;	/* for the transfers' waits */
};

static void
writers_prepare(struct index *ix, struct writers *w,
    const struct file_summary *fs)
{
	w->plane = index_cached(ix, "INSERT INTO planes(file_id, plane_id, "
	    "name, kind, lines, events, start_ps, end_ps, peak_gflops, "
	    "peak_gbps, device_model, peak_source, peak_fp8_gflops, "
	    "peak_bf16_gflops, peak_tf32_gflops, peak_fp32_gflops, "
	    "peak_fp64_gflops, peak_int8_gflops, profile_gflops, "
	    "profile_gbps) "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	w->compile = index_cached(ix, "INSERT INTO compiles(file_id, plane, "
	    "line, name, function, start_ps, dur_ps, autotune_ps) "
	    "VALUES (?,?,?,?,?,?,?,?)");
	w->phase = index_cached(ix, "INSERT INTO compile_phases VALUES "
	    "(?,?,?,?,?)");
	w->op = index_rows_new(ix, "ops", 18);
	w->kernel = index_rows_new(ix, "kernels", 14);
	w->module = index_rows_new(ix, "modules", 10);
	w->step = index_rows_new(ix, "steps", 11);
	w->exec = index_rows_new(ix, "executions", 9);
	w->gap = index_rows_new(ix, "gaps", 4);
	w->host_event = index_rows_new(ix, "host_events", 7);
	w->events = ix->events;
	w->scope = index_rows_new(ix, "scopes", 8);
	w->program = index_rows_new(ix, "programs", 3);
	w->transfer = index_rows_new(ix, "transfers", 10);
	w->transfer_total = index_rows_new(ix, "transfer_totals", 11);
	w->step_collective = index_rows_new(ix, "step_collectives", 7);
	w->step_annotation = index_rows_new(ix, "step_annotations", 6);
	w->exec_ends = exec_ends_new(fs);
}

/* Inserts the rows still waiting in the writers. */
static int
writers_flush(struct writers *w, char **cause)
{
	struct index_rows *const all[] = {
		w->op, w->kernel, w->module, w->step, w->exec, w->gap,
		w->host_event, w->scope, w->program, w->transfer,
		w->transfer_total, w->step_collective, w->step_annotation,
	};
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		if (index_rows_flush(all[i], cause) == -1)
			return -1;
	return 0;
}

/* The statements belong to the index (index_cached()). */
static void
writers_finalize(struct writers *w)
{
	index_rows_free(w->op);
	index_rows_free(w->kernel);
	index_rows_free(w->module);
	index_rows_free(w->step);
	index_rows_free(w->exec);
	index_rows_free(w->gap);
	index_rows_free(w->host_event);
	index_rows_free(w->scope);
	index_rows_free(w->program);
	index_rows_free(w->transfer);
	index_rows_free(w->transfer_total);
	index_rows_free(w->step_collective);
	index_rows_free(w->step_annotation);
	exec_ends_free(w->exec_ends);
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
		index_bind_text(w->phase, 3, fs->strings.strings[ph->name]);
		sqlite3_bind_int64(w->phase, 4, ph->start_ps);
		sqlite3_bind_int64(w->phase, 5, ph->dur_ps);
		if (index_step(ix, w->phase, cause) == -1)
			return -1;
	}
	return 0;
}

/* Room for scope paths, reused from one scope to the next. */
struct path_buf {
	uint32_t	*chain;		/* a scope and its ancestors */
	size_t		 chain_cap;
	char		*text;
	size_t		 text_cap;
};

/*
 * A scope's path: its ancestors' names and its own, joined by ';'.  Built
 * in one pass over the chain: joining a level at a time copied the path
 * once per level, quadratic in the depth of Python call stacks.
 */
static const char *
scope_path(const struct file_summary *fs, const struct plane_summary *p,
    uint32_t i, int *depth, struct path_buf *b)
{
	size_t n = 0, len = 0, k;

	for (;;) {
		if (n == b->chain_cap) {
			b->chain_cap = b->chain_cap == 0 ? 16 : b->chain_cap * 2;
			b->chain = xreallocarray(b->chain, b->chain_cap,
			    sizeof *b->chain);
		}
		b->chain[n++] = i;
		len += strlen(fs->strings.strings[p->scopes[i].name]) + 1;
		if (p->scopes[i].parent == NO_SCOPE)
			break;
		i = p->scopes[i].parent;
	}
	if (len > b->text_cap) {
		b->text_cap = len;
		b->text = xreallocarray(b->text, b->text_cap, 1);
	}
	len = 0;
	for (k = n; k-- > 0; ) {
		const char *name =
		    fs->strings.strings[p->scopes[b->chain[k]].name];
		size_t nlen = strlen(name);

		memcpy(b->text + len, name, nlen);
		len += nlen;
		b->text[len++] = k > 0 ? ';' : '\0';
	}
	*depth = (int)n - 1;
	return b->text;
}

/* One row of host_events: from a summary, or from a batch stored ahead. */
static int
put_host_event(struct index_rows *rows, sqlite3_int64 file_id,
    sqlite3_int64 plane, const char *line, const char *name, int depth,
    int64_t start_ps, int64_t dur_ps, char **cause)
{
	index_rows_int(rows, 1, file_id);
	index_rows_int(rows, 2, plane);
	index_rows_text(rows, 3, line);
	index_rows_text(rows, 4, name);
	index_rows_int(rows, 5, depth);
	index_rows_int(rows, 6, start_ps);
	index_rows_int(rows, 7, dur_ps);
	return index_rows_end(rows, cause);
}

/* Executions, idle gaps, long host events and scopes of a plane. */
static int
write_timeline(struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    sqlite3_int64 plane, char **cause)
{
	char *const *s = fs->strings.strings;
	struct path_buf pb = { NULL, 0, NULL, 0 };
	size_t i;

	for (i = 0; w->events && i < p->nexecs; i++) {
		const struct exec_rec *e = &p->execs[i];
		struct index_rows *rows = w->exec;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text(rows, 3, s[e->module]);
		if (e->program_id != -1)
			index_rows_int(rows, 4, e->program_id);
		if (e->run_id != -1)
			index_rows_int(rows, 5, e->run_id);
		index_rows_int(rows, 6, e->start_ps);
		index_rows_int(rows, 7, e->dur_ps);
		index_rows_int(rows, 8, e->device_ps);
		index_rows_int(rows, 9, e->compile_work);
		if (index_rows_end(rows, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->ngaps; i++) {
		index_rows_int(w->gap, 1, file_id);
		index_rows_int(w->gap, 2, plane);
		index_rows_int(w->gap, 3, p->gaps[i].start_ps);
		index_rows_int(w->gap, 4, p->gaps[i].dur_ps);
		if (index_rows_end(w->gap, cause) == -1)
			return -1;
	}
	for (i = 0; w->events && i < p->nhost_events; i++) {
		const struct host_event_rec *h = &p->host_events[i];

		if (put_host_event(w->host_event, file_id, plane, s[h->line],
		    s[h->name], h->depth, h->start_ps, h->dur_ps, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nscopes; i++) {
		const struct scope_agg *sc = &p->scopes[i];
		struct index_rows *rows = w->scope;
		int depth;
		const char *path = scope_path(fs, p, (uint32_t)i, &depth, &pb);

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text_copy(rows, 3, path);
		index_rows_text(rows, 4, s[sc->name]);
		index_rows_int(rows, 5, depth);
		index_rows_int(rows, 6, (sqlite3_int64)sc->count);
		index_rows_int(rows, 7, sc->total_ps);
		index_rows_int(rows, 8, sc->self_ps);
		if (index_rows_end(rows, cause) == -1)
			break;
	}
	free(pb.chain);
	free(pb.text);
	return i < p->nscopes ? -1 : 0;
}

static int
write_programs(struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, char **cause)
{
	size_t i;

	for (i = 0; i < fs->nprograms; i++) {
		index_rows_int(w->program, 1, file_id);
		index_rows_text(w->program, 2,
		    fs->strings.strings[fs->programs[i].module]);
		index_rows_int(w->program, 3, fs->programs[i].program_id);
		if (index_rows_end(w->program, cause) == -1)
			return -1;
	}
	return 0;
}

/* The programs' HLO instructions, for reports to join on. */
static int
write_hlo(struct index *ix, sqlite3_int64 file_id, const struct hlo_set *hlo,
    char **cause)
{
	struct index_rows *rows = index_rows_new(ix, "hlo_instructions", 16);
	size_t i, j;
	int rc = 0;

	for (i = 0; rc == 0 && i < hlo_set_count(hlo); i++) {
		const struct hlo_module *m = hlo_set_module(hlo, i);

		for (j = 0; rc == 0 && j < m->ninstrs; j++) {
			const struct hlo_instr *in = &m->instrs[j];

			index_rows_int(rows, 1, file_id);
			index_rows_int(rows, 2, m->program_id);
			/* Names and op names are an instruction's own. */
			index_rows_text(rows, 3, m->name);
			index_rows_text(rows, 4, in->computation);
			index_rows_text(rows, 5, in->name);
			index_rows_int(rows, 6, in->id);
			index_rows_text(rows, 7, in->opcode);
			index_rows_text(rows, 8, in->category);
			index_rows_text(rows, 9, in->fusion_kind);
			index_rows_text(rows, 10, in->custom_call_target);
			index_rows_text(rows, 11, in->op_name);
			index_rows_text(rows, 12, in->op_type);
			index_rows_text(rows, 13, in->source_file);
			if (in->source_line > 0)
				index_rows_int(rows, 14, in->source_line);
			index_rows_text(rows, 15, in->source_function);
			if (in->schedule_index >= 0)
				index_rows_int(rows, 16, in->schedule_index);
			rc = index_rows_end(rows, cause);
		}
	}
	if (rc == 0)
		rc = index_rows_flush(rows, cause);
	index_rows_free(rows);
	return rc;
}

/* The plane's transfers summed per direction and kind (transfer_totals). */
/*
 * The plane's collectives and annotations by step (step-parts.h); a host
 * plane without steps of its own (its file has devices) takes the steps
 * of the file's first plane that has them.
 */
static int
write_step_parts(struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    sqlite3_int64 plane, char **cause)
{
	const char *const *s = (const char *const *)fs->strings.strings;
	const struct plane_summary *with_steps = p;
	struct step_collective *c;
	struct step_annotation *a;
	size_t i, n;
	int rc = 0;

	n = step_collectives_of(p, &c);
	for (i = 0; i < n && rc == 0; i++) {
		index_rows_int(w->step_collective, 1, file_id);
		index_rows_int(w->step_collective, 2, plane);
		index_rows_int(w->step_collective, 3, c[i].step);
		index_rows_text(w->step_collective, 4, s[c[i].name]);
		index_rows_int(w->step_collective, 5, c[i].occurrence);
		index_rows_int(w->step_collective, 6, c[i].start_ps);
		index_rows_int(w->step_collective, 7, c[i].dur_ps);
		rc = index_rows_end(w->step_collective, cause);
	}
	free(c);
	if (rc == -1 || p->nannotations == 0)
		return rc;
	for (i = 0; with_steps->nsteps == 0 && i < fs->nplanes; i++)
		with_steps = &fs->planes[i];
	n = step_annotations_of(p, with_steps->steps, with_steps->nsteps, &a);
	for (i = 0; i < n && rc == 0; i++) {
		index_rows_int(w->step_annotation, 1, file_id);
		index_rows_int(w->step_annotation, 2, plane);
		index_rows_int(w->step_annotation, 3, a[i].step);
		index_rows_text(w->step_annotation, 4, s[a[i].name]);
		index_rows_int(w->step_annotation, 5, a[i].count);
		index_rows_int(w->step_annotation, 6, a[i].dur_ps);
		rc = index_rows_end(w->step_annotation, cause);
	}
	free(a);
	return rc;
}

static int
write_transfer_totals(struct writers *w, sqlite3_int64 file_id,
    const struct plane_summary *p, sqlite3_int64 plane, char **cause)
{
	struct transfer_total *t;
	size_t i, n;
	int rc = 0;

	if (transfer_totals(p, w->exec_ends, &t, &n, cause) == -1)
		return -1;
	for (i = 0; rc == 0 && i < n; i++) {
		struct index_rows *rows = w->transfer_total;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text(rows, 3, transfer_dir_name(t[i].dir));
		index_rows_int(rows, 4, t[i].on_host);
		index_rows_int(rows, 5, t[i].count);
		if (t[i].rated_count > 0)
			index_rows_int(rows, 6, t[i].bytes);
		index_rows_int(rows, 7, t[i].dur_ps);
		if (t[i].rated_count > 0)
			index_rows_int(rows, 8, t[i].rated_ps);
		index_rows_int(rows, 9, t[i].rated_count);
		index_rows_int(rows, 10, t[i].wait_ps);
		index_rows_int(rows, 11, t[i].compile_work);
		rc = index_rows_end(rows, cause);
	}
	free(t);
	return rc;
}

/* expect: the plane's rowid that host events stored ahead name, or -1. */
static int
write_plane(struct index *ix, struct writers *w, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    sqlite3_int64 expect, char **cause)
{
	char *const *s = fs->strings.strings;
	sqlite3_int64 plane;
	size_t i;

	sqlite3_bind_int64(w->plane, 1, file_id);
	sqlite3_bind_int64(w->plane, 2, p->id);
	index_bind_text(w->plane, 3, s[p->name]);
	index_bind_text(w->plane, 4, plane_kind_name(p->kind));
	sqlite3_bind_int64(w->plane, 5, (sqlite3_int64)p->nlines);
	sqlite3_bind_int64(w->plane, 6, (sqlite3_int64)p->nevents);
	if (p->nevents > 0) {
		sqlite3_bind_int64(w->plane, 7, p->start_ps);
		sqlite3_bind_int64(w->plane, 8, p->end_ps);
	}
	if (p->has_peak) {
		const struct device_peak *pk = &p->peak;
		int k;

		sqlite3_bind_double(w->plane, 9, pk->top_gflops);
		sqlite3_bind_double(w->plane, 10, pk->gbps);
		if (pk->model != NULL)
			index_bind_text(w->plane, 11, pk->model);
		index_bind_text(w->plane, 12, pk->source == PEAK_SPEC ?
		    "spec" : "profile");
		/* Columns 13.. in enum precision's order; NULL: none. */
		for (k = 0; k < PREC_N; k++)
			if (pk->gflops[k] > 0)
				sqlite3_bind_double(w->plane, 13 + k,
				    pk->gflops[k]);
	}
	if (p->peak.profile_gflops > 0 && p->peak.profile_gbps > 0) {
		sqlite3_bind_double(w->plane, 19, p->peak.profile_gflops);
		sqlite3_bind_double(w->plane, 20, p->peak.profile_gbps);
	}
	if (index_step(ix, w->plane, cause) == -1)
		return -1;
	plane = sqlite3_last_insert_rowid(ix->db);
	if (expect != -1 && plane != expect) {
		*cause = xasprintf("plane '%s' stored as %lld, not as %lld",
		    s[p->name], (long long)plane, (long long)expect);
		return -1;
	}

	for (i = 0; i < p->nops; i++) {
		const struct op_agg *o = &p->ops[i];
		struct index_rows *rows = w->op;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text(rows, 3, s[o->name]);
		index_rows_text(rows, 4, s[o->module]);
		index_rows_text(rows, 5, s[o->category]);
		index_rows_int(rows, 6, (sqlite3_int64)o->count);
		index_rows_int(rows, 7, o->total_ps);
		index_rows_int(rows, 8, o->self_ps);
		index_rows_int(rows, 9, o->min_ps);
		index_rows_int(rows, 10, o->max_ps);
		if (o->has_flops)
			index_rows_int(rows, 11, (sqlite3_int64)o->flops);
		if (o->has_bytes)
			index_rows_int(rows, 12,
			    (sqlite3_int64)o->bytes_accessed);
		index_rows_text(rows, 13, s[o->framework_op]);
		index_rows_text(rows, 14, s[o->source]);
		index_rows_text(rows, 15, s[o->source_function]);
		index_rows_text(rows, 16, s[o->parent]);
		index_rows_int(rows, 17, o->compile_work);
		if (o->precision != PREC_UNKNOWN)
			index_rows_text(rows, 18, precision_name(o->precision));
		if (index_rows_end(rows, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nkernels; i++) {
		const struct kernel_agg *k = &p->kernels[i];
		struct index_rows *rows = w->kernel;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text(rows, 3, s[k->name]);
		if (k->op != UINT32_MAX)
			index_rows_text(rows, 4, s[k->op]);
		index_rows_int(rows, 5, (sqlite3_int64)k->count);
		index_rows_int(rows, 6, k->total_ps);
		index_rows_int(rows, 7, k->min_ps);
		index_rows_int(rows, 8, k->max_ps);
		index_rows_int(rows, 9, k->compile_work);
		index_rows_text(rows, 10, s[k->details]);
		if (k->module != UINT32_MAX)
			index_rows_text(rows, 11, s[k->module]);
		if (k->category != UINT32_MAX)
			index_rows_text(rows, 12, s[k->category]);
		if (k->source != UINT32_MAX)
			index_rows_text(rows, 13, s[k->source]);
		if (k->framework_op != UINT32_MAX)
			index_rows_text(rows, 14, s[k->framework_op]);
		if (index_rows_end(rows, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nmodules; i++) {
		const struct module_agg *m = &p->modules[i];
		struct index_rows *rows = w->module;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text(rows, 3, s[m->name]);
		if (m->program_id != -1)
			index_rows_int(rows, 4, m->program_id);
		index_rows_int(rows, 5, (sqlite3_int64)m->count);
		index_rows_int(rows, 6, m->total_ps);
		index_rows_int(rows, 7, m->min_ps);
		index_rows_int(rows, 8, m->max_ps);
		index_rows_int(rows, 9, m->device_ps);
		index_rows_int(rows, 10, m->compile_work);
		if (index_rows_end(rows, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->nsteps; i++) {
		const struct step_rec *r = &p->steps[i];
		struct index_rows *rows = w->step;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text(rows, 3, step_source_name(r->source));
		index_rows_int(rows, 4, r->step);
		index_rows_text(rows, 5, s[r->name]);
		index_rows_int(rows, 6, r->start_ps);
		index_rows_int(rows, 7, r->dur_ps);
		index_rows_int(rows, 8, r->busy_ps[BUSY_COMPUTE]);
		index_rows_int(rows, 9, r->busy_ps[BUSY_COLLECTIVE]);
		index_rows_int(rows, 10, r->busy_ps[BUSY_TRANSFER]);
		index_rows_int(rows, 11, r->idle_ps);
		if (index_rows_end(rows, cause) == -1)
			return -1;
	}
	for (i = 0; i < p->ncompiles; i++) {
		const struct compile_rec *r = &p->compiles[i];
		sqlite3_stmt *st = w->compile;

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		index_bind_text(st, 3, s[r->line]);
		index_bind_text(st, 4, s[r->name]);
		index_bind_text(st, 5, s[r->function]);
		sqlite3_bind_int64(st, 6, r->start_ps);
		sqlite3_bind_int64(st, 7, r->dur_ps);
		sqlite3_bind_int64(st, 8, r->autotune_ps);
		if (index_step(ix, st, cause) == -1 ||
		    write_phases(ix, w, file_id, fs, p, r,
		    sqlite3_last_insert_rowid(ix->db), cause) == -1)
			return -1;
	}
	for (i = 0; w->events && i < p->ntransfers; i++) {
		const struct transfer_rec *r = &p->transfers[i];
		struct index_rows *rows = w->transfer;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, plane);
		index_rows_text(rows, 3, s[r->line]);
		index_rows_text(rows, 4, s[r->name]);
		index_rows_text(rows, 5, transfer_dir_name(r->dir));
		index_rows_int(rows, 6, r->on_host);
		if (r->bytes >= 0)
			index_rows_int(rows, 7, r->bytes);
		index_rows_int(rows, 8, r->start_ps);
		index_rows_int(rows, 9, r->dur_ps);
		index_rows_int(rows, 10, r->compile_work);
		if (index_rows_end(rows, cause) == -1)
			return -1;
	}
	if (ix->memory && index_write_memory_samples(ix, file_id, fs, p, plane,
	    cause) == -1)
		return -1;
	if (write_step_parts(w, file_id, fs, p, plane, cause) == -1)
		return -1;
	return write_transfer_totals(w, file_id, p, plane, cause) == -1 ? -1 :
	    write_timeline(w, file_id, fs, p, plane, cause);
}

/*
 * Whether the index already holds ff as it is on disk, read or listed
 * only as read says; its id if so.
 */
int
index_is_current(struct index *ix, const struct found_file *ff, int read,
    sqlite3_int64 *id)
{
	sqlite3_stmt *st;
	int current = 0;

	st = index_cached(ix, "SELECT id FROM files WHERE path = ? AND "
	    "size = ? AND mtime_ns = ? AND kind = ? AND "
	    "(planes IS NOT NULL) = ?5 AND (event_rows OR NOT ?6 OR NOT ?5) "
	    "AND (memory_rows OR NOT ?7 OR NOT ?5)");
	index_bind_text(st, 1, ff->path);
	sqlite3_bind_int64(st, 2, ff->size);
	sqlite3_bind_int64(st, 3, ff->mtime_ns);
	index_bind_text(st, 4, file_kind_name(ff->kind));
	sqlite3_bind_int(st, 5, read != 0);
	sqlite3_bind_int(st, 6, ix->events);
	sqlite3_bind_int(st, 7, ix->memory);
	if (index_row(st)) {
		*id = sqlite3_column_int64(st, 0);
		current = 1;
	}
	sqlite3_reset(st);
	return current;
}

/*
 * Opens ff's savepoint, deletes what the index held for its path and
 * writes its files row (fs's columns when fs is known) and the programs'
 * HLO.
 */
static int
store_open(struct index *ix, const struct found_file *ff,
    const struct file_summary *fs, const struct hlo_set *hlo,
    struct file_store *fst, char **cause)
{
	if (index_step(ix, index_cached(ix, "SAVEPOINT store_file"),
	    cause) == -1)
		return -1;
	fst->open = 1;
	if (delete_file(ix, ff->path, cause) == -1 ||
	    (fst->id = insert_file(ix, ff, fs, cause)) == -1 ||
	    (hlo != NULL && ((ix->events &&
	    write_hlo(ix, fst->id, hlo, cause) == -1) ||
	    (ix->memory &&
	    index_write_program_memory(ix, fst->id, hlo, cause) == -1)))) {
		index_store_abandon(ix, fst);
		return -1;
	}
	return 0;
}

/* The rest of fs after store_open(), and the savepoint released. */
static int
store_close(struct index *ix, struct file_store *fst,
    const struct file_summary *fs, char **cause)
{
	struct writers w;
	size_t i;
	int rc = 0;

	if (fs != NULL) {
		writers_prepare(ix, &w, fs);
		rc = write_programs(&w, fst->id, fs, cause);
		for (i = 0; rc == 0 && i < fs->nplanes; i++)
			rc = write_plane(ix, &w, fst->id, fs, &fs->planes[i],
			    fst->plane_base == -1 ? -1 :
			    fst->plane_base + (sqlite3_int64)i, cause);
		if (rc == 0)
			rc = writers_flush(&w, cause);
		writers_finalize(&w);
	}
	if (rc == 0 && index_step(ix, index_cached(ix, "RELEASE store_file"),
	    cause) == 0) {
		fst->open = 0;
		return 0;
	}
	index_store_abandon(ix, fst);
	return -1;
}

/*
 * Writes ff (and fs when it was parsed), replacing what the index held
 * for that path.  The caller holds a write transaction (a batch of
 * index-refresh.c); a savepoint makes the file all or nothing inside it.
 */
int
index_store_file(struct index *ix, const struct found_file *ff,
    const struct file_summary *fs, sqlite3_int64 *id, char **cause)
{
	struct file_store fst;

	memset(&fst, 0, sizeof fst);
	fst.plane_base = -1;
	/* Another jaxprof may have stored it while this one was reading. */
	if (index_is_current(ix, ff, fs != NULL, id))
		return 0;
	if (store_open(ix, ff, fs, fs != NULL ? fs->hlo : NULL, &fst,
	    cause) == -1 || store_close(ix, &fst, fs, cause) == -1)
		return -1;
	*id = fst.id;
	return 0;
}

int
index_store_begin(struct index *ix, const struct found_file *ff,
    const struct hlo_set *hlo, struct file_store *fst, char **cause)
{
	memset(fst, 0, sizeof *fst);
	fst->plane_base = -1;
	/* As in index_store_file(): then it is left as it is. */
	if (index_is_current(ix, ff, 1, &fst->id))
		fst->current = 1;
	else if (store_open(ix, ff, NULL, hlo, fst, cause) == -1)
		return -1;
	fst->begun = 1;
	return 0;
}

int
index_store_host_events(struct index *ix, struct file_store *fst,
    const struct host_event_batch *b, char **cause)
{
	struct index_rows *rows;
	size_t i;
	int rc = 0;

	if (fst->current)
		return 0;
	if (fst->plane_base == -1) {
		sqlite3_stmt *st = index_cached(ix,
		    "SELECT coalesce(max(id), 0) + 1 FROM planes");

		if (index_row(st))
			fst->plane_base = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		if (fst->plane_base == -1) {
			*cause = index_errmsg(ix->db);
			index_store_abandon(ix, fst);
			return -1;
		}
	}
	rows = index_rows_new(ix, "host_events", 7);
	for (i = 0; rc == 0 && i < b->nrows; i++) {
		const struct host_event_row *r = &b->rows[i];

		rc = put_host_event(rows, fst->id, fst->plane_base +
		    (sqlite3_int64)b->plane, b->text + r->line,
		    b->text + r->name, r->depth, r->start_ps, r->dur_ps, cause);
	}
	if (rc == 0)
		rc = index_rows_flush(rows, cause);
	index_rows_free(rows);
	if (rc == -1)
		index_store_abandon(ix, fst);
	return rc;
}

int
index_store_finish(struct index *ix, struct file_store *fst,
    const struct file_summary *fs, sqlite3_int64 *id, char **cause)
{
	fst->begun = 0;
	if (fst->current) {
		*id = fst->id;
		return 0;
	}
	if (update_summary(ix, fst->id, fs, cause) == -1) {
		index_store_abandon(ix, fst);
		return -1;
	}
	if (store_close(ix, fst, fs, cause) == -1)
		return -1;
	*id = fst->id;
	return 0;
}

void
index_store_abandon(struct index *ix, struct file_store *fst)
{
	fst->begun = 0;
	if (!fst->open)
		return;
	fst->open = 0;
	sqlite3_exec(ix->db, "ROLLBACK TO store_file; RELEASE store_file",
	    NULL, NULL, NULL);
}

int
index_forget_file(struct index *ix, const char *path, char **cause)
{
	if (index_exec(ix, "SAVEPOINT forget_file", cause) == -1)
		return -1;
	if (delete_file(ix, path, cause) == -1) {
		sqlite3_exec(ix->db, "ROLLBACK TO forget_file; "
		    "RELEASE forget_file", NULL, NULL, NULL);
		return -1;
	}
	return index_exec(ix, "RELEASE forget_file", cause);
}
