/*
 * The limit that `jaxprof top` on an XSpace is measured against: a bare,
 * single-threaded walk of the protobuf wire format that sums device time
 * per op.  It mmaps the file, reads every XSpace -> XPlane -> XLine ->
 * XEvent once, resolves each event's stats through the plane's stat
 * metadata (a ref value names a stat metadata entry) and adds duration_ps
 * to its op's total in a hash table.  An event's op is its `hlo_op` stat
 * (its own, else its event metadata's), else on an "XLA Ops" line its
 * event metadata's name: what XLA writes for GPU kernels and for ops.
 * Every event of every plane is read; only those of /device: planes count.
 *
 *   xspace-walk [-v] FILE.xplane.pb
 *
 * Prints "ops N events M total_ps T"; with -v also one line per op,
 * "name<TAB>count<TAB>total_ps", in name order, for checking its sums
 * against jaxprof's.  Standalone: libc only.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct cur {
	const uint8_t *p, *end;
};

static void
die(const char *msg)
{
	fprintf(stderr, "xspace-walk: %s\n", msg);
	exit(2);
}

static uint64_t
varint(struct cur *c)
{
	uint64_t x = 0;
	int shift;

	if (c->p < c->end && *c->p < 0x80)	/* most are one byte */
		return *c->p++;
	for (shift = 0; shift < 70 && c->p < c->end; shift += 7) {
		uint8_t b = *c->p++;

		x |= (uint64_t)(b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return x;
	}
	die("bad varint");
	return 0;
}

/* The next field: its number, wire type, and value or payload. */
static int
field(struct cur *c, int *wt, uint64_t *v, struct cur *sub)
{
	uint64_t tag = varint(c);

	*wt = (int)(tag & 7);
	switch (*wt) {
	case 0:
		*v = varint(c);
		break;
	case 1:
		if (c->end - c->p < 8)
			die("truncated");
		memcpy(v, c->p, 8);
		c->p += 8;
		break;
	case 2:
		*v = varint(c);
		if (*v > (uint64_t)(c->end - c->p))
			die("length past the end");
		sub->p = c->p;
		sub->end = c->p + *v;
		c->p += *v;
		break;
	case 5:
		if (c->end - c->p < 4)
			die("truncated");
		c->p += 4;
		break;
	default:
		die("unsupported wire type");
	}
	return (int)(tag >> 3);
}

/* What a metadata id stands for: a name, and for events an hlo_op. */
struct meta {
	struct cur name, op;
	size_t op_index;		/* in op_of_ptr: the op of name */
	size_t name_op, op_op;		/* event metadata: ops of name, op */
};

/* int64 -> struct meta, open addressing. */
struct imap {
	int64_t *keys;
	struct meta *vals;
	uint8_t *used;
	size_t cap, n;
};

static size_t
islot(const struct imap *m, int64_t k)
{
	size_t i = (size_t)(((uint64_t)k * 0x9e3779b97f4a7c15ULL) >> 17) &
	    (m->cap - 1);

	while (m->used[i] && m->keys[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void
iput(struct imap *m, int64_t k, struct meta v)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct imap old = *m;

		m->cap = old.cap ? old.cap * 2 : 64;
		m->keys = calloc(m->cap, sizeof *m->keys);
		m->vals = calloc(m->cap, sizeof *m->vals);
		m->used = calloc(m->cap, 1);
		if (!m->keys || !m->vals || !m->used)
			die("out of memory");
		m->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.used[i])
				iput(m, old.keys[i], old.vals[i]);
		free(old.keys);
		free(old.vals);
		free(old.used);
	}
	i = islot(m, k);
	if (!m->used[i])
		m->n++;
	m->used[i] = 1;
	m->keys[i] = k;
	m->vals[i] = v;
}

static struct meta *
iget(const struct imap *m, int64_t k)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	i = islot(m, k);
	return m->used[i] ? &m->vals[i] : NULL;
}

static void
iclear(struct imap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof *m);
}

/* Op name -> count and total, keyed by the bytes of the name. */
struct op {
	const uint8_t *name;
	size_t len;
	uint64_t count, total_ps;
};

static struct op *ops;		/* nops, in order of first sight */
static uint32_t *op_hash;	/* op_cap slots: index + 1, 0 empty */
static size_t op_cap, nops;
static struct imap op_of_ptr;	/* a metadata name's address -> op */

