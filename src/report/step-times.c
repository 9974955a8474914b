/* Step times from the index, in the order reports show them (step-times.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "index/index.h"
#include "lib/stats.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"
#include "report/report.h"
#include "report/step-times.h"

/*
 * Column i of st as a string of texts ("" for NULL); like, when not NULL,
 * is the last row's, which most rows repeat.
 */
static const char *
interned_like(struct strmap *texts, sqlite3_stmt *st, int i,
    const char *like)
{
	const char *s = (const char *)sqlite3_column_text(st, i);
	uint32_t id;

	if (s == NULL)
		s = "";
	if (like != NULL && strcmp(s, like) == 0)
		return like;
	id = strmap_intern(texts, s, strlen(s));	/* may move strings */
	return texts->strings[id];
}

static const char *
interned(struct strmap *texts, sqlite3_stmt *st, int i)
{
	return interned_like(texts, st, i, NULL);
}

/* A selected device (plane) of a file, as the report orders them. */
struct step_plane {
	int64_t		 id;
	const char	*run, *host, *device;
	size_t		 rank;	/* a file's planes of one name share it */
};

static int
cmp_plane_id(const void *a, const void *b)
{
	const struct step_plane *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The selected planes, ranked by run, host, file and name; sorted by id. */
static struct step_plane *
load_planes(struct report *r, struct strmap *texts, size_t *n)
{
	struct step_plane *planes = NULL;
	int64_t last_file = -1;
	const char *last_name = NULL;
	sqlite3_stmt *st;
	size_t rank = 0;

	st = report_prepare(r, "SELECT p.id, f.id, f.run, f.host, p.name "
	    "FROM planes p JOIN files f ON f.id = p.file_id "
	    "JOIN selected sel ON sel.file_id = f.id WHERE 1",
	    " ORDER BY f.run, f.host, f.path, p.name");
	*n = 0;
	while (index_row(st)) {
		struct step_plane *p;

		planes = xreallocarray(planes, *n + 1, sizeof *planes);
		p = &planes[(*n)++];
		p->id = sqlite3_column_int64(st, 0);
		p->run = interned(texts, st, 2);
		p->host = interned(texts, st, 3);
		p->device = interned(texts, st, 4);
		if (sqlite3_column_int64(st, 1) != last_file ||
		    p->device != last_name)	/* interned: same text, same pointer */
			rank++;
		last_file = sqlite3_column_int64(st, 1);
		last_name = p->device;
		p->rank = rank;
	}
	sqlite3_finalize(st);
	if (*n > 0)
		qsort(planes, *n, sizeof *planes, cmp_plane_id);
	return planes;
}

static int
cmp_step_order(const void *a, const void *b)
{
	const struct step_row *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->start_key != y->start_key)
		return x->start_key < y->start_key ? -1 : 1;
	return x->step_key < y->step_key ? -1 : x->step_key > y->step_key;
}

#define STEPS_SQL "SELECT s.plane, s.step, s.name, s.source, s.start_ps, " \
	"s.dur_ps, s.compute_ps, s.collective_ps, s.transfer_ps, s.idle_ps, " \
	"s.file_id FROM steps s"

/* A stretch of rows already in order, and where it came in. */
struct row_run {
	const struct step_row *first;
	size_t		 start, n;
};

