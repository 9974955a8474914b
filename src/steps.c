/* Step boundaries (first pass) and the per-step busy/idle breakdown. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ptime.h"
#include "steps.h"
#include "xmalloc.h"

struct window_list {
	char		*plane;		/* NULL: the host's */
	struct window	*v;
	size_t		 n;
};

struct step_windows {
	struct window_list host;
	/*
	 * Host events with a step_num but no _r: trace JSON drops _r (an
	 * internal stat), so these are the steps when no root is found.
	 */
	struct window_list host_unrooted;
	struct window_list *device;	/* one per plane with a Steps line */
	size_t		 ndevice;
	struct window_list *cur;	/* the Steps line being read */
	int		 cur_host;	/* reading a host plane */
};

static void
push_window(struct window_list *l, int64_t step, const char *name,
    int64_t start, int64_t dur)
{
	struct window *w;

	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	w = &l->v[l->n++];
	w->step = step;
	w->name = xstrdup(name);
	w->start_ps = start;
	w->dur_ps = dur;
}

static int
pre_plane_begin(void *ctx, const struct pf_plane *plane)
{
	struct step_windows *w = ctx;

	w->cur = NULL;
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
	w->device = xreallocarray(w->device, w->ndevice + 1,
	    sizeof *w->device);
	w->cur = &w->device[w->ndevice++];
	memset(w->cur, 0, sizeof *w->cur);
	w->cur->plane = xstrdup(plane->name);
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

static int
pre_event(void *ctx, const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_event *ev)
{
	struct step_windows *w = ctx;
	const char *name = pf_event_name(ev);
	int64_t step, start, dur;
	char *end;

	(void)plane;
	(void)line;
	span_of(ev, &start, &dur);
	if (w->cur_host) {
		/* StepTraceAnnotation: TraceMe "name#_r=1,step_num=N#". */
		if (!pf_stat_int(pf_event_stat(ev, PF_KEY_STEP_NUM), &step))
			return 0;
		push_window(pf_event_stat(ev, PF_KEY_IS_ROOT) != NULL ?
		    &w->host : &w->host_unrooted, step, name, start, dur);
		return 0;
	}
	if (!pf_stat_int(pf_event_stat(ev, PF_KEY_STEP_NUM), &step) &&
	    !pf_stat_int(pf_event_stat(ev, PF_KEY_GROUP_ID), &step)) {
		step = strtoll(name, &end, 10);
		if (end == name)
			step = (int64_t)w->cur->n;
	}
	push_window(w->cur, step, name, start, dur);
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

void
step_windows_free(struct step_windows *w)
{
	size_t i;

	if (w == NULL)
		return;
	list_release(&w->host);
	list_release(&w->host_unrooted);
	for (i = 0; i < w->ndevice; i++)
		list_release(&w->device[i]);
	free(w->device);
	free(w);
}

void
step_windows_sort(struct step_windows *w)
{
	struct window_list swap;
	size_t i;

	if (w->host.n == 0 && w->host_unrooted.n > 0) {
		swap = w->host;
		w->host = w->host_unrooted;
		w->host_unrooted = swap;
	}

	for (i = 0; i < w->ndevice; i++)
		if (w->device[i].n > 0)
			qsort(w->device[i].v, w->device[i].n,
			    sizeof *w->device[i].v, cmp_window);
	if (w->host.n > 0)
		qsort(w->host.v, w->host.n, sizeof *w->host.v, cmp_window);
}

size_t
step_windows_for(const struct step_windows *w, const char *plane,
    const struct window **out, enum step_source *src)
{
	size_t i;

	for (i = 0; i < w->ndevice; i++)
		if (strcmp(w->device[i].plane, plane) == 0 &&
		    w->device[i].n > 0) {
			*out = w->device[i].v;
			*src = STEP_DEVICE;
			return w->device[i].n;
		}
	*out = w->host.v;
	*src = STEP_HOST;
	return w->host.n;
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
			mods = xreallocarray(mods, nmods + 1, sizeof *mods);
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
		v = xreallocarray(v, n + 1, sizeof *v);
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

/*
 * Adds to sum[i] the overlap of [start, end) with each window i.  Calls
 * come in order of start; *first is the first window that may still be
 * open (the windows are sorted by start).
 */
static void
add_to_windows(const struct window *win, size_t nwin, size_t *first,
    int64_t *sum, int64_t start, int64_t end)
{
	size_t i;

	while (*first < nwin &&
	    win[*first].start_ps + win[*first].dur_ps <= start)
		(*first)++;
	for (i = *first; i < nwin && win[i].start_ps < end; i++) {
		int64_t a = win[i].start_ps > start ? win[i].start_ps : start;
		int64_t b = win[i].start_ps + win[i].dur_ps;

		if (b > end)
			b = end;
		if (b > a)
			sum[i] = ps_add(sum[i], b - a);
	}
}

static void
add_gap(struct plane_summary *p, int64_t start, int64_t end)
{
	if (end - start < GAP_FLOOR_PS)
		return;
	p->gaps = xreallocarray(p->gaps, p->ngaps + 1, sizeof *p->gaps);
	p->gaps[p->ngaps].start_ps = start;
	p->gaps[p->ngaps].dur_ps = end - start;
	p->ngaps++;
}

/*
 * The time in each window of the union of two normalized sets, merged on
 * the fly.
 */
static void
union2_to_windows(const struct ivals *a, const struct ivals *b,
    const struct window *win, size_t nwin, int64_t *sum)
{
	struct ivals_iter ia, ib;
	struct ival ha, hb, cur = { 0, 0 }, iv;
	int la, lb, have = 0;
	size_t first = 0;

	ivals_iter_init(a, &ia);
	ivals_iter_init(b, &ib);
	la = ivals_next(&ia, &ha);
	lb = ivals_next(&ib, &hb);
	for (;;) {
		if (la && (!lb || ha.start <= hb.start)) {
			iv = ha;
			la = ivals_next(&ia, &ha);
		} else if (lb) {
			iv = hb;
			lb = ivals_next(&ib, &hb);
		} else
			break;
		if (have && iv.start <= cur.end) {
			if (iv.end > cur.end)
				cur.end = iv.end;
			continue;
		}
		if (have)
			add_to_windows(win, nwin, &first, sum, cur.start,
			    cur.end);
		cur = iv;
		have = 1;
	}
	if (have)
		add_to_windows(win, nwin, &first, sum, cur.start, cur.end);
}

void
steps_measure(struct plane_summary *p, struct strmap *names,
    const struct window *win, size_t nwin, enum step_source src,
    struct ivals busy[NBUSY])
{
	struct ivals_iter it[NBUSY];
	struct ival head[NBUSY], cur, iv;
	int64_t *sum[NBUSY + 1], *comm, prev_end = 0;
	size_t i, first[NBUSY + 1];
	int k, live[NBUSY], have = 0, any = 0;

	for (k = 0; k <= NBUSY; k++) {
		sum[k] = xcalloc(nwin + 1, sizeof *sum[k]);
		first[k] = 0;
	}
	for (k = 0; k < NBUSY; k++) {
		ivals_normalize(&busy[k]);
		ivals_iter_init(&busy[k], &it[k]);
		live[k] = ivals_next(&it[k], &head[k]);
	}
	/*
	 * One pass over the sorted classes, merged on the fly: each class's
	 * time in each window, their union's (the rest is idle), and the
	 * idle gaps between.
	 */
	for (;;) {
		int pick = -1;

		for (k = 0; k < NBUSY; k++)
			if (live[k] && (pick == -1 ||
			    head[k].start < head[pick].start))
				pick = k;
		if (pick != -1) {
			iv = head[pick];
			live[pick] = ivals_next(&it[pick], &head[pick]);
			add_to_windows(win, nwin, &first[pick], sum[pick],
			    iv.start, iv.end);
			if (have && iv.start <= cur.end) {
				if (iv.end > cur.end)
					cur.end = iv.end;
				continue;
			}
		}
		if (have) {
			add_to_windows(win, nwin, &first[NBUSY], sum[NBUSY],
			    cur.start, cur.end);
			if (any)
				add_gap(p, prev_end, cur.start);
			any = 1;
			prev_end = cur.end;
		}
		if (pick == -1)
			break;
		cur = iv;
		have = 1;
	}

	/*
	 * The classes share out the busy time, so that they and idle add up
	 * to the step: collective first (an all-reduce inside a while op
	 * stays a collective), then transfer time no collective covered,
	 * then compute for the rest.
	 */
	comm = xcalloc(nwin + 1, sizeof *comm);
	union2_to_windows(&busy[BUSY_COLLECTIVE], &busy[BUSY_TRANSFER], win,
	    nwin, comm);
	for (i = 0; i < nwin; i++) {
		sum[BUSY_TRANSFER][i] = comm[i] - sum[BUSY_COLLECTIVE][i];
		sum[BUSY_COMPUTE][i] = sum[NBUSY][i] - comm[i];
	}
	free(comm);

	p->steps = xreallocarray(p->steps, p->nsteps + nwin + 1,
	    sizeof *p->steps);
	for (i = 0; i < nwin; i++) {
		const struct window *w = &win[i];
		struct step_rec *s = &p->steps[p->nsteps++];

		memset(s, 0, sizeof *s);
		s->source = src;
		s->step = w->step;
		s->name = strmap_intern(names, w->name, strlen(w->name));
		s->start_ps = w->start_ps;
		s->dur_ps = w->dur_ps;
		for (k = 0; k < NBUSY; k++)
			s->busy_ps[k] = sum[k][i];
		s->idle_ps = w->dur_ps - sum[NBUSY][i];
	}
	for (k = 0; k <= NBUSY; k++)
		free(sum[k]);
}
