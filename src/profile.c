/* Helpers over the normalized stream of profile.h. */
#include "config.h"

#include <string.h>

#include "profile.h"

const struct pf_stat *
pf_stat_find(const struct pf_stat *stats, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(stats[i].name, name) == 0)
			return &stats[i];
	return NULL;
}

const struct pf_stat *
pf_event_stat(const struct pf_event *ev, const char *name)
{
	const struct pf_stat *st;

	st = pf_stat_find(ev->stats, ev->nstats, name);
	if (st == NULL)
		st = pf_stat_find(ev->meta->stats, ev->meta->nstats, name);
	return st;
}

int
pf_stat_int(const struct pf_stat *st, int64_t *out)
{
	if (st == NULL)
		return 0;
	switch (st->kind) {
	case PF_INT64:
		*out = st->num.i;
		return 1;
	case PF_UINT64:
		*out = (int64_t)st->num.u;
		return 1;
	case PF_DOUBLE:
		/* Only in-range values convert without undefined behaviour. */
		if (!(st->num.d > -9.2e18 && st->num.d < 9.2e18))
			return 0;
		*out = (int64_t)st->num.d;
		return 1;
	default:
		return 0;
	}
}

int
pf_stat_str(const struct pf_stat *st, struct pf_bytes *out)
{
	if (st == NULL || (st->kind != PF_STR && st->kind != PF_REF))
		return 0;
	*out = st->str;
	return 1;
}

const char *
pf_event_name(const struct pf_event *ev)
{
	if (ev->meta->display_name[0] != '\0')
		return ev->meta->display_name;
	return ev->meta->name;
}
