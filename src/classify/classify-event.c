/*
 * The classifier's shared layer: op tables, the current event's stats,
 * categories and busy classes, and adding op occurrences and transfers.
 * classify-host.c and classify.c build on it; it calls neither.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "classify/classify-event.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "lib/xmalloc.h"
#include "model/precision.h"

char *
derive_category(const char *name)
{
	size_t len = strlen(name);
	char *base;

	/* Strip every trailing ".<digits>": "fusion.1.2" -> "fusion". */
	for (;;) {
		size_t i = len;

		while (i > 0 && isdigit((unsigned char)name[i - 1]))
			i--;
		if (i == len || i == 0 || name[i - 1] != '.')
			break;
		len = i - 1;
	}
	base = xstrndup(name, len);
	if (len >= 6 && strcmp(base + len - 6, "fusion") == 0) {
		const char *kind = "fusion";

		if (strncmp(base, "loop_", 5) == 0)
			kind = "loop fusion";
		else if (strncmp(base, "input_", 6) == 0)
			kind = "input fusion";
		else if (strncmp(base, "output_", 7) == 0)
			kind = "output fusion";
		free(base);
		return xstrdup(kind);
	}
	return base;
}

/* ---- op tables ---- */

static uint64_t
op_key_hash(const struct op_key *k)
{
	uint64_t h = k->name * 0x9e3779b97f4a7c15ULL;

	h ^= (k->module + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;
	h ^= (uint64_t)k->program_id * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static size_t
op_table_slot(const struct op_table *t, const struct op_key *k)
{
	size_t i = (size_t)op_key_hash(k) & (t->cap - 1);

	while (t->slots[i] != 0 && !op_key_eq(&t->keys[t->slots[i] - 1], k))
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* The aggregate for k, created (zeroed, with category) when new. */
size_t
op_table_get(struct op_table *t, const struct op_key *k, uint32_t category)
{
	size_t i;

	if ((t->n + 1) * 2 > t->cap) {
		size_t j;

		free(t->slots);
		/* Small at first: a file may hold 100,000 planes of one op. */
		t->cap = t->cap == 0 ? 8 : t->cap * 2;
		t->slots = xcalloc(t->cap, sizeof *t->slots);
		/*
		 * Keys stay under half the slots: room for them grows with
		 * the slots, not by one each (each grow copied them all).
		 */
		t->keys = xreallocarray(t->keys, t->cap / 2, sizeof *t->keys);
		t->aggs = xreallocarray(t->aggs, t->cap / 2, sizeof *t->aggs);
		for (j = 0; j < t->n; j++)
			t->slots[op_table_slot(t, &t->keys[j])] =
			    (uint32_t)j + 1;
	}
	i = op_table_slot(t, k);
	if (t->slots[i] != 0)
		return t->slots[i] - 1;
	t->keys[t->n] = *k;
	memset(&t->aggs[t->n], 0, sizeof t->aggs[t->n]);
	t->aggs[t->n].name = k->name;
	t->aggs[t->n].category = category;
	t->slots[i] = (uint32_t)t->n + 1;
	return t->n++;
}

void
op_table_release(struct op_table *t)
{
	free(t->keys);
	free(t->aggs);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

/* ---- helpers over events ---- */

uint32_t
intern(struct classify *c, const char *s, size_t len)
{
	return strmap_intern(&c->fs->strings, s, len);
}

uint32_t
intern_str(struct classify *c, const char *s)
{
	return intern(c, s, strlen(s));
}

/* The two ids struct module_ids keeps per instruction. */
enum { INSTR_NAME, INSTR_CATEGORY };

/*
 * The ids of instruction in's name and category (struct module_ids), or
 * NULL when in is not one of the current HLO module's instructions.
 */
static uint32_t *
instr_ids(struct classify *c, const struct hlo_instr *in)
{
	const struct hlo_module *m = c->last_hlo;
	struct module_ids *mi;
	size_t i;

	if (m == NULL || (uintptr_t)in < (uintptr_t)m->instrs ||
	    (uintptr_t)in >= (uintptr_t)(m->instrs + m->ninstrs))
		return NULL;
	mi = c->nmodule_ids > 0 ? &c->module_ids[c->last_module_ids] : NULL;
	if (mi == NULL || mi->module != m) {
		for (i = 0; i < c->nmodule_ids; i++)
			if (c->module_ids[i].module == m)
				break;
		if (i == c->nmodule_ids) {
			c->module_ids = xgrow1(c->module_ids, c->nmodule_ids,
			    sizeof *c->module_ids);
			mi = &c->module_ids[c->nmodule_ids++];
			mi->module = m;
			mi->ids = xreallocarray(NULL, 2 * m->ninstrs,
			    sizeof *mi->ids);
			memset(mi->ids, 0xff, 2 * m->ninstrs * sizeof *mi->ids);
		}
		c->last_module_ids = i;
		mi = &c->module_ids[i];
	}
	return &mi->ids[2 * (size_t)(in - m->instrs)];
}

/* The id of in's name or category (INSTR_NAME, INSTR_CATEGORY). */
static uint32_t
instr_string_id(struct classify *c, const struct hlo_instr *in, int which)
{
	const char *s = which == INSTR_NAME ? in->name : in->category;
	uint32_t *ids = instr_ids(c, in);

	if (ids == NULL)
		return intern_str(c, s);
	if (ids[which] == NO_ID)
		ids[which] = intern_str(c, s);
	return ids[which];
}

uint32_t
instr_name_id(struct classify *c, const struct hlo_instr *in)
{
	return instr_string_id(c, in, INSTR_NAME);
}

void
free_module_ids(struct classify *c)
{
	size_t i;

	for (i = 0; i < c->nmodule_ids; i++)
		free(c->module_ids[i].ids);
	free(c->module_ids);
	c->module_ids = NULL;
	c->nmodule_ids = 0;
	c->last_module_ids = 0;
}

/* The view of a metadata with no stat of a known key. */
static const struct pf_stat *no_stats_view[PF_NKEYS];

/* Once per metadata: kept out of load_view(), which runs per event. */
static __attribute__((noinline)) const struct pf_stat **
make_meta_view(const struct pf_event_meta *meta)
{
	const struct pf_stat **view = NULL;
	size_t i;

	for (i = meta->nstats; i > 0; i--)
		if (meta->stats[i - 1].key != PF_KEY_OTHER) {
			if (view == NULL)
				view = xcalloc(PF_NKEYS, sizeof *view);
			view[meta->stats[i - 1].key] = &meta->stats[i - 1];
		}
	return view != NULL ? view : no_stats_view;
}

void
free_meta_views(struct classify *c)
{
	size_t i;

	for (i = 0; c->meta_views != NULL && i <= c->nmetas; i++)
		if (c->meta_views[i] != no_stats_view)
			free(c->meta_views[i]);
	free(c->meta_views);
	c->meta_views = NULL;
}

/*
 * Loads the current event's known stats for event_stat(): the event's own
 * over its metadata's (FORMATS.md 2.6); the first of duplicates wins.
 * The metadata's part is made once per plane (make_meta_view()).
 */
void
load_view(struct classify *c, const struct pf_event *ev)
{
	const struct pf_stat ***slot = &c->meta_views[ev->meta_index];
	size_t i;

	if (*slot == NULL)
		*slot = make_meta_view(ev->meta);
	c->md_view = *slot;
	c->ev_keys = 0;
	for (i = ev->nstats; i > 0; i--)
		if (ev->stats[i - 1].key != PF_KEY_OTHER) {
			c->ev_view[ev->stats[i - 1].key] = &ev->stats[i - 1];
			c->ev_keys |= 1u << ev->stats[i - 1].key;
		}
}

/* The innermost op of an hlo_op value "outer::inner". */
struct pf_bytes
last_component(struct pf_bytes s)
{
	size_t i;

	for (i = s.len; i >= 2; i--)
		if (s.ptr[i - 1] == ':' && s.ptr[i - 2] == ':') {
			s.ptr += i;
			s.len -= i;
			break;
		}
	return s;
}

/* TensorFlow op names "name:Type": one ':' and an identifier type. */
int
split_tf_op(const char *name, size_t *name_len)
{
	const char *colon = strchr(name, ':'), *p;

	if (colon == NULL || colon == name || strchr(colon + 1, ':') != NULL)
		return 0;
	for (p = name; p < colon; p++)
		if (isspace((unsigned char)*p))
			return 0;
	p = colon + 1;
	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	for (; *p != '\0'; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return 0;
	*name_len = (size_t)(colon - name);
	return 1;
}

/* The display name of an event as a string id, cached per metadata. */
uint32_t
event_name_intern(struct classify *c, const struct pf_event *ev)
{
	return c->meta_memo[ev->meta_index].name =
	    intern_str(c, pf_event_name(ev));
}

/* The category derived from op name `op` (a string id), cached. */
static uint32_t
derived_category(struct classify *c, uint32_t op)
{
	char *derived;

	if (op >= c->ncat_of_name) {
		size_t n = c->fs->strings.n, i;

		c->cat_of_name = xreallocarray(c->cat_of_name, n,
		    sizeof *c->cat_of_name);
		for (i = c->ncat_of_name; i < n; i++)
			c->cat_of_name[i] = NO_ID;
		c->ncat_of_name = n;
	}
	if (c->cat_of_name[op] == NO_ID) {
		derived = derive_category(c->fs->strings.strings[op]);
		c->cat_of_name[op] = intern_str(c, derived);
		free(derived);
	}
	return c->cat_of_name[op];
}

/*
 * The op's category: its hlo_category stat (the event's, else the
 * metadata's), else its HLO instruction's, else derived from the op name.
 */
uint32_t
category_of(struct classify *c, const struct pf_event *ev, uint32_t op,
    const struct hlo_instr *in)
{
	const struct pf_stat *st;
	struct pf_bytes cat;
	uint32_t *slot;

	/* Its own, from the view (the first of duplicates, as ever). */
	st = (c->ev_keys >> PF_KEY_HLO_CATEGORY) & 1 ?
	    c->ev_view[PF_KEY_HLO_CATEGORY] : NULL;
	if (pf_stat_str(st, &cat))
		return intern(c, cat.ptr, cat.len);
	slot = &c->meta_memo[ev->meta_index].category;
	if (*slot == NO_ID) {
		st = pf_stat_find(ev->meta->stats, ev->meta->nstats,
		    PF_KEY_HLO_CATEGORY);
		*slot = pf_stat_str(st, &cat) ? intern(c, cat.ptr, cat.len) :
		    NO_ID - 1;
	}
	if (*slot != NO_ID - 1)
		return *slot;
	return in != NULL ? instr_string_id(c, in, INSTR_CATEGORY) :
	    derived_category(c, op);
}

/* The HLO module of the current event's program, or NULL. */
const struct hlo_module *
event_hlo_module(struct classify *c, const struct op_key *k)
{
	const char *name = NULL;
	int64_t pid;

	if (c->hlo_wait != NULL) {
		c->hlo = c->hlo_wait(c->hlo_wait_arg);
		c->hlo_wait = NULL;
	}
	if (c->hlo == NULL)
		return NULL;
	if (!event_int(c, PF_KEY_PROGRAM_ID, &pid))
		pid = -1;
	if (c->last_hlo_program == pid && c->last_hlo_module == k->module)
		return c->last_hlo;
	if (k->module != NO_ID)
		name = c->fs->strings.strings[k->module];
	c->last_hlo = hlo_set_find(c->hlo, pid, name,
	    name != NULL ? strlen(name) : 0);
	/* Its costs, worked out when an event first names the program. */
	if (c->last_hlo != NULL)
		hlo_module_cost_launches(c->last_hlo);
	c->last_hlo_program = pid;
	c->last_hlo_module = k->module;
	return c->last_hlo;
}

const struct hlo_instr *
event_hlo_instr(struct classify *c, const struct op_key *k, struct pf_bytes op)
{
	const struct hlo_module *m = event_hlo_module(c, k);

	return m != NULL ? hlo_module_instr(m, op.ptr, op.len) : NULL;
}

void
op_key_from_event(struct classify *c, uint32_t name, struct op_key *k)
{
	struct pf_bytes module;

	k->name = name;
	k->module = NO_ID;
	if (event_str(c, PF_KEY_HLO_MODULE, &module)) {
		/* Reference strings repeat by pointer: skip hashing them. */
		if (module.ptr != c->last_module.ptr ||
		    module.len != c->last_module.len) {
			c->last_module = module;
			c->last_module_id = intern(c, module.ptr, module.len);
		}
		k->module = c->last_module_id;
	}
	/* Programs may share a module name (jit_f for several shapes). */
	if (!event_int(c, PF_KEY_PROGRAM_ID, &k->program_id))
		k->program_id = -1;
}

void
event_cost(struct classify *c, uint64_t *flops, int *has_flops,
    uint64_t *bytes, int *has_bytes)
{
	int64_t v;

	/* A negative count is no count. */
	*has_flops = event_int(c, PF_KEY_FLOPS, &v) && v >= 0;
	*flops = *has_flops ? (uint64_t)v : 0;
	*has_bytes = event_int(c, PF_KEY_BYTES_ACCESSED, &v) && v >= 0;
	*bytes = *has_bytes ? (uint64_t)v : 0;
}

/* ---- self time: a stack of open op events per line ---- */

/* Op categories of collective communication (FORMATS.md 7.4). */
static const char *const collective_prefixes[] = {
	"all-reduce", "all-gather", "all-to-all", "reduce-scatter",
	"collective-permute", "collective-broadcast", "send", "recv",
	"nccl", "rccl",
};

/* Categories of copies between memories, and host I/O. */
static const char *const transfer_prefixes[] = {
	"copy-start", "copy-done", "infeed", "outfeed", "host send",
	"host recv",
};

/* What a category's time is: a collective, a transfer or compute. */
static enum busy_class
busy_class_of(const char *category)
{
	size_t i;

	for (i = 0; i < sizeof collective_prefixes /
	    sizeof collective_prefixes[0]; i++)
		if (strncmp(category, collective_prefixes[i],
		    strlen(collective_prefixes[i])) == 0)
			return BUSY_COLLECTIVE;
	for (i = 0; i < sizeof transfer_prefixes /
	    sizeof transfer_prefixes[0]; i++)
		if (strncmp(category, transfer_prefixes[i],
		    strlen(transfer_prefixes[i])) == 0)
			return BUSY_TRANSFER;
	return BUSY_COMPUTE;
}

/* busy_class_of() a category string id, cached per id. */
enum busy_class
busy_class_id(struct classify *c, uint32_t category)
{
	if (category >= c->nclass_of) {
		size_t n = c->fs->strings.n, i;

		c->class_of = xreallocarray(c->class_of, n,
		    sizeof *c->class_of);
		for (i = c->nclass_of; i < n; i++)
			c->class_of[i] = -1;
		c->nclass_of = n;
	}
	if (c->class_of[category] == -1)
		c->class_of[category] = (int8_t)busy_class_of(
		    c->fs->strings.strings[category]);
	return (enum busy_class)c->class_of[category];
}

void
add_named_span(struct named_span **v, size_t *n, uint32_t name,
    int64_t start, int64_t dur)
{
	*v = xgrow1(*v, *n, sizeof **v);
	(*v)[*n].name = name;
	(*v)[*n].start_ps = start;
	(*v)[*n].dur_ps = dur;
	(*n)++;
}

/*
 * The JAX-level op an event of op `name` runs, from the event itself: its
 * tf_op stat (TensorFlow's "name:Type" or a name-stack path such as
 * "jit(f)/dot_general"), unless that is just the module annotation
 * "XlaModule:...", else the op's own name, as xprof falls back to the HLO
 * name.  The "name" stat is a scope (named_scope), not an op.
 */
uint32_t
event_framework_op(struct classify *c, uint32_t name)
{
	struct pf_bytes v;

	if (event_str(c, PF_KEY_TF_OP, &v) && v.len > 0 &&
	    !(v.len >= 9 && memcmp(v.ptr, "XlaModule", 9) == 0)) {
		/* TF-style "name:Type" with no type: "jit(f)/add:". */
		if (v.ptr[v.len - 1] == ':')
			v.len--;
		return intern(c, v.ptr, v.len);
	}
	return name;
}

/*
 * The precision an op computes in on the plane's device: for a GEMM or
 * convolution, its kernel's name where that says; else its HLO's, an f32
 * dot that allows TF32 as the device runs one (precision.h).
 */
static int
op_precision(struct classify *c, const struct hlo_instr *in,
    uint32_t category)
{
	const char *cat = c->fs->strings.strings[category];
	const struct plane_summary *p = c->plane;
	int k = PREC_UNKNOWN;

	if (c->occ_kernel != NO_ID && (in == NULL || strcmp(cat, "gemm") == 0
	    || strcmp(cat, "gemm fusion") == 0 ||
	    strcmp(cat, "convolution") == 0))
		k = precision_of_kernel(c->fs->strings.strings[c->occ_kernel]);
	if (k != PREC_UNKNOWN || in == NULL || !in->has_cost)
		return k;
	if (in->f32_dot)
		return precision_of_f32_dot(strstr(c->fs->strings.strings[
		    p->name], "TPU") != NULL, p->has_peak ?
		    p->peak.gflops[PREC_TF32] : 0);
	return in->precision;
}

void
describe_op(struct classify *c, struct op_agg *a)
{
	const struct hlo_instr *in = c->occ_instr;
	uint32_t empty = intern_str(c, "");

	/* A kernel's occurrence closes at the next event: it kept its own. */
	a->framework_op = in != NULL && in->op_name[0] != '\0' ?
	    intern_str(c, in->op_name) : c->occ_framework != NO_ID ?
	    c->occ_framework : event_framework_op(c, a->name);
	a->source = a->source_function = empty;
	if (in != NULL && in->source_file[0] != '\0') {
		char *src = xasprintf("%s:%ld", in->source_file,
		    (long)in->source_line);

		a->source = intern_str(c, src);
		a->source_function = intern_str(c, in->source_function);
		free(src);
	}
	a->parent = c->occ_parent != NO_ID ? c->occ_parent : empty;
	a->precision = op_precision(c, in, a->category);
}

void
grow_ops_stack(struct classify *c)
{
	c->ops_stack_cap = c->ops_stack_cap == 0 ? 16 : c->ops_stack_cap * 2;
	c->ops_stack = xreallocarray(c->ops_stack, c->ops_stack_cap,
	    sizeof *c->ops_stack);
}

void
add_transfer(struct classify *c, const struct pf_event *ev,
    enum transfer_dir dir, int on_host, int64_t bytes, int64_t start,
    int64_t dur)
{
	struct plane_summary *p = c->plane;
	struct transfer_rec *t;

	p->transfers = xgrow1(p->transfers, p->ntransfers,
	    sizeof *p->transfers);
	t = &p->transfers[p->ntransfers++];
	t->name = event_name_id(c, ev);
	t->line = c->line_name;
	t->dir = dir;
	t->on_host = on_host;
	t->compile_work = !on_host && c->line_compile;
	t->bytes = bytes;
	t->start_ps = start;
	t->dur_ps = dur;
}
