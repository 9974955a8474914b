/*
 * Classify a file's events into ops, kernels, modules, steps, compiles and
 * transfers (the definitions are in man/jaxprof.1, DEFINITIONS).
 */
#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "classify-int.h"
#include "device-peak.h"
#include "err.h"
#include "ptime.h"
#include "steps.h"
#include "xmalloc.h"

const char *
plane_kind_name(enum plane_kind kind)
{
	switch (kind) {
	case PLANE_DEVICE:
		return "device";
	case PLANE_HOST:
		return "host";
	default:
		return "other";
	}
}

const char *
op_source_name(enum op_source src)
{
	switch (src) {
	case OPS_DEVICE:
		return "device";
	case OPS_HOST_XLA:
		return "host-xla";
	case OPS_HOST_TF:
		return "host-tf";
	default:
		return "none";
	}
}

const char *
step_source_name(enum step_source src)
{
	switch (src) {
	case STEP_DEVICE:
		return "device";
	case STEP_HOST:
		return "host";
	default:
		return "module";
	}
}

const char *
transfer_dir_name(enum transfer_dir dir)
{
	switch (dir) {
	case XFER_H2D:
		return "H2D";
	case XFER_D2H:
		return "D2H";
	case XFER_D2D:
		return "D2D";
	case XFER_MEMSET:
		return "memset";
	default:
		return "other";
	}
}

/* A kernel op's complete occurrence into its min and max. */
static void
fold_kernel_occ(struct op_agg *a, const struct kernel_occ *o, int first)
{
	if (first || o->dur_ps < a->min_ps)
		a->min_ps = o->dur_ps;
	if (first || o->dur_ps > a->max_ps)
		a->max_ps = o->dur_ps;
}

/*
 * The pending run of a kernel op into its aggregate.  An op runs once per
 * execution of its program unless it is in a loop: a later run in the same
 * execution (a custom call's fill kernel then its main one, each in a
 * scope of its own; a memset for it) joins the occurrence, so its count
 * is its executions and its min and max are those of whole occurrences.
 */
static void
add_kernel_occurrence(struct classify *c)
{
	struct op_table *t = &c->cand[CAND_KERNELS];
	const struct hlo_instr *in = c->pending_instr;
	size_t i = op_table_get(t, &c->pending_key, c->pending_category);
	struct op_agg *a = &t->aggs[i];
	struct kernel_occ *o;

	if (t->n > c->nkocc) {
		c->kocc = xreallocarray(c->kocc, t->n * 2, sizeof *c->kocc);
		memset(c->kocc + c->nkocc, 0,
		    (t->n * 2 - c->nkocc) * sizeof *c->kocc);
		c->nkocc = t->n * 2;
	}
	o = &c->kocc[i];
	a->total_ps = ps_add(a->total_ps, c->pending_dur);
	a->self_ps = ps_add(a->self_ps, c->pending_dur);
	if (a->count > 0 && c->pending_exec != 0 &&
	    o->exec == c->pending_exec && in != NULL && !in->in_loop) {
		o->dur_ps = ps_add(o->dur_ps, c->pending_dur);
		return;
	}
	if (a->count == 0)
		describe_op(c, a);
	else
		fold_kernel_occ(a, o, a->count == 1);
	a->count++;
	o->exec = c->pending_exec;
	o->dur_ps = c->pending_dur;
	a->flops += c->pending_flops;
	a->bytes_accessed += c->pending_bytes;
	a->has_flops |= c->pending_has_flops;
	a->has_bytes |= c->pending_has_bytes;
}

/* The last occurrences of the plane's kernel ops, complete now. */
static void
end_kernel_occs(struct classify *c)
{
	struct op_table *t = &c->cand[CAND_KERNELS];
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->aggs[i].count > 0)
			fold_kernel_occ(&t->aggs[i], &c->kocc[i],
			    t->aggs[i].count == 1);
	if (c->nkocc > 0)
		memset(c->kocc, 0, c->nkocc * sizeof *c->kocc);
}

static void
flush_pending(struct classify *c)
{
	if (!c->pending)
		return;
	c->occ_instr = c->pending_instr;
	c->occ_parent = c->pending_parent;
	c->occ_framework = c->pending_framework;
	add_kernel_occurrence(c);
	c->occ_instr = NULL;
	c->occ_parent = NO_ID;
	c->occ_framework = NO_ID;
	c->pending = 0;
}

/* ---- per event kind ---- */

static void
flush_run(struct classify *c)
{
	struct plane_summary *p = c->plane;

	if (!c->run_open)
		return;
	p->execs = xgrow1(p->execs, p->nexecs, sizeof *p->execs);
	p->execs[p->nexecs++] = c->run;
	c->run_open = 0;
}

/* An id stat as an integer: trace JSON may write it as a string. */
static int64_t
event_id(struct classify *c, enum pf_key key)
{
	const struct pf_stat *st = event_stat(c, key);
	struct pf_bytes b;
	int64_t v = 0;
	size_t i;

	if (pf_stat_int(st, &v))
		return v;
	if (!pf_stat_str(st, &b) || b.len == 0 || b.len > 18)
		return -1;
	for (i = 0; i < b.len; i++) {
		if (!isdigit((unsigned char)b.ptr[i]))
			return -1;
		v = v * 10 + (b.ptr[i] - '0');
	}
	return v;
}

/* What tells one launch, and one run of an op, from the next. */
struct launch_ids {
	int64_t		program;	/* program_id stat, or -1 */
	int64_t		graph_launch;	/* CUDA graph kernels: the launch's
					   correlation id; else -1 */
	int64_t		scope;		/* scope_range_id, or -1 */
};

static void
launch_ids_of(struct classify *c, struct launch_ids *li)
{
	li->program = event_id(c, PF_KEY_PROGRAM_ID);
	li->scope = event_id(c, PF_KEY_SCOPE_RANGE_ID);
	li->graph_launch = event_stat(c, PF_KEY_CUDA_GRAPH_ID) != NULL ?
	    event_id(c, PF_KEY_CORRELATION_ID) : -1;
}

/*
 * Whether a kernel of op k continues the pending run of an op: the same
 * op of the same program, the same thunk run where the profile says
 * (scope_range_id), else not a second launch of the run's first kernel.
 */
static int
continues_op_run(struct classify *c, const struct op_key *k,
    const struct launch_ids *li, uint32_t kname)
{
	if (!c->pending || !op_key_eq(k, &c->pending_key) ||
	    li->program != c->pending_program)
		return 0;
	if (li->scope != -1 && c->pending_scope != -1)
		return li->scope == c->pending_scope;
	return kname != c->pending_kernel;
}

/*
 * Whether a kernel starts a new execution of its program on this line:
 * another module or program; for a CUDA graph, another graph launch;
 * else a new run of the op the execution began with (the program
 * started over: a loop body rarely holds the entry's first op).
 */
static int
starts_execution(struct classify *c, const struct op_key *k,
    const struct launch_ids *li, int continues)
{
	if (!c->run_open || c->run.module != k->module ||
	    c->run.program_id != li->program)
		return 1;
	if (li->graph_launch != -1 || c->run.launch != -1)
		return li->graph_launch != c->run.launch;
	return !continues && k->name == c->run_first_op;
}

static void
open_execution(struct classify *c, const struct op_key *k,
    const struct launch_ids *li, int64_t start)
{
	flush_run(c);
	c->run_open = 1;
	memset(&c->run, 0, sizeof c->run);
	c->run.module = k->module;
	c->run.program_id = li->program;
	c->run.run_id = -1;
	c->run.start_ps = start;
	c->run.launch = li->graph_launch;
	c->run.from_kernels = 1;
	c->run_seq++;
	c->run_first_op = k->name;
}

