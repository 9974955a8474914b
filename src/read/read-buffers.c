/*
 * A program's buffer assignment, read off the wire (read-buffers.h).
 * What XLA allocates in device memory (memory space 0) is the sum of its
 * allocations; the peak of its heap simulation is replayed from the trace
 * of the one allocation the simulation lays out (the temporaries), with
 * the allocations that live throughout (parameters, outputs, constants)
 * added, as xprof's memory viewer does.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/read-buffers.h"
#include "model/hlo.h"
#include "lib/checked.h"
#include "lib/xmalloc.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

struct wire {
	const uint8_t	*p, *end;
};

static int
wire_varint(struct wire *w, uint64_t *v)
{
	unsigned shift;

	*v = 0;
	for (shift = 0; shift < 64; shift += 7) {
		if (w->p >= w->end)
			return -1;
		*v |= (uint64_t)(*w->p & 0x7f) << shift;
		if ((*w->p++ & 0x80) == 0)
			return 0;
	}
	return -1;
}

/* The next field's number and wire type; 0 at the end, -1 if damaged. */
static int
wire_key(struct wire *w, uint32_t *field, unsigned *wt)
{
	uint64_t k;

	if (w->p >= w->end)
		return 0;
	if (wire_varint(w, &k) == -1 || (k >> 3) == 0 || (k >> 3) > UINT32_MAX)
		return -1;
	*field = (uint32_t)(k >> 3);
	*wt = (unsigned)(k & 7);
	return 1;
}

static int
wire_len(struct wire *w, struct wire *sub)
{
	uint64_t n;

	if (wire_varint(w, &n) == -1 || n > (uint64_t)(w->end - w->p))
		return -1;
	sub->p = w->p;
	sub->end = w->p + n;
	w->p += n;
	return 0;
}

static int
wire_skip(struct wire *w, unsigned wt)
{
	struct wire sub;
	uint64_t v;

	switch (wt) {
	case WT_VARINT:
		return wire_varint(w, &v);
	case WT_I64:
	case WT_I32:
		if ((size_t)(w->end - w->p) < (wt == WT_I64 ? 8u : 4u))
			return -1;
		w->p += wt == WT_I64 ? 8 : 4;
		return 0;
	case WT_LEN:
		return wire_len(w, &sub);
	default:
		return -1;
	}
}

/* An int64 field's value (wire type checked). */
static int
wire_int(struct wire *w, unsigned wt, int64_t *v)
{
	uint64_t u;

	if (wt != WT_VARINT || wire_varint(w, &u) == -1)
		return -1;
	*v = (int64_t)u;
	return 0;
}

/* One value of a repeated int64, packed or not; calls add for each. */
static int
wire_ints(struct wire *w, unsigned wt, void (*add)(void *, int64_t),
    void *arg)
{
	struct wire sub;
	int64_t v;

	if (wt == WT_VARINT) {
		if (wire_int(w, wt, &v) == -1)
			return -1;
		add(arg, v);
		return 0;
	}
	if (wt != WT_LEN || wire_len(w, &sub) == -1)
		return -1;
	while (sub.p < sub.end) {
		if (wire_int(&sub, WT_VARINT, &v) == -1)
			return -1;
		add(arg, v);
	}
	return 0;
}

struct index_list {
	int64_t		*v;
	size_t		 n;
};

static void
list_add(void *arg, int64_t v)
{
	struct index_list *l = arg;

	l->v = xgrow1(l->v, l->n, sizeof *l->v);
	l->v[l->n++] = v;
}

struct logical {
	int64_t		 id, size, instr_id, color;
	struct index_list shape_index;
	ptrdiff_t	 alloc;		/* allocation it is assigned to, or -1 */
	/* The simulation's state. */
	int64_t		 ref;
	ptrdiff_t	 canonical;	/* index, or -1 */
	ptrdiff_t	 display;	/* what shows it at the peak, or -1 */
	ptrdiff_t	 live_at;	/* its place in the live set, or -1 */
};

