/*
 * One profile file to a file_summary: an XSpace in one pass, planes in
 * parallel, a thread with no plane left decoding ahead on the long lines
 * of those still read; a trace JSON in two.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/load.h"
#include "lib/err.h"
#include "read/read-hlo.h"
#include "read/read-json.h"
#include "read/read-xplane.h"
#include "input/source.h"
#include "classify/steps.h"
#include "lib/xmalloc.h"

/* One plane, classified into a summary of its own. */
struct plane_job {
	struct plane_pool *pool;
	size_t		 plane;		/* its number in the file */
	struct file_summary fs;
	struct pf_read_stats rs;
	struct steps_later *later;	/* its steps, if measured after all */
	char		*cause;
	int		 rc;
};

/*
 * Long host events on their way to load_hooks.host_events, in file order
 * although planes are read in parallel: a plane's batches wait while a
 * host plane before it is still being read, and all wait while the HLO
 * is: load_hooks.hlo_read comes first.
 */
struct host_relay {
	const struct load_hooks *hooks;
	int		 held;		/* until the HLO pre-pass ends */
	size_t		 first;		/* planes before it are read */
	unsigned char	*read;		/* per plane: read, or not a host plane */
	struct host_event_batch **waiting;	/* per plane, in reverse */
	pthread_mutex_t	 mu;
};

struct prepass;

struct plane_pool {
	const struct xspace *xs;
	struct step_windows *windows;
	/*
	 * The HLO pre-pass, the first job a thread takes: planes whose
	 * events need no HLO are read meanwhile (pool_hlo()).
	 */
	struct prepass	*pp;
	const struct load_hooks *hooks;
	int		 pp_taken;
	int		 hlo_ready;	/* it ended: hlo is its set or NULL */
	const struct hlo_set *hlo;
	char		*pp_cause;	/* why it failed, or NULL */
	int		 shown;		/* hooks->hlo_read was given the set */
	pthread_cond_t	 hlo_cv;
	struct host_relay *relay;	/* or NULL: host events stay */
	struct plane_job *jobs;
	size_t		*order;		/* host planes first: steps wait on them */
	size_t		 njobs;
	size_t		 next;
	pthread_mutex_t	 mu;
};

/* Passes the batches of plane relay->first on, in the order they came. */
static void
relay_pass_waiting(struct host_relay *r)
{
	struct host_event_batch *b = r->waiting[r->first], *rev = NULL;

	r->waiting[r->first] = NULL;
	while (b != NULL) {
		struct host_event_batch *next = b->next;

		b->next = rev;
		rev = b;
		b = next;
	}
	for (b = rev; b != NULL; b = rev) {
		rev = b->next;
		b->next = NULL;
		r->hooks->host_events(r->hooks->ctx, b);
	}
}

/* Moves past the planes read, passing on the next one's batches. */
static void
relay_advance(struct host_relay *r, size_t nplanes)
{
	if (r->held)
		return;
	while (r->first < nplanes && r->read[r->first]) {
		r->first++;
		if (r->first < nplanes)
			relay_pass_waiting(r);
	}
}

static struct host_relay *
relay_new(const struct load_hooks *hooks, const struct xspace *xs)
{
	size_t i, n = xspace_nplanes(xs);
	struct host_relay *r;

	if (hooks == NULL || hooks->host_events == NULL)
		return NULL;
	r = xcalloc(1, sizeof *r);
	r->hooks = hooks;
	r->held = 1;
	r->read = xcalloc(n + 1, 1);
	r->waiting = xcalloc(n + 1, sizeof *r->waiting);
	pthread_mutex_init(&r->mu, NULL);
	for (i = 0; i < n; i++)
		r->read[i] = !classify_is_host_plane(xspace_plane_names(xs)[i]);
	relay_advance(r, n);
	return r;
}

/* The batches of a load that failed are dropped. */
static void
relay_free(struct host_relay *r, size_t nplanes)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < nplanes; i++)
		host_event_batches_free(r->waiting[i]);
	pthread_mutex_destroy(&r->mu);
	free(r->read);
	free(r->waiting);
	free(r);
}

