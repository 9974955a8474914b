/* The overview read from the index (overview.h): its loading. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-ops.h"
#include "index/index.h"
#include "load/load.h"
#include "report/op-what.h"
#include "report/overview.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/overview-steps.h"
#include "read/read-hlo.h"
#include "lib/ptime.h"
#include "lib/xmalloc.h"

/* The selected files' text column `col` (of f or p), distinct, sorted. */
static char **
distinct(struct report *r, const char *col, size_t *n)
{
	char *head = xasprintf("SELECT DISTINCT %s FROM planes p JOIN files f "
	    "ON f.id = p.file_id JOIN selected s ON s.file_id = f.id "
	    "WHERE %s <> ''", col, col);
	char *tail = xasprintf(" ORDER BY 1");
	sqlite3_stmt *st = report_prepare(r, head, tail);
	char **v = NULL;

	*n = 0;
	while (index_row(st)) {
		v = xgrow1(v, *n, sizeof *v);
		v[(*n)++] = index_column_text(st, 0);
	}
	sqlite3_finalize(st);
	free(head);
	free(tail);
	return v;
}

static void
item_from_row(struct ov_item *it, const struct op_row *row, int line,
    int64_t total)
{
	it->name = xstrdup(row->name);
	it->what = line ? xstrdup("") : op_what(row->framework_op, row->source);
	it->detail = xstrdup(line ? (row->source_function != NULL ?
	    row->source_function : "") : (row->source != NULL ?
	    row->source : ""));
	it->count = row->count;
	it->total_ps = row->total_ps;
	it->pct = total > 0 ? 100.0 * (double)row->self_ps / (double)total :
	    0;
}

/*
 * The top ops and source lines, as `top` and `top --group=source` rank
 * them and give their share.
 */
static void
load_ops(struct overview *ov, struct report *r)
{
	struct op_row *rows;
	size_t n, i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		struct ov_item **out = pass == 0 ? &ov->ops : &ov->lines;
		size_t *nout = pass == 0 ? &ov->nops : &ov->nlines;
		int64_t total = 0;

		op_rows_query(r, 0, &rows, &n);
		if (pass == 1)
			op_rows_group(&rows, &n, GROUP_SOURCE);
		op_rows_sort(rows, n, BY_DEVICE_TIME);
		for (i = 0; i < n; i++)	/* top's %: of all self time */
			total = ps_add(total, rows[i].self_ps);
		if (pass == 0)
			ov->ops_ps = total;
		*nout = n < OV_TOP ? n : OV_TOP;
		*out = xcalloc(*nout > 0 ? *nout : 1, sizeof **out);
		for (i = 0; i < *nout; i++)
			item_from_row(&(*out)[i], &rows[i], pass, total);
		op_rows_free(rows, n);
	}
}

/* The steps (of the first device) a time falls in: "0, 4". */
static char *
steps_at(const struct overview *ov, int64_t file_id, const int64_t *starts,
    const int64_t *ends, size_t n)
{
	char *out = xstrdup(""), *next;
	size_t i, j, k;

	for (i = 0; i < ov->nseries; i++) {
		const struct ov_series *se = &ov->series[i];

		if (se->file_id != file_id)
			continue;
		for (j = 0; j < se->n; j++) {
			const struct ov_step *s = &se->steps[j];

			for (k = 0; k < n; k++)
				if (starts[k] < s->start_ps + s->dur_ps &&
				    ends[k] > s->start_ps)
					break;
			if (k == n)
				continue;
			next = xasprintf("%s%s%lld", out, out[0] ? ", " : "",
			    (long long)s->step);
			free(out);
			out = next;
		}
		break;
	}
	return out;
}

/* Appends to *s the distinct shapes of parameter k of mods, " / " apart. */
static void
add_param_shapes(char **s, const struct hlo_module **mods, size_t n,
    size_t k)
{
	size_t i, j;
	char *t;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(mods[j]->param_shapes[k],
			    mods[i]->param_shapes[k]) == 0)
				break;
		if (j < i)
			continue;
		t = xasprintf("%s%s%s", *s, i > 0 ? " / " : "",
		    mods[i]->param_shapes[k]);
		free(*s);
		*s = t;
	}
}

/*
 * What differs between the programs a function was compiled to: the
 * entry parameters whose shapes differ (up to 3), read from the HLO of
 * the first XSpace file that holds them.  "" when it cannot tell.
 */