/*
 * Counts one kernel of op `key` into the line's executions and op runs:
 * executions are launches, and an op's count is its runs, each the
 * kernels one run of it launched (man/jaxprof.1, Ops).
 */
static void
count_kernel(struct classify *c, const struct op_key *key, uint32_t category,
    uint32_t kname, int64_t start, int64_t dur, const struct hlo_instr *in,
    uint32_t parent)
{
	struct launch_ids li;
	uint64_t flops, bytes;
	int has_flops, has_bytes, continues;

	launch_ids_of(c, &li);
	continues = continues_op_run(c, key, &li, kname);
	if (key->module != NO_ID && starts_execution(c, key, &li, continues)) {
		flush_pending(c);
		continues = 0;
		open_execution(c, key, &li, start);
	}
	if (c->run_open && key->module == c->run.module) {
		if (start + dur > c->run.start_ps + c->run.dur_ps)
			c->run.dur_ps = start + dur - c->run.start_ps;
		c->run.device_ps = ps_add(c->run.device_ps, dur);
	}
	if (continues) {
		/* One op run: its cost is the first kernel's. */
		c->pending_dur = ps_add(c->pending_dur, dur);
		return;
	}
	event_cost(c, &flops, &has_flops, &bytes, &has_bytes);
	if (!has_flops && !has_bytes && in != NULL && in->has_cost) {
		/* No cost on the event (GPU): the HLO's, by hlo-cost.h. */
		flops = (uint64_t)in->flops;
		bytes = (uint64_t)in->bytes;
		has_flops = has_bytes = 1;
	}
	flush_pending(c);
	c->pending = 1;
	c->pending_key = *key;
	c->pending_program = li.program;
	c->pending_scope = li.scope;
	c->pending_kernel = kname;
	c->pending_category = category;
	c->pending_start = start;
	c->pending_dur = dur;
	c->pending_flops = flops;
	c->pending_bytes = bytes;
	c->pending_has_flops = has_flops;
	c->pending_has_bytes = has_bytes;
	c->pending_instr = in;
	c->pending_parent = parent;
	c->pending_exec = c->run_open && key->module == c->run.module ?
	    c->run_seq : 0;
	/* Read now: the op's agg is described when the next event comes. */
	c->pending_framework = in != NULL && in->op_name[0] != '\0' ? NO_ID :
	    event_framework_op(c, key->name);
}

/* The kernel_memo of the event's metadata. */
static struct kernel_memo *
kernel_memo(struct classify *c, const struct pf_event *ev)
{
	if (c->kernel_memos == NULL)
		c->kernel_memos = xcalloc(c->nmetas + 1,
		    sizeof *c->kernel_memos);
	return &c->kernel_memos[ev->meta_index];
}

/* The instruction a kernel of a CUDA graph launch runs, or NULL. */
static const struct hlo_instr *
graph_kernel_instr(struct classify *c, const struct pf_event *ev,
    struct kernel_memo *memo)
{
	const char *name = pf_event_name(ev);
	size_t len = strlen(name);
	int64_t launch;

	if (!event_int(c, PF_KEY_CORRELATION_ID, &launch))
		launch = -1;
	if (memo->module != c->last_hlo) {
		memo->module = c->last_hlo;
		memo->named = hlo_module_kernel(c->last_hlo, name, len);
	}
	return hlo_match_named_kernel(&c->cursor, c->last_hlo, launch,
	    memo->named, name, len);
}

/* A CUDA graph's kernel that names its own instruction (hlo_match_seen). */
static void
graph_kernel_seen(struct classify *c, const struct hlo_instr *in)
{
	int64_t launch;

	if (!event_int(c, PF_KEY_CORRELATION_ID, &launch))
		launch = -1;
	hlo_match_seen(&c->cursor, c->last_hlo, launch, in);
}

/*
 * A kernel's op, the last component of its hlo_op stat st, in *op and as
 * an id: worked out once for a run of kernels that share a reference,
 * whose bytes stay put for the plane (equal pointers, equal names).
 */
static uint32_t
kernel_op(struct classify *c, const struct pf_stat *st,
    struct pf_bytes hlo_op, struct pf_bytes *op)
{
	if (st->kind == PF_REF && hlo_op.ptr == c->last_op_ref.ptr &&
	    hlo_op.len == c->last_op_ref.len) {
		*op = c->last_op;
		return c->last_op_id;
	}
	*op = last_component(hlo_op);
	if (st->kind != PF_REF)
		return intern(c, op->ptr, op->len);
	c->last_op_ref = hlo_op;
	c->last_op = *op;
	c->last_op_id = intern(c, op->ptr, op->len);
	c->last_op_looked = 0;
	return c->last_op_id;
}

/* event_hlo_instr() for kernel_op()'s op, kept with what that keeps. */
static const struct hlo_instr *
kernel_op_instr(struct classify *c, const struct pf_stat *st,
    const struct op_key *k, struct pf_bytes op)
{
	const struct hlo_module *m = event_hlo_module(c, k);
	const struct hlo_instr *in;

	if (st->kind == PF_REF && c->last_op_looked &&
	    c->last_op_module == m)
		return c->last_op_instr;
	in = m != NULL ? hlo_module_instr(m, op.ptr, op.len) : NULL;
	if (st->kind == PF_REF) {
		c->last_op_looked = 1;
		c->last_op_module = m;
		c->last_op_instr = in;
	}
	return in;
}

/*
 * A kernel no XLA op launched, as an op of its own: its framework op
 * (TensorFlow's tf_op "name:Type": op name, category Type), else its
 * kernel name.  They are the plane's ops only when it has no XLA op at
 * all (a TensorFlow GPU profile), so its devices rank by device time.
 */
static void
other_kernel_op(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	struct op_key k = { 0, NO_ID, -1 };
	struct pf_bytes tf;
	uint32_t category;
	size_t len;

	if (event_str(c, PF_KEY_TF_OP, &tf) && tf.len > 0) {
		char *s = xstrndup(tf.ptr, tf.len);

		if (split_tf_op(s, &len)) {
			k.name = intern(c, s, len);
			category = intern_str(c, s + len + 1);
		} else {
			k.name = intern(c, s, strlen(s));
			category = category_of(c, ev, k.name, NULL);
		}
		free(s);
	} else {
		k.name = event_name_id(c, ev);
		category = intern_str(c, "kernel");
	}
	add_op_occurrence(c, CAND_DEVICE_OTHER, &k, category, start, dur, 0, 0,
	    0, 0, NULL);
}

/*
 * Kernel busy time, of a device plane only measured without an "XLA Ops"
 * line: once that line is seen it is not kept (half the memory).
 */
static void
add_kernel_busy(struct classify *c, enum busy_class k, int64_t start,
    int64_t end)
{
	if (!c->has_xla_ops_line && !c->line_compile)
		ivals_add(&c->busy_kernels[k], start, end);
}

/*
 * Without the HLO (trace JSON), the op a CUDA graph's kernel runs as far
 * as its name tells (docs/command-buffers.md, rule 1): XLA names a fusion's
 * kernel after it, '.' as '_', so "loop_add_fusion_8" is loop_add_fusion.8
 * (or a fusion the same as it); NO_ID for other kernels (libraries').
 */
