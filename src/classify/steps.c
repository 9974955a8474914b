/* Step boundaries (first pass) and the per-step busy/idle breakdown. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ptime.h"
#include "classify/steps.h"
#include "lib/xmalloc.h"

struct window_list {
	char		*plane;		/* NULL: the host's */
	struct window	*v;
	size_t		 n;
	int		 sorted;	/* complete, and sorted once */
};

/* What the windows' lists are made of: a whole file's, or one plane's. */
struct window_lists {
	struct window_list host;
	/*
	 * Host events with a step_num but no _r: trace JSON drops _r (an
	 * internal stat), so these are the steps when no root is found.
	 */
	struct window_list host_unrooted;
	struct window_list *device;	/* one per Steps line, in file order */
	size_t		 ndevice;
	struct window_list *cur;	/* the Steps line being read */
};

/*
 * One plane's windows while an XSpace's planes are read in parallel, in
 * one pass: its host steps wait for every host plane's, its Steps lines
 * are its own.
 */
struct plane_windows {
	struct window_lists l;
	int		 host;		/* a host plane */
	int		 name_shared;	/* another plane has its name */
};

struct step_windows {
	struct window_lists l;
	int		 cur_host;	/* reading a host plane (first pass) */
	/* Gathered in the one pass (step_windows_gather). */
	struct plane_windows *planes;
	size_t		 nplanes;
	size_t		 hosts_left;	/* host planes not yet ended */
	int		 host_final;	/* l.host is complete and sorted */
	pthread_mutex_t	 mu;
};

static void
push_window(struct window_list *l, int64_t step, const char *name,
    int64_t start, int64_t dur)
{
	struct window *w;

	l->v = xgrow1(l->v, l->n, sizeof *l->v);
	w = &l->v[l->n++];
	w->step = step;
	w->name = xstrdup(name);
	w->start_ps = start;
	w->dur_ps = dur;
}

/* A new Steps line of a device plane: its windows are a list of their own. */
static void
begin_steps_line(struct window_lists *l, const char *plane)
{
	l->device = xgrow1(l->device, l->ndevice, sizeof *l->device);
	l->cur = &l->device[l->ndevice++];
	memset(l->cur, 0, sizeof *l->cur);
	l->cur->plane = xstrdup(plane);
}

static int
pre_plane_begin(void *ctx, const struct pf_plane *plane)
{
	struct step_windows *w = ctx;

	w->l.cur = NULL;
	w->cur_host = strncmp(plane->name, "/host:", 6) == 0 &&
	    strcmp(plane->name, "/host:metadata") != 0;
	if (w->cur_host || strncmp(plane->name, "/device:", 8) == 0)
		return 0;
	return PF_SKIP;
}

static int
pre_line_begin(void *ctx, const struct pf_plane *plane,
    const struct pf_line *line)
{
	struct step_windows *w = ctx;

	if (w->cur_host)
		return 0;
	if (strcmp(line->name, "Steps") != 0)
		return PF_SKIP;
	begin_steps_line(&w->l, plane->name);
	return 0;
}

/* The span, honouring device_offset_ps/device_duration_ps (FORMATS 2.4). */
static void
span_of(const struct pf_event *ev, int64_t *start, int64_t *dur)
{
	int64_t off, d;

	/* Out of range (jaxprof(1), IMPOSSIBLE TIMES): ignored. */
	if (pf_stat_int(pf_event_stat(ev, PF_KEY_DEVICE_OFFSET_PS), &off) &&
	    pf_stat_int(pf_event_stat(ev, PF_KEY_DEVICE_DURATION_PS), &d) &&
	    ps_valid(off) && ps_valid(d)) {
		*start = off;
		*dur = d;
	} else {
		*start = ev->start_ps;
		*dur = ev->duration_ps;
	}
}

