/* Step times per device, their breakdown, summary statistics and skew. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "report/report.h"
#include "report/step-times.h"
#include "lib/stats.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

static int	steps_run(int argc, char **argv);

const struct cmd cmd_steps = {
	.name = "steps",
	.usage = "jaxprof steps [--summary | --skew] [--skip=n] "
	    "[--outlier-margin=pct] "
	    "[--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "step times per device, with compute, collective, "
	    "transfer and idle time",
	.options =
	    "  --summary       per device: min, median, mean, p90, max, "
	    "stddev, breakdown\n"
	    "  --skew          per step: spread of step time across hosts\n"
	    "  --skip=N        leave out each device's first N steps\n"
	    "  --outlier-margin=PCT  an outlier is also PCT above the median\n"
	    "                  (default 10%)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching (default: the newest run,\n"
	    "                  naming the others)\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.run = steps_run,
};

/* --outlier-margin, as a fraction of the median. */
static double outlier_margin = 0.10;

static const struct out_col step_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "device", COL_STR, NULL, 0, UNIT_NONE },
	{ "step", COL_INT, NULL, 0, UNIT_NONE },
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "start_us", COL_PS, "start", 0, UNIT_NONE },
	{ "duration_us", COL_PS, "duration", 0, UNIT_NONE },
	{ "compute_us", COL_PS, "compute", 0, UNIT_NONE },
	{ "collective_us", COL_PS, "collective", 0, UNIT_NONE },
	{ "transfer_us", COL_PS, "transfer", 0, UNIT_NONE },
	{ "idle_us", COL_PS, "idle", 0, UNIT_NONE },
	{ "outlier", COL_INT, NULL, 0, UNIT_NONE },
};

/* "path" (the PATH given) only when several are: see print_summary(). */
static const struct out_col summary_cols[] = {
	{ "path", COL_STR, NULL, 0, UNIT_NONE },
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "device", COL_STR, NULL, 0, UNIT_NONE },
	{ "source", COL_STR, NULL, 0, UNIT_NONE },
	{ "steps", COL_INT, NULL, 0, UNIT_NONE },
	{ "min_us", COL_PS, "min", 0, UNIT_NONE },
	{ "median_us", COL_PS, "median", 0, UNIT_NONE },
	{ "mean_us", COL_PS, "mean", 0, UNIT_NONE },
	{ "p90_us", COL_PS, "p90", 0, UNIT_NONE },
	{ "max_us", COL_PS, "max", 0, UNIT_NONE },
	{ "stddev_us", COL_PS, "stddev", 0, UNIT_NONE },
	{ "compute_percent", COL_PCT, "compute", 0, UNIT_NONE },
	{ "collective_percent", COL_PCT, "collective", 0, UNIT_NONE },
	{ "transfer_percent", COL_PCT, "transfer", 0, UNIT_NONE },
	{ "idle_percent", COL_PCT, "idle", 0, UNIT_NONE },
	{ "outliers", COL_INT, NULL, 0, UNIT_NONE },
};

static const struct out_col skew_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "step", COL_INT, NULL, 0, UNIT_NONE },
	{ "hosts", COL_INT, NULL, 0, UNIT_NONE },
	{ "min_us", COL_PS, "fastest", 0, UNIT_NONE },
	{ "max_us", COL_PS, "slowest", 0, UNIT_NONE },
	{ "skew_us", COL_PS, "skew", 0, UNIT_NONE },
	{ "slowest_host", COL_STR, "slowest host", 0, UNIT_NONE },
};

static void
fill_steps(struct output *o, struct device_steps *devs, size_t ndev)
{
	size_t i, j;

	for (i = 0; i < ndev; i++) {
		struct sample durations;

		sample_init(&durations);
		for (j = 0; j < devs[i].n; j++)
			sample_add(&durations, devs[i].rows[j].dur_ps);
		step_times_mark_outliers(&devs[i], &durations,
		    outlier_margin);
		sample_release(&durations);
		for (j = 0; j < devs[i].n; j++) {
			const struct step_row *s = &devs[i].rows[j];
			int k;

			output_str(o, s->run);
			output_str(o, s->host);
			output_str(o, s->device);
			output_int(o, s->step);
			output_str(o, s->name);
			output_ps(o, (double)s->start_ps);
			output_ps(o, (double)s->dur_ps);
			for (k = 0; k < 3; k++)
				output_ps(o, (double)s->busy_ps[k]);
			output_ps(o, (double)s->idle_ps);
			output_int(o, s->outlier);
			output_end_row(o);
		}
	}
}

/* The compile time inside a step: COMPILES_IN_SQL, prepared once. */
#define COMPILES_IN_SQL "SELECT coalesce(sum(min(start_ps + dur_ps, ?2) - " \
	"max(start_ps, ?1)), 0) FROM compiles WHERE file_id = ?3 " \
	"AND start_ps < ?2 AND start_ps + dur_ps > ?1"

