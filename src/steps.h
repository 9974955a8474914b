/*
 * Steps: where step boundaries come from (the first pass over a file) and
 * how each step's time on a device splits into busy classes and idle.
 * Private to the classifier (classify.c), which owns the public types.
 */
#ifndef JAXPROF_STEPS_H
#define JAXPROF_STEPS_H

#include "classify.h"
#include "timeline.h"

/* One step boundary; the name is owned by struct step_windows. */
struct window {
	int64_t		 step;
	const char	*name;
	int64_t		 start_ps, dur_ps;
};

/*
 * The windows that apply to the plane called `plane`: its own "Steps"
 * line, else the host's StepTraceAnnotation events.  Returns how many
 * (0: none) and sets *src; *out is borrowed from w.
 */
size_t	step_windows_for(const struct step_windows *w, const char *plane,
	    const struct window **out, enum step_source *src);

/*
 * Windows from module executions: each execution of the module run most
 * often (ties: the longest in total), from its start to the next one's.
 * Returns a new array (caller frees) with names pointing into strings.
 */
struct window *module_windows(const struct exec_rec *execs, size_t nexecs,
	    char *const *strings, size_t *nout);

/*
 * Adds to p one step_rec per window, with the time each busy class (busy,
 * normalized) covers in it and the idle rest; names are interned in
 * names.  Adds p's idle gaps of at least GAP_FLOOR_PS between its first
 * and last busy instant.
 */
void	steps_measure(struct plane_summary *p, struct strmap *names,
	    const struct window *win, size_t nwin, enum step_source src,
	    struct ivals busy[NBUSY]);

#endif
