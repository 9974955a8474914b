/*
 * The steps report, from step_times_load(): each device's steps with
 * their breakdown (STEPS_EACH), per device their statistics and outliers
 * (STEPS_SUMMARY), or per step its spread across hosts (STEPS_SKEW).
 */
#ifndef JAXPROF_REPORT_STEPS_REPORT_H
#define JAXPROF_REPORT_STEPS_REPORT_H

#include <stddef.h>

struct report;

enum steps_view { STEPS_EACH, STEPS_SUMMARY, STEPS_SKEW };

struct steps_options {
	enum steps_view	 view;
	size_t		 skip;		/* each device's first steps left out */
	double		 outlier_margin;	/* a fraction of the median */
};

/* Writes the report of the opened r on stdout; the exit status. */
int	steps_report(struct report *r, const struct steps_options *opt);

#endif
