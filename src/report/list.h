/*
 * The list report: one row per profile file selected (run, host, kind,
 * size, planes, events, devices, span, start), a warning for each file
 * damaged or cut short.
 */
#ifndef JAXPROF_REPORT_LIST_H
#define JAXPROF_REPORT_LIST_H

struct report;

/* Writes the rows of the opened r on stdout; the exit status. */
int	list_report(struct report *r);

#endif
