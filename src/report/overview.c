/* The overview of a run and the rules of its verdict (overview.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-ops.h"
#include "classify/classify.h"
#include "index/index.h"
#include "load/load.h"
#include "output/output.h"
#include "lib/utf8.h"
#include "report/hosts.h"
#include "report/op-what.h"
#include "report/overview.h"
#include "report/report.h"
#include "report/summary.h"
#include "read/read-hlo.h"
#include "lib/ptime.h"
#include "lib/stats.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

const char *const ov_part_keys[OV_NPARTS] = {
	"compute", "collective", "transfer", "host_idle", "launch_idle",
	"compile_idle", "sync_idle", "short_idle",
};

const char *const ov_part_words[OV_NPARTS] = {
	"compute", "collectives", "transfers", "host-bound idle",
	"launch overhead", "compile", "result wait", "short gaps",
};

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
overview_load_steps(struct overview *ov, struct report *r)
{
	sqlite3_stmt *st = report_prepare(r, "SELECT f.run, f.host, p.name, "
	    "s.file_id, s.plane, s.source, s.step, s.start_ps, s.dur_ps, "
	    "s.compute_ps, s.collective_ps, s.transfer_ps, s.idle_ps "
	    "FROM steps s JOIN planes p ON p.id = s.plane "
	    "JOIN files f ON f.id = s.file_id "
	    "JOIN selected sel ON sel.file_id = f.id WHERE 1",
	    " ORDER BY f.run, f.host, p.name, s.plane, s.start_ps");
	struct ov_series *cur = NULL;

	while (index_row(st)) {
		struct ov_step *s;
		int64_t plane = sqlite3_column_int64(st, 4);

		if (cur == NULL || cur->plane_id != plane) {
			ov->series = xgrow1(ov->series, ov->nseries,
			    sizeof *ov->series);
			cur = &ov->series[ov->nseries++];
			memset(cur, 0, sizeof *cur);
			cur->run = index_column_text(st, 0);
			cur->host = index_column_text(st, 1);
			cur->device = index_column_text(st, 2);
			cur->file_id = sqlite3_column_int64(st, 3);
			cur->plane_id = plane;
			if (ov->step_source[0] == '\0') {
				free(ov->step_source);
				ov->step_source = index_column_text(st, 5);
			}
		}
		cur->steps = xgrow1(cur->steps, cur->n, sizeof *cur->steps);
		s = &cur->steps[cur->n++];
		memset(s, 0, sizeof *s);
		s->step = sqlite3_column_int64(st, 6);
		s->start_ps = sqlite3_column_int64(st, 7);
		s->dur_ps = sqlite3_column_int64(st, 8);
		s->part_ps[OV_COMPUTE] = sqlite3_column_int64(st, 9);
		s->part_ps[OV_COLLECTIVE] = sqlite3_column_int64(st, 10);
		s->part_ps[OV_TRANSFER] = sqlite3_column_int64(st, 11);
		/* Attributed to host activity below, gap by gap. */
		s->part_ps[OV_SHORT_IDLE] = sqlite3_column_int64(st, 12);
	}
	sqlite3_finalize(st);
}

/*
 * A host event's name as a person reads it: the Python tracer's
 * "$time sleep" (a builtin) is time.sleep, "$pxla.py:177 f" is f at
 * pxla.py:177.
 */
static char *
readable_activity(const char *name)
{
	const char *sp;

	if (name[0] != '$')
		return xstrdup(name);
	name++;
	sp = strchr(name, ' ');
	if (sp != NULL && strchr(name, ':') == NULL && strchr(sp + 1, ' ') ==
	    NULL)
		return xasprintf("%.*s.%s", (int)(sp - name), name, sp + 1);
	if (sp != NULL)
		return xasprintf("%s (%.*s)", sp + 1, (int)(sp - name), name);
	return xstrdup(name);
}

/*
 * What a gap's host activity says the device waited for: compiling, the
 * host taking a result (it waits for the device, not the other way
 * round: a sync such as float(loss)), launching work (a command buffer
 * update, anything inside an executable's launch), or the host's own
 * work (the input pipeline, Python).  Words of the man page.
 */
static enum ov_part
classify_wait(const char *activity, const char *context, int compiling)
{
	static const char *const launch[] = {
		"command_buffer", "CommandBuffer", "Execute", "Launch",
		"launch", "cudaGraph", "cuGraph", "hipGraph",
	};
	static const char *const sync[] = {
		"np.asarray(jax.Array)", "_value", "block_until_ready",
		"copy_to_host", "device_get", "__array__",
	};
	size_t i;

	if (compiling)
		return OV_COMPILE;
	for (i = 0; i < sizeof sync / sizeof sync[0]; i++)
		if (strstr(activity, sync[i]) != NULL ||
		    strstr(context, sync[i]) != NULL)
			return OV_SYNC;
	for (i = 0; i < sizeof launch / sizeof launch[0]; i++)
		if (strstr(activity, launch[i]) != NULL ||
		    strstr(context, launch[i]) != NULL)
			return OV_LAUNCH;
	return OV_HOST;
}

static struct ov_series *
find_series(struct overview *ov, int64_t plane)
{
	static size_t last;	/* gaps come by plane: most often the last */
	size_t i;

	if (last < ov->nseries && ov->series[last].plane_id == plane)
		return &ov->series[last];
	for (i = 0; i < ov->nseries; i++)
		if (ov->series[i].plane_id == plane) {
			last = i;
			return &ov->series[i];
		}
	return NULL;
}

static void
add_cause(struct overview *ov, const char *activity, const char *context,
    enum ov_part part, int64_t ps)
{
	struct ov_cause *c;
	size_t i;

	for (i = 0; i < ov->ncauses; i++) {
		c = &ov->causes[i];
		if (c->part == part && strcmp(c->activity, activity) == 0 &&
		    strcmp(c->context, context) == 0) {
			c->ps += ps;
			c->gaps++;
			return;
		}
	}
	ov->causes = xgrow1(ov->causes, ov->ncauses, sizeof *ov->causes);
	c = &ov->causes[ov->ncauses++];
	c->activity = xstrdup(activity);
	c->context = xstrdup(context);
	c->part = part;
	c->ps = ps;
	c->gaps = 1;
}

