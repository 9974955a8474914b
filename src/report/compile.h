/*
 * The compile report: compile time versus execution time per jitted
 * function, with its recompilations; with phases, what ran inside the
 * compiles, per function.
 */
#ifndef JAXPROF_REPORT_COMPILE_H
#define JAXPROF_REPORT_COMPILE_H

struct report;

/* Writes the report of the opened r on stdout; the exit status. */
int	compile_report(struct report *r, int phases);

#endif
