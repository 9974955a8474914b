/*
 * Host events: XLA:CPU and TensorFlow ops (they stand in for device ops in
 * a CPU-only profile), compiles and their phases, host transfer calls,
 * annotation scopes, and the long events idle reports show.
 */
#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "classify/classify-host.h"
#include "classify/classify-memory.h"
#include "lib/ptime.h"
#include "lib/xmalloc.h"

static const char *const compile_names[] = {
	"backend_compile_and_load",
	"backend_compile",
	"TfrtTpuCompiler::Compile",
};

/* Host calls that move data between host and device (FORMATS.md 6.2). */
static const struct {
	const char	*name;
	enum transfer_dir dir;
} host_transfer_names[] = {
	{ "DevicePut", XFER_H2D },
	{ "DevicePutWithSharding", XFER_H2D },
	{ "ArrayImpl.copy_to_host_async", XFER_D2H },
	{ "np.asarray(jax.Array)", XFER_D2H },
	{ "batched_copy_array_to_devices_with_sharding", XFER_D2D },
	{ "tpu::System::TransferToDevice", XFER_H2D },
	{ "tpu::System::TransferFromDevice", XFER_D2H },
	{ "TransferH2DRequest", XFER_H2D },
	{ "TransferD2HRequest", XFER_D2H },
};


/* Nearest enclosing "PjitFunction(f)" on the line, as "f". */
static uint32_t
enclosing_function(struct classify *c)
{
	size_t i;

	for (i = c->nev_stack; i > 0; i--) {
		const char *n = c->ev_stack[i - 1].name;
		size_t len = n != NULL ? strlen(n) : 0;

		if (len > 0 && strncmp(n, "PjitFunction(", 13) == 0 &&
		    n[len - 1] == ')')
			return intern(c, n + 13, len - 14);
	}
	return intern_str(c, "");
}

/* The execution an XLA:CPU op belongs to: its (module, run_id). */
static void
add_to_run(struct classify *c, uint32_t module, int64_t run_id,
    int64_t start, int64_t dur)
{
	struct plane_summary *p = c->plane;
	struct exec_rec *e;
	size_t i, n;

	/* Runs are local in time: look at the last few only. */
	for (i = p->nexecs, n = 0; i > 0 && n < 8; i--, n++) {
		e = &p->execs[i - 1];
		if (e->module != module || e->run_id != run_id)
			continue;
		if (start < e->start_ps) {
			e->dur_ps = ps_add(e->dur_ps, e->start_ps - start);
			e->start_ps = start;
		}
		if (start + dur > e->start_ps + e->dur_ps)
			e->dur_ps = start + dur - e->start_ps;
		e->device_ps = ps_add(e->device_ps, dur);
		return;
	}
	p->execs = xgrow1(p->execs, p->nexecs, sizeof *p->execs);
	e = &p->execs[p->nexecs++];
	memset(e, 0, sizeof *e);
	e->module = module;
	e->program_id = -1;
	e->run_id = run_id;
	e->start_ps = start;
	e->dur_ps = dur;
	e->device_ps = dur;
	e->launch = -1;
}

/*
 * Returns 1 if the event is an op (XLA:CPU or TensorFlow); tf_name: its
 * metadata's name is a TensorFlow op's (HOST_NAME_TF_OP).
 */
static int
host_op(struct classify *c, const struct pf_event *ev, int tf_name,
    int64_t start, int64_t dur)
{
	struct pf_bytes hlo_op;
	uint32_t category, op_name;

	if (event_str(c, PF_KEY_HLO_OP, &hlo_op)) {
		struct pf_bytes op = last_component(hlo_op);
		uint64_t flops, bytes;
		int has_flops, has_bytes;
		struct op_key k;
		int64_t run_id;

		op_key_from_event(c, intern(c, op.ptr, op.len), &k);
		event_cost(c, &flops, &has_flops, &bytes, &has_bytes);
		c->occ_instr = event_hlo_instr(c, &k, op);
		category = category_of(c, ev, k.name, c->occ_instr);
		add_op_occurrence(c, CAND_HOST_XLA, &k, category, start, dur,
		    flops, has_flops, bytes, has_bytes, NULL);
		op_name = k.name;
		c->occ_instr = NULL;
		if (k.module != NO_ID && event_int(c, PF_KEY_RUN_ID, &run_id))
			add_to_run(c, k.module, run_id, start, dur);
	} else if (tf_name) {
		/*
		 * Split once per metadata, not at every event: a TensorFlow
		 * profile repeats a few names many times.  The full name:
		 * trace JSON shows "MatMul" for "x:MatMul".
		 */
		struct meta_memo *mm = &c->meta_memo[ev->meta_index];
		struct op_key k = { NO_ID, NO_ID, -1 };

		if (mm->tf_name == NO_ID) {
			const char *full = ev->meta->name;
			size_t tf_len;

			if (!split_tf_op(full, &tf_len))
				return 0;
			mm->tf_name = intern(c, full, tf_len);
			mm->tf_type = intern_str(c, full + tf_len + 1);
		}
		k.name = mm->tf_name;
		category = mm->tf_type;
		c->occ_instr = NULL;
		add_op_occurrence(c, CAND_HOST_TF, &k, category, start, dur,
		    0, 0, 0, 0, NULL);
		op_name = k.name;
	} else
		return 0;
	if (busy_class_id(c, category) == BUSY_COLLECTIVE)
		add_named_span(&c->plane->collectives,
		    &c->plane->ncollectives, op_name, start, dur);
	ivals_add(&c->busy_kernels[busy_class_id(c, category)], start,
	    start + dur);
	return 1;
}