/* A host event the index keeps (100 us or more). */
struct hev {
	int64_t		 start, end;
	const char	*name;		/* interned */
	int		 depth;
	int		 compile;	/* its name holds "compile" */
};

/*
 * The host events of one file, line and depth, by start: events of one
 * line at one depth do not overlap, so the one at a time is found by a
 * binary search.
 */
struct hev_run {
	int64_t		 file_id;
	const char	*line;
	struct hev	*v;
	size_t		 n;
};

struct host_map {
	struct strmap	 names;
	struct hev_run	*runs;		/* by file, line, depth */
	size_t		 nruns;
};

/* Whether name holds "compile" in any case, as SQL's LIKE would. */
static int
holds_compile(const char *name)
{
	size_t i;

	for (; *name != '\0'; name++) {
		for (i = 0; i < 7 && name[i] != '\0' &&
		    (name[i] | 0x20) == "compile"[i]; i++)
			;
		if (i == 7)
			return 1;
	}
	return 0;
}

/* s interned: the id first, as interning may move the strings array. */
static const char *
host_map_name(struct host_map *hm, const char *s)
{
	uint32_t id = strmap_intern(&hm->names, s, strlen(s));

	return hm->names.strings[id];
}

static void
host_map_load(struct host_map *hm, struct report *r)
{
	sqlite3_stmt *st = index_prepare(r->ix, "SELECT h.file_id, "
	    "coalesce(h.line, ''), h.depth, h.start_ps, h.dur_ps, h.name "
	    "FROM host_events h JOIN files f ON f.id = h.file_id "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE f.host GLOB ?101 AND f.run GLOB ?103 "
	    "ORDER BY h.file_id, h.line, h.depth, h.start_ps");
	struct hev_run *run = NULL;
	int depth = -1;

	memset(hm, 0, sizeof *hm);
	strmap_init(&hm->names);
	sqlite3_bind_text(st, 101, r->host_glob, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 103, r->run_glob, -1, SQLITE_STATIC);
	while (index_row(st)) {
		const char *line = (const char *)sqlite3_column_text(st, 1);
		const char *name = (const char *)sqlite3_column_text(st, 5);
		int64_t file = sqlite3_column_int64(st, 0);
		int d = sqlite3_column_int(st, 2);
		struct hev *e;

		if (name == NULL)
			name = "";
		if (run == NULL || run->file_id != file || depth != d ||
		    strcmp(run->line, line) != 0) {
			hm->runs = xgrow1(hm->runs, hm->nruns, sizeof *hm->runs);
			run = &hm->runs[hm->nruns++];
			memset(run, 0, sizeof *run);
			run->file_id = file;
			run->line = host_map_name(hm, line);
			depth = d;
		}
		run->v = xgrow1(run->v, run->n, sizeof *run->v);
		e = &run->v[run->n++];
		e->start = sqlite3_column_int64(st, 3);
		e->end = e->start + sqlite3_column_int64(st, 4);
		e->name = host_map_name(hm, name);
		e->depth = d;
		e->compile = holds_compile(name);
	}
	sqlite3_finalize(st);
}

static void
host_map_release(struct host_map *hm)
{
	size_t i;

	for (i = 0; i < hm->nruns; i++)
		free(hm->runs[i].v);
	free(hm->runs);
	strmap_release(&hm->names);
}

