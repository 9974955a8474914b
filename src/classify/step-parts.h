/*
 * A plane's collectives and host annotations by step: the rows of the
 * index's step_collectives and step_annotations tables, which jaxprof-hosts(1)
 * joins across the hosts of a run.
 *
 *	struct step_collective *c;
 *	size_t n = step_collectives_of(p, &c);   ... free(c);
 */
#ifndef JAXPROF_STEP_PARTS_H
#define JAXPROF_STEP_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/file-summary.h"

/*
 * An execution of a collective op in a step: the occurrence-th (from 0)
 * of the step's executions of that op, in order of start.
 */
struct step_collective {
	int64_t		step;
	uint32_t	name;
	int64_t		occurrence;
	int64_t		start_ps, dur_ps;
};

/* A host annotation's executions in a step, summed. */
struct step_annotation {
	int64_t		step;
	uint32_t	name;
	int64_t		count;
	int64_t		dur_ps;
};

/*
 * p's collectives that start in one of its steps, in order of start;
 * *out is the caller's to free.
 */
size_t	step_collectives_of(const struct plane_summary *p,
	    struct step_collective **out);
/*
 * p's annotations that start in one of steps (p's own, or those of a
 * plane of the same file when a host plane has none), summed per step
 * and name; *out is the caller's to free.
 */
size_t	step_annotations_of(const struct plane_summary *p,
	    const struct step_rec *steps, size_t nsteps,
	    struct step_annotation **out);

#endif