static unsigned
host_name_kind(struct classify *c, const struct pf_event *ev)
{
	uint8_t *slot = &c->meta_host[ev->meta_index];
	const char *name;
	size_t i, tf_len;

	if (*slot != HOST_NAME_UNKNOWN)
		return *slot;
	name = pf_event_name(ev);
	*slot = HOST_NAME_OTHER;
	/* A first letter apart is most names: no call then. */
	for (i = 0; i < sizeof compile_names / sizeof compile_names[0]; i++)
		if (name[0] == compile_names[i][0] &&
		    strcmp(name, compile_names[i]) == 0)
			*slot = HOST_NAME_COMPILE;
	for (i = 0; i < sizeof host_transfer_names /
	    sizeof host_transfer_names[0]; i++)
		if (name[0] == host_transfer_names[i].name[0] &&
		    strcmp(name, host_transfer_names[i].name) == 0)
			*slot = (uint8_t)(HOST_NAME_TRANSFER + i);
	if (ev->meta->name[0] != '$' && split_tf_op(ev->meta->name, &tf_len))
		*slot |= HOST_NAME_TF_OP;
	if (name[0] == '$' && *slot == HOST_NAME_OTHER) {
		for (i = 0; i < ev->meta->nstats; i++)
			if (ev->meta->stats[i].key != PF_KEY_OTHER)
				break;
		if (i == ev->meta->nstats)
			*slot |= HOST_NAME_FRAME;
	}
	return *slot;
}

/* A compile event not inside another one; its index or NONE. */
static size_t
host_compile(struct classify *c, const struct pf_event *ev, unsigned kind,
    int64_t start, int64_t dur)
{
	struct plane_summary *p = c->plane;
	struct compile_rec *r;
	size_t i;
	int compile = kind == HOST_NAME_COMPILE;

	for (i = 0; compile && i < c->nev_stack; i++)
		if (c->ev_stack[i].compile != NONE)
			compile = 0;
	if (!compile)
		return NONE;
	p->compiles = xgrow1(p->compiles, p->ncompiles, sizeof *p->compiles);
	r = &p->compiles[p->ncompiles];
	r->name = event_name_id(c, ev);
	r->function = enclosing_function(c);
	r->line = c->line_name;
	r->start_ps = start;
	r->dur_ps = dur;
	r->first_phase = p->nphases;
	r->autotune_ps = 0;
	r->nphases = 0;
	return p->ncompiles++;
}

/*
 * An event's name as a scope, cached per metadata.  CUPTI names the CUDA
 * calls on a graph after it, "cuGraphCreate (CudaGraph:240)" (FORMATS.md
 * 6.4), and XLA makes graphs anew as it runs: with that id kept, a
 * profile of 500 steps had 29,434 scopes that each ran once.
 */
static uint32_t
host_scope_name(struct classify *c, const struct pf_event *ev)
{
	static const char graph[] = " (CudaGraph:";
	const size_t glen = sizeof graph - 1;
	uint32_t *slot = &c->meta_memo[ev->meta_index].scope_name;
	const char *s;
	size_t len, digits;

	if (*slot != NO_ID)
		return *slot;
	s = pf_event_name(ev);
	len = strlen(s);
	if (len < glen + 2 || s[len - 1] != ')')
		return *slot = event_name_id(c, ev);
	for (digits = 0; digits < len - 1 - glen &&
	    isdigit((unsigned char)s[len - 2 - digits]); digits++)
		continue;
	/* The whole name is not interned: most are never shown. */
	if (digits > 0 && memcmp(s + len - 1 - digits - glen, graph,
	    glen) == 0)
		return *slot = intern(c, s, len - 1 - digits - glen);
	return *slot = event_name_id(c, ev);
}