/* An event of a host plane (host) or of a device's Steps line into l. */
static void
add_event(struct window_lists *l, int host, const struct pf_event *ev)
{
	const char *name = pf_event_name(ev);
	int64_t step, start, dur;
	char *end;

	span_of(ev, &start, &dur);
	if (host) {
		/* StepTraceAnnotation: TraceMe "name#_r=1,step_num=N#". */
		if (!pf_stat_int(pf_event_stat(ev, PF_KEY_STEP_NUM), &step))
			return;
		push_window(pf_event_stat(ev, PF_KEY_IS_ROOT) != NULL ?
		    &l->host : &l->host_unrooted, step, name, start, dur);
		return;
	}
	if (!pf_stat_int(pf_event_stat(ev, PF_KEY_STEP_NUM), &step) &&
	    !pf_stat_int(pf_event_stat(ev, PF_KEY_GROUP_ID), &step)) {
		step = strtoll(name, &end, 10);
		if (end == name)
			step = (int64_t)l->cur->n;
	}
	push_window(l->cur, step, name, start, dur);
}

static int
pre_event(void *ctx, const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_event *ev)
{
	struct step_windows *w = ctx;

	(void)plane;
	(void)line;
	add_event(&w->l, w->cur_host, ev);
	return 0;
}

static int
cmp_window(const void *a, const void *b)
{
	const struct window *x = a, *y = b;

	if (x->start_ps != y->start_ps)
		return x->start_ps < y->start_ps ? -1 : 1;
	return (x->step > y->step) - (x->step < y->step);
}

struct step_windows *
steps_prepass_new(struct pf_handler *h)
{
	struct step_windows *w = xcalloc(1, sizeof *w);

	memset(h, 0, sizeof *h);
	h->ctx = w;
	h->plane_begin = pre_plane_begin;
	h->line_begin = pre_line_begin;
	h->event = pre_event;
	return w;
}

static void
list_release(struct window_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free((char *)l->v[i].name);
	free(l->v);
	free(l->plane);
}

static void
lists_release(struct window_lists *l)
{
	size_t i;

	list_release(&l->host);
	list_release(&l->host_unrooted);
	for (i = 0; i < l->ndevice; i++)
		list_release(&l->device[i]);
	free(l->device);
}

void
step_windows_free(struct step_windows *w)
{
	size_t i;

	if (w == NULL)
		return;
	lists_release(&w->l);
	if (w->planes != NULL) {
		for (i = 0; i < w->nplanes; i++)
			lists_release(&w->planes[i].l);
		free(w->planes);
		pthread_mutex_destroy(&w->mu);
	}
	free(w);
}

static void
sort_list(struct window_list *l)
{
	/* Once only: qsort need not keep the order of equal windows. */
	if (l->n > 0 && !l->sorted)
		qsort(l->v, l->n, sizeof *l->v, cmp_window);
	l->sorted = 1;
}

/* The host's windows: the rooted ones, else the others. */
static void
sort_host(struct window_lists *l)
{
	struct window_list swap;

	if (l->host.n == 0 && l->host_unrooted.n > 0) {
		swap = l->host;
		l->host = l->host_unrooted;
		l->host_unrooted = swap;
	}
	sort_list(&l->host);
}

void
step_windows_sort(struct step_windows *w)
{
	size_t i;

	sort_host(&w->l);
	for (i = 0; i < w->l.ndevice; i++)
		sort_list(&w->l.device[i]);
}

size_t
step_windows_for(const struct step_windows *w, const char *plane,
    const struct window **out, enum step_source *src)
{
	size_t i;

	for (i = 0; i < w->l.ndevice; i++)
		if (strcmp(w->l.device[i].plane, plane) == 0 &&
		    w->l.device[i].n > 0) {
			*out = w->l.device[i].v;
			*src = STEP_DEVICE;
			return w->l.device[i].n;
		}
	*out = w->l.host.v;
	*src = STEP_HOST;
	return w->l.host.n;
}

/* ---- Gathered in the one pass over an XSpace ---- */

static int
is_host_plane(const char *name)
{
	return strncmp(name, "/host:", 6) == 0 &&
	    strcmp(name, "/host:metadata") != 0;
}

struct named_plane {
	const char	*name;
	size_t		 i;
};

