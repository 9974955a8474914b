/*
 * The transfers report: copies between host and devices, memsets and the
 * host calls that move data; totals per direction and kind, or with
 * events one row per copy.
 */
#ifndef JAXPROF_REPORT_TRANSFERS_H
#define JAXPROF_REPORT_TRANSFERS_H

struct report;

/* Writes the report of the opened r on stdout; the exit status. */
int	transfers_report(struct report *r, int events);

#endif