/* A classify's batch of its plane (a plane_job's). */
static void
relay_give(void *ctx, struct host_event_batch *b)
{
	struct plane_job *job = ctx;
	struct host_relay *r = job->pool->relay;

	b->plane = job->plane;
	pthread_mutex_lock(&r->mu);
	if (job->plane == r->first && !r->held)
		r->hooks->host_events(r->hooks->ctx, b);
	else {
		b->next = r->waiting[job->plane];
		r->waiting[job->plane] = b;
	}
	pthread_mutex_unlock(&r->mu);
}

/* The HLO pre-pass ended: the batches held go on. */
static void
relay_release(struct host_relay *r, size_t nplanes)
{
	pthread_mutex_lock(&r->mu);
	r->held = 0;
	if (r->first < nplanes)
		relay_pass_waiting(r);
	relay_advance(r, nplanes);
	pthread_mutex_unlock(&r->mu);
}

static void
relay_plane_read(struct host_relay *r, size_t plane, size_t nplanes)
{
	pthread_mutex_lock(&r->mu);
	r->read[plane] = 1;
	relay_advance(r, nplanes);
	pthread_mutex_unlock(&r->mu);
}

static const struct hlo_set *pool_hlo(void *);
static void	hlo_prepass(struct plane_pool *);

/*
 * Reads plane i into its job; with stream, a device plane's busy time is
 * measured as it is read where that is exact (classify_stream_busy()).
 */
static int
read_plane_job(struct plane_pool *pool, size_t i, int stream)
{
	struct plane_job *job = &pool->jobs[i];
	struct pf_handler h;
	struct classify *c;

	c = classify_new(&job->fs, NULL, &h);
	classify_await_hlo(c, pool_hlo, pool);
	classify_gather_steps(c, pool->windows, i, &job->later);
	if (stream)
		classify_stream_busy(c);
	if (pool->relay != NULL)
		classify_hand_host_events(c, relay_give, job);
	if (pool->hooks != NULL && pool->hooks->memory)
		classify_read_memory(c, &h);
	job->rc = xspace_read_plane(pool->xs, i, &h, &job->rs, &job->cause);
	classify_release(c);
	return job->rc;
}

static void *
plane_worker(void *arg)
{
	struct plane_pool *pool = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&pool->mu);
		if (!pool->pp_taken) {
			pool->pp_taken = 1;
			pthread_mutex_unlock(&pool->mu);
			hlo_prepass(pool);
			continue;
		}
		i = pool->next < pool->njobs ? pool->order[pool->next++] :
		    SIZE_MAX;
		pthread_mutex_unlock(&pool->mu);
		if (i == SIZE_MAX) {
			/* Beside a plane still read, on its long line. */
			(void)xspace_help(pool->xs);
			return NULL;
		}
		if (read_plane_job(pool, i, 1) == CLASSIFY_AGAIN) {
			/*
			 * Its ops came out of order: again, storing their
			 * busy time (a device plane: no host events given).
			 */
			file_summary_release(&pool->jobs[i].fs);
			memset(&pool->jobs[i].rs, 0, sizeof pool->jobs[i].rs);
			step_windows_plane_reset(pool->windows, i);
			(void)read_plane_job(pool, i, 0);
		}
		/* A plane that failed holds the later ones' batches back. */
		if (pool->relay != NULL && pool->jobs[i].rc == 0)
			relay_plane_read(pool->relay, i, pool->njobs);
	}
}

/*
 * A pass over /host:metadata for the programs' HLO, which the planes'
 * pass needs.  With step windows, the whole first pass the reader made
 * before it gathered steps in its one pass: run again on a broken file,
 * so that its error stays the one reported.
 */
struct prepass {
	struct pf_handler steps;
	struct hlo_set	*hlo;
	char		**warnings;	/* HLO protos that could not be read */
	size_t		 nwarnings;
	int		 nthreads;	/* to parse the protos on */
	int		 memory;	/* their buffer assignments too */
};