static uint32_t
kernel_name_op(struct classify *c, const struct pf_event *ev)
{
	const char *name = pf_event_name(ev), *p;
	size_t len = strlen(name), digits = 0;
	char *op;
	uint32_t id;

	for (p = name; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return NO_ID;
	if (len == 0 || len > 256 || (strstr(name, "fusion") == NULL &&
	    strncmp(name, "wrapped_", 8) != 0))
		return NO_ID;
	while (digits < len && isdigit((unsigned char)name[len - 1 - digits]))
		digits++;
	op = xstrdup(name);
	if (digits > 0 && digits < len && op[len - 1 - digits] == '_')
		op[len - 1 - digits] = '.';
	id = intern(c, op, len);
	free(op);
	return id;
}

/*
 * The kernel_details stat of the event, as a string id ("" if none): kept
 * per event metadata, where the stat usually is (the same bytes again).
 */
static uint32_t
kernel_details(struct classify *c, struct kernel_memo *memo)
{
	struct pf_bytes v;

	if (!pf_stat_str(event_stat(c, PF_KEY_KERNEL_DETAILS), &v))
		v.ptr = "", v.len = 0;
	if (memo->details_id == 0 || v.ptr != memo->details.ptr ||
	    v.len != memo->details.len) {
		memo->details = v;
		memo->details_id = intern(c, v.ptr, v.len) + 1;
	}
	return memo->details_id - 1;
}

/* "file:line" of the instruction a kernel runs, as a string id, or NO_ID. */
static uint32_t
kernel_source(struct classify *c, const struct hlo_instr *in)
{
	char *src;
	uint32_t id;

	if (in == NULL || in->source_file[0] == '\0')
		return NO_ID;
	src = xasprintf("%s:%ld", in->source_file, (long)in->source_line);
	id = intern_str(c, src);
	free(src);
	return id;
}

static int
same_kernel(const struct kernel_agg *k, uint32_t name, uint32_t details,
    uint32_t op, const struct hlo_instr *in, uint32_t context)
{
	return k->name == name && k->details == details && k->op == op &&
	    k->instr == in && k->context == context;
}

/*
 * The plane's kernel row of that name, details, op, instruction and
 * context, by the bytes of those five in c->kernel_keys (ids are the
 * rows' indexes):
 * a metadata that several ops share misses its memo often.
 */
static struct kernel_agg *
kernel_row(struct classify *c, uint32_t name, uint32_t details, uint32_t op,
    const struct hlo_instr *in, uint32_t context)
{
	struct plane_summary *p = c->plane;
	char key[4 * sizeof(uint32_t) + sizeof in];
	uint32_t id;

	memcpy(key, &name, sizeof name);
	memcpy(key + 4, &details, sizeof details);
	memcpy(key + 8, &op, sizeof op);
	memcpy(key + 12, &context, sizeof context);
	memcpy(key + 16, &in, sizeof in);
	id = strmap_intern(&c->kernel_keys, key, sizeof key);
	if (id < p->nkernels)
		return &p->kernels[id];
	p->kernels = xreallocarray(p->kernels, p->nkernels + 1,
	    sizeof *p->kernels);
	return memset(&p->kernels[p->nkernels++], 0, sizeof *p->kernels);
}

static void
on_kernel(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	const struct pf_stat *op_stat = event_stat(c, PF_KEY_HLO_OP);
	struct pf_bytes hlo_op, op = { "", 0 };
	int has_op = pf_stat_str(op_stat, &hlo_op);
	struct kernel_agg *k = NULL;
	uint32_t kname, op_id = NO_ID, category = NO_ID, details, module = NO_ID;
	uint32_t context = c->line_context;
	const struct hlo_instr *in = NULL;
	struct kernel_memo *memo = kernel_memo(c, ev);
	size_t i;

	if (!has_op && event_stat(c, PF_KEY_KERNEL_DETAILS) == NULL)
		return;
	kname = event_name_id(c, ev);
	if (has_op) {
		uint32_t parent = NO_ID;
		struct op_key key;

		op_id = kernel_op(c, op_stat, hlo_op, &op);
		op_key_from_event(c, op_id, &key);
		context = c->line_context = key.module;
		in = kernel_op_instr(c, op_stat, &key, op);
		c->line_compile = key.module != NO_ID && c->hlo != NULL &&
		    c->last_hlo == NULL;
		if (in != NULL && event_stat(c, PF_KEY_CUDA_GRAPH_ID) != NULL)
			graph_kernel_seen(c, in);
		else if (in == NULL && c->last_hlo != NULL) {
			/* A CUDA graph's kernel: hlo_op names its launch. */
			parent = op_id;
			in = graph_kernel_instr(c, ev, memo);
		} else if (in == NULL && op.len >= 14 &&
		    memcmp(op.ptr, "command_buffer", 14) == 0 &&
		    event_stat(c, PF_KEY_CUDA_GRAPH_ID) != NULL) {
			/* The same, with no HLO to match it in: by name. */
			parent = op_id;
			op_id = kernel_name_op(c, ev);
		}
		if (in != NULL) {
			op_id = key.name = instr_name_id(c, in);
			category = category_of(c, ev, op_id, in);
		} else if (parent != NO_ID && op_id != NO_ID &&
		    c->last_hlo == NULL) {
			key.name = op_id;
			category = category_of(c, ev, op_id, NULL);
		} else if (parent != NO_ID) {
			op_id = key.name = event_name_id(c, ev);
			category = intern_str(c, CATEGORY_UNATTRIBUTED);
		} else
			category = category_of(c, ev, op_id, NULL);
		add_kernel_busy(c, busy_class_id(c, category), start,
		    start + dur);
		count_kernel(c, &key, category, kname, start, dur, in,
		    parent);
		module = key.module;
	}
	else {
		/* A kernel outside XLA: NCCL collectives, library calls. */
		const char *name = pf_event_name(ev);

		add_kernel_busy(c, strncmp(name, "nccl", 4) == 0 ||
		    strncmp(name, "rccl", 4) == 0 ? BUSY_COLLECTIVE :
		    BUSY_COMPUTE, start, start + dur);
		other_kernel_op(c, ev, start, dur);
	}
	/*
	 * Kernels per name, launch configuration and op, found through the
	 * metadata they share.
	 */
	details = kernel_details(c, memo);
	i = c->meta_kernel[ev->meta_index];
	if (i != 0 && same_kernel(&c->plane->kernels[i - 1], kname, details,
	    op_id, in, context))
		k = &c->plane->kernels[i - 1];
	else
		k = kernel_row(c, kname, details, op_id, in, context);
	if (k->count == 0) {
		k->name = kname;
		k->op = op_id;
		k->details = details;
		k->module = module;
		k->category = category;
		k->source = kernel_source(c, in);
		k->framework_op = in != NULL && in->op_name[0] != '\0' ?
		    intern_str(c, in->op_name) : NO_ID;
		k->instr = in;
		k->context = context;
	}
	c->meta_kernel[ev->meta_index] = (size_t)(k - c->plane->kernels) + 1;
	if (k->count == 0 || dur < k->min_ps)
		k->min_ps = dur;
	if (k->count == 0 || dur > k->max_ps)
		k->max_ps = dur;
	k->count++;
	k->total_ps = ps_add(k->total_ps, dur);
}

/* The number after "num_bytes:" in a memset's Memset_details, or -1. */
static int64_t
memset_bytes(const struct pf_event *ev)
{
	const struct pf_stat *sets[2] = { ev->stats, ev->meta->stats };
	size_t ns[2] = { ev->nstats, ev->meta->nstats }, i, k;
	struct pf_bytes v;

	for (k = 0; k < 2; k++)
		for (i = 0; i < ns[k]; i++) {
			const char *p, *end;
			int64_t n = 0;

			if (sets[k][i].key != PF_KEY_MEMSET_DETAILS ||
			    !pf_stat_str(&sets[k][i], &v))
				continue;
			end = v.ptr + v.len;
			for (p = v.ptr; p + 10 <= end; p++)
				if (memcmp(p, "num_bytes:", 10) == 0) {
					for (p += 10; p < end &&
					    isdigit((unsigned char)*p); p++)
						n = n * 10 + (*p - '0');
					return n;
				}
		}
	return -1;
}

enum copy_name { COPY_NAME_UNKNOWN, COPY_NAME_OTHER, COPY_NAME_MEMSET,
    COPY_NAME_MEMCPY };

/* Whether an event's name is a Memset* or Memcpy*, once per metadata. */
static enum copy_name
copy_name(const struct classify *c, const struct pf_event *ev)
{
	uint8_t *slot = &c->meta_copy[ev->meta_index];

	if (*slot == COPY_NAME_UNKNOWN) {
		const char *name = pf_event_name(ev);

		*slot = strncmp(name, "Memset", 6) == 0 ? COPY_NAME_MEMSET :
		    strncmp(name, "Memcpy", 6) == 0 ? COPY_NAME_MEMCPY :
		    COPY_NAME_OTHER;
	}
	return (enum copy_name)*slot;
}

/* A memset that no op launched (no hlo_op). */
static int
is_lone_memset(const struct classify *c, const struct pf_event *ev)
{
	return copy_name(c, ev) == COPY_NAME_MEMSET &&
	    event_stat(c, PF_KEY_HLO_OP) == NULL;
}

/* A device copy: a Memcpy* event, or anything with memcpy_details. */
static int
is_device_copy(const struct classify *c, const struct pf_event *ev,
    struct pf_bytes *details, int *has_details)
{
	*has_details = event_str(c, PF_KEY_MEMCPY_DETAILS, details);
	return copy_name(c, ev) == COPY_NAME_MEMCPY || *has_details;
}

/* The transfer busy time of a device's line: ops' copies come apart. */
static void
add_copy_busy(struct classify *c, int64_t start, int64_t dur)
{
	/* Streamed: the plane's copies are all counted already. */
	if (c->meter == NULL)
		ivals_add(&c->busy_ops[BUSY_TRANSFER], start, start + dur);
	add_kernel_busy(c, BUSY_TRANSFER, start, start + dur);
}

/*
 * A memset that no op launched: a transfer of direction "memset", so
 * that it lands in a report.
 */
static int
on_memset(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	if (!is_lone_memset(c, ev))
		return 0;
	add_transfer(c, ev, XFER_MEMSET, 0, memset_bytes(ev), start, dur);
	add_copy_busy(c, start, dur);
	return 1;
}

/* Device copies: Memcpy* events and anything with memcpy_details. */
static void
on_device_copy(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	const char *name = pf_event_name(ev);
	struct pf_bytes details;
	enum transfer_dir dir = XFER_OTHER;
	int64_t bytes = -1;
	int has_details;

	if (!is_device_copy(c, ev, &details, &has_details))
		return;
	/* CUPTI's names, and ROCm's (CopyDeviceToDevice on an MI300X). */
	if (strcmp(name, "MemcpyH2D") == 0 ||
	    strcmp(name, "CopyHostToDevice") == 0)
		dir = XFER_H2D;
	else if (strcmp(name, "MemcpyD2H") == 0 ||
	    strcmp(name, "CopyDeviceToHost") == 0)
		dir = XFER_D2H;
	else if (strcmp(name, "MemcpyD2D") == 0 ||
	    strcmp(name, "MemcpyP2P") == 0 ||
	    strcmp(name, "CopyDeviceToDevice") == 0 ||
	    strcmp(name, "CopyPeerToPeer") == 0)
		dir = XFER_D2D;
	if (has_details) {
		/* "kind_src:... kind_dst:... size:<bytes> dest:... async:..." */
		const char *p = details.ptr, *end = details.ptr + details.len;

		for (; p + 5 <= end; p++)
			if (memcmp(p, "size:", 5) == 0 &&
			    (p == details.ptr || p[-1] == ' ')) {
				bytes = 0;
				for (p += 5; p < end && isdigit((unsigned char)*p);
				    p++)
					bytes = bytes * 10 + (*p - '0');
				break;
			}
	}
	add_transfer(c, ev, dir, 0, bytes, start, dur);
	add_copy_busy(c, start, dur);
}

/*
 * An "Async XLA Ops" event spans an asynchronous op from its start to its
 * done (TPU): a copy-start is a copy between memories, to or from the
 * host's where a shape is in memory space 5 (host offload): its operand,
 * "copy-start(f32[...]{...S(5)} %param)", is a copy to the device, its
 * result's first element (the destination) one from it.
 */
static void
on_async_copy(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	const char *name = ev->meta->name, *call;	/* the HLO text */
	struct pf_bytes cat;
	enum transfer_dir dir = XFER_D2D;
	int64_t bytes;

	if (!event_str(c, PF_KEY_HLO_CATEGORY, &cat) || cat.len != 10 ||
	    memcmp(cat.ptr, "copy-start", 10) != 0)
		return;
	if (!event_int(c, PF_KEY_BYTES_ACCESSED, &bytes))
		bytes = -1;
	if ((call = strstr(name, " copy-start(")) != NULL) {
		const char *dst = strchr(name, '(');

		if (strstr(call, "S(5)") != NULL)
			dir = XFER_H2D;
		else if (dst != NULL && dst < call) {
			const char *s5 = strstr(dst, "S(5)");
			const char *comma = strstr(dst, "}, ");

			if (s5 != NULL && s5 < call &&
			    (comma == NULL || s5 < comma))
				dir = XFER_D2H;
		}
	}
	add_transfer(c, ev, dir, 0, bytes, start, dur);
}

/* One event of a device's "XLA Modules" line: "jit_f(1234)". */
static void
on_module(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	const char *name = pf_event_name(ev), *paren = strrchr(name, '(');
	struct plane_summary *p = c->plane;
	struct exec_rec *e;
	size_t len = strlen(name);
	int64_t pid = -1;

	if (paren != NULL && len > 0 && name[len - 1] == ')' &&
	    paren + 1 < name + len - 1) {
		const char *q;
		uint64_t v = 0;

		for (q = paren + 1; q < name + len - 1 &&
		    isdigit((unsigned char)*q); q++)
			v = v * 10 + (uint64_t)(*q - '0');
		if (q == name + len - 1) {
			pid = (int64_t)v;
			len = (size_t)(paren - name);
		}
	}
	p->execs = xgrow1(p->execs, p->nexecs, sizeof *p->execs);
	e = &p->execs[p->nexecs++];
	memset(e, 0, sizeof *e);
	e->module = intern(c, name, len);
	e->program_id = pid;
	e->run_id = -1;
	e->start_ps = start;
	e->dur_ps = dur;
	e->device_ps = dur;
	e->launch = -1;
}

/* "/host:metadata" names one event metadata per program: "jit_f(12)". */
static void
read_programs(struct classify *c, const struct pf_plane *plane)
{
	struct file_summary *fs = c->fs;
	size_t i;

	for (i = 0; i < plane->nmetas; i++) {
		const char *name = plane->metas[i].name;
		const char *paren = strrchr(name, '(');
		char *end;
		long long id;

		if (paren == NULL || paren == name)
			continue;
		id = strtoll(paren + 1, &end, 10);
		if (end == paren + 1 || strcmp(end, ")") != 0)
			continue;
		fs->programs = xgrow1(fs->programs, fs->nprograms,
		    sizeof *fs->programs);
		fs->programs[fs->nprograms].module = intern(c, name,
		    (size_t)(paren - name));
		fs->programs[fs->nprograms].program_id = id;
		fs->nprograms++;
	}
}

/* ---- stream callbacks ---- */

static int
cb_space(void *ctx, const struct pf_space *space)
{
	struct classify *c = ctx;
	struct file_summary *fs = c->fs;
	size_t i;

	fs->host = xstrdup(space->nhostnames > 0 ? space->hostnames[0] : "");
	fs->errors = xcalloc(space->nerrors, sizeof *fs->errors);
	for (i = 0; i < space->nerrors; i++)
		fs->errors[i] = xstrdup(space->errors[i]);
	fs->nerrors = space->nerrors;
	fs->warnings = xcalloc(space->nwarnings, sizeof *fs->warnings);
	for (i = 0; i < space->nwarnings; i++)
		fs->warnings[i] = xstrdup(space->warnings[i]);
	fs->nwarnings = space->nwarnings;
	return 0;
}

int
classify_is_host_plane(const char *name)
{
	return strncmp(name, "/host:", 6) == 0 &&
	    strcmp(name, "/host:metadata") != 0;
}

static int
cb_plane_begin(void *ctx, const struct pf_plane *plane)
{
	struct classify *c = ctx;
	struct file_summary *fs = c->fs;
	struct plane_summary *p;
	struct device_peak peak;
	int64_t v;
	size_t i;

	/* Grown by doubling, here and in file_summary_absorb(). */
	fs->planes = xgrow1(fs->planes, fs->nplanes, sizeof *fs->planes);
	p = &fs->planes[fs->nplanes++];
	memset(p, 0, sizeof *p);
	p->id = plane->id;
	p->name = intern_str(c, plane->name);
	if (strncmp(plane->name, "/device:", 8) == 0)
		p->kind = PLANE_DEVICE;
	else if (classify_is_host_plane(plane->name))
		p->kind = PLANE_HOST;
	else
		p->kind = PLANE_OTHER;
	p->start_ps = INT64_MAX;
	p->end_ps = INT64_MIN;
	if (strcmp(plane->name, "Task Environment") == 0 &&
	    pf_stat_int(pf_stat_find(plane->stats, plane->nstats,
	    PF_KEY_PROFILE_START_TIME), &v))
		fs->profile_start_ns = v;
	if (strcmp(plane->name, "/host:metadata") == 0)
		read_programs(c, plane);
	if (p->kind == PLANE_DEVICE && device_peak_of(plane->stats,
	    plane->nstats, &peak) == 0) {
		p->peak_gflops = peak.gflops;
		p->peak_gbps = peak.gbps;
	}
	c->plane = p;
	c->nline = 0;
	/* The last plane's strings are gone: forget pointers into them. */
	c->last_module.ptr = NULL;
	c->last_module.len = 0;
	c->has_xla_ops_line = 0;
	free(c->meta_kernel);
	c->meta_kernel = xcalloc(plane->nmetas + 1, sizeof *c->meta_kernel);
	strmap_release(&c->kernel_keys);
	strmap_init(&c->kernel_keys);
	free(c->meta_host);
	c->meta_host = xcalloc(plane->nmetas + 1, sizeof *c->meta_host);
	free(c->meta_copy);
	c->meta_copy = xcalloc(plane->nmetas + 1, sizeof *c->meta_copy);
	free(c->meta_memo);
	free_meta_views(c);
	free(c->op_memos);
	c->op_memos = NULL;
	free(c->kernel_memos);
	c->kernel_memos = NULL;
	c->last_op_ref.ptr = NULL;
	c->last_op_ref.len = 0;
	c->last_op_looked = 0;
	c->nmetas = plane->nmetas;
	c->meta_views = xcalloc(plane->nmetas + 1, sizeof *c->meta_views);
	c->meta_memo = xreallocarray(NULL, plane->nmetas + 1,
	    sizeof *c->meta_memo);
	for (i = 0; i <= plane->nmetas; i++) {
		struct meta_memo *m = &c->meta_memo[i];

		m->name = m->scope_name = m->category = m->tf_name =
		    m->tf_type = m->scope = NO_ID;
	}
	return 0;
}

/* An event of a device's plain line read ahead: its copy busy time. */
static int
ahead_copy(void *ctx, const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_event *ev)
{
	struct classify *c = ctx;
	struct pf_bytes details;
	int64_t start, dur;
	int has_details;

	(void)plane;
	(void)line;
	load_view(c, ev);
	if (is_lone_memset(c, ev) || is_device_copy(c, ev, &details,
	    &has_details)) {
		event_span(c, ev, &start, &dur);
		ivals_add(c->ahead_copies, start, start + dur);
	}
	return 0;
}

/* A device line of no kind of its own: it may hold copies. */
static int
is_plain_line(const char *name)
{
	return strcmp(name, "XLA Ops") != 0 &&
	    strcmp(name, "XLA Modules") != 0 && strcmp(name, "Steps") != 0;
}

/*
 * At a device's "XLA Ops" line, line number `here`: its busy time goes
 * straight into the steps if the plane's windows are known, this is its
 * only "XLA Ops" line, and the lines after it hold at most half as many
 * events (their copies are read ahead, so that they join in order).
 */
static void
start_stream(struct classify *c, const struct pf_plane *plane, size_t here)
{
	const struct pf_lines_ahead *a = plane->ahead;
	struct ivals *copies = &c->busy_ops[BUSY_TRANSFER], late;
	const struct window *win;
	struct pf_handler h;
	struct ivals_iter it;
	struct ival iv;
	size_t i, nxla = 0, nwin, after = 0, mine = SIZE_MAX;
	int steps_to_come = 0;

	if (!c->may_stream || c->gather == NULL || a == NULL)
		return;
	/* a's lines are those not empty: numbered by a->at. */
	for (i = 0; i < a->nlines; i++) {
		if (a->at[i] == here)
			mine = i;
		nxla += strcmp(a->names[i], "XLA Ops") == 0;
		if (a->at[i] > here && strcmp(a->names[i], "Steps") == 0)
			steps_to_come = 1;
		if (a->at[i] > here && is_plain_line(a->names[i]))
			after += a->nevents[i];
	}
	if (nxla != 1 || mine == SIZE_MAX || after > a->nevents[mine] / 2)
		return;
	nwin = step_windows_known(c->gather, c->gather_plane, steps_to_come,
	    &win, &c->meter_src);
	if (nwin == 0)
		return;
	memset(&late, 0, sizeof late);
	memset(&h, 0, sizeof h);
	h.ctx = c;
	h.keyed_stats_only = 1;
	h.event = ahead_copy;
	c->ahead_copies = &late;
	for (i = mine + 1; i < a->nlines; i++)
		if (is_plain_line(a->names[i]) &&
		    a->read_events(a, i, &h) != 0) {
			ivals_release(&late);
			return;	/* unreadable: stored, and told in turn */
		}
	ivals_normalize(&late);
	for (ivals_iter_init(&late, &it); ivals_next(&it, &iv); )
		ivals_add(copies, iv.start, iv.end);
	ivals_release(&late);
	ivals_normalize(copies);
	ivals_iter_init(copies, &c->copies);
	c->have_copy = ivals_next(&c->copies, &c->copy);
	c->meter = busy_meter_new(c->plane, win, nwin);
	c->meter_win = win;
}

/* The plane's copies that begin by `start` into the meter. */
static void
meter_copies(struct classify *c, int64_t start)
{
	while (c->have_copy && c->copy.start <= start) {
		/* Never refused: in order, after every op before them. */
		(void)busy_meter_add(c->meter, BUSY_TRANSFER, c->copy.start,
		    c->copy.end);
		c->have_copy = ivals_next(&c->copies, &c->copy);
	}
}

static int
cb_line_begin(void *ctx, const struct pf_plane *plane,
    const struct pf_line *line)
{
	struct classify *c = ctx;
	const char *name = line->display_name[0] != '\0' ?
	    line->display_name : line->name;

	c->plane->nlines++;
	c->nline++;
	c->line_name = intern_str(c, name);
	c->line_kind = LINE_PLAIN;
	if (c->plane->kind == PLANE_DEVICE) {
		if (strcmp(line->name, "XLA Ops") == 0) {
			int i, first = !c->has_xla_ops_line;

			c->line_kind = LINE_XLA_OPS;
			c->has_xla_ops_line = 1;
			/* Steps are measured on the ops now, not the kernels. */
			for (i = 0; i < NBUSY; i++)
				ivals_release(&c->busy_kernels[i]);
			/*
			 * Only at the first: start_stream() looks at every
			 * line, and a plane with two never streams.
			 */
			if (c->meter == NULL && first)
				start_stream(c, plane, c->nline - 1);
		} else if (strcmp(line->name, "XLA Modules") == 0)
			c->line_kind = LINE_MODULES;
		else if (strcmp(line->name, "Async XLA Ops") == 0)
			c->line_kind = LINE_ASYNC_OPS;
		else if (strcmp(line->name, "Steps") == 0) {
			c->line_kind = LINE_STEPS;
			if (c->gather != NULL)
				step_windows_steps_line(c->gather,
				    c->gather_plane, plane->name);
		}
	}
	c->nops_stack = c->nev_stack = 0;
	c->pending = 0;
	c->cursor = (struct hlo_cursor)HLO_CURSOR_INIT;
	c->run_open = 0;
	c->line_context = NO_ID;
	c->line_compile = 0;
	return 0;
}

/* An op of the "XLA Ops" line: most of it is its metadata's, memoized. */
static void
on_xla_op(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	/* Stats of the event's own that make it differ from its metadata. */
	const uint32_t op_keys = 1u << PF_KEY_PROGRAM_ID |
	    1u << PF_KEY_HLO_CATEGORY;
	const uint32_t cost_keys = 1u << PF_KEY_FLOPS |
	    1u << PF_KEY_BYTES_ACCESSED;
	int own_module = (c->ev_keys >> PF_KEY_HLO_MODULE) & 1;
	struct op_memo *m;
	struct op_key k;
	uint64_t flops, bytes;
	int has_flops, has_bytes;
	uint32_t name = event_name_id(c, ev);

	if (c->op_memos == NULL)
		c->op_memos = xcalloc(2 * (c->nmetas + 1),
		    sizeof *c->op_memos);
	m = &c->op_memos[2 * (size_t)ev->meta_index + (size_t)own_module];

	/* With nothing of its own, the key is its metadata's. */
	if (m->valid && !own_module && !(c->ev_keys & op_keys))
		k = m->key;
	else
		op_key_from_event(c, name, &k);
	if (!m->valid || !op_key_eq(&m->key, &k) || (c->ev_keys & op_keys)) {
		struct pf_bytes op;

		op.ptr = c->fs->strings.strings[name];
		op.len = c->fs->strings.lengths[name];
		m->key = k;
		m->instr = event_hlo_instr(c, &k, op);
		m->category = category_of(c, ev, name, m->instr);
		m->busy = busy_class_id(c, m->category);
		m->valid = !(c->ev_keys & op_keys);
	}
	if (!m->cost_valid || (c->ev_keys & cost_keys)) {
		event_cost(c, &flops, &has_flops, &bytes, &has_bytes);
		if (!(c->ev_keys & cost_keys)) {
			m->flops = flops;
			m->bytes = bytes;
			m->has_flops = has_flops;
			m->has_bytes = has_bytes;
			m->cost_valid = 1;
		}
	} else {
		flops = m->flops;
		bytes = m->bytes;
		has_flops = m->has_flops;
		has_bytes = m->has_bytes;
	}
	c->occ_instr = m->instr;
	add_op_occurrence(c, CAND_XLA_OPS, &k, m->category, start, dur, flops,
	    has_flops, bytes, has_bytes, &m->agg);
	c->occ_instr = NULL;
	if (c->meter == NULL)
		ivals_add(&c->busy_ops[m->busy], start, start + dur);
	else {
		meter_copies(c, start);
		if (busy_meter_add(c->meter, m->busy, start, start + dur) == -1)
			c->again = 1;
	}
}

/* Any event but a host plane's frame (cb_event()). */
static __attribute__((noinline)) void
classify_event(struct classify *c, const struct pf_event *ev)
{
	struct plane_summary *p = c->plane;
	int64_t start, dur;

	load_view(c, ev);
	event_span(c, ev, &start, &dur);
	p->nevents++;
	if (start < p->start_ps)
		p->start_ps = start;
	if (start + dur > p->end_ps)
		p->end_ps = start + dur;
	if (p->kind == PLANE_DEVICE) {
		switch (c->line_kind) {
		case LINE_XLA_OPS:
			on_xla_op(c, ev, start, dur);
			break;
		case LINE_MODULES:
			on_module(c, ev, start, dur);
			break;
		case LINE_ASYNC_OPS:
			on_async_copy(c, ev, start, dur);
			break;
		case LINE_STEPS:
			/* Step windows: gathered, else from the first pass. */
			if (c->gather != NULL)
				step_windows_event(c->gather, c->gather_plane,
				    ev);
			break;
		default:
			on_kernel(c, ev, start, dur);
			if (!on_memset(c, ev, start, dur))
				on_device_copy(c, ev, start, dur);
		}
	} else if (p->kind == PLANE_HOST) {
		/* Only a step_num makes a host step (the same lookup). */
		if (c->gather != NULL && event_stat(c, PF_KEY_STEP_NUM) != NULL)
			step_windows_event(c->gather, c->gather_plane, ev);
		host_event(c, ev, start, dur);
	}
}

/*
 * A frame (host_is_frame()) is taken here and goes no further: most of a
 * JAX profile's events, they get a path of their own, without the stat
 * lookups and the registers the rest need.
 */
static int
cb_event(void *ctx, const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_event *ev)
{
	struct classify *c = ctx;
	struct plane_summary *p = c->plane;

	(void)plane;
	(void)line;
	if (p->kind == PLANE_HOST && host_is_frame(c, ev)) {
		/* No stat: its span is its own. */
		int64_t start = ev->start_ps, dur = ev->duration_ps;

		p->nevents++;
		if (start < p->start_ps)
			p->start_ps = start;
		if (start + dur > p->end_ps)
			p->end_ps = start + dur;
		host_frame(c, ev, start, dur);
	} else
		classify_event(c, ev);
	return c->again ? CLASSIFY_AGAIN : 0;
}

static int
cb_line_end(void *ctx, const struct pf_plane *plane,
    const struct pf_line *line)
{
	struct classify *c = ctx;

	(void)plane;
	(void)line;
	flush_pending(c);
	flush_run(c);
	while (c->nops_stack > 0)
		close_op(c, &c->ops_stack[--c->nops_stack]);
	host_line_end(c);
	return 0;
}

/* Moves a candidate table into the plane, resolving modules. */
static void
take_ops(struct classify *c, struct op_table *t)
{
	struct plane_summary *p = c->plane;
	uint32_t empty = intern_str(c, "");
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		struct op_key *k = &t->keys[i];

		t->aggs[i].module = k->module != NO_ID ? k->module : empty;
		if (k->module != NO_ID || k->program_id == -1)
			continue;
		for (j = 0; j < p->nexecs; j++)
			if (p->execs[j].program_id == k->program_id) {
				t->aggs[i].module = p->execs[j].module;
				break;
			}
	}
	p->ops = t->aggs;
	p->nops = t->n;
	t->aggs = NULL;
	op_table_release(t);
}

