/*
 * XSpace (`*.xplane.pb`) reader: a walker over the protobuf wire format;
 * a long line's events may be decoded ahead by a thread lent to it.
 */
#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arena.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "read/read-xplane.h"
#include "read/xplane-tables.h"
#include "lib/varint.h"
#include "lib/xmalloc.h"

/* Field numbers and wire types of proto/xplane.proto (FORMATS.md 2.1). */
enum {
	WT_VARINT = 0,
	WT_FIXED64 = 1,
	WT_LEN = 2,
	WT_GROUP_START = 3,
	WT_GROUP_END = 4,
	WT_FIXED32 = 5,
};

struct cur {
	const uint8_t	*p;
	const uint8_t	*end;
};

struct walker {
	const uint8_t	*base;		/* byte 0 of the file */
	const uint8_t	*limit;		/* its end: readable up to here */
	struct source	*src;
	size_t		 released;	/* pages before this offset dropped */
	char		*cause;
	struct pf_read_stats *rs;
	struct pf_stat	*scratch;	/* one event's stats */
	size_t		 scratch_cap;
	int		 ahead;		/* reading a line before its turn */
	struct board	*board;		/* long lines are helped on, or NULL */
	int		 keyed_stats_only;	/* the handler's */
	int		 memory_stats;		/* the handler's */
	int64_t		 origin_ns;	/* subtracted from line times */
};

static int
walker_fail(struct walker *w, const uint8_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
walker_fail(struct walker *w, const uint8_t *at, const char *fmt, ...)
{
	va_list ap;
	char *what;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	what = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(what, (size_t)n + 1, fmt, ap);
	va_end(ap);
	w->cause = xasprintf("at byte %zu: %s", (size_t)(at - w->base), what);
	free(what);
	return -1;
}

static int
get_varint_slow(struct walker *w, struct cur *c, uint64_t *v,
    const char *msg)
{
	const uint8_t *start = c->p;
	uint64_t x = 0;
	int shift;

	for (shift = 0; shift < 70; shift += 7) {
		uint8_t b;

		if (c->p >= c->end)
			return walker_fail(w, start, "truncated varint in %s", msg);
		b = *c->p++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if ((b & 0x80) == 0) {
			*v = x;
			return 0;
		}
	}
	return walker_fail(w, start, "varint longer than 10 bytes in %s", msg);
}

/*
 * Most varints on the wire (tags, small ids) are one byte; times and
 * durations a few.  With 10 bytes left in the file a varint cannot run
 * past the mapping: no bounds test per byte then, one at the end (a
 * small message often ends less than 10 bytes after a varint).
 */
static inline __attribute__((always_inline)) int
get_varint(struct walker *w, struct cur *c, uint64_t *v, const char *msg)
{
	const uint8_t *p = c->p;
	size_t n;

	if (p < c->end && *p < 0x80) {
		*v = *p;
		c->p = p + 1;
		return 0;
	}
	if (p >= c->end || w->limit - p < 10 ||
	    (n = varint_word(p, v)) == 0 ||
	    n > (size_t)(c->end - p))
		return get_varint_slow(w, c, v, msg);	/* and its message */
	c->p = p + n;
	return 0;
}

static int
get_tag_slow(struct walker *w, struct cur *c, uint32_t *field, int *wt,
    const char *msg)
{
	const uint8_t *start = c->p;
	uint64_t tag;

	*field = 0;
	*wt = 0;
	if (get_varint(w, c, &tag, msg) == -1)
		return -1;
	*wt = (int)(tag & 7);
	if ((tag >> 3) == 0 || (tag >> 3) > 0x1fffffff)
		return walker_fail(w, start, "invalid field number %llu in %s",
		    (unsigned long long)(tag >> 3), msg);
	*field = (uint32_t)(tag >> 3);
	return 0;
}

/* Fields 1-15 have one-byte tags: nearly every tag on the wire. */
static inline int
get_tag(struct walker *w, struct cur *c, uint32_t *field, int *wt,
    const char *msg)
{
	if (c->p < c->end && *c->p >= 8 && *c->p < 0x80) {
		*wt = *c->p & 7;
		*field = *c->p++ >> 3;
		return 0;
	}
	return get_tag_slow(w, c, field, wt, msg);
}

static int
len_past_end(struct walker *w, const uint8_t *start, uint64_t len,
    const struct cur *c, const char *msg)
{
	return walker_fail(w, start, "length %llu in %s runs past the end of its "
	    "message (%zu bytes left)", (unsigned long long)len, msg,
	    (size_t)(c->end - c->p));
}

/* A length-delimited payload as a sub-cursor. */
static inline int
get_len(struct walker *w, struct cur *c, struct cur *sub, const char *msg)
{
	const uint8_t *start = c->p;
	uint64_t len;

	sub->p = sub->end = c->p;
	if (get_varint(w, c, &len, msg) == -1)
		return -1;
	if (len > (uint64_t)(c->end - c->p))
		return len_past_end(w, start, len, c, msg);
	sub->p = c->p;
	sub->end = c->p + len;
	c->p += len;
	return 0;
}

static int
get_fixed64(struct walker *w, struct cur *c, uint64_t *v, const char *msg)
{
	int i;

	if (c->end - c->p < 8)
		return walker_fail(w, c->p, "truncated 64-bit value in %s", msg);
	*v = 0;
	for (i = 7; i >= 0; i--)
		*v = (*v << 8) | c->p[i];
	c->p += 8;
	return 0;
}

static int
skip_field(struct walker *w, struct cur *c, int wt, const char *msg)
{
	struct cur sub;
	uint64_t v;

	switch (wt) {
	case WT_VARINT:
		return get_varint(w, c, &v, msg);
	case WT_FIXED64:
		return get_fixed64(w, c, &v, msg);
	case WT_LEN:
		return get_len(w, c, &sub, msg);
	case WT_FIXED32:
		if (c->end - c->p < 4)
			return walker_fail(w, c->p, "truncated 32-bit value in %s",
			    msg);
		c->p += 4;
		return 0;
	case WT_GROUP_START:
	case WT_GROUP_END:
		return walker_fail(w, c->p, "unsupported group wire type in %s", msg);
	default:
		return walker_fail(w, c->p, "invalid wire type %d in %s", wt, msg);
	}
}

/* Checks that field `field` of msg came with the wire type it must have. */
static int
want_wt(struct walker *w, const uint8_t *at, int wt, int want, uint32_t field,
    const char *msg)
{
	if (wt == want)
		return 0;
	return walker_fail(w, at, "field %u of %s has wire type %d, expected %d",
	    field, msg, wt, want);
}

static int
get_string(struct walker *w, struct cur *c, int wt, uint32_t field,
    const char *msg, struct pf_bytes *out)
{
	const uint8_t *at = c->p;
	struct cur sub;

	if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
	    get_len(w, c, &sub, msg) == -1)
		return -1;
	out->ptr = (const char *)sub.p;
	out->len = (size_t)(sub.end - sub.p);
	return 0;
}

static inline int
get_int_field(struct walker *w, struct cur *c, int wt, uint32_t field,
    const char *msg, int64_t *out)
{
	uint64_t v;

	if (wt != WT_VARINT) {
		(void)want_wt(w, c->p, wt, WT_VARINT, field, msg);
		return -1;	/* with want_wt's message */
	}
	if (get_varint(w, c, &v, msg) == -1)
		return -1;
	*out = (int64_t)v;
	return 0;
}

/*
 * The kind of XStat's integer fields 3, 4 and 7, by a table: the branches
 * of a choice mispredict, as kinds change stat to stat.
 */
