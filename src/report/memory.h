/*
 * The memory report: an allocator's peak, the allocations live there, its
 * bytes in use over time (the memory tables); a program's peak from its
 * buffer assignment and the buffers live there.
 *
 *	struct memory_options opt = { MEMORY_ALLOCATOR, NULL, 20,
 *	    MEMORY_POINTS };
 *	status = memory_report(&report, &opt);
 */
#ifndef JAXPROF_REPORT_MEMORY_H
#define JAXPROF_REPORT_MEMORY_H

#include <stddef.h>

struct report;

/* --group: what a row is. */
enum memory_group {
	MEMORY_ALLOCATOR, MEMORY_ALLOCATION, MEMORY_TIMELINE, MEMORY_PROGRAM,
	MEMORY_BUFFER,
};

struct memory_options {
	enum memory_group group;
	const char	*program;	/* --program, with MEMORY_BUFFER */
	long		 limit;		/* rows per allocator or program; 0: all */
	size_t		 points;	/* the timeline's per allocator */
};

/* The group named s, or -1. */
int	memory_group_parse(const char *s);

/*
 * Writes the report of the opened r on stdout; its exit status (2 when
 * the memory read was damaged, or stdout failed).
 */
int	memory_report(struct report *r, const struct memory_options *opt);

#endif
