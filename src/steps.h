/*
 * Steps: where step boundaries come from (a first pass over a trace JSON,
 * gathered along the one pass over an XSpace) and
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
 * The one pass (step_windows_gather): a Steps line of device plane
 * number `plane` begins; an event of a host plane, or of that line.
 */
void	step_windows_steps_line(struct step_windows *w, size_t plane,
	    const char *name);
void	step_windows_event(struct step_windows *w, size_t plane,
	    const struct pf_event *ev);
/*
 * Plane number `plane` has been read: if its windows are known (as
 * step_windows_for() will give them), sets *ready and returns them as it
 * does; else clears *ready.
 */
size_t	step_windows_plane_end(struct step_windows *w, size_t plane,
	    const struct window **out, enum step_source *src, int *ready);
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
