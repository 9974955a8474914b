/* Generate synthetic XSpace profiles and the answers jaxprof must give. */

#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#define RUN_DIR		"plugins/profile/2026_01_01_00_00_00"
#define MODULE_NAME	"jit_train_step"
#define PROGRAM_ID	123456789
#define DERIVED_BASE	3735928559LL	/* 0xdeadbeef: derived line ids */
#define STREAM_ID	7
#define HOST_TS_NS	500000LL	/* host line timestamps (ns) */
#define DEV_TS_NS	1000000LL	/* device line timestamps (ns) */
#define START_PS	2000000000LL	/* first host event (ps) */
#define US		1000000LL	/* ps per microsecond */
#define GAP_MIN_PS	(100 * US)	/* gaps.csv: idle gaps this long */

/* Wire types. */
#define WT_VARINT	0
#define WT_LEN		2

/* XStat value fields. */
#define XS_UINT		3
#define XS_INT		4
#define XS_STR		5
#define XS_REF		7

/* Device plane lines, in file order. */
#define L_STEPS		0
#define L_MODULES	1
#define L_OPS		2
#define L_STREAM	3
#define NDEVLINES	4

/* Busy classes of a device, for breakdown.csv. */
#define BC_COMPUTE	0
#define BC_COLLECTIVE	1
#define BC_TRANSFER	2
#define NBC		3

static int verbose;

struct buf {
	unsigned char	*data;
	size_t		 len;
	size_t		 cap;
};

struct rng {
	uint64_t	 s;		/* xorshift64* state, never 0 */
};

/* Interned names; ids count from 1 in order of first use. */
struct names {
	char		**v;		/* v[id - 1] */
	int		 *aux;		/* per id: op kind index or -1 */
	size_t		  n;
	size_t		  cap;
	uint32_t	 *slot;		/* hash slots: ids, 0 = free */
	size_t		  nslot;	/* power of two */
};

struct line {
	int64_t		 id;
	const char	*name;
	int64_t		 ts_ns;
	struct buf	 head;		/* encoded id, name, timestamp_ns */
	struct buf	 ev;		/* encoded events (field 4 entries) */
};

struct plane {
	struct names	 ev;		/* event metadata */
	struct names	 st;		/* stat metadata */
	struct buf	 pstats;	/* encoded plane stats (field 6) */
	struct buf	 md1stats;	/* encoded stats of event metadata 1 */
	struct buf	 scratch;	/* the XEvent being built */
	struct buf	 md;		/* one metadata message */
	struct buf	 ent;		/* one map entry */
	struct buf	 head;
	struct buf	 tail;
	uint64_t	 nevents;
};

/* Frequently used stat metadata ids of the current device plane. */
struct sids {
	uint64_t	 hlo_category;
	uint64_t	 flops;
	uint64_t	 bytes_accessed;
	uint64_t	 program_id;
	uint64_t	 hlo_module;
	uint64_t	 memcpy_details;
	uint64_t	 module_ref;	/* ref target "jit_train_step" */
};

/* An op template: the base of an HLO instruction name. */
struct tmpl {
	const char	*base;
	const char	*opcode;
	const char	*category;	/* hlo_category */
	const char	*attrs;		/* text after the operands */
	int		 has_flops;
};

/* One op kind: an HLO instruction executed every step. */
struct kind {
	char		*name;		/* display_name, e.g. "fusion.3" */
	char		*hlo;		/* long HLO text (metadata name) */
	const char	*category;
	int		 cat_ref;	/* hlo_category: ref, else str */
	int		 flops_type;	/* 0 none, XS_INT or XS_UINT */
	uint64_t	 flops;		/* per occurrence */
	int		 bytes_type;	/* XS_INT or XS_UINT */
	uint64_t	 bytes;		/* per occurrence, metadata value */
	int		 bytes_per_event; /* event stat overrides metadata */
	int		 pid_type;	/* program_id as XS_INT or XS_UINT */
	int64_t		 base_ps;	/* typical duration */
	int		 child[2];	/* a while's two nested ops, else -1 */
	int		 slow;		/* selected by --slow-op */
	int		 busy;		/* BC_* of its category */
};

/* A busy interval [start, end) of the current device and step. */
struct ival {
	int64_t		 start;
	int64_t		 end;
	int		 cls;		/* BC_* */
};

/* Per op kind sums: one row of top.csv. */
struct acc {
	uint64_t	 count;
	int64_t		 total;
	int64_t		 self;
	int64_t		 min;
	int64_t		 max;
	uint64_t	 flops;
	uint64_t	 bytes;
};

struct sink {
	const char	*path;
	FILE		*fp;
	gzFile		 gz;
	uint64_t	 bytes;		/* uncompressed bytes written */
};

struct gen {
	uint64_t	 seed;
	int		 hosts;
	int		 devices;
	int		 steps;
	int		 ops;
	int		 repeat;
	int		 gzip;
	int		 warn;
	int		 memory;	/* --memory: 0 none, 1 ok, 2 damaged, 3 huge */
	FILE		*f_mem;
	int64_t		 epoch_ns;	/* added to every line's timestamp */
	const char	*slow_op;
	double		 slow_factor;
	const char	*outdir;

	struct kind	*kinds;		/* top-level, then while children */
	int		 nkinds;
	struct acc	*total;		/* per kind, all hosts and devices */
	struct acc	*dacc;		/* per kind, the current device */
	int		*order;		/* sort scratch */

	struct plane	 plane;
	struct line	 dline[NDEVLINES];
	struct line	 hline[3];
	struct sids	 sid;
	struct rng	 rng;		/* the current plane's generator */
	int		 dry;		/* timing pass: emit nothing */
	char		 host[32];	/* current host name */
	char		 dev[32];	/* current device plane name */
	uint64_t	 xcount[2];	/* H2D, D2H */
	uint64_t	 xbytes[2];
	int64_t		 xtime[2];

	int64_t		*len;		/* [device][step] step length */
	int64_t		*start;		/* [step] device step start */
	int64_t		*end;		/* [step] latest device step end */

	FILE		*f_topdev;
	FILE		*f_list;
	FILE		*f_steps;
	FILE		*f_xfer;
	FILE		*f_brk;
	FILE		*f_gaps;

	struct ival	*iv;		/* the current step's busy intervals */
	size_t		 niv;
	size_t		 civ;
	struct ival	*ivu;		/* union scratch */
	size_t		 civu;
	int64_t		 busy_end;	/* end of the device's busy union so far */
	int		 busy_any;	/* busy_end is set */
};

static const struct tmpl tmpls[] = {
	{ "fusion", "fusion", "loop fusion",
	    ", kind=kLoop, calls=%fused_computation", 1 },
	{ "loop_add_fusion", "fusion", "loop fusion",
	    ", kind=kLoop, calls=%fused_add", 1 },
	{ "input_reduce_fusion", "fusion", "input fusion",
	    ", kind=kInput, calls=%fused_reduce", 1 },
	{ "dot", "dot", "convolution",
	    ", lhs_contracting_dims={1}, rhs_contracting_dims={0}", 1 },
	{ "convolution", "convolution", "convolution",
	    ", window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f", 1 },
	{ "all-reduce", "all-reduce", "all-reduce",
	    ", replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=%add", 1 },
	{ "copy", "copy", "copy", "", 0 },
	{ "custom-call", "custom-call", "custom-call",
	    ", custom_call_target=\"__cublas$gemm\"", 0 },
	{ "transpose", "transpose", "data formatting",
	    ", dimensions={1,0}", 0 },
	{ "while", "while", "while",
	    ", condition=%cond, body=%body", 0 },
};
#define NTMPL		(sizeof(tmpls) / sizeof(tmpls[0]))
#define T_FUSION	0
#define T_CUSTOM	7
#define T_WHILE		9

static _Noreturn void
die(const char *fmt, ...)
{
	va_list	 ap;

	fputs("gen-xplane: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n == 0 ? 1 : n)) == NULL)
		die("out of memory");
	return p;
}

static void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size)) == NULL)
		die("out of memory");
	return p;
}

static char *
xstrdup(const char *s)
{
	size_t	 n = strlen(s) + 1;

	return memcpy(xrealloc(NULL, n), s, n);
}

