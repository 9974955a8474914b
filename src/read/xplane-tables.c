/* The tables of one XPlane (xplane-tables.h): filled, finished, freed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/arena.h"
#include "lib/xmalloc.h"
#include "read/xplane-tables.h"

static void
idmap_put(struct idmap *m, int64_t key, uint32_t val)
{
	size_t i;

	if (key >= 0 && key < IDMAP_DIRECT) {
		if ((size_t)key >= m->ndirect) {
			size_t n = (size_t)key < 32 ? 64 : (size_t)key * 2;

			if (n > IDMAP_DIRECT)
				n = IDMAP_DIRECT;
			m->direct = xreallocarray(m->direct, n,
			    sizeof *m->direct);
			memset(m->direct + m->ndirect, 0,
			    (n - m->ndirect) * sizeof *m->direct);
			m->ndirect = n;
		}
		m->direct[key] = val + 1;
		return;
	}
	if ((m->n + 1) * 2 > m->cap) {
		struct idmap old = *m;
		size_t j;

		m->cap = old.cap == 0 ? 64 : old.cap * 2;
		m->keys = xcalloc(m->cap, sizeof *m->keys);
		m->vals = xcalloc(m->cap, sizeof *m->vals);
		m->used = xcalloc(m->cap, 1);
		m->n = 0;
		for (j = 0; j < old.cap; j++)
			if (old.used[j])
				idmap_put(m, old.keys[j], old.vals[j]);
		free(old.keys);
		free(old.vals);
		free(old.used);
	}
	for (i = idmap_slot(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

static void
idmap_release(struct idmap *m)
{
	free(m->direct);
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof *m);
}

/*
 * /host:__ScopeRangeCallStack__ keys its plane stats by scope range id,
 * not by stat metadata (FORMATS.md 3.1): no names to miss there.
 */
int
stats_are_ids(const char *plane_name)
{
	return strcmp(plane_name, "/host:__ScopeRangeCallStack__") == 0;
}

/* Keeps t->id_keys in step with the stat names. */
static void
tables_key_id(struct plane_tables *t, int64_t id, enum pf_key key)
{
	size_t n;

	if (id < 0 || id >= ID_KEYS_MAX)
		return;
	if ((size_t)id >= t->nid_keys) {
		n = 2 * (size_t)id + 16 < ID_KEYS_MAX ? 2 * (size_t)id + 16 :
		    ID_KEYS_MAX;
		t->id_keys = xreallocarray(t->id_keys, n, 1);
		memset(t->id_keys + t->nid_keys, NO_ID_KEY, n - t->nid_keys);
		t->nid_keys = n;
	}
	t->id_keys[id] = (uint8_t)key;
}

void
tables_add_stat_name(struct plane_tables *t, int64_t id, const char *name,
    size_t len)
{
	uint32_t i;

	if (!idmap_get(&t->stat_ids, id, &i)) {
		i = (uint32_t)t->nstat_names;
		t->stat_names = xgrow1(t->stat_names, i, sizeof *t->stat_names);
		t->stat_keys = xgrow1(t->stat_keys, i, sizeof *t->stat_keys);
		t->stat_lens = xgrow1(t->stat_lens, i, sizeof *t->stat_lens);
		t->nstat_names++;
		idmap_put(&t->stat_ids, id, i);
	}
	t->stat_names[i] = arena_strndup(&t->names, name, len);
	t->stat_lens[i] = strlen(t->stat_names[i]);	/* to a NUL within */
	t->stat_keys[i] = pf_key_of(t->stat_names[i]);
	tables_key_id(t, id, t->stat_keys[i]);
}

/*
 * Returns the slot for event metadata `id`: a later entry with the same key
 * replaces the earlier one in place (protobuf map semantics, last wins).
 */
struct pf_event_meta *
tables_meta_slot(struct plane_tables *t, int64_t id)
{
	struct pf_event_meta *m;
	uint32_t i;

	if (idmap_get(&t->meta_ids, id, &i))
		m = &t->metas[i];
	else {
		t->metas = xgrow1(t->metas, t->nmetas, sizeof *t->metas);
		i = (uint32_t)t->nmetas++;
		idmap_put(&t->meta_ids, id, i);
		m = &t->metas[i];
	}
	memset(m, 0, sizeof *m);
	m->id = id;
	m->index = i;
	return m;
}

/* Adds the empty entry that events with an unknown metadata id point to. */
void
tables_finish_metas(struct plane_tables *t)
{
	struct pf_event_meta *m;

	t->metas = xgrow1(t->metas, t->nmetas, sizeof *t->metas);
	m = &t->metas[t->nmetas];
	memset(m, 0, sizeof *m);
	m->index = (uint32_t)t->nmetas;
	m->name = m->display_name = "";
}

void
tables_release(struct plane_tables *t)
{
	arena_release(&t->names);
	free(t->stat_names);
	free(t->stat_keys);
	free(t->stat_lens);
	free(t->id_keys);
	free(t->metas);
	free(t->stat_pool);
	free(t->child_pool);
	idmap_release(&t->stat_ids);
	idmap_release(&t->meta_ids);
	memset(t, 0, sizeof *t);
}

/* Appends one stat to the plane's pool; returns its index. */
size_t
pool_stat(struct plane_tables *t)
{
	t->stat_pool = xgrow1(t->stat_pool, t->nstat_pool,
	    sizeof *t->stat_pool);
	return t->nstat_pool++;
}