/*
 * The program id of a /host:metadata entry (FORMATS.md 3.3): its
 * program_id stat, else the id in its name "jit_f(12)", else its key.
 */
static int64_t
metadata_program_id(const struct pf_event_meta *m)
{
	const char *paren = strrchr(m->name, '(');
	int64_t id;

	if (pf_stat_int(pf_stat_find(m->stats, m->nstats, PF_KEY_PROGRAM_ID),
	    &id))
		return id;
	if (paren != NULL) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(paren + 1, &end, 10);
		if (errno == 0 && end > paren + 1 && strcmp(end, ")") == 0)
			return (int64_t)v;
	}
	return m->id;
}

/* One "Hlo Proto" of /host:metadata, parsed by whichever thread takes it. */
struct hlo_proto {
	const struct pf_event_meta *meta;
	const struct pf_stat *stat;
	struct hlo_module *module;	/* or NULL, why says why */
	char		*why;
};

struct hlo_protos {
	struct hlo_proto *v;
	size_t		*order;		/* largest first: the threads end together */
	size_t		 n;
	size_t		 next;
	int		 memory;	/* load_hooks.memory */
	pthread_mutex_t	 mu;
};

static void *
hlo_proto_worker(void *arg)
{
	struct hlo_protos *ps = arg;

	for (;;) {
		struct hlo_proto *p;
		size_t i;

		pthread_mutex_lock(&ps->mu);
		i = ps->next < ps->n ? ps->order[ps->next++] : SIZE_MAX;
		pthread_mutex_unlock(&ps->mu);
		if (i == SIZE_MAX)
			return NULL;
		p = &ps->v[i];
		p->module = hlo_module_read(p->stat->str.ptr, p->stat->str.len,
		    metadata_program_id(p->meta), ps->memory, &p->why);
	}
}

static int
larger_proto(const void *a, const void *b, void *v)
{
	const struct hlo_proto *pa = (const struct hlo_proto *)v +
	    *(const size_t *)a, *pb = (const struct hlo_proto *)v +
	    *(const size_t *)b;

	if (pa->stat->str.len != pb->stat->str.len)
		return pa->stat->str.len > pb->stat->str.len ? -1 : 1;
	return pa < pb ? -1 : pa > pb;
}

/*
 * Runs work(arg) on this thread and up to nthreads - 1 more (fewer than
 * njobs, 16 at most: the jobs it takes from arg are shared out), then
 * waits for them.  Without more threads this one does all the jobs.
 */
static void
run_workers(void *(*work)(void *), void *arg, int nthreads, size_t njobs)
{
	pthread_t threads[16];
	size_t i, nstarted = 0;

	while ((int)nstarted + 1 < nthreads && nstarted + 1 < njobs &&
	    nstarted < sizeof threads / sizeof threads[0] &&
	    pthread_create(&threads[nstarted], NULL, work, arg) == 0)
		nstarted++;
	work(arg);
	for (i = 0; i < nstarted; i++)
		pthread_join(threads[i], NULL);
}

/*
 * The programs are independent: parsed on up to pp->nthreads threads,
 * then kept in the plane's order, as one thread would have.
 */