struct allocation {
	int64_t		 index, size, color;
	int		 thread_local, tuple, parameter, constant, live_out;
	struct index_list assigned;	/* logical buffer ids */
	ptrdiff_t	 trace;		/* heap_simulator_traces index, or -1 */
};

struct assignment {
	struct logical	*lbs;		/* sorted by id */
	size_t		 nlbs;
	struct allocation *allocs;
	size_t		 nallocs;
	struct wire	*traces;
	size_t		 ntraces;
};

static void
assignment_release(struct assignment *a)
{
	size_t i;

	for (i = 0; i < a->nlbs; i++)
		free(a->lbs[i].shape_index.v);
	for (i = 0; i < a->nallocs; i++)
		free(a->allocs[i].assigned.v);
	free(a->lbs);
	free(a->allocs);
	free(a->traces);
}

static int
read_location(struct wire w, struct logical *lb)
{
	uint32_t f;
	unsigned wt;
	int rc;

	while ((rc = wire_key(&w, &f, &wt)) == 1) {
		if (f == 4)
			rc = wire_int(&w, wt, &lb->instr_id);
		else if (f == 3)
			rc = wire_ints(&w, wt, list_add, &lb->shape_index);
		else
			rc = wire_skip(&w, wt);
		if (rc == -1)
			return -1;
	}
	return rc;
}

static int
read_logical(struct wire w, struct logical *lb)
{
	struct wire sub;
	uint32_t f;
	unsigned wt;
	int rc;

	memset(lb, 0, sizeof *lb);
	lb->instr_id = -1;
	while ((rc = wire_key(&w, &f, &wt)) == 1) {
		switch (f) {
		case 1:
			rc = wire_int(&w, wt, &lb->id);
			break;
		case 2:
			rc = wire_int(&w, wt, &lb->size);
			break;
		case 3:
			rc = wt != WT_LEN || wire_len(&w, &sub) == -1 ? -1 :
			    read_location(sub, lb);
			break;
		case 4:
			rc = wire_int(&w, wt, &lb->color);
			break;
		default:
			rc = wire_skip(&w, wt);
		}
		if (rc == -1)
			return -1;
	}
	return rc == -1 || !bytes_valid(lb->size) ? -1 : 0;
}

static int
read_assigned(struct wire w, struct allocation *al)
{
	uint32_t f;
	unsigned wt;
	int64_t id = 0;
	int rc;

	while ((rc = wire_key(&w, &f, &wt)) == 1)
		if ((f == 1 ? wire_int(&w, wt, &id) : wire_skip(&w, wt)) == -1)
			return -1;
	if (rc == -1)
		return -1;
	list_add(&al->assigned, id);
	return 0;
}

static int
read_allocation(struct wire w, struct allocation *al)
{
	struct wire sub;
	uint32_t f;
	unsigned wt;
	int64_t v;
	int rc;

	memset(al, 0, sizeof *al);
	al->trace = -1;
	while ((rc = wire_key(&w, &f, &wt)) == 1) {
		switch (f) {
		case 1:
			rc = wire_int(&w, wt, &al->index);
			break;
		case 2:
			rc = wire_int(&w, wt, &al->size);
			break;
		case 3: case 5: case 7: case 11: case 12:
			rc = wire_int(&w, wt, &v);
			if (f == 3)
				al->thread_local = v != 0;
			else if (f == 5)
				al->parameter = v != 0;
			else if (f == 7)
				al->live_out = v != 0;
			else if (f == 11)
				al->tuple = v != 0;
			else
				al->constant = v != 0;
			break;
		case 8:
			rc = wire_int(&w, wt, &al->color);
			break;
		case 9:
			rc = wt != WT_LEN || wire_len(&w, &sub) == -1 ? -1 :
			    read_assigned(sub, al);
			break;
		default:
			rc = wire_skip(&w, wt);
		}
		if (rc == -1)
			return -1;
	}
	return rc == -1 || !bytes_valid(al->size) ? -1 : 0;
}

