/* A plane's collectives and host annotations by the step they start in. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "classify/step-parts.h"
#include "lib/ptime.h"
#include "lib/xmalloc.h"

struct window_span {
	int64_t		start_ps, end_ps, step;
};

static int
cmp_window(const void *a, const void *b)
{
	const struct window_span *x = a, *y = b;

	return (x->start_ps > y->start_ps) - (x->start_ps < y->start_ps);
}

static int
cmp_span(const void *a, const void *b)
{
	const struct named_span *x = a, *y = b;

	if (x->start_ps != y->start_ps)
		return x->start_ps < y->start_ps ? -1 : 1;
	if (x->dur_ps != y->dur_ps)
		return x->dur_ps < y->dur_ps ? -1 : 1;
	return (x->name > y->name) - (x->name < y->name);
}

/*
 * The steps' windows and the spans, each sorted by start: then a span's
 * window is found by walking both once.
 */
struct walk {
	struct window_span *win;
	size_t		 nwin, w;
	struct named_span *span;
	size_t		 nspan;
};

static void
walk_init(struct walk *k, const struct step_rec *steps, size_t nsteps,
    const struct named_span *spans, size_t nspans)
{
	size_t i;

	memset(k, 0, sizeof *k);
	k->win = xcalloc(nsteps + 1, sizeof *k->win);
	for (i = 0; i < nsteps; i++) {
		k->win[i].start_ps = steps[i].start_ps;
		k->win[i].end_ps = ps_add(steps[i].start_ps, steps[i].dur_ps);
		k->win[i].step = steps[i].step;
	}
	k->nwin = nsteps;
	if (nsteps > 0)
		qsort(k->win, nsteps, sizeof *k->win, cmp_window);
	k->span = xcalloc(nspans + 1, sizeof *k->span);
	if (nspans > 0) {
		memcpy(k->span, spans, nspans * sizeof *spans);
		qsort(k->span, nspans, sizeof *k->span, cmp_span);
	}
	k->nspan = nspans;
}

/* The window of a span starting at t (spans come in order); 0 if none. */
static int
walk_step(struct walk *k, int64_t t, int64_t *step)
{
	while (k->w < k->nwin && k->win[k->w].end_ps <= t)
		k->w++;
	if (k->w == k->nwin || k->win[k->w].start_ps > t)
		return 0;
	*step = k->win[k->w].step;
	return 1;
}

static void
walk_release(struct walk *k)
{
	free(k->win);
	free(k->span);
}

size_t
step_collectives_of(const struct plane_summary *p,
    struct step_collective **out)
{
	struct step_collective *v = NULL;
	struct walk k;
	size_t i, j, n = 0, first = 0;

	walk_init(&k, p->steps, p->nsteps, p->collectives, p->ncollectives);
	for (i = 0; i < k.nspan; i++) {
		const struct named_span *s = &k.span[i];
		int64_t step;

		if (!walk_step(&k, s->start_ps, &step))
			continue;
		if (n == 0 || v[n - 1].step != step)
			first = n;	/* the step's rows start here */
		v = xgrow1(v, n, sizeof *v);
		v[n].step = step;
		v[n].name = s->name;
		v[n].occurrence = 0;
		v[n].start_ps = s->start_ps;
		v[n].dur_ps = s->dur_ps;
		for (j = first; j < n; j++)
			v[n].occurrence += v[j].name == s->name;
		n++;
	}
	walk_release(&k);
	*out = v;
	return n;
}

size_t
step_annotations_of(const struct plane_summary *p,
    const struct step_rec *steps, size_t nsteps,
    struct step_annotation **out)
{
	struct step_annotation *v = NULL;
	struct walk k;
	size_t i, j, n = 0, first = 0;

	walk_init(&k, steps, nsteps, p->annotations, p->nannotations);
	for (i = 0; i < k.nspan; i++) {
		const struct named_span *s = &k.span[i];
		int64_t step;

		if (!walk_step(&k, s->start_ps, &step))
			continue;
		if (n == 0 || v[n - 1].step != step)
			first = n;
		for (j = first; j < n && v[j].name != s->name; j++)
			;
		if (j == n) {
			v = xgrow1(v, n, sizeof *v);
			v[n].step = step;
			v[n].name = s->name;
			v[n].count = 0;
			v[n].dur_ps = 0;
			n++;
		}
		v[j].count++;
		v[j].dur_ps = ps_add(v[j].dur_ps, s->dur_ps);
	}
	walk_release(&k);
	*out = v;
	return n;
}
