/* Profile summaries for diff and check, from the index or a baseline. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/discover.h"
#include "lib/err.h"
#include "index/index.h"
#include "report/memory-losses.h"
#include "report/report.h"
#include "lib/ptime.h"
#include "lib/stats.h"
#include "report/summary.h"
#include "lib/xmalloc.h"

void
summary_init(struct summary *s)
{
	memset(s, 0, sizeof *s);
}

void
summary_release(struct summary *s)
{
	size_t i;

	free(s->label);
	free(s->jaxprof_version);
	free(s->created);
	free_strings(s->sources, s->nsources);
	free(s->host_glob);
	free(s->device_glob);
	free(s->run_glob);
	free_strings(s->hosts, s->nhosts);
	free_strings(s->runs, s->nruns);
	op_rows_free(s->ops, s->nops);
	op_rows_free(s->kernels, s->nkernels);
	free(s->step_source);
	for (i = 0; i < s->nsteps; i++) {
		free(s->steps[i].host);
		free(s->steps[i].run);
		free(s->steps[i].plane);
		free(s->steps[i].dur_ps);
	}
	free(s->steps);
	for (i = 0; i < s->ncompiles; i++)
		free(s->compiles[i].function);
	free(s->compiles);
	for (i = 0; i < s->ntransfers; i++)
		free(s->transfers[i].direction);
	free(s->transfers);
	for (i = 0; i < s->nmemory; i++) {
		free(s->memory[i].kind);
		free(s->memory[i].name);
	}
	free(s->memory);
	memset(s, 0, sizeof *s);
}

/* The distinct values of files column col in the selection. */
static void
load_distinct(struct report *r, const char *col, char ***v, size_t *n)
{
	sqlite3_stmt *st;
	char *sql;

	sql = xasprintf("SELECT DISTINCT f.%s FROM files f JOIN selected s "
	    "ON s.file_id = f.id WHERE f.host <> '' AND f.host GLOB ?101 "
	    "AND f.run GLOB ?103 "
	    "ORDER BY 1", col);
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (index_row(st)) {
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		(*v)[(*n)++] = index_column_text(st, 0);
	}
	sqlite3_finalize(st);
}

/* One step duration, with what orders it (file path rank, plane, step). */
struct step_dur {
	size_t		 file_rank;
	int64_t		 plane, step_key, start_key, dur_ps;
};

static int
cmp_step_dur(const void *a, const void *b)
{
	const struct step_dur *x = a, *y = b;

	if (x->file_rank != y->file_rank)
		return x->file_rank < y->file_rank ? -1 : 1;
	if (x->plane != y->plane)
		return x->plane < y->plane ? -1 : 1;
	if (x->step_key != y->step_key)
		return x->step_key < y->step_key ? -1 : 1;
	return x->start_key < y->start_key ? -1 : x->start_key > y->start_key;
}

/* A selected file and its place in path order. */
struct file_rank {
	int64_t		 id;
	size_t		 rank;
};

