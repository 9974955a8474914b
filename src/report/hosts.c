/*
 * The hosts of each run compared, and the stragglers named
 * (jaxprof-hosts(1), THE RULE), from the step rows (step_times_load())
 * and two tables of the index: their queries stream in order, one step's
 * collectives at a time, so memory grows with the hosts of a run, their
 * steps and the steps they were last in, not with the collectives.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"
#include "lib/strmap.h"
#include "lib/units.h"
#include "lib/xmalloc.h"
#include "report/hosts.h"
#include "report/step-times.h"

/* The tables' rows of the selected files and planes, by the filters. */
#define FROM_SQL(t, alias) " FROM " t " " alias " JOIN files f ON f.id = " \
	alias ".file_id JOIN selected sel ON sel.file_id = f.id " \
	"JOIN planes p ON p.id = " alias ".plane WHERE 1"

/* Text column i of the current row, valid until the next step. */
static const char *
text_at(sqlite3_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st, i);

	return t != NULL ? t : "";
}

/* What a host's collectives add up to, while its run is read. */
struct host_acc {
	double		 wait_ps;	/* its waits, summed */
	struct sample	 lateness;	/* per step in which it was last */
	double		 others_wait_ps;	/* its peers' waits for it */
	char		**ops;		/* the deciding collective, per step */
	size_t		 nops;
};

/* One host's duration of one collective of a step. */
struct arrival {
	size_t		 host;		/* in the run's rows */
	int64_t		 dur_ps;
};

/* A step of the run being read: its collective with the largest spread. */
struct step_decider {
	int64_t		 step;
	int		 have;		/* a collective two hosts ran */
	int64_t		 spread_ps;
	char		*name;
	struct arrival	*v;
	size_t		 n;
	double		 median_ps;
	int64_t		 min_ps;
};

/* Steps by run, host and step number: a host's devices side by side. */
static int
cmp_host_step(const void *a, const void *b)
{
	const struct step_row *x = *(const struct step_row *const *)a;
	const struct step_row *y = *(const struct step_row *const *)b;
	int c = strcmp(x->run, y->run);

	if (c == 0)
		c = strcmp(x->host, y->host);
	return c != 0 ? c : x->step < y->step ? -1 : x->step > y->step;
}

/* The median and p90 of a host's steps, its parts per step. */
static void
end_host(struct host_row *row, struct sample *durs)
{
	double n = (double)row->steps;

	sample_sort(durs);
	row->median_step_ps = sample_percentile(durs, 50);
	row->p90_step_ps = sample_percentile(durs, 90);
	row->compute_ps /= n;
	row->collective_ps /= n;
	row->idle_ps /= n;
	sample_release(durs);
	sample_init(durs);
}

/* The median of all steps of a run, on each of its rows from lo. */
static void
end_run(struct hosts *h, size_t lo, struct sample *durs)
{
	size_t i;

	sample_sort(durs);
	for (i = lo; i < h->nrows; i++)
		h->rows[i].run_median_step_ps = sample_percentile(durs, 50);
	sample_release(durs);
	sample_init(durs);
}

/*
 * Each host's numbered steps, from step_times_load(): a step's time on a
 * host is its devices' average, and the host's row the median and p90 of
 * those, with the parts averaged over its steps; its run's median is
 * over all its hosts' steps.
 */