static const enum pf_value_kind int_kind_of_field[8] = {
	[3] = PF_UINT64, [4] = PF_INT64, [7] = PF_REF,
};

/* Decodes one XStat; the name is resolved later. */
static int
decode_stat(struct walker *w, struct cur c, struct pf_stat *st)
{
	static const char msg[] = "XStat";

	memset(st, 0, sizeof *st);
	/*
	 * Nearly every stat is a one-byte metadata id, then an integer or a
	 * reference: those two fields read straight, as the loop would.
	 */
	if (c.end - c.p >= 3 && c.p[0] == (1 << 3 | WT_VARINT) &&
	    c.p[1] < 0x80 && (c.p[2] == (3 << 3 | WT_VARINT) ||
	    c.p[2] == (4 << 3 | WT_VARINT) || c.p[2] == (7 << 3 | WT_VARINT))) {
		uint32_t field = c.p[2] >> 3;
		uint64_t v;

		st->metadata_id = c.p[1];
		c.p += 3;
		if (get_varint(w, &c, &v, msg) == -1)
			return -1;
		st->num.u = v;
		st->kind = int_kind_of_field[field];
	}
	while (c.p < c.end) {
		const uint8_t *at;
		uint32_t field;
		uint64_t v = 0;
		int wt;

		if (get_tag(w, &c, &field, &wt, msg) == -1)
			return -1;
		at = c.p;
		switch (field) {
		case 1:
			if (get_int_field(w, &c, wt, field, msg,
			    &st->metadata_id) == -1)
				return -1;
			break;
		case 2:
			if (want_wt(w, at, wt, WT_FIXED64, field, msg) == -1 ||
			    get_fixed64(w, &c, &v, msg) == -1)
				return -1;
			memcpy(&st->num.d, &v, sizeof v);
			st->kind = PF_DOUBLE;
			st->str.ptr = NULL;
			st->str.len = 0;
			break;
		case 3:
		case 4:
		case 7:
			if (want_wt(w, at, wt, WT_VARINT, field, msg) == -1 ||
			    get_varint(w, &c, &v, msg) == -1)
				return -1;
			st->num.u = v;
			st->kind = int_kind_of_field[field];
			st->str.ptr = NULL;
			st->str.len = 0;
			break;
		case 5:
		case 6:
			if (get_string(w, &c, wt, field, msg, &st->str) == -1)
				return -1;
			st->kind = field == 5 ? PF_STR : PF_BYTES;
			st->num.u = 0;
			break;
		default:
			if (skip_field(w, &c, wt, msg) == -1)
				return -1;
		}
	}
	return 0;
}

/* Whether one varint (of at most 10 bytes) fills [p, end). */
static inline int
varint_fills(const uint8_t *p, const uint8_t *end)
{
	if (end <= p || end - p > 10 || end[-1] >= 0x80)
		return 0;
	for (end--; p < end; p++)
		if (*p < 0x80)
			return 0;
	return 1;
}

/* Whether the value of a stat without a key fills [p, end) (see below). */
static inline __attribute__((always_inline)) int
unkeyed_value_fills(const struct plane_tables *t, const uint8_t *p,
    const uint8_t *end)
{
	uint64_t v = 0;
	uint32_t unused;
	size_t n;
	int shift;

	if (p == end)
		return 0;
	switch (*p++) {
	case 2 << 3 | WT_FIXED64:
		return end - p == 8;
	case 3 << 3 | WT_VARINT:
	case 4 << 3 | WT_VARINT:
		return varint_fills(p, end);
	case 7 << 3 | WT_VARINT:
		/* A reference resolves to a name: it must exist. */
		if (!varint_fills(p, end))
			return 0;
		for (shift = 0; p < end; shift += 7)
			v |= (uint64_t)(*p++ & 0x7f) << shift;
		return idmap_get(&t->stat_ids, (int64_t)v, &unused);
	case 5 << 3 | WT_LEN:
	case 6 << 3 | WT_LEN:
		for (n = 0, shift = 0; p < end && shift < 70; shift += 7) {
			n |= (size_t)(*p & 0x7f) << shift;
			if (*p++ < 0x80)
				return (size_t)(end - p) == n;
		}
		return 0;
	}
	return 0;
}

/*
 * Whether XStat c may be left out for a handler that reads stats by key
 * only: its name has no key, and it has the form nearly every stat has,
 * a metadata id of one or two bytes and one value filling the rest.  Then
 * decoding it could neither fail nor count a missing name; any other stat
 * is decoded in full, and so checked, as for every handler.
 */
static inline __attribute__((always_inline)) int
is_unkeyed_stat(const struct plane_tables *t, struct cur c, int memory)
{
	const uint8_t *p = c.p;
	size_t id;
	uint8_t key;

	if (c.end - p < 4 || p[0] != (1 << 3 | WT_VARINT))
		return 0;
	if (p[1] < 0x80) {
		id = p[1];
		p += 2;
	} else if (p[2] < 0x80 && p[2] > 0) {
		id = (size_t)(p[1] & 0x7f) | (size_t)p[2] << 7;
		p += 3;
	} else
		return 0;
	if (id >= t->nid_keys)
		return 0;
	key = t->id_keys[id];
	return (key == PF_KEY_OTHER || (key == PF_KEY_MEMORY && !memory)) &&
	    unkeyed_value_fills(t, p, c.end);
}

static int
decode_event_meta(struct walker *w, struct plane_tables *t, struct cur c,
    struct pf_event_meta *m, struct meta_ref *ref)
{
	static const char msg[] = "XEventMetadata";
	struct pf_bytes name = { "", 0 }, display = { "", 0 };

	ref->stat_first = t->nstat_pool;
	ref->child_first = t->nchild_pool;
	ref->nstats = ref->nchild = 0;
	while (c.p < c.end) {
		const uint8_t *at;
		struct cur sub;
		uint32_t field;
		uint64_t v;
		int64_t id;
		size_t k;
		int wt;

		if (get_tag(w, &c, &field, &wt, msg) == -1)
			return -1;
		at = c.p;
		switch (field) {
		case 1:
			if (get_int_field(w, &c, wt, field, msg, &id) == -1)
				return -1;
			break;
		case 2:
			if (get_string(w, &c, wt, field, msg, &name) == -1)
				return -1;
			break;
		case 3:
			if (get_string(w, &c, wt, field, msg,
			    &m->metadata) == -1)
				return -1;
			break;
		case 4:
			if (get_string(w, &c, wt, field, msg, &display) == -1)
				return -1;
			break;
		case 5:
			if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
			    get_len(w, &c, &sub, msg) == -1)
				return -1;
			k = pool_stat(t);
			if (decode_stat(w, sub, &t->stat_pool[k]) == -1)
				return -1;
			ref->nstats++;
			break;
		case 6:
			/* child_id: packed or not, as protobuf accepts both */
			if (wt == WT_LEN) {
				if (get_len(w, &c, &sub, msg) == -1)
					return -1;
				while (sub.p < sub.end) {
					if (get_varint(w, &sub, &v, msg) == -1)
						return -1;
					t->child_pool = xgrow1(t->child_pool,
					    t->nchild_pool,
					    sizeof *t->child_pool);
					t->child_pool[t->nchild_pool++] =
					    (int64_t)v;
					ref->nchild++;
				}
				break;
			}
			if (get_int_field(w, &c, wt, field, msg, &id) == -1)
				return -1;
			t->child_pool = xgrow1(t->child_pool, t->nchild_pool,
			    sizeof *t->child_pool);
			t->child_pool[t->nchild_pool++] = id;
			ref->nchild++;
			break;
		default:
			if (skip_field(w, &c, wt, msg) == -1)
				return -1;
		}
	}
	m->name = arena_strndup(&t->names, name.ptr, name.len);
	m->display_name = display.len == 0 ? "" :
	    arena_strndup(&t->names, display.ptr, display.len);
	return 0;
}