static char *
recompile_shapes(struct report *r, const char *function)
{
	sqlite3_stmt *st = index_prepare(r->ix, "SELECT f.path, g.program_id, "
	    "g.module FROM programs g JOIN files f ON f.id = g.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE f.kind = 'xplane' AND "
	    "g.module IN (?1, 'jit_' || ?1) ORDER BY f.path, g.program_id");
	const struct hlo_module *mods[16];
	struct hlo_set *set = NULL;
	char *path = NULL, *out = xstrdup(""), *cause = NULL, *t;
	size_t n = 0, k, np, shown = 0;

	sqlite3_bind_text(st, 1, function, -1, SQLITE_STATIC);
	while (index_row(st) && n < 16) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		const char *m = (const char *)sqlite3_column_text(st, 2);

		if (path == NULL) {
			path = xstrdup(p);
			if ((set = load_hlo(path, &cause)) == NULL)
				break;
		} else if (strcmp(path, p) != 0)
			break;
		if ((mods[n] = hlo_set_find(set, sqlite3_column_int64(st, 1),
		    m, strlen(m))) != NULL)
			n++;
	}
	sqlite3_finalize(st);
	free(cause);
	free(path);
	np = n > 0 ? mods[0]->nparams : 0;
	for (k = 1; k < n; k++)
		if (mods[k]->nparams != np)
			np = 0;	/* other signatures: shapes do not line up */
	for (k = 0; k < np && shown < 3; k++) {
		size_t i;

		for (i = 1; i < n; i++)
			if (strcmp(mods[i]->param_shapes[k],
			    mods[0]->param_shapes[k]) != 0)
				break;
		if (i == n)
			continue;
		if (mods[0]->param_names[k][0] != '\0')
			t = xasprintf("%s%s%s: ", out, shown > 0 ? "; " : "",
			    mods[0]->param_names[k]);
		else
			t = xasprintf("%s%sparameter %zu: ", out, shown > 0 ?
			    "; " : "", k);
		free(out);
		out = t;
		add_param_shapes(&out, mods, n, k);
		shown++;
	}
	hlo_set_free(set);
	return out;
}

/* Compilations by function, with their programs and executions. */
static void
overview_load_compiles(struct overview *ov, struct report *r)
{
	sqlite3_stmt *st = index_prepare(r->ix, "SELECT coalesce(c.function, "
	    "c.name), count(*), sum(c.dur_ps), c.file_id, "
	    "group_concat(c.start_ps), group_concat(c.start_ps + c.dur_ps) "
	    "FROM compiles c JOIN files f ON f.id = c.file_id "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE f.host GLOB ?101 AND f.run GLOB ?103 "
	    "GROUP BY 1 ORDER BY 2 DESC, 3 DESC, 1");
	/* The programs compiled for it (as `compile` lists them), run. */
	sqlite3_stmt *px = index_prepare(r->ix, "SELECT (SELECT "
	    "group_concat(x, ', ') FROM (SELECT DISTINCT g.module || '(' || "
	    "printf('%llu', g.program_id) || ')' AS x FROM programs g "
	    "JOIN selected s ON "
	    "s.file_id = g.file_id WHERE g.module IN (?1, 'jit_' || ?1) "
	    "ORDER BY g.program_id)), sum(m.count), sum(m.total_ps) "
	    "FROM modules m JOIN selected s ON s.file_id = m.file_id "
	    "WHERE m.compile_work = 0 AND m.name IN (?1, 'jit_' || ?1)");

	sqlite3_bind_text(st, 101, r->host_glob, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 103, r->run_glob, -1, SQLITE_STATIC);
	while (index_row(st)) {
		struct ov_compile *c;
		int64_t starts[64], ends[64];
		const char *a = (const char *)sqlite3_column_text(st, 4);
		const char *b = (const char *)sqlite3_column_text(st, 5);
		size_t n = 0;

		ov->compiles = xgrow1(ov->compiles, ov->ncompiles,
		    sizeof *ov->compiles);
		c = &ov->compiles[ov->ncompiles++];
		memset(c, 0, sizeof *c);
		c->function = index_column_text(st, 0);
		c->count = sqlite3_column_int64(st, 1);
		c->total_ps = sqlite3_column_int64(st, 2);
		ov->compile_ps = ps_add(ov->compile_ps, c->total_ps);
		ov->ncompilations += c->count;
		while (a != NULL && b != NULL && n < 64) {
			starts[n] = strtoll(a, NULL, 10);
			ends[n++] = strtoll(b, NULL, 10);
			a = strchr(a, ',');
			b = strchr(b, ',');
			if (a == NULL || b == NULL)
				break;
			a++;
			b++;
		}
		c->steps = steps_at(ov, sqlite3_column_int64(st, 3), starts,
		    ends, n);
		sqlite3_bind_text(px, 1, c->function, -1, SQLITE_STATIC);
		if (index_row(px)) {
			c->programs = index_column_text(px, 0);
			c->exec_count = sqlite3_column_int64(px, 1);
			c->exec_ps = sqlite3_column_int64(px, 2);
		} else
			c->programs = xstrdup("");
		sqlite3_reset(px);
		c->shapes = c->count > 1 ? recompile_shapes(r, c->function) :
		    xstrdup("");
	}
	sqlite3_finalize(px);
	sqlite3_finalize(st);
}