static void
read_hlo_protos(struct prepass *pp, const struct pf_plane *plane)
{
	struct hlo_protos ps;
	size_t i, j;

	memset(&ps, 0, sizeof ps);
	ps.memory = pp->memory;
	for (i = 0; i < plane->nmetas; i++)
		for (j = 0; j < plane->metas[i].nstats; j++) {
			const struct pf_stat *st = &plane->metas[i].stats[j];

			if (strcmp(st->name, "Hlo Proto") != 0 ||
			    st->kind != PF_BYTES)
				continue;
			ps.v = xreallocarray(ps.v, ps.n + 1, sizeof *ps.v);
			ps.v[ps.n].meta = &plane->metas[i];
			ps.v[ps.n].stat = st;
			ps.v[ps.n].module = NULL;
			ps.v[ps.n++].why = NULL;
		}
	ps.order = xcalloc(ps.n + 1, sizeof *ps.order);
	for (i = 0; i < ps.n; i++)
		ps.order[i] = i;
	qsort_r(ps.order, ps.n, sizeof *ps.order, larger_proto, ps.v);
	pthread_mutex_init(&ps.mu, NULL);
	run_workers(hlo_proto_worker, &ps, pp->nthreads, ps.n);
	pthread_mutex_destroy(&ps.mu);
	for (i = 0; i < ps.n; i++) {
		const struct hlo_module *m = ps.v[i].module;
		char *w;

		if (m != NULL && m->memory_why == NULL) {
			hlo_set_keep(pp->hlo, ps.v[i].module);
			continue;
		}
		if (m != NULL)
			w = xasprintf("/host:metadata: the buffer assignment "
			    "of '%s' is unreadable (%s); its program has no "
			    "memory rows", ps.v[i].meta->name, m->memory_why);
		else
			w = xasprintf("/host:metadata: the HLO of '%s' is "
			    "unreadable (%s); its ops keep their kernel names",
			    ps.v[i].meta->name, ps.v[i].why);
		pp->warnings = xreallocarray(pp->warnings, pp->nwarnings + 1,
		    sizeof *pp->warnings);
		pp->warnings[pp->nwarnings++] = w;
		free(ps.v[i].why);
		if (m != NULL)
			hlo_set_keep(pp->hlo, ps.v[i].module);
	}
	free(ps.order);
	free(ps.v);
}

static int
prepass_plane_begin(void *ctx, const struct pf_plane *plane)
{
	struct prepass *pp = ctx;

	if (strcmp(plane->name, "/host:metadata") == 0) {
		read_hlo_protos(pp, plane);
		return PF_SKIP;
	}
	return pp->steps.plane_begin == NULL ? 0 :
	    pp->steps.plane_begin(pp->steps.ctx, plane);
}

#define FORWARD(cb, params, args) \
static int \
prepass_##cb params \
{ \
	struct prepass *pp = ctx; \
	return pp->steps.cb == NULL ? 0 : pp->steps.cb args; \
}
FORWARD(line_begin, (void *ctx, const struct pf_plane *p,
    const struct pf_line *l), (pp->steps.ctx, p, l))
FORWARD(event, (void *ctx, const struct pf_plane *p, const struct pf_line *l,
    const struct pf_event *e), (pp->steps.ctx, p, l, e))
FORWARD(line_end, (void *ctx, const struct pf_plane *p,
    const struct pf_line *l), (pp->steps.ctx, p, l))
FORWARD(plane_end, (void *ctx, const struct pf_plane *p), (pp->steps.ctx, p))
#undef FORWARD

/*
 * Reads /host:metadata for the programs' HLO into pp; with windows, every
 * plane as the old first pass did, and its step windows into *windows.
 * -1 with *cause when a plane cannot be read.
 */
static int
read_prepass(const struct xspace *xs, struct prepass *pp,
    struct step_windows **windows, char **cause)
{
	struct step_windows *w = steps_prepass_new(&pp->steps);
	char *const *names = xspace_plane_names(xs);
	struct pf_read_stats rs;
	struct pf_handler h;
	size_t i;

	memset(&h, 0, sizeof h);
	h.ctx = pp;
	h.keyed_stats_only = 1;
	h.plane_begin = prepass_plane_begin;
	h.line_begin = prepass_line_begin;
	h.event = prepass_event;
	h.line_end = prepass_line_end;
	h.plane_end = prepass_plane_end;
	memset(&rs, 0, sizeof rs);
	for (i = 0; i < xspace_nplanes(xs); i++)
		if ((windows != NULL ||
		    strcmp(names[i], "/host:metadata") == 0) &&
		    xspace_read_plane(xs, i, &h, &rs, cause) != 0) {
			step_windows_free(w);
			return -1;
		}
	if (windows == NULL) {
		step_windows_free(w);
		return 0;
	}
	step_windows_sort(w);
	*windows = w;
	return 0;
}