/* A map entry: key (field 1, int64) and value (field 2, a message). */
static int
decode_map_entry(struct walker *w, struct cur c, const char *msg,
    int64_t *key, struct cur *value)
{
	*key = 0;
	value->p = value->end = c.p;	/* absent value: empty message */
	while (c.p < c.end) {
		const uint8_t *at;
		uint32_t field;
		int wt;

		if (get_tag(w, &c, &field, &wt, msg) == -1)
			return -1;
		at = c.p;
		if (field == 1) {
			if (get_int_field(w, &c, wt, field, msg, key) == -1)
				return -1;
		} else if (field == 2) {
			if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
			    get_len(w, &c, value, msg) == -1)
				return -1;
		} else if (skip_field(w, &c, wt, msg) == -1)
			return -1;
	}
	return 0;
}

static int
decode_stat_meta(struct walker *w, struct cur c, struct plane_tables *t,
    int64_t key)
{
	static const char msg[] = "XStatMetadata";
	struct pf_bytes name = { "", 0 }, unused;

	while (c.p < c.end) {
		uint32_t field;
		int64_t id;
		int wt;

		if (get_tag(w, &c, &field, &wt, msg) == -1)
			return -1;
		if (field == 1) {
			if (get_int_field(w, &c, wt, field, msg, &id) == -1)
				return -1;
		} else if (field == 2) {
			if (get_string(w, &c, wt, field, msg, &name) == -1)
				return -1;
		} else if (field == 3) {
			if (get_string(w, &c, wt, field, msg, &unused) == -1)
				return -1;
		} else if (skip_field(w, &c, wt, msg) == -1)
			return -1;
	}
	tables_add_stat_name(t, key, name.ptr, name.len);
	return 0;
}

/*
 * An XLine that is not empty, and its number among the plane's lines: an
 * empty one (no byte: no id, name or event) is only counted, so that
 * memory follows what lines hold, not how many there are.
 */
struct line_ref {
	struct cur	 c;
	size_t		 at;
};

/* The parts of an XPlane found by the first, metadata-only scan. */
struct plane_scan {
	struct pf_plane	 plane;		/* nlines: empty ones included */
	struct pf_bytes	 name;
	struct line_ref	*lines;		/* the others, in order */
	size_t		 nrefs;
	struct cur	*metas;		/* event_metadata entries */
	size_t		 nmetas;
	struct cur	*stats;		/* plane stats */
	size_t		 nstats;
};

static void
plane_scan_release(struct plane_scan *ps)
{
	free((char *)ps->plane.name);
	free(ps->lines);
	free(ps->metas);
	free(ps->stats);
	memset(ps, 0, sizeof *ps);
}

static void
push_cur(struct cur **v, size_t *n, struct cur c)
{
	*v = xgrow1(*v, *n, sizeof **v);
	(*v)[(*n)++] = c;
}

/*
 * First pass over an XPlane: everything but the lines, so that names are
 * known before the first event (protobuf writes metadata after lines).
 */
static int
scan_plane(struct walker *w, struct cur c, struct plane_tables *t,
    struct plane_scan *ps)
{
	static const char msg[] = "XPlane";
	struct pf_read_stats ignored;
	struct meta_ref *refs = NULL;
	size_t i;
	int rc = -1;

	memset(ps, 0, sizeof *ps);
	ps->name.ptr = "";
	while (c.p < c.end) {
		const uint8_t *at;
		struct cur sub, value;
		uint32_t field;
		int64_t key;
		int wt;

		if (get_tag(w, &c, &field, &wt, msg) == -1)
			goto out;
		at = c.p;
		switch (field) {
		case 1:
			if (get_int_field(w, &c, wt, field, msg,
			    &ps->plane.id) == -1)
				goto out;
			break;
		case 2:
			if (get_string(w, &c, wt, field, msg, &ps->name) == -1)
				goto out;
			break;
		case 3:
			if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
			    get_len(w, &c, &sub, msg) == -1)
				goto out;
			/* Found once: the metadata after them is long. */
			if (sub.p < sub.end) {
				ps->lines = xgrow1(ps->lines, ps->nrefs,
				    sizeof *ps->lines);
				ps->lines[ps->nrefs].c = sub;
				ps->lines[ps->nrefs++].at = ps->plane.nlines;
			}
			ps->plane.nlines++;
			break;
		case 4:
			if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
			    get_len(w, &c, &sub, msg) == -1)
				goto out;
			push_cur(&ps->metas, &ps->nmetas, sub);
			break;
		case 5:
			if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
			    get_len(w, &c, &sub, msg) == -1 ||
			    decode_map_entry(w, sub, "XPlane.stat_metadata entry",
			    &key, &value) == -1 ||
			    decode_stat_meta(w, value, t, key) == -1)
				goto out;
			break;
		case 6:
			if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
			    get_len(w, &c, &sub, msg) == -1)
				goto out;
			push_cur(&ps->stats, &ps->nstats, sub);
			break;
		default:
			if (skip_field(w, &c, wt, msg) == -1)
				goto out;
		}
	}
	ps->plane.name = xstrndup(ps->name.ptr, ps->name.len);

	/* Event metadata, now that every stat name is known. */
	refs = xcalloc(ps->nmetas, sizeof *refs);
	for (i = 0; i < ps->nmetas; i++) {
		struct pf_event_meta *m;
		struct cur value;
		int64_t key;

		if (decode_map_entry(w, ps->metas[i],
		    "XPlane.event_metadata entry", &key, &value) == -1)
			goto out;
		m = tables_meta_slot(t, key);
		if (decode_event_meta(w, t, value, m, &refs[m->index]) == -1)
			goto out;
	}
	{
		size_t first = t->nstat_pool;

		for (i = 0; i < ps->nstats; i++) {
			size_t k = pool_stat(t);

			if (decode_stat(w, ps->stats[i], &t->stat_pool[k]) ==
			    -1)
				goto out;
		}
		memset(&ignored, 0, sizeof ignored);
		for (i = 0; i < t->nstat_pool; i++)
			tables_resolve_stat(t, &t->stat_pool[i],
			    i >= first && stats_are_ids(ps->plane.name) ?
			    &ignored : w->rs);
		/* No pool yet is NULL, and NULL + 0 is undefined. */
		ps->plane.stats = t->stat_pool != NULL ?
		    t->stat_pool + first : NULL;
		ps->plane.nstats = ps->nstats;
	}
	for (i = 0; i < t->nmetas; i++) {
		t->metas[i].stats = t->stat_pool != NULL ?
		    t->stat_pool + refs[i].stat_first : NULL;
		t->metas[i].nstats = refs[i].nstats;
		t->metas[i].child_ids = t->child_pool != NULL ?
		    t->child_pool + refs[i].child_first : NULL;
		t->metas[i].nchild_ids = refs[i].nchild;
	}
	tables_finish_metas(t);
	ps->plane.metas = t->metas;
	ps->plane.nmetas = t->nmetas;
	rc = 0;
out:
	free(refs);
	return rc;
}

static struct pf_stat *
scratch_stat(struct walker *w, size_t n)
{
	if (n >= w->scratch_cap) {
		w->scratch_cap = w->scratch_cap == 0 ? 16 : w->scratch_cap * 2;
		w->scratch = xreallocarray(w->scratch, w->scratch_cap,
		    sizeof *w->scratch);
	}
	return &w->scratch[n];
}