static int
cmp_file_id(const void *a, const void *b)
{
	const struct file_rank *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The selected files' ranks in path order, sorted by id. */
static struct file_rank *
file_ranks(struct report *r, size_t *n)
{
	sqlite3_stmt *st;
	struct file_rank *files = NULL;

	st = index_prepare(r->ix, "SELECT f.id FROM files f JOIN selected s "
	    "ON s.file_id = f.id ORDER BY f.path");
	*n = 0;
	while (index_row(st)) {
		files = xreallocarray(files, *n + 1, sizeof *files);
		files[*n].id = sqlite3_column_int64(st, 0);
		files[*n].rank = *n;
		(*n)++;
	}
	sqlite3_finalize(st);
	if (*n > 0)
		qsort(files, *n, sizeof *files, cmp_file_id);
	return files;
}

/* A new series for plane, named by names (host, run, plane name). */
static void
add_series(struct summary *s, sqlite3_stmt *names, int64_t plane)
{
	struct step_series *cur;

	s->steps = xreallocarray(s->steps, s->nsteps + 1, sizeof *s->steps);
	cur = &s->steps[s->nsteps++];
	memset(cur, 0, sizeof *cur);
	sqlite3_bind_int64(names, 1, plane);
	if (index_row(names)) {
		cur->host = index_column_text(names, 0);
		cur->run = index_column_text(names, 1);
		cur->plane = index_column_text(names, 2);
	}
	sqlite3_reset(names);
}

/*
 * Step durations per (file, plane).  Device steps are used when the
 * selection has any, else host steps (StepTraceAnnotation), so a GPU
 * profile's host annotations do not count its steps twice.  This is
 * the one place that picks step rows; adapt it with the steps schema.
 * Ordered here, in C: SQL's ORDER BY f.path sorted every step with its
 * texts.
 */
static void
load_step_times(struct summary *s, struct report *r)
{
	sqlite3_stmt *st;
	struct step_dur *rows = NULL;
	struct file_rank *ranks;
	int64_t last_plane = -1;
	size_t nfiles, nrows = 0, cap = 0, i;

	st = report_prepare(r, "SELECT st.source FROM steps st "
	    "JOIN planes p ON p.id = st.plane JOIN files f ON f.id = "
	    "st.file_id JOIN selected s ON s.file_id = f.id "
	    "WHERE st.source = 'device'", " LIMIT 1");
	if (!index_row(st)) {
		sqlite3_finalize(st);
		st = report_prepare(r, "SELECT st.source FROM steps st "
		    "JOIN planes p ON p.id = st.plane JOIN files f ON f.id = "
		    "st.file_id JOIN selected s ON s.file_id = f.id WHERE 1",
		    " LIMIT 1");
		(void)index_row(st);
	}
	s->step_source = sqlite3_data_count(st) > 0 ?
	    index_column_text(st, 0) : xstrdup("");
	sqlite3_finalize(st);

	ranks = file_ranks(r, &nfiles);
	st = report_prepare(r, "SELECT f.id, p.id, st.step, st.start_ps, "
	    "st.dur_ps FROM steps st JOIN planes p ON p.id = st.plane "
	    "JOIN files f ON f.id = st.file_id JOIN selected s ON s.file_id "
	    "= f.id WHERE st.source = ?1", "");
	sqlite3_bind_text(st, 1, s->step_source, -1, SQLITE_STATIC);
	while (index_row(st)) {
		struct file_rank key = { sqlite3_column_int64(st, 0), 0 };
		const struct file_rank *file = bsearch(&key, ranks, nfiles,
		    sizeof *ranks, cmp_file_id);
		struct step_dur *d;

		if (nrows == cap) {
			cap = cap > 0 ? 2 * cap : 256;
			rows = xreallocarray(rows, cap, sizeof *rows);
		}
		d = &rows[nrows++];
		d->file_rank = file != NULL ? file->rank : 0;
		d->plane = sqlite3_column_int64(st, 1);
		d->step_key = index_column_order(st, 2);
		d->start_key = index_column_order(st, 3);
		d->dur_ps = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	free(ranks);
	if (nrows > 0)
		qsort(rows, nrows, sizeof *rows, cmp_step_dur);
	st = index_prepare(r->ix, "SELECT f.host, f.run, p.name FROM planes p "
	    "JOIN files f ON f.id = p.file_id WHERE p.id = ?");
	for (i = 0; i < nrows; i++) {
		struct step_series *cur;

		if (i == 0 || rows[i].plane != last_plane) {
			add_series(s, st, rows[i].plane);
			last_plane = rows[i].plane;
		}
		cur = &s->steps[s->nsteps - 1];
		cur->dur_ps = xreallocarray(cur->dur_ps, cur->n + 1,
		    sizeof *cur->dur_ps);
		cur->dur_ps[cur->n++] = rows[i].dur_ps;
	}
	sqlite3_finalize(st);
	free(rows);
}

/* Compilations run on the host: --device does not apply to them. */
static void
load_compiles(struct summary *s, struct report *r)
{
	sqlite3_stmt *st;

	st = index_prepare(r->ix, "SELECT coalesce(c.function, ''), "
	    "count(*), sum(c.dur_ps) FROM compiles c JOIN files f ON f.id = "
	    "c.file_id JOIN selected s ON s.file_id = f.id WHERE f.host GLOB "
	    "?101 AND f.run GLOB ?103 GROUP BY 1 ORDER BY 1");
	report_bind_filters(r, st);
	while (index_row(st)) {
		struct compile_fn *c;

		s->compiles = xreallocarray(s->compiles, s->ncompiles + 1,
		    sizeof *s->compiles);
		c = &s->compiles[s->ncompiles++];
		c->function = index_column_text(st, 0);
		c->count = sqlite3_column_int64(st, 1);
		c->total_ps = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
}

static void
load_transfers(struct summary *s, struct report *r)
{
	sqlite3_stmt *st;

	/* Each file's totals (index-write.c), summed; the autotuner's apart. */
	st = report_prepare(r, "SELECT t.direction, t.on_host, sum(t.count), "
	    "sum(t.bytes), sum(t.dur_ps), sum(t.wait_ps) FROM transfer_totals t "
	    "JOIN planes p ON p.id = t.plane JOIN files f ON f.id = t.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1",
	    r->include_compile_work ? " GROUP BY 1, 2 ORDER BY 1, 2" :
	    " AND t.compile_work = 0 GROUP BY 1, 2 ORDER BY 1, 2");
	while (index_row(st)) {
		struct transfer_total *t;

		s->transfers = xreallocarray(s->transfers, s->ntransfers + 1,
		    sizeof *s->transfers);
		t = &s->transfers[s->ntransfers++];
		t->direction = index_column_text(st, 0);
		t->on_host = sqlite3_column_int(st, 1) != 0;
		t->count = sqlite3_column_int64(st, 2);
		t->has_bytes = sqlite3_column_type(st, 3) != SQLITE_NULL;
		t->bytes = sqlite3_column_int64(st, 3);
		t->total_ps = sqlite3_column_int64(st, 4);
		t->wait_ps = sqlite3_column_int64(st, 5);
	}
	sqlite3_finalize(st);
}

/* Executions of the most run program on one plane (per execution). */
static void
load_executions(struct summary *s, struct report *r)
{
	sqlite3_stmt *st;

	st = report_prepare(r, "SELECT max(m.count) FROM modules m "
	    "JOIN planes p ON p.id = m.plane JOIN files f ON f.id = "
	    "m.file_id JOIN selected s ON s.file_id = f.id "
	    "WHERE m.compile_work = 0 AND (p.kind = 'device' OR "
	    "f.op_source LIKE 'host%')", "");
	if (index_row(st))
		s->executions = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
}

/*
 * The largest peak of each allocator name and program name of the
 * selection; the number of those left out, damaged (each said).
 */
static size_t
load_memory_peaks(struct summary *s, struct report *r)
{
	struct memory_losses ml;
	sqlite3_stmt *st;
	size_t lost;

	/*
	 * Of several files (hosts) or programs of one name, the largest:
	 * what must fit on a device.  Damaged ones are left out, and said.
	 * --device names planes, not allocators: it does not narrow these.
	 */
	st = index_prepare(r->ix, "SELECT kind, name, max(bytes) FROM ("
	    "SELECT 'allocator' AS kind, m.allocator AS name, "
	    "m.peak_bytes AS bytes FROM memory_allocators m JOIN files f ON "
	    "f.id = m.file_id JOIN selected s ON s.file_id = f.id WHERE "
	    "m.damage IS NULL AND f.host GLOB ?101 AND f.run GLOB ?103 "
	    "UNION ALL "
	    "SELECT 'program', pm.module, pm.peak_bytes FROM program_memory pm "
	    "JOIN files f ON f.id = pm.file_id JOIN selected s ON "
	    "s.file_id = f.id WHERE pm.damage IS NULL AND "
	    "f.host GLOB ?101 AND f.run GLOB ?103) "
	    "GROUP BY kind, name ORDER BY kind, name");
	report_bind_filters(r, st);
	while (index_row(st)) {
		struct memory_peak *m;

		s->memory = xreallocarray(s->memory, s->nmemory + 1,
		    sizeof *s->memory);
		m = &s->memory[s->nmemory++];
		m->kind = index_column_text(st, 0);
		m->name = index_column_text(st, 1);
		m->bytes = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	memory_losses_load(&ml, r, LOSSES_ALLOCATORS | LOSSES_PROGRAMS);
	memory_losses_warn(&ml, "the memory peaks");
	lost = ml.n;
	memory_losses_release(&ml);
	return lost;
}

int
summary_from_index(struct summary *s, struct report *r, const char *path)
{
	s->sources = xcalloc(1, sizeof *s->sources);
	s->sources[s->nsources++] = xstrdup(path);
	s->host_glob = xstrdup(r->host_glob);
	s->device_glob = xstrdup(r->device_glob);
	s->run_glob = xstrdup(r->run_glob);
	s->latest = r->latest;
	load_distinct(r, "host", &s->hosts, &s->nhosts);
	load_distinct(r, "run", &s->runs, &s->nruns);
	op_rows_query(r, 0, &s->ops, &s->nops);
	op_rows_query(r, 1, &s->kernels, &s->nkernels);
	load_step_times(s, r);
	load_executions(s, r);
	load_compiles(s, r);
	load_transfers(s, r);
	return load_memory_peaks(s, r) > 0 ? EXIT_TROUBLE : EXIT_OK;
}

const struct memory_peak *
summary_memory(const struct summary *s, const char *kind, const char *name)
{
	size_t i;

	for (i = 0; i < s->nmemory; i++)
		if (strcmp(s->memory[i].kind, kind) == 0 &&
		    strcmp(s->memory[i].name, name) == 0)
			return &s->memory[i];
	return NULL;
}

sqlite3_stmt *
summary_memory_context(struct report *r)
{
	/* The module and step running then: on any plane of the file. */
	return index_prepare(r->ix, "SELECT (SELECT e.module FROM "
	    "executions e WHERE e.file_id = ?1 AND e.start_ps <= ?2 AND "
	    "?2 < e.start_ps + e.dur_ps ORDER BY e.start_ps DESC LIMIT 1), "
	    "(SELECT st.step FROM steps st WHERE st.file_id = ?1 AND "
	    "st.start_ps <= ?2 AND ?2 < st.start_ps + st.dur_ps "
	    "ORDER BY st.start_ps DESC LIMIT 1)");
}

void
summary_op_rows(const struct summary *s, enum op_group group,
    struct op_row **rows, size_t *n)
{
	const struct op_row *from = group == GROUP_KERNEL ? s->kernels : s->ops;
	size_t i;

	*n = group == GROUP_KERNEL ? s->nkernels : s->nops;
	*rows = xcalloc(*n + 1, sizeof **rows);
	for (i = 0; i < *n; i++)
		op_row_copy(&(*rows)[i], &from[i]);
	op_rows_group(rows, n, group);
}

double
summary_step_percentile(const struct summary *s, size_t skip, double pct,
    size_t *n)
{
	struct sample all;
	size_t i, j;
	double v;

	sample_init(&all);
	for (i = 0; i < s->nsteps; i++)
		for (j = skip; j < s->steps[i].n; j++)
			sample_add(&all, s->steps[i].dur_ps[j]);
	sample_sort(&all);
	*n = all.n;
	v = sample_percentile(&all, pct);
	sample_release(&all);
	return v;
}

double
summary_step_spread_pct(const struct summary *s, size_t skip)
{
	struct sample all;
	size_t i, j;
	double median, spread;

	sample_init(&all);
	for (i = 0; i < s->nsteps; i++)
		for (j = skip; j < s->steps[i].n; j++)
			sample_add(&all, s->steps[i].dur_ps[j]);
	sample_sort(&all);
	median = sample_percentile(&all, 50);
	spread = median > 0 ? 100 * 1.4826 * sample_mad(&all) / median : 0;
	sample_release(&all);
	return spread;
}

/* The most steps of any one (file, plane) series. */
static size_t
summary_nsteps(const struct summary *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nsteps; i++)
		if (s->steps[i].n > n)
			n = s->steps[i].n;
	return n;
}

const char *
summary_op_norm(const struct summary *a, const struct summary *b,
    double *da, double *db)
{
	size_t na = summary_nsteps(a), nb = summary_nsteps(b);

	if (na > 0 && nb > 0) {
		*da = (double)na;
		*db = (double)nb;
		return "step";
	}
	if (a->executions > 0 && b->executions > 0) {
		*da = (double)a->executions;
		*db = (double)b->executions;
		return "execution";
	}
	*da = *db = 1;
	return "total";
}

int64_t
summary_compile_total_ps(const struct summary *s, int64_t *count)
{
	int64_t total = 0;
	size_t i;

	*count = 0;
	for (i = 0; i < s->ncompiles; i++) {
		*count = sat_add(*count, s->compiles[i].count);
		total = ps_add(total, s->compiles[i].total_ps);
	}
	return total;
}

const struct compile_fn *
summary_most_compiled(const struct summary *s)
{
	const struct compile_fn *most = NULL;
	size_t i;

	for (i = 0; i < s->ncompiles; i++)
		if (most == NULL || s->compiles[i].count > most->count)
			most = &s->compiles[i];
	return most;
}

void
summary_note_runs(const struct summary *s, struct output *o,
    const char *side)
{
	char *note = report_runs_note(s->runs, s->nruns), *line;

	if (note == NULL)
		return;
	line = xasprintf("%s: %s", side, note);
	output_note(o, line);
	free(line);
	free(note);
}