/*
 * The pool's pre-pass job: the HLO read, given to the hooks, and to the
 * planes waiting in pool_hlo().  Its error is told before any plane's.
 */
static void
hlo_prepass(struct plane_pool *pool)
{
	const struct load_hooks *hooks = pool->hooks;
	char *cause = NULL;
	int ok, shown = 0;

	ok = read_prepass(pool->xs, pool->pp, NULL, &cause) == 0;
	if (ok && hooks != NULL && hlo_set_count(pool->pp->hlo) > 0) {
		hooks->hlo_read(hooks->ctx, pool->pp->hlo);
		shown = 1;
	}
	if (pool->relay != NULL)
		relay_release(pool->relay, pool->njobs);
	pthread_mutex_lock(&pool->mu);
	pool->hlo = ok ? pool->pp->hlo : NULL;
	pool->pp_cause = cause;
	pool->shown = shown;
	pool->hlo_ready = 1;
	pthread_cond_broadcast(&pool->hlo_cv);
	pthread_mutex_unlock(&pool->mu);
}

/* The programs' HLO once the pre-pass has read it (classify_await_hlo). */
static const struct hlo_set *
pool_hlo(void *arg)
{
	struct plane_pool *pool = arg;
	const struct hlo_set *hlo;

	pthread_mutex_lock(&pool->mu);
	while (!pool->hlo_ready)
		pthread_cond_wait(&pool->hlo_cv, &pool->mu);
	hlo = pool->hlo;
	pthread_mutex_unlock(&pool->mu);
	return hlo;
}

/* The HLO and its warnings become the file's. */
static void
keep_prepass(struct prepass *pp, struct file_summary *fs)
{
	size_t i;

	fs->hlo = pp->hlo;
	pp->hlo = NULL;
	fs->warnings = xreallocarray(fs->warnings,
	    fs->nwarnings + pp->nwarnings + 1, sizeof *fs->warnings);
	for (i = 0; i < pp->nwarnings; i++)
		fs->warnings[fs->nwarnings++] = pp->warnings[i];
	pp->nwarnings = 0;
}

/* A trace JSON's planes, classified apart as an XSpace's are. */
struct json_pool {
	struct json_trace *jt;
	struct step_windows *windows;
	struct plane_job *jobs;
	size_t		 njobs;
	size_t		 next;
	int		 memory;	/* load_hooks.memory */
	pthread_mutex_t	 mu;
};

static void *
json_plane_worker(void *arg)
{
	struct json_pool *pool = arg;

	for (;;) {
		struct plane_job *job;
		struct pf_handler h;
		struct classify *c;
		size_t i;

		pthread_mutex_lock(&pool->mu);
		i = pool->next < pool->njobs ? pool->next++ : SIZE_MAX;
		pthread_mutex_unlock(&pool->mu);
		if (i == SIZE_MAX)
			return NULL;
		job = &pool->jobs[i];
		c = classify_new(&job->fs, NULL, &h);
		classify_gather_steps(c, pool->windows, i, &job->later);
		if (pool->memory)
			classify_read_memory(c, &h);
		job->rc = json_emit_plane(pool->jt, i, &h, &job->cause);
		classify_release(c);
		if (job->rc != 0) {
			/* The first error stands: no more batches read. */
			pthread_mutex_lock(&pool->mu);
			pool->next = pool->njobs;
			pthread_mutex_unlock(&pool->mu);
		}
	}
}

/*
 * Trace JSON: once read (the events kept in memory when they fit the
 * reader's budget), its planes are classified as an XSpace's are, in one
 * pass that gathers the step windows, on nthreads threads where the
 * events are in memory.  Their summaries join the file's
 * in the order the reader emits them.
 */
static int
load_json(const char *path, int nthreads, int memory,
    struct file_summary *fs, char **cause)
{
	struct pf_read_stats rs;
	struct json_pool pool;
	struct pf_handler h;
	struct classify *c;
	char *error = NULL;
	size_t i;