/* Keeps the OV_TRACK_SPANS longest spans of t, in time order. */
static int
cmp_span_dur(const void *a, const void *b)
{
	const struct ov_span *x = a, *y = b;

	if (x->dur_ps != y->dur_ps)
		return x->dur_ps > y->dur_ps ? -1 : 1;
	return x->start_ps < y->start_ps ? -1 : x->start_ps > y->start_ps;
}

static int
cmp_span_start(const void *a, const void *b)
{
	const struct ov_span *x = a, *y = b;

	return x->start_ps < y->start_ps ? -1 : x->start_ps > y->start_ps;
}

static void
thin_track(struct ov_track *t)
{
	size_t i;

	if (t->n > OV_TRACK_SPANS) {
		qsort(t->spans, t->n, sizeof *t->spans, cmp_span_dur);
		for (i = OV_TRACK_SPANS; i < t->n; i++)
			free(t->spans[i].name);
		t->dropped = t->n - OV_TRACK_SPANS;
		t->n = OV_TRACK_SPANS;
	}
	if (t->n > 0)
		qsort(t->spans, t->n, sizeof *t->spans, cmp_span_start);
}

/* Adds to the tracks the rows of st: track name, start, dur, name. */
static void
add_spans(struct overview *ov, sqlite3_stmt *st, int kind)
{
	struct ov_track *t = NULL;

	while (index_row(st)) {
		const char *tn = (const char *)sqlite3_column_text(st, 0);
		struct ov_span *s;
		int64_t a = sqlite3_column_int64(st, 1);
		int64_t b = a + sqlite3_column_int64(st, 2);

		if (tn == NULL)
			tn = "";
		if (t == NULL || strcmp(t->name, tn) != 0) {
			if (t != NULL)
				thin_track(t);
			ov->tracks = xgrow1(ov->tracks, ov->ntracks,
			    sizeof *ov->tracks);
			t = &ov->tracks[ov->ntracks++];
			memset(t, 0, sizeof *t);
			t->name = xstrdup(tn);
		}
		if (a < ov->tl_start_ps)
			a = ov->tl_start_ps;
		if (b > ov->tl_start_ps + ov->tl_dur_ps)
			b = ov->tl_start_ps + ov->tl_dur_ps;
		t->spans = xgrow1(t->spans, t->n, sizeof *t->spans);
		s = &t->spans[t->n++];
		s->start_ps = a - ov->tl_start_ps;
		s->dur_ps = b - a;
		s->name = index_column_text(st, 3);
		s->kind = kind;
	}
	if (t != NULL)
		thin_track(t);
	sqlite3_finalize(st);
}

/*
 * One step's timeline: the kept step of the first device closest to the
 * median, with each plane's program runs, copies by line, idle gaps, and
 * the host threads' outermost events, from the index.
 */