static void
load_steps(struct hosts *h, struct report *r)
{
	struct strmap texts;
	struct device_steps *devs;
	struct step_row *all, **v = NULL;
	struct host_row *row = NULL;
	struct sample durs, run_durs;
	size_t ndev, n = 0, cap = 0, run_lo = 0, i, j, k;

	strmap_init(&texts);
	devs = step_times_load(r, 0, &texts, &ndev, &all);
	for (i = 0; i < ndev; i++)
		for (j = 0; j < devs[i].n; j++) {
			if (devs[i].rows[j].step_key == INT64_MIN)
				continue;	/* no step number */
			if (n == cap) {
				cap = cap > 0 ? 2 * cap : 256;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[n++] = &devs[i].rows[j];
		}
	if (n > 0)
		qsort(v, n, sizeof *v, cmp_host_step);
	sample_init(&durs);
	sample_init(&run_durs);
	for (i = 0; i < n; i = j) {
		int64_t dur = 0, compute = 0, collective = 0, idle = 0, avg;

		if (row != NULL && strcmp(row->run, v[i]->run) != 0) {
			end_host(row, &durs);
			end_run(h, run_lo, &run_durs);
			row = NULL;
			run_lo = h->nrows;
		} else if (row != NULL && strcmp(row->host, v[i]->host) != 0) {
			end_host(row, &durs);
			row = NULL;
		}
		if (row == NULL) {
			h->rows = xgrow1(h->rows, h->nrows, sizeof *h->rows);
			row = &h->rows[h->nrows++];
			memset(row, 0, sizeof *row);
			row->run = xstrdup(v[i]->run);
			row->host = xstrdup(v[i]->host);
			row->idle_in = xstrdup("");
			row->evidence = xstrdup("");
		}
		for (j = i; j < n && cmp_host_step(&v[i], &v[j]) == 0; j++) {
			dur += v[j]->dur_ps;
			compute += v[j]->busy_ps[0];
			collective += v[j]->busy_ps[1];
			idle += v[j]->idle_ps;
		}
		k = j - i;
		avg = (int64_t)((double)dur / (double)k);
		row->steps++;
		sample_add(&durs, avg);
		sample_add(&run_durs, avg);
		row->compute_ps += (double)compute / (double)k;
		row->collective_ps += (double)collective / (double)k;
		row->idle_ps += (double)idle / (double)k;
	}
	if (row != NULL) {
		end_host(row, &durs);
		end_run(h, run_lo, &run_durs);
	}
	sample_release(&durs);
	sample_release(&run_durs);
	free(v);
	free(devs);
	free(all);
	strmap_release(&texts);
}

/* The row of host in run, in rows [lo, hi) sorted by host; -1 if none. */
static long
find_host(const struct hosts *h, size_t lo, size_t hi, const char *host)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->rows[mid].host, host);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The rows of run: [*lo, *hi) of h's, sorted by run then host. */
static int
run_rows(const struct hosts *h, const char *run, size_t *lo, size_t *hi)
{
	size_t i;

	for (i = 0; i < h->nrows && strcmp(h->rows[i].run, run) < 0; i++)
		;
	*lo = i;
	while (i < h->nrows && strcmp(h->rows[i].run, run) == 0)
		i++;
	*hi = i;
	return *lo < *hi;
}

/* The host's top annotation over its steps (idle_in). */
static void
load_annotations(struct hosts *h, struct report *r)
{
	sqlite3_stmt *st = report_prepare(r, "SELECT f.run, f.host, a.name, "
	    "sum(a.dur_ps) AS total" FROM_SQL("step_annotations", "a"),
	    " GROUP BY f.run, f.host, a.name "
	    "ORDER BY f.run, f.host, total DESC, a.name");
	const char *prev_run = NULL;
	size_t lo = 0, hi = 0;

	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *run = text_at(st, 0);
		long i;

		if (prev_run == NULL || strcmp(prev_run, run) != 0) {
			(void)run_rows(h, run, &lo, &hi);
			prev_run = h->rows != NULL && lo < hi ?
			    h->rows[lo].run : NULL;
		}
		i = find_host(h, lo, hi, text_at(st, 1));
		if (i == -1 || *h->rows[i].idle_in != '\0')
			continue;	/* no steps; or not its top one */
		free(h->rows[i].idle_in);
		h->rows[i].idle_in = xstrdup(text_at(st, 2));
		h->rows[i].idle_in_ps = sqlite3_column_double(st, 3) /
		    (double)h->rows[i].steps;
	}
	sqlite3_finalize(st);
}

static int
cmp_dur(const void *a, const void *b)
{
	const struct arrival *x = a, *y = b;

	return (x->dur_ps > y->dur_ps) - (x->dur_ps < y->dur_ps);
}

/* Median duration of v (sorted copy), min into *min. */
static double
median_of(const struct arrival *v, size_t n, int64_t *min)
{
	struct arrival *s = xcalloc(n, sizeof *s);
	double m;

	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_dur);
	*min = s[0].dur_ps;
	m = n % 2 == 1 ? (double)s[n / 2].dur_ps :
	    ((double)s[n / 2 - 1].dur_ps + (double)s[n / 2].dur_ps) / 2;
	free(s);
	return m;
}