static uint64_t
hash_bytes(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

/* The op of a name, by its bytes. */
static size_t
op_intern(const uint8_t *name, size_t len)
{
	size_t i, j;

	if ((nops + 1) * 2 > op_cap) {
		free(op_hash);
		op_cap = op_cap ? op_cap * 2 : 1024;
		op_hash = calloc(op_cap, sizeof *op_hash);
		ops = realloc(ops, op_cap / 2 * sizeof *ops);
		if (op_hash == NULL || ops == NULL)
			die("out of memory");
		for (j = 0; j < nops; j++) {
			for (i = hash_bytes(ops[j].name, ops[j].len) &
			    (op_cap - 1); op_hash[i] != 0;
			    i = (i + 1) & (op_cap - 1))
				;
			op_hash[i] = (uint32_t)j + 1;
		}
	}
	for (i = hash_bytes(name, len) & (op_cap - 1); op_hash[i] != 0;
	    i = (i + 1) & (op_cap - 1)) {
		struct op *o = &ops[op_hash[i] - 1];

		if (o->len == len && memcmp(o->name, name, len) == 0)
			return op_hash[i] - 1;
	}
	memset(&ops[nops], 0, sizeof ops[nops]);
	ops[nops].name = name;
	ops[nops].len = len;
	op_hash[i] = (uint32_t)++nops;
	return nops - 1;
}

/*
 * The op of a name that lives in metadata: the same bytes at the same
 * address for every event that refers to it, so hashed once.
 */
static size_t
op_of_metadata_name(struct cur name)
{
	const struct meta *m = iget(&op_of_ptr, (int64_t)(uintptr_t)name.p);
	struct meta v;

	if (m != NULL && m->name.end == name.end)
		return m->op_index;
	memset(&v, 0, sizeof v);
	v.name = name;
	v.op_index = op_intern(name.p, (size_t)(name.end - name.p));
	iput(&op_of_ptr, (int64_t)(uintptr_t)name.p, v);
	return v.op_index;
}

/* A plane's tables: stat metadata names, event metadata names and ops. */
struct plane {
	struct imap stat_names;		/* stat metadata id -> name */
	struct imap metas;		/* event metadata id -> name, hlo_op */
	int64_t hlo_op_id;		/* -1: no stat named hlo_op */
	int device;			/* a /device: plane: its ops count */
};

/*
 * The op named by an XStat if it is hlo_op: 1 and *op, else 0; *is_ref
 * when the name is a stat metadata entry's.
 */
static int
stat_op(const struct plane *pl, struct cur c, struct cur *op, int *is_ref)
{
	int64_t id = -1;
	int have = 0, wt;

	while (c.p < c.end) {
		struct cur sub;
		uint64_t v;
		const struct meta *name;

		switch (field(&c, &wt, &v, &sub)) {
		case 1:
			id = (int64_t)v;
			if (id != pl->hlo_op_id)
				return 0;
			break;
		case 5:
			*op = sub;
			*is_ref = 0;
			have = 1;
			break;
		case 7:
			if ((name = iget(&pl->stat_names, (int64_t)v)) != NULL) {
				*op = name->name;
				*is_ref = 1;
				have = 1;
			}
			break;
		}
	}
	return have && id == pl->hlo_op_id;
}

static uint64_t nevents, total_ps;

static void
walk_line(struct plane *pl, struct cur c)
{
	struct cur scan = c, sub;
	uint64_t v;
	int wt, xla_ops = 0;

	/* The line's name, usually its first field. */
	while (scan.p < scan.end)
		if (field(&scan, &wt, &v, &sub) == 2) {
			xla_ops = pl->device && sub.end - sub.p == 7 &&
			    memcmp(sub.p, "XLA Ops", 7) == 0;
			break;
		}
	while (c.p < c.end) {
		struct cur ev;
		uint64_t dur = 0;
		int64_t meta = 0;
		int have = 0, is_ref = 0;
		struct cur op;
		size_t k;

		if (field(&c, &wt, &v, &ev) != 4 || wt != 2)
			continue;
		nevents++;
		while (ev.p < ev.end) {
			switch (field(&ev, &wt, &v, &sub)) {
			case 1:
				meta = (int64_t)v;
				break;
			case 3:
				dur = v;
				break;
			case 4:
				if (!have && stat_op(pl, sub, &op, &is_ref))
					have = 1;
				break;
			}
		}
		if (!pl->device)
			continue;
		if (!have) {
			struct meta *m = iget(&pl->metas, meta);

			/* Each entry's ops are found once, at first use. */
			if (m != NULL && m->op.p != NULL) {
				if (m->op_op == SIZE_MAX)
					m->op_op = op_of_metadata_name(m->op);
				k = m->op_op;
			} else if (m != NULL && xla_ops) {
				if (m->name_op == SIZE_MAX)
					m->name_op = op_of_metadata_name(m->name);
				k = m->name_op;
			} else
				continue;
		} else
			k = is_ref ? op_of_metadata_name(op) :
			    op_intern(op.p, (size_t)(op.end - op.p));
		ops[k].count++;
		ops[k].total_ps += dur;
		total_ps += dur;
	}
}

/* A map entry's key (field 1) and value (field 2). */
static void
map_entry(struct cur c, int64_t *key, struct cur *value)
{
	int wt;

	*key = 0;
	value->p = value->end = c.p;
	while (c.p < c.end) {
		struct cur sub;
		uint64_t v;
		int f = field(&c, &wt, &v, &sub);

		if (f == 1)
			*key = (int64_t)v;
		else if (f == 2)
			*value = sub;
	}
}

static void
walk_plane(struct cur c)
{
	struct plane pl;
	struct cur scan = c, name = { NULL, NULL };
	int wt;

	memset(&pl, 0, sizeof pl);
	pl.hlo_op_id = -1;
	/* Metadata follows the lines on the wire: names first. */
	while (scan.p < scan.end) {
		struct cur sub, value;
		struct meta n;
		uint64_t v;
		int64_t key;

		switch (field(&scan, &wt, &v, &sub)) {
		case 2:
			name = sub;
			break;
		case 5:
			map_entry(sub, &key, &value);
			memset(&n, 0, sizeof n);
			n.name.p = n.name.end = value.p;
			while (value.p < value.end) {
				struct cur s;

				if (field(&value, &wt, &v, &s) == 2)
					n.name = s;
			}
			iput(&pl.stat_names, key, n);
			if (n.name.end - n.name.p == 6 &&
			    memcmp(n.name.p, "hlo_op", 6) == 0)
				pl.hlo_op_id = key;
			break;
		}
	}
	pl.device = name.p != NULL && name.end - name.p >= 8 &&
	    memcmp(name.p, "/device:", 8) == 0;
	scan = c;
	while (scan.p < scan.end) {
		struct cur sub, value;
		struct meta m;
		uint64_t v;
		int64_t key;
		int is_ref;

		if (field(&scan, &wt, &v, &sub) != 4)
			continue;
		map_entry(sub, &key, &value);
		memset(&m, 0, sizeof m);
		m.name_op = m.op_op = SIZE_MAX;
		m.name.p = m.name.end = value.p;
		while (value.p < value.end) {
			struct cur s;
			int f = field(&value, &wt, &v, &s);

			if (f == 2)
				m.name = s;
			else if (f == 5 && m.op.p == NULL)
				(void)stat_op(&pl, s, &m.op, &is_ref);
		}
		iput(&pl.metas, key, m);
	}
	scan = c;
	while (scan.p < scan.end) {
		struct cur sub;
		uint64_t v;

		if (field(&scan, &wt, &v, &sub) == 3)
			walk_line(&pl, sub);
	}
	iclear(&pl.stat_names);
	iclear(&pl.metas);
}

static int
by_name(const void *a, const void *b)
{
	const struct op *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);

	return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

int
main(int argc, char **argv)
{
	int verbose = argc == 3 && strcmp(argv[1], "-v") == 0, fd, wt;
	struct stat sb;
	struct cur c;
	void *map;
	size_t i;

	if (argc != 2 + verbose)
		die("usage: xspace-walk [-v] FILE.xplane.pb");
	if ((fd = open(argv[argc - 1], O_RDONLY)) == -1 ||
	    fstat(fd, &sb) == -1)
		die("cannot open the file");
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		die("cannot map the file");
	c.p = map;
	c.end = c.p + sb.st_size;
	while (c.p < c.end) {
		struct cur sub;
		uint64_t v;

		if (field(&c, &wt, &v, &sub) == 1)
			walk_plane(sub);
	}
	printf("ops %zu events %llu total_ps %llu\n", nops,
	    (unsigned long long)nevents, (unsigned long long)total_ps);
	if (verbose) {
		qsort(ops, nops, sizeof *ops, by_name);
		for (i = 0; i < nops; i++)
			printf("%.*s\t%llu\t%llu\n", (int)ops[i].len,
			    (const char *)ops[i].name,
			    (unsigned long long)ops[i].count,
			    (unsigned long long)ops[i].total_ps);
	}
	return 0;
}