	memset(&pool, 0, sizeof pool);
	pool.memory = memory;
	if (json_open(path, JSON_BATCH_BYTES, &pool.jt, &rs, cause) == -1)
		return -1;
	pool.njobs = json_nplanes(pool.jt);
	pool.windows = step_windows_gather(json_plane_names(pool.jt),
	    pool.njobs);
	pool.jobs = xcalloc(pool.njobs + 1, sizeof *pool.jobs);
	pthread_mutex_init(&pool.mu, NULL);
	run_workers(json_plane_worker, &pool,
	    json_planes_apart(pool.jt) ? nthreads : 1, pool.njobs);
	pthread_mutex_destroy(&pool.mu);
	for (i = 0; i < pool.njobs && error == NULL; i++)
		if (pool.jobs[i].rc != 0)
			error = pool.jobs[i].cause != NULL ?
			    xstrdup(pool.jobs[i].cause) :
			    xstrdup("reading stopped");
	if (error == NULL)
		step_windows_gathered(pool.windows);

	c = classify_new(fs, pool.windows, &h);
	(void)json_emit_space(pool.jt, &h);
	fs->read_stats = rs;
	for (i = 0; i < pool.njobs; i++) {
		struct plane_job *job = &pool.jobs[i];

		free(job->cause);
		classify_steps_later(&job->fs, job->later,
		    error == NULL ? pool.windows : NULL);
		file_summary_absorb(fs, &job->fs);
	}
	classify_finish(c);
	free(pool.jobs);
	step_windows_free(pool.windows);
	json_close(pool.jt);
	if (error != NULL) {
		*cause = error;
		file_summary_release(fs);
		return -1;
	}
	return 0;
}

/*
 * The pre-pass alone: its HLO set (the caller frees it), or NULL with
 * *cause.  With windows, the step windows too (see read_prepass()).
 */
static struct hlo_set *
prepass_only(const struct xspace *xs, struct step_windows **windows,
    char **cause)
{
	struct prepass pp;
	size_t i;

	memset(&pp, 0, sizeof pp);
	pp.hlo = hlo_set_new();
	pp.nthreads = 1;
	if (read_prepass(xs, &pp, windows, cause) == -1) {
		hlo_set_free(pp.hlo);
		pp.hlo = NULL;
	}
	for (i = 0; i < pp.nwarnings; i++)
		free(pp.warnings[i]);
	free(pp.warnings);
	return pp.hlo;
}

/* The error the two-pass reader gave: its first pass's, if any. */
static char *
two_pass_error(const struct xspace *xs, char *one_pass_error)
{
	struct step_windows *w;
	struct hlo_set *set;
	char *cause = NULL;

	if ((set = prepass_only(xs, &w, &cause)) != NULL) {
		step_windows_free(w);
		hlo_set_free(set);
		return one_pass_error;
	}
	free(one_pass_error);
	return cause;
}

struct hlo_set *
load_hlo(const char *path, char **cause)
{
	struct source src;
	struct xspace *xs;
	struct hlo_set *set = NULL;

	if (source_open_check(&src, path, xplane_check_start, cause) == -1)
		return NULL;
	if (xspace_open(&src, path, &xs, cause) == 0) {
		set = prepass_only(xs, NULL, cause);
		xspace_free(xs);
	}
	source_close(&src);
	return set;
}

/* The planes in the order they are read: host planes first. */
static size_t *
plane_order(const struct xspace *xs)
{
	char *const *names = xspace_plane_names(xs);
	size_t i, n = 0, *order = xcalloc(xspace_nplanes(xs) + 1,
	    sizeof *order);
	int host;

	for (host = 1; host >= 0; host--)
		for (i = 0; i < xspace_nplanes(xs); i++)
			if ((strncmp(names[i], "/host:", 6) == 0) == host)
				order[n++] = i;
	return order;
}

