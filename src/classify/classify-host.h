/*
 * Host events: compiles, copies, scopes and long events, on their lines'
 * stacks (classify-host.c).
 */
#ifndef JAXPROF_CLASSIFY_HOST_H
#define JAXPROF_CLASSIFY_HOST_H

#include "classify/classify-event.h"


/*
 * What a host event's metadata makes it, found once per metadata
 * (host_name_kind()): HOST_NAME_COMPILE, or HOST_NAME_TRANSFER + its
 * host_transfer_names index, or HOST_NAME_OTHER; with HOST_NAME_TF_OP
 * set where the name is a TensorFlow op's, "name:Type", and
 * HOST_NAME_FRAME where it is a Python tracer's frame ("$...") of no
 * stat of a known key.
 */
enum {
	HOST_NAME_UNKNOWN,	/* not looked at yet */
	HOST_NAME_OTHER,
	HOST_NAME_COMPILE,
	HOST_NAME_TRANSFER,
	HOST_NAME_FRAME = 0x40,
	HOST_NAME_TF_OP = 0x80,
};

/*
 * Whether ev is a Python frame with no stats: most of a JAX profile's
 * host events (2.2 of 2.5 million in one with three compiles), which
 * only nest (host_frame()), so that their stats need no look.
 */
static inline int
host_is_frame(const struct classify *c, const struct pf_event *ev)
{
	return ev->nstats == 0 &&
	    (c->meta_host[ev->meta_index] & HOST_NAME_FRAME) != 0;
}

void		host_event(struct classify *c, const struct pf_event *ev,
		    int64_t start, int64_t dur);
/*
 * What a host event may be beside a place on its line's stack: a phase of
 * the compile it is directly in, and a long event kept.
 */
void		note_event(struct classify *c, const struct pf_event *ev,
		    int64_t start, int64_t dur);

/*
 * Host events nest on their line's stack.  The functions a frame takes
 * are inline here, so that cb_event() calls none for most events.
 */
static inline void
close_event(struct classify *c, const struct open_event *o)
{
	/* Children that overlap each other can add up past the parent. */
	if (o->scope != NO_SCOPE && o->child_ps < o->dur_ps)
		c->scopes.aggs[o->scope].self_ps = ps_add(
		    c->scopes.aggs[o->scope].self_ps, o->dur_ps - o->child_ps);
}

/* Closes the open events that do not contain [start, end]. */
static inline void
close_events_before(struct classify *c, int64_t end)
{
	while (c->nev_stack > 0 &&
	    end > c->ev_stack[c->nev_stack - 1].end_ps)
		close_event(c, &c->ev_stack[--c->nev_stack]);
}

/*
 * What every host event does: note_event(), where it is more than a
 * place on the stack, and the place, as the innermost open event of its
 * line.  name: the event's, or NULL for a frame (never a PjitFunction).
 */
static inline void
nest_event(struct classify *c, const struct pf_event *ev, const char *name,
    int64_t start, int64_t dur, size_t compile, uint32_t scope)
{
	struct open_event *o;

	if (dur >= HOST_EVENT_FLOOR_PS || (c->nev_stack > 0 &&
	    c->ev_stack[c->nev_stack - 1].compile != NONE))
		note_event(c, ev, start, dur);
	if (c->nev_stack == c->ev_stack_cap) {
		c->ev_stack_cap = c->ev_stack_cap == 0 ? 16 :
		    c->ev_stack_cap * 2;
		c->ev_stack = xreallocarray(c->ev_stack, c->ev_stack_cap,
		    sizeof *c->ev_stack);
	}
	o = &c->ev_stack[c->nev_stack++];
	o->scope = scope;
	o->end_ps = start + dur;
	o->dur_ps = dur;
	o->name = name;
	o->compile = compile;
	o->child_ps = 0;
}

/* host_event() for a frame (host_is_frame()): no op, compile or scope. */
static inline void
host_frame(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	close_events_before(c, start + dur);
	nest_event(c, ev, NULL, start, dur, NONE, NO_SCOPE);
}
void		host_line_end(struct classify *c);
void		host_plane_end(struct classify *c);

#endif
