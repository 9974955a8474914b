/*
 * The step times of the selected devices, read from the index and put in
 * order, and the statistics steps reports mark them with (step-times.c).
 * step_times_load() is the one reader of the steps table's rows: steps,
 * the summaries of diff and check (summary.c), hosts and the summary
 * command (overview-steps.c) take their steps from it, each in its own
 * order; only lookups of the step a time falls in query the table too.
 *
 *	struct step_row *rows;
 *	struct device_steps *devs = step_times_load(r, skip, &texts, &n, &rows);
 *	... devs[i].rows[0 .. devs[i].n - 1] ...
 *	free(devs); free(rows);
 */
#ifndef JAXPROF_STEP_TIMES_H
#define JAXPROF_STEP_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"
#include "lib/strmap.h"
#include "report/report.h"

struct step_row {
	/* Interned: a report's thousands of rows share a few strings. */
	const char	*run, *host, *device, *name, *source;
	int64_t		 file_id, plane_id;
	int64_t		 step, start_ps, dur_ps;
	int64_t		 busy_ps[3];	/* compute, collective, transfer */
	int64_t		 idle_ps;
	int		 outlier;
	/* Order: the device's rank, then start and step (NULL first). */
	size_t		 rank;
	int64_t		 start_key, step_key;
};

/* The steps of one device of one file, in start order. */
struct device_steps {
	struct step_row	*rows;		/* in step_times_load()'s one array */
	size_t		 n;
};

/*
 * Loads the selected steps, grouped per (file, device) in start order,
 * all in one array (*all_rows, the caller frees it and the devices),
 * each device's first skip steps left out; their strings are in texts.
 */
struct device_steps *step_times_load(struct report *r, size_t skip,
	    struct strmap *texts, size_t *ndev, struct step_row **all_rows);
/*
 * Marks d's steps slower than median + 3 * MAD of durations and than the
 * median * (1 + margin); returns how many.
 */
size_t	step_times_mark_outliers(struct device_steps *d,
	    const struct sample *durations, double margin);
/*
 * The compile time inside step, of compiles on any thread of its file
 * (overlapping ones each counted).
 */
int64_t	step_times_compile_ps(struct report *r, const struct step_row *step);

#endif