/* An XSpace whose bytes src holds; path names it in messages. */
static int
load_xspace(struct source *src, const char *path, int nthreads,
    const struct load_hooks *hooks, struct file_summary *fs, char **cause)
{
	struct plane_pool pool;
	struct prepass pp;
	struct step_windows *windows = NULL;
	struct pf_handler h;
	struct classify *c;
	struct xspace *xs = NULL;
	char *error = NULL;
	size_t i;
	int rc = -1;

	memset(&pool, 0, sizeof pool);
	memset(&pp, 0, sizeof pp);
	pp.hlo = hlo_set_new();
	pp.nthreads = nthreads;
	pp.memory = hooks != NULL && hooks->memory;
	if (xspace_open(src, path, &xs, cause) == -1)
		goto out;
	windows = step_windows_gather(xspace_plane_names(xs),
	    xspace_nplanes(xs));

	pool.xs = xs;
	pool.windows = windows;
	pool.pp = &pp;
	pool.hooks = hooks;
	pool.njobs = xspace_nplanes(xs);
	pool.jobs = xcalloc(pool.njobs + 1, sizeof *pool.jobs);
	for (i = 0; i < pool.njobs; i++) {
		pool.jobs[i].pool = &pool;
		pool.jobs[i].plane = i;
	}
	pool.relay = relay_new(hooks, xs);
	pool.order = plane_order(xs);
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.hlo_cv, NULL);
	/* The pre-pass is a job too: on two cores, beside the host plane. */
	run_workers(plane_worker, &pool, nthreads, pool.njobs + 1);
	pthread_cond_destroy(&pool.hlo_cv);
	pthread_mutex_destroy(&pool.mu);

	if (pool.pp_cause != NULL)
		error = two_pass_error(xs, pool.pp_cause);
	for (i = 0; i < pool.njobs && error == NULL; i++)
		if (pool.jobs[i].rc != 0)
			error = two_pass_error(xs, pool.jobs[i].cause != NULL ?
			    xstrdup(pool.jobs[i].cause) :
			    xstrdup("reading stopped"));
	if (error == NULL)
		step_windows_gathered(windows);

	/* The planes' summaries join the file's in file order. */
	c = classify_new(fs, windows, &h);
	(void)xspace_read_space(xs, &h);
	fs->read_stats.bytes = src->size;
	for (i = 0; i < pool.njobs; i++) {
		struct plane_job *job = &pool.jobs[i];

		free(job->cause);
		classify_steps_later(&job->fs, job->later,
		    error == NULL ? windows : NULL);
		job->fs.read_stats = job->rs;
		file_summary_absorb(fs, &job->fs);
	}
	classify_finish(c);
	keep_prepass(&pp, fs);
	if (error == NULL)
		rc = 0;
	else {
		*cause = error;
		if (pool.shown)
			hooks->hlo_gone(hooks->ctx);
		file_summary_release(fs);	/* and the HLO */
	}
out:
	hlo_set_free(pp.hlo);
	for (i = 0; i < pp.nwarnings; i++)
		free(pp.warnings[i]);
	free(pp.warnings);
	relay_free(pool.relay, pool.njobs);
	free(pool.jobs);
	free(pool.order);
	step_windows_free(windows);
	xspace_free(xs);
	return rc;
}

int
load_xspace_file(const char *path, int nthreads,
    const struct load_hooks *hooks, struct file_summary *fs, char **cause)
{
	struct source src;
	int rc;

	if (source_open_check(&src, path, xplane_check_start, cause) == -1)
		return -1;
	rc = load_xspace(&src, path, nthreads, hooks, fs, cause);
	source_close(&src);
	return rc;
}

int
load_xspace_bytes(const char *path, const uint8_t *data, size_t size,
    int nthreads, const struct load_hooks *hooks, struct file_summary *fs,
    char **cause)
{
	struct source src;
	int rc;

	source_borrow(&src, data, size);
	rc = load_xspace(&src, path, nthreads, hooks, fs, cause);
	source_close(&src);
	return rc;
}

int
load_json_file(const char *path, int nthreads,
    const struct load_hooks *hooks, struct file_summary *fs, char **cause)
{
	/* A trace JSON has no HLO, and keeps its host events. */
	return load_json(path, nthreads, hooks != NULL && hooks->memory, fs,
	    cause);
}