/* The hot loop: one XEvent, decoded by hand, inlined in read_line(). */
static inline __attribute__((always_inline)) int
decode_event(struct walker *w, struct cur c, const struct plane_tables *t,
    int64_t line_ps, struct pf_event *ev)
{
	static const char msg[] = "XEvent";
	/* 8 bytes can be read at any varint of the event (varint_word()). */
	int roomy = w->limit - c.end >= 8;
	uint64_t v;
	size_t i, n;

	memset(ev, 0, sizeof *ev);
	/*
	 * Nearly every event begins with its metadata id, offset and
	 * duration, in that order: those read straight, as the loop would,
	 * each a word at a time when it ends inside the event.
	 */
#define USUAL_FIELD(number, to)						\
	if (c.p < c.end && *c.p == ((number) << 3 | WT_VARINT)) {	\
		if (roomy && (n = varint_word(c.p + 1, &v)) != 0 && \
		    n < (size_t)(c.end - c.p))				\
			c.p += 1 + n;					\
		else if (c.p++, get_varint(w, &c, &v, msg) == -1)	\
			return -1;					\
		(to) = (int64_t)v;					\
	}
	USUAL_FIELD(1, ev->metadata_id)
	USUAL_FIELD(2, ev->offset_ps)
	USUAL_FIELD(3, ev->duration_ps)
#undef USUAL_FIELD
	while (c.p < c.end) {
		const uint8_t *at;
		struct cur sub;
		uint32_t field;
		int wt;

		if (get_tag(w, &c, &field, &wt, msg) == -1)
			return -1;
		at = c.p;
		switch (field) {
		case 1:
			if (get_int_field(w, &c, wt, field, msg,
			    &ev->metadata_id) == -1)
				return -1;
			break;
		case 2:
			if (get_int_field(w, &c, wt, field, msg,
			    &ev->offset_ps) == -1)
				return -1;
			ev->aggregated = 0;
			ev->num_occurrences = 0;
			break;
		case 3:
			if (get_int_field(w, &c, wt, field, msg,
			    &ev->duration_ps) == -1)
				return -1;
			break;
		case 4:
			if (want_wt(w, at, wt, WT_LEN, field, msg) == -1 ||
			    get_len(w, &c, &sub, msg) == -1)
				return -1;
			if (w->keyed_stats_only && is_unkeyed_stat(t, sub,
			    w->memory_stats))
				break;
			if (decode_stat(w, sub, scratch_stat(w, ev->nstats)) ==
			    -1)
				return -1;
			ev->nstats++;
			break;
		case 5:
			if (get_int_field(w, &c, wt, field, msg,
			    &ev->num_occurrences) == -1)
				return -1;
			ev->aggregated = 1;
			ev->offset_ps = 0;
			break;
		default:
			if (skip_field(w, &c, wt, msg) == -1)
				return -1;
		}
	}
	for (i = 0; i < ev->nstats; i++)
		tables_resolve_stat(t, &w->scratch[i], w->rs);
	ev->stats = w->scratch;
	tables_event_meta(t, ev, w->rs);
	/* -1 past the range: check_event_times() says which field is out. */
	ev->start_ps = ps_valid(ev->offset_ps) ? line_ps + ev->offset_ps : -1;
	return 0;
}

/*
 * Impossible times (jaxprof(1), IMPOSSIBLE TIMES): a negative or huge line
 * timestamp, event offset or duration, or a start past PS_LIMIT, rejects
 * the file with a message naming the plane, line, event and value.  In a
 * file stamped with the epoch, line times are rebased to its origin here.
 */
static int
check_line_time(struct walker *w, const uint8_t *at,
    const struct pf_plane *plane, struct pf_line *line,
    struct pf_bytes name)
{
	int64_t ts = line->timestamp_ns, o = w->origin_ns;

	if (o == 0 && ts >= 0 && ts <= PS_LIMIT / 1000)
		return 0;
	if (o == 0)
		return walker_fail(w, at, "plane '%s' line '%.*s': impossible "
		    "timestamp_ns %lld (must be 0 to %lld)", plane->name,
		    (int)name.len, name.ptr, (long long)ts,
		    (long long)(PS_LIMIT / 1000));
	/* Rebased (xspace_open()); a line without events has no times. */
	if (ts >= o && ts - o <= PS_LIMIT / 1000) {
		line->timestamp_ns = ts - o;
		return 0;
	}
	if (line->nevents == 0) {
		line->timestamp_ns = 0;
		return 0;
	}
	return walker_fail(w, at, "plane '%s' line '%.*s': impossible timestamp_ns "
	    "%lld (must be from the earliest line's, %lld, to %lld ns after "
	    "it)", plane->name, (int)name.len, name.ptr, (long long)ts,
	    (long long)o, (long long)(PS_LIMIT / 1000));
}

static int
bad_event_time(struct walker *w, const uint8_t *at,
    const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_event *ev)
{
	const char *what;
	int64_t v;

	if (!ps_valid(ev->duration_ps)) {
		what = "duration_ps";
		v = ev->duration_ps;
	} else if (!ps_valid(ev->offset_ps)) {
		what = "offset_ps";
		v = ev->offset_ps;
	} else if (!ps_valid(ev->start_ps)) {
		what = "start (timestamp_ns * 1000 + offset_ps)";
		v = line->timestamp_ns * 1000 + ev->offset_ps;
	} else
		return 0;
	return walker_fail(w, at, "plane '%s' line '%s' event '%s': impossible %s "
	    "%lld (must be 0 to %lld)", plane->name, line->name,
	    pf_event_name(ev), what, (long long)v, (long long)PS_LIMIT);
}

/* Inlined in both event loops, as decode_event(). */
static inline __attribute__((always_inline)) int
check_event_times(struct walker *w, const uint8_t *at,
    const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_event *ev)
{
	/* A start in range has its offset in range (decode_event()). */
	if (ps_valid(ev->duration_ps) && ps_valid(ev->start_ps))
		return 0;
	return bad_event_time(w, at, plane, line, ev);
}

/*
 * Whether an XLine's field at p (before end) is an event under 128 bytes
 * whole before end: a one-byte tag and length, most of a line's events.
 */
static inline int
is_short_event(const uint8_t *p, const uint8_t *end)
{
	return end - p >= 2 && p[0] == (4 << 3 | WT_LEN) && p[1] < 0x80 &&
	    p[1] <= end - p - 2;
}

/* Events a segment of a long line has (read_long_line()). */
#define SEGMENT_EVENTS	4096

/* An XLine's fields but its events, from the header scan. */
struct line_head {
	struct cur	 c;		/* the whole XLine */
	struct pf_line	 line;		/* but its names */
	struct pf_bytes	 name, display;
	/* Where each SEGMENT_EVENTS events end (line_head_release()). */
	const uint8_t	**segment_ends;
	size_t		 nsegment_ends;
};

static void
line_head_release(struct line_head *lh)
{
	free(lh->segment_ends);
	lh->segment_ends = NULL;
}

/* Notes the end of a segment at p when line *lh's events just filled one. */
static inline void
note_segment_end(struct line_head *lh, const uint8_t *p)
{
	if (lh->line.nevents % SEGMENT_EVENTS != 0)
		return;
	lh->segment_ends = xgrow1(lh->segment_ends, lh->nsegment_ends,
	    sizeof *lh->segment_ends);
	lh->segment_ends[lh->nsegment_ends++] = p;
}

