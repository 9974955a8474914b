/*
 * The classifier's private parts, in three layers that call downwards
 * only: classify-event.c (op tables, the current event, categories),
 * classify-host.c (host events), classify.c (devices, ops, the stream
 * callbacks).
 */
#ifndef JAXPROF_CLASSIFY_INT_H
#define JAXPROF_CLASSIFY_INT_H

#include "classify.h"
#include "hlo-match.h"
#include "ptime.h"
#include "timeline.h"
#include "xmalloc.h"

/* Candidate op tables per plane; the plane's final one is chosen at the end. */
enum candidate {
	CAND_XLA_OPS,		/* the device's "XLA Ops" line */
	CAND_KERNELS,		/* device kernels carrying hlo_op */
	CAND_HOST_XLA,		/* host events carrying hlo_op */
	CAND_HOST_TF,		/* host TensorFlow "name:Type" events */
	CAND_DEVICE_OTHER,	/* device kernels without hlo_op (TF GPU) */
	NCAND,
};

/* What is known of an event metadata of the plane: string ids, or NO_ID. */
struct meta_memo {
	uint32_t	 name;
	uint32_t	 scope_name;	/* host_scope_name() */
	uint32_t	 category;
	/* A TensorFlow op's name and type ("x" and "MatMul" of "x:MatMul"). */
	uint32_t	 tf_name, tf_type;
	/* host_scope(): the scope last found for it, and that one's parent. */
	uint32_t	 scope, scope_parent;
};

/* An op's identity before its module is resolved. */
struct op_key {
	uint32_t	name;
	uint32_t	module;		/* string id, or NO_ID */
	int64_t		program_id;	/* -1 when unknown */
};

#define NO_ID	UINT32_MAX

/* Open-addressing map from op_key to an index in an op_agg array. */
struct op_table {
	struct op_key	*keys;
	struct op_agg	*aggs;
	size_t		 n;
	uint32_t	*slots;		/* index + 1; 0 is empty */
	size_t		 cap;
};

/*
 * The instruction a kernel name names in an HLO module's kernel table,
 * kept per event metadata (one kernel name) of a device plane: a CUDA
 * graph's kernels repeat every step.
 */
struct kernel_memo {
	const struct hlo_module *module;	/* NULL: nothing kept yet */
	const struct hlo_instr *named;	/* hlo_module_kernel() in module */
	struct pf_bytes	 details;	/* the kernel_details last seen */
	uint32_t	 details_id;	/* its string id + 1; 0: none yet */
};

/*
 * The string ids of a module's instructions' names and categories, two
 * per instruction (NO_ID until first needed): ops and kernels name the
 * same few instructions over and over.
 */
struct module_ids {
	const struct hlo_module *module;
	uint32_t	*ids;
};

/*
 * What an "XLA Ops" event of one metadata, with an hlo_module of its own
 * or without, led to last time: with the same op key and no program_id
 * or hlo_category of its own, the same instruction, category and
 * aggregate; with no flops or bytes_accessed of its own, the same cost.
 */
struct op_memo {
	struct op_key	 key;
	const struct hlo_instr *instr;
	uint32_t	 category;
	enum busy_class	 busy;
	int		 valid;
	size_t		 agg;		/* add_op_occurrence hint */
	uint64_t	 flops, bytes;
	int		 has_flops, has_bytes;
	int		 cost_valid;
};

/*
 * The last occurrence of a kernel op (CAND_KERNELS, by agg index): its
 * execution, so that a later run of the op in it joins it, and its time
 * so far, folded into the op's min and max once it is complete.
 */
struct kernel_occ {
	uint64_t	 exec;		/* run_seq of its execution; 0: none */
	int64_t		 dur_ps;
};

/* An op event whose children are still arriving (self time). */
struct open_op {
	int64_t		 start_ps;
	int64_t		 end_ps;
	int64_t		 dur_ps;
	int64_t		 child_ps;
	size_t		 agg_index;
	enum candidate	 cand;
};

/* A host event that may enclose later ones on its line. */
struct open_event {
	int64_t		 end_ps;
	int64_t		 dur_ps;
	const char	*name;
	size_t		 compile;	/* its index in plane compiles, or NONE */
	uint32_t	 scope;		/* its scope, or NO_SCOPE */
	int64_t		 child_ps;	/* time of its direct child scopes */
};

#define NONE	SIZE_MAX

