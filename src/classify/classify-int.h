/*
 * The classifier's state, shared by the classify-*.c files, and the
 * accessors of the current event that call nothing.  Each file's
 * functions are declared in its own header; they call downwards only:
 * classify.c -> classify-copy.c -> classify-kernel.c -> classify-event.c,
 * classify.c -> classify-host.c -> classify-memory.c -> classify-event.c.
 */
#ifndef JAXPROF_CLASSIFY_INT_H
#define JAXPROF_CLASSIFY_INT_H

#include "model/file-summary.h"
#include "classify/hlo-match.h"
#include "lib/ptime.h"
#include "lib/timeline.h"
#include "lib/xmalloc.h"

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
	/* Its first kernel's name (string id), or NO_ID: not a kernel's. */
	uint32_t	 occ_kernel;
	struct plane_summary *plane;	/* the current one */
	struct op_table	 cand[NCAND];
	int		 has_xla_ops_line;
	/*
	 * A TPU's copies as its "XLA Ops" line has them, copy-start to
	 * copy-done (classify-copy.c): the plane's transfers at these
	 * indices, dropped when its "Async XLA Ops" line has the copies.
	 */
	struct op_copy {
		uint32_t	 instr;	/* "copy-start.2", interned */
		int64_t		 at;	/* the start's start, the done's */
		int64_t		 end;	/* a done's end */
		size_t		 transfer;	/* a start's */
	}		*op_copies, *op_dones;
	size_t		 nop_copies, nop_dones;
	int		 async_copies;	/* the plane's async line had some */
	int		 tpu;		/* a TPU's plane: no Memcpy events */
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

/* The current event and its ops, inline: they run for every event. */
static inline int
op_key_eq(const struct op_key *a, const struct op_key *b)
{
	return a->name == b->name && a->module == b->module &&
	    a->program_id == b->program_id;
}

/* The current event's stat with that key (its own, else its metadata's). */
static inline const struct pf_stat *
event_stat(const struct classify *c, enum pf_key key)
{
	return (c->ev_keys >> key) & 1 ? c->ev_view[key] : c->md_view[key];
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

#endif
