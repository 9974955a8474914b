/* Chrome trace JSON reader: json-lex.h's callback parser over gzip.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "input/gzip.h"
#include "read/json-lex.h"
#include "lib/ptime.h"
#include "input/read-ahead.h"
#include "read/json-number.h"
#include "read/read-json.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

#define READ_CHUNK	(256 * 1024)	/* bytes parsed at a time */

/* A growable byte buffer. */
struct buf {
	char		*p;
	size_t		 len;
	size_t		 cap;
};

static inline void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->cap - b->len < n + 1) {
		while (b->cap - b->len < n + 1)
			b->cap = b->cap == 0 ? 256 : b->cap * 2;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static uint64_t
load64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

/* memcmp(a, b, n) == 0 without a call: the names compared are short. */
static inline int
same_bytes(const char *a, const char *b, size_t n)
{
	size_t i;

	if (n < 8) {
		for (i = 0; i < n; i++)
			if (a[i] != b[i])
				return 0;
		return 1;
	}
	for (i = 0; i + 8 < n; i += 8)
		if (load64(a + i) != load64(b + i))
			return 0;
	return load64(a + n - 8) == load64(b + n - 8);
}

/* ---- The tables the first pass builds ---- */

/* One pid. */
struct jplane {
	int64_t		 pid;
	char		*name;		/* process_name, or NULL */
	struct strmap	 metas;		/* event names, "display\0name" */
	size_t		*split;		/* display length, or SIZE_MAX */
	size_t		 first;		/* its lines: order[first..] */
	size_t		 nlines;
};

/* One (pid, tid). */
struct jline {
	int64_t		 pid;
	int64_t		 tid;
	size_t		 plane;
	char		*name;		/* thread_name, or NULL */
	int		 has_sort;
	int64_t		 sort;		/* thread_sort_index */
	size_t		 nslots;	/* X, i, I and B events */
	size_t		 nstats;	/* their stats */
	size_t		 nbytes;	/* their string stat bytes */
	size_t		 depth;		/* B events still open */
	size_t		 nevents;	/* nslots less the B never closed */
	struct jev	*ev;		/* in the batch: its nslots events */
	size_t		 capev;		/* stored: ev's own allocation */
	size_t		 fill;
	size_t		*stack;		/* in the batch: open B events */
	size_t		 nstack;
	size_t		 capstack;
};

/* An event kept for a batch; its stats are jr.stats[stat_first..]. */
struct jev {
	int64_t		 start_ps;
	int64_t		 dur_ps;
	size_t		 stat_first;
	uint32_t	 nstats;
	uint32_t	 meta;		/* index in its plane's metas */
	uint32_t	 seq;		/* order in the file, within its line */
	uint32_t	 open;		/* a B not closed (yet) */
};

struct jstat {
	uint32_t	 name;		/* in jr.statnames */
	uint32_t	 kind;		/* PF_INT64, PF_DOUBLE or PF_STR */
	union {
		int64_t	 i;
		double	 d;
		size_t	 off;		/* PF_STR: its STR_HEAD in jr.strs */
	} v;
};

/*
 * A string stat in jr.strs is its length (a size_t, unaligned), then its
 * bytes: the length there keeps struct jstat at 16 bytes.
 */
#define STR_HEAD	sizeof(size_t)

/* ---- The event object being parsed (its keys come in any order) ---- */

enum field {
	F_OTHER,
	F_PH,
	F_PID,
	F_TID,
	F_TS,
	F_DUR,
	F_NAME,
	F_ARGS,
};

/*
 * A scalar of args.  A string's text is val in cur.text, but for one read
 * as an integer that is no name or long_name (vallen 0 then).
 */
struct arg {
	uint32_t	 key;		/* in jr.argkeys */
	enum pf_value_kind kind;	/* PF_INT64, PF_DOUBLE or PF_STR */
	int		 is_str;	/* a JSON string, perhaps read as int */
	int64_t		 i;
	double		 d;
	size_t		 val;
	size_t		 vallen;
};

struct cur {
	char		 ph;		/* 0: none; '?': not one letter */
	int64_t		 pid;
	int64_t		 tid;
	int64_t		 ts_ps;
	int64_t		 ts_ns;		/* with ts_big: ts past PS_LIMIT */
	int		 ts_big;
	int64_t		 dur_ps;
	int		 has_name;
	struct buf	 name;
	struct buf	 text;		/* arg keys and string values */
	struct arg	*args;
	size_t		 nargs;
	size_t		 capargs;
	uint32_t	 argkey;	/* the arg key just read */
	enum field	 field;		/* the event key just read */
	size_t		 long_arg;	/* args.long_name, or SIZE_MAX */
	size_t		 strbytes;	/* the PF_STR args' bytes in strs */
};

/*
 * A direct-mapped cache of recent ids in front of a strmap, keyed by a
 * hash of the name a word at a time: a trace's names repeat, and strmap
 * hashes a byte at a time.  Its names are the events' (a few thousand in
 * a big trace) and args keys, so that they seldom share a slot.
 */
#define NCACHED_BITS	12
#define NCACHED		(1 << NCACHED_BITS)

struct cached {
	uint32_t	 set;		/* whose strmap: a plane's index */
	uint32_t	 id1;		/* the id + 1; 0: empty */
};

/* A string stat kept in jr.strs, for the next event with the same value. */
struct kept_str {
	size_t		 off;
	size_t		 len;
};

/*
 * The text and value of the last pid or tid read: the next event's is
 * mostly the same text (len 0: none yet).
 */
struct last_int {
	char		 text[24];
	size_t		 len;
	int64_t		 value;
};

/* ---- Reader state ---- */

struct jr {
	const char	*path;		/* as given, for zlib's messages */
	int		 fd;
	struct gzr	*gz;
	uint64_t	 offset;	/* uncompressed bytes before chunk */
	int		 pass;		/* 1: metadata and counts; 2: a batch */
	char		*what;		/* a callback's error */
	struct pf_read_stats *rs;
	struct json_lex	*lx;		/* the pass's parser */
	size_t		 budget;

	/*
	 * Pass 1 also keeps the events while they fit budget (storing), so
	 * that a file that fits is read once; stored says it all fitted.
	 */
	int		 storing;
	int		 stored;
	size_t		 weight;	/* line_weight() of all lines so far */
	char		*deferred;	/* a batch's error, found early */
	/*
	 * A trace stamped with the epoch (ts past PS_LIMIT): its ts are
	 * read as ps after origin_ns, and emitted rebased to the earliest,
	 * first_ps (pass 1 finds it); last_ps is the latest.
	 */
	int64_t		 origin_ns;
	int64_t		 first_ps;
	int64_t		 last_ps;
	int		 timed;		/* an event with a ts was seen */

	/* Parse state. */
	int		 depth;		/* open objects and arrays */
	int		 top;		/* '{', '[' or 0 before the first */
	int		 top_events;	/* the top-level key is traceEvents */
	int		 evd;		/* depth inside traceEvents, or 0 */
	int		 saw_events;
	int		 in_args;
	struct cur	 cur;
	struct last_int	 last_pid;
	struct last_int	 last_tid;
	struct buf	 key;		/* scratch: a meta or a lookup key */
	struct buf	 num;		/* scratch: a number for strtod */

	/* Tables (pass 1). */
	struct strmap	 pids;		/* 8-byte pid -> planes index */
	struct jplane	*planes;
	size_t		 nplanes;
	size_t		*porder;	/* planes by ascending pid */
	struct strmap	 tids;		/* 16-byte pid, tid -> lines index */
	struct jline	*lines;
	size_t		 nlines;
	size_t		*order;		/* lines in emission order */
	struct strmap	 argkeys;	/* every args key, KEY_* first */
	uint32_t	*keystat;	/* argkeys id -> statnames id + 1 */
	size_t		 capkeystat;
	struct strmap	 statnames;
	struct pf_stat	*statproto;	/* per statnames id: its name and key */
	size_t		 nstatproto;
	size_t		 lastline;	/* lines index + 1 of the last event */
	struct cached	 metacache[NCACHED];	/* planes' metas */
	struct cached	 keycache[NCACHED];	/* argkeys */
	struct kept_str	 strcache[NCACHED];	/* string stats in strs */

	/* The batch: lines order[bfirst..bend) (pass 2). */
	size_t		 bfirst;
	size_t		 bend;
	struct jev	*evs;
	struct jstat	*stats;
	size_t		 nstats;
	size_t		 capstats;
	char		*strs;
	size_t		 nstrs;
	size_t		 capstrs;
};

/* One event's pf_stats, reused: one per thread emitting. */
struct scratch {
	struct pf_stat	*v;
	size_t		 cap;
};

/* A file read by json_open(): pass 1 done, the events perhaps kept. */
struct json_trace {
	struct jr	 jr;
	struct pf_read_stats rs;
	char		*path;
	char		**names;	/* the planes', in the order emitted */
};

/* Stops the parse; run_pass() puts the byte offset in the message. */
static int
jr_fail(struct jr *jr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
jr_fail(struct jr *jr, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (jr->what != NULL)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	jr->what = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(jr->what, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return 0;
}

/*
 * How an offset is counted: in a gzip file, in the uncompressed bytes
 * (gzr_is_gzip() says whether it is one).
 */
static const char *
byte_kind(struct jr *jr)
{
	return gzr_is_gzip(jr->gz) ? "uncompressed byte" : "byte";
}

static int
changed(struct jr *jr)
{
	return jr_fail(jr, "the file changed while being read");
}

static size_t
cache_slot(const char *s, size_t n, size_t set)
{
	const uint64_t k = 0x9e3779b97f4a7c15u;	/* 2^64 / golden ratio */
	uint64_t h = ((uint64_t)n << 32 ^ set) * k;
	size_t i;

	if (n >= 8) {
		for (i = 0; i + 8 <= n; i += 8)
			h = (h ^ load64(s + i)) * k;
		if (i < n)	/* the last 8 bytes, overlapping */
			h = (h ^ load64(s + n - 8)) * k;
	} else
		for (i = 0; i < n; i++)
			h = (h ^ (unsigned char)s[i]) * k;
	return (size_t)(h >> (64 - NCACHED_BITS));
}

/* strmap_intern(m, s, n), m being set's; *added says whether s was new. */
static inline uint32_t
intern_cached(struct cached *cache, size_t set, struct strmap *m,
    const char *s, size_t n, int *added)
{
	struct cached *c = &cache[cache_slot(s, n, set)];
	size_t known = m->n;
	uint32_t id;

	*added = 0;
	if (c->id1 != 0 && c->set == set) {
		id = c->id1 - 1;
		if (m->lengths[id] == n && same_bytes(m->strings[id], s, n))
			return id;
	}
	id = strmap_intern(m, s, n);
	*added = m->n > known;
	c->set = (uint32_t)set;
	c->id1 = id + 1;
	return id;
}

static size_t
plane_get(struct jr *jr, int64_t pid)
{
	uint32_t id = strmap_intern(&jr->pids, (const char *)&pid, sizeof pid);
	struct jplane *p;

	if (id < jr->nplanes)
		return id;
	jr->planes = xgrow1(jr->planes, jr->nplanes, sizeof *jr->planes);
	p = &jr->planes[jr->nplanes++];
	memset(p, 0, sizeof *p);
	p->pid = pid;
	strmap_init(&p->metas);
	return id;
}

static void
line_key(struct jr *jr, int64_t pid, int64_t tid)
{
	jr->key.len = 0;
	buf_add(&jr->key, &pid, sizeof pid);
	buf_add(&jr->key, &tid, sizeof tid);
}

/* The line of the last event, when it is (pid, tid) again. */
static struct jline *
line_last(struct jr *jr, int64_t pid, int64_t tid)
{
	struct jline *l;

	if (jr->lastline == 0)
		return NULL;
	l = &jr->lines[jr->lastline - 1];
	return l->pid == pid && l->tid == tid ? l : NULL;
}

static struct jline *
line_get(struct jr *jr, int64_t pid, int64_t tid)
{
	struct jline *l;
	uint32_t id;

	if ((l = line_last(jr, pid, tid)) != NULL)
		return l;
	line_key(jr, pid, tid);
	id = strmap_intern(&jr->tids, jr->key.p, jr->key.len);
	jr->lastline = (size_t)id + 1;
	if (id < jr->nlines)
		return &jr->lines[id];
	jr->lines = xgrow1(jr->lines, jr->nlines, sizeof *jr->lines);
	l = &jr->lines[jr->nlines++];
	memset(l, 0, sizeof *l);
	l->pid = pid;
	l->tid = tid;
	l->plane = plane_get(jr, pid);
	return l;
}

static struct jline *
line_find(struct jr *jr, int64_t pid, int64_t tid)
{
	struct jline *l;
	int64_t id;

	if ((l = line_last(jr, pid, tid)) != NULL)
		return l;
	line_key(jr, pid, tid);
	id = strmap_find(&jr->tids, jr->key.p, jr->key.len);
	if (id < 0)
		return NULL;
	jr->lastline = (size_t)id + 1;
	return &jr->lines[id];
}

/* The args keys that read-json.c looks for, interned first. */
enum {
	KEY_LONG_NAME,
	KEY_NAME,
	KEY_SORT_INDEX,
};

/*
 * The argkeys id of an args key.  Events come in runs of one kind whose
 * args have the same keys in the same order, so the key that the last
 * event had in this place is tried first (cur.args keeps it), then the
 * cache.
 */
static uint32_t
arg_key(struct jr *jr, const char *k, size_t n)
{
	const struct cur *c = &jr->cur;
	uint32_t id;
	int added;

	if (c->nargs < c->capargs) {
		id = c->args[c->nargs].key;
		if (jr->argkeys.lengths[id] == n &&
		    same_bytes(jr->argkeys.strings[id], k, n))
			return id;
	}
	id = intern_cached(jr->keycache, 0, &jr->argkeys, k, n, &added);
	if (added) {
		if (id == jr->capkeystat) {
			jr->capkeystat = jr->capkeystat == 0 ? 64 :
			    jr->capkeystat * 2;
			jr->keystat = xreallocarray(jr->keystat,
			    jr->capkeystat, sizeof *jr->keystat);
		}
		jr->keystat[id] = 0;
	}
	return id;
}

/*
 * The statnames id of args key key, interned the first time an event
 * keeps it (statnames ids go by first use in the events kept).
 */
static uint32_t
stat_name(struct jr *jr, uint32_t key)
{
	uint32_t id;

	if (jr->keystat[key] != 0)
		return jr->keystat[key] - 1;
	id = strmap_intern(&jr->statnames, jr->argkeys.strings[key],
	    jr->argkeys.lengths[key]);
	jr->statproto = xreallocarray(jr->statproto, ++jr->nstatproto,
	    sizeof *jr->statproto);
	memset(&jr->statproto[id], 0, sizeof jr->statproto[id]);
	jr->statproto[id].metadata_id = (int64_t)id + 1;
	jr->statproto[id].name = jr->statnames.strings[id];
	jr->statproto[id].key = pf_key_of(jr->statnames.strings[id]);
	jr->keystat[key] = id + 1;
	return id;
}

/*
 * The current event's metadata key, *len bytes: its name, then NUL and
 * long_name when it has one (built in jr->key).
 */
static const char *
meta_key(struct jr *jr, size_t *len)
{
	struct cur *c = &jr->cur;

	if (c->long_arg == SIZE_MAX) {
		*len = c->name.len;
		return c->name.p != NULL ? c->name.p : "";
	}
	jr->key.len = 0;
	buf_add(&jr->key, c->name.p != NULL ? c->name.p : "", c->name.len);
	buf_add(&jr->key, "", 1);
	buf_add(&jr->key, c->text.p + c->args[c->long_arg].val,
	    c->args[c->long_arg].vallen);
	*len = jr->key.len;
	return jr->key.p;
}

/* ---- What an event gives, once all of it is read ---- */

/* The first string arg whose key is argkeys id key, or NULL. */
static const struct arg *
arg_str(const struct cur *c, uint32_t key)
{
	size_t i;

	for (i = 0; i < c->nargs; i++)
		if (c->args[i].is_str && c->args[i].key == key)
			return &c->args[i];
	return NULL;
}

static void
meta_event(struct jr *jr)
{
	struct cur *c = &jr->cur;
	const char *what = c->name.p != NULL ? c->name.p : "";
	const struct arg *a;
	struct jplane *p;
	struct jline *l;
	size_t i;

	if (strcmp(what, "process_name") == 0) {
		/* plane_get() may move jr->planes. */
		i = plane_get(jr, c->pid);
		p = &jr->planes[i];
		if ((a = arg_str(c, KEY_NAME)) != NULL) {
			free(p->name);
			p->name = xstrndup(c->text.p + a->val, a->vallen);
		}
	} else if (strcmp(what, "thread_name") == 0) {
		l = line_get(jr, c->pid, c->tid);
		if ((a = arg_str(c, KEY_NAME)) != NULL) {
			free(l->name);
			l->name = xstrndup(c->text.p + a->val, a->vallen);
		}
	} else if (strcmp(what, "thread_sort_index") == 0) {
		l = line_get(jr, c->pid, c->tid);
		for (i = 0; i < c->nargs; i++)
			if (c->args[i].kind == PF_INT64 &&
			    c->args[i].key == KEY_SORT_INDEX) {
				l->has_sort = 1;
				l->sort = c->args[i].i;
			}
	} else
		(void)plane_get(jr, c->pid);
}

/*
 * Closes the line's innermost open B at this E.  A negative duration
 * stops pass 2 there; pass 1 only notes it (jr->deferred), to be told when
 * the events are emitted, where pass 2 would have told it.
 */
static int
jr_close_event(struct jr *jr, struct jline *l)
{
	struct cur *c = &jr->cur;
	struct jev *ev;
	char *msg;

	if (l->nstack == 0)
		return 1;
	ev = &l->ev[l->stack[--l->nstack]];
	if (c->ts_ps >= ev->start_ps) {
		ev->dur_ps = c->ts_ps - ev->start_ps;
		ev->open = 0;
		return 1;
	}
	msg = xasprintf("pid %lld tid %lld: impossible 'E' at ts %lld ps, "
	    "before its 'B' at %lld ps (a negative duration)",
	    (long long)c->pid, (long long)c->tid, (long long)c->ts_ps,
	    (long long)ev->start_ps);
	if (jr->pass == 2)
		jr_fail(jr, "%s", msg);
	else if (jr->deferred == NULL)
		jr->deferred = xasprintf("at %s %" PRIu64 ": %s", byte_kind(jr),
		    json_lex_offset(jr->lx), msg);
	free(msg);
	return jr->pass != 2;
}

/* The stats the event brings (all args but long_name), and their bytes. */
static void
event_size(const struct cur *c, size_t *nstats, size_t *nbytes)
{
	const struct arg *a;

	*nstats = c->nargs;
	*nbytes = c->strbytes;
	if (c->long_arg != SIZE_MAX) {
		a = &c->args[c->long_arg];
		(*nstats)--;
		if (a->kind == PF_STR)
			*nbytes -= STR_HEAD + a->vallen;
	}
}

/*
 * Where string stat s[0..n) is in jr->strs: where an event kept the same
 * value before, when the cache still knows it, else appended.  Trace
 * events repeat their args' values (kernel details, HLO ops, modules), so
 * most are kept once instead of once per event.  A slot left from strs
 * before it was emptied is only used when its bytes still match.
 */
static size_t
keep_str(struct jr *jr, const char *s, size_t n)
{
	struct kept_str *k = &jr->strcache[cache_slot(s, n, 0)];
	size_t off, len;

	if (k->len == n && k->off + STR_HEAD + n <= jr->nstrs) {
		memcpy(&len, jr->strs + k->off, STR_HEAD);
		if (len == n && same_bytes(jr->strs + k->off + STR_HEAD, s, n))
			return k->off;
	}
	off = jr->nstrs;
	memcpy(jr->strs + off, &n, STR_HEAD);
	memcpy(jr->strs + off + STR_HEAD, s, n);
	jr->nstrs += STR_HEAD + n;
	k->off = off;
	k->len = n;
	return off;
}

/* Keeps the event as l's next, its name meta; there is room for it. */
static void
jr_add_event(struct jr *jr, struct jline *l, uint32_t meta)
{
	struct cur *c = &jr->cur;
	struct jstat *st;
	struct jev *ev;
	size_t i;

	ev = &l->ev[l->fill];
	ev->start_ps = c->ts_ps;
	ev->dur_ps = c->ph == 'X' ? c->dur_ps : 0;
	ev->meta = meta;
	ev->seq = (uint32_t)l->fill;
	ev->open = c->ph == 'B';
	ev->stat_first = jr->nstats;
	ev->nstats = 0;
	for (i = 0; i < c->nargs; i++) {
		const struct arg *a = &c->args[i];

		if (i == c->long_arg)
			continue;
		st = &jr->stats[jr->nstats++];
		st->name = stat_name(jr, a->key);
		st->kind = a->kind;
		if (a->kind == PF_INT64)
			st->v.i = a->i;
		else if (a->kind == PF_DOUBLE)
			st->v.d = a->d;
		else {
			st->v.off = keep_str(jr, c->text.p + a->val,
			    a->vallen);
		}
		ev->nstats++;
	}
	if (ev->open) {
		if (l->nstack == l->capstack) {
			l->capstack = l->capstack == 0 ? 8 : l->capstack * 2;
			l->stack = xreallocarray(l->stack, l->capstack,
			    sizeof *l->stack);
		}
		l->stack[l->nstack++] = l->fill;
	}
	l->fill++;
}

/* Drops what pass 1 stored, once it is clear that it does not fit. */
static void
unstore(struct jr *jr)
{
	size_t i;

	for (i = 0; i < jr->nlines; i++) {
		struct jline *l = &jr->lines[i];

		free(l->ev);
		free(l->stack);
		l->ev = NULL;
		l->stack = NULL;
		l->capev = l->fill = l->nstack = l->capstack = 0;
	}
	free(jr->stats);
	free(jr->strs);
	jr->stats = NULL;
	jr->strs = NULL;
	jr->nstats = jr->capstats = jr->nstrs = jr->capstrs = 0;
	/* Batches intern stat names afresh, in their own order. */
	strmap_release(&jr->statnames);
	strmap_init(&jr->statnames);
	memset(jr->keystat, 0, jr->argkeys.n * sizeof *jr->keystat);
	free(jr->statproto);
	jr->statproto = NULL;
	jr->nstatproto = 0;
	free(jr->deferred);
	jr->deferred = NULL;
	jr->storing = 0;
}

/* Pass 1, storing: the event is kept while all events fit the budget. */
static void
store_event(struct jr *jr, struct jline *l, uint32_t meta, size_t nstats,
    size_t nbytes)
{
	jr->weight += sizeof(struct jev) + nstats * sizeof(struct jstat) +
	    nbytes;
	if (jr->weight > jr->budget) {
		unstore(jr);
		return;
	}
	if (l->fill == l->capev) {
		l->capev = l->capev == 0 ? 16 : l->capev * 2;
		l->ev = xreallocarray(l->ev, l->capev, sizeof *l->ev);
	}
	if (jr->capstats - jr->nstats < nstats) {
		jr->capstats = jr->capstats * 2 > jr->nstats + nstats ?
		    jr->capstats * 2 : jr->nstats + nstats + 1024;
		jr->stats = xreallocarray(jr->stats, jr->capstats,
		    sizeof *jr->stats);
	}
	if (jr->capstrs - jr->nstrs < nbytes) {
		jr->capstrs = jr->capstrs * 2 > jr->nstrs + nbytes ?
		    jr->capstrs * 2 : jr->nstrs + nbytes + 65536;
		jr->strs = xreallocarray(jr->strs, jr->capstrs, 1);
	}
	jr_add_event(jr, l, meta);
}

/*
 * Pass 1: counts the event on its line and interns its name (and keeps
 * it, while storing).
 */
static void
count_event(struct jr *jr)
{
	struct cur *c = &jr->cur;
	struct jplane *p;
	struct jline *l;
	size_t nstats, nbytes, keylen;
	const char *key;
	uint32_t id;
	int added;

	if (c->ph == 'E') {
		l = line_find(jr, c->pid, c->tid);
		if (l != NULL && l->depth > 0)
			l->depth--;
		if (l != NULL && jr->storing)
			(void)jr_close_event(jr, l);
		return;
	}
	l = line_get(jr, c->pid, c->tid);
	if (c->ph == 'B')
		l->depth++;
	l->nslots++;
	event_size(c, &nstats, &nbytes);
	l->nstats += nstats;
	l->nbytes += nbytes;
	if (!c->has_name)
		jr->rs->missing_event_metadata++;
	p = &jr->planes[l->plane];
	key = meta_key(jr, &keylen);
	id = intern_cached(jr->metacache, l->plane, &p->metas, key, keylen,
	    &added);
	if (added) {
		p->split = xreallocarray(p->split, p->metas.n,
		    sizeof *p->split);
		p->split[id] = c->long_arg != SIZE_MAX ? c->name.len :
		    SIZE_MAX;
	}
	if (jr->storing)
		store_event(jr, l, id, nstats, nbytes);
}

/* Pass 2: keeps the event if its line is in the batch. */
static int
keep_event(struct jr *jr)
{
	struct cur *c = &jr->cur;
	struct jline *l = line_find(jr, c->pid, c->tid);
	int64_t meta;
	size_t nstats, nbytes, keylen;
	const char *key;

	if (l == NULL)
		return c->ph == 'E' ? 1 : changed(jr);
	if (l->ev == NULL)
		return 1;
	if (c->ph == 'E')
		return jr_close_event(jr, l);
	key = meta_key(jr, &keylen);
	meta = strmap_find(&jr->planes[l->plane].metas, key, keylen);
	if (l->fill == l->nslots || meta < 0)
		return changed(jr);
	event_size(c, &nstats, &nbytes);
	if (jr->capstats - jr->nstats < nstats ||
	    jr->capstrs - jr->nstrs < nbytes)
		return changed(jr);
	jr_add_event(jr, l, (uint32_t)meta);
	return 1;
}

/*
 * An event's ts in a trace stamped with the epoch (jaxprof(1), IMPOSSIBLE
 * TIMES), as xprof reads one: the first ts past PS_LIMIT sets the origin,
 * every ts is then ps after it, and a span past PS_LIMIT cannot be held.
 * 0 on failure.
 */
static int
event_time(struct jr *jr)
{
	struct cur *c = &jr->cur;
	int64_t rel;

	if (jr->origin_ns == 0 && !c->ts_big) {
		jr->timed = 1;
		return 1;
	}
	if (jr->origin_ns == 0) {
		if (jr->timed)
			return jr_fail(jr, "pid %lld tid %lld event '%.*s': ts "
			    "%lld ns is more than %lld ps after an earlier "
			    "event's", (long long)c->pid, (long long)c->tid,
			    (int)c->name.len, c->name.p != NULL ? c->name.p :
			    "", (long long)c->ts_ns, (long long)PS_LIMIT);
		jr->origin_ns = c->ts_ns;
		jr->first_ps = jr->last_ps = 0;
	}
	rel = c->ts_big ? c->ts_ns - jr->origin_ns : -PS_LIMIT / 1000 - 1;
	if (rel < -PS_LIMIT / 1000 || rel > PS_LIMIT / 1000 ||
	    rel * 1000 > jr->first_ps + PS_LIMIT ||
	    rel * 1000 < jr->last_ps - PS_LIMIT)
		return jr_fail(jr, "pid %lld tid %lld event '%.*s': ts %lld ns "
		    "is more than %lld ps from the trace's other events (the "
		    "first ts past that limit: %lld ns)", (long long)c->pid, (long long)c->tid,
		    (int)c->name.len, c->name.p != NULL ? c->name.p : "",
		    (long long)(c->ts_big ? c->ts_ns : c->ts_ps / 1000),
		    (long long)PS_LIMIT, (long long)jr->origin_ns);
	c->ts_ps = rel * 1000;
	if (c->ts_ps < jr->first_ps)
		jr->first_ps = c->ts_ps;
	if (c->ts_ps > jr->last_ps)
		jr->last_ps = c->ts_ps;
	return 1;
}

static int
event_end(struct jr *jr)
{
	struct cur *c = &jr->cur;

	switch (c->ph) {
	case 'M':
		if (jr->pass == 1)
			meta_event(jr);
		return 1;
	case 'X':
	case 'B':
	case 'E':
	case 'i':
	case 'I':
		break;
	default:
		/* No ph (the trailing {}), or a kind that is no event. */
		return 1;
	}
	if (!event_time(jr))
		return 0;
	/*
	 * Impossible times (jaxprof(1), IMPOSSIBLE TIMES) reject the file;
	 * event_time() has checked the ts of a trace with an origin.
	 */
	if ((jr->origin_ns == 0 && !ps_valid(c->ts_ps)) ||
	    (c->ph == 'X' && !ps_valid(c->dur_ps)))
		return jr_fail(jr, "pid %lld tid %lld event '%.*s': impossible "
		    "%s %lld ps (must be 0 to %lld)", (long long)c->pid,
		    (long long)c->tid, (int)c->name.len,
		    c->name.p != NULL ? c->name.p : "",
		    !ps_valid(c->ts_ps) ? "ts" : "dur",
		    (long long)(!ps_valid(c->ts_ps) ? c->ts_ps : c->dur_ps),
		    (long long)PS_LIMIT);
	if (jr->pass == 1) {
		count_event(jr);
		return 1;
	}
	return keep_event(jr);
}

/* ---- Parser callbacks ---- */

enum scalar {
	S_NULL,
	S_BOOL,
	S_NUM,
	S_STR,
};

/* The event key k[0..n): the ones read are matched without a loop. */
static enum field
field_of(const char *k, size_t n)
{
	switch (n) {
	case 2:
		if (k[0] == 'p' && k[1] == 'h')
			return F_PH;
		if (k[0] == 't' && k[1] == 's')
			return F_TS;
		break;
	case 3:
		if (memcmp(k, "pid", 3) == 0)
			return F_PID;
		if (memcmp(k, "tid", 3) == 0)
			return F_TID;
		if (memcmp(k, "dur", 3) == 0)
			return F_DUR;
		break;
	case 4:
		if (memcmp(k, "name", 4) == 0)
			return F_NAME;
		if (memcmp(k, "args", 4) == 0)
			return F_ARGS;
		break;
	}
	return F_OTHER;
}

/* An integer field: pid or tid. */
static inline int
int_field(struct jr *jr, const char *what, const char *s, size_t n,
    struct last_int *last, int64_t *out)
{
	struct json_number d;
	int exact;

	if (n != 0 && n == last->len && same_bytes(s, last->text, n)) {
		*out = last->value;
		return 1;
	}
	if (!json_number_quick(s, n, 0, out) && (json_number_parse(s, n, &d) == -1 ||
	    json_number_to_int(&d, 0, out, &exact) == -1 || !exact))
		return jr_fail(jr, "%s '%.*s' is not an integer", what,
		    (int)(n > 40 ? 40 : n), s);
	if (n <= sizeof last->text) {
		memcpy(last->text, s, n);
		last->len = n;
		last->value = *out;
	}
	return 1;
}

/* A time field, µs: ts or dur, to ps. */
static inline int
time_field(struct jr *jr, const char *what, const char *s, size_t n,
    int64_t *out)
{
	struct json_number d;
	int exact;

	if (json_number_quick(s, n, 6, out))
		return 1;
	if (json_number_parse(s, n, &d) == -1)
		return jr_fail(jr, "%s '%.*s' is not a number", what,
		    (int)(n > 40 ? 40 : n), s);
	if (json_number_to_int(&d, 6, out, &exact) == -1)
		return jr_fail(jr, "%s %.*s us is out of range", what,
		    (int)(n > 40 ? 40 : n), s);
	return 1;
}

/*
 * ts: in ps when it fits PS_LIMIT, else (ts_big) in ns, for event_time()
 * to place once the event's kind is known.
 */
static inline int
ts_field(struct jr *jr, const char *s, size_t n)
{
	struct cur *c = &jr->cur;
	struct json_number d;
	int exact;

	if (json_number_quick(s, n, 6, &c->ts_ps) && ps_valid(c->ts_ps))
		return 1;
	if (json_number_parse(s, n, &d) == -1)
		return jr_fail(jr, "ts '%.*s' is not a number",
		    (int)(n > 40 ? 40 : n), s);
	if (json_number_to_int(&d, 6, &c->ts_ps, &exact) == 0 &&
	    (c->ts_ps < 0 || ps_valid(c->ts_ps)))
		return 1;
	if (d.neg || json_number_to_int(&d, 3, &c->ts_ns, &exact) == -1)
		return jr_fail(jr, "ts %.*s us is out of range",
		    (int)(n > 40 ? 40 : n), s);
	c->ts_big = 1;
	return 1;
}

static inline int
event_field(struct jr *jr, enum scalar t, const char *s, size_t n)
{
	struct cur *c = &jr->cur;

	if (t == S_NULL || t == S_BOOL)
		return 1;
	switch (c->field) {
	case F_PH:
		if (t == S_STR)
			c->ph = n == 1 ? s[0] : '?';
		return 1;
	case F_PID:
		return int_field(jr, "pid", s, n, &jr->last_pid, &c->pid);
	case F_TID:
		return int_field(jr, "tid", s, n, &jr->last_tid, &c->tid);
	case F_TS:
		return ts_field(jr, s, n);
	case F_DUR:
		return time_field(jr, "dur", s, n, &c->dur_ps);
	case F_NAME:
		c->name.len = 0;
		buf_add(&c->name, s, n);
		c->has_name = 1;
		return 1;
	default:
		return 1;
	}
}

static int
event_arg(struct jr *jr, enum scalar t, const char *s, size_t n)
{
	struct cur *c = &jr->cur;
	struct arg *a;
	struct json_number d;
	int exact;

	if (t == S_NULL)
		return 1;
	if (c->nargs == c->capargs) {
		c->capargs = c->capargs == 0 ? 16 : c->capargs * 2;
		c->args = xreallocarray(c->args, c->capargs, sizeof *c->args);
		/* Key 0 for arg_key() to try in the places not used yet. */
		memset(c->args + c->nargs, 0,
		    (c->capargs - c->nargs) * sizeof *c->args);
	}
	a = &c->args[c->nargs++];
	a->key = c->argkey;
	a->kind = PF_INT64;
	a->is_str = 0;
	a->i = 0;
	a->d = 0;
	a->val = a->vallen = 0;
	switch (t) {
	case S_BOOL:
		a->i = s[0] == 't';
		break;
	case S_NUM:
		if (json_number_quick(s, n, 0, &a->i))
			break;
		if (json_number_parse(s, n, &d) == 0 &&
		    json_number_to_int(&d, 0, &a->i, &exact) == 0 && exact)
			break;
		/* jaxprof never calls setlocale: strtod reads a '.'. */
		jr->num.len = 0;
		buf_add(&jr->num, s, n);
		a->kind = PF_DOUBLE;
		a->d = strtod(jr->num.p, NULL);
		break;
	default:
		a->is_str = 1;
		if (!json_plain_int(s, n, &a->i)) {
			a->kind = PF_STR;
			c->strbytes += STR_HEAD + n;
		}
		/* An integer string's text is read only as a name. */
		if (a->kind == PF_STR || a->key == KEY_NAME ||
		    a->key == KEY_LONG_NAME) {
			a->val = c->text.len;
			a->vallen = n;
			buf_add(&c->text, s, n);
		}
		/* The first string long_name is the event's name. */
		if (a->key == KEY_LONG_NAME && c->long_arg == SIZE_MAX)
			c->long_arg = c->nargs - 1;
	}
	return 1;
}

static inline int
on_scalar(struct jr *jr, enum scalar t, const char *s, size_t n)
{
	if (jr->evd == 0) {
		if (jr->depth == 0)
			return jr_fail(jr, "not a trace: the JSON text is not "
			    "an object or an array");
		if (jr->depth == 1 && jr->top_events)
			return jr_fail(jr, "traceEvents is not an array");
		return 1;
	}
	if (jr->depth == jr->evd + 1)
		return event_field(jr, t, s, n);
	if (jr->depth == jr->evd + 2 && jr->in_args)
		return event_arg(jr, t, s, n);
	return 1;
}

static int
on_null(void *ctx)
{
	return on_scalar(ctx, S_NULL, "null", 4);
}

static int
on_boolean(void *ctx, int v)
{
	return on_scalar(ctx, S_BOOL, v ? "true" : "false", v ? 4 : 5);
}

static int
on_number(void *ctx, const char *s, size_t n)
{
	return on_scalar(ctx, S_NUM, s, n);
}

static int
on_string(void *ctx, const char *s, size_t n)
{
	return on_scalar(ctx, S_STR, s, n);
}

static int
on_start_map(void *ctx)
{
	struct jr *jr = ctx;
	struct cur *c = &jr->cur;

	jr->depth++;
	if (jr->depth == 1) {
		jr->top = '{';
		return 1;
	}
	if (jr->evd == 0)
		return jr->depth == 2 && jr->top_events ?
		    jr_fail(jr, "traceEvents is not an array") : 1;
	if (jr->depth == jr->evd + 1) {
		c->ph = 0;
		c->pid = c->tid = c->ts_ps = c->dur_ps = c->ts_ns = 0;
		c->ts_big = 0;
		c->has_name = 0;
		c->name.len = 0;
		c->text.len = 0;
		c->nargs = 0;
		c->long_arg = SIZE_MAX;
		c->strbytes = 0;
		c->field = F_OTHER;
	} else if (jr->depth == jr->evd + 2 && c->field == F_ARGS)
		jr->in_args = 1;
	return 1;
}

static int
on_map_key(void *ctx, const char *k, size_t n)
{
	struct jr *jr = ctx;
	struct cur *c = &jr->cur;

	if (jr->depth == 1 && jr->top == '{') {
		jr->top_events = n == 11 && memcmp(k, "traceEvents", n) == 0;
		return 1;
	}
	if (jr->evd == 0)
		return 1;
	if (jr->depth == jr->evd + 1)
		c->field = field_of(k, n);
	else if (jr->depth == jr->evd + 2 && jr->in_args) {
		c->argkey = arg_key(jr, k, n);
	}
	return 1;
}

static int
on_end_map(void *ctx)
{
	struct jr *jr = ctx;
	int rc = 1;

	if (jr->evd != 0 && jr->depth == jr->evd + 1)
		rc = event_end(jr);
	else if (jr->evd != 0 && jr->depth == jr->evd + 2)
		jr->in_args = 0;
	jr->depth--;
	return rc;
}

static int
on_start_array(void *ctx)
{
	struct jr *jr = ctx;

	jr->depth++;
	if (jr->depth == 1) {
		jr->top = '[';
		jr->evd = 1;
		jr->saw_events = 1;
	} else if (jr->depth == 2 && jr->evd == 0 && jr->top_events) {
		jr->evd = 2;
		jr->saw_events = 1;
	}
	return 1;
}

static int
on_end_array(void *ctx)
{
	struct jr *jr = ctx;

	if (jr->depth == jr->evd)
		jr->evd = 0;
	jr->depth--;
	return 1;
}

static const struct json_lex_cb callbacks = {
	.null = on_null,
	.boolean = on_boolean,
	.number = on_number,
	.string = on_string,
	.start_map = on_start_map,
	.map_key = on_map_key,
	.end_map = on_end_map,
	.start_array = on_start_array,
	.end_array = on_end_array,
};

/* ---- Passes over the file ---- */

/*
 * The rest of the text after a parse that ended: rc -1 is a callback's
 * stop or the parser's error, at offset; 0 is all of it read.
 */
static int
pass_end(struct jr *jr, int rc, uint64_t offset, const char *lex_error,
    char **cause)
{
	if (rc == 0 && jr->offset == 0) {
		*cause = xstrdup("empty file");
		rc = -1;
	} else if (rc == -1) {
		/* A callback's error (jr_fail()), else the parser's. */
		*cause = xasprintf("at %s %" PRIu64 ": %s", byte_kind(jr),
		    offset, jr->what != NULL ? jr->what : lex_error);
	} else if (!jr->saw_events) {
		*cause = xstrdup("not a trace: no traceEvents array");
		rc = -1;
	}
	return rc;
}

/* Inflates ahead (read-ahead.h) and tokenizes in this thread. */
static int
run_inflated(struct jr *jr, char **cause)
{
	struct ahead *ahead;
	const char *chunk;
	ssize_t n;
	int rc = 0;

	jr->lx = json_lex_new(&callbacks, jr);
	ahead = ahead_start(jr->gz, READ_CHUNK);
	/* gzip errors (gzip.h) say where in the compressed file. */
	while ((n = ahead_next(ahead, &chunk, cause)) > 0 &&
	    (rc = json_lex_feed(jr->lx, chunk, (size_t)n)) == 0)
		jr->offset += (uint64_t)n;
	if (n < 0)
		rc = -1;
	else {
		if (rc == 0 && jr->offset > 0)
			rc = json_lex_finish(jr->lx);
		rc = pass_end(jr, rc, json_lex_offset(jr->lx),
		    json_lex_error(jr->lx), cause);
	}
	ahead_stop(ahead);
	json_lex_free(jr->lx);
	jr->lx = NULL;
	return rc;
}

/* Streams the whole file through the parser once; -1 with *cause on error. */
static int
run_pass(struct jr *jr, char **cause)
{
	int rc;

	if (gzr_rewind(jr->gz) == -1) {
		*cause = xasprintf("cannot rewind: %s", strerror(errno));
		return -1;
	}
	jr->offset = 0;
	jr->depth = jr->top = jr->top_events = jr->evd = jr->in_args = 0;
	jr->saw_events = 0;
	rc = run_inflated(jr, cause);
	free(jr->what);
	jr->what = NULL;
	return rc;
}

static int
cmp_plane(const void *a, const void *b)
{
	const struct jplane *x = *(struct jplane *const *)a;
	const struct jplane *y = *(struct jplane *const *)b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* By pid, then thread_sort_index (lines having one first), then tid. */
static int
cmp_line(const void *a, const void *b)
{
	const struct jline *x = *(struct jline *const *)a;
	const struct jline *y = *(struct jline *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->has_sort != y->has_sort)
		return x->has_sort ? -1 : 1;
	if (x->has_sort && x->sort != y->sort)
		return x->sort < y->sort ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Nesting order: by start, the longer first, then as in the file. */
static int
cmp_event(const void *a, const void *b)
{
	const struct jev *x = a, *y = b;

	if (x->start_ps != y->start_ps)
		return x->start_ps < y->start_ps ? -1 : 1;
	if (x->dur_ps != y->dur_ps)
		return x->dur_ps > y->dur_ps ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Orders planes and lines once pass 1 has found them all. */
static void
order_tables(struct jr *jr)
{
	struct jplane **pp;
	struct jline **lp;
	size_t i;

	pp = xcalloc(jr->nplanes + 1, sizeof *pp);
	for (i = 0; i < jr->nplanes; i++)
		pp[i] = &jr->planes[i];
	qsort(pp, jr->nplanes, sizeof *pp, cmp_plane);
	jr->porder = xcalloc(jr->nplanes + 1, sizeof *jr->porder);
	for (i = 0; i < jr->nplanes; i++)
		jr->porder[i] = (size_t)(pp[i] - jr->planes);
	free(pp);
	lp = xcalloc(jr->nlines + 1, sizeof *lp);
	for (i = 0; i < jr->nlines; i++) {
		lp[i] = &jr->lines[i];
		lp[i]->nevents = lp[i]->nslots - lp[i]->depth;
	}
	qsort(lp, jr->nlines, sizeof *lp, cmp_line);
	jr->order = xcalloc(jr->nlines + 1, sizeof *jr->order);
	for (i = 0; i < jr->nlines; i++)
		jr->order[i] = (size_t)(lp[i] - jr->lines);
	free(lp);
	for (i = jr->nlines; i-- > 0;) {
		struct jplane *p = &jr->planes[jr->lines[jr->order[i]].plane];

		p->first = i;
		p->nlines++;
	}
}

static size_t
line_weight(const struct jline *l)
{
	return l->nslots * sizeof(struct jev) +
	    l->nstats * sizeof(struct jstat) + l->nbytes;
}

static void
batch_release(struct jr *jr)
{
	size_t k;

	if (jr->stored)
		return;
	for (k = jr->bfirst; k < jr->bend; k++) {
		struct jline *l = &jr->lines[jr->order[k]];

		free(l->stack);
		l->stack = NULL;
		l->nstack = l->capstack = 0;
		l->ev = NULL;
		l->fill = 0;
	}
	free(jr->evs);
	free(jr->stats);
	free(jr->strs);
	jr->evs = NULL;
	jr->stats = NULL;
	jr->strs = NULL;
	jr->bfirst = jr->bend = 0;
	jr->nstats = jr->capstats = jr->nstrs = jr->capstrs = 0;
}

/* Drops the B never closed (they are no events) and sorts the rest. */
static int
line_finish(struct jline *l)
{
	size_t j, n;

	for (j = n = 0; j < l->fill; j++)
		if (!l->ev[j].open)
			l->ev[n++] = l->ev[j];
	if (l->fill != l->nslots || n != l->nevents)
		return -1;
	/* Tracers mostly write a line's events in order already. */
	for (j = 1; j < n; j++)
		if (cmp_event(&l->ev[j - 1], &l->ev[j]) > 0)
			break;
	if (j < n)
		qsort(l->ev, n, sizeof *l->ev, cmp_event);
	return 0;
}

/*
 * Makes the events of lines order[first..) that fit budget (at least one
 * line) ready, each line sorted, in one more pass.
 */
static int
batch_load(struct jr *jr, size_t first, size_t budget, char **cause)
{
	size_t k, nev = 0, w = 0;

	batch_release(jr);
	jr->bfirst = first;
	for (k = first; k < jr->nlines; k++) {
		const struct jline *l = &jr->lines[jr->order[k]];

		if (k > first && w + line_weight(l) > budget)
			break;
		w += line_weight(l);
		nev += l->nslots;
		jr->capstats += l->nstats;
		jr->capstrs += l->nbytes;
	}
	jr->bend = k;
	jr->evs = xcalloc(nev + 1, sizeof *jr->evs);
	jr->stats = xcalloc(jr->capstats + 1, sizeof *jr->stats);
	jr->strs = xmalloc(jr->capstrs + 1);
	for (k = first, nev = 0; k < jr->bend; k++) {
		struct jline *l = &jr->lines[jr->order[k]];

		l->ev = jr->evs + nev;
		nev += l->nslots;
	}
	jr->pass = 2;
	if (run_pass(jr, cause) == -1)
		return -1;
	for (k = first; k < jr->bend; k++)
		if (line_finish(&jr->lines[jr->order[k]]) == -1) {
			*cause = xstrdup("the file changed while being read");
			return -1;
		}
	return 0;
}

static int
emit_line(const struct jr *jr, const struct pf_plane *plane,
    const struct jline *l, struct scratch *scratch,
    const struct pf_handler *h)
{
	struct pf_line line;
	struct pf_event ev;
	char *name = NULL;
	size_t i, j;
	int rc;

	memset(&line, 0, sizeof line);
	line.id = l->tid;
	if (l->name == NULL)
		name = xasprintf("tid %" PRId64, l->tid);
	line.name = l->name != NULL ? l->name : name;
	line.display_name = "";
	line.nevents = l->nevents;
	rc = h->line_begin != NULL ? h->line_begin(h->ctx, plane, &line) : 0;
	for (i = 0; rc == 0 && i < l->nevents; i++) {
		const struct jev *e = &l->ev[i];

		if (e->nstats > scratch->cap) {
			scratch->cap = e->nstats;
			scratch->v = xreallocarray(scratch->v, scratch->cap,
			    sizeof *scratch->v);
		}
		for (j = 0; j < e->nstats; j++) {
			const struct jstat *s = &jr->stats[e->stat_first + j];
			struct pf_stat *st = &scratch->v[j];

			*st = jr->statproto[s->name];
			st->kind = (enum pf_value_kind)s->kind;
			if (s->kind == PF_INT64)
				st->num.i = s->v.i;
			else if (s->kind == PF_DOUBLE)
				st->num.d = s->v.d;
			else {
				memcpy(&st->str.len, jr->strs + s->v.off,
				    STR_HEAD);
				st->str.ptr = jr->strs + s->v.off + STR_HEAD;
			}
		}
		memset(&ev, 0, sizeof ev);
		ev.meta = &plane->metas[e->meta];
		ev.meta_index = e->meta;
		ev.metadata_id = ev.meta->id;
		ev.offset_ps = ev.start_ps = e->start_ps - jr->first_ps;
		ev.duration_ps = e->dur_ps;
		ev.stats = scratch->v;
		ev.nstats = e->nstats;
		if (h->event != NULL)
			rc = h->event(h->ctx, plane, &line, &ev);
	}
	if (rc == 0 && h->line_end != NULL)
		rc = h->line_end(h->ctx, plane, &line);
	free(name);
	return rc == PF_SKIP ? 0 : rc;
}

/*
 * Line order[k]'s events in memory: kept by pass 1 (then only read, so
 * planes may be emitted from several threads at once), else loaded with
 * their batch.
 */
static int
line_ready(struct jr *jr, size_t k, char **cause)
{
	if (jr->stored) {
		if (jr->deferred == NULL)
			return 0;
		*cause = xstrdup(jr->deferred);
		return -1;
	}
	if (k >= jr->bfirst && k < jr->bend)
		return 0;
	return batch_load(jr, k, jr->budget, cause);
}

/* Emits the plane emitted i-th, loading batches as its lines need them. */
static int
emit_plane(struct json_trace *jt, size_t i_th, struct scratch *scratch,
    const struct pf_handler *h, char **cause)
{
	struct jr *jr = &jt->jr;
	const struct jplane *p = &jr->planes[jr->porder[i_th]];
	struct pf_event_meta *metas;
	struct pf_plane plane;
	size_t i, k;
	int rc;

	metas = xcalloc(p->metas.n + 1, sizeof *metas);
	for (i = 0; i <= p->metas.n; i++) {
		metas[i].index = (uint32_t)i;
		metas[i].display_name = "";
		if (i == p->metas.n) {
			metas[i].name = "";
			continue;
		}
		metas[i].id = (int64_t)i + 1;
		metas[i].name = p->metas.strings[i];
		if (p->split[i] != SIZE_MAX) {
			/* "display\0name": the NUL ends the display name. */
			metas[i].display_name = p->metas.strings[i];
			metas[i].name = p->metas.strings[i] + p->split[i] + 1;
		}
	}
	memset(&plane, 0, sizeof plane);
	plane.id = p->pid;
	plane.name = jt->names[i_th];
	plane.nlines = p->nlines;
	plane.metas = metas;
	plane.nmetas = p->metas.n;
	rc = h->plane_begin != NULL ? h->plane_begin(h->ctx, &plane) : 0;
	for (i = 0; rc == 0 && i < p->nlines; i++) {
		k = p->first + i;
		if (line_ready(jr, k, cause) == -1)
			rc = -1;
		else
			rc = emit_line(jr, &plane, &jr->lines[jr->order[k]],
			    scratch, h);
	}
	if (rc == 0 && h->plane_end != NULL)
		rc = h->plane_end(h->ctx, &plane);
	free(metas);
	return rc == PF_SKIP ? 0 : rc;
}

static void
jr_release(struct jr *jr)
{
	size_t i;

	if (jr->storing)
		unstore(jr);	/* lines own their events */
	else
		batch_release(jr);
	for (i = 0; i < jr->nplanes; i++) {
		free(jr->planes[i].name);
		free(jr->planes[i].split);
		strmap_release(&jr->planes[i].metas);
	}
	for (i = 0; i < jr->nlines; i++)
		free(jr->lines[i].name);
	free(jr->planes);
	free(jr->lines);
	free(jr->porder);
	free(jr->order);
	strmap_release(&jr->pids);
	strmap_release(&jr->tids);
	strmap_release(&jr->argkeys);
	free(jr->keystat);
	strmap_release(&jr->statnames);
	free(jr->statproto);
	free(jr->cur.name.p);
	free(jr->cur.text.p);
	free(jr->cur.args);
	free(jr->key.p);
	free(jr->num.p);
	free(jr->what);
	gzr_free(jr->gz);
	if (jr->fd != -1)
		close(jr->fd);
}

void
json_close(struct json_trace *jt)
{
	size_t i;

	if (jt == NULL)
		return;
	for (i = 0; jt->names != NULL && i < jt->jr.nplanes; i++)
		free(jt->names[i]);
	free(jt->names);
	jr_release(&jt->jr);
	free(jt->path);
	free(jt);
}

int
json_open(const char *path, size_t budget, struct json_trace **out,
    struct pf_read_stats *rs, char **cause)
{
	struct json_trace *jt = xcalloc(1, sizeof *jt);
	struct jr *jr = &jt->jr;
	size_t i;

	*out = NULL;
	memset(rs, 0, sizeof *rs);
	jr->fd = -1;
	jr->rs = &jt->rs;
	jr->budget = budget;
	strmap_init(&jr->pids);
	strmap_init(&jr->tids);
	strmap_init(&jr->argkeys);
	(void)arg_key(jr, "long_name", 9);
	(void)arg_key(jr, "name", 4);
	(void)arg_key(jr, "sort_index", 10);
	strmap_init(&jr->statnames);
	errno = 0;
	jr->path = jt->path = xstrdup(path);
	if ((jr->fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		*cause = xstrdup(strerror(errno));
		json_close(jt);
		return -1;
	}
	jr->gz = gzr_open(jr->fd);
	jr->pass = 1;
	jr->storing = 1;
	if (run_pass(jr, cause) == -1) {
		json_close(jt);
		return -1;
	}
	jt->rs.bytes = jr->offset;
	*rs = jt->rs;
	order_tables(jr);
	jt->names = xcalloc(jr->nplanes + 1, sizeof *jt->names);
	for (i = 0; i < jr->nplanes; i++) {
		const struct jplane *p = &jr->planes[jr->porder[i]];

		jt->names[i] = p->name != NULL ? xstrdup(p->name) :
		    xasprintf("pid %" PRId64, p->pid);
	}
	if (jr->storing) {
		jr->stored = 1;
		for (i = 0; jr->deferred == NULL && i < jr->nlines; i++)
			(void)line_finish(&jr->lines[i]);
	}
	*out = jt;
	return 0;
}

size_t
json_nplanes(const struct json_trace *jt)
{
	return jt->jr.nplanes;
}

char *const *
json_plane_names(const struct json_trace *jt)
{
	return jt->names;
}

int
json_planes_apart(const struct json_trace *jt)
{
	return jt->jr.stored;
}

int
json_emit_space(struct json_trace *jt, const struct pf_handler *h)
{
	struct pf_space space;

	memset(&space, 0, sizeof space);
	space.path = jt->jr.path;
	space.nplanes = jt->jr.nplanes;
	return h->space != NULL ? h->space(h->ctx, &space) : 0;
}

int
json_emit_plane(struct json_trace *jt, size_t i, const struct pf_handler *h,
    char **cause)
{
	struct scratch scratch = { NULL, 0 };
	int rc = emit_plane(jt, i, &scratch, h, cause);

	free(scratch.v);
	return rc;
}

int
json_emit(struct json_trace *jt, const struct pf_handler *h, char **cause)
{
	struct scratch scratch = { NULL, 0 };
	size_t i;
	int rc;

	rc = json_emit_space(jt, h);
	for (i = 0; rc == 0 && i < jt->jr.nplanes; i++)
		rc = emit_plane(jt, i, &scratch, h, cause);
	free(scratch.v);
	return rc;
}

int
json_read_budget(const char *path, size_t budget, const struct pf_handler *h,
    struct pf_read_stats *rs, char **cause)
{
	struct json_trace *jt;
	int rc;

	if (json_open(path, budget, &jt, rs, cause) == -1)
		return -1;
	rc = json_emit(jt, h, cause);
	json_close(jt);
	return rc;
}

int
json_read(const char *path, const struct pf_handler *h,
    struct pf_read_stats *rs, char **cause)
{
	return json_read_budget(path, JSON_BATCH_BYTES, h, rs, cause);
}