static char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("vsnprintf failed");
	s = xrealloc(NULL, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/*
 * PRNG: splitmix64 to seed, xorshift64* to draw.  Each plane gets its own
 * stream derived from (seed, host, plane), so a timing pass can replay it.
 */
static uint64_t
splitmix(uint64_t *x)
{
	uint64_t	 z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
rng_seed(struct rng *r, uint64_t seed, uint64_t a, uint64_t b)
{
	uint64_t	 x = seed;

	x = splitmix(&x) ^ a;
	x = splitmix(&x) ^ b;
	r->s = splitmix(&x);
	if (r->s == 0)
		r->s = 1;
}

static uint64_t
rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static int64_t
rng_below(struct rng *r, int64_t n)
{
	return (int64_t)(rng_next(r) % (uint64_t)n);
}

/* Protobuf wire encoding. */
static void
buf_reserve(struct buf *b, size_t n)
{
	size_t	 cap;

	if (b->len + n <= b->cap)
		return;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

static void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void
buf_free(struct buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static size_t
varint_len(uint64_t v)
{
	size_t	 n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void
put_varint(struct buf *b, uint64_t v)
{
	buf_reserve(b, 10);
	while (v >= 0x80) {
		b->data[b->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->data[b->len++] = (unsigned char)v;
}

static void
put_key(struct buf *b, int field, int wt)
{
	put_varint(b, (uint64_t)field << 3 | (uint64_t)wt);
}

/* A varint field, written even when 0 (for oneof members). */
static void
put_uint(struct buf *b, int field, uint64_t v)
{
	put_key(b, field, WT_VARINT);
	put_varint(b, v);
}

/* int64 is a plain varint: a negative value takes 10 bytes. */
static void
put_int(struct buf *b, int field, int64_t v)
{
	put_uint(b, field, (uint64_t)v);
}

static void
put_bytes(struct buf *b, int field, const void *p, size_t n)
{
	put_key(b, field, WT_LEN);
	put_varint(b, n);
	buf_add(b, p, n);
}

static void
put_str(struct buf *b, int field, const char *s)
{
	put_bytes(b, field, s, strlen(s));
}

/* An XStat with a varint value (int64, uint64 or ref) as field f. */
static void
put_stat_varint(struct buf *b, int f, uint64_t mdid, int vf, uint64_t v)
{
	put_key(b, f, WT_LEN);
	put_varint(b, 1 + varint_len(mdid) + 1 + varint_len(v));
	put_uint(b, 1, mdid);
	put_uint(b, vf, v);
}

/* An XStat with a str_value as field f. */
static void
put_stat_str(struct buf *b, int f, uint64_t mdid, const char *s)
{
	size_t	 n = strlen(s);

	put_key(b, f, WT_LEN);
	put_varint(b, 1 + varint_len(mdid) + 1 + varint_len(n) + n);
	put_uint(b, 1, mdid);
	put_bytes(b, XS_STR, s, n);
}

/* Name interning. */
static uint64_t
fnv1a(const char *s)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void
names_rehash(struct names *nm)
{
	size_t	 i, j, mask;

	nm->nslot = nm->nslot ? nm->nslot * 2 : 64;
	free(nm->slot);
	nm->slot = xcalloc(nm->nslot, sizeof(*nm->slot));
	mask = nm->nslot - 1;
	for (i = 0; i < nm->n; i++) {
		j = fnv1a(nm->v[i]) & mask;
		while (nm->slot[j] != 0)
			j = (j + 1) & mask;
		nm->slot[j] = (uint32_t)(i + 1);
	}
}

static uint64_t
names_id(struct names *nm, const char *s, int aux)
{
	size_t	 j, mask;

	if ((nm->n + 1) * 2 > nm->nslot)
		names_rehash(nm);
	mask = nm->nslot - 1;
	for (j = fnv1a(s) & mask; nm->slot[j] != 0; j = (j + 1) & mask) {
		if (strcmp(nm->v[nm->slot[j] - 1], s) == 0)
			return nm->slot[j];
	}
	if (nm->n == nm->cap) {
		nm->cap = nm->cap ? nm->cap * 2 : 64;
		nm->v = xrealloc(nm->v, nm->cap * sizeof(*nm->v));
		nm->aux = xrealloc(nm->aux, nm->cap * sizeof(*nm->aux));
	}
	nm->v[nm->n] = xstrdup(s);
	nm->aux[nm->n] = aux;
	nm->n++;
	nm->slot[j] = (uint32_t)nm->n;
	return nm->n;
}

static void
names_clear(struct names *nm)
{
	size_t	 i;

	for (i = 0; i < nm->n; i++)
		free(nm->v[i]);
	nm->n = 0;
	if (nm->slot != NULL)
		memset(nm->slot, 0, nm->nslot * sizeof(*nm->slot));
}

static void
names_free(struct names *nm)
{
	names_clear(nm);
	free(nm->v);
	free(nm->aux);
	free(nm->slot);
	memset(nm, 0, sizeof(*nm));
}

/* Output files. */
static void
mkdir_p(const char *path)
{
	char	*p, *s;

	s = xstrdup(path);
	for (p = s + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		if (p[-1] != '/') {
			char	 c = *p;

			*p = '\0';
			if (mkdir(s, 0777) == -1 && errno != EEXIST)
				die("cannot create '%s': %s", s,
				    strerror(errno));
			*p = c;
		}
		if (*p == '\0')
			break;
	}
	free(s);
}

static FILE *
open_out(const char *dir, const char *name)
{
	FILE	*fp;
	char	*path;

	path = xasprintf("%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL)
		die("cannot create '%s': %s", path, strerror(errno));
	free(path);
	return fp;
}

static void
close_out(FILE *fp, const char *name)
{
	if (ferror(fp) || fclose(fp) == EOF)
		die("cannot write '%s'", name);
}

static void
sink_open(struct sink *sk, const char *path, int gzip)
{
	memset(sk, 0, sizeof(*sk));
	sk->path = path;
	if (gzip) {
		if ((sk->gz = gzopen(path, "wb1")) == NULL)
			die("cannot create '%s'", path);
	} else if ((sk->fp = fopen(path, "wb")) == NULL)
		die("cannot create '%s': %s", path, strerror(errno));
}

static void
sink_write(struct sink *sk, const void *p, size_t n)
{
	const char	*c = p;
	unsigned	 part;

	sk->bytes += n;
	if (sk->fp != NULL) {
		if (n != 0 && fwrite(p, 1, n, sk->fp) != n)
			die("cannot write '%s': %s", sk->path, strerror(errno));
		return;
	}
	while (n > 0) {
		part = n > (1U << 30) ? (1U << 30) : (unsigned)n;
		if (gzwrite(sk->gz, c, part) != (int)part)
			die("cannot write '%s'", sk->path);
		c += part;
		n -= part;
	}
}

static void
sink_key_len(struct sink *sk, int field, uint64_t len)
{
	struct buf	 b = { NULL, 0, 0 };

	put_key(&b, field, WT_LEN);
	put_varint(&b, len);
	sink_write(sk, b.data, b.len);
	buf_free(&b);
}

static void
sink_close(struct sink *sk)
{
	if (sk->fp != NULL) {
		if (fclose(sk->fp) == EOF)
			die("cannot write '%s': %s", sk->path, strerror(errno));
	} else if (gzclose(sk->gz) != Z_OK)
		die("cannot write '%s'", sk->path);
}

/* Planes, lines and events. */
static void
line_init(struct line *l, int64_t id, const char *name, int64_t ts_ns)
{
	l->id = id;
	l->name = name;
	l->ts_ns = ts_ns;
	l->ev.len = 0;
	l->head.len = 0;
}

static void
plane_reset(struct plane *p)
{
	names_clear(&p->ev);
	names_clear(&p->st);
	p->pstats.len = 0;
	p->md1stats.len = 0;
	p->nevents = 0;
}

static void
ev_begin(struct gen *g, struct line *l, uint64_t mdid, int64_t start,
    int64_t dur)
{
	struct buf	*b = &g->plane.scratch;

	if (start < l->ts_ns * 1000)
		die("internal error: event before its line on '%s'", l->name);
	b->len = 0;
	put_uint(b, 1, mdid);
	put_int(b, 2, start - l->ts_ns * 1000);	/* oneof: always written */
	if (dur != 0)
		put_int(b, 3, dur);
}

static void
ev_end(struct gen *g, struct line *l)
{
	struct buf	*b = &g->plane.scratch;

	put_bytes(&l->ev, 4, b->data, b->len);
	g->plane.nevents++;
}

/* The XEventMetadata stats of op kind k. */
static void
kind_stats(struct gen *g, struct buf *b, const struct kind *k)
{
	struct sids	*sid = &g->sid;

	if (k->cat_ref)
		put_stat_varint(b, 5, sid->hlo_category, XS_REF,
		    names_id(&g->plane.st, k->category, -1));
	else
		put_stat_str(b, 5, sid->hlo_category, k->category);
	if (k->flops_type != 0)
		put_stat_varint(b, 5, sid->flops, k->flops_type, k->flops);
	put_stat_varint(b, 5, sid->bytes_accessed, k->bytes_type, k->bytes);
	put_stat_varint(b, 5, sid->program_id, k->pid_type, PROGRAM_ID);
}

/*
 * Write one XPlane as field 1 of the XSpace.  The length prefix must come
 * first, so sum the parts, then stream them without copying the lines.
 */
static void
plane_write(struct gen *g, struct sink *sk, int64_t id, const char *name,
    struct line *lines, int nlines)
{
	struct plane	*p = &g->plane;
	uint64_t	 total, ll;
	size_t		 i;
	int		 j;

	p->head.len = 0;
	if (id != 0)
		put_int(&p->head, 1, id);
	put_str(&p->head, 2, name);

	p->tail.len = 0;
	for (i = 0; i < p->ev.n; i++) {
		p->md.len = 0;
		put_uint(&p->md, 1, i + 1);
		put_str(&p->md, 2, p->ev.v[i]);
		if (p->ev.aux[i] >= 0) {
			put_str(&p->md, 4, g->kinds[p->ev.aux[i]].name);
			kind_stats(g, &p->md, &g->kinds[p->ev.aux[i]]);
		}
		if (i == 0)
			buf_add(&p->md, p->md1stats.data, p->md1stats.len);
		p->ent.len = 0;
		put_uint(&p->ent, 1, i + 1);
		put_bytes(&p->ent, 2, p->md.data, p->md.len);
		put_bytes(&p->tail, 4, p->ent.data, p->ent.len);
	}
	/* After the event metadata: kind_stats() may add ref targets. */
	for (i = 0; i < p->st.n; i++) {
		p->md.len = 0;
		put_uint(&p->md, 1, i + 1);
		put_str(&p->md, 2, p->st.v[i]);
		p->ent.len = 0;
		put_uint(&p->ent, 1, i + 1);
		put_bytes(&p->ent, 2, p->md.data, p->md.len);
		put_bytes(&p->tail, 5, p->ent.data, p->ent.len);
	}
	buf_add(&p->tail, p->pstats.data, p->pstats.len);

	total = p->head.len + p->tail.len;
	for (j = 0; j < nlines; j++) {
		struct line	*l = &lines[j];

		l->head.len = 0;
		if (l->id != 0)
			put_int(&l->head, 1, l->id);
		put_str(&l->head, 2, l->name);
		if (l->ts_ns + g->epoch_ns != 0)
			put_int(&l->head, 3, l->ts_ns + g->epoch_ns);
		ll = l->head.len + l->ev.len;
		total += 1 + varint_len(ll) + ll;
	}
	sink_key_len(sk, 1, total);
	sink_write(sk, p->head.data, p->head.len);
	for (j = 0; j < nlines; j++) {
		struct line	*l = &lines[j];

		sink_key_len(sk, 3, l->head.len + l->ev.len);
		sink_write(sk, l->head.data, l->head.len);
		sink_write(sk, l->ev.data, l->ev.len);
	}
	sink_write(sk, p->tail.data, p->tail.len);
}

/*
 * The busy class of an hlo_category (man jaxprof, DEFINITIONS): collective
 * and transfer by prefix, compute otherwise.  Memcpy events are transfers.
 */
static int
busy_class(const char *category)
{
	static const char *const coll[] = {
		"all-reduce", "all-gather", "all-to-all", "reduce-scatter",
		"collective-permute", "collective-broadcast", "send", "recv",
		"nccl", "rccl",
	};
	static const char *const xfer[] = {
		"copy-start", "copy-done", "infeed", "outfeed", "host send",
		"host recv",
	};
	size_t	 i;

	for (i = 0; i < sizeof(coll) / sizeof(coll[0]); i++)
		if (strncmp(category, coll[i], strlen(coll[i])) == 0)
			return BC_COLLECTIVE;
	for (i = 0; i < sizeof(xfer) / sizeof(xfer[0]); i++)
		if (strncmp(category, xfer[i], strlen(xfer[i])) == 0)
			return BC_TRANSFER;
	return BC_COMPUTE;
}

/* Busy intervals: what breakdown.csv and gaps.csv are computed from. */
static void
iv_add(struct gen *g, int64_t start, int64_t dur, int cls)
{
	if (g->niv == g->civ) {
		g->civ = g->civ ? g->civ * 2 : 256;
		g->iv = xrealloc(g->iv, g->civ * sizeof(*g->iv));
	}
	g->iv[g->niv].start = start;
	g->iv[g->niv].end = start + dur;
	g->iv[g->niv].cls = cls;
	g->niv++;
}

static int
ival_cmp(const void *va, const void *vb)
{
	const struct ival *a = va, *b = vb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->end > b->end) - (a->end < b->end);
}

/*
 * The union of the step's intervals of class cls (-1: all classes; -2:
 * collective and transfer),
 * clipped to [lo, hi), into g->ivu as disjoint intervals in start order;
 * returns how many.  Touching intervals are merged.
 */
static size_t
ival_union(struct gen *g, int cls, int64_t lo, int64_t hi)
{
	size_t	 i, n = 0, m = 0;

	if (g->civu < g->niv) {
		g->civu = g->civ;
		g->ivu = xrealloc(g->ivu, g->civu * sizeof(*g->ivu));
	}
	for (i = 0; i < g->niv; i++) {
		struct ival	 v = g->iv[i];

		if ((cls >= 0 && v.cls != cls) ||
		    (cls == -2 && v.cls == BC_COMPUTE))
			continue;
		if (v.start < lo)
			v.start = lo;
		if (v.end > hi)
			v.end = hi;
		if (v.end > v.start)
			g->ivu[n++] = v;
	}
	qsort(g->ivu, n, sizeof(*g->ivu), ival_cmp);
	for (i = 0; i < n; i++) {
		if (m > 0 && g->ivu[i].start <= g->ivu[m - 1].end) {
			if (g->ivu[i].end > g->ivu[m - 1].end)
				g->ivu[m - 1].end = g->ivu[i].end;
		} else
			g->ivu[m++] = g->ivu[i];
	}
	return m;
}

static int64_t
ival_len(const struct gen *g, size_t n)
{
	int64_t	 sum = 0;
	size_t	 i;

	for (i = 0; i < n; i++)
		sum += g->ivu[i].end - g->ivu[i].start;
	return sum;
}

/*
 * One row of breakdown.csv for the step [t0, t1), then the idle gaps of
 * the device's whole busy union up to the end of this step: steps run in
 * time order and never overlap, so the union can be walked step by step.
 */
static void
step_breakdown(struct gen *g, int s, int64_t t0, int64_t t1)
{
	int64_t	 busy[NBC], all;
	size_t	 i, n;
	int	 c;

	for (c = 0; c < NBC; c++)
		busy[c] = ival_len(g, ival_union(g, c, t0, t1));
	n = ival_union(g, -1, t0, t1);
	all = ival_len(g, n);
	/*
	 * The classes share out the busy time (man jaxprof-steps):
	 * collective, then transfer time no collective covered, then the
	 * rest is compute.
	 */
	busy[BC_TRANSFER] = ival_len(g, ival_union(g, -2, t0, t1)) -
	    busy[BC_COLLECTIVE];
	busy[BC_COMPUTE] = all - busy[BC_COLLECTIVE] - busy[BC_TRANSFER];
	fprintf(g->f_brk, "%s,%s,%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%"
	    PRId64 ",%" PRId64 ",%" PRId64 "\n", g->host, g->dev, s, t0,
	    t1 - t0, busy[BC_COMPUTE], busy[BC_COLLECTIVE], busy[BC_TRANSFER],
	    t1 - t0 - all);

	/* Unclipped: the gaps count every busy instant of the plane. */
	n = ival_union(g, -1, INT64_MIN, INT64_MAX);
	for (i = 0; i < n; i++) {
		if (g->busy_any && g->ivu[i].start < g->busy_end)
			die("internal error: steps overlap on %s", g->dev);
		if (g->busy_any && g->ivu[i].start - g->busy_end >= GAP_MIN_PS)
			fprintf(g->f_gaps, "%s,%s,%" PRId64 ",%" PRId64 "\n",
			    g->host, g->dev, g->busy_end,
			    g->ivu[i].start - g->busy_end);
		g->busy_end = g->ivu[i].end;
		g->busy_any = 1;
	}
	g->niv = 0;
}

/* Op kinds. */
static void
kinds_make(struct gen *g)
{
	static const int dims[] = { 32, 64, 128, 256, 512, 1024, 2048 };
	struct rng	 r;
	int		 i, c, t, n, top, nchild, a, bdim;

	rng_seed(&r, g->seed, 0, 0);
	g->kinds = xcalloc((size_t)g->ops * 3, sizeof(*g->kinds));
	n = 1 + (int)rng_below(&r, 40);	/* HLO instruction numbering */
	nchild = 0;
	c = 0;
	for (top = 0; top < g->ops; top++) {
		int	 idx[3], m = 1, q;

		if (top == 0)
			t = T_FUSION;
		else if (top % 20 == 1)
			t = T_WHILE;
		else if (top == 2)
			t = T_CUSTOM;
		else
			t = (int)rng_below(&r, NTMPL - 1);
		idx[0] = top;
		if (t == T_WHILE) {
			idx[1] = g->ops + nchild++;
			idx[2] = g->ops + nchild++;
			m = 3;
		}
		for (q = 0; q < m; q++) {
			struct kind	*k = &g->kinds[idx[q]];
			const struct tmpl *tp;

			if (q == 1)
				t = T_FUSION;
			else if (q == 2)
				t = (int)rng_below(&r, NTMPL - 1);
			tp = &tmpls[t];
			a = dims[rng_below(&r, 7)];
			bdim = dims[rng_below(&r, 7)];
			k->name = xasprintf("%s.%d", tp->base, n);
			k->hlo = xasprintf("%%%s = f32[%d,%d]{1,0} %s("
			    "f32[%d,%d]{1,0} %%param.%d.0, f32[%d]{0} "
			    "%%param.%d.1)%s", k->name, a, bdim, tp->opcode,
			    a, bdim, n, bdim, n, tp->attrs);
			n++;
			k->category = tp->category;
			k->busy = busy_class(tp->category);
			k->cat_ref = c % 2 == 0;
			if (tp->has_flops) {
				k->flops_type = c % 3 == 0 ? XS_INT : XS_UINT;
				k->flops = (uint64_t)a * (uint64_t)bdim *
				    (uint64_t)(1 + rng_below(&r, 512));
			}
			k->bytes_type = c % 4 == 1 ? XS_INT : XS_UINT;
			k->bytes = 4 * (uint64_t)a * (uint64_t)bdim *
			    (uint64_t)(2 + rng_below(&r, 2));
			k->bytes_per_event = t == T_CUSTOM;
			k->pid_type = c % 5 == 2 ? XS_UINT : XS_INT;
			/* 2 us .. 0.5 ms, roughly log-uniform. */
			k->base_ps = (2 * US << rng_below(&r, 9)) +
			    rng_below(&r, 2 * US);
			k->child[0] = k->child[1] = -1;
			c++;
		}
		if (m == 3) {
			g->kinds[top].child[0] = idx[1];
			g->kinds[top].child[1] = idx[2];
		}
	}
	g->nkinds = g->ops + nchild;
	if (g->slow_op == NULL)
		return;
	for (i = 0; i < g->nkinds; i++) {
		if (strcmp(g->kinds[i].name, g->slow_op) == 0)
			break;
	}
	if (i == g->nkinds)
		die("no op named '%s' (see expected/top.csv of a run "
		    "without --slow-op)", g->slow_op);
	g->kinds[i].slow = 1;
}

/* Not a whole number of ns, so that unit bugs show. */
static int64_t
odd_ps(struct rng *r, int64_t v)
{
	if (v % 1000 == 0)
		v += 1 + rng_below(r, 999);
	return v;
}

static int64_t
gap_ps(struct rng *r)
{
	return odd_ps(r, 1000 + rng_below(r, 4000));
}

static int64_t
slow_ps(const struct gen *g, int64_t v)
{
	return (int64_t)((double)v * g->slow_factor + 0.5);
}

/* One occurrence's duration: the kind's base within +-10%. */
static int64_t
kind_dur(struct gen *g, int k, int apply_slow)
{
	const struct kind *kd = &g->kinds[k];
	int64_t		 d;

	d = kd->base_ps + kd->base_ps / 1000 * (rng_below(&g->rng, 201) - 100) +
	    rng_below(&g->rng, 1000);
	d = odd_ps(&g->rng, d);
	if (apply_slow && kd->slow) {
		d = slow_ps(g, d);
		if (d % 1000 == 0)
			d++;
		if (d < 1)
			d = 1;
	}
	return d;
}

static void
acc_add(struct acc *a, int64_t dur, int64_t self, uint64_t flops,
    uint64_t bytes)
{
	if (a->count == 0 || dur < a->min)
		a->min = dur;
	if (a->count == 0 || dur > a->max)
		a->max = dur;
	a->count++;
	a->total += dur;
	a->self += self;
	a->flops += flops;
	a->bytes += bytes;
}

static void
acc_merge(struct acc *to, const struct acc *from)
{
	if (from->count == 0)
		return;
	if (to->count == 0 || from->min < to->min)
		to->min = from->min;
	if (to->count == 0 || from->max > to->max)
		to->max = from->max;
	to->count += from->count;
	to->total += from->total;
	to->self += from->self;
	to->flops += from->flops;
	to->bytes += from->bytes;
}

/*
 * Emit one op event.  The random choices (module stat, per-event bytes) are
 * drawn by the caller in both passes, so the timing pass stays in step.
 */
static void
op_emit(struct gen *g, int k, int64_t start, int64_t dur, int64_t self,
    int with_module, uint64_t ev_bytes)
{
	const struct kind *kd = &g->kinds[k];
	struct line	*l = &g->dline[L_OPS];
	uint64_t	 bytes = kd->bytes;

	if (g->dry)
		return;
	ev_begin(g, l, (uint64_t)k + 1, start, dur);
	if (with_module)
		put_stat_varint(&g->plane.scratch, 4, g->sid.hlo_module,
		    XS_REF, g->sid.module_ref);
	if (kd->bytes_per_event) {
		put_stat_varint(&g->plane.scratch, 4, g->sid.bytes_accessed,
		    XS_UINT, ev_bytes);
		bytes = ev_bytes;
	}
	ev_end(g, l);
	acc_add(&g->dacc[k], dur, self, kd->flops_type ? kd->flops : 0, bytes);
	iv_add(g, start, dur, kd->busy);
}

/* Run op kind k at t (a while runs its two children inside); return the end. */
static int64_t
op_run(struct gen *g, int k, int64_t t)
{
	const struct kind *kd = &g->kinds[k];
	int64_t		 dur, d[2], gp[3], need, c;
	uint64_t	 evb[3];
	int		 mod[3], i, n;

	n = kd->child[0] >= 0 ? 3 : 1;
	if (n == 1)
		dur = kind_dur(g, k, 1);
	else {
		d[0] = kind_dur(g, kd->child[0], 1);
		d[1] = kind_dur(g, kd->child[1], 1);
		for (i = 0; i < 3; i++)
			gp[i] = gap_ps(&g->rng);
		need = gp[0] + d[0] + gp[1] + d[1] + gp[2];
		dur = need + kind_dur(g, k, 0);
		if (kd->slow) {
			dur = slow_ps(g, dur);
			if (dur % 1000 == 0)
				dur++;
			if (dur < need)
				dur = need;
		}
	}
	for (i = 0; i < n; i++) {
		uint64_t	 r = rng_next(&g->rng);

		mod[i] = (int)(r & 1);
		evb[i] = 4096 + (r >> 40);
	}
	if (n == 1) {
		op_emit(g, k, t, dur, dur, mod[0], evb[0]);
		return t + dur;
	}
	op_emit(g, k, t, dur, dur - d[0] - d[1], mod[0], evb[0]);
	c = t + gp[0];
	op_emit(g, kd->child[0], c, d[0], d[0], mod[1], evb[1]);
	c += d[0] + gp[1];
	op_emit(g, kd->child[1], c, d[1], d[1], mod[2], evb[2]);
	return t + dur;
}

/* A host-device copy on the stream line; returns its end. */
static int64_t
memcpy_run(struct gen *g, int dir, int devno, int64_t t)
{
	static const char *const names[2] = { "MemcpyH2D", "MemcpyD2H" };
	struct line	*l = &g->dline[L_STREAM];
	uint64_t	 size;
	int64_t		 dur;
	char		*details;

	size = 4096 * (uint64_t)(1 + rng_below(&g->rng, 16384));
	dur = odd_ps(&g->rng, (int64_t)size * 40 + 2000 +
	    rng_below(&g->rng, 3000));
	if (g->dry)
		return t + dur;
	details = xasprintf("kind_src:%s kind_dst:%s size:%" PRIu64
	    " dest:%d async:0", dir == 0 ? "pageable" : "device",
	    dir == 0 ? "device" : "pageable", size, devno);
	ev_begin(g, l, names_id(&g->plane.ev, names[dir], -1), t, dur);
	put_stat_varint(&g->plane.scratch, 4, g->sid.memcpy_details, XS_REF,
	    names_id(&g->plane.st, details, -1));
	ev_end(g, l);
	free(details);
	iv_add(g, t, dur, BC_TRANSFER);
	g->xcount[dir]++;
	g->xbytes[dir] += size;
	g->xtime[dir] += dur;
	return t + dur;
}

/* One step on one device, from t0; returns the step's end. */
static int64_t
step_run(struct gen *g, int s, int devno, int64_t t0)
{
	int64_t		 t, mstart;
	char		 sname[32];
	int		 rep, k;

	t = t0 + gap_ps(&g->rng);
	t = memcpy_run(g, 0, devno, t);
	t += gap_ps(&g->rng);
	mstart = t;
	t += gap_ps(&g->rng);
	for (rep = 0; rep < g->repeat; rep++) {
		for (k = 0; k < g->ops; k++) {
			t = op_run(g, k, t);
			t += gap_ps(&g->rng);
		}
	}
	if (!g->dry) {
		struct line	*l = &g->dline[L_MODULES];

		ev_begin(g, l, names_id(&g->plane.ev, MODULE_NAME "(123456789)",
		    -1), mstart, t - mstart);
		ev_end(g, l);
	}
	t += gap_ps(&g->rng);
	t = memcpy_run(g, 1, devno, t);
	t += gap_ps(&g->rng);
	if (!g->dry) {
		struct line	*l = &g->dline[L_STEPS];

		snprintf(sname, sizeof(sname), "%d", s);
		ev_begin(g, l, names_id(&g->plane.ev, sname, -1), t0, t - t0);
		ev_end(g, l);
		fprintf(g->f_steps, "%s,%s,%d,%" PRId64 ",%" PRId64 "\n",
		    g->host, g->dev, s, t0, t - t0);
		step_breakdown(g, s, t0, t);
	}
	return t;
}

static int64_t
dev_skew(int devno)
{
	return (int64_t)devno * 1237;
}

static struct gen *sort_gen;
static const struct acc *sort_acc;

static int
acc_cmp(const void *va, const void *vb)
{
	int		 a = *(const int *)va, b = *(const int *)vb;

	if (sort_acc[a].total != sort_acc[b].total)
		return sort_acc[a].total > sort_acc[b].total ? -1 : 1;
	return strcmp(sort_gen->kinds[a].name, sort_gen->kinds[b].name);
}

/* Rows of acc[] with count > 0, sorted by total desc, name asc. */
static void
top_write(struct gen *g, FILE *fp, const struct acc *acc, const char *prefix)
{
	const struct kind *kd;
	int		 i, n = 0;

	for (i = 0; i < g->nkinds; i++) {
		if (acc[i].count > 0)
			g->order[n++] = i;
	}
	sort_gen = g;
	sort_acc = acc;
	qsort(g->order, (size_t)n, sizeof(*g->order), acc_cmp);
	for (i = 0; i < n; i++) {
		const struct acc *a = &acc[g->order[i]];

		kd = &g->kinds[g->order[i]];
		fprintf(fp, "%s%s,%s,%s,%" PRIu64 ",%" PRId64 ",%" PRId64
		    ",%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 "\n",
		    prefix, kd->name, MODULE_NAME, kd->category, a->count,
		    a->total, a->self, a->min, a->max, a->flops, a->bytes);
	}
}

/*
 * One device plane.  With dry set, only replay the random stream to learn
 * each step's length (the host plane, written first, must span them).
 */
static void
dev_run(struct gen *g, struct sink *sk, int hostno, int devno, int dry)
{
	struct plane	*p = &g->plane;
	struct sids	*sid = &g->sid;
	uint64_t	 id;
	int64_t		 ts, t0, t;
	char		*prefix;
	int		 s, i, dir;

	g->dry = dry;
	rng_seed(&g->rng, g->seed, (uint64_t)hostno + 1,
	    (uint64_t)devno + 0x100);
	snprintf(g->dev, sizeof(g->dev), "/device:GPU:%d", devno);
	ts = DEV_TS_NS + devno * 10;
	line_init(&g->dline[L_STEPS], DERIVED_BASE + 0, "Steps", ts + 2);
	line_init(&g->dline[L_MODULES], DERIVED_BASE + 4, "XLA Modules",
	    ts + 3);
	line_init(&g->dline[L_OPS], DERIVED_BASE + 5, "XLA Ops", ts + 4);
	line_init(&g->dline[L_STREAM], STREAM_ID,
	    "Stream #7(MemcpyH2D,MemcpyD2H)", ts + 1);
	if (!dry) {
		plane_reset(p);
		for (i = 0; i < g->nkinds; i++)
			names_id(&p->ev, g->kinds[i].hlo, i);
		id = names_id(&p->st, "clock_rate", -1);
		put_stat_varint(&p->pstats, 6, id, XS_INT, 1410000);
		id = names_id(&p->st, "core_count", -1);
		put_stat_varint(&p->pstats, 6, id, XS_INT, 108);
		id = names_id(&p->st, "memory_bandwidth", -1);
		put_stat_varint(&p->pstats, 6, id, XS_UINT, 1555200000000ULL);
		id = names_id(&p->st, "device_vendor", -1);
		put_stat_str(&p->pstats, 6, id, "Nvidia");
		sid->hlo_category = names_id(&p->st, "hlo_category", -1);
		sid->flops = names_id(&p->st, "flops", -1);
		sid->bytes_accessed = names_id(&p->st, "bytes_accessed", -1);
		sid->program_id = names_id(&p->st, "program_id", -1);
		sid->hlo_module = names_id(&p->st, "hlo_module", -1);
		sid->memcpy_details = names_id(&p->st, "memcpy_details", -1);
		sid->module_ref = names_id(&p->st, MODULE_NAME, -1);
		memset(g->dacc, 0, (size_t)g->nkinds * sizeof(*g->dacc));
		memset(g->xcount, 0, sizeof(g->xcount));
		memset(g->xbytes, 0, sizeof(g->xbytes));
		memset(g->xtime, 0, sizeof(g->xtime));
		g->niv = 0;
		g->busy_any = 0;
	}
	for (s = 0; s < g->steps; s++) {
		t0 = dry ? 0 : g->start[s] + dev_skew(devno);
		t = step_run(g, s, devno, t0);
		if (dry)
			g->len[(size_t)devno * (size_t)g->steps + (size_t)s] =
			    t - t0;
	}
	if (dry)
		return;

	plane_write(g, sk, devno, g->dev, g->dline, NDEVLINES);
	prefix = xasprintf("%s,%s,", g->host, g->dev);
	top_write(g, g->f_topdev, g->dacc, prefix);
	free(prefix);
	for (dir = 0; dir < 2; dir++) {
		fprintf(g->f_xfer, "%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64
		    "\n", g->host, g->dev, dir == 0 ? "H2D" : "D2H",
		    g->xcount[dir], g->xbytes[dir], g->xtime[dir]);
	}
	for (i = 0; i < g->nkinds; i++)
		acc_merge(&g->total[i], &g->dacc[i]);
}

static void
host_event(struct gen *g, struct line *l, const char *name, int64_t start,
    int64_t dur)
{
	ev_begin(g, l, names_id(&g->plane.ev, name, -1), start, dur);
	ev_end(g, l);
}

/*
 * --memory: an allocator's events on a line of their own, "memory": 64 MiB
 * held from before the capture, then in step s an allocation of s + 1
 * MiB as the step starts on the devices, freed after it.  The peak is the
 * last step's.  With --memory=damaged the last free says -1 bytes in use;
 * with --memory=huge it says 2^62 bytes allocated and 2^62 reserved, each
 * an int64 but together past it (and past any device).
 */
#define MEM_BASE	(64ULL << 20)

static void
memory_event(struct gen *g, struct line *l, int alloc, int64_t t,
    uint64_t bytes, uint64_t heap, int damage, int hostno)
{
	struct plane	*p = &g->plane;
	struct buf	*b = &p->scratch;
	uint64_t	 peak = MEM_BASE + (uint64_t)g->steps * (1ULL << 20);

	ev_begin(g, l, names_id(&p->ev, alloc ? "MemoryAllocation" :
	    "MemoryDeallocation", -1), t, 0);
	put_stat_str(b, 4, names_id(&p->st, "allocator_name", -1),
	    "GPU_0_bfc");
	put_stat_varint(b, 4, names_id(&p->st, "bytes_allocated", -1), XS_INT,
	    damage == 2 ? (uint64_t)-1 : damage == 3 ? 1ULL << 62 : heap);
	put_stat_varint(b, 4, names_id(&p->st, "bytes_reserved", -1), XS_INT,
	    damage == 3 ? 1ULL << 62 : 0);
	put_stat_varint(b, 4, names_id(&p->st, "bytes_available", -1), XS_INT,
	    (16ULL << 30) - heap);
	put_stat_varint(b, 4, names_id(&p->st, "peak_bytes_in_use", -1),
	    XS_INT, peak);
	put_stat_varint(b, 4, names_id(&p->st, "requested_bytes", -1), XS_INT,
	    bytes - 4);
	put_stat_varint(b, 4, names_id(&p->st, "allocation_bytes", -1),
	    XS_INT, bytes);
	put_stat_varint(b, 4, names_id(&p->st, "addr", -1), XS_INT,
	    0x7f0000000000ULL + bytes);
	ev_end(g, l);
	if (alloc && heap == peak)
		fprintf(g->f_mem, "host%d,GPU_0_bfc,%" PRIu64 ",%" PRId64
		    ",%" PRIu64 "\n", hostno, heap, t, bytes);
}

/*
 * The "/host:CPU" plane: one "train" step per device step, with the
 * dispatch inside it, and the compile in step 0.  Also fixes the device
 * step starts, so every device runs step s inside host step s.
 */
static void
host_run(struct gen *g, struct sink *sk, int hostno)
{
	struct plane	*p = &g->plane;
	struct line	*py = &g->hline[0], *rt = &g->hline[1];
	struct buf	*b = &p->scratch;
	int64_t		 hs, he, ps, pe, cs, ce, e, x;
	uint64_t	 id_r, id_step;
	int		 s, d;

	g->dry = 0;
	rng_seed(&g->rng, g->seed, (uint64_t)hostno + 1, 0xffff);
	plane_reset(p);
	line_init(py, 1234, "python", HOST_TS_NS + 7);
	line_init(rt, 5, "tf_XLAPjRtCpuClient/5", HOST_TS_NS + 11);
	line_init(&g->hline[2], 77, "memory", HOST_TS_NS + 13);
	id_r = names_id(&p->st, "_r", -1);
	id_step = names_id(&p->st, "step_num", -1);

	for (s = 0; s < g->steps; s++) {
		if (s == 0) {
			hs = START_PS + rng_below(&g->rng, 1000 * US);
			ps = hs + odd_ps(&g->rng, 30 * US);
			cs = ps + odd_ps(&g->rng, 2 * US);
			ce = cs + odd_ps(&g->rng, 500000 * US +
			    rng_below(&g->rng, 1500000 * US));
			pe = ce + odd_ps(&g->rng, 15 * US +
			    rng_below(&g->rng, 5 * US));
			g->start[0] = pe - 5 * US;
		} else {
			g->start[s] = g->end[s - 1] + odd_ps(&g->rng, 60 * US +
			    rng_below(&g->rng, 200 * US));
			hs = g->start[s] - 40 * US;
			ps = hs + 15 * US;
			pe = ps + odd_ps(&g->rng, 20 * US +
			    rng_below(&g->rng, 3 * US));
			cs = ce = 0;
		}
		e = g->start[s] + 100 * US;
		for (d = 0; d < g->devices; d++) {
			x = g->start[s] + dev_skew(d) +
			    g->len[(size_t)d * (size_t)g->steps + (size_t)s];
			if (x > e)
				e = x;
		}
		g->end[s] = e;
		he = e + 10 * US;

		ev_begin(g, py, names_id(&p->ev, "train", -1), hs, he - hs);
		put_stat_varint(b, 4, id_r, XS_INT, 1);
		put_stat_varint(b, 4, id_step, XS_INT, (uint64_t)s);
		ev_end(g, py);
		host_event(g, py, "DevicePut", hs + US,
		    odd_ps(&g->rng, 8 * US + rng_below(&g->rng, 2 * US)));
		host_event(g, py, "PjitFunction(train_step)", ps, pe - ps);
		if (s == 0)
			host_event(g, py, "backend_compile_and_load", cs,
			    ce - cs);
		host_event(g, rt,
		    "PjRtStreamExecutorLoadedExecutable::ExecuteHelper",
		    (s == 0 ? ce : ps) + 2 * US,
		    odd_ps(&g->rng, 10 * US + rng_below(&g->rng, US)));
		if (s % 10 == 0)
			host_event(g, rt, "ThunkExecutor::Execute",
			    (s == 0 ? ce : ps) + 14 * US, odd_ps(&g->rng,
			    US + rng_below(&g->rng, US)));
		if (g->memory != 0) {
			uint64_t n = (uint64_t)(s + 1) << 20;

			memory_event(g, &g->hline[2], 1, g->start[s] + US, n,
			    MEM_BASE + n, 0, hostno);
			memory_event(g, &g->hline[2], 0, he - 2 * US, n,
			    MEM_BASE, s == g->steps - 1 ? g->memory : 0,
			    hostno);
		}
	}
	plane_write(g, sk, 0, "/host:CPU", g->hline, g->memory != 0 ? 3 : 2);
}

static void
file_run(struct gen *g, const char *dir, int hostno)
{
	struct sink	 sk;
	struct buf	 b = { NULL, 0, 0 };
	uint64_t	 nevents;
	char		*path;
	int		 d;

	snprintf(g->host, sizeof(g->host), "host%d", hostno);
	path = xasprintf("%s/%s.xplane.pb%s", dir, g->host,
	    g->gzip ? ".gz" : "");
	for (d = 0; d < g->devices; d++)
		dev_run(g, NULL, hostno, d, 1);

	sink_open(&sk, path, g->gzip);
	host_run(g, &sk, hostno);
	nevents = g->plane.nevents;
	for (d = 0; d < g->devices; d++) {
		dev_run(g, &sk, hostno, d, 0);
		nevents += g->plane.nevents;
	}
	if (g->warn)
		put_str(&b, 3, "Detected GPU events dropped on GPU 0");
	put_str(&b, 4, g->host);
	sink_write(&sk, b.data, b.len);
	buf_free(&b);
	sink_close(&sk);
	fprintf(g->f_list, "%s,%d,%" PRIu64 "\n", g->host, 1 + g->devices,
	    nevents);
	if (verbose)
		fprintf(stderr, "gen-xplane: %s: %" PRIu64 " bytes, %" PRIu64
		    " events\n", path, sk.bytes, nevents);
	free(path);
}


/*
 * --launches=plain|graph|attention: a raw GPU profile (kernels on a stream, no
 * "XLA Ops" or "XLA Modules" line), as JAX writes on NVIDIA, to test that
 * executions are launches.  The program jit_train_step (named in
 * /host:metadata) runs S times, one launch per host "train" step: the
 * first half back to back (1 ns apart), the second half with 3 ms of idle
 * between.  A launch runs LK_OPS ops, each one kernel, but op 0 launches
 * two (one thunk run: the same scope_range_id).  With "graph" every
 * kernel of a launch carries cuda_graph_id and the launch's
 * correlation_id, and each host step makes and launches the graph
 * (graph_calls()).  Inside the host's backend_compile_and_load, before
 * the first launch, two autotuner modules (no program of the user's) run
 * kernels that overlap one another.  "attention" is "plain" with the
 * program's HLO in /host:metadata (hlo_proto()) and two more ops: a
 * TransformerEngine custom call whose fill kernel and main kernel each
 * have a scope of their own (one run of the op all the same), and a
 * fusion in a while loop, run twice per launch.  expected/launches.csv
 * and launch-ops.csv hold the answers.
 */
#define LK_OPS		6
#define LK_AUTOTUNE	2
#define LK_TE_OP	"custom-call.6"
#define LK_TE_TARGET	"te_fused_attn_backward_ffi"
#define LK_LOOP_OP	"fusion.7"
#define LK_LOOP_TRIPS	2

/* An xla.HloInstructionProto into computation c (field 2). */
static void
hlo_instr(struct buf *c, const char *name, const char *opcode,
    const char *kind, const char *target, int64_t id, int64_t called)
{
	struct buf	 in = { NULL, 0, 0 };

	put_str(&in, 1, name);
	put_str(&in, 2, opcode);
	if (kind != NULL)
		put_str(&in, 11, kind);
	if (target != NULL)
		put_str(&in, 28, target);
	put_int(&in, 35, id);
	if (called >= 0)
		put_int(&in, 38, called);
	put_bytes(c, 2, in.data, in.len);
	buf_free(&in);
}

/*
 * The xla.HloProto of the "attention" launches' program: fusion.0 to
 * fusion.5, the custom call and while.8 in the entry computation (id 1),
 * while.8's body (id 2) holding the looped fusion.
 */
static void
hlo_proto(struct buf *out)
{
	struct buf	 c = { NULL, 0, 0 }, m = { NULL, 0, 0 };
	char		 name[32];
	int		 k;

	put_str(&m, 1, MODULE_NAME);
	put_str(&m, 2, "main");
	put_str(&c, 1, "main");
	for (k = 0; k < LK_OPS; k++) {
		snprintf(name, sizeof(name), "fusion.%d", k);
		hlo_instr(&c, name, "fusion", "kLoop", NULL, 10 + k, -1);
	}
	hlo_instr(&c, LK_TE_OP, "custom-call", NULL, LK_TE_TARGET, 20, -1);
	hlo_instr(&c, "while.8", "while", NULL, NULL, 21, 2);
	put_int(&c, 5, 1);
	put_bytes(&m, 3, c.data, c.len);
	c.len = 0;
	put_str(&c, 1, "body");
	hlo_instr(&c, LK_LOOP_OP, "fusion", "kLoop", NULL, 30, -1);
	put_int(&c, 5, 2);
	put_bytes(&m, 3, c.data, c.len);
	put_int(&m, 5, 77);
	put_int(&m, 6, 1);
	put_bytes(out, 1, m.data, m.len);
	buf_free(&c);
	buf_free(&m);
}

static void
launch_kernel(struct gen *g, struct line *l, const char *kname,
    const char *op, const char *module, int64_t pid, int64_t corr,
    int64_t scope, int graph, int64_t start, int64_t dur)
{
	struct plane	*p = &g->plane;
	struct buf	*b = &p->scratch;

	ev_begin(g, l, names_id(&p->ev, kname, -1), start, dur);
	put_stat_str(b, 4, names_id(&p->st, "hlo_op", -1), op);
	put_stat_str(b, 4, names_id(&p->st, "hlo_module", -1), module);
	if (pid >= 0)
		put_stat_varint(b, 4, names_id(&p->st, "program_id", -1),
		    XS_INT, (uint64_t)pid);
	put_stat_varint(b, 4, names_id(&p->st, "correlation_id", -1), XS_INT,
	    (uint64_t)corr);
	put_stat_varint(b, 4, names_id(&p->st, "scope_range_id", -1),
	    XS_INT, (uint64_t)scope);
	if (graph)
		put_stat_varint(b, 4, names_id(&p->st, "cuda_graph_id", -1),
		    XS_INT, 946);
	put_stat_str(b, 4, names_id(&p->st, "kernel_details", -1),
	    "regs:32 grid:64,1,1 block:128,1,1");
	ev_end(g, l);
}

/*
 * The CUDA calls of graph step s, as CUPTI names them (FORMATS.md 6.4):
 * the graph made anew, a new id each step (7 us), and launched (3 us);
 * in step 0 also a name that only looks like theirs (5 us).
 */
static void
graph_calls(struct gen *g, struct line *py, int s, int64_t hs)
{
	char name[64];

	snprintf(name, sizeof(name), "cuGraphCreate (CudaGraph:%d)",
	    1000 + s);
	host_event(g, py, name, hs + 10 * US, 7 * US);
	host_event(g, py, "cuGraphLaunch (CudaGraph:946)", hs + 20 * US,
	    3 * US);
	if (s == 0)
		host_event(g, py, "cuGraphCreate (CudaGraph:first)",
		    hs + 30 * US, 5 * US);
}

static void
launches_run(struct gen *g, const char *dir, const char *exp, int graph,
    int attn)
{
	struct plane	*p = &g->plane;
	struct line	*py = &g->hline[0], ks;
	struct sink	 sk;
	struct buf	 b = { NULL, 0, 0 };
	int64_t		 t, cs, ce, ls, dur, exec_ps = 0, span_ps = 0;
	int64_t		 autotune_ps = 0, corr = 1, scope = 1;
	/* Per op (the LK_OPS fusions, then the custom call and the loop's). */
	int64_t		 op_ps[LK_OPS + 2], op_min[LK_OPS + 2];
	const char	*cat[LK_OPS + 2];
	char		*path, name[64], op[64];
	FILE		*fp;
	int		 s, k, a, nops = attn ? LK_OPS + 2 : LK_OPS;

	memset(op_ps, 0, sizeof(op_ps));
	memset(op_min, 0, sizeof(op_min));
	memset(&ks, 0, sizeof(ks));
	rng_seed(&g->rng, g->seed, 1, 0x1a0);
	path = xasprintf("%s/host0.xplane.pb", dir);
	sink_open(&sk, path, 0);

	/* The device first, to know where the host's steps go. */
	plane_reset(p);
	line_init(&ks, 14, "Stream #14(Compute)", DEV_TS_NS);
	cs = START_PS + 100 * US;
	ce = cs + 50000 * US;
	t = cs + 1000 * US;
	for (a = 0; a < LK_AUTOTUNE; a++) {
		snprintf(name, sizeof(name), "gemm_fusion_dot.%d", 60 + a);
		for (k = 0; k < 3; k++) {
			/* Candidates overlap: each starts half way in. */
			dur = odd_ps(&g->rng, 400 * US + rng_below(&g->rng,
			    100 * US));
			launch_kernel(g, &ks, "gemm_candidate_kernel", name,
			    name, -1, corr++, scope++, 0, t, dur);
			autotune_ps += dur;
			t += dur / 2;
		}
		t += 2000 * US;
	}
	t = ce + 200 * US;
	for (s = 0; s < g->steps; s++) {
		if (s >= (g->steps + 1) / 2 && s > 0)
			t += 3000 * US;		/* the host slept */
		else if (s > 0)
			t += 1000;		/* back to back: 1 ns */
		ls = t;
		g->start[s] = t;
		for (k = 0; k < nops; k++) {
			/* The custom call: fill then main kernel, two scopes. */
			int te = k == LK_OPS, loop = k == LK_OPS + 1;
			int n = k == 0 || te ? 2 : 1, runs = loop ?
			    LK_LOOP_TRIPS : 1, j, r;
			int64_t occ;

			if (te)
				snprintf(op, sizeof(op), "%s", LK_TE_OP);
			else
				snprintf(op, sizeof(op), "fusion.%d",
				    loop ? 7 : k);
			cat[k] = te ? "attention" : attn ? "loop fusion" :
			    "fusion";
			for (r = 0; r < runs; r++) {
				for (occ = 0, j = 0; j < n; j++) {
					if (te)
						snprintf(name, sizeof(name), j ==
						    0 ? "te_fill_kernel" :
						    "fused_attn_bwd_kernel");
					else
						snprintf(name, sizeof(name),
						    "fusion_%d_kernel%d",
						    loop ? 7 : k, j);
					dur = odd_ps(&g->rng, (20 + 10 * k) *
					    US + rng_below(&g->rng, 5 * US));
					launch_kernel(g, &ks, name, op,
					    MODULE_NAME, 77, graph ? corr :
					    corr + j, scope, graph, t, dur);
					occ += dur;
					exec_ps += dur;
					t += dur + (j + 1 < n ? 1000 : 2000);
					if (te)
						scope++;
				}
				op_ps[k] += occ;
				if ((s == 0 && r == 0) || occ < op_min[k])
					op_min[k] = occ;
				if (!te)
					scope++;
				if (!graph)
					corr += n;
			}
		}
		t -= 2000;
		g->end[s] = t;
		span_ps += t - ls;
		if (graph)
			corr++;
	}
	plane_write(g, &sk, 1, "/device:GPU:0", &ks, 1);
	buf_free(&ks.ev);
	buf_free(&ks.head);

	/* The host: the compile, then one "train" step per launch. */
	plane_reset(p);
	line_init(py, 1234, "python", HOST_TS_NS);
	host_event(g, py, "PjitFunction(train_step)", cs - 10 * US,
	    ce - cs + 100 * US);
	host_event(g, py, "backend_compile_and_load", cs, ce - cs);
	for (s = 0; s < g->steps; s++) {
		int64_t hs = s == 0 ? ce + 100 * US : g->end[s - 1] + 500;
		int64_t he = g->end[s] + 500;

		ev_begin(g, py, names_id(&p->ev, "train", -1), hs, he - hs);
		put_stat_varint(&p->scratch, 4, names_id(&p->st, "_r", -1),
		    XS_INT, 1);
		put_stat_varint(&p->scratch, 4, names_id(&p->st, "step_num",
		    -1), XS_INT, (uint64_t)s);
		ev_end(g, py);
		if (graph)
			graph_calls(g, py, s, hs);
	}
	plane_write(g, &sk, 2, "/host:CPU", py, 1);
	buf_free(&py->ev);
	buf_free(&py->head);

	/* /host:metadata: the user's one program, with its HLO. */
	plane_reset(p);
	names_id(&p->ev, MODULE_NAME "(77)", -1);
	if (attn) {
		b.len = 0;
		hlo_proto(&b);
		put_key(&p->md1stats, 5, WT_LEN);
		put_varint(&p->md1stats, 1 + varint_len(names_id(&p->st,
		    "Hlo Proto", -1)) + 1 + varint_len(b.len) + b.len);
		put_uint(&p->md1stats, 1, names_id(&p->st, "Hlo Proto", -1));
		put_bytes(&p->md1stats, 6, b.data, b.len);
		b.len = 0;
	}
	plane_write(g, &sk, 3, "/host:metadata", NULL, 0);

	put_str(&b, 4, "host0");
	sink_write(&sk, b.data, b.len);
	buf_free(&b);
	sink_close(&sk);
	free(path);

	fp = open_out(exp, "launches.csv");
	fprintf(fp, "module,executions,execute_ps,span_ps,autotune_ps\n"
	    "%s,%d,%" PRId64 ",%" PRId64 ",%" PRId64 "\n", MODULE_NAME,
	    g->steps, exec_ps, span_ps, autotune_ps);
	close_out(fp, "launches.csv");
	fp = open_out(exp, "launch-ops.csv");
	fputs("name,count,total_ps,min_ps,category\n", fp);
	for (k = 0; k < nops; k++) {
		if (k == LK_OPS)
			fprintf(fp, "%s", LK_TE_OP);
		else
			fprintf(fp, "fusion.%d", k == LK_OPS + 1 ? 7 : k);
		fprintf(fp, ",%d,%" PRId64 ",%" PRId64 ",%s\n",
		    k == LK_OPS + 1 ? LK_LOOP_TRIPS * g->steps : g->steps,
		    op_ps[k], op_min[k], cat[k]);
	}
	close_out(fp, "launch-ops.csv");
}

/*
 * --stress=KIND:N: one file shaped to measure how time and memory grow
 * with a count (bench/, the scale tests): N planes, N `XLA Ops` lines,
 * N empty lines or N events, each plane, line and event as small as the
 * format allows; or (pids) trace JSON of N processes.  Nothing is expected
 * of it but that it is read.
 */
static void
stress_line(struct buf *out, int64_t id, const char *name, int64_t nev)
{
	struct buf	 l = { 0 }, ev = { 0 };
	int64_t		 i;

	put_int(&l, 1, id);
	put_str(&l, 2, name);
	put_int(&l, 3, DEV_TS_NS + id);
	for (i = 0; i < nev; i++) {
		ev.len = 0;
		put_uint(&ev, 1, 1);
		put_int(&ev, 2, i * 2000);
		put_int(&ev, 3, 1000);
		put_bytes(&l, 4, ev.data, ev.len);
	}
	put_bytes(out, 3, l.data, l.len);
	buf_free(&l);
	buf_free(&ev);
}

/* A plane's id and name, and its event metadata 1, `fusion.1`. */
static void
stress_plane_head(struct buf *pl, int64_t id, const char *name)
{
	struct buf	 md = { 0 }, ent = { 0 };

	put_int(pl, 1, id);
	put_str(pl, 2, name);
	put_int(&md, 1, 1);
	put_str(&md, 2, "fusion.1");
	put_int(&ent, 1, 1);
	put_bytes(&ent, 2, md.data, md.len);
	put_bytes(pl, 4, ent.data, ent.len);
	buf_free(&md);
	buf_free(&ent);
}

static void
stress_run(const char *kind, int64_t n, const char *path)
{
	struct buf	 out = { 0 }, pl = { 0 };
	char		 name[64];
	FILE		*fp;
	int64_t		 i;

	if (strcmp(kind, "pids") == 0) {
		/* Trace JSON: N processes, each a device of one op. */
		buf_add(&out, "{\"traceEvents\":[", 16);
		for (i = 0; i < n; i++) {
			char ev[512];
			int len = snprintf(ev, sizeof(ev), "%s"
			    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId64
			    ",\"args\":{\"name\":\"/device:GPU:%" PRId64 "\"}},"
			    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId64
			    ",\"tid\":1,\"args\":{\"name\":\"XLA Ops\"}},"
			    "{\"ph\":\"X\",\"name\":\"fusion.1\",\"pid\":%" PRId64
			    ",\"tid\":1,\"ts\":%" PRId64 ",\"dur\":1}",
			    i > 0 ? "," : "", i, i, i, i, i);

			buf_add(&out, ev, (size_t)len);
		}
		buf_add(&out, "]}\n", 3);
	} else if (strcmp(kind, "planes") == 0) {
		for (i = 0; i < n; i++) {
			pl.len = 0;
			snprintf(name, sizeof(name), "/device:GPU:%" PRId64, i);
			stress_plane_head(&pl, i, name);
			stress_line(&pl, 1, "XLA Ops", 1);
			put_bytes(&out, 1, pl.data, pl.len);
		}
	} else {
		stress_plane_head(&pl, 0, "/device:GPU:0");
		if (strcmp(kind, "lines") == 0)
			for (i = 0; i < n; i++)
				stress_line(&pl, i, "XLA Ops", 1);
		else if (strcmp(kind, "empty") == 0)
			for (i = 0; i < n; i++)
				put_bytes(&pl, 3, NULL, 0);
		else if (strcmp(kind, "events") == 0)
			stress_line(&pl, 1, "XLA Ops", n);
		else
			die("invalid --stress '%s' (want planes, lines, empty, "
			    "events or pids)", kind);
		put_bytes(&out, 1, pl.data, pl.len);
	}
	if (strcmp(kind, "pids") != 0)
		put_str(&out, 4, "host0");
	fp = fopen(path, "wb");
	if (fp == NULL)
		die("%s: %s", path, strerror(errno));
	if (fwrite(out.data, 1, out.len, fp) != out.len)
		die("%s: %s", path, strerror(errno));
	close_out(fp, path);
	buf_free(&out);
	buf_free(&pl);
}

static _Noreturn void
usage(FILE *fp, int status)
{
	fprintf(fp, "usage: gen-xplane [-v] [--seed=N] [--hosts=H] "
	    "[--devices=D] [--steps=S] [--ops=K]\n"
	    "                  [--repeat=R] [--gzip] [--warn] "
	    "[--memory=ok|damaged|huge]\n"
	    "                  [--slow-op=NAME [--slow-factor=F]] [--epoch=NS] outdir\n"
	    "       gen-xplane [--seed=N] [--steps=S] "
	    "--launches=plain|graph|attention outdir\n"
	    "       gen-xplane --stress=planes|lines|empty|events|pids:N "
	    "file\n");
	exit(status);
}

static long long
num_arg(const char *name, const char *s, long long lo, long long hi)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		die("invalid --%s '%s' (want %lld..%lld)", name, s, lo, hi);
	return v;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "devices",	required_argument, NULL, 'D' },
		{ "epoch",	required_argument, NULL, 'E' },
		{ "gzip",	no_argument,	   NULL, 'z' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "hosts",	required_argument, NULL, 'H' },
		{ "launches",	required_argument, NULL, 'L' },
		{ "memory",	required_argument, NULL, 'M' },
		{ "ops",	required_argument, NULL, 'K' },
		{ "repeat",	required_argument, NULL, 'R' },
		{ "seed",	required_argument, NULL, 'n' },
		{ "slow-factor", required_argument, NULL, 'F' },
		{ "slow-op",	required_argument, NULL, 'O' },
		{ "steps",	required_argument, NULL, 'S' },
		{ "stress",	required_argument, NULL, 'X' },
		{ "verbose",	no_argument,	   NULL, 'v' },
		{ "warn",	no_argument,	   NULL, 'w' },
		{ NULL,		0,		   NULL, 0 }
	};
	struct gen	 g;
	FILE		*fp;
	char		*run, *exp, *end;
	char		*stress = NULL;
	int		 ch, i, launches = 0;

	memset(&g, 0, sizeof(g));
	g.seed = 1;
	g.hosts = 1;
	g.devices = 2;
	g.steps = 5;
	g.ops = 10;
	g.repeat = 1;
	g.slow_factor = 2.0;
	while ((ch = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		switch (ch) {
		case 'D':
			g.devices = (int)num_arg("devices", optarg, 0, 1024);
			break;
		case 'E':
			g.epoch_ns = num_arg("epoch", optarg, 0,
			    4000000000000000000LL);
			break;
		case 'z':
			g.gzip = 1;
			break;
		case 'h':
			usage(stdout, 0);
			/* NOTREACHED */
		case 'H':
			g.hosts = (int)num_arg("hosts", optarg, 1, 4096);
			break;
		case 'K':
			g.ops = (int)num_arg("ops", optarg, 1, 100000);
			break;
		case 'L':
			if (strcmp(optarg, "plain") == 0)
				launches = 1;
			else if (strcmp(optarg, "graph") == 0)
				launches = 2;
			else if (strcmp(optarg, "attention") == 0)
				launches = 3;
			else
				die("invalid --launches '%s' (want plain, "
				    "graph or attention)", optarg);
			break;
		case 'M':
			if (strcmp(optarg, "ok") == 0)
				g.memory = 1;
			else if (strcmp(optarg, "damaged") == 0)
				g.memory = 2;
			else if (strcmp(optarg, "huge") == 0)
				g.memory = 3;
			else
				die("invalid --memory '%s' (want ok, "
				    "damaged or huge)", optarg);
			break;
		case 'R':
			g.repeat = (int)num_arg("repeat", optarg, 1, 1000000);
			break;
		case 'n':
			errno = 0;
			g.seed = strtoull(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    optarg[0] == '-')
				die("invalid --seed '%s'", optarg);
			break;
		case 'F':
			errno = 0;
			g.slow_factor = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    !(g.slow_factor > 0 && g.slow_factor <= 1e6))
				die("invalid --slow-factor '%s'", optarg);
			break;
		case 'O':
			g.slow_op = optarg;
			break;
		case 'S':
			g.steps = (int)num_arg("steps", optarg, 1, 1000000);
			break;
		case 'X':
			stress = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'w':
			g.warn = 1;
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (argc - optind != 1)
		usage(stderr, 2);
	if (stress != NULL) {
		char *colon = strchr(stress, ':');

		if (colon == NULL)
			die("invalid --stress '%s' (want KIND:N)", stress);
		*colon = '\0';
		stress_run(stress, num_arg("stress", colon + 1, 0,
		    100000000), argv[optind]);
		return 0;
	}
	g.outdir = argv[optind];
	if (g.outdir[0] == '\0')
		die("empty outdir");

	kinds_make(&g);
	g.total = xcalloc((size_t)g.nkinds, sizeof(*g.total));
	g.dacc = xcalloc((size_t)g.nkinds, sizeof(*g.dacc));
	g.order = xcalloc((size_t)g.nkinds, sizeof(*g.order));
	g.len = xcalloc((size_t)g.devices * (size_t)g.steps, sizeof(*g.len));
	g.start = xcalloc((size_t)g.steps, sizeof(*g.start));
	g.end = xcalloc((size_t)g.steps, sizeof(*g.end));

	run = xasprintf("%s/" RUN_DIR, g.outdir);
	exp = xasprintf("%s/expected", g.outdir);
	mkdir_p(run);
	mkdir_p(exp);
	if (launches != 0) {
		launches_run(&g, run, exp, launches == 2, launches == 3);
		free(run);
		free(exp);
		for (i = 0; i < g.nkinds; i++) {
			free(g.kinds[i].name);
			free(g.kinds[i].hlo);
		}
		free(g.start);
		free(g.end);
		free(g.kinds);
		free(g.total);
		free(g.dacc);
		free(g.order);
		free(g.len);
		names_free(&g.plane.ev);
		names_free(&g.plane.st);
		buf_free(&g.plane.pstats);
		buf_free(&g.plane.md1stats);
		buf_free(&g.plane.scratch);
		buf_free(&g.plane.md);
		buf_free(&g.plane.ent);
		buf_free(&g.plane.head);
		buf_free(&g.plane.tail);
		return 0;
	}

	fp = open_out(exp, "README");
	fprintf(fp, "Expected jaxprof answers for the profile in ../" RUN_DIR
	    ",\nmade by tests/gen-xplane.c (see tests/gen-xplane.md):\n\n"
	    "gen-xplane");
	for (i = 1; i < argc; i++)
		fprintf(fp, " %s", argv[i]);
	fputc('\n', fp);
	close_out(fp, "README");

	g.f_topdev = open_out(exp, "top-by-device.csv");
	g.f_list = open_out(exp, "list.csv");
	g.f_steps = open_out(exp, "steps.csv");
	g.f_xfer = open_out(exp, "transfers.csv");
	g.f_brk = open_out(exp, "breakdown.csv");
	g.f_gaps = open_out(exp, "gaps.csv");
	if (g.memory != 0) {
		g.f_mem = open_out(exp, "memory.csv");
		fputs("host,allocator,peak_bytes,peak_time_ps,"
		    "allocation_bytes\n", g.f_mem);
	}
	fputs("host,device,name,module,category,count,total_ps,self_ps,"
	    "min_ps,max_ps,flops,bytes_accessed\n", g.f_topdev);
	fputs("host,planes,events\n", g.f_list);
	fputs("host,device,step,start_ps,duration_ps\n", g.f_steps);
	fputs("host,device,direction,count,bytes,time_ps\n", g.f_xfer);
	fputs("host,device,step,start_ps,duration_ps,compute_ps,"
	    "collective_ps,transfer_ps,idle_ps\n", g.f_brk);
	fputs("host,device,start_ps,duration_ps\n", g.f_gaps);

	for (i = 0; i < g.hosts; i++)
		file_run(&g, run, i);

	fp = open_out(exp, "top.csv");
	fputs("name,module,category,count,total_ps,self_ps,min_ps,max_ps,"
	    "flops,bytes_accessed\n", fp);
	top_write(&g, fp, g.total, "");
	close_out(fp, "top.csv");
	close_out(g.f_topdev, "top-by-device.csv");
	close_out(g.f_list, "list.csv");
	close_out(g.f_steps, "steps.csv");
	close_out(g.f_xfer, "transfers.csv");
	close_out(g.f_brk, "breakdown.csv");
	close_out(g.f_gaps, "gaps.csv");
	if (g.memory != 0)
		close_out(g.f_mem, "memory.csv");

	for (i = 0; i < g.nkinds; i++) {
		free(g.kinds[i].name);
		free(g.kinds[i].hlo);
	}
	free(g.kinds);
	free(g.total);
	free(g.dacc);
	free(g.order);
	free(g.len);
	free(g.start);
	free(g.end);
	free(g.iv);
	free(g.ivu);
	free(run);
	free(exp);
	names_free(&g.plane.ev);
	names_free(&g.plane.st);
	buf_free(&g.plane.pstats);
	buf_free(&g.plane.md1stats);
	buf_free(&g.plane.scratch);
	buf_free(&g.plane.md);
	buf_free(&g.plane.ent);
	buf_free(&g.plane.head);
	buf_free(&g.plane.tail);
	for (i = 0; i < NDEVLINES; i++) {
		buf_free(&g.dline[i].head);
		buf_free(&g.dline[i].ev);
	}
	for (i = 0; i < 3; i++) {
		buf_free(&g.hline[i].head);
		buf_free(&g.hline[i].ev);
	}
	return 0;
}