/* The event of run at time t, or NULL. */
static const struct hev *
hev_at(const struct hev_run *run, int64_t t)
{
	size_t lo = 0, hi = run->n;

	while (lo < hi) {	/* the first that starts after t */
		size_t mid = lo + (hi - lo) / 2;

		if (run->v[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && t < run->v[lo - 1].end ? &run->v[lo - 1] : NULL;
}

/*
 * What the host of file ran at time t, as `jaxprof idle` finds it: the
 * innermost event there (the shortest, between equals); *context the
 * nearest enclosing one on its line that is not the Python tracer's;
 * *compiling whether any event there is a compilation.
 */
static const struct hev *
host_at(const struct host_map *hm, int64_t file, int64_t t,
    const char **context, int *compiling)
{
	const struct hev *best = NULL, *e;
	const char *line = NULL;
	size_t lo = 0, hi = hm->nruns, i, first;

	*context = NULL;
	*compiling = 0;
	while (lo < hi) {	/* the file's first run */
		size_t mid = lo + (hi - lo) / 2;

		if (hm->runs[mid].file_id < file)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	for (i = first; i < hm->nruns && hm->runs[i].file_id == file; i++) {
		if ((e = hev_at(&hm->runs[i], t)) == NULL)
			continue;
		*compiling |= e->compile;
		if (best == NULL || e->depth > best->depth ||
		    (e->depth == best->depth && e->end - e->start <
		    best->end - best->start)) {
			best = e;
			line = hm->runs[i].line;
		}
	}
	for (i = first; best != NULL && i < hm->nruns &&
	    hm->runs[i].file_id == file; i++) {
		if (hm->runs[i].line != line ||
		    hm->runs[i].n == 0 || hm->runs[i].v[0].depth >= best->depth ||
		    (e = hev_at(&hm->runs[i], t)) == NULL || e->name[0] == '$')
			continue;
		*context = e->name;	/* runs come by depth: the deepest last */
	}
	return best;
}

/* The first step of se that ends after t (steps are by start). */
static size_t
step_after(const struct ov_series *se, int64_t t)
{
	size_t lo = 0, hi = se->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (se->steps[mid].start_ps + se->steps[mid].dur_ps <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static char *
column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

/* A file's compiles by start, for the gaps and steps they ran in. */
struct compile_spans {
	int64_t		 file_id;	/* -1: none loaded */
	struct compile_span {
		int64_t	 start, end;
		char	*name, *function;	/* NULL where the index has none */
	}		*v;
	size_t		 n;
	int64_t		 longest;	/* the longest one's duration */
};

static void
compile_spans_release(struct compile_spans *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		free(cs->v[i].name);
		free(cs->v[i].function);
	}
	free(cs->v);
	memset(cs, 0, sizeof *cs);
	cs->file_id = -1;
}

/* Makes cs hold file_id's compiles, read once for each file in turn. */
static void
compile_spans_of(struct compile_spans *cs, struct report *r,
    int64_t file_id)
{
	sqlite3_stmt *st;

	if (cs->file_id == file_id)
		return;
	st = index_prepare(r->ix, "SELECT start_ps, start_ps + dur_ps, "
	    "name, function FROM compiles WHERE file_id = ?1 "
	    "ORDER BY start_ps");
	compile_spans_release(cs);
	cs->file_id = file_id;
	sqlite3_bind_int64(st, 1, file_id);
	while (index_row(st)) {
		struct compile_span *c;

		/* A time the index does not have overlaps no step (SQL). */
		if (sqlite3_column_type(st, 1) == SQLITE_NULL)
			continue;
		cs->v = xgrow1(cs->v, cs->n, sizeof *cs->v);
		c = &cs->v[cs->n++];
		c->start = sqlite3_column_int64(st, 0);
		c->end = sqlite3_column_int64(st, 1);
		c->name = column_dup(st, 2);
		c->function = column_dup(st, 3);
		if (c->end - c->start > cs->longest)
			cs->longest = c->end - c->start;
	}
	sqlite3_finalize(st);
}

/* The larger text as SQL's max() orders them; NULL loses. */
static const char *
text_max(const char *a, const char *b)
{
	return a == NULL ? b : b == NULL ? a : strcmp(a, b) >= 0 ? a : b;
}

/*
 * The compiles that overlap [start, end): how many, the time they
 * overlap it summed, and the largest name and function, as a query of
 * the compiles table per step would give them (SQL's max() of texts).
 */
static int64_t
compiles_in(const struct compile_spans *cs, int64_t start, int64_t end,
    int64_t *ps, const char **name, const char **function)
{
	size_t lo = 0, hi = cs->n, i;
	int64_t n = 0;

	*ps = 0;
	*name = *function = NULL;
	while (lo < hi) {	/* the first that starts at or after end */
		size_t mid = lo + (hi - lo) / 2;

		if (cs->v[mid].start < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Earlier ones end by their start + longest: none past start. */
	for (i = lo; i-- > 0 && cs->v[i].start + cs->longest > start; ) {
		const struct compile_span *c = &cs->v[i];

		if (c->end <= start)
			continue;
		n++;
		*ps += (c->end < end ? c->end : end) -
		    (c->start > start ? c->start : start);
		*name = text_max(*name, c->name);
		*function = text_max(*function, c->function);
	}
	return n;
}

/*
 * Each stored gap (at least GAP_FLOOR_PS) inside a step: what the host
 * ran at its middle (host_at()), and whether a compilation (of the
 * compiles table, or a host event) encloses it.  The gap's time in each
 * step moves from short idle to its part.
 */
static void
attribute_gaps(struct overview *ov, struct report *r,
    struct compile_spans *cs)
{
	sqlite3_stmt *st = report_prepare(r, "SELECT g.file_id, g.plane, "
	    "g.start_ps, g.dur_ps "
	    "FROM gaps g JOIN planes p ON p.id = g.plane "
	    "JOIN files f ON f.id = g.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1", " ORDER BY g.plane");
	struct host_map hm;

	host_map_load(&hm, r);
	while (index_row(st)) {
		struct ov_series *se = find_series(ov,
		    sqlite3_column_int64(st, 1));
		int64_t file_id = sqlite3_column_int64(st, 0);
		int64_t gs = sqlite3_column_int64(st, 2);
		int64_t ge = gs + sqlite3_column_int64(st, 3), in = 0;
		int64_t mid = gs + (ge - gs) / 2, ps;
		const char *ctx, *name, *function;
		const struct hev *h;
		char *activity;
		enum ov_part part;
		int compiling;
		size_t i;

		if (se == NULL)
			continue;
		h = host_at(&hm, file_id, mid, &ctx, &compiling);
		activity = readable_activity(h != NULL ? h->name :
		    "(nothing on the host)");
		/* Or a compile of the compiles table around its middle. */
		compile_spans_of(cs, r, file_id);
		compiling |= compiles_in(cs, mid, mid + 1, &ps, &name,
		    &function) > 0;
		part = classify_wait(activity, ctx != NULL ? ctx : "",
		    compiling);
		for (i = step_after(se, gs); i < se->n &&
		    se->steps[i].start_ps < ge; i++) {
			struct ov_step *s = &se->steps[i];
			int64_t a = gs > s->start_ps ? gs : s->start_ps;
			int64_t b = ge < s->start_ps + s->dur_ps ? ge :
			    s->start_ps + s->dur_ps;

			if (b <= a)
				continue;
			if (b - a > s->part_ps[OV_SHORT_IDLE])
				b = a + s->part_ps[OV_SHORT_IDLE];
			s->part_ps[OV_SHORT_IDLE] -= b - a;
			s->part_ps[part] = ps_add(s->part_ps[part], b - a);
			in += b - a;
		}
		if (in > 0)
			add_cause(ov, activity, ctx != NULL ? ctx : "", part,
			    in);
		free(activity);
	}
	sqlite3_finalize(st);
	host_map_release(&hm);
}

static int
cmp_cause(const void *a, const void *b)
{
	const struct ov_cause *x = a, *y = b;

	if (x->ps != y->ps)
		return x->ps > y->ps ? -1 : 1;
	return strcmp(x->activity, y->activity);
}

/*
 * Idle in no stored gap (before the step's first op, say) while the host
 * compiled counts as compile too: up to the compile time in the step
 * that the gaps did not account for already.
 */
static void
compile_idle(struct overview *ov, struct ov_step *s, int64_t compile_ps,
    const char *name, const char *function)
{
	int64_t more = compile_ps - s->part_ps[OV_COMPILE];
	char *what;

	if (more > s->part_ps[OV_SHORT_IDLE])
		more = s->part_ps[OV_SHORT_IDLE];
	if (more <= 0)
		return;
	s->part_ps[OV_SHORT_IDLE] -= more;
	s->part_ps[OV_COMPILE] += more;
	what = readable_activity(name != NULL ? name : "compile");
	add_cause(ov, what, function != NULL ? function : "", OV_COMPILE,
	    more);
	free(what);
}

/*
 * Steps left out of median and spread: one a compilation ran in, and a
 * first step over twice the median of the others (warm-up).
 */
static void
mark_skipped(struct overview *ov, struct report *r,
    struct compile_spans *cs)
{
	struct sample all;
	size_t i, j;

	sample_init(&all);
	for (i = 0; i < ov->nseries; i++) {
		struct ov_series *se = &ov->series[i];
		struct sample rest;

		compile_spans_of(cs, r, se->file_id);
		sample_init(&rest);
		for (j = 0; j < se->n; j++) {
			struct ov_step *s = &se->steps[j];
			const char *name, *function;
			int64_t ps;

			/* The compile time inside it, as `steps` notes it. */
			if (compiles_in(cs, s->start_ps, s->start_ps +
			    s->dur_ps, &ps, &name, &function) > 0) {
				s->skip_why = "compiled during the step";
				compile_idle(ov, s, ps, name, function);
			}
			if (j > 0 && s->skip_why == NULL)
				sample_add(&rest, s->dur_ps);
		}
		sample_sort(&rest);
		if (se->n > 1 && se->steps[0].skip_why == NULL && rest.n > 0 &&
		    (double)se->steps[0].dur_ps > 2 *
		    sample_percentile(&rest, 50))
			se->steps[0].skip_why = "warm-up: over twice the median "
			    "of the others";
		sample_release(&rest);
		for (j = 0; j < se->n; j++) {
			const struct ov_step *s = &se->steps[j];
			int k;

			ov->nsteps++;
			ov->steps_ps = ps_add(ov->steps_ps, s->dur_ps);
			for (k = 0; k < OV_NPARTS; k++)
				ov->part_ps[k] = ps_add(ov->part_ps[k],
				    s->part_ps[k]);
			if (s->skip_why == NULL) {
				ov->nkept++;
				sample_add(&all, s->dur_ps);
			}
		}
	}
	sample_sort(&all);
	if (all.n > 0) {
		ov->median_ps = sample_percentile(&all, 50);
		ov->min_ps = (double)all.v[0];
		ov->p90_ps = sample_percentile(&all, 90);
		ov->max_ps = (double)all.v[all.n - 1];
		ov->stddev_ps = sample_stddev(&all);
	}
	sample_release(&all);
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

double
overview_part_pct(const struct overview *ov, enum ov_part k)
{
	return ov->steps_ps > 0 ? 100.0 * (double)ov->part_ps[k] /
	    (double)ov->steps_ps : 0;
}

/* What fixing a part of ps in all could save: its time per step. */
static int64_t
save_of(const struct overview *ov, int64_t ps)
{
	return ov->nsteps > 0 ? ps / (int64_t)ov->nsteps : ps;
}

static void
add_rec(struct overview *ov, const char *rule, double value,
    double threshold, int64_t ps, char *text)
{
	ov->recs = xgrow1(ov->recs, ov->nrecs, sizeof *ov->recs);
	ov->recs[ov->nrecs].rule = rule;
	ov->recs[ov->nrecs].value = value;
	ov->recs[ov->nrecs].threshold = threshold;
	ov->recs[ov->nrecs].save_ps = save_of(ov, ps);
	ov->recs[ov->nrecs++].text = text;
}

/* The largest cause of part k, or NULL. */
static const struct ov_cause *
top_cause(const struct overview *ov, enum ov_part k)
{
	size_t i;

	for (i = 0; i < ov->ncauses; i++)
		if (ov->causes[i].part == k)
			return &ov->causes[i];
	return NULL;
}

/* "`time.sleep` inside `load_batch`", the names marked (output.h) */
static char *
cause_words(const struct ov_cause *c)
{
	if (c->context[0] != '\0' && strcmp(c->context, c->activity) != 0)
		return xasprintf(OUT_CODE "%s" OUT_END_CODE " inside " OUT_CODE
		    "%s" OUT_END_CODE, c->activity, c->context);
	return xasprintf(OUT_CODE "%s" OUT_END_CODE, c->activity);
}

/* A time per step: the part's time over the steps' count. */
static void
per_step(char *buf, size_t size, const struct overview *ov, int64_t ps)
{
	fmt_duration(buf, size, ov->nsteps > 0 ? ps / (int64_t)ov->nsteps :
	    0);
}

/* "48.7 ms of each 68.3 ms step": the means, as the shares are. */
static char *
of_each(const struct overview *ov, int64_t ps)
{
	char a[40], b[40];

	per_step(a, sizeof a, ov, ps);
	per_step(b, sizeof b, ov, ov->steps_ps);
	return xasprintf("%s of each %s step on average", a, b);
}

/* Whether compute is the largest part of the steps. */
static int
compute_largest(const struct overview *ov)
{
	int k;

	if (ov->steps_ps <= 0)
		return 0;
	for (k = 0; k < OV_NPARTS; k++)
		if (ov->part_ps[k] > ov->part_ps[OV_COMPUTE])
			return 0;
	return 1;
}

/*
 * The compute verdict: the largest part, and in it the top line; "why"
 * says what else was weighed.
 */
static void
compute_verdict(struct overview *ov, const char *why)
{
	char each[40], line[40];

	per_step(each, sizeof each, ov, ov->part_ps[OV_COMPUTE]);
	per_step(line, sizeof line, ov, ov->lines[0].total_ps);
	ov->verdict_rule = "compute";
	free(ov->verdict);
	ov->verdict = xasprintf("compute bound: compute takes %.1f%% of step "
	    "time (%s a step)%s; of it " OUT_CODE "%s" OUT_END_CODE " first, "
	    "%.1f%% of device time (%s "
	    "a step)", overview_part_pct(ov, OV_COMPUTE), each, why,
	    ov->lines[0].name, ov->lines[0].pct, line);
}

/* Whether a recommendation of rule says no more than the verdict. */
static int
in_verdict(const struct overview *ov, const char *rule)
{
	const char *v = ov->verdict_rule;

	if (strcmp(v, rule) == 0)
		return 1;
	if (strcmp(v, "recompile") == 0)
		return strcmp(rule, "compile") == 0;
	if (strcmp(v, "compute") == 0)
		return strcmp(rule, "top-line") == 0;
	if (strcmp(v, "few-ops") == 0 || strcmp(v, "no-steps") == 0)
		return strcmp(rule, "top-op") == 0;
	return 0;
}

static int
cmp_rec_save(const void *a, const void *b)
{
	const struct ov_rec *x = a, *y = b;

	return (x->save_ps < y->save_ps) - (x->save_ps > y->save_ps);
}

/* A recommendation's text ends with what fixing it could save. */
static void
say_save(const struct overview *ov, struct ov_rec *rec)
{
	char save[40], *t;

	fmt_duration(save, sizeof save, rec->save_ps);
	t = xasprintf("%s; fixing it could save up to %s %s", rec->text, save,
	    ov->nsteps > 0 ? "a step" : "in the capture");
	free(rec->text);
	rec->text = t;
}

/*
 * The advice: what the verdict does not already say, most time to gain
 * first (ties in rule order), OV_RECS at most, each saying its gain.
 */
static void
order_recs(struct overview *ov)
{
	size_t i, n = 0;

	for (i = 0; i < ov->nrecs; i++) {
		if (in_verdict(ov, ov->recs[i].rule)) {
			free(ov->recs[i].text);
			continue;
		}
		ov->recs[n++] = ov->recs[i];
	}
	ov->nrecs = n;
	/* Stable: insertion order breaks ties; qsort is not stable. */
	for (i = 1; i < ov->nrecs; i++) {
		size_t j = i;

		while (j > 0 && cmp_rec_save(&ov->recs[j - 1],
		    &ov->recs[j]) > 0) {
			struct ov_rec tmp = ov->recs[j];

			ov->recs[j] = ov->recs[j - 1];
			ov->recs[--j] = tmp;
		}
	}
	while (ov->nrecs > OV_RECS)
		free(ov->recs[--ov->nrecs].text);
	for (i = 0; i < ov->nrecs; i++)
		say_save(ov, &ov->recs[i]);
}

/* The rules of jaxprof-summary(1) RULES, in its words. */
static void
apply_rules(struct overview *ov)
{
	static const struct {
		enum ov_part	 part;
		const char	*rule;
		double		 threshold;
	} idle_rules[] = {
		{ OV_HOST, "host", OV_HOST_PCT },
		{ OV_LAUNCH, "launch", OV_LAUNCH_PCT },
		{ OV_COMPILE, "compile", OV_COMPILE_PCT },
		{ OV_TRANSFER, "transfers", OV_TRANSFER_PCT },
		{ OV_COLLECTIVE, "collectives", OV_COLLECTIVE_PCT },
		{ OV_SYNC, "sync", OV_SYNC_PCT },
	};
	char *each, *what;
	double best = 0, few = 0;
	int64_t verdict_ps = 0;
	size_t i, nfew;
	const struct ov_compile *re = NULL;

	for (i = 0; i < ov->ncompiles; i++)
		if (ov->compiles[i].count > 1) {
			re = &ov->compiles[i];
			break;
		}
	for (i = 0; i < sizeof idle_rules / sizeof idle_rules[0]; i++) {
		enum ov_part k = idle_rules[i].part;
		double pct = overview_part_pct(ov, k);
		const struct ov_cause *c = top_cause(ov, k);
		char *text;

		if (pct < idle_rules[i].threshold)
			continue;
		each = of_each(ov, ov->part_ps[k]);
		what = c != NULL ? cause_words(c) : NULL;
		switch (k) {
		case OV_HOST:
			text = xasprintf("the device is idle %.1f%% of step "
			    "time (%s) while the host runs %s: the input "
			    "pipeline or host code bounds the step; overlap it "
			    "with the device (prefetch, load on another "
			    "thread)", pct, each, what);
			break;
		case OV_LAUNCH:
			text = xasprintf("the device waits %.1f%% of step time "
			    "(%s) while the host runs %s: launch overhead "
			    "bounds the step; fewer, larger programs or "
			    "command buffers that need no update cut it", pct,
			    each, what);
			break;
		case OV_COMPILE:
			text = xasprintf("the device waits %.1f%% of step time "
			    "(%s) while the host compiles; compile before the "
			    "steps you profile or keep shapes fixed", pct,
			    each);
			break;
		case OV_SYNC:
			text = xasprintf("the device is idle %.1f%% of step time "
			    "(%s) while the host waits for a result in %s: each "
			    "step waits on a value; fetch it less often (log "
			    "every N steps) or without blocking", pct, each,
			    what);
			break;
		default:
			text = xasprintf("%s take %.1f%% of step time (%s)",
			    ov_part_words[k], pct, each);
		}
		free(what);
		free(each);
		if (pct > best) {
			best = pct;
			verdict_ps = ov->part_ps[k];
			ov->verdict_rule = idle_rules[i].rule;
			free(ov->verdict);
			ov->verdict = xasprintf("%s bound: %s",
			    k == OV_HOST ? "input / host" :
			    k == OV_LAUNCH ? "launch overhead" :
			    k == OV_COMPILE ? "compile" :
			    k == OV_SYNC ? "sync" : ov_part_words[k],
			    text);
		}
		add_rec(ov, idle_rules[i].rule, pct, idle_rules[i].threshold,
		    ov->part_ps[k], text);
	}
	if (re != NULL) {
		char total[40];

		fmt_duration(total, sizeof total, re->total_ps);
		what = xasprintf(OUT_CODE "%s" OUT_END_CODE " compiled %lld "
		    "times (%s%s%s%s%s%s%s%s), %s in all: each new input "
		    "shape or static argument compiles it again; pad or "
		    "bucket shapes to a few sizes",
		    re->function, (long long)re->count,
		    re->shapes[0] ? "input shapes " : "", re->shapes,
		    re->shapes[0] && (re->programs[0] || re->steps[0]) ?
		    "; " : "",
		    re->programs[0] ? "programs " : "", re->programs,
		    re->steps[0] && re->programs[0] ? "; " : "",
		    re->steps[0] ? "in steps " : "", re->steps, total);
		if (ov->verdict_rule != NULL &&
		    strcmp(ov->verdict_rule, "compile") == 0) {
			char *v = xasprintf("%s; %s", ov->verdict, what);

			free(ov->verdict);
			ov->verdict = v;
			ov->verdict_rule = "recompile";
		} else if (ov->verdict_rule == NULL) {
			ov->verdict_rule = "recompile";
			ov->verdict = xasprintf("recompiles: %s", what);
			verdict_ps = re->total_ps;
		}
		add_rec(ov, "recompile", (double)re->count, 2, re->total_ps,
		    what);
	}
	/*
	 * Compute is the largest part and one line most of it, more time
	 * than the wait that fired: that line is what bounds the step.
	 */
	if (ov->nlines > 0 && compute_largest(ov) &&
	    ov->lines[0].pct >= OV_DOMINANT_PCT &&
	    ov->lines[0].total_ps > verdict_ps)
		compute_verdict(ov, ov->verdict_rule != NULL ? ", more than "
		    "any wait" : " and no wait reaches its threshold");
	nfew = ov->nops < 3 ? ov->nops : 3;
	for (i = 0; i < nfew; i++)
		few += ov->ops[i].pct;
	if (ov->verdict_rule == NULL && nfew > 0 && few >= OV_FEW_OPS_PCT) {
		ov->verdict_rule = "few-ops";
		ov->verdict = xasprintf("a few ops: the top %zu ops take %.1f%% "
		    "of device time, " OUT_CODE "%s" OUT_END_CODE " first "
		    "(%.1f%%)", nfew, few,
		    ov->ops[0].name, ov->ops[0].pct);
	}
	if (ov->verdict_rule == NULL && ov->steps_ps > 0 && ov->nlines > 0)
		compute_verdict(ov, " and no wait reaches its threshold");
	if (ov->verdict_rule == NULL && ov->steps_ps > 0) {
		double busy = overview_part_pct(ov, OV_COMPUTE) +
		    overview_part_pct(ov, OV_COLLECTIVE) +
		    overview_part_pct(ov, OV_TRANSFER);

		ov->verdict_rule = "compute";
		ov->verdict = xasprintf("compute: the device is busy %.1f%% of "
		    "step time and no wait reaches its threshold; the ops "
		    "bound the step", busy);
	}
	if (ov->verdict_rule == NULL && ov->nops > 0) {
		/* No step windows: no idle time to weigh, only the ops. */
		ov->verdict_rule = "no-steps";
		ov->verdict = xasprintf("no steps found (no step annotation "
		    "and no program run repeatedly), so no wait can be "
		    "weighed; of the ops, " OUT_CODE "%s" OUT_END_CODE " takes "
		    "the most (%.1f%% of "
		    "device time)", ov->ops[0].name, ov->ops[0].pct);
	}
	if (ov->verdict_rule == NULL) {
		ov->verdict_rule = "none";
		ov->verdict = xstrdup("no steps and no ops: nothing to judge");
	}
	/* Below their threshold, the top line and op are no advice. */
	if (ov->nlines > 0 && ov->lines[0].pct >= OV_LINE_PCT)
		add_rec(ov, "top-line", ov->lines[0].pct, OV_LINE_PCT,
		    ov->lines[0].total_ps,
		    xasprintf(OUT_CODE "%s" OUT_END_CODE " takes %.1f%% of device "
		    "time: the line to optimize first", ov->lines[0].name, ov->lines[0].pct));
	if (ov->nops > 0 && ov->ops[0].pct >= OV_LINE_PCT)
		add_rec(ov, "top-op", ov->ops[0].pct, OV_LINE_PCT,
		    ov->ops[0].total_ps,
		    xasprintf("op " OUT_CODE "%s" OUT_END_CODE " takes %.1f%% "
		    "of device time%s%s%s",
		    ov->ops[0].name, ov->ops[0].pct,
		    ov->ops[0].detail[0] ? " (" : "", ov->ops[0].detail,
		    ov->ops[0].detail[0] ? ")" : ""));
	order_recs(ov);
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

/*
 * The hosts the others wait for (jaxprof-hosts(1)) come first in the
 * verdict, whatever bounds the step: the others' waits are their doing.
 */
static void
name_stragglers(struct overview *ov, struct report *r)
{
	struct hosts h;
	size_t i;

	if (ov->nhosts < 2)
		return;	/* no one to wait for */
	hosts_load(&h, r);
	for (i = h.nrows; i > 0; i--) {
		const struct host_row *row = &h.rows[i - 1];
		char *v;

		if (!row->straggler)
			continue;
		v = xasprintf("straggler %s: %s; %s", row->host, row->evidence,
		    ov->verdict);
		free(ov->verdict);
		ov->verdict = v;
		ov->verdict_rule = "straggler";
		/* What the others wait for it is what it could save. */
		add_rec(ov, "straggler", (double)row->last_steps,
		    STRAGGLER_LAST_SHARE * (double)row->joined_steps,
		    ps_from_double(row->lateness_ps),
		    xasprintf("the other hosts wait for %s in their "
		    "collectives: make %s%s faster on it, or give it less "
		    "work (jaxprof hosts; jaxprof idle --host=%s)", row->host,
		    *row->idle_in != '\0' ? "its " : "what it runs",
		    row->idle_in, row->host));
		/* First among the recommendations, as in the verdict. */
		if (ov->nrecs > 1 && strcmp(ov->recs[ov->nrecs - 1].rule,
		    "straggler") == 0) {
			struct ov_rec first = ov->recs[ov->nrecs - 1];

			memmove(&ov->recs[1], &ov->recs[0], (ov->nrecs - 1) *
			    sizeof *ov->recs);
			ov->recs[0] = first;
		}
		say_save(ov, &ov->recs[0]);
	}
	hosts_release(&h);
}

void
overview_load(struct overview *ov, struct report *r)
{
	struct compile_spans cs = { -1, NULL, 0, 0 };
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
	overview_load_steps(ov, r);
	attribute_gaps(ov, r, &cs);
	mark_skipped(ov, r, &cs);
	compile_spans_release(&cs);
	if (ov->ncauses > 0)	/* qsort() of NULL is undefined, even for none */
		qsort(ov->causes, ov->ncauses, sizeof *ov->causes, cmp_cause);
	load_ops(ov, r);
	overview_load_compiles(ov, r);
	apply_rules(ov);
	name_stragglers(ov, r);
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
json_strings(FILE *fp, const char *key, char **v, size_t n)
{
	size_t i;

	fprintf(fp, "\"%s\":[", key);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', fp);
		output_json_string(fp, v[i]);
	}
	fputs("],", fp);
}

/* Microseconds with 3 decimals, as the reports' *_us fields. */
static void
json_us(FILE *fp, const char *key, double ps)
{
	char buf[64];

	fmt_fixed(buf, sizeof buf, ps / 1e6, 3);
	fprintf(fp, "\"%s\":%s", key, buf);
}

static void
json_pct(FILE *fp, const char *key, double pct)
{
	char buf[64];

	fmt_fixed(buf, sizeof buf, pct, 2);
	fprintf(fp, "\"%s\":%s", key, buf);
}

static void
json_items(FILE *fp, const char *key, const struct ov_item *v, size_t n,
    const char *detail, int what)
{
	size_t i;

	fprintf(fp, "\"%s\":[", key);
	for (i = 0; i < n; i++) {
		fputs(i > 0 ? ",{\"name\":" : "{\"name\":", fp);
		output_json_string(fp, v[i].name);
		fprintf(fp, ",\"%s\":", detail);
		output_json_string(fp, v[i].detail);
		if (what) {
			fputs(",\"what\":", fp);
			output_json_string(fp, v[i].what);
		}
		fprintf(fp, ",\"count\":%lld,", (long long)v[i].count);
		json_us(fp, "total_us", (double)v[i].total_ps);
		fputc(',', fp);
		json_pct(fp, "percent", v[i].pct);
		fputc('}', fp);
	}
	fputs("],", fp);
}

static void
json_steps(FILE *fp, const struct overview *ov)
{
	size_t i, j;
	int k;

	fputs("\"series\":[", fp);
	for (i = 0; i < ov->nseries; i++) {
		const struct ov_series *se = &ov->series[i];

		fputs(i > 0 ? ",{\"run\":" : "{\"run\":", fp);
		output_json_string(fp, se->run);
		fputs(",\"host\":", fp);
		output_json_string(fp, se->host);
		fputs(",\"device\":", fp);
		output_json_string(fp, se->device);
		fputs(",\"steps\":[", fp);
		for (j = 0; j < se->n; j++) {
			const struct ov_step *s = &se->steps[j];

			fprintf(fp, "%s{\"step\":%lld,", j > 0 ? "," : "",
			    (long long)s->step);
			json_us(fp, "duration_us", (double)s->dur_ps);
			for (k = 0; k < OV_NPARTS; k++) {
				char key[40];

				snprintf(key, sizeof key, "%s_us",
				    ov_part_keys[k]);
				fputc(',', fp);
				json_us(fp, key, (double)s->part_ps[k]);
			}
			fputs(",\"skipped\":", fp);
			if (s->skip_why != NULL)
				output_json_string(fp, s->skip_why);
			else
				fputs("null", fp);
			fputc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("],", fp);
}

/* A number, or null when it is not known (negative). */
static void
json_known(FILE *fp, const char *key, int64_t v)
{
	if (v >= 0)
		fprintf(fp, "\"%s\":%lld", key, (long long)v);
	else
		fprintf(fp, "\"%s\":null", key);
}

static void
json_str_or_null(FILE *fp, const char *s)
{
	if (s != NULL)
		output_json_string(fp, s);
	else
		fputs("null", fp);
}

/* Each allocator's peak as jaxprof memory gives it, and its timeline. */
static void
json_memory(FILE *fp, const struct overview *ov)
{
	size_t i, j;

	fputs("\"memory\":[", fp);
	for (i = 0; i < ov->nmemory; i++) {
		const struct ov_memory *m = &ov->memory[i];

		fputs(i > 0 ? ",{\"run\":" : "{\"run\":", fp);
		output_json_string(fp, m->run);
		fputs(",\"host\":", fp);
		output_json_string(fp, m->host);
		fputs(",\"allocator\":", fp);
		output_json_string(fp, m->allocator);
		fprintf(fp, ",\"peak_bytes\":%lld,", (long long)m->peak_bytes);
		json_us(fp, "peak_time_us", (double)m->peak_ps);
		fputc(',', fp);
		json_known(fp, "step", m->step);
		fputs(",\"module\":", fp);
		json_str_or_null(fp, m->module);
		fputs(",\"op\":", fp);
		json_str_or_null(fp, m->op);
		fputc(',', fp);
		json_known(fp, "capacity_bytes", m->capacity_bytes);
		fputc(',', fp);
		json_us(fp, "start_us", (double)m->start_ps);
		fputc(',', fp);
		json_us(fp, "end_us", (double)m->end_ps);
		fputs(",\"timeline\":[", fp);
		for (j = 0; j < m->npoints; j++) {
			fputs(j > 0 ? ",{" : "{", fp);
			json_us(fp, "time_us", (double)m->points[j].time_ps);
			fprintf(fp, ",\"bytes_in_use\":%lld}",
			    (long long)m->points[j].bytes);
		}
		fputs("]}", fp);
	}
	/* What memory lacks: never an empty list that looks complete. */
	fputs("],\"memory_incomplete\":[", fp);
	for (i = 0; i < ov->memory_losses.n; i++) {
		const struct memory_loss *l = &ov->memory_losses.v[i];

		fputs(i > 0 ? ",{\"file\":" : "{\"file\":", fp);
		output_json_string(fp, l->file);
		fputs(",\"allocator\":", fp);
		output_json_string(fp, l->name);
		fputs(",\"damage\":", fp);
		output_json_string(fp, l->why);
		fputc('}', fp);
	}
	fputs("],", fp);
}

int
overview_write_json(const struct overview *ov, FILE *fp)
{
	size_t i;
	int k;

	fputc('{', fp);
	json_strings(fp, "runs", ov->runs, ov->nruns);
	json_strings(fp, "hosts", ov->hosts, ov->nhosts);
	json_strings(fp, "devices", ov->devices, ov->ndevices);
	fprintf(fp, "\"cpu_only\":%s,\"step_source\":",
	    ov->cpu_only ? "true" : "false");
	output_json_string(fp, ov->step_source);
	fprintf(fp, ",\"steps\":%zu,\"steps_kept\":%zu,", ov->nsteps,
	    ov->nkept);
	json_us(fp, "median_us", ov->median_ps);
	fputc(',', fp);
	json_us(fp, "min_us", ov->min_ps);
	fputc(',', fp);
	json_us(fp, "p90_us", ov->p90_ps);
	fputc(',', fp);
	json_us(fp, "max_us", ov->max_ps);
	fputc(',', fp);
	json_us(fp, "stddev_us", ov->stddev_ps);
	fputs(",\"breakdown\":{", fp);
	for (k = 0; k < OV_NPARTS; k++) {
		fprintf(fp, "%s\"%s\":{", k > 0 ? "," : "", ov_part_keys[k]);
		json_us(fp, "per_step_us", ov->nsteps > 0 ?
		    (double)ov->part_ps[k] / (double)ov->nsteps : 0);
		fputc(',', fp);
		json_pct(fp, "percent", overview_part_pct(ov, (enum ov_part)k));
		fputc('}', fp);
	}
	fputs("},\"verdict\":{\"rule\":", fp);
	output_json_string(fp, ov->verdict_rule);
	fputs(",\"text\":", fp);
	output_json_string(fp, ov->verdict);
	fputs("},\"idle_causes\":[", fp);
	for (i = 0; i < ov->ncauses; i++) {
		const struct ov_cause *c = &ov->causes[i];

		fputs(i > 0 ? ",{\"part\":" : "{\"part\":", fp);
		output_json_string(fp, ov_part_keys[c->part]);
		fputs(",\"host_activity\":", fp);
		output_json_string(fp, c->activity);
		fputs(",\"host_context\":", fp);
		output_json_string(fp, c->context);
		fprintf(fp, ",\"gaps\":%lld,", (long long)c->gaps);
		json_us(fp, "total_us", (double)c->ps);
		fputc(',', fp);
		json_pct(fp, "percent", ov->steps_ps > 0 ? 100.0 *
		    (double)c->ps / (double)ov->steps_ps : 0);
		fputc('}', fp);
	}
	fputs("],", fp);
	json_items(fp, "top_ops", ov->ops, ov->nops, "source", 1);
	json_items(fp, "top_lines", ov->lines, ov->nlines, "function", 0);
	precision_share_write_json(&ov->precision, fp);
	fputc(',', fp);
	fputs("\"compiles\":[", fp);
	for (i = 0; i < ov->ncompiles; i++) {
		const struct ov_compile *c = &ov->compiles[i];

		fputs(i > 0 ? ",{\"function\":" : "{\"function\":", fp);
		output_json_string(fp, c->function);
		fprintf(fp, ",\"count\":%lld,", (long long)c->count);
		json_us(fp, "compile_us", (double)c->total_ps);
		fprintf(fp, ",\"executions\":%lld,",
		    (long long)c->exec_count);
		json_us(fp, "execute_us", (double)c->exec_ps);
		fputs(",\"steps\":", fp);
		output_json_string(fp, c->steps);
		fputs(",\"programs\":", fp);
		output_json_string(fp, c->programs);
		fputs(",\"shapes\":", fp);
		output_json_string(fp, c->shapes);
		fputc('}', fp);
	}
	fputs("],\"recommendations\":[", fp);
	for (i = 0; i < ov->nrecs; i++) {
		char v[64], t[64];

		fmt_fixed(v, sizeof v, ov->recs[i].value, 1);
		fmt_fixed(t, sizeof t, ov->recs[i].threshold, 1);
		fputs(i > 0 ? ",{\"rule\":" : "{\"rule\":", fp);
		output_json_string(fp, ov->recs[i].rule);
		fprintf(fp, ",\"value\":%s,\"threshold\":%s,", v, t);
		json_us(fp, ov->nsteps > 0 ? "saves_per_step_us" :
		    "saves_in_capture_us", (double)ov->recs[i].save_ps);
		fputs(",\"text\":", fp);
		output_json_string(fp, ov->recs[i].text);
		fputc('}', fp);
	}
	fputs("],", fp);
	json_steps(fp, ov);
	json_memory(fp, ov);
	fprintf(fp, "\"timeline_step\":%lld}\n", (long long)ov->tl_step);
	return ferror(fp) ? -1 : 0;
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
		m->run = column_dup(st, 2);
		m->host = column_dup(st, 3);
		m->allocator = column_dup(st, 4);
		m->peak_bytes = sqlite3_column_int64(st, 5);
		m->peak_ps = sqlite3_column_int64(st, 6);
		m->step = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 7);
		m->op = column_dup(st, 8);
		m->capacity_bytes = sqlite3_column_type(st, 9) ==
		    SQLITE_NULL ? -1 : sqlite3_column_int64(st, 9);
		m->start_ps = sqlite3_column_int64(st, 10);
		m->end_ps = sqlite3_column_int64(st, 11);
		sqlite3_bind_int64(at, 1, file_id);
		sqlite3_bind_int64(at, 2, m->peak_ps);
		if (index_row(at)) {
			m->module = column_dup(at, 0);
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
