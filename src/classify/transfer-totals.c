/* Transfer sums per plane, direction and kind (transfer-totals.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "classify/transfer-totals.h"
#include "lib/xmalloc.h"

struct exec_span {
	int64_t		 start_ps;
	int64_t		 end_max;	/* latest end of it and those before */
};

struct exec_ends {
	struct exec_span *v;		/* by start */
	size_t		 n;
};

static int
cmp_start(const void *a, const void *b)
{
	const struct exec_span *x = a, *y = b;

	return x->start_ps < y->start_ps ? -1 : x->start_ps > y->start_ps;
}

struct exec_ends *
exec_ends_new(const struct file_summary *fs)
{
	struct exec_ends *x = xcalloc(1, sizeof *x);
	size_t i, j, n = 0;

	for (i = 0; i < fs->nplanes; i++)
		n += fs->planes[i].nexecs;
	x->v = xcalloc(n + 1, sizeof *x->v);
	for (i = 0; i < fs->nplanes; i++)
		for (j = 0; j < fs->planes[i].nexecs; j++) {
			const struct exec_rec *e = &fs->planes[i].execs[j];

			/* Readers keep times under PS_LIMIT: no overflow. */
			x->v[x->n].start_ps = e->start_ps;
			x->v[x->n++].end_max = e->start_ps + e->dur_ps;
		}
	qsort(x->v, x->n, sizeof *x->v, cmp_start);
	for (i = 1; i < x->n; i++)
		if (x->v[i].end_max < x->v[i - 1].end_max)
			x->v[i].end_max = x->v[i - 1].end_max;
	return x;
}

void
exec_ends_free(struct exec_ends *x)
{
	if (x == NULL)
		return;
	free(x->v);
	free(x);
}

/*
 * The latest end of the executions that overlap t is the latest end of
 * those starting before t ends, when that end is after t starts (else
 * none overlaps): a binary search, then the running maximum.
 */
static int64_t
transfer_wait(const struct exec_ends *x, const struct transfer_rec *t)
{
	int64_t end = t->start_ps + t->dur_ps, wait;
	size_t lo = 0, hi = x->n;

	if (!t->on_host || t->dir != XFER_D2H)
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].start_ps < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	wait = x->v[lo - 1].end_max - t->start_ps;
	if (wait > t->dur_ps)
		wait = t->dur_ps;
	return wait > 0 ? wait : 0;
}

/* GROUP BY's order: direction as text, then on_host, compile_work. */
static int
cmp_total(const void *a, const void *b)
{
	const struct transfer_total *x = a, *y = b;
	int c = strcmp(transfer_dir_name(x->dir), transfer_dir_name(y->dir));

	if (c != 0)
		return c;
	if (x->on_host != y->on_host)
		return x->on_host < y->on_host ? -1 : 1;
	return x->compile_work < y->compile_work ? -1 :
	    x->compile_work > y->compile_work;
}

/* *sum += v, or 0 when that leaves int64. */
static int
add(int64_t *sum, int64_t v)
{
	return !__builtin_add_overflow(*sum, v, sum);
}

int
transfer_totals(const struct plane_summary *p, const struct exec_ends *x,
    struct transfer_total **out, size_t *n, char **cause)
{
	struct transfer_total *v = NULL;
	size_t i, k, nv = 0, cap = 0;

	for (i = 0; i < p->ntransfers; i++) {
		const struct transfer_rec *r = &p->transfers[i];
		struct transfer_total *t;
		int64_t wait = transfer_wait(x, r);
		int ok;

		for (k = 0; k < nv; k++)
			if (v[k].dir == r->dir && v[k].on_host == r->on_host &&
			    v[k].compile_work == r->compile_work)
				break;
		if (k == nv) {
			if (nv == cap) {
				cap = cap == 0 ? 8 : cap * 2;
				v = xreallocarray(v, cap, sizeof *v);
			}
			memset(&v[nv], 0, sizeof v[nv]);
			v[nv].dir = r->dir;
			v[nv].compile_work = r->compile_work;
			v[nv++].on_host = r->on_host;
		}
		t = &v[k];
		t->count++;
		ok = add(&t->dur_ps, r->dur_ps) && add(&t->wait_ps, wait);
		if (r->bytes >= 0) {
			t->rated_count++;
			ok = ok && add(&t->bytes, r->bytes) &&
			    add(&t->rated_ps, r->dur_ps - wait);
		}
		if (!ok) {
			free(v);
			*cause = xstrdup("integer overflow");
			return -1;
		}
	}
	if (nv > 1)
		qsort(v, nv, sizeof *v, cmp_total);
	*out = v;
	*n = nv;
	return 0;
}
