/*
 * The tables of one XPlane: its stat and event metadata by id, and the
 * pool of their stats.  The wire walker (read-xplane.c) fills them, and so
 * does the tests' protobuf-c reference; the lookups events make are inline.
 */
#ifndef JAXPROF_XPLANE_TABLES_H
#define JAXPROF_XPLANE_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "lib/arena.h"
#include "model/profile.h"

/*
 * int64 -> dense index, open addressing; the map keys of XPlane.  Keys
 * below IDMAP_DIRECT (writers number their metadata 1, 2, ...) are kept
 * in an array instead: one load per event and stat.
 */
#define IDMAP_DIRECT	4096

struct idmap {
	uint32_t	*direct;	/* ndirect; val + 1, 0 when absent */
	size_t		 ndirect;
	int64_t		*keys;
	uint32_t	*vals;
	uint8_t		*used;
	size_t		 cap;		/* power of two */
	size_t		 n;
};

static inline size_t
idmap_slot(const struct idmap *m, int64_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 17) & (m->cap - 1);
}

/* 1 and *val when found. */
static inline int
idmap_get(const struct idmap *m, int64_t key, uint32_t *val)
{
	size_t i;

	if (key >= 0 && key < IDMAP_DIRECT) {
		if ((size_t)key >= m->ndirect || m->direct[key] == 0)
			return 0;
		*val = m->direct[key] - 1;
		return 1;
	}
	if (m->cap == 0)
		return 0;
	for (i = idmap_slot(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return 1;
		}
	return 0;
}

/*
 * Plane state shared by both read paths: stat names, event metadata and
 * the scratch arrays that events reuse.
 */
struct plane_tables {
	/* The stat and event metadata names: thousands, freed together. */
	struct arena	 names;
	struct idmap	 stat_ids;	/* stat metadata id -> stat_names index */
	char		**stat_names;
	size_t		*stat_lens;	/* strlen of each, for ref values */
	enum pf_key	*stat_keys;	/* the key of each stat name */
	size_t		 nstat_names;
	/*
	 * The key of each stat metadata id of one or two bytes on the wire
	 * (nearly every id), NO_ID_KEY where the plane has no such entry:
	 * what is_unkeyed_stat() needs.
	 */
	uint8_t		*id_keys;
	size_t		 nid_keys;
	struct idmap	 meta_ids;	/* event metadata id -> metas index */
	struct pf_event_meta *metas;	/* nmetas, + 1 empty once finished */
	size_t		 nmetas;
	struct pf_stat	*stat_pool;	/* metadata and plane stats */
	size_t		 nstat_pool;
	int64_t		*child_pool;
	size_t		 nchild_pool;
};

static inline const char *
tables_stat_name(const struct plane_tables *t, int64_t id,
    struct pf_read_stats *rs, enum pf_key *key, size_t *len)
{
	uint32_t i;

	if (idmap_get(&t->stat_ids, id, &i)) {
		*key = t->stat_keys[i];
		*len = t->stat_lens[i];
		return t->stat_names[i];
	}
	rs->missing_stat_metadata++;
	*key = PF_KEY_OTHER;
	*len = 0;
	return "";
}

/* Resolves a stat's name and, for a reference, its string value. */
static inline void
tables_resolve_stat(const struct plane_tables *t, struct pf_stat *st,
    struct pf_read_stats *rs)
{
	enum pf_key unused;
	size_t len;

	st->name = tables_stat_name(t, st->metadata_id, rs, &st->key, &len);
	if (st->kind == PF_REF)
		st->str.ptr = tables_stat_name(t, (int64_t)st->num.u, rs,
		    &unused, &st->str.len);
}

#define NO_ID_KEY	0xff
#define ID_KEYS_MAX	(1 << 14)	/* the ids of two varint bytes */

/* Sets ev->meta and ev->meta_index from ev->metadata_id. */
static inline __attribute__((always_inline)) void
tables_event_meta(const struct plane_tables *t, struct pf_event *ev,
    struct pf_read_stats *rs)
{
	uint32_t i;

	if (!idmap_get(&t->meta_ids, ev->metadata_id, &i)) {
		rs->missing_event_metadata++;
		i = (uint32_t)t->nmetas;
	}
	ev->meta = &t->metas[i];
	ev->meta_index = i;
}

/*
 * Event metadata values point into the pools by index while the pools
 * grow; pointers are fixed up once the plane's tables are complete.
 */
struct meta_ref {
	size_t	stat_first, nstats;
	size_t	child_first, nchild;
};

/*
 * /host:__ScopeRangeCallStack__ keys its plane stats by scope range id,
 * not by stat metadata (FORMATS.md 3.1): no names to miss there.
 */
int	stats_are_ids(const char *plane_name);
/* Names stat metadata id (the last name given wins). */
void	tables_add_stat_name(struct plane_tables *t, int64_t id,
	    const char *name, size_t len);
/*
 * Returns the slot for event metadata `id`: a later entry with the same key
 * replaces the earlier one in place (protobuf map semantics, last wins).
 */
struct pf_event_meta *tables_meta_slot(struct plane_tables *t, int64_t id);
/* Adds the empty entry that events with an unknown metadata id point to. */
void	tables_finish_metas(struct plane_tables *t);
void	tables_release(struct plane_tables *t);
/* Appends one stat to the plane's pool; returns its index. */
size_t	pool_stat(struct plane_tables *t);

#endif
