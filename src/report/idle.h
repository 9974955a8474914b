/*
 * The idle report: device idle gaps of at least min_gap ps, the longest
 * limit of them (0: all), with what the host was running meanwhile.
 */
#ifndef JAXPROF_REPORT_IDLE_H
#define JAXPROF_REPORT_IDLE_H

#include <stdint.h>

struct report;

/* Writes the report of the opened r on stdout; the exit status. */
int	idle_report(struct report *r, int64_t min_gap, long limit);

#endif