static void
load_timeline(struct overview *ov, struct report *r)
{
	static const char *const sql[] = {
		"SELECT p.name || ' programs', e.start_ps, e.dur_ps, e.module "
		"FROM executions e JOIN planes p ON p.id = e.plane "
		"WHERE e.file_id = ?1 AND e.start_ps < ?3 AND "
		"e.start_ps + e.dur_ps > ?2 AND e.compile_work = 0 "
		"ORDER BY p.name, e.start_ps",
		"SELECT p.name || ' ' || coalesce(t.line, 'copies'), "
		"t.start_ps, t.dur_ps, t.direction || ' ' || t.name "
		"FROM transfers t JOIN planes p ON p.id = t.plane "
		"WHERE t.file_id = ?1 AND t.on_host = 0 AND t.start_ps < ?3 "
		"AND t.start_ps + t.dur_ps > ?2 ORDER BY 1, t.start_ps",
		"SELECT p.name || ' idle', g.start_ps, g.dur_ps, 'idle' "
		"FROM gaps g JOIN planes p ON p.id = g.plane "
		"WHERE g.file_id = ?1 AND g.start_ps < ?3 AND "
		"g.start_ps + g.dur_ps > ?2 ORDER BY p.name, g.start_ps",
		/* Level 0 is the step's own annotation: levels 1 and 2. */
		"SELECT 'host ' || h.line || ' level ' || h.depth, h.start_ps, "
		"h.dur_ps, h.name FROM host_events h WHERE h.file_id = ?1 AND "
		"h.depth BETWEEN 1 AND 2 AND "
		"h.start_ps < ?3 AND h.start_ps + h.dur_ps > ?2 AND h.line IN "
		"(SELECT line FROM host_events WHERE file_id = ?1 AND "
		"start_ps < ?3 AND start_ps + dur_ps > ?2 GROUP BY line "
		"ORDER BY sum(dur_ps) DESC LIMIT 3) "
		"ORDER BY h.line, h.depth, h.start_ps",
	};
	const struct ov_series *se;
	const struct ov_step *pick = NULL;
	size_t i;

	if (ov->nseries == 0)
		return;
	se = &ov->series[0];
	for (i = 0; i < se->n; i++) {
		const struct ov_step *s = &se->steps[i];

		if (s->skip_why == NULL && (pick == NULL ||
		    fabs((double)s->dur_ps - ov->median_ps) <
		    fabs((double)pick->dur_ps - ov->median_ps)))
			pick = s;
	}
	if (pick == NULL)
		pick = &se->steps[0];
	ov->tl_step = pick->step;
	ov->tl_start_ps = pick->start_ps;
	ov->tl_dur_ps = pick->dur_ps;
	for (i = 0; i < sizeof sql / sizeof sql[0]; i++) {
		sqlite3_stmt *st = index_prepare(r->ix, sql[i]);

		sqlite3_bind_int64(st, 1, se->file_id);
		sqlite3_bind_int64(st, 2, pick->start_ps);
		sqlite3_bind_int64(st, 3, pick->start_ps + pick->dur_ps);
		add_spans(ov, st, (int)i);
	}
}

void
overview_load(struct overview *ov, struct report *r)
{
	sqlite3_stmt *st;

	memset(ov, 0, sizeof *ov);
	ov->step_source = xstrdup("");
	ov->runs = distinct(r, "f.run", &ov->nruns);
	/*
	 * A host is its file's (its name in the run folder): the hostname
	 * inside is the same for every process of one machine or image.
	 * Only a file that names no host (a Perfetto trace) says its own.
	 */
	ov->hosts = distinct(r, "coalesce(nullif(f.host, ''), f.hostname, '')",
	    &ov->nhosts);
	ov->devices = distinct(r, "CASE WHEN p.kind = 'device' THEN p.name "
	    "ELSE '' END", &ov->ndevices);
	if (ov->ndevices == 0) {
		/* A CPU-only profile: the host's threads ran the ops. */
		st = report_prepare(r, "SELECT 1 FROM ops o JOIN planes p ON "
		    "p.id = o.plane JOIN files f ON f.id = o.file_id JOIN "
		    "selected s ON s.file_id = f.id WHERE p.kind = 'host'",
		    " LIMIT 1");
		ov->cpu_only = index_row(st);
		sqlite3_finalize(st);
	}
	overview_steps_load(ov, r);
	overview_attribute(ov, r);
	load_ops(ov, r);
	overview_load_compiles(ov, r);
	overview_judge(ov, r);
	load_timeline(ov, r);
	overview_load_memory(ov, r);
	precision_share_load(&ov->precision, r);
}

static void
free_items(struct ov_item *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].detail);
		free(v[i].what);
	}
	free(v);
}

void
overview_release(struct overview *ov)
{
	size_t i, j;

	free_strings(ov->runs, ov->nruns);
	free_strings(ov->hosts, ov->nhosts);
	free_strings(ov->devices, ov->ndevices);
	free(ov->step_source);
	for (i = 0; i < ov->nseries; i++) {
		free(ov->series[i].run);
		free(ov->series[i].host);
		free(ov->series[i].device);
		free(ov->series[i].steps);
	}
	free(ov->series);
	for (i = 0; i < ov->ncauses; i++) {
		free(ov->causes[i].activity);
		free(ov->causes[i].context);
	}
	free(ov->causes);
	free_items(ov->ops, ov->nops);
	free_items(ov->lines, ov->nlines);
	for (i = 0; i < ov->ncompiles; i++) {
		free(ov->compiles[i].function);
		free(ov->compiles[i].programs);
		free(ov->compiles[i].steps);
		free(ov->compiles[i].shapes);
	}
	free(ov->compiles);
	free(ov->verdict);
	for (i = 0; i < ov->nrecs; i++)
		free(ov->recs[i].text);
	free(ov->recs);
	for (i = 0; i < ov->ntracks; i++) {
		for (j = 0; j < ov->tracks[i].n; j++)
			free(ov->tracks[i].spans[j].name);
		free(ov->tracks[i].spans);
		free(ov->tracks[i].name);
	}
	free(ov->tracks);
	overview_release_memory(ov);
	memset(ov, 0, sizeof *ov);
}