static int
cmp_exec(const void *a, const void *b)
{
	const struct exec_rec *x = a, *y = b;

	if (x->start_ps != y->start_ps)
		return x->start_ps < y->start_ps ? -1 : 1;
	return (x->module > y->module) - (x->module < y->module);
}

/*
 * A launch that runs kernels on several streams is one execution per
 * line: those overlap in time (and, for a CUDA graph, share the launch).
 * Sorts the plane's executions and merges those; launches that merely
 * follow each other, even back to back, stay apart.
 */
static void
merge_device_execs(struct plane_summary *p)
{
	size_t i, j = 0;

	if (p->nexecs > 0)	/* execs may be NULL */
		qsort(p->execs, p->nexecs, sizeof *p->execs, cmp_exec);
	for (i = 0; i < p->nexecs; i++) {
		struct exec_rec *e = &p->execs[i], *prev = NULL;
		size_t k;

		/* The last execution of the same module, if it overlaps. */
		for (k = j; k > 0 && k + 8 > j; k--)
			if (p->execs[k - 1].module == e->module) {
				prev = &p->execs[k - 1];
				break;
			}
		if (prev != NULL && e->from_kernels && prev->from_kernels &&
		    e->program_id == prev->program_id &&
		    e->launch == prev->launch &&
		    e->start_ps < prev->start_ps + prev->dur_ps) {
			int64_t end = e->start_ps + e->dur_ps;

			if (end > prev->start_ps + prev->dur_ps)
				prev->dur_ps = end - prev->start_ps;
			prev->device_ps += e->device_ps;
			continue;
		}
		p->execs[j++] = *e;
	}
	p->nexecs = j;
}