/*
 * The note for a first step that looks like compilation: a compile ran
 * inside it (st: COMPILES_IN_SQL), or it took more than twice the median
 * of the others.
 */
static char *
compile_step_note(sqlite3_stmt *st, const struct device_steps *d)
{
	const struct step_row *first = &d->rows[0];
	struct sample rest;
	int64_t compile_ps = 0;
	double median;
	char what[96], dur[40], comp[40];
	char *note = NULL;
	size_t i;

	if (d->n < 2)
		return NULL;
	sample_init(&rest);
	for (i = 1; i < d->n; i++)
		sample_add(&rest, d->rows[i].dur_ps);
	median = sample_percentile(&rest, 50);
	sample_release(&rest);
	sqlite3_bind_int64(st, 1, first->start_ps);
	sqlite3_bind_int64(st, 2, first->start_ps + first->dur_ps);
	sqlite3_bind_int64(st, 3, first->file_id);
	if (index_row(st))
		compile_ps = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (compile_ps > first->dur_ps)	/* compiles on threads overlap */
		compile_ps = first->dur_ps;
	if (compile_ps == 0 && (double)first->dur_ps <= 2 * median)
		return NULL;
	fmt_duration(dur, sizeof dur, first->dur_ps);
	fmt_duration(comp, sizeof comp, compile_ps);
	if (compile_ps > 0)
		snprintf(what, sizeof what, "compilation ran %s of it", comp);
	else
		snprintf(what, sizeof what, "over twice the median");
	note = xasprintf("%s %s: step %lld (%s) looks like a compile step "
	    "(%s); --skip=1 leaves it out.", first->host, first->device,
	    (long long)first->step, dur, what);
	return note;
}

/* A note under the table, "PATH: note" when several PATHs were given. */
static void
note_under(struct output *o, const char *path, const char *note)
{
	char *line;

	if (path == NULL) {
		output_note(o, note);
		return;
	}
	line = xasprintf("%s: %s", path, note);
	output_note(o, line);
	free(line);
}

static void
print_summary(struct report *r, struct output *o, struct device_steps *devs,
    size_t ndev, size_t skip)
{
	sqlite3_stmt *compiles = index_prepare(r->ix, COMPILES_IN_SQL);
	const char *path;
	size_t i, j;

	for (i = 0; i < ndev; i++) {
		struct device_steps *d = &devs[i];
		struct sample durations;
		double busy[3] = { 0, 0, 0 }, idle = 0, total = 0;
		size_t outliers;
		int k;

		if (d->n == 0)
			continue;
		sample_init(&durations);
		for (j = 0; j < d->n; j++) {
			sample_add(&durations, d->rows[j].dur_ps);
			for (k = 0; k < 3; k++)
				busy[k] += (double)d->rows[j].busy_ps[k];
			idle += (double)d->rows[j].idle_ps;
			total += (double)d->rows[j].dur_ps;
		}
		sample_sort(&durations);
		outliers = step_times_mark_outliers(d, &durations,
		    outlier_margin);
		/* Runs of several PATHs are told apart by PATH, not time. */
		path = report_path_of(r, d->rows[0].file_id);
		if (r->npaths > 1)
			output_str(o, path);
		output_str(o, d->rows[0].run);
		output_str(o, d->rows[0].host);
		output_str(o, d->rows[0].device);
		output_str(o, d->rows[0].source);
		output_int(o, (int64_t)d->n);
		output_ps(o, (double)durations.v[0]);
		output_ps(o, sample_percentile(&durations, 50));
		output_ps(o, sample_mean(&durations));
		output_ps(o, sample_percentile(&durations, 90));
		output_ps(o, (double)durations.v[durations.n - 1]);
		output_ps(o, sample_stddev(&durations));
		for (k = 0; k < 3; k++)
			output_double(o, total > 0 ? 100 * busy[k] / total : 0);
		output_double(o, total > 0 ? 100 * idle / total : 0);
		output_int(o, (int64_t)outliers);
		output_end_row(o);
		sample_release(&durations);
		if (skip == 0) {
			char *note = compile_step_note(compiles, d);

			if (note != NULL) {
				note_under(o, path, note);
				free(note);
			}
		}
		for (j = 0; j < d->n; j++)
			if (d->rows[j].outlier) {
				char dur[64], margin[32], *note;

				fmt_duration(dur, sizeof dur, d->rows[j].dur_ps);
				fmt_fixed(margin, sizeof margin,
				    outlier_margin * 100, 0);
				note = xasprintf("%s %s: step %lld is an outlier "
				    "(%s, above median + 3 MAD and median + "
				    "%s%%).", d->rows[j].host, d->rows[j].device,
				    (long long)d->rows[j].step, dur, margin);
				note_under(o, path, note);
				free(note);
			}
	}
	sqlite3_finalize(compiles);
}