struct classify {
	struct file_summary *fs;
	const struct step_windows *windows;	/* from a first pass */
	/* Or gathered in the one pass (classify_gather_steps). */
	struct step_windows *gather;
	size_t		 gather_plane;
	struct steps_later **later;
	const struct hlo_set *hlo;	/* the programs' HLO, or NULL */
	/* Gives hlo when an op first needs it (classify_await_hlo()). */
	const struct hlo_set *(*hlo_wait)(void *);
	void		*hlo_wait_arg;
	/* Takes the long host events as they come (classify_hand_...). */
	void		(*give_host_events)(void *ctx,
			    struct host_event_batch *b);
	void		*give_ctx;
	/* The HLO module of the last event's program, found once per run. */
	const struct hlo_module *last_hlo;
	int64_t		 last_hlo_program;
	uint32_t	 last_hlo_module;
	/*
	 * The current op occurrence's HLO instruction and the CUDA graph
	 * call that ran it (string id, or NO_ID), for its op_agg.
	 */
	const struct hlo_instr *occ_instr;
	uint32_t	 occ_parent;
	/* Its framework op when worked out from its first event, or NO_ID. */
	uint32_t	 occ_framework;
	struct plane_summary *plane;	/* the current one */
	struct op_table	 cand[NCAND];
	int		 has_xla_ops_line;
	/*
	 * Busy time by class: of the "XLA Ops" line, and of kernels (or,
	 * on a host plane, of host ops); copies count in both.
	 */
	struct ivals	 busy_ops[NBUSY];
	struct ivals	 busy_kernels[NBUSY];
	/*
	 * Or the ops' busy time measured as it comes (classify_stream_busy):
	 * busy_ops[BUSY_TRANSFER] then holds the plane's copies, of the
	 * lines before its "XLA Ops" line and, read ahead, after it; they
	 * join the ops in order of start (the next is `copy`).
	 */
	int		 may_stream;
	int		 read_memory;	/* classify_read_memory() */
	struct busy_meter *meter;
	enum step_source meter_src;
	const struct window *meter_win;
	struct ivals_iter copies;
	struct ival	 copy;
	int		 have_copy;
	int		 again;		/* the meter refused an op */
	size_t		 nline;		/* lines begun in the plane */
	struct ivals	*ahead_copies;	/* copies of lines read ahead */
	/* Host scopes of the plane: key (name, parent) -> scope_agg. */
	struct op_table	 scopes;
	/* The execution (launch) the current line's kernels belong to. */
	int		 run_open;
	struct exec_rec	 run;
	uint64_t	 run_seq;	/* counts the plane's executions */
	struct kernel_occ *kocc;	/* per CAND_KERNELS agg */
	size_t		 nkocc;
	uint32_t	 run_first_op;	/* the op its first kernel ran */
	/*
	 * The current event's known stats (load_view): its own, in
	 * ev_view where ev_keys has the key's bit, else its metadata's.
	 */
	const struct pf_stat *ev_view[PF_NKEYS];
	uint32_t	 ev_keys;
	const struct pf_stat **md_view;
	/*
	 * Per event metadata of the plane: its stats by key (PF_NKEYS of
	 * them), made at its first event; one shared view for those with
	 * none.  Host planes can have tens of thousands of metadata.
	 */
	const struct pf_stat ***meta_views;
	size_t		 nmetas;
	/* Two per metadata (struct op_memo), made at the first XLA op. */
	struct op_memo	*op_memos;
	/* One per metadata (struct kernel_memo), made at the first kernel. */
	struct kernel_memo *kernel_memos;
	/*
	 * The last kernel's hlo_op when a reference (its bytes stay put for
	 * the plane), and what it gave: its last component and that one's
	 * id, and once looked up, the instruction it names in a module.
	 */
	struct pf_bytes	 last_op_ref, last_op;
	uint32_t	 last_op_id;
	int		 last_op_looked;
	const struct hlo_module *last_op_module;
	const struct hlo_instr *last_op_instr;
	struct module_ids *module_ids;	/* instr_name_id(), in use order */
	size_t		 nmodule_ids;
	size_t		 last_module_ids;	/* the one used last */
	struct strmap	 kernel_keys;	/* kernel_row()'s, of this plane */
	size_t		*meta_kernel;	/* kernel index + 1 per metadata */
	struct meta_memo *meta_memo;	/* per event metadata of the plane */
	uint8_t		*meta_host;	/* host_name_kind(), 0 until known */
	uint8_t		*meta_copy;	/* copy_name(), 0 until known */
	struct pf_bytes	 last_module;	/* hlo_module of the last event */
	uint32_t	 last_module_id;
	/* Per string id: its busy class as a category, or -1. */
	int8_t		*class_of;
	size_t		 nclass_of;
	/* Per string id: the category derived from it as an op name. */
	uint32_t	*cat_of_name;
	size_t		 ncat_of_name;