/*
 * One collective of a step, as its hosts ran it: their waits, and
 * whether it is the step's decider so far.
 */
static void
take_collective(struct host_acc *acc, struct step_decider *d,
    const char *name, const struct arrival *v, size_t n)
{
	int64_t min, max = v[0].dur_ps;
	double median;
	size_t i;

	if (n < 2)
		return;
	median = median_of(v, n, &min);
	for (i = 0; i < n; i++) {
		acc[v[i].host].wait_ps += (double)(v[i].dur_ps - min);
		if (v[i].dur_ps > max)
			max = v[i].dur_ps;
	}
	if (d->have && max - min <= d->spread_ps)
		return;
	d->have = 1;
	d->spread_ps = max - min;
	free(d->name);
	d->name = xstrdup(name);
	d->v = xreallocarray(d->v, n, sizeof *d->v);
	memcpy(d->v, v, n * sizeof *v);
	d->n = n;
	d->median_ps = median;
	d->min_ps = min;
}

/* The step is read: who arrived last, by how much, who waited for it. */
static void
end_step(struct host_acc *acc, struct step_decider *d, int64_t *joined)
{
	struct host_acc *a;
	size_t i, last = 0;

	if (!d->have)
		return;
	(*joined)++;
	for (i = 1; i < d->n; i++)
		if (d->v[i].dur_ps < d->v[last].dur_ps)
			last = i;
	a = &acc[d->v[last].host];
	sample_add(&a->lateness,
	    (int64_t)(d->median_ps - (double)d->v[last].dur_ps));
	for (i = 0; i < d->n; i++)
		if (i != last)
			a->others_wait_ps += (double)(d->v[i].dur_ps -
			    d->min_ps);
	a->ops = xgrow1(a->ops, a->nops, sizeof *a->ops);
	a->ops[a->nops++] = d->name;
	d->name = NULL;
	d->have = 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The collective that decided most of the steps in which it was last
 * (the first in name order among equals); sorts a->ops.
 */
static const char *
top_op(struct host_acc *a)
{
	size_t i, run = 0, best = 0, best_n = 0;

	if (a->nops == 0)
		return "";
	qsort(a->ops, a->nops, sizeof *a->ops, cmp_str);
	for (i = 1; i <= a->nops; i++) {
		if (i < a->nops && strcmp(a->ops[i], a->ops[run]) == 0)
			continue;
		if (i - run > best_n) {
			best = run;
			best_n = i - run;
		}
		run = i;
	}
	return a->ops[best];
}

/* The run's rows [lo, hi) complete, by its hosts' accumulators. */
static void
finish_run(struct hosts *h, size_t lo, size_t hi, struct host_acc *acc,
    int64_t joined)
{
	double late_min = STRAGGLER_LATE_SHARE * h->rows[lo].run_median_step_ps;
	size_t i, nhosts = hi - lo;

	if (late_min < (double)STRAGGLER_LATE_MIN_PS)
		late_min = (double)STRAGGLER_LATE_MIN_PS;
	for (i = lo; i < hi; i++) {
		struct host_row *row = &h->rows[i];
		struct host_acc *a = &acc[i - lo];
		char late[32], ann[32], waited[32], *spends, *who;

		row->wait_ps = a->wait_ps / (double)row->steps;
		row->transfer_ps = row->collective_ps > row->wait_ps ?
		    row->collective_ps - row->wait_ps : 0;
		row->joined_steps = joined;
		row->last_steps = (int64_t)a->lateness.n;
		sample_sort(&a->lateness);
		row->lateness_ps = sample_percentile(&a->lateness, 50);
		row->straggler = nhosts >= 2 && joined > 0 &&
		    (double)row->last_steps >= STRAGGLER_LAST_SHARE *
		    (double)joined && row->lateness_ps >= late_min;
		if (!row->straggler)
			continue;
		fmt_duration(late, sizeof late, (int64_t)row->lateness_ps);
		fmt_duration(ann, sizeof ann, (int64_t)row->idle_in_ps);
		fmt_duration(waited, sizeof waited, (int64_t)(a->others_wait_ps /
		    (double)(nhosts - 1) / (double)joined));
		spends = *row->idle_in != '\0' ? xasprintf("it spends %s per "
		    "step in %s; ", ann, row->idle_in) : xstrdup("");
		who = nhosts == 2 ? xstrdup("the other host waits") :
		    xasprintf("the other %zu hosts wait", nhosts - 1);
		free(row->evidence);
		row->evidence = xasprintf("%s arrives last at %s in %lld of "
		    "%lld steps, %s after the median host; %s%s %s per step "
		    "for it", row->host, top_op(a),
		    (long long)row->last_steps, (long long)joined, late, spends,
		    who, waited);
		free(spends);
		free(who);
	}
}

/* The collectives of the run of rows [lo, hi), step by step. */
static void
load_collectives(struct hosts *h, struct report *r, size_t lo, size_t hi)
{
	sqlite3_stmt *st = report_prepare(r, "SELECT c.step, c.name, "
	    "c.occurrence, f.host, min(c.dur_ps)"
	    FROM_SQL("step_collectives", "c") " AND f.run = ?1",
	    " GROUP BY c.step, c.name, c.occurrence, f.host "
	    "ORDER BY c.step, c.name, c.occurrence, f.host");
	struct host_acc *acc = xcalloc(hi - lo, sizeof *acc);
	struct step_decider d;
	struct arrival *v = NULL;
	char *name = NULL;
	int64_t occurrence = -1, joined = 0;
	size_t n = 0, i, j;
	int more;

	memset(&d, 0, sizeof d);
	for (i = 0; i < hi - lo; i++)
		sample_init(&acc[i].lateness);
	sqlite3_bind_text(st, 1, h->rows[lo].run, -1, SQLITE_STATIC);
	do {
		int64_t step, occ;
		const char *op, *host;
		long k;

		more = sqlite3_step(st) == SQLITE_ROW;
		step = more ? sqlite3_column_int64(st, 0) : 0;
		op = more ? text_at(st, 1) : "";
		occ = more ? sqlite3_column_int64(st, 2) : 0;
		/* A collective ends where the key changes; a step, too. */
		if (name != NULL && (!more || step != d.step ||
		    strcmp(op, name) != 0 || occ != occurrence)) {
			take_collective(acc, &d, name, v, n);
			n = 0;
			free(name);
			name = NULL;
		}
		if (!more || step != d.step) {
			end_step(acc, &d, &joined);
			d.step = step;
		}
		if (!more)
			break;
		if (name == NULL) {
			name = xstrdup(op);
			occurrence = occ;
		}
		host = text_at(st, 3);
		if ((k = find_host(h, lo, hi, host)) == -1)
			continue;	/* a host without steps */
		v = xgrow1(v, n, sizeof *v);
		v[n].host = (size_t)k - lo;
		v[n].dur_ps = sqlite3_column_int64(st, 4);
		n++;
	} while (more);
	sqlite3_finalize(st);
	finish_run(h, lo, hi, acc, joined);
	for (i = 0; i < hi - lo; i++) {
		sample_release(&acc[i].lateness);
		for (j = 0; j < acc[i].nops; j++)
			free(acc[i].ops[j]);
		free(acc[i].ops);
	}
	free(acc);
	free(v);
	free(d.name);
	free(d.v);
}

void
hosts_load(struct hosts *h, struct report *r)
{
	size_t lo, hi;

	memset(h, 0, sizeof *h);
	load_steps(h, r);
	load_annotations(h, r);
	for (lo = 0; lo < h->nrows; lo = hi) {
		for (hi = lo; hi < h->nrows &&
		    strcmp(h->rows[hi].run, h->rows[lo].run) == 0; hi++)
			;
		load_collectives(h, r, lo, hi);
	}
}

void
hosts_release(struct hosts *h)
{
	size_t i;

	for (i = 0; i < h->nrows; i++) {
		free(h->rows[i].run);
		free(h->rows[i].host);
		free(h->rows[i].idle_in);
		free(h->rows[i].evidence);
	}
	free(h->rows);
	memset(h, 0, sizeof *h);
}
