/*
 * The hosts of each run compared: step times and parts, waits in
 * collectives, who arrived last, and the stragglers, by the rule of
 * jaxprof-hosts(1), from the index's steps, step_collectives and
 * step_annotations.
 *
 *	struct hosts h;
 *	hosts_load(&h, &r);
 *	... h.rows[i] ...
 *	hosts_release(&h);
 */
#ifndef JAXPROF_HOSTS_H
#define JAXPROF_HOSTS_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

/* The rule's thresholds (jaxprof-hosts(1), THE RULE). */
#define STRAGGLER_LAST_SHARE	0.6	/* of the joined steps */
#define STRAGGLER_LATE_MIN_PS	1000000000LL	/* 1 ms */
#define STRAGGLER_LATE_SHARE	0.1	/* of the run's median step */

struct host_row {
	char		*run, *host;
	int64_t		 steps;
	/* Per step, means over the host's steps. */
	double		 median_step_ps, p90_step_ps;
	double		 compute_ps, collective_ps, wait_ps, transfer_ps;
	double		 idle_ps;
	char		*idle_in;	/* its top annotation, or "" */
	double		 idle_in_ps;	/* that annotation's time per step */
	int64_t		 last_steps, joined_steps;
	double		 lateness_ps;	/* median, when last; 0 if never */
	double		 run_median_step_ps;	/* over all its hosts */
	int		 straggler;
	char		*evidence;	/* for a straggler, else "" */
};

struct hosts {
	struct host_row	*rows;		/* by run, then host */
	size_t		 nrows;
};

void	hosts_load(struct hosts *h, struct report *r);
void	hosts_release(struct hosts *h);

#endif