	/* Per line. */
	enum {
		LINE_PLAIN, LINE_XLA_OPS, LINE_MODULES, LINE_STEPS,
		LINE_ASYNC_OPS,
	}		 line_kind;
	uint32_t	 line_name;
	uint32_t	 line_context;	/* kernel_agg context on the line */
	/*
	 * Whether that context is compile work for the steps: a module the
	 * programs' HLO does not hold (an autotuner candidate) while the HLO
	 * is known.  Its kernels and copies are no step's busy time.
	 */
	int		 line_compile;
	struct hlo_cursor cursor;	/* CUDA graph kernels to instructions */
	struct open_op	*ops_stack;
	size_t		 nops_stack, ops_stack_cap;
	struct open_event *ev_stack;
	size_t		 nev_stack, ev_stack_cap;
	/* The kernels of one run of an op (launch_ids, on_kernel). */
	int		 pending;
	struct op_key	 pending_key;
	int64_t		 pending_program;	/* program_id stat, or -1 */
	int64_t		 pending_scope;		/* scope_range_id, or -1 */
	uint32_t	 pending_kernel;	/* its first kernel's name */
	uint32_t	 pending_category;
	int64_t		 pending_start, pending_dur;
	uint64_t	 pending_flops, pending_bytes;
	int		 pending_has_flops, pending_has_bytes;
	const struct hlo_instr *pending_instr;
	uint32_t	 pending_parent;
	uint32_t	 pending_framework;	/* occ_framework */
	uint64_t	 pending_exec;	/* run_seq of its execution, or 0 */
};

/* classify-event.c */
static inline int
op_key_eq(const struct op_key *a, const struct op_key *b)
{
	return a->name == b->name && a->module == b->module &&
	    a->program_id == b->program_id;
}

uint32_t	intern(struct classify *c, const char *s, size_t len);
uint32_t	intern_str(struct classify *c, const char *s);
/* The id of an HLO instruction's name, interned once per instruction. */
uint32_t	instr_name_id(struct classify *c, const struct hlo_instr *in);
void		free_module_ids(struct classify *c);
/* The current event's stat with that key (its own, else its metadata's). */
static inline const struct pf_stat *
event_stat(const struct classify *c, enum pf_key key)
{
	return (c->ev_keys >> key) & 1 ? c->ev_view[key] : c->md_view[key];
}

/* Loads the current event's stats for event_stat(). */
void		load_view(struct classify *c, const struct pf_event *ev);
void		free_meta_views(struct classify *c);
/* Interns the event's display name into its metadata's cache slot. */
uint32_t	event_name_intern(struct classify *c, const struct pf_event *ev);

/* The display name of an event as a string id, cached per metadata. */
static inline uint32_t
event_name_id(struct classify *c, const struct pf_event *ev)
{
	uint32_t id = c->meta_memo[ev->meta_index].name;

	return id != NO_ID ? id : event_name_intern(c, ev);
}

/* Adds an open op's self time to its aggregate. */
static inline void
close_op(struct classify *c, const struct open_op *o)
{
	struct op_agg *a = &c->cand[o->cand].aggs[o->agg_index];

	/* Children that overlap each other can add up past the parent. */
	if (o->child_ps < o->dur_ps)
		a->self_ps = ps_add(a->self_ps, o->dur_ps - o->child_ps);
}
/* Those as values: most events lack most keys, so no call for those. */
static inline int
event_int(const struct classify *c, enum pf_key key, int64_t *v)
{
	const struct pf_stat *st = event_stat(c, key);

	return st != NULL && pf_stat_int(st, v);
}

static inline int
event_str(const struct classify *c, enum pf_key key, struct pf_bytes *v)
{
	const struct pf_stat *st = event_stat(c, key);

	return st != NULL && pf_stat_str(st, v);
}

/*
 * The event's span: device_offset_ps/device_duration_ps override
 * (xprof's GetDeviceEventTimespan); out of range (jaxprof(1),
 * IMPOSSIBLE TIMES) they are ignored.
 */