/* Host time per scope: a path of nested host events on one line. */
static uint32_t
host_scope(struct classify *c, const struct pf_event *ev, int64_t dur)
{
	struct meta_memo *mm = &c->meta_memo[ev->meta_index];
	struct op_key k;
	size_t i, idx;

	k.name = host_scope_name(c, ev);
	k.module = NO_SCOPE;
	k.program_id = -1;
	for (i = c->nev_stack; i > 0; i--)
		if (c->ev_stack[i - 1].scope != NO_SCOPE) {
			k.module = c->ev_stack[i - 1].scope;
			c->ev_stack[i - 1].child_ps = ps_add(
			    c->ev_stack[i - 1].child_ps, dur);
			break;
		}
	/*
	 * An event's name under the same parent as the last time is the
	 * same scope, found without the table: a host plane's events repeat
	 * under one parent.
	 */
	if (mm->scope != NO_ID && mm->scope_parent == k.module)
		idx = mm->scope;
	else {
		idx = op_table_get(&c->scopes, &k, 0);
		mm->scope = (uint32_t)idx;
		mm->scope_parent = k.module;
	}
	c->scopes.aggs[idx].count++;
	c->scopes.aggs[idx].total_ps = ps_add(c->scopes.aggs[idx].total_ps,
	    dur);
	return (uint32_t)idx;
}

/*
 * A batch's text so far, and where its recent names went in it: a plane's
 * host events repeat a few line and event names, each then kept once a
 * batch.
 */
#define BATCH_TEXTS_SEEN	256

struct batch_texts {
	size_t	 len, cap;
	struct batch_text_seen {
		uint32_t	 id;
		size_t		 at;	/* SIZE_MAX: none yet */
	} seen[BATCH_TEXTS_SEEN];
};

/* String id s of the plane's summary in b's text; its offset. */
static size_t
batch_text(struct host_event_batch *b, struct batch_texts *bt,
    const struct strmap *m, uint32_t s)
{
	struct batch_text_seen *seen = &bt->seen[s % BATCH_TEXTS_SEEN];
	size_t at = bt->len, n = m->lengths[s] + 1;

	if (seen->at != SIZE_MAX && seen->id == s)
		return seen->at;
	if (bt->len + n > bt->cap) {
		bt->cap = (bt->len + n) * 2;
		b->text = xreallocarray(b->text, bt->cap, 1);
	}
	memcpy(b->text + at, m->strings[s], n);
	bt->len += n;
	seen->id = s;
	seen->at = at;
	return at;
}

/* The plane's long host events so far, to give_host_events. */
static void
hand_host_events(struct classify *c)
{
	struct plane_summary *p = c->plane;
	const struct strmap *m = &c->fs->strings;
	struct host_event_batch *b;
	struct batch_texts bt;
	size_t i;

	if (p->nhost_events == 0)
		return;
	bt.len = bt.cap = 0;
	for (i = 0; i < BATCH_TEXTS_SEEN; i++)
		bt.seen[i].at = SIZE_MAX;
	b = xcalloc(1, sizeof *b);
	b->rows = xcalloc(p->nhost_events, sizeof *b->rows);
	b->nrows = p->nhost_events;
	for (i = 0; i < p->nhost_events; i++) {
		const struct host_event_rec *h = &p->host_events[i];
		struct host_event_row *r = &b->rows[i];

		r->name = batch_text(b, &bt, m, h->name);
		r->line = batch_text(b, &bt, m, h->line);
		r->depth = h->depth;
		r->start_ps = h->start_ps;
		r->dur_ps = h->dur_ps;
	}
	p->nhost_events = 0;
	c->give_host_events(c->give_ctx, b);
}

void
note_event(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	struct plane_summary *p = c->plane;
	const struct open_event *parent = c->nev_stack > 0 ?
	    &c->ev_stack[c->nev_stack - 1] : NULL;

	if (parent != NULL && parent->compile != NONE) {
		/* A phase of the compile (an XLA pass, lowering...). */
		p->phases = xgrow1(p->phases, p->nphases, sizeof *p->phases);
		p->phases[p->nphases].name = event_name_id(c, ev);
		p->phases[p->nphases].start_ps = start;
		p->phases[p->nphases].dur_ps = dur;
		p->nphases++;
		p->compiles[parent->compile].nphases++;
	}
	if (dur >= HOST_EVENT_FLOOR_PS) {
		struct host_event_rec *h;

		p->host_events = xgrow1(p->host_events, p->nhost_events,
		    sizeof *p->host_events);
		h = &p->host_events[p->nhost_events++];
		h->name = event_name_id(c, ev);
		h->line = c->line_name;
		h->depth = (int)c->nev_stack;
		h->start_ps = start;
		h->dur_ps = dur;
		if (c->give_host_events != NULL &&
		    p->nhost_events == HOST_EVENT_BATCH)
			hand_host_events(c);
	}
}