static int
cmp_named_plane(const void *a, const void *b)
{
	const struct named_plane *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Marks every plane whose name another plane has: sorted, O(n log n). */
static void
mark_shared_names(struct plane_windows *planes, char *const *names,
    size_t nplanes)
{
	struct named_plane *v = xreallocarray(NULL, nplanes + 1, sizeof *v);
	size_t i;

	for (i = 0; i < nplanes; i++) {
		v[i].name = names[i];
		v[i].i = i;
	}
	qsort(v, nplanes, sizeof *v, cmp_named_plane);
	for (i = 1; i < nplanes; i++)
		if (strcmp(v[i - 1].name, v[i].name) == 0) {
			planes[v[i - 1].i].name_shared = 1;
			planes[v[i].i].name_shared = 1;
		}
	free(v);
}

struct step_windows *
step_windows_gather(char *const *names, size_t nplanes)
{
	struct step_windows *w = xcalloc(1, sizeof *w);
	size_t i;

	w->planes = xcalloc(nplanes + 1, sizeof *w->planes);
	w->nplanes = nplanes;
	pthread_mutex_init(&w->mu, NULL);
	for (i = 0; i < nplanes; i++) {
		w->planes[i].host = is_host_plane(names[i]);
		w->hosts_left += w->planes[i].host;
	}
	mark_shared_names(w->planes, names, nplanes);
	if (w->hosts_left == 0) {
		sort_host(&w->l);
		w->host_final = 1;
	}
	return w;
}

void
step_windows_steps_line(struct step_windows *w, size_t plane,
    const char *name)
{
	begin_steps_line(&w->planes[plane].l, name);
}

void
step_windows_event(struct step_windows *w, size_t plane,
    const struct pf_event *ev)
{
	struct plane_windows *pw = &w->planes[plane];

	add_event(&pw->l, pw->host, ev);
}

/* Appends src's windows to dst's, taking their names. */
static void
list_take(struct window_list *dst, struct window_list *src)
{
	size_t cap = 1;

	if (src->n == 0)
		return;
	/* The room xgrow1() keeps, so that push_window() may go on. */
	while (cap < dst->n + src->n)
		cap *= 2;
	dst->v = xreallocarray(dst->v, cap, sizeof *dst->v);
	memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
	dst->n += src->n;
	src->n = 0;
}

/* With every host plane read: the host's windows, in plane order. */
static void
join_hosts(struct step_windows *w)
{
	size_t i;

	for (i = 0; i < w->nplanes; i++) {
		list_take(&w->l.host, &w->planes[i].l.host);
		list_take(&w->l.host_unrooted, &w->planes[i].l.host_unrooted);
	}
	sort_host(&w->l);
	w->host_final = 1;
}

size_t
step_windows_plane_end(struct step_windows *w, size_t plane,
    const struct window **out, enum step_source *src, int *ready)
{
	struct plane_windows *pw = &w->planes[plane];
	size_t i;
	int host_final;

	for (i = 0; i < pw->l.ndevice; i++)
		sort_list(&pw->l.device[i]);
	pthread_mutex_lock(&w->mu);
	if (pw->host && --w->hosts_left == 0)
		join_hosts(w);
	host_final = w->host_final;
	pthread_mutex_unlock(&w->mu);
	/* As step_windows_for() will say once all planes are in. */
	*ready = 0;
	if (pw->name_shared)
		return 0;
	for (i = 0; i < pw->l.ndevice; i++)
		if (pw->l.device[i].n > 0) {
			*ready = 1;
			*out = pw->l.device[i].v;
			*src = STEP_DEVICE;
			return pw->l.device[i].n;
		}
	if (!host_final)
		return 0;
	*ready = 1;
	*out = w->l.host.v;
	*src = STEP_HOST;
	return w->l.host.n;
}

size_t
step_windows_known(struct step_windows *w, size_t plane, int steps_to_come,
    const struct window **out, enum step_source *src)
{
	struct plane_windows *pw = &w->planes[plane];
	size_t i, n = 0;

	if (pw->name_shared)
		return 0;
	/* Its Steps lines so far are complete: the first with windows. */
	for (i = 0; i < pw->l.ndevice; i++)
		if (pw->l.device[i].n > 0) {
			sort_list(&pw->l.device[i]);
			*out = pw->l.device[i].v;
			*src = STEP_DEVICE;
			return pw->l.device[i].n;
		}
	if (steps_to_come)
		return 0;
	pthread_mutex_lock(&w->mu);
	if (w->host_final && w->l.host.n > 0) {
		*out = w->l.host.v;
		*src = STEP_HOST;
		n = w->l.host.n;
	}
	pthread_mutex_unlock(&w->mu);
	return n;
}

void
step_windows_plane_reset(struct step_windows *w, size_t plane)
{
	struct window_lists *l = &w->planes[plane].l;

	lists_release(l);
	memset(l, 0, sizeof *l);
}

void
step_windows_gathered(struct step_windows *w)
{
	size_t i, j;

	for (i = 0; i < w->nplanes; i++) {
		struct window_lists *l = &w->planes[i].l;

		for (j = 0; j < l->ndevice; j++) {
			w->l.device = xgrow1(w->l.device, w->l.ndevice,
			    sizeof *w->l.device);
			w->l.device[w->l.ndevice++] = l->device[j];
		}
		l->ndevice = 0;
	}
}

struct window *
module_windows(const struct exec_rec *execs, size_t nexecs,
    char *const *strings, size_t *nout)
{
	struct window *v = NULL;
	struct {
		uint32_t	module;
		uint64_t	count;
		int64_t		total;
	} *mods = NULL;
	uint32_t best = UINT32_MAX;
	size_t i, j, n = 0, nmods = 0;

	/* The module run most often; modules are few, execs many. */
	for (i = 0; i < nexecs; i++) {
		for (j = 0; j < nmods; j++)
			if (mods[j].module == execs[i].module)
				break;
		if (j == nmods) {
			mods = xgrow1(mods, nmods, sizeof *mods);
			mods[nmods].module = execs[i].module;
			mods[nmods].count = 0;
			mods[nmods].total = 0;
			nmods++;
		}
		mods[j].count++;
		mods[j].total = ps_add(mods[j].total, execs[i].dur_ps);
	}
	for (j = 0; j < nmods; j++)
		if (best == UINT32_MAX || mods[j].count > mods[0].count ||
		    (mods[j].count == mods[0].count &&
		    mods[j].total > mods[0].total)) {
			best = mods[j].module;
			mods[0] = mods[j];
		}
	free(mods);
	for (i = 0; i < nexecs; i++) {
		struct window *w;

		if (execs[i].module != best)
			continue;
		/* By doubling: a realloc per window is quadratic in the runs. */
		v = xgrow1(v, n, sizeof *v);
		w = &v[n];
		w->step = (int64_t)n;
		w->name = strings[best];
		w->start_ps = execs[i].start_ps;
		w->dur_ps = execs[i].dur_ps;
		if (n > 0 && v[n - 1].start_ps + v[n - 1].dur_ps < w->start_ps)
			v[n - 1].dur_ps = w->start_ps - v[n - 1].start_ps;
		n++;
	}
	*nout = n;
	return v;
}

/* add_to_windows() for an interval across a window boundary. */
static void
add_across_windows(const struct window *win, size_t nwin, size_t first,
    int64_t *sum, int64_t start, int64_t end)
{
	size_t i;

	for (i = first; i < nwin && win[i].start_ps < end; i++) {
		int64_t a = win[i].start_ps > start ? win[i].start_ps : start;
		int64_t b = win[i].start_ps + win[i].dur_ps;

		if (b > end)
			b = end;
		if (b > a)
			sum[i] = ps_add(sum[i], b - a);
	}
}

/*
 * Adds to sum[i] the overlap of [start, end) with each window i.  Calls
 * come in order of start; *first is the first window that may still be
 * open (the windows are sorted by start).
 */
static inline void
add_to_windows(const struct window *win, size_t nwin, size_t *first,
    int64_t *sum, int64_t start, int64_t end)
{
	size_t i;

	while (*first < nwin &&
	    win[*first].start_ps + win[*first].dur_ps <= start)
		(*first)++;
	/* Most lie inside one window, before the next begins. */
	i = *first;
	if (i < nwin && win[i].start_ps <= start &&
	    end <= win[i].start_ps + win[i].dur_ps &&
	    (i + 1 == nwin || win[i + 1].start_ps >= end)) {
		if (end > start)
			sum[i] = ps_add(sum[i], end - start);
		return;
	}
	add_across_windows(win, nwin, i, sum, start, end);
}

static void
add_gap(struct plane_summary *p, int64_t start, int64_t end)
{
	if (end - start < GAP_FLOOR_PS)
		return;
	p->gaps = xgrow1(p->gaps, p->ngaps, sizeof *p->gaps);
	p->gaps[p->ngaps].start_ps = start;
	p->gaps[p->ngaps].dur_ps = end - start;
	p->ngaps++;
}

/* A normalized set read in batches, one interval at a time. */
struct ival_stream {
	struct ivals_iter it;
	struct ival	 buf[64];
	size_t		 i, n;
};

static void
stream_init(struct ival_stream *s, const struct ivals *set)
{
	ivals_iter_init(set, &s->it);
	s->i = s->n = 0;
}

/*
 * The stream's next interval into *iv; when it has none, an empty
 * interval at INT64_MAX (after any real one: those end after they start).
 */
static inline void
stream_next(struct ival_stream *s, struct ival *iv)
{
	if (s->i == s->n) {
		s->n = ivals_read(&s->it, s->buf,
		    sizeof s->buf / sizeof s->buf[0]);
		s->i = 0;
		if (s->n == 0) {
			iv->start = iv->end = INT64_MAX;
			return;
		}
	}
	*iv = s->buf[s->i++];
}

/*
 * One union of busy intervals, built as they come: its runs (the union's
 * pieces, touching ones joined) close in order of start, each added to
 * the windows once.
 */
struct busy_run {
	struct ival	 open;
	int		 have;
	size_t		 first;		/* add_to_windows() */
	/*
	 * Window `first` from lo until hi, where it ends or the next one
	 * begins: a run inside it adds to it alone.
	 */
	int64_t		 lo, hi;
	int64_t		*sum;		/* per window */
};

struct busy_meter {
	const struct window *win;
	size_t		 nwin;
	/* Collective; collective and transfer; all classes. */
	struct busy_run	 coll, comm, all;
	int64_t		 prev_end;	/* of the last closed run of all */
	int		 any;
	struct plane_summary *p;	/* gets the idle gaps */
};

static void
set_run_window(const struct busy_meter *m, struct busy_run *r)
{
	const struct window *w;

	if (r->first >= m->nwin) {
		r->lo = INT64_MAX;
		r->hi = INT64_MIN;
		return;
	}
	w = &m->win[r->first];
	r->lo = w->start_ps;
	r->hi = w->start_ps + w->dur_ps;
	if (r->first + 1 < m->nwin && w[1].start_ps < r->hi)
		r->hi = w[1].start_ps;
}

/* run_to_windows() for a run outside r's window. */
static void
run_to_other_windows(const struct busy_meter *m, struct busy_run *r,
    int64_t start, int64_t end)
{
	add_to_windows(m->win, m->nwin, &r->first, r->sum, start, end);
	set_run_window(m, r);
}

/* Adds a closed run of r to the windows; runs close in order of start. */
static inline void
run_to_windows(const struct busy_meter *m, struct busy_run *r, int64_t start,
    int64_t end)
{
	/* As add_to_windows() would, with no window to look at. */
	if (start >= r->lo && end <= r->hi)
		r->sum[r->first] = ps_add(r->sum[r->first], end - start);
	else
		run_to_other_windows(m, r, start, end);
}

struct busy_meter *
busy_meter_new(struct plane_summary *p, const struct window *win,
    size_t nwin)
{
	struct busy_meter *m = xcalloc(1, sizeof *m);

	m->win = win;
	m->nwin = nwin;
	m->p = p;
	m->coll.sum = xcalloc(nwin + 1, sizeof *m->coll.sum);
	m->comm.sum = xcalloc(nwin + 1, sizeof *m->comm.sum);
	m->all.sum = xcalloc(nwin + 1, sizeof *m->all.sum);
	set_run_window(m, &m->coll);
	set_run_window(m, &m->comm);
	set_run_window(m, &m->all);
	return m;
}

/* Whether [start, ...) can join r without reopening a closed run. */
static inline int
run_takes(const struct busy_run *r, int64_t start)
{
	return !r->have || start >= r->open.start;
}

/* Adds [start, end) to r; returns 1 if that closed r's open run. */
static inline int
run_add(struct busy_meter *m, struct busy_run *r, int64_t start, int64_t end)
{
	int closed = r->have;

	if (r->have && start <= r->open.end) {
		if (end > r->open.end)
			r->open.end = end;
		return 0;
	}
	if (closed)
		run_to_windows(m, r, r->open.start, r->open.end);
	r->open.start = start;
	r->open.end = end;
	r->have = 1;
	return closed;
}

int
busy_meter_add(struct busy_meter *m, enum busy_class k, int64_t start,
    int64_t end)
{
	int64_t prev_start = m->all.open.start, prev_end = m->all.open.end;

	if (end <= start)
		return 0;	/* as ivals_add(): nothing */
	if (!run_takes(&m->all, start) ||
	    (k != BUSY_COMPUTE && !run_takes(&m->comm, start)) ||
	    (k == BUSY_COLLECTIVE && !run_takes(&m->coll, start)))
		return -1;
	if (k == BUSY_COLLECTIVE)
		(void)run_add(m, &m->coll, start, end);
	if (k != BUSY_COMPUTE)
		(void)run_add(m, &m->comm, start, end);
	if (run_add(m, &m->all, start, end)) {
		/* The idle time between the closed run and the one before. */
		if (m->any)
			add_gap(m->p, m->prev_end, prev_start);
		m->any = 1;
		m->prev_end = prev_end;
	}
	return 0;
}

void
busy_meter_finish(struct busy_meter *m, struct strmap *names,
    enum step_source src)
{
	struct plane_summary *p = m->p;
	const struct window *win = m->win;
	int64_t *both = m->comm.sum;
	size_t i, nwin = m->nwin;
	int k;

	if (m->coll.have)
		run_to_windows(m, &m->coll, m->coll.open.start,
		    m->coll.open.end);
	if (m->comm.have)
		run_to_windows(m, &m->comm, m->comm.open.start,
		    m->comm.open.end);
	if (m->all.have) {
		run_to_windows(m, &m->all, m->all.open.start,
		    m->all.open.end);
		if (m->any)
			add_gap(p, m->prev_end, m->all.open.start);
	}

	/*
	 * The classes share out the busy time, so that they and idle add up
	 * to the step: collective first (an all-reduce inside a while op
	 * stays a collective), then transfer time no collective covered,
	 * then compute for the rest.
	 */
	p->steps = xreallocarray(p->steps, p->nsteps + nwin + 1,
	    sizeof *p->steps);
	for (i = 0; i < nwin; i++) {
		const struct window *w = &win[i];
		struct step_rec *s = &p->steps[p->nsteps++];
		int64_t busy[NBUSY];

		busy[BUSY_COLLECTIVE] = m->coll.sum[i];
		busy[BUSY_TRANSFER] = both[i] - m->coll.sum[i];
		busy[BUSY_COMPUTE] = m->all.sum[i] - both[i];
		memset(s, 0, sizeof *s);
		s->source = src;
		s->step = w->step;
		s->name = strmap_intern(names, w->name, strlen(w->name));
		s->start_ps = w->start_ps;
		s->dur_ps = w->dur_ps;
		for (k = 0; k < NBUSY; k++)
			s->busy_ps[k] = busy[k];
		s->idle_ps = w->dur_ps - m->all.sum[i];
	}
	busy_meter_free(m);
}

void
busy_meter_free(struct busy_meter *m)
{
	if (m == NULL)
		return;
	free(m->coll.sum);
	free(m->comm.sum);
	free(m->all.sum);
	free(m);
}

void
steps_measure(struct plane_summary *p, struct strmap *names,
    const struct window *win, size_t nwin, enum step_source src,
    struct ivals busy[NBUSY])
{
	struct ival_stream *in = xcalloc(NBUSY, sizeof *in);
	struct busy_meter *m = busy_meter_new(p, win, nwin);
	struct ival head[NBUSY];
	int k;

	for (k = 0; k < NBUSY; k++) {
		ivals_normalize(&busy[k]);
		stream_init(&in[k], &busy[k]);
		stream_next(&in[k], &head[k]);
	}
	/* The sorted classes merged on the fly: the meter takes them all. */
	for (;;) {
		int pick = 0;

		/* The earliest head; the first class of those that tie. */
		for (k = 1; k < NBUSY; k++)
			if (head[k].start < head[pick].start)
				pick = k;
		if (head[pick].start == INT64_MAX)
			break;	/* every class is done */
		(void)busy_meter_add(m, (enum busy_class)pick,
		    head[pick].start, head[pick].end);
		stream_next(&in[pick], &head[pick]);
	}
	busy_meter_finish(m, names, src);
	free(in);
}
