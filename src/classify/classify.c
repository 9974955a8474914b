/*
 * Classify a file's events into ops, kernels, modules, steps, compiles and
 * transfers (the definitions are in man/jaxprof.1, DEFINITIONS): the stream
 * callbacks, planes, lines, XLA ops and modules here; a device's kernels in
 * classify-kernel.c, its copies in classify-copy.c, host events in
 * classify-host.c.
 */
#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "classify/classify.h"
#include "classify/classify-compile.h"
#include "classify/classify-copy.h"
#include "classify/classify-host.h"
#include "classify/classify-kernel.h"
#include "classify/classify-memory.h"
#include "model/device-peak.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "classify/steps.h"
#include "lib/xmalloc.h"

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
		unsigned long long id;
		char *end;

		/* Ids are unsigned 64-bit: kept as their bit pattern. */
		if (paren == NULL || paren == name ||
		    !isdigit((unsigned char)paren[1]))
			continue;
		errno = 0;
		id = strtoull(paren + 1, &end, 10);
		if (errno != 0 || strcmp(end, ")") != 0)
			continue;
		fs->programs = xgrow1(fs->programs, fs->nprograms,
		    sizeof *fs->programs);
		fs->programs[fs->nprograms].module = intern(c, name,
		    (size_t)(paren - name));
		fs->programs[fs->nprograms].program_id = (int64_t)id;
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
	if (p->kind == PLANE_DEVICE)
		p->has_peak = device_peak_of(plane->stats, plane->nstats,
		    &p->peak) == 0;
	c->plane = p;
	c->nline = 0;
	/* The last plane's strings are gone: forget pointers into them. */
	c->last_module.ptr = NULL;
	c->last_module.len = 0;
	c->has_xla_ops_line = 0;
	copies_plane_begin(c, plane->name);
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
	if (copies_is_lone_memset(c, ev) || copies_is_device_copy(c, ev, &details,
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
	if (m->busy == BUSY_COLLECTIVE)
		add_named_span(&c->plane->collectives,
		    &c->plane->ncollectives, k.name, start, dur);
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
			copies_on_xla_op(c, ev, start, dur);
			break;
		case LINE_MODULES:
			on_module(c, ev, start, dur);
			break;
		case LINE_ASYNC_OPS:
			copies_on_async_copy(c, ev, start, dur);
			break;
		case LINE_STEPS:
			/* Step windows: gathered, else from the first pass. */
			if (c->gather != NULL)
				step_windows_event(c->gather, c->gather_plane,
				    ev);
			break;
		default:
			kernels_on_event(c, ev, start, dur);
			if (!copies_on_memset(c, ev, start, dur))
				copies_on_device_copy(c, ev, start, dur);
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
	kernels_flush_pending(c);
	kernels_close_run(c);
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
			prev->device_ps = ps_add(prev->device_ps, e->device_ps);
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
		copies_plane_end(c);
		merge_device_execs(p);
		kernels_end_plane(c);
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
	c->occ_kernel = NO_ID;
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
			p->ncollectives = 0;
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
	free(c->op_copies);
	free(c->op_dones);
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
		for (j = 0; j < p->ncollectives; j++)
			p->collectives[j].name = map[p->collectives[j].name];
		for (j = 0; j < p->nannotations; j++)
			p->annotations[j].name = map[p->annotations[j].name];
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
		free(p->collectives);
		free(p->annotations);
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