static int
cmp_logical(const void *a, const void *b)
{
	const struct logical *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static ptrdiff_t
find_logical(const struct assignment *a, int64_t id)
{
	size_t lo = 0, hi = a->nlbs;

	/* XLA numbers them from 0: most are at their id. */
	if (id >= 0 && (uint64_t)id < a->nlbs && a->lbs[id].id == id)
		return (ptrdiff_t)id;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->lbs[mid].id == id)
			return (ptrdiff_t)mid;
		if (a->lbs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int
read_assignment(struct wire w, struct assignment *a)
{
	struct wire sub;
	uint32_t f;
	unsigned wt;
	size_t i, j;
	int rc;

	while ((rc = wire_key(&w, &f, &wt)) == 1) {
		if ((f == 1 || f == 3 || f == 4) && (wt != WT_LEN ||
		    wire_len(&w, &sub) == -1))
			return -1;
		if (f == 1) {
			a->lbs = xgrow1(a->lbs, a->nlbs, sizeof *a->lbs);
			rc = read_logical(sub, &a->lbs[a->nlbs++]);
		} else if (f == 3) {
			a->allocs = xgrow1(a->allocs, a->nallocs,
			    sizeof *a->allocs);
			rc = read_allocation(sub, &a->allocs[a->nallocs++]);
		} else if (f == 4) {
			a->traces = xgrow1(a->traces, a->ntraces,
			    sizeof *a->traces);
			a->traces[a->ntraces++] = sub;
		} else
			rc = wire_skip(&w, wt);
		if (rc == -1)
			return -1;
	}
	if (rc == -1)
		return -1;
	if (a->nlbs > 0)
		qsort(a->lbs, a->nlbs, sizeof *a->lbs, cmp_logical);
	for (i = 0; i < a->nlbs; i++) {
		if (i > 0 && a->lbs[i].id == a->lbs[i - 1].id)
			return -1;
		a->lbs[i].alloc = -1;
	}
	/* Only buffers assigned to an allocation take part (as in xprof). */
	for (i = 0; i < a->nallocs; i++)
		for (j = 0; j < a->allocs[i].assigned.n; j++) {
			ptrdiff_t k = find_logical(a,
			    a->allocs[i].assigned.v[j]);

			if (k < 0)
				return -1;
			a->lbs[k].alloc = (ptrdiff_t)i;
		}
	return 0;
}

struct trace_event {
	int64_t		 kind, buffer, canonical;
};

/* The next event of a trace; 0 at its end, -1 if damaged. */
static int
trace_next_event(struct wire *t, struct trace_event *ev)
{
	struct wire sub;
	uint32_t f;
	unsigned wt;
	int rc;

	for (;;) {
		if ((rc = wire_key(t, &f, &wt)) != 1)
			return rc;
		if (f != 1) {
			if (wire_skip(t, wt) == -1)
				return -1;
			continue;
		}
		if (wt != WT_LEN || wire_len(t, &sub) == -1)
			return -1;
		memset(ev, 0, sizeof *ev);
		while ((rc = wire_key(&sub, &f, &wt)) == 1) {
			if (f == 1)
				rc = wire_int(&sub, wt, &ev->kind);
			else if (f == 2)
				rc = wire_int(&sub, wt, &ev->buffer);
			else if (f == 5)
				rc = wire_int(&sub, wt, &ev->canonical);
			else
				rc = wire_skip(&sub, wt);
			if (rc == -1)
				return -1;
		}
		return rc == -1 ? -1 : 1;
	}
}

static int
indefinite(const struct allocation *al)
{
	return al->thread_local || al->parameter || al->constant ||
	    al->live_out;
}

/*
 * The trace that lays out memory space 0: the one of its first allocation
 * that has one and does not live throughout, else the one with the most
 * events of its buffers; -1 if none.
 */
static ptrdiff_t
pick_trace(struct assignment *a)
{
	struct trace_event ev;
	ptrdiff_t best = -1;
	size_t i, n, most = 0;
	int rc;

	for (i = 0; i < a->ntraces; i++) {
		struct wire t = a->traces[i];
		ptrdiff_t k;

		if ((rc = trace_next_event(&t, &ev)) == -1)
			return -2;
		if (rc == 0 || (k = find_logical(a, ev.buffer)) < 0 ||
		    a->lbs[k].alloc < 0)
			continue;
		a->allocs[a->lbs[k].alloc].trace = (ptrdiff_t)i;
	}
	for (i = 0; i < a->nallocs; i++)
		if (a->allocs[i].color == 0 && !indefinite(&a->allocs[i]) &&
		    a->allocs[i].trace >= 0)
			return a->allocs[i].trace;
	for (i = 0; i < a->ntraces; i++) {
		struct wire t = a->traces[i];

		n = 0;
		while ((rc = trace_next_event(&t, &ev)) == 1) {
			ptrdiff_t k = find_logical(a, ev.buffer);

			if (k >= 0 && a->lbs[k].color == 0)
				n++;
		}
		if (rc == -1)
			return -2;
		if (n > most) {
			most = n;
			best = (ptrdiff_t)i;
		}
	}
	return best;
}

struct sim {
	struct assignment *a;
	ptrdiff_t	*live;		/* logical indices */
	size_t		 nlive;
	int64_t		 heap, peak;
	size_t		 peak_event;	/* the event after which it peaked */
};

static ptrdiff_t
root(const struct assignment *a, ptrdiff_t k)
{
	size_t hops = 0;

	while (a->lbs[k].canonical >= 0 && hops++ < a->nlbs)
		k = a->lbs[k].canonical;
	return k;
}

/* -1 when the heap would pass BYTES_LIMIT: a damaged trace. */
static int
sim_increase(struct sim *s, ptrdiff_t k, size_t event)
{
	struct logical *lb = &s->a->lbs[k];

	if (lb->live_at < 0) {
		lb->live_at = (ptrdiff_t)s->nlive;
		s->live[s->nlive++] = k;
	}
	if (!checked_bytes_add(&s->heap, lb->size))
		return -1;
	if (s->heap > s->peak) {
		s->peak = s->heap;
		s->peak_event = event;
	}
	return 0;
}

static int
sim_decrease(struct sim *s, ptrdiff_t k)
{
	struct logical *lb = &s->a->lbs[k];

	if (lb->live_at >= 0) {
		ptrdiff_t last = s->live[--s->nlive];

		s->live[lb->live_at] = last;
		s->a->lbs[last].live_at = lb->live_at;
		lb->live_at = -1;
	}
	s->heap -= lb->size;
	return s->heap < 0 ? -1 : 0;
}

/*
 * Replays trace t to its end (stop: SIZE_MAX) or through event stop; the
 * live set is then the one after that event.  -1 with why on a trace that
 * contradicts itself.
 */
static int
simulate(struct sim *s, struct wire t, size_t stop, const char **why)
{
	struct assignment *a = s->a;
	struct trace_event ev;
	size_t i, event;
	int rc = 0;

	for (i = 0; i < a->nlbs; i++) {
		a->lbs[i].ref = 0;
		a->lbs[i].canonical = a->lbs[i].display = a->lbs[i].live_at =
		    -1;
	}
	s->nlive = 0;
	s->heap = s->peak = 0;
	s->peak_event = 0;
	for (event = 0; event <= stop && (rc = trace_next_event(&t, &ev)) == 1;
	    event++) {
		ptrdiff_t k = find_logical(a, ev.buffer), r, c;

		if (k < 0 || a->lbs[k].alloc < 0)
			continue;
		switch (ev.kind) {
		case 0:		/* ALLOC: counted as itself, as xprof does */
			a->lbs[root(a, k)].ref++;
			if (sim_increase(s, k, event) == -1) {
				*why = "a heap past 8 PiB";
				return -1;
			}
			break;
		case 1:		/* FREE */
			r = root(a, k);
			if (--a->lbs[r].ref < 0) {
				*why = "a buffer freed twice";
				return -1;
			}
			if (a->lbs[r].ref == 0 && sim_decrease(s, r) == -1) {
				*why = "more freed than allocated";
				return -1;
			}
			break;
		case 2:		/* SHARE_WITH */
			if ((c = find_logical(a, ev.canonical)) < 0 ||
			    a->lbs[c].alloc < 0)
				continue;
			a->lbs[k].canonical = c;
			r = root(a, c);
			if (r == k) {
				*why = "a buffer shared with itself";
				return -1;
			}
			if (++a->lbs[r].ref == 1) {
				a->lbs[r].display = k;
				if (sim_increase(s, r, event) == -1) {
					*why = "a heap past 8 PiB";
					return -1;
				}
			}
			break;
		default:
			*why = "an event of unknown kind";
			return -1;
		}
	}
	if (stop == SIZE_MAX && rc == -1) {
		*why = "a damaged heap simulator trace";
		return -1;
	}
	return 0;
}

static const char *const type_names[] = {
	[1] = "pred", [2] = "s8", [3] = "s16", [4] = "s32", [5] = "s64",
	[6] = "u8", [7] = "u16", [8] = "u32", [9] = "u64", [10] = "f16",
	[11] = "f32", [12] = "f64", [13] = "tuple", [14] = "opaque",
	[15] = "c64", [16] = "bf16", [17] = "token", [18] = "c128",
	[19] = "f8e5m2", [20] = "f8e4m3fn", [21] = "s4", [22] = "u4",
	[23] = "f8e4m3b11fnuz", [24] = "f8e5m2fnuz", [25] = "f8e4m3fnuz",
	[26] = "s2", [27] = "u2", [28] = "f8e4m3", [29] = "f8e3m4",
	[30] = "f4e2m1fn", [31] = "f8e8m0fnu",
};

/* A ShapeProto as "f32[8,128]"; of a tuple, its element index's. */
static char *
buffer_shape_text(struct wire w, const struct index_list *index)
{
	struct index_list dims = { NULL, 0 };
	struct wire sub, tuple = { NULL, NULL };
	int64_t type = 0, t = 0, want;
	uint32_t f;
	unsigned wt;
	char *s, *out;
	size_t i, len;
	int rc;

	want = index->n > 0 ? index->v[index->n - 1] : -1;
	while ((rc = wire_key(&w, &f, &wt)) == 1) {
		if (f == 2)
			rc = wire_int(&w, wt, &type);
		else if (f == 3)
			rc = wire_ints(&w, wt, list_add, &dims);
		else if (f == 4 && wt == WT_LEN) {
			rc = wire_len(&w, &sub);
			if (rc == 0 && t++ == want)
				tuple = sub;
		} else
			rc = wire_skip(&w, wt);
		if (rc == -1)
			break;
	}
	if (rc == 0 && tuple.p != NULL) {
		free(dims.v);
		return buffer_shape_text(tuple, &(struct index_list){ NULL, 0 });
	}
	if (rc == -1) {
		free(dims.v);
		return xstrdup("");
	}
	len = 32 + dims.n * 21;
	s = out = xmalloc(len);
	if (type > 0 && type < (int64_t)(sizeof type_names /
	    sizeof type_names[0]) && type_names[type] != NULL)
		s += snprintf(s, len, "%s", type_names[type]);
	else
		s += snprintf(s, len, "type%" PRId64, type);
	if (type != 13) {
		*s++ = '[';
		for (i = 0; i < dims.n; i++)
			s += snprintf(s, len - (size_t)(s - out), "%s%" PRId64,
			    i > 0 ? "," : "", dims.v[i]);
		*s++ = ']';
		*s = '\0';
	}
	free(dims.v);
	return out;
}

struct shape_want {
	int64_t		 instr_id;
	const char	*computation;	/* its instruction's */
	size_t		 computation_len;
	const struct index_list *index;
	char		**out;
};

/*
 * Whether computation comp (its first field its name, as XLA writes it)
 * holds a wanted instruction: the module's other computations, fusions'
 * mostly, are passed over unread.
 */
static int
comp_wanted(struct wire comp, const struct shape_want *want, size_t nwant)
{
	struct wire name;
	uint32_t f;
	unsigned wt;
	size_t i;

	if (wire_key(&comp, &f, &wt) != 1 || f != 1 || wt != WT_LEN ||
	    wire_len(&comp, &name) == -1)
		return 1;
	for (i = 0; i < nwant; i++)
		if (want[i].computation_len == (size_t)(name.end - name.p) &&
		    (i == 0 || want[i].computation != want[i - 1].computation) &&
		    memcmp(want[i].computation, name.p,
		    want[i].computation_len) == 0)
			return 1;
	return 0;
}

static int
cmp_want(const void *a, const void *b)
{
	const struct shape_want *x = a, *y = b;

	return (x->instr_id > y->instr_id) - (x->instr_id < y->instr_id);
}

/* The shapes of the wanted instructions (sorted by id), from the module. */
static int
find_shapes(struct wire module, struct shape_want *want, size_t nwant)
{
	struct wire comp, instr, shape;
	uint32_t f, g, h;
	unsigned wt;
	int rc;

	while ((rc = wire_key(&module, &f, &wt)) == 1) {
		if (f != 3 || wt != WT_LEN) {
			if (wire_skip(&module, wt) == -1)
				return -1;
			continue;
		}
		if (wire_len(&module, &comp) == -1)
			return -1;
		if (!comp_wanted(comp, want, nwant))
			continue;
		while ((rc = wire_key(&comp, &g, &wt)) == 1) {
			int64_t id = -1;
			size_t lo = 0, hi = nwant;

			if (g != 2 || wt != WT_LEN) {
				if (wire_skip(&comp, wt) == -1)
					return -1;
				continue;
			}
			if (wire_len(&comp, &instr) == -1)
				return -1;
			shape.p = NULL;
			while ((rc = wire_key(&instr, &h, &wt)) == 1) {
				if (h == 35)
					rc = wire_int(&instr, wt, &id);
				else if (h == 3 && wt == WT_LEN)
					rc = wire_len(&instr, &shape);
				else
					rc = wire_skip(&instr, wt);
				if (rc == -1)
					return -1;
			}
			if (rc == -1 || shape.p == NULL)
				continue;
			while (lo < hi) {	/* the first wanted of id */
				size_t mid = lo + (hi - lo) / 2;

				if (want[mid].instr_id < id)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (; lo < nwant && want[lo].instr_id == id; lo++)
				if (*want[lo].out[0] == '\0') {
					free(*want[lo].out);
					*want[lo].out = buffer_shape_text(shape,
					    want[lo].index);
				}
		}
		if (rc == -1)
			return -1;
	}
	return rc;
}

static const char *
kind_of(const struct allocation *al)
{
	if (al->parameter)
		return "parameter";
	if (al->live_out)
		return "output";
	if (al->thread_local)
		return "thread-local";
	if (al->constant)
		return "constant";
	return "temporary";
}

/*
 * The instructions of the buffers' ids (sorted, distinct), found in one
 * pass over the module's: only these are sorted, not all of them.
 */
struct by_id {
	int64_t		*ids;
	const struct hlo_instr **instr;
	size_t		 n;
};

static int
cmp_instr_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static ptrdiff_t
by_id_find(const struct by_id *b, int64_t id)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->ids[mid] == id)
			return (ptrdiff_t)mid;
		if (b->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void
by_id_init(struct by_id *b, const struct hlo_module *m,
    const struct assignment *a, const ptrdiff_t *ks, size_t nks)
{
	size_t i, n = 0;
	ptrdiff_t k;

	b->ids = xcalloc(nks + 1, sizeof *b->ids);
	b->instr = xcalloc(nks + 1, sizeof *b->instr);
	for (i = 0; i < nks; i++)
		b->ids[i] = a->lbs[ks[i]].instr_id;
	if (nks > 0)
		qsort(b->ids, nks, sizeof *b->ids, cmp_instr_id);
	for (i = 0; i < nks; i++)
		if (n == 0 || b->ids[n - 1] != b->ids[i])
			b->ids[n++] = b->ids[i];
	b->n = n;
	for (i = 0; n > 0 && i < m->ninstrs; i++)
		if ((k = by_id_find(b, m->instrs[i].id)) >= 0 &&
		    b->instr[k] == NULL)
			b->instr[k] = &m->instrs[i];
}

static const struct hlo_instr *
instr_of(const struct by_id *b, int64_t id)
{
	ptrdiff_t k = by_id_find(b, id);

	return k >= 0 ? b->instr[k] : NULL;
}

static void
add_buffer(struct hlo_memory *mem, const struct by_id *m,
    const struct assignment *a, ptrdiff_t k)
{
	const struct logical *lb = &a->lbs[k];
	struct hlo_buffer *b;
	const char *name;
	char *s;
	size_t i, len;

	mem->buffers = xgrow1(mem->buffers, mem->nbuffers,
	    sizeof *mem->buffers);
	b = &mem->buffers[mem->nbuffers++];
	b->instr = instr_of(m, lb->instr_id);
	b->size_bytes = lb->size;
	b->count = 1;
	b->kind = kind_of(&a->allocs[lb->alloc]);
	b->shape = xstrdup("");
	name = b->instr != NULL ? b->instr->name : "";
	len = strlen(name) + 32 + lb->shape_index.n * 21;
	s = b->name = xmalloc(len);
	if (b->instr != NULL)
		s += snprintf(s, len, "%s", name);
	else
		s += snprintf(s, len, "buffer %" PRId64, lb->id);
	for (i = 0; i < lb->shape_index.n; i++)
		s += snprintf(s, len - (size_t)(s - b->name), "%s%" PRId64,
		    i == 0 ? "{" : ",", lb->shape_index.v[i]);
	if (lb->shape_index.n > 0)
		snprintf(s, len - (size_t)(s - b->name), "}");
}

static int
cmp_buffer(const void *a, const void *b)
{
	const struct hlo_buffer *x = a, *y = b;

	if (x->size_bytes != y->size_bytes)
		return x->size_bytes > y->size_bytes ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The buffers at the peak and their shapes. */
static int
peak_buffers(struct hlo_memory *mem, const struct hlo_module *m,
    struct assignment *a, const struct sim *s, struct wire module)
{
	struct shape_want *want;
	struct by_id ids;
	ptrdiff_t *ks;
	size_t i, j, n = 0;
	int rc;

	ks = xcalloc(a->nallocs + s->nlive + 1, sizeof *ks);
	/* What lives throughout: each allocation's largest buffer. */
	for (i = 0; i < a->nallocs; i++) {
		const struct allocation *al = &a->allocs[i];
		ptrdiff_t best = -1;

		if (al->color != 0 || !indefinite(al))
			continue;
		for (j = 0; j < al->assigned.n; j++) {
			ptrdiff_t k = find_logical(a, al->assigned.v[j]);

			if (best < 0 || a->lbs[k].size > a->lbs[best].size)
				best = k;
		}
		if (best >= 0)
			ks[n++] = best;
	}
	for (i = 0; i < s->nlive; i++) {
		ptrdiff_t k = s->live[i];

		ks[n++] = a->lbs[k].display >= 0 ? a->lbs[k].display : k;
	}
	/* The small ones last, as one. */
	for (i = j = 0; i < n; i++)
		if (a->lbs[ks[i]].size >= HLO_SMALL_BUFFER) {
			ptrdiff_t k = ks[j];

			ks[j++] = ks[i];
			ks[i] = k;
		}
	by_id_init(&ids, m, a, ks, j);
	for (i = 0; i < j; i++)
		add_buffer(mem, &ids, a, ks[i]);
	free(ids.ids);
	free(ids.instr);
	if (j < n) {
		struct hlo_buffer *b;

		mem->buffers = xgrow1(mem->buffers, mem->nbuffers,
		    sizeof *mem->buffers);
		b = &mem->buffers[mem->nbuffers++];
		memset(b, 0, sizeof *b);
		b->name = xstrdup("(under 1 MiB)");
		b->shape = xstrdup("");
		b->kind = "small";
		b->count = (int64_t)(n - j);
		for (i = j; i < n; i++)
			b->size_bytes = sat_add(b->size_bytes,
			    a->lbs[ks[i]].size);
	}
	want = xcalloc(j + 1, sizeof *want);
	for (i = n = 0; i < j; i++) {
		if (mem->buffers[i].instr == NULL)
			continue;
		want[n].instr_id = a->lbs[ks[i]].instr_id;
		want[n].computation = mem->buffers[i].instr->computation;
		want[n].computation_len = strlen(want[n].computation);
		want[n].index = &a->lbs[ks[i]].shape_index;
		want[n++].out = &mem->buffers[i].shape;
	}
	if (n > 0)
		qsort(want, n, sizeof *want, cmp_want);
	rc = n > 0 ? find_shapes(module, want, n) : 0;
	free(want);
	free(ks);
	if (mem->nbuffers > 0)
		qsort(mem->buffers, mem->nbuffers, sizeof *mem->buffers,
		    cmp_buffer);
	return rc;
}

void
hlo_memory_free(struct hlo_memory *mem)
{
	size_t i;

	if (mem == NULL)
		return;
	for (i = 0; i < mem->nbuffers; i++) {
		free(mem->buffers[i].name);
		free(mem->buffers[i].shape);
	}
	free(mem->buffers);
	free(mem);
}

int
hlo_memory_read(const void *data, size_t len, const struct hlo_module *m,
    struct hlo_memory **memp, char **cause)
{
	struct wire w = { data, (const uint8_t *)data + len }, sub;
	struct wire module = { NULL, NULL }, ba = { NULL, NULL };
	struct assignment a;
	struct hlo_memory *mem;
	struct sim s;
	const char *why = NULL;
	ptrdiff_t trace;
	uint32_t f;
	unsigned wt;
	size_t i;
	int rc;

	*memp = NULL;
	while ((rc = wire_key(&w, &f, &wt)) == 1) {
		if ((f == 1 || f == 3) && wt == WT_LEN) {
			if (wire_len(&w, &sub) == -1)
				break;
			if (f == 1)
				module = sub;
			else
				ba = sub;
		} else if (wire_skip(&w, wt) == -1)
			break;
	}
	if (rc != 0) {
		*cause = xstrdup("a damaged xla.HloProto");
		return -1;
	}
	if (ba.p == NULL)
		return 0;
	memset(&a, 0, sizeof a);
	memset(&s, 0, sizeof s);
	mem = xcalloc(1, sizeof *mem);
	if (read_assignment(ba, &a) == -1) {
		why = "a damaged buffer assignment";
		goto out;
	}
	for (i = 0; i < a.nallocs; i++) {
		const struct allocation *al = &a.allocs[i];

		if (al->color != 0)
			continue;
		mem->nallocations++;
		/* Each part is at most the whole, so one check bounds all. */
		if (!checked_bytes_add(&mem->peak_bytes, al->size)) {
			why = "allocations that add up past 8 PiB";
			goto out;
		}
		if (al->parameter)
			mem->parameter_bytes += al->size;
		else if (al->live_out)
			mem->output_bytes += al->size;
		else if (al->constant)
			mem->constant_bytes += al->size;
		else if (!al->thread_local)
			mem->temp_bytes += al->size;
		if (indefinite(al))
			mem->heap_peak_bytes += al->size;
	}
	s.a = &a;
	s.live = xcalloc(a.nlbs + 1, sizeof *s.live);
	if ((trace = pick_trace(&a)) == -2) {
		why = "a damaged heap simulator trace";
		goto out;
	}
	if (trace >= 0) {
		/* Once for where it peaks, again for what is live there. */
		if (simulate(&s, a.traces[trace], SIZE_MAX, &why) == -1)
			goto out;
		if (!checked_bytes_add(&mem->heap_peak_bytes, s.peak)) {
			why = "a heap past 8 PiB";
			goto out;
		}
		if (s.peak > 0 && simulate(&s, a.traces[trace], s.peak_event,
		    &why) == -1)
			goto out;
		if (s.peak == 0)
			s.nlive = 0;
	}
	if (peak_buffers(mem, m, &a, &s, module) == -1)
		why = "a damaged instruction shape";
out:
	free(s.live);
	assignment_release(&a);
	if (why != NULL) {
		hlo_memory_free(mem);
		*cause = xasprintf("%s", why);
		return -1;
	}
	*memp = mem;
	return 0;
}
