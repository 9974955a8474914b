/*
 * An allocator's MemoryAllocation and MemoryDeallocation events on a host
 * plane (FORMATS.md 6.5): each one's bytes in use after it, kept in time
 * order per plane for `jaxprof memory`.  The layer below the host one.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "classify/classify-event.h"
#include "classify/classify-memory.h"
#include "lib/checked.h"
#include "lib/xmalloc.h"

/* PF_MEMORY_STATS, by index. */
enum {
	MS_ALLOCATOR, MS_BYTES_ALLOCATED, MS_BYTES_RESERVED, MS_BYTES_AVAILABLE,
	MS_PEAK_BYTES_IN_USE, MS_REQUESTED_BYTES, MS_ALLOCATION_BYTES, MS_ADDR,
	MS_REGION_TYPE, MS_DATA_TYPE, MS_SHAPE, MS_FRAGMENTATION,
	MS_INDEX_ON_HOST, MS_DEVICE_ORDINAL, MS_TENSOR_SHAPES, NMS
};

/* TensorFlow's DataType names (types.proto), as xprof shows them. */
static const char *const tf_dtypes[] = {
	[1] = "float", [2] = "double", [3] = "int32", [4] = "uint8",
	[5] = "int16", [6] = "int8", [7] = "string", [8] = "complex64",
	[9] = "int64", [10] = "bool", [14] = "bfloat16", [17] = "uint16",
	[18] = "complex128", [19] = "half", [22] = "uint32", [23] = "uint64",
};

/* The event's memory stats by index; its own over its metadata's. */
static void
memory_stats(const struct pf_event *ev, const struct pf_stat **by)
{
	const struct pf_stat *lists[2] = { ev->meta->stats, ev->stats };
	size_t n[2] = { ev->meta->nstats, ev->nstats }, i, j;
	int k;

	memset(by, 0, NMS * sizeof *by);
	for (j = 0; j < 2; j++)
		for (i = 0; i < n[j]; i++)
			if (lists[j][i].key == PF_KEY_MEMORY &&
			    (k = pf_memory_stat(lists[j][i].name)) >= 0)
				by[k] = &lists[j][i];
}

static uint32_t
stat_text(struct classify *c, const struct pf_stat *st, uint32_t none)
{
	struct pf_bytes b;

	if (st == NULL || !pf_stat_str(st, &b))
		return none;
	return intern(c, b.ptr, b.len);
}

/* A data_type: TensorFlow's enum, or a name. */
static uint32_t
stat_dtype(struct classify *c, const struct pf_stat *st, uint32_t none)
{
	char num[24];
	int64_t v;

	if (st == NULL || st->kind == PF_STR || st->kind == PF_REF)
		return stat_text(c, st, none);
	/* 0 is DT_INVALID: no type. */
	if (!pf_stat_int(st, &v) || v == 0)
		return none;
	if (v > 0 && v < (int64_t)(sizeof tf_dtypes / sizeof tf_dtypes[0]) &&
	    tf_dtypes[v] != NULL)
		return intern_str(c, tf_dtypes[v]);
	snprintf(num, sizeof num, "%" PRId64, v);
	return intern_str(c, num);
}

/*
 * A byte count: -1 if absent; if it is not a count (or past
 * BYTES_LIMIT), 0, and the first such stat's name in why.
 */
static int64_t
stat_bytes(const struct pf_stat *st, char *why, size_t whysz)
{
	int64_t v;

	if (st == NULL)
		return -1;
	if (!pf_stat_int(st, &v) || !bytes_valid(v) || st->kind == PF_DOUBLE ||
	    (st->kind == PF_UINT64 && st->num.u > INT64_MAX)) {
		if (why[0] == '\0')
			snprintf(why, whysz, "%s is not a byte count",
			    st->name);
		return 0;
	}
	return v;
}

static void
keep(struct classify *c, const struct memory_rec *r)
{
	struct plane_summary *p = c->plane;

	p->memory = xgrow1(p->memory, p->nmemory, sizeof *p->memory);
	p->memory[p->nmemory++] = *r;
}