/* One (run, step, host) of the skew report: its slowest device's time. */
struct skew_entry {
	const char	*run, *host;
	int64_t		 step, dur;
	size_t		 seq;	/* its first row's place among the rows */
};

/* One (run, step) of the skew report: its hosts' spread. */
struct skew_step {
	const char	*run, *slowest;
	int64_t		 step, lo, hi;
	size_t		 hosts, seq;
};

/* Interned strings are often the same pointer: no need to compare them. */
static int
str_order(const char *a, const char *b)
{
	return a == b ? 0 : strcmp(a, b);
}

static int
skew_entry_order(const void *a, const void *b)
{
	const struct skew_entry *x = a, *y = b;
	int c;

	if ((c = str_order(x->run, y->run)) != 0)
		return c;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	if ((c = str_order(x->host, y->host)) != 0)
		return c;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int
skew_step_order(const void *a, const void *b)
{
	const struct skew_step *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int
host_order(const void *a, const void *b)
{
	return str_order(*(const char *const *)a, *(const char *const *)b);
}

static int
same_run_step(const struct skew_entry *a, const struct skew_entry *b)
{
	return a->step == b->step && str_order(a->run, b->run) == 0;
}

/*
 * Skew: for each (run, step) on two hosts or more, the spread of the
 * hosts' step times (a host's time: its slowest device's), in the order
 * the steps first appear among the rows; the slowest host is the first
 * to reach the longest time.  Sorted, not searched, so that thousands of
 * hosts cost n log n.  Returns the number of rows; *host is a host the
 * steps were on (NULL: none) and *nhosts how many hosts there were.
 */
static size_t
print_skew(struct output *o, struct device_steps *devs, size_t ndev,
    const char **host, size_t *nhosts)
{
	struct skew_entry *e;
	struct skew_step *steps;
	const char **hosts;
	size_t n = 0, m, nsteps = 0, i, j;

	for (i = 0; i < ndev; i++)
		n += devs[i].n;
	e = xreallocarray(NULL, n + 1, sizeof *e);
	for (i = m = 0; i < ndev; i++)
		for (j = 0; j < devs[i].n; j++, m++) {
			const struct step_row *s = &devs[i].rows[j];

			e[m] = (struct skew_entry){ s->run, s->host, s->step,
			    s->dur_ps, m };
		}
	*host = n > 0 ? e[0].host : NULL;
	/* One entry per (run, step, host), in (run, step) groups. */
	qsort(e, n, sizeof *e, skew_entry_order);
	for (i = m = 0; i < n; i++)
		if (m > 0 && same_run_step(&e[m - 1], &e[i]) &&
		    str_order(e[m - 1].host, e[i].host) == 0) {
			if (e[i].dur > e[m - 1].dur)
				e[m - 1].dur = e[i].dur;
		} else
			e[m++] = e[i];
	steps = xreallocarray(NULL, m + 1, sizeof *steps);
	hosts = xreallocarray(NULL, m + 1, sizeof *hosts);
	for (i = 0; i < m; i = j) {
		struct skew_step g = { e[i].run, e[i].host, e[i].step,
		    e[i].dur, e[i].dur, 0, e[i].seq };
		size_t slowest_seq = e[i].seq;

		for (j = i; j < m && same_run_step(&e[i], &e[j]); j++) {
			hosts[j] = e[j].host;
			g.hosts++;
			if (e[j].seq < g.seq)
				g.seq = e[j].seq;
			if (e[j].dur < g.lo)
				g.lo = e[j].dur;
			if (e[j].dur > g.hi || (e[j].dur == g.hi &&
			    e[j].seq < slowest_seq)) {
				g.hi = e[j].dur;
				g.slowest = e[j].host;
				slowest_seq = e[j].seq;
			}
		}
		if (g.hosts >= 2)
			steps[nsteps++] = g;
	}
	qsort(steps, nsteps, sizeof *steps, skew_step_order);
	for (i = 0; i < nsteps; i++) {
		output_str(o, steps[i].run);
		output_int(o, steps[i].step);
		output_int(o, (int64_t)steps[i].hosts);
		output_ps(o, (double)steps[i].lo);
		output_ps(o, (double)steps[i].hi);
		output_ps(o, (double)(steps[i].hi - steps[i].lo));
		output_str(o, steps[i].slowest);
		output_end_row(o);
	}
	qsort(hosts, m, sizeof *hosts, host_order);
	for (i = 0, *nhosts = 0; i < m; i++)
		if (i == 0 || str_order(hosts[i - 1], hosts[i]) != 0)
			(*nhosts)++;
	free(hosts);
	free(steps);
	free(e);
	return nsteps;
}

/*
 * "Steps from ...": which source each device's steps came from, with the
 * step events' names (host annotations) or the module's.
 */
static void
add_source_titles(struct output *o, struct device_steps *devs, size_t ndev)
{
	static const struct {
		const char	*source;
		const char	*text;
	} sources[] = {
		{ "device", "the devices' \"Steps\" lines" },
		{ "host", "host StepTraceAnnotation events" },
		{ "module", "executions of the module run most often, as the "
		    "profile has no step markers" },
	};
	size_t i, j, k;

	for (k = 0; k < sizeof sources / sizeof sources[0]; k++) {
		char *names = NULL, *line;

		for (i = 0; i < ndev; i++) {
			const char *name;

			if (devs[i].n == 0 || strcmp(devs[i].rows[0].source,
			    sources[k].source) != 0)
				continue;
			name = devs[i].rows[0].name;
			for (j = 0; j < i; j++)
				if (devs[j].n > 0 && strcmp(devs[j].rows[0].name,
				    name) == 0 && strcmp(devs[j].rows[0].source,
				    sources[k].source) == 0)
					break;
			if (j < i)
				continue;	/* named already */
			line = names == NULL ? xstrdup(name) :
			    xasprintf("%s, %s", names, name);
			free(names);
			names = line;
		}
		if (names == NULL)
			continue;
		if (k == 0)
			line = xasprintf("Steps from %s.", sources[k].text);
		else
			line = xasprintf("Steps from %s (%s).", sources[k].text,
			    names);
		output_title(o, line);
		free(line);
		free(names);
	}
}

/* "10%" or "10": a percentage from 0 to 1000, as a fraction. */
static double
parse_margin(const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno != 0 || end == s || !(d >= 0 && d <= 1000) ||
	    (*end != '\0' && strcmp(end, "%") != 0))
		jp_errx(EXIT_TROUBLE, "invalid --outlier-margin '%s' "
		    "(expected a percentage such as 10%%)", s);
	return d / 100;
}

static int
steps_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "outlier-margin", required_argument, NULL, 'm' },
		{ "skew", no_argument, NULL, 'k' },
		{ "skip", required_argument, NULL, 's' },
		{ "summary", no_argument, NULL, 'S' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct device_steps *devs;
	struct step_row *rows;
	struct strmap texts;
	struct report r;
	struct output *o;
	const char *host;
	size_t ndev, skip = 0, i, n = 0, nhosts;
	int ch, view = 0, status = EXIT_OK;

	report_init(&r, "steps");
	r.one_run = 1;
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			cmd_print_help(&cmd_steps, stdout);
			return EXIT_OK;
		case 'k':
		case 'S':
			if (view != 0 && view != ch)
				jp_errx(EXIT_TROUBLE, "--summary and --skew "
				    "cannot be combined");
			view = ch;
			break;
		case 'm':
			outlier_margin = parse_margin(optarg);
			break;
		case 's':
			skip = (size_t)parse_long_option("steps", "skip",
			    optarg, 0, 1000000000L);
			break;
		default:
			cmd_usage_error(&cmd_steps);
		}
	}
	report_open(&r, argc - optind, argv + optind);
	strmap_init(&texts);
	devs = step_times_load(&r, skip, &texts, &ndev, &rows);
	for (i = 0; i < ndev; i++)
		n += devs[i].n;
	if (n == 0)
		jp_warnx("no steps in the selection");
	if (view == 'S') {
		size_t skip_path = r.npaths > 1 ? 0 : 1;

		o = output_new(r.format, stdout, summary_cols + skip_path,
		    sizeof summary_cols / sizeof summary_cols[0] - skip_path);
		add_source_titles(o, devs, ndev);
		report_notes(&r, o);
		print_summary(&r, o, devs, ndev, skip);
	} else if (view == 'k') {
		o = output_new(r.format, stdout, skew_cols,
		    sizeof skew_cols / sizeof skew_cols[0]);
		output_title(o, "Step time skew across hosts (a host's step "
		    "time: its slowest device's).");
		if (print_skew(o, devs, ndev, &host, &nhosts) > 0 ||
		    host == NULL)
			;	/* rows, or "no steps" said above */
		else if (nhosts == 1)
			jp_warnx("--skew compares the hosts of each step; the "
			    "selection has one host ('%s'): nothing to compare",
			    host);
		else
			jp_warnx("--skew compares the hosts of each step; no "
			    "step of the selection ran on two hosts or more");
	} else {
		o = output_new(r.format, stdout, step_cols,
		    sizeof step_cols / sizeof step_cols[0]);
		add_source_titles(o, devs, ndev);
		report_notes(&r, o);
		fill_steps(o, devs, ndev);
	}
	free(devs);
	free(rows);
	strmap_release(&texts);
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