/* The header scan of XLine c into *lh. */
static int
scan_line(struct walker *w, struct cur c, struct line_head *lh)
{
	static const char msg[] = "XLine";
	struct pf_line *line = &lh->line;
	struct cur scan = c, sub;
	size_t scan_mark = (size_t)(c.p - w->base);
	int rc;

	memset(lh, 0, sizeof *lh);
	lh->c = c;
	lh->name.ptr = lh->display.ptr = "";
	while (scan.p < scan.end) {
		const uint8_t *at, *p = scan.p;
		size_t hops = 0, room = SEGMENT_EVENTS -
		    line->nevents % SEGMENT_EVENTS;
		uint32_t field;
		int wt;

		/*
		 * Most of a line is events under 128 bytes: tag, length,
		 * bytes, hopped over in a loop of their own, up to the end
		 * of a segment.
		 */
		while (hops < room && is_short_event(p, scan.end)) {
			p += 2 + p[1];
			if ((++hops & 63) == 0)
				source_release(w->src, &scan_mark,
				    (size_t)(p - w->base));
		}
		if (hops > 0) {
			scan.p = p;
			line->nevents += hops;
			note_segment_end(lh, p);
			continue;
		}
		if (get_tag(w, &scan, &field, &wt, msg) == -1) {
			line_head_release(lh);
			return -1;
		}
		at = scan.p;
		switch (field) {
		case 1:
			rc = get_int_field(w, &scan, wt, field, msg, &line->id);
			break;
		case 2:
			rc = get_string(w, &scan, wt, field, msg, &lh->name);
			break;
		case 3:
			rc = get_int_field(w, &scan, wt, field, msg,
			    &line->timestamp_ns);
			break;
		case 4:
			rc = want_wt(w, at, wt, WT_LEN, field, msg);
			if (rc == 0)
				rc = get_len(w, &scan, &sub, msg);
			/* The events are read next: hold no page meanwhile. */
			if ((++line->nevents & 63) == 0)
				source_release(w->src, &scan_mark,
				    (size_t)(scan.p - w->base));
			if (rc == 0)
				note_segment_end(lh, scan.p);
			break;
		case 9:
			rc = get_int_field(w, &scan, wt, field, msg,
			    &line->duration_ps);
			break;
		case 10:
			rc = get_int_field(w, &scan, wt, field, msg,
			    &line->display_id);
			break;
		case 11:
			rc = get_string(w, &scan, wt, field, msg, &lh->display);
			break;
		default:
			rc = skip_field(w, &scan, wt, msg);
		}
		if (rc == -1) {
			line_head_release(lh);
			return -1;
		}
	}
	return 0;
}

/*
 * The next event of line fields c, decoded into *ev and its times checked:
 * 1, 0 past the line's last, or -1 with w->cause set.  Inlined in
 * read_line()'s event loop.
 */
static inline __attribute__((always_inline)) int
next_event(struct walker *w, struct cur *c, const struct plane_tables *t,
    const struct pf_plane *plane, const struct pf_line *line,
    struct pf_event *ev)
{
	static const char msg[] = "XLine";
	struct cur sub;
	uint32_t field;
	int wt;

	while (c->p < c->end) {
		const uint8_t *p = c->p;

		if (is_short_event(p, c->end)) {
			sub.p = p + 2;
			sub.end = c->p = sub.p + p[1];
		} else {
			/* The header scan validated every tag and length. */
			(void)get_tag(w, c, &field, &wt, msg);
			if (field != 4) {
				(void)skip_field(w, c, wt, msg);
				continue;
			}
			(void)get_len(w, c, &sub, msg);
		}
		/* Its timestamp is in range (check_line_time()). */
		if (decode_event(w, sub, t, line->timestamp_ns * 1000, ev) ==
		    -1 ||
		    check_event_times(w, sub.p, plane, line, ev) == -1)
			return -1;
		return 1;
	}
	return 0;
}

/*
 * Passes line events from c to h->event until the line's end, an error or
 * a non-zero return; the event loop of read_line() and of the segments
 * its thread decodes itself (read_long_line()).
 */
static inline __attribute__((always_inline)) int
emit_events(struct walker *w, struct cur *c, const struct plane_tables *t,
    const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_handler *h)
{
	size_t n;
	int rc = 0;

	for (n = 0; rc == 0; n++) {
		struct pf_event ev;
		int got = next_event(w, c, t, plane, line, &ev);

		if (got == 0)
			break;
		if (got == -1)
			rc = -1;
		else if (h->event != NULL)
			rc = h->event(h->ctx, plane, line, &ev);
		/* Lines can be most of a file: give pages back within them. */
		if ((n & 63) == 0 && !w->ahead)
			source_release(w->src, &w->released,
			    (size_t)(c->p - w->base));
	}
	return rc;
}

/*
 * A long line is decoded in segments of SEGMENT_EVENTS events, in order
 * by its plane's thread, which hands each to the handler; a thread with
 * no plane left (xspace_help()) may decode the next few segments
 * meanwhile into slots, which the plane's thread then hands on as they
 * are.  Classifying stays on the plane's thread, in the file's order;
 * only decoding moves.  A real profile keeps most of its events on one
 * host line (the python3 thread), which no plane-level split divides.
 */
#define SEGMENT_SLOTS	4	/* how far ahead a helper may decode */

enum segment_state {
	SEGMENT_FREE,
	SEGMENT_OWN,		/* the plane's thread decodes it */
	SEGMENT_TAKEN,		/* a helper decodes it */
	SEGMENT_DECODED,	/* into its slot */
	SEGMENT_FAILED,		/* the plane's thread decodes it again */
};

struct segment_slot {
	struct pf_event	*events;	/* SEGMENT_EVENTS */
	size_t		 nevents;
	struct pf_stat	*stats;		/* the events', in their order */
	size_t		 nstats, stats_cap;
	struct pf_read_stats rs;	/* what its decoding counted */
};

struct long_line {
	struct long_line *next;		/* on the board */
	const struct plane_tables *t;
	const struct pf_plane *plane;
	const struct pf_line *line;
	int		 keyed_stats_only, memory_stats;
	const uint8_t	**at;		/* segment i: at[i] to at[i + 1] */
	unsigned char	*state;		/* enum segment_state, per segment */
	size_t		 nsegments;
	size_t		 passed;	/* segments the plane's thread is done with */
	size_t		 next_help;	/* below it none is free */
	int		 helpers;	/* decoding one of its segments now */
	struct segment_slot slots[SEGMENT_SLOTS];
};

/* The long lines being read, and whether any plane still is. */
struct board {
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;		/* any change below */
	struct long_line *lines;
	size_t		 reading;	/* planes being read */
};

/* Decodes segment s of l into its slot: whether every event was read. */
static int
decode_segment(struct walker *w, struct long_line *l, size_t s)
{
	struct segment_slot *sl = &l->slots[s % SEGMENT_SLOTS];
	struct cur c = { l->at[s], l->at[s + 1] };
	struct pf_event ev;
	size_t i, k;
	int got = 0;

	sl->nevents = sl->nstats = 0;
	memset(&sl->rs, 0, sizeof sl->rs);
	w->rs = &sl->rs;
	w->keyed_stats_only = l->keyed_stats_only;
	w->memory_stats = l->memory_stats;
	while (sl->nevents < SEGMENT_EVENTS &&
	    (got = next_event(w, &c, l->t, l->plane, l->line, &ev)) == 1) {
		if (sl->nstats + ev.nstats > sl->stats_cap) {
			sl->stats_cap = 2 * (sl->nstats + ev.nstats);
			sl->stats = xreallocarray(sl->stats, sl->stats_cap,
			    sizeof *sl->stats);
		}
		if (ev.nstats > 0) {
			memcpy(sl->stats + sl->nstats, ev.stats,
			    ev.nstats * sizeof *ev.stats);
			sl->nstats += ev.nstats;
		}
		sl->events[sl->nevents++] = ev;
	}
	free(w->cause);
	w->cause = NULL;
	if (got == -1 || c.p != c.end)
		return 0;
	/* The stats array moved as it grew: point into it now. */
	for (i = k = 0; i < sl->nevents; i++) {
		sl->events[i].stats = sl->stats + k;
		k += sl->events[i].nstats;
	}
	return 1;
}