void
memory_event(struct classify *c, const struct pf_event *ev, int64_t start)
{
	const struct pf_stat *by[NMS];
	const char *name = pf_event_name(ev);
	struct memory_rec r;
	char why[96], num[24];
	uint32_t none;
	int64_t v;

	if (strcmp(name, "MemoryAllocation") == 0)
		r.kind = MEM_ALLOC;
	else if (strcmp(name, "MemoryDeallocation") == 0)
		r.kind = MEM_FREE;
	else
		return;
	memory_stats(ev, by);
	none = intern(c, "", 0);
	r.line = c->line_name;
	r.time_ps = start;
	r.step = event_int(c, PF_KEY_GROUP_ID, &v) ? v : -1;
	r.tf_op = stat_text(c, event_stat(c, PF_KEY_TF_OP), none);
	r.region = stat_text(c, by[MS_REGION_TYPE], none);
	r.data_type = stat_dtype(c, by[MS_DATA_TYPE], none);
	r.shape = stat_text(c, by[MS_SHAPE] != NULL ? by[MS_SHAPE] :
	    by[MS_TENSOR_SHAPES], none);
	r.damage = none;
	/* xprof's memory id: the allocator's name, else the device's. */
	if (by[MS_ALLOCATOR] != NULL)
		r.allocator = stat_text(c, by[MS_ALLOCATOR], none);
	else if (pf_stat_int(by[MS_DEVICE_ORDINAL], &v) ||
	    pf_stat_int(by[MS_INDEX_ON_HOST], &v)) {
		snprintf(num, sizeof num, "%" PRId64, v);
		r.allocator = intern_str(c, num);
	} else
		r.allocator = none;
	/*
	 * A state xprof would read as zeros is refused instead: without
	 * its allocator and bytes in use it says nothing true.
	 */
	why[0] = '\0';
	r.heap_bytes = stat_bytes(by[MS_BYTES_ALLOCATED], why, sizeof why);
	r.stack_bytes = stat_bytes(by[MS_BYTES_RESERVED], why, sizeof why);
	r.free_bytes = stat_bytes(by[MS_BYTES_AVAILABLE], why, sizeof why);
	r.lifetime_peak_bytes = stat_bytes(by[MS_PEAK_BYTES_IN_USE], why,
	    sizeof why);
	r.requested_bytes = stat_bytes(by[MS_REQUESTED_BYTES], why,
	    sizeof why);
	r.allocation_bytes = stat_bytes(by[MS_ALLOCATION_BYTES], why,
	    sizeof why);
	r.fragmentation = -1;
	if (by[MS_FRAGMENTATION] != NULL) {
		/* A fraction; allocators write 0 as an integer. */
		if (by[MS_FRAGMENTATION]->kind == PF_DOUBLE)
			r.fragmentation = by[MS_FRAGMENTATION]->num.d;
		else if (pf_stat_int(by[MS_FRAGMENTATION], &v))
			r.fragmentation = (double)v;
		else
			r.fragmentation = -1;
		if (!(r.fragmentation >= 0 && r.fragmentation <= 1))
			snprintf(why, sizeof why, "fragmentation is not in "
			    "[0, 1]");
	}
	r.addr = 0;
	if (by[MS_ADDR] != NULL) {
		if (by[MS_ADDR]->kind == PF_UINT64)
			r.addr = by[MS_ADDR]->num.u;
		else if (pf_stat_int(by[MS_ADDR], &v) &&
		    by[MS_ADDR]->kind != PF_DOUBLE)
			r.addr = (uint64_t)v;
		else
			snprintf(why, sizeof why, "addr is not an address");
	}
	if (why[0] == '\0' && r.allocator == none)
		snprintf(why, sizeof why, "no allocator_name");
	if (why[0] == '\0' && r.heap_bytes < 0)
		snprintf(why, sizeof why, "no bytes_allocated");
	if (why[0] != '\0') {
		r.kind = MEM_DAMAGED;
		r.damage = intern_str(c, why);
	}
	keep(c, &r);
}

void
memory_remap(struct plane_summary *p, const uint32_t *map)
{
	size_t i;

	for (i = 0; i < p->nmemory; i++) {
		struct memory_rec *r = &p->memory[i];

		r->allocator = map[r->allocator];
		r->line = map[r->line];
		r->tf_op = map[r->tf_op];
		r->region = map[r->region];
		r->data_type = map[r->data_type];
		r->shape = map[r->shape];
		r->damage = map[r->damage];
	}
}