void
host_event(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	const char *name = pf_event_name(ev);
	size_t compile;
	unsigned kind;
	int is_op;

	close_events_before(c, start + dur);
	if (name[0] == 'M' && c->read_memory)
		memory_event(c, ev, start);
	kind = c->meta_host[ev->meta_index];
	if (kind == HOST_NAME_UNKNOWN)
		kind = host_name_kind(c, ev);
	is_op = host_op(c, ev, kind & HOST_NAME_TF_OP, start, dur);
	kind &= ~(HOST_NAME_TF_OP | HOST_NAME_FRAME);
	compile = host_compile(c, ev, kind, start, dur);
	if (kind >= HOST_NAME_TRANSFER)
		add_transfer(c, ev,
		    host_transfer_names[kind - HOST_NAME_TRANSFER].dir, 1, -1,
		    start, dur);
	/*
	 * An annotation directly inside a top-level one (load_batch in a
	 * step), kept for what the host ran per step (step-parts.h).
	 */
	if (c->nev_stack == 1 && !is_op && name[0] != '$' &&
	    compile == NONE && dur >= HOST_EVENT_FLOOR_PS)
		add_named_span(&c->plane->annotations,
		    &c->plane->nannotations, event_name_id(c, ev), start, dur);
	/* Python tracer frames ($...) and ops are not annotation scopes. */
	nest_event(c, ev, name, start, dur, compile,
	    is_op || name[0] == '$' ? NO_SCOPE : host_scope(c, ev, dur));
}

void
host_line_end(struct classify *c)
{
	while (c->nev_stack > 0)
		close_event(c, &c->ev_stack[--c->nev_stack]);
}

static int
cmp_exec_run(const void *a, const void *b)
{
	const struct exec_rec *x = a, *y = b;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	if (x->run_id != y->run_id)
		return x->run_id < y->run_id ? -1 : 1;
	return (x->start_ps > y->start_ps) - (x->start_ps < y->start_ps);
}

static int
cmp_exec_start(const void *a, const void *b)
{
	const struct exec_rec *x = a, *y = b;

	return (x->start_ps > y->start_ps) - (x->start_ps < y->start_ps);
}

void
host_plane_end(struct classify *c)
{
	struct plane_summary *p = c->plane;
	size_t i, j = 0;

	if (c->give_host_events != NULL) {
		hand_host_events(c);
		free(p->host_events);
		p->host_events = NULL;
	}

	p->scopes = xcalloc(c->scopes.n + 1, sizeof *p->scopes);
	for (i = 0; i < c->scopes.n; i++) {
		p->scopes[i].name = c->scopes.keys[i].name;
		p->scopes[i].parent = c->scopes.keys[i].module;
		p->scopes[i].count = c->scopes.aggs[i].count;
		p->scopes[i].total_ps = c->scopes.aggs[i].total_ps;
		p->scopes[i].self_ps = c->scopes.aggs[i].self_ps;
	}
	p->nscopes = c->scopes.n;
	op_table_release(&c->scopes);

	/* One execution per (module, run_id), whichever lines ran it. */
	if (p->nexecs > 0)	/* execs may be NULL */
		qsort(p->execs, p->nexecs, sizeof *p->execs, cmp_exec_run);
	for (i = 0; i < p->nexecs; i++) {
		struct exec_rec *prev = j > 0 ? &p->execs[j - 1] : NULL;
		struct exec_rec *e = &p->execs[i];

		if (prev != NULL && prev->module == e->module &&
		    prev->run_id == e->run_id) {
			int64_t end = e->start_ps + e->dur_ps;

			if (end > prev->start_ps + prev->dur_ps)
				prev->dur_ps = end - prev->start_ps;
			prev->device_ps = ps_add(prev->device_ps, e->device_ps);
			continue;
		}
		p->execs[j++] = *e;
	}
	p->nexecs = j;
	if (p->nexecs > 0)	/* execs may be NULL */
		qsort(p->execs, p->nexecs, sizeof *p->execs, cmp_exec_start);
}
