/*
 * The overview's idle time attributed (overview.h): each idle gap of a
 * step to what the host ran meanwhile, and the steps a compilation or
 * warm-up leaves out of median and spread.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "classify/classify.h"
#include "index/index.h"
#include "report/overview.h"
#include "report/report.h"
#include "lib/ptime.h"
#include "lib/stats.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

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
		c->name = index_column_dup(st, 2);
		c->function = index_column_dup(st, 3);
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

void
overview_attribute(struct overview *ov, struct report *r)
{
	struct compile_spans cs = { -1, NULL, 0, 0 };

	attribute_gaps(ov, r, &cs);
	mark_skipped(ov, r, &cs);
	compile_spans_release(&cs);
	if (ov->ncauses > 0)	/* qsort() of NULL is undefined, even for none */
		qsort(ov->causes, ov->ncauses, sizeof *ov->causes, cmp_cause);
}