static struct long_line *
long_line_new(const struct line_head *lh, const struct plane_tables *t,
    const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_handler *h)
{
	struct long_line *l = xcalloc(1, sizeof *l);
	size_t i, n = lh->nsegment_ends;

	l->t = t;
	l->plane = plane;
	l->line = line;
	l->keyed_stats_only = h->keyed_stats_only;
	l->memory_stats = h->memory_stats;
	/* The last segment ends with the line, its last field or not. */
	if (n > 0 && lh->segment_ends[n - 1] == lh->c.end)
		n--;
	l->nsegments = n + 1;
	l->at = xcalloc(n + 2, sizeof *l->at);
	l->at[0] = lh->c.p;
	memcpy(l->at + 1, lh->segment_ends, n * sizeof *l->at);
	l->at[n + 1] = lh->c.end;
	l->state = xcalloc(l->nsegments, 1);
	for (i = 0; i < SEGMENT_SLOTS; i++)
		l->slots[i].events = xcalloc(SEGMENT_EVENTS,
		    sizeof *l->slots[i].events);
	return l;
}

static void
long_line_free(struct long_line *l)
{
	size_t i;

	for (i = 0; i < SEGMENT_SLOTS; i++) {
		free(l->slots[i].events);
		free(l->slots[i].stats);
	}
	free(l->state);
	free(l->at);
	free(l);
}