static inline void
event_span(const struct classify *c, const struct pf_event *ev,
    int64_t *start, int64_t *dur)
{
	int64_t off, d;

	if (event_int(c, PF_KEY_DEVICE_OFFSET_PS, &off) &&
	    event_int(c, PF_KEY_DEVICE_DURATION_PS, &d) &&
	    ps_valid(off) && ps_valid(d)) {
		*start = off;
		*dur = d;
	} else {
		*start = ev->start_ps;
		*dur = ev->duration_ps;
	}
}
struct pf_bytes	last_component(struct pf_bytes s);
int		split_tf_op(const char *name, size_t *name_len);
uint32_t	category_of(struct classify *c, const struct pf_event *ev,
		    uint32_t op, const struct hlo_instr *in);
const struct hlo_module *event_hlo_module(struct classify *c,
		    const struct op_key *k);
const struct hlo_instr *event_hlo_instr(struct classify *c,
		    const struct op_key *k, struct pf_bytes op);
void		op_key_from_event(struct classify *c, uint32_t name,
		    struct op_key *k);
void		event_cost(struct classify *c, uint64_t *flops,
		    int *has_flops, uint64_t *bytes, int *has_bytes);
size_t		op_table_get(struct op_table *t, const struct op_key *k,
		    uint32_t category);
void		op_table_release(struct op_table *t);
/* A new op's framework op, source line and parent, from its first event. */
void		describe_op(struct classify *c, struct op_agg *a);
/* The framework op the current event of op `name` gives (describe_op). */
uint32_t	event_framework_op(struct classify *c, uint32_t name);
/* Room for one more open op. */
void		grow_ops_stack(struct classify *c);

/*
 * One occurrence of op k in candidate table cand (hint: the index + 1 this
 * event's metadata led to last time, or NULL): its sums and its self time,
 * as the ops open around it close.  Kernels, which never nest on a stream,
 * go through add_kernel_occurrence() (classify.c).  Always inlined (the compiler would not): it runs for
 * every op event, its call was a quarter of its cost, and each caller's
 * constants (cand, hint) fold away.
 */
static inline __attribute__((always_inline)) void
add_op_occurrence(struct classify *c, enum candidate cand,
    const struct op_key *k, uint32_t category, int64_t start, int64_t dur,
    uint64_t flops, int has_flops, uint64_t bytes, int has_bytes,
    size_t *hint)
{
	struct op_table *t = &c->cand[cand];
	struct open_op *o;
	struct op_agg *a;
	size_t i;

	if (hint != NULL && *hint != 0 && op_key_eq(&t->keys[*hint - 1], k))
		i = *hint - 1;
	else
		i = op_table_get(t, k, category);
	if (hint != NULL)
		*hint = i + 1;
	a = &t->aggs[i];
	if (a->count == 0) {
		describe_op(c, a);
		a->min_ps = a->max_ps = dur;
	} else if (dur < a->min_ps)
		a->min_ps = dur;
	else if (dur > a->max_ps)
		a->max_ps = dur;
	a->count++;
	a->total_ps = ps_add(a->total_ps, dur);
	a->flops += flops;
	a->bytes_accessed += bytes;
	a->has_flops |= has_flops;
	a->has_bytes |= has_bytes;
	/* Close the open ops it is not inside: a child lies in its parent. */
	while (c->nops_stack > 0) {
		o = &c->ops_stack[c->nops_stack - 1];
		if (o->start_ps <= start && start + dur <= o->end_ps)
			break;
		close_op(c, o);
		c->nops_stack--;
	}
	if (c->nops_stack > 0)
		c->ops_stack[c->nops_stack - 1].child_ps =
		    ps_add(c->ops_stack[c->nops_stack - 1].child_ps, dur);
	if (c->nops_stack == c->ops_stack_cap)
		grow_ops_stack(c);
	o = &c->ops_stack[c->nops_stack++];
	o->start_ps = start;
	o->end_ps = start + dur;
	o->dur_ps = dur;
	o->child_ps = 0;
	o->agg_index = i;
	o->cand = cand;
}
void		add_transfer(struct classify *c, const struct pf_event *ev,
		    enum transfer_dir dir, int on_host, int64_t bytes,
		    int64_t start, int64_t dur);
