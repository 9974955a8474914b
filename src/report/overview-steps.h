/*
 * The summary's step series (struct ov_series), read through
 * step_times_load(), the one loader of step rows.
 */
#ifndef JAXPROF_REPORT_OVERVIEW_STEPS_H
#define JAXPROF_REPORT_OVERVIEW_STEPS_H

#include "report/overview.h"
#include "report/report.h"

/* Appends the selected devices' steps to ov->series, ov->step_source. */
void	overview_steps_load(struct overview *ov, struct report *r);

#endif
