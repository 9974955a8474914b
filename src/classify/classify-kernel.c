/* Device kernels: their ops, CUDA-graph kernels matched to HLO, launches. */
#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "classify/classify-event.h"
#include "classify/classify-kernel.h"
#include "classify/steps.h"
#include "lib/ptime.h"
#include "lib/xmalloc.h"

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
	a->flops = cost_add(a->flops, c->pending_flops);
	a->bytes_accessed = cost_add(a->bytes_accessed, c->pending_bytes);
	a->has_flops |= c->pending_has_flops;
	a->has_bytes |= c->pending_has_bytes;
}

/* The last occurrences of the plane's kernel ops, complete now. */
void
kernels_end_plane(struct classify *c)
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

void
kernels_flush_pending(struct classify *c)
{
	if (!c->pending)
		return;
	c->occ_instr = c->pending_instr;
	c->occ_parent = c->pending_parent;
	c->occ_framework = c->pending_framework;
	c->occ_kernel = c->pending_kernel;
	add_kernel_occurrence(c);
	c->occ_instr = NULL;
	c->occ_parent = NO_ID;
	c->occ_framework = NO_ID;
	c->occ_kernel = NO_ID;
	c->pending = 0;
}



void
kernels_close_run(struct classify *c)
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
	kernels_close_run(c);
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
		kernels_flush_pending(c);
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
		flops = cost_from_double(in->flops);
		bytes = cost_from_double(in->bytes);
		has_flops = has_bytes = 1;
	}
	kernels_flush_pending(c);
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
 * line: once that line is seen it is not kept (memory for nothing).
 */
void
kernels_add_busy(struct classify *c, enum busy_class k, int64_t start,
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

void
kernels_on_event(struct classify *c, const struct pf_event *ev, int64_t start,
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
		kernels_add_busy(c, busy_class_id(c, category), start,
		    start + dur);
		count_kernel(c, &key, category, kname, start, dur, in,
		    parent);
		module = key.module;
	}
	else {
		/* A kernel outside XLA: NCCL collectives, library calls. */
		const char *name = pf_event_name(ev);

		kernels_add_busy(c, strncmp(name, "nccl", 4) == 0 ||
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