static void
load_points(struct ov_memory *m, sqlite3_stmt *st, sqlite3_int64 file_id,
    sqlite3_int64 id)
{
	size_t cap = 0;

	sqlite3_bind_int64(st, 1, file_id);
	sqlite3_bind_int64(st, 2, id);
	while (index_row(st)) {
		if (m->npoints == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			m->points = xreallocarray(m->points, cap,
			    sizeof *m->points);
		}
		m->points[m->npoints].time_ps = sqlite3_column_int64(st, 0);
		m->points[m->npoints++].bytes = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
}

/*
 * The allocators of the selection in jaxprof memory's order, with its
 * numbers; --device names planes here, not allocators, as for the peaks
 * of summary_load_memory().
 */
void
overview_load_memory(struct overview *ov, struct report *r)
{
	sqlite3_stmt *st, *at, *pts;

	memory_losses_load(&ov->memory_losses, r, LOSSES_ALLOCATORS);
	st = index_prepare(r->ix, "SELECT m.file_id, m.id, f.run, f.host, "
	    "m.allocator, m.peak_bytes, m.peak_ps, m.step, m.tf_op, "
	    "m.peak_bytes + m.free_bytes, f.start_ps, f.end_ps "
	    "FROM memory_allocators m JOIN files f ON f.id = m.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE m.damage IS NULL AND "
	    "f.host GLOB ?101 AND f.run GLOB ?103 "
	    "ORDER BY f.run, f.host, m.file_id, m.allocator, m.plane");
	report_bind_filters(r, st);
	at = summary_memory_context(r);
	pts = index_prepare(r->ix, "SELECT time_ps, heap_bytes + stack_bytes "
	    "FROM memory_samples WHERE file_id = ?1 AND allocator = ?2 "
	    "ORDER BY seq");
	while (index_row(st)) {
		sqlite3_int64 file_id = sqlite3_column_int64(st, 0);
		struct ov_memory *m;

		ov->memory = xreallocarray(ov->memory, ov->nmemory + 1,
		    sizeof *ov->memory);
		m = &ov->memory[ov->nmemory++];
		memset(m, 0, sizeof *m);
		m->run = index_column_dup(st, 2);
		m->host = index_column_dup(st, 3);
		m->allocator = index_column_dup(st, 4);
		m->peak_bytes = sqlite3_column_int64(st, 5);
		m->peak_ps = sqlite3_column_int64(st, 6);
		m->step = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 7);
		m->op = index_column_dup(st, 8);
		m->capacity_bytes = sqlite3_column_type(st, 9) ==
		    SQLITE_NULL ? -1 : sqlite3_column_int64(st, 9);
		m->start_ps = sqlite3_column_int64(st, 10);
		m->end_ps = sqlite3_column_int64(st, 11);
		sqlite3_bind_int64(at, 1, file_id);
		sqlite3_bind_int64(at, 2, m->peak_ps);
		if (index_row(at)) {
			m->module = index_column_dup(at, 0);
			if (sqlite3_column_type(at, 1) != SQLITE_NULL)
				m->step = sqlite3_column_int64(at, 1);
		}
		sqlite3_reset(at);
		load_points(m, pts, file_id, sqlite3_column_int64(st, 1));
	}
	sqlite3_finalize(st);
	sqlite3_finalize(at);
	sqlite3_finalize(pts);
}

void
overview_release_memory(struct overview *ov)
{
	size_t i;

	for (i = 0; i < ov->nmemory; i++) {
		free(ov->memory[i].run);
		free(ov->memory[i].host);
		free(ov->memory[i].allocator);
		free(ov->memory[i].module);
		free(ov->memory[i].op);
		free(ov->memory[i].points);
	}
	free(ov->memory);
	ov->memory = NULL;
	ov->nmemory = 0;
	memory_losses_release(&ov->memory_losses);
}