enum busy_class	busy_class_of(const char *category);
enum busy_class	busy_class_id(struct classify *c, uint32_t category);

/* classify-compile.c: marks autotuning, once a file's planes are all in. */
void		mark_compile_work(struct file_summary *fs);

/* classify-host.c */

/*
 * What a host event's metadata makes it, found once per metadata
 * (host_name_kind()): HOST_NAME_COMPILE, or HOST_NAME_TRANSFER + its
 * host_transfer_names index, or HOST_NAME_OTHER; with HOST_NAME_TF_OP
 * set where the name is a TensorFlow op's, "name:Type", and
 * HOST_NAME_FRAME where it is a Python tracer's frame ("$...") of no
 * stat of a known key.
 */
enum {
	HOST_NAME_UNKNOWN,	/* not looked at yet */
	HOST_NAME_OTHER,
	HOST_NAME_COMPILE,
	HOST_NAME_TRANSFER,
	HOST_NAME_FRAME = 0x40,
	HOST_NAME_TF_OP = 0x80,
};

/*
 * Whether ev is a Python frame with no stats: most of a JAX profile's
 * host events (2.2 of 2.5 million in one with three compiles), which
 * only nest (host_frame()), so that their stats need no look.
 */
static inline int
host_is_frame(const struct classify *c, const struct pf_event *ev)
{
	return ev->nstats == 0 &&
	    (c->meta_host[ev->meta_index] & HOST_NAME_FRAME) != 0;
}

void		host_event(struct classify *c, const struct pf_event *ev,
		    int64_t start, int64_t dur);
/*
 * What a host event may be beside a place on its line's stack: a phase of
 * the compile it is directly in, and a long event kept.
 */
void		note_event(struct classify *c, const struct pf_event *ev,
		    int64_t start, int64_t dur);

/*
 * Host events nest on their line's stack.  The functions a frame takes
 * are inline here, so that cb_event() calls none for most events.
 */
static inline void
close_event(struct classify *c, const struct open_event *o)
{
	/* Children that overlap each other can add up past the parent. */
	if (o->scope != NO_SCOPE && o->child_ps < o->dur_ps)
		c->scopes.aggs[o->scope].self_ps = ps_add(
		    c->scopes.aggs[o->scope].self_ps, o->dur_ps - o->child_ps);
}

/* Closes the open events that do not contain [start, end]. */
static inline void
close_events_before(struct classify *c, int64_t end)
{
	while (c->nev_stack > 0 &&
	    end > c->ev_stack[c->nev_stack - 1].end_ps)
		close_event(c, &c->ev_stack[--c->nev_stack]);
}

/*
 * What every host event does: note_event(), where it is more than a
 * place on the stack, and the place, as the innermost open event of its
 * line.  name: the event's, or NULL for a frame (never a PjitFunction).
 */
static inline void
nest_event(struct classify *c, const struct pf_event *ev, const char *name,
    int64_t start, int64_t dur, size_t compile, uint32_t scope)
{
	struct open_event *o;

	if (dur >= HOST_EVENT_FLOOR_PS || (c->nev_stack > 0 &&
	    c->ev_stack[c->nev_stack - 1].compile != NONE))
		note_event(c, ev, start, dur);
	if (c->nev_stack == c->ev_stack_cap) {
		c->ev_stack_cap = c->ev_stack_cap == 0 ? 16 :
		    c->ev_stack_cap * 2;
		c->ev_stack = xreallocarray(c->ev_stack, c->ev_stack_cap,
		    sizeof *c->ev_stack);
	}
	o = &c->ev_stack[c->nev_stack++];
	o->scope = scope;
	o->end_ps = start + dur;
	o->dur_ps = dur;
	o->name = name;
	o->compile = compile;
	o->child_ps = 0;
}

/* host_event() for a frame (host_is_frame()): no op, compile or scope. */
static inline void
host_frame(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	close_events_before(c, start + dur);
	nest_event(c, ev, NULL, start, dur, NONE, NO_SCOPE);
}
void		host_line_end(struct classify *c);
void		host_plane_end(struct classify *c);

/* classify-memory.c: an allocator's events, below the host layer. */

/* Keeps ev if it is a MemoryAllocation or MemoryDeallocation. */
void		memory_event(struct classify *c, const struct pf_event *ev,
		    int64_t start);
/* The plane's memory records' string ids through map (absorbing). */
void		memory_remap(struct plane_summary *p, const uint32_t *map);

#endif