static void
board_add(struct board *b, struct long_line *l)
{
	pthread_mutex_lock(&b->mu);
	l->next = b->lines;
	b->lines = l;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

/* Takes l off the board once no helper decodes any of it. */
static void
board_remove(struct board *b, struct long_line *l)
{
	struct long_line **pp;

	pthread_mutex_lock(&b->mu);
	while (l->helpers > 0)
		pthread_cond_wait(&b->cv, &b->mu);
	for (pp = &b->lines; *pp != l; pp = &(*pp)->next)
		continue;
	*pp = l->next;
	pthread_mutex_unlock(&b->mu);
}

static void
add_read_stats(struct pf_read_stats *to, const struct pf_read_stats *from)
{
	to->missing_event_metadata += from->missing_event_metadata;
	to->missing_stat_metadata += from->missing_stat_metadata;
}

/* A long line's events, c its fields: as emit_events(), segment by segment. */
static int
read_long_line(struct walker *w, const struct line_head *lh, struct cur *c,
    const struct plane_tables *t, const struct pf_plane *plane,
    const struct pf_line *line, const struct pf_handler *h)
{
	struct long_line *l = long_line_new(lh, t, plane, line, h);
	struct board *b = w->board;
	size_t s, i;
	int rc = 0;

	board_add(b, l);
	for (s = 0; rc == 0 && s < l->nsegments; s++) {
		const struct segment_slot *sl = &l->slots[s % SEGMENT_SLOTS];
		struct cur seg = { l->at[s], l->at[s + 1] };
		int state;

		pthread_mutex_lock(&b->mu);
		while (l->state[s] == SEGMENT_TAKEN)
			pthread_cond_wait(&b->cv, &b->mu);
		state = l->state[s];
		if (state == SEGMENT_FREE)
			l->state[s] = SEGMENT_OWN;
		pthread_mutex_unlock(&b->mu);
		if (state != SEGMENT_DECODED)
			rc = emit_events(w, &seg, t, plane, line, h);
		else {
			add_read_stats(w->rs, &sl->rs);
			for (i = 0; rc == 0 && i < sl->nevents; i++)
				rc = h->event(h->ctx, plane, line,
				    &sl->events[i]);
			source_release(w->src, &w->released,
			    (size_t)(seg.end - w->base));
		}
		pthread_mutex_lock(&b->mu);
		l->passed = s + 1;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
	}
	board_remove(b, l);
	long_line_free(l);
	c->p = c->end;
	return rc;
}

/* One XLine, its header scanned: its events in order. */
static int
read_line(struct walker *w, const struct line_head *lh,
    const struct plane_tables *t, const struct pf_plane *plane,
    const struct pf_handler *h)
{
	struct pf_line line = lh->line;
	struct cur c = lh->c;
	int rc;

	if (check_line_time(w, c.p, plane, &line, lh->name) == -1)
		return -1;
	line.name = xstrndup(lh->name.ptr, lh->name.len);
	line.display_name = xstrndup(lh->display.ptr, lh->display.len);
	rc = h->line_begin != NULL ? h->line_begin(h->ctx, plane, &line) : 0;
	if (rc == PF_SKIP)
		c.p = c.end;
	if (rc == 0 && w->board != NULL && !w->ahead && h->event != NULL &&
	    line.nevents >= 2 * SEGMENT_EVENTS)
		rc = read_long_line(w, lh, &c, t, plane, &line, h);
	if (rc == 0)
		rc = emit_events(w, &c, t, plane, &line, h);
	if (rc == 0 && h->line_end != NULL)
		rc = h->line_end(h->ctx, plane, &line);
	free((char *)line.name);
	free((char *)line.display_name);
	return rc == PF_SKIP ? 0 : rc;
}

/*
 * Decodes segments of the long lines being read until no plane is
 * (struct long_line); waits while none is free within reach.  Returns
 * how many it decoded whole.
 */
static size_t
board_help(struct board *b, const struct source *src)
{
	struct pf_read_stats ignored;
	struct walker w;
	size_t ndecoded = 0;
	int decoded;

	memset(&w, 0, sizeof w);
	w.base = src->data;
	w.limit = src->data + src->size;
	w.ahead = 1;		/* the plane's thread gives pages back */
	w.rs = &ignored;
	pthread_mutex_lock(&b->mu);
	while (b->reading > 0) {
		struct long_line *l;
		size_t s = 0;

		for (l = b->lines; l != NULL; l = l->next) {
			while (l->next_help < l->nsegments &&
			    l->state[l->next_help] != SEGMENT_FREE)
				l->next_help++;
			s = l->next_help;
			if (s < l->nsegments && s < l->passed + SEGMENT_SLOTS)
				break;
		}
		if (l == NULL) {
			pthread_cond_wait(&b->cv, &b->mu);
			continue;
		}
		l->state[s] = SEGMENT_TAKEN;
		l->helpers++;
		pthread_mutex_unlock(&b->mu);
		decoded = decode_segment(&w, l, s);
		pthread_mutex_lock(&b->mu);
		l->state[s] = decoded ? SEGMENT_DECODED : SEGMENT_FAILED;
		ndecoded += decoded;
		l->helpers--;
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	free(w.scratch);
	return ndecoded;
}

/*
 * A plane's lines, header-scanned before the first is read (struct
 * pf_lines_ahead): heads[i] of the first nheads lines not empty, all of
 * them when the scan found no error.
 */
struct plane_ahead {
	struct pf_lines_ahead pub;	/* first: read_ahead() casts */
	struct walker	*w;
	const struct plane_tables *t;
	const struct pf_plane *plane;
	struct line_head *heads;
	size_t		 nheads;
	char		**names;
	size_t		*nevents;
	size_t		*at;		/* their line numbers */
};

static int
read_ahead(const struct pf_lines_ahead *a, size_t i,
    const struct pf_handler *h)
{
	const struct plane_ahead *pa = (const struct plane_ahead *)a;
	struct walker *w = pa->w;
	struct pf_read_stats ignored, *rs = w->rs;
	struct pf_handler events = *h;
	int rc, keyed = w->keyed_stats_only, memory = w->memory_stats;

	/* Its missing metadata and its pages count when its turn comes. */
	memset(&ignored, 0, sizeof ignored);
	events.line_begin = NULL;
	events.line_end = NULL;
	w->rs = &ignored;
	w->ahead = 1;
	w->keyed_stats_only = h->keyed_stats_only;
	w->memory_stats = h->memory_stats;
	rc = read_line(w, &pa->heads[i], pa->t, pa->plane, &events);
	w->keyed_stats_only = keyed;
	w->memory_stats = memory;
	w->ahead = 0;
	w->rs = rs;
	if (rc == -1) {
		free(w->cause);
		w->cause = NULL;
	}
	return rc;
}

/* The header scans of the plane's lines, as far as they succeed. */
static void
scan_ahead(struct walker *w, const struct plane_scan *ps,
    struct plane_ahead *pa)
{
	size_t i;

	for (i = 0; i < ps->nrefs; i++) {
		pa->heads = xgrow1(pa->heads, pa->nheads, sizeof *pa->heads);
		if (scan_line(w, ps->lines[i].c, &pa->heads[pa->nheads]) == -1) {
			/* Told when the line's turn comes, after the others. */
			free(w->cause);
			w->cause = NULL;
			return;
		}
		pa->nheads++;
	}
	pa->names = xcalloc(pa->nheads + 1, sizeof *pa->names);
	pa->nevents = xcalloc(pa->nheads + 1, sizeof *pa->nevents);
	pa->at = xcalloc(pa->nheads + 1, sizeof *pa->at);
	for (i = 0; i < pa->nheads; i++) {
		pa->names[i] = xstrndup(pa->heads[i].name.ptr,
		    pa->heads[i].name.len);
		pa->nevents[i] = pa->heads[i].line.nevents;
		pa->at[i] = ps->lines[i].at;
	}
	pa->pub.nlines = pa->nheads;
	pa->pub.names = pa->names;
	pa->pub.nevents = pa->nevents;
	pa->pub.at = pa->at;
	pa->pub.read_events = read_ahead;
}

static void
plane_ahead_release(struct plane_ahead *pa)
{
	size_t i;

	for (i = 0; i < pa->nheads; i++)
		line_head_release(&pa->heads[i]);
	if (pa->names != NULL)
		for (i = 0; i < pa->nheads; i++)
			free(pa->names[i]);
	free(pa->names);
	free(pa->nevents);
	free(pa->at);
	free(pa->heads);
}

static int
read_plane(struct walker *w, struct cur c, const struct pf_handler *h)
{
	struct plane_tables t;
	struct plane_scan ps;
	struct plane_ahead pa;
	size_t nline, k;
	int rc;

	memset(&t, 0, sizeof t);
	memset(&pa, 0, sizeof pa);
	rc = scan_plane(w, c, &t, &ps);
	if (rc == 0) {
		pa.w = w;
		pa.t = &t;
		pa.plane = &ps.plane;
		scan_ahead(w, &ps, &pa);
		if (pa.pub.read_events != NULL)
			ps.plane.ahead = &pa.pub;
	}
	if (rc == 0 && h->plane_begin != NULL)
		rc = h->plane_begin(h->ctx, &ps.plane);
	for (nline = k = 0; rc == 0 && nline < ps.plane.nlines; nline++) {
		struct line_head lh;

		if (k == ps.nrefs || ps.lines[k].at != nline) {
			/* An empty line, where the next one begins. */
			const uint8_t *at = k < ps.nrefs ? ps.lines[k].c.p :
			    c.end;
			struct cur none = { at, at };

			(void)scan_line(w, none, &lh);
			rc = read_line(w, &lh, &t, &ps.plane, h);
			continue;
		}
		if (k < pa.nheads)
			lh = pa.heads[k];
		else if (scan_line(w, ps.lines[k].c, &lh) == -1) {
			rc = -1;
			break;
		}
		rc = read_line(w, &lh, &t, &ps.plane, h);
		if (k >= pa.nheads)
			line_head_release(&lh);
		source_release(w->src, &w->released,
		    (size_t)(ps.lines[k].c.end - w->base));
		k++;
	}
	if (rc == 0 && h->plane_end != NULL)
		rc = h->plane_end(h->ctx, &ps.plane);
	plane_ahead_release(&pa);
	plane_scan_release(&ps);
	tables_release(&t);
	return rc == PF_SKIP ? 0 : rc;
}

static int
push_string(struct walker *w, struct cur *c, int wt, uint32_t field,
    char ***v, size_t *n)
{
	struct pf_bytes s;

	if (get_string(w, c, wt, field, "XSpace", &s) == -1)
		return -1;
	*v = xgrow1(*v, *n, sizeof **v);
	(*v)[(*n)++] = xstrndup(s.ptr, s.len);
	return 0;
}

/* Where an XSpace's planes are, and its hostnames, errors, warnings. */
struct xspace {
	struct source	*src;
	struct pf_space	 space;
	struct cur	*planes;
	char		**plane_names;	/* "" where unreadable */
	size_t		 nplanes;
	int64_t		 origin_ns;	/* line_origin() */
	struct board	*board;		/* its long lines, for xspace_help() */
};

/*
 * XLine c's timestamp_ns (0 when absent) and whether it has events.  With
 * quick, stops at the first timestamp or event, as protobuf writers put
 * the timestamp (field 3) before the events (field 4).
 */
static int
line_time(struct walker *w, struct cur c, int quick, int64_t *ts,
    int *events)
{
	uint32_t field;
	int wt;

	*ts = 0;
	*events = 0;
	while (c.p < c.end) {
		if (get_tag(w, &c, &field, &wt, "XLine") == -1)
			return -1;
		if (field == 3) {
			if (get_int_field(w, &c, wt, field, "XLine", ts) == -1)
				return -1;
		} else if (skip_field(w, &c, wt, "XLine") == -1)
			return -1;
		*events |= field == 4;
		if (quick && (field == 3 || field == 4))
			break;
	}
	return 0;
}

/*
 * Calls fn on each XLine of the planes until it returns nonzero; that
 * value, or -1 on a wire error (reading the plane will tell it).
 */
static int
each_line(struct walker *w, const struct xspace *xs,
    int (*fn)(struct walker *, struct cur, void *), void *arg)
{
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < xs->nplanes; i++) {
		struct cur c = xs->planes[i], sub;
		uint32_t field;
		int wt;

		while (rc == 0 && c.p < c.end) {
			if (get_tag(w, &c, &field, &wt, "XPlane") == -1)
				return -1;
			if (field != 3 || wt != WT_LEN) {
				if (skip_field(w, &c, wt, "XPlane") == -1)
					return -1;
			} else if (get_len(w, &c, &sub, "XPlane") == -1)
				return -1;
			else
				rc = fn(w, sub, arg);
		}
	}
	return rc;
}

/* each_line(): 1 at a line stamped past PS_LIMIT, by the quick scan. */
static int
past_limit(struct walker *w, struct cur c, void *arg)
{
	int64_t ts;
	int events;

	(void)arg;
	if (line_time(w, c, 1, &ts, &events) == -1)
		return -1;
	return ts > PS_LIMIT / 1000;
}

/* each_line(): the earliest timestamp_ns of a line with events. */
static int
earliest(struct walker *w, struct cur c, void *arg)
{
	int64_t ts, *min = arg;
	int events;

	if (line_time(w, c, 0, &ts, &events) == -1)
		return -1;
	if (events && ts >= 0 && (*min < 0 || ts < *min))
		*min = ts;
	return 0;
}

/*
 * xplane.proto has timestamp_ns count from the Unix epoch; the profiler
 * rebases its files to the capture start, other writers keep the epoch,
 * which no time of PS_LIMIT can hold.  Such a file (a line stamped past
 * the limit) is rebased to its earliest line with events, as xprof shows
 * it; files whose times fit are read as they are.
 */
static int64_t
line_origin(struct walker *w, const struct xspace *xs)
{
	int64_t min = -1;

	if (each_line(w, xs, past_limit, NULL) != 1 ||
	    each_line(w, xs, earliest, &min) != 0 || min < 0)
		min = 0;
	free(w->cause);
	w->cause = NULL;
	return min;
}

/*
 * A plane's name from its top-level fields (the last of several, as
 * protobuf reads them), else "": reading the plane will say what is
 * wrong with it.
 */
static char *
plane_name(struct walker *w, struct cur c)
{
	static const char msg[] = "XPlane";
	struct pf_bytes name = { "", 0 };

	while (c.p < c.end) {
		uint32_t field;
		int wt;

		if (get_tag(w, &c, &field, &wt, msg) == -1 ||
		    (field == 2 ? get_string(w, &c, wt, field, msg, &name) :
		    skip_field(w, &c, wt, msg)) == -1) {
			name.ptr = "";
			name.len = 0;
			break;
		}
	}
	free(w->cause);
	w->cause = NULL;
	return xstrndup(name.ptr, name.len);
}

int
xplane_check_start(const uint8_t *p, size_t n, char **cause)
{
	static const char msg[] = "XSpace";
	struct cur c = { p, p + n };
	struct walker w;
	uint32_t field;
	int wt, rc = 0;

	/* A cut tag may be the whole (tiny) file: the reader decides. */
	if (n < 10)
		return 0;
	memset(&w, 0, sizeof w);
	w.base = p;
	w.limit = p + n;
	if (get_tag(&w, &c, &field, &wt, msg) == -1)
		rc = -1;
	else if (field >= 1 && field <= 4)
		rc = want_wt(&w, c.p, wt, WT_LEN, field, msg);
	else if (wt == WT_GROUP_START || wt == WT_GROUP_END)
		rc = walker_fail(&w, c.p, "unsupported group wire type in %s", msg);
	else if (wt > WT_FIXED32)
		rc = walker_fail(&w, c.p, "invalid wire type %d in %s", wt, msg);
	if (rc == -1)
		*cause = w.cause;
	return rc;
}

int
xspace_open(struct source *src, const char *path, struct xspace **out,
    char **cause)
{
	struct xspace *xs = xcalloc(1, sizeof *xs);
	struct pf_read_stats rs;
	struct walker w;
	struct cur c = { src->data, src->data + src->size };
	int rc = 0;

	memset(&w, 0, sizeof w);
	memset(&rs, 0, sizeof rs);
	w.base = src->data;
	w.limit = src->data + src->size;
	w.src = src;
	w.rs = &rs;
	xs->src = src;
	xs->space.path = path;
	xs->board = xcalloc(1, sizeof *xs->board);
	pthread_mutex_init(&xs->board->mu, NULL);
	pthread_cond_init(&xs->board->cv, NULL);
	/* Hostnames, errors and warnings follow the planes on the wire. */
	while (rc == 0 && c.p < c.end) {
		const uint8_t *at;
		struct cur sub;
		uint32_t field;
		int wt;

		if (get_tag(&w, &c, &field, &wt, "XSpace") == -1) {
			rc = -1;
			break;
		}
		at = c.p;
		switch (field) {
		case 1:
			rc = want_wt(&w, at, wt, WT_LEN, field, "XSpace");
			if (rc == 0)
				rc = get_len(&w, &c, &sub, "XSpace");
			if (rc == 0)
				push_cur(&xs->planes, &xs->nplanes, sub);
			break;
		case 2:
			rc = push_string(&w, &c, wt, field, &xs->space.errors,
			    &xs->space.nerrors);
			break;
		case 3:
			rc = push_string(&w, &c, wt, field,
			    &xs->space.warnings, &xs->space.nwarnings);
			break;
		case 4:
			rc = push_string(&w, &c, wt, field,
			    &xs->space.hostnames, &xs->space.nhostnames);
			break;
		default:
			rc = skip_field(&w, &c, wt, "XSpace");
		}
	}
	xs->space.nplanes = xs->nplanes;
	if (rc == 0) {
		size_t i;

		xs->plane_names = xcalloc(xs->nplanes + 1,
		    sizeof *xs->plane_names);
		for (i = 0; i < xs->nplanes; i++)
			xs->plane_names[i] = plane_name(&w, xs->planes[i]);
		xs->origin_ns = line_origin(&w, xs);
	}
	if (rc == -1) {
		*cause = w.cause;
		xspace_free(xs);
		return -1;
	}
	*out = xs;
	return 0;
}

size_t
xspace_nplanes(const struct xspace *xs)
{
	return xs->nplanes;
}

char *const *
xspace_plane_names(const struct xspace *xs)
{
	return xs->plane_names;
}

int
xspace_read_space(const struct xspace *xs, const struct pf_handler *h)
{
	return h->space != NULL ? h->space(h->ctx, &xs->space) : 0;
}

int
xspace_read_plane(const struct xspace *xs, size_t i,
    const struct pf_handler *h, struct pf_read_stats *rs, char **cause)
{
	struct walker w;
	int rc;

	memset(&w, 0, sizeof w);
	w.base = xs->src->data;
	w.limit = xs->src->data + xs->src->size;
	w.src = xs->src;
	w.rs = rs;
	w.released = (size_t)(xs->planes[i].p - w.base);
	w.origin_ns = xs->origin_ns;
	w.keyed_stats_only = h->keyed_stats_only;
	w.memory_stats = h->memory_stats;
	w.board = xs->board;
	pthread_mutex_lock(&xs->board->mu);
	xs->board->reading++;
	pthread_mutex_unlock(&xs->board->mu);
	rc = read_plane(&w, xs->planes[i], h);
	pthread_mutex_lock(&xs->board->mu);
	xs->board->reading--;
	pthread_cond_broadcast(&xs->board->cv);
	pthread_mutex_unlock(&xs->board->mu);
	if (rc == -1)
		*cause = w.cause;
	else
		free(w.cause);
	free(w.scratch);
	return rc;
}

size_t
xspace_help(const struct xspace *xs)
{
	return board_help(xs->board, xs->src);
}

void
xspace_free(struct xspace *xs)
{
	if (xs == NULL)
		return;
	pthread_cond_destroy(&xs->board->cv);
	pthread_mutex_destroy(&xs->board->mu);
	free(xs->board);
	free(xs->planes);
	free_strings(xs->plane_names, xs->plane_names != NULL ? xs->nplanes :
	    0);
	free_strings(xs->space.hostnames, xs->space.nhostnames);
	free_strings(xs->space.errors, xs->space.nerrors);
	free_strings(xs->space.warnings, xs->space.nwarnings);
	free(xs);
}

int
xplane_read(struct source *src, const char *path, const struct pf_handler *h,
    struct pf_read_stats *rs, char **cause)
{
	struct xspace *xs;
	size_t i;
	int rc;

	memset(rs, 0, sizeof *rs);
	rs->bytes = src->size;
	if (xspace_open(src, path, &xs, cause) == -1)
		return -1;
	rc = xspace_read_space(xs, h);
	for (i = 0; rc == 0 && i < xs->nplanes; i++)
		rc = xspace_read_plane(xs, i, h, rs, cause);
	xspace_free(xs);
	return rc;
}