/* Executions aggregated per module: the modules table. */
static void
aggregate_modules(struct plane_summary *p)
{
	size_t i, j;

	for (i = 0; i < p->nexecs; i++) {
		const struct exec_rec *e = &p->execs[i];
		struct module_agg *m = NULL;

		for (j = 0; j < p->nmodules; j++)
			if (p->modules[j].name == e->module &&
			    p->modules[j].program_id == e->program_id) {
				m = &p->modules[j];
				break;
			}
		if (m == NULL) {
			p->modules = xreallocarray(p->modules,
			    p->nmodules + 1, sizeof *p->modules);
			m = &p->modules[p->nmodules++];
			memset(m, 0, sizeof *m);
			m->name = e->module;
			m->program_id = e->program_id;
		}
		if (m->count == 0 || e->dur_ps < m->min_ps)
			m->min_ps = e->dur_ps;
		if (m->count == 0 || e->dur_ps > m->max_ps)
			m->max_ps = e->dur_ps;
		m->count++;
		m->total_ps = ps_add(m->total_ps, e->dur_ps);
		m->device_ps = ps_add(m->device_ps, e->device_ps);
	}
}

/* Steps of a device-like plane in windows win, else its modules'. */
static void
measure_in(struct plane_summary *p, struct strmap *strings,
    const struct window *win, size_t n, enum step_source src,
    struct ivals busy[NBUSY])
{
	struct window *owned = NULL;