static int
cmp_run_order(const void *a, const void *b)
{
	const struct row_run *x = a, *y = b;
	int c = cmp_step_order(x->first, y->first);

	return c != 0 ? c : x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Rows come a device at a time, each in start order (the index writes
 * them so), and only the devices are out of order: sorting those stretches
 * instead of every row was most of the sort.  Puts *rows in order and
 * returns 1 when the stretches, sorted, join with each one strictly before
 * the next (so equal rows keep the order a stable sort gives them);
 * returns 0, leaving *rows as they were, when not.
 */
static int
order_by_runs(struct step_row **rows, size_t nrows)
{
	struct row_run *runs = NULL;
	struct step_row *sorted;
	size_t nruns = 0, i, at = 0;
	int ok = 1;

	for (i = 0; i < nrows; i++) {
		if (i == 0 || cmp_step_order(&(*rows)[i - 1], &(*rows)[i]) > 0) {
			runs = xreallocarray(runs, nruns + 1, sizeof *runs);
			runs[nruns].first = &(*rows)[i];
			runs[nruns++].start = i;
		}
		runs[nruns - 1].n = i + 1 - runs[nruns - 1].start;
	}
	if (nruns <= 1) {
		free(runs);
		return 1;
	}
	qsort(runs, nruns, sizeof *runs, cmp_run_order);
	for (i = 1; i < nruns && ok; i++)
		ok = cmp_step_order(&runs[i - 1].first[runs[i - 1].n - 1],
		    runs[i].first) < 0;
	if (ok) {
		sorted = xreallocarray(NULL, nrows, sizeof *sorted);
		for (i = 0; i < nruns; i++) {
			memcpy(sorted + at, runs[i].first,
			    runs[i].n * sizeof *sorted);
			at += runs[i].n;
		}
		free(*rows);
		*rows = sorted;
	}
	free(runs);
	return ok;
}

/*
 * The steps of the selected files, or of every file when all are
 * selected: step_times_load() keeps the selected planes' rows only, and the
 * join would cost a lookup a row for nothing.
 */
static sqlite3_stmt *
prepare_steps(struct report *r)
{
	sqlite3_stmt *st = index_prepare(r->ix, "SELECT (SELECT count(*) "
	    "FROM files) = (SELECT count(*) FROM selected)");
	int all = index_row(st) &&
	    sqlite3_column_int(st, 0) == 1;

	sqlite3_finalize(st);
	return index_prepare(r->ix, all ? STEPS_SQL : STEPS_SQL
	    " JOIN selected sel ON sel.file_id = s.file_id");
}

/* The steps in the index, at least one: step_times_load()'s room. */
static size_t
count_steps(struct report *r)
{
	sqlite3_stmt *st = index_prepare(r->ix, "SELECT count(*) FROM steps");
	sqlite3_int64 n = index_row(st) ?
	    sqlite3_column_int64(st, 0) : 0;

	sqlite3_finalize(st);
	return n > 0 ? (size_t)n : 1;
}

/*
 * Loads the selected steps, grouped per (file, device) in start order,
 * all in one array (*all_rows, the caller frees it and the devices);
 * their strings are in texts.  Sorted here, by each device's rank: SQL's
 * ORDER BY on the joined texts sorted every row (bench/RESULTS.md).
 */
struct device_steps *
step_times_load(struct report *r, size_t skip, struct strmap *texts,
    size_t *ndev, struct step_row **all_rows)
{
	struct device_steps *devs = NULL;
	struct step_row *rows = NULL;
	struct step_plane *planes, key;
	sqlite3_stmt *st;
	size_t n = 0, nplanes, nrows = 0, cap = 0, i;

	planes = load_planes(r, texts, &nplanes);
	/*
	 * Counted and read in the report's one snapshot (report_open()):
	 * the rows never outgrow cap.
	 */
	cap = count_steps(r);
	rows = xreallocarray(NULL, cap, sizeof *rows);
	st = prepare_steps(r);
	while (index_row(st)) {
		const struct step_plane *p;
		struct step_row *row;
		int k;

		key.id = sqlite3_column_int64(st, 0);
		p = nplanes > 0 ? bsearch(&key, planes, nplanes,
		    sizeof *planes, cmp_plane_id) : NULL;
		if (p == NULL)
			continue;	/* a device the filters leave out */
		if (nrows == cap)
			break;	/* (no snapshot: steps stored since) */
		row = &rows[nrows++];
		row->run = p->run;
		row->host = p->host;
		row->device = p->device;
		row->rank = p->rank;
		row->plane_id = p->id;
		row->step = sqlite3_column_int64(st, 1);
		row->step_key = index_column_order(st, 1);
		row->name = interned_like(texts, st, 2,
		    nrows > 1 ? row[-1].name : NULL);
		row->source = interned_like(texts, st, 3,
		    nrows > 1 ? row[-1].source : NULL);
		row->start_ps = sqlite3_column_int64(st, 4);
		row->start_key = index_column_order(st, 4);
		row->dur_ps = sqlite3_column_int64(st, 5);
		for (k = 0; k < 3; k++)
			row->busy_ps[k] = sqlite3_column_int64(st, 6 + k);
		row->idle_ps = sqlite3_column_int64(st, 9);
		row->file_id = sqlite3_column_int64(st, 10);
		row->outlier = 0;
	}
	sqlite3_finalize(st);
	free(planes);
	if (!order_by_runs(&rows, nrows))
		qsort(rows, nrows, sizeof *rows, cmp_step_order);
	/* Each device's steps: a stretch of the rows, in place. */
	for (i = 0; i < nrows; i++) {
		struct device_steps *d = n > 0 ? &devs[n - 1] : NULL;

		if (d == NULL || d->rows[0].plane_id != rows[i].plane_id) {
			devs = xreallocarray(devs, n + 1, sizeof *devs);
			d = &devs[n++];
			d->rows = &rows[i];
			d->n = 0;
		}
		d->n++;
	}
	/* --skip drops each device's first steps: compile and warm-up. */
	for (i = 0; i < n; i++) {
		struct device_steps *d = &devs[i];
		size_t drop = skip < d->n ? skip : d->n;

		d->rows += drop;
		d->n -= drop;
	}
	*all_rows = rows;
	*ndev = n;
	return devs;
}

/*
 * Marks steps slower than median + 3 * MAD and than the median plus the
 * margin, a fraction of it (a GPU's MAD can be tiny: 0.1% above the median
 * is no outlier); returns how many.
 */
size_t
step_times_mark_outliers(struct device_steps *d,
    const struct sample *durations, double margin)
{
	double median = sample_percentile(durations, 50);
	double mad = sample_mad(durations);
	size_t i, n = 0;

	for (i = 0; i < d->n; i++) {
		d->rows[i].outlier = mad > 0 &&
		    (double)d->rows[i].dur_ps > median + 3 * mad &&
		    (double)d->rows[i].dur_ps > median * (1 + margin);
		n += (size_t)d->rows[i].outlier;
	}
	return n;
}

int64_t
step_times_compile_ps(struct report *r, const struct step_row *step)
{
	/* Kept by the index: asked once per device. */
	sqlite3_stmt *st = index_cached(r->ix, "SELECT coalesce(sum(min("
	    "start_ps + dur_ps, ?2) - max(start_ps, ?1)), 0) FROM compiles "
	    "WHERE file_id = ?3 AND start_ps < ?2 AND start_ps + dur_ps > ?1");
	int64_t ps = 0;

	sqlite3_bind_int64(st, 1, step->start_ps);
	sqlite3_bind_int64(st, 2, step->start_ps + step->dur_ps);
	sqlite3_bind_int64(st, 3, step->file_id);
	if (index_row(st))
		ps = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return ps;
}
