/*
 * The summary's step series, from the one loader of step rows
 * (step_times_load()): each device's steps, the devices ordered by run,
 * host, name and plane.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strmap.h"
#include "lib/xmalloc.h"
#include "report/overview-steps.h"
#include "report/step-times.h"

static int
cmp_series_order(const void *a, const void *b)
{
	const struct step_row *x = *(const struct step_row *const *)a;
	const struct step_row *y = *(const struct step_row *const *)b;
	int c = strcmp(x->run, y->run);

	if (c == 0)
		c = strcmp(x->host, y->host);
	if (c == 0)
		c = strcmp(x->device, y->device);
	if (c != 0)
		return c;
	if (x->plane_id != y->plane_id)
		return x->plane_id < y->plane_id ? -1 : 1;
	if (x->start_key != y->start_key)
		return x->start_key < y->start_key ? -1 : 1;
	return x->step_key < y->step_key ? -1 : x->step_key > y->step_key;
}

void
overview_steps_load(struct overview *ov, struct report *r)
{
	struct strmap texts;
	struct device_steps *devs;
	struct step_row *all, **v = NULL;
	struct ov_series *cur = NULL;
	size_t ndev, n = 0, cap = 0, i, j;

	strmap_init(&texts);
	devs = step_times_load(r, 0, &texts, &ndev, &all);
	for (i = 0; i < ndev; i++)
		for (j = 0; j < devs[i].n; j++) {
			if (n == cap) {
				cap = cap > 0 ? 2 * cap : 256;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[n++] = &devs[i].rows[j];
		}
	if (n > 0)
		qsort(v, n, sizeof *v, cmp_series_order);
	for (i = 0; i < n; i++) {
		const struct step_row *row = v[i];
		struct ov_step *s;

		if (cur == NULL || cur->plane_id != row->plane_id) {
			ov->series = xgrow1(ov->series, ov->nseries,
			    sizeof *ov->series);
			cur = &ov->series[ov->nseries++];
			memset(cur, 0, sizeof *cur);
			cur->run = xstrdup(row->run);
			cur->host = xstrdup(row->host);
			cur->device = xstrdup(row->device);
			cur->file_id = row->file_id;
			cur->plane_id = row->plane_id;
			if (ov->step_source[0] == '\0') {
				free(ov->step_source);
				ov->step_source = xstrdup(row->source);
			}
		}
		cur->steps = xgrow1(cur->steps, cur->n, sizeof *cur->steps);
		s = &cur->steps[cur->n++];
		memset(s, 0, sizeof *s);
		s->step = row->step;
		s->start_ps = row->start_ps;
		s->dur_ps = row->dur_ps;
		s->part_ps[OV_COMPUTE] = row->busy_ps[0];
		s->part_ps[OV_COLLECTIVE] = row->busy_ps[1];
		s->part_ps[OV_TRANSFER] = row->busy_ps[2];
		/* Attributed to host activity later, gap by gap. */
		s->part_ps[OV_SHORT_IDLE] = row->idle_ps;
	}
	free(v);
	free(devs);
	free(all);
	strmap_release(&texts);
}