	if (n == 0) {
		owned = module_windows(p->execs, p->nexecs, strings->strings,
		    &n);
		win = owned;
		src = STEP_MODULE;
	}
	steps_measure(p, strings, win, n, src, busy);
	free(owned);
}

/* A plane's busy time until its windows are known. */
struct steps_later {
	size_t		 plane;		/* in its file_summary */
	struct ivals	 busy[NBUSY];
};

/* The windows of the plane being ended, in the one pass. */
struct plane_end_windows {
	const struct window *win;
	size_t		 n;
	enum step_source src;
	int		 ready;
};

/* Steps of a device-like plane, from the best source it has. */
static void
measure_steps(struct classify *c, const struct pf_plane *plane,
    const struct plane_end_windows *pw, struct ivals busy[NBUSY])
{
	const struct window *win = pw->win;
	enum step_source src = pw->src;
	size_t n = pw->n;

	if (c->meter != NULL) {
		/* Known at its "XLA Ops" line as they are now. */
		assert(pw->ready && pw->win == c->meter_win);
		meter_copies(c, INT64_MAX);
		busy_meter_finish(c->meter, &c->fs->strings, c->meter_src);
		c->meter = NULL;
		return;
	}
	if (c->gather == NULL)
		n = step_windows_for(c->windows, plane->name, &win, &src);
	else if (!pw->ready) {
		struct steps_later *l = xcalloc(1, sizeof *l);

		l->plane = (size_t)(c->plane - c->fs->planes);
		memcpy(l->busy, busy, sizeof l->busy);
		memset(busy, 0, sizeof l->busy);
		*c->later = l;
		return;
	}
	measure_in(c->plane, &c->fs->strings, win, n, src, busy);
}

