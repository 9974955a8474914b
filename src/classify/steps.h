/*
 * Steps: where step boundaries come from (a first pass over a trace JSON,
 * gathered along the one pass over an XSpace) and
 * how each step's time on a device splits into busy classes and idle.
 * Private to the classifier (classify.c), which owns the public types.
 */
#ifndef JAXPROF_STEPS_H
#define JAXPROF_STEPS_H

#include "model/file-summary.h"
#include "lib/timeline.h"

/*
 * Steps in two passes over a stream: the first, cheap one
 * (steps_prepass_new) finds the step boundaries: device "Steps" lines and
 * host StepTraceAnnotation events, which may come after the device planes
 * they apply to.  The second (classify_new) does the rest, with them.
 * (load.c reads files in one pass; it runs this one for the error such a
 * read would have stopped at first.)
 */
struct step_windows;

struct step_windows *steps_prepass_new(struct pf_handler *h);
/* Orders the windows; after this they are only read (from any thread). */
void		 step_windows_sort(struct step_windows *w);
void		 step_windows_free(struct step_windows *w);
/*
 * A file's planes (an XSpace's, a trace JSON's), read in one pass and in
 * parallel, gather the windows as they go (classify_gather_steps),
 * names[i] being plane i's name.  A plane whose windows are not known when it ends (those of host
 * planes still being read) keeps its busy time for classify_steps_later().
 * step_windows_gathered() completes them once every plane is read.
 */
struct step_windows *step_windows_gather(char *const *names, size_t nplanes);
void		 step_windows_gathered(struct step_windows *w);
/* Forgets what plane number `plane` gathered into w: it is read again. */
void		 step_windows_plane_reset(struct step_windows *w,
		    size_t plane);

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
 * Before plane number `plane` has ended: the windows it will have at its
 * end (as step_windows_plane_end() will give them), if they are known
 * already: those of its Steps lines so far, else, where steps_to_come
 * says no Steps line of it is still to be read, the host's once complete.
 * Returns how many, or 0: not known yet (or none).
 */
size_t	step_windows_known(struct step_windows *w, size_t plane,
	    int steps_to_come, const struct window **out,
	    enum step_source *src);
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

/*
 * The same, as the busy intervals come instead of stored: a meter for
 * plane p and windows win (borrowed until busy_meter_finish()).
 * busy_meter_add() takes intervals in any order as long as none begins
 * before a stretch of busy time already closed (a later one began after
 * its end): in order of start, or nested, or overlapping the newest; it
 * returns 0, or -1 (and takes nothing) for one that comes too late.
 * busy_meter_finish() adds p's steps and gaps as steps_measure() would
 * have for the same intervals, and frees the meter.
 */
struct busy_meter;

struct busy_meter *busy_meter_new(struct plane_summary *p,
	    const struct window *win, size_t nwin);
int	busy_meter_add(struct busy_meter *m, enum busy_class k, int64_t start,
	    int64_t end);
void	busy_meter_finish(struct busy_meter *m, struct strmap *names,
	    enum step_source src);
void	busy_meter_free(struct busy_meter *m);

#endif
