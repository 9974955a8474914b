/* Helpers over the normalized stream of profile.h. */
#include "config.h"

#include <string.h>

#include "model/profile.h"

/* Indexed by enum pf_key; names from FORMATS.md section 5. */
static const char *const key_names[PF_NKEYS] = {
	[PF_KEY_BYTES_ACCESSED] = "bytes_accessed",
	[PF_KEY_CUDA_GRAPH_ID] = "cuda_graph_id",
	[PF_KEY_DEVICE_DURATION_PS] = "device_duration_ps",
	[PF_KEY_DEVICE_OFFSET_PS] = "device_offset_ps",
	[PF_KEY_FLOPS] = "flops",
	[PF_KEY_GROUP_ID] = "group_id",
	[PF_KEY_HLO_CATEGORY] = "hlo_category",
	[PF_KEY_HLO_MODULE] = "hlo_module",
	[PF_KEY_HLO_OP] = "hlo_op",
	[PF_KEY_IS_ROOT] = "_r",
	[PF_KEY_KERNEL_DETAILS] = "kernel_details",
	[PF_KEY_MEMCPY_DETAILS] = "memcpy_details",
	[PF_KEY_MEMSET_DETAILS] = "Memset_details",
	[PF_KEY_NAME] = "name",
	[PF_KEY_PROFILE_START_TIME] = "profile_start_time",
	[PF_KEY_PROGRAM_ID] = "program_id",
	[PF_KEY_RUN_ID] = "run_id",
	[PF_KEY_SCOPE_RANGE_ID] = "scope_range_id",
	[PF_KEY_STEP_NUM] = "step_num",
	[PF_KEY_TF_OP] = "tf_op",
	[PF_KEY_CORRELATION_ID] = "correlation_id",
};

enum pf_key
pf_key_of(const char *name)
{
	int k;

	for (k = 1; k < PF_NKEYS; k++)
		if (key_names[k] != NULL && strcmp(key_names[k], name) == 0)
			return (enum pf_key)k;
	return pf_memory_stat(name) >= 0 ? PF_KEY_MEMORY : PF_KEY_OTHER;
}

int
pf_memory_stat(const char *name)
{
	static const char *const names[] = { PF_MEMORY_STATS };
	size_t i;

	/* A first letter apart is most names: no call then. */
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i][0] == name[0] && strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

const struct pf_stat *
pf_stat_find(const struct pf_stat *stats, size_t n, enum pf_key key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (stats[i].key == key)
			return &stats[i];
	return NULL;
}

const struct pf_stat *
pf_event_stat(const struct pf_event *ev, enum pf_key key)
{
	const struct pf_stat *st;

	st = pf_stat_find(ev->stats, ev->nstats, key);
	if (st == NULL)
		st = pf_stat_find(ev->meta->stats, ev->meta->nstats, key);
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