void
classify_steps_later(struct file_summary *fs, struct steps_later *later,
    const struct step_windows *w)
{
	int i;

	if (later == NULL)
		return;
	if (w != NULL) {
		struct plane_summary *p = &fs->planes[later->plane];
		const struct window *win;
		enum step_source src;
		size_t n;

		n = step_windows_for(w, fs->strings.strings[p->name], &win,
		    &src);
		measure_in(p, &fs->strings, win, n, src, later->busy);
	}
	for (i = 0; i < NBUSY; i++)
		ivals_release(&later->busy[i]);
	free(later);
}

void
classify_stream_busy(struct classify *c)
{
	c->may_stream = 1;
}

void
classify_read_memory(struct classify *c, struct pf_handler *h)
{
	c->read_memory = 1;
	h->memory_stats = 1;
}

void
classify_gather_steps(struct classify *c, struct step_windows *w,
    size_t plane, struct steps_later **later)
{
	c->gather = w;
	c->gather_plane = plane;
	c->later = later;
	*later = NULL;
}

static int
cb_plane_end(void *ctx, const struct pf_plane *plane)
{
	struct classify *c = ctx;
	struct plane_summary *p = c->plane;
	struct plane_end_windows pw;
	int i;

	memset(&pw, 0, sizeof pw);
	if (c->gather != NULL)
		pw.n = step_windows_plane_end(c->gather, c->gather_plane,
		    &pw.win, &pw.src, &pw.ready);
	if (p->kind == PLANE_DEVICE) {
		merge_device_execs(p);
		end_kernel_occs(c);
		take_ops(c, &c->cand[c->has_xla_ops_line ? CAND_XLA_OPS :
		    c->cand[CAND_KERNELS].n > 0 ||
		    c->cand[CAND_DEVICE_OTHER].n == 0 ? CAND_KERNELS :
		    CAND_DEVICE_OTHER]);
		p->ops_from = OPS_DEVICE;
		measure_steps(c, plane, &pw, c->has_xla_ops_line ?
		    c->busy_ops : c->busy_kernels);
	} else if (p->kind == PLANE_HOST) {
		/* Kept aside: host ops count only in a CPU-only profile. */
		int xla = c->cand[CAND_HOST_XLA].n > 0;

		host_plane_end(c);
		take_ops(c, &c->cand[xla ? CAND_HOST_XLA : CAND_HOST_TF]);
		p->ops_from = xla ? OPS_HOST_XLA : OPS_HOST_TF;
		if (p->nops > 0)
			measure_steps(c, plane, &pw, c->busy_kernels);
	}
	aggregate_modules(p);
	for (i = 0; i < NCAND; i++)
		op_table_release(&c->cand[i]);
	for (i = 0; i < NBUSY; i++) {
		ivals_release(&c->busy_ops[i]);
		ivals_release(&c->busy_kernels[i]);
	}
	return 0;
}

struct classify *
classify_new(struct file_summary *fs, const struct step_windows *windows,
    struct pf_handler *h)
{
	struct classify *c = xcalloc(1, sizeof *c);

	memset(fs, 0, sizeof *fs);
	strmap_init(&fs->strings);
	fs->host = NULL;
	c->fs = fs;
	c->windows = windows;
	c->occ_parent = NO_ID;
	c->occ_framework = NO_ID;
	c->last_hlo_program = INT64_MIN;
	memset(h, 0, sizeof *h);
	h->ctx = c;
	h->keyed_stats_only = 1;
	h->space = cb_space;
	h->plane_begin = cb_plane_begin;
	h->line_begin = cb_line_begin;
	h->event = cb_event;
	h->line_end = cb_line_end;
	h->plane_end = cb_plane_end;
	return c;
}

void
classify_await_hlo(struct classify *c, const struct hlo_set *(*wait)(void *),
    void *arg)
{
	c->hlo_wait = wait;
	c->hlo_wait_arg = arg;
}

void
classify_hand_host_events(struct classify *c,
    void (*give)(void *ctx, struct host_event_batch *b), void *ctx)
{
	c->give_host_events = give;
	c->give_ctx = ctx;
}

/* File-level results, once all its planes are in fs. */
static void
finalize(struct file_summary *fs)
{
	int device_ops = 0;
	size_t i;

	if (fs->host == NULL)
		fs->host = xstrdup("");
	fs->start_ps = INT64_MAX;
	fs->end_ps = INT64_MIN;
	for (i = 0; i < fs->nplanes; i++) {
		struct plane_summary *p = &fs->planes[i];

		fs->nlines += p->nlines;
		fs->nevents += p->nevents;
		if (p->nevents > 0 && p->start_ps < fs->start_ps)
			fs->start_ps = p->start_ps;
		if (p->nevents > 0 && p->end_ps > fs->end_ps)
			fs->end_ps = p->end_ps;
		if (p->kind == PLANE_DEVICE && p->nops > 0)
			device_ops = 1;
	}
	/*
	 * Host ops play the device's part only in a CPU-only profile;
	 * otherwise they would count twice (launch and kernel).
	 */
	for (i = 0; i < fs->nplanes; i++) {
		struct plane_summary *p = &fs->planes[i];

		if (p->kind != PLANE_HOST || p->nops == 0)
			continue;
		if (device_ops) {
			free(p->ops);
			p->ops = NULL;
			p->nops = 0;
			/* Its steps and gaps were of host ops, too. */
			p->nsteps = 0;
			p->ngaps = 0;
		} else if (fs->op_source == OPS_NONE)
			fs->op_source = p->ops_from;
	}
	if (device_ops)
		fs->op_source = OPS_DEVICE;
	mark_compile_work(fs);
}

void
classify_release(struct classify *c)
{
	int i;

	for (i = 0; i < NCAND; i++)
		op_table_release(&c->cand[i]);
	for (i = 0; i < NBUSY; i++) {
		ivals_release(&c->busy_ops[i]);
		ivals_release(&c->busy_kernels[i]);
	}
	busy_meter_free(c->meter);
	op_table_release(&c->scopes);
	free(c->meta_kernel);
	strmap_release(&c->kernel_keys);
	free(c->meta_host);
	free(c->meta_copy);
	free(c->class_of);
	free(c->meta_memo);
	free_meta_views(c);
	free_module_ids(c);
	free(c->kernel_memos);
	free(c->kocc);
	free(c->op_memos);
	free(c->cat_of_name);
	free(c->ops_stack);
	free(c->ev_stack);
	free(c);
}

void
classify_finish(struct classify *c)
{
	finalize(c->fs);
	classify_release(c);
}

/* A string id of src's as one of dst's. */
static uint32_t
remap(const uint32_t *map, uint32_t id)
{
	return id == NO_ID ? NO_ID : map[id];
}

void
file_summary_absorb(struct file_summary *dst, struct file_summary *src)
{
	uint32_t *map = xcalloc(src->strings.n + 1, sizeof *map);
	size_t i, j;

	for (i = 0; i < src->strings.n; i++)
		map[i] = strmap_intern(&dst->strings, src->strings.strings[i],
		    src->strings.lengths[i]);
	for (i = 0; i < src->nplanes; i++) {
		struct plane_summary *p = &src->planes[i];

		p->name = map[p->name];
		for (j = 0; j < p->nops; j++) {
			p->ops[j].name = map[p->ops[j].name];
			p->ops[j].module = map[p->ops[j].module];
			p->ops[j].category = map[p->ops[j].category];
			p->ops[j].framework_op = map[p->ops[j].framework_op];
			p->ops[j].source = map[p->ops[j].source];
			p->ops[j].source_function =
			    map[p->ops[j].source_function];
			p->ops[j].parent = map[p->ops[j].parent];
		}
		for (j = 0; j < p->nkernels; j++) {
			p->kernels[j].name = map[p->kernels[j].name];
			p->kernels[j].details = map[p->kernels[j].details];
			p->kernels[j].module = remap(map,
			    p->kernels[j].module);
			p->kernels[j].category = remap(map,
			    p->kernels[j].category);
			p->kernels[j].source = remap(map,
			    p->kernels[j].source);
			p->kernels[j].framework_op = remap(map,
			    p->kernels[j].framework_op);
			p->kernels[j].op = remap(map, p->kernels[j].op);
			p->kernels[j].context = remap(map,
			    p->kernels[j].context);
		}
		for (j = 0; j < p->nmodules; j++)
			p->modules[j].name = map[p->modules[j].name];
		for (j = 0; j < p->nsteps; j++)
			p->steps[j].name = map[p->steps[j].name];
		for (j = 0; j < p->ncompiles; j++) {
			p->compiles[j].name = map[p->compiles[j].name];
			p->compiles[j].function = map[p->compiles[j].function];
			p->compiles[j].line = map[p->compiles[j].line];
		}
		for (j = 0; j < p->ntransfers; j++) {
			p->transfers[j].name = map[p->transfers[j].name];
			p->transfers[j].line = map[p->transfers[j].line];
		}
		for (j = 0; j < p->nphases; j++)
			p->phases[j].name = map[p->phases[j].name];
		for (j = 0; j < p->nexecs; j++)
			p->execs[j].module = map[p->execs[j].module];
		for (j = 0; j < p->nhost_events; j++) {
			p->host_events[j].name = map[p->host_events[j].name];
			p->host_events[j].line = map[p->host_events[j].line];
		}
		for (j = 0; j < p->nscopes; j++)
			p->scopes[j].name = map[p->scopes[j].name];
		memory_remap(p, map);
		/* By doubling: one plane at a time, 100,000 of them. */
		dst->planes = xgrow1(dst->planes, dst->nplanes,
		    sizeof *dst->planes);
		dst->planes[dst->nplanes++] = *p;
	}
	src->nplanes = 0;
	for (i = 0; i < src->nprograms; i++) {
		dst->programs = xgrow1(dst->programs, dst->nprograms,
		    sizeof *dst->programs);
		dst->programs[dst->nprograms] = src->programs[i];
		dst->programs[dst->nprograms].module =
		    map[src->programs[i].module];
		dst->nprograms++;
	}
	if (src->profile_start_ns != 0)
		dst->profile_start_ns = src->profile_start_ns;
	dst->read_stats.missing_event_metadata +=
	    src->read_stats.missing_event_metadata;
	dst->read_stats.missing_stat_metadata +=
	    src->read_stats.missing_stat_metadata;
	free(map);
	file_summary_release(src);
}

void
file_summary_release(struct file_summary *fs)
{
	size_t i;

	for (i = 0; i < fs->nplanes; i++) {
		struct plane_summary *p = &fs->planes[i];

		free(p->ops);
		free(p->kernels);
		free(p->modules);
		free(p->steps);
		free(p->compiles);
		free(p->transfers);
		free(p->phases);
		free(p->execs);
		free(p->gaps);
		free(p->host_events);
		free(p->scopes);
		free(p->memory);
	}
	free(fs->planes);
	free(fs->programs);
	for (i = 0; i < fs->nerrors; i++)
		free(fs->errors[i]);
	free(fs->errors);
	for (i = 0; i < fs->nwarnings; i++)
		free(fs->warnings[i]);
	free(fs->warnings);
	free(fs->host);
	hlo_set_free(fs->hlo);
	strmap_release(&fs->strings);
	memset(fs, 0, sizeof *fs);
}
