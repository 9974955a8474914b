/*
 * Bringing the index up to date with the files found: which to read,
 * reading them in worker threads, storing them in order.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "classify/classify.h"
#include "lib/cpu.h"
#include "lib/err.h"
#include "load/formats.h"
#include "index/index-db.h"
#include "index/index-write.h"
#include "index/index.h"
#include "load/load.h"
#include "input/read-archive.h"
#include "index/run-totals.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

/* Files read at once, at most (and no more than there are CPUs). */
#define MAX_THREADS	64
/*
 * Files read ahead of the store, per thread: what bounds memory, since a
 * read file waits as its summary until it is stored.
 */
#define READ_AHEAD	2
/* A batch of stores commits after this long (see struct batch). */
#define BATCH_NS	(250 * 1000000LL)
/*
 * A file's store begins with its HLO, while its planes are still read
 * (pool_wait()), only up to this size: one read in about BATCH_NS.  The
 * store holds the write lock until the file is read: a big file's load
 * would hold it for seconds.
 */
#define EARLY_STORE_MAX_BYTES	((int64_t)64 << 20)

/*
 * Stores commit in batches: one transaction a file costs more than
 * storing a small one (an archive of many entries).  A batch commits
 * once BATCH_NS have passed since it began, whether the store is busy or
 * waiting for a file still being read, so the write lock is not held
 * much longer (a small file's store begun early commits with the file),
 * and an interrupted index loses at most one batch: the next run reads
 * only the files not committed yet.
 */
struct batch {
	int		 open;
	struct timespec	 deadline;	/* on CLOCK_MONOTONIC */
};

static int
batch_join(struct index *ix, struct batch *b, char **cause)
{
	if (b->open)
		return 0;
	if (index_exec(ix, "BEGIN IMMEDIATE", cause) == -1)
		return -1;
	b->open = 1;
	clock_gettime(CLOCK_MONOTONIC, &b->deadline);
	b->deadline.tv_nsec += BATCH_NS % 1000000000;
	b->deadline.tv_sec += BATCH_NS / 1000000000 +
	    b->deadline.tv_nsec / 1000000000;
	b->deadline.tv_nsec %= 1000000000;
	return 0;
}

static int
batch_commit(struct index *ix, struct batch *b, char **cause)
{
	if (!b->open)
		return 0;
	b->open = 0;
	if (index_exec(ix, "COMMIT", cause) == 0)
		return 0;
	sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Commits the batch if its time is up. */
static int
batch_tick(struct index *ix, struct batch *b, char **cause)
{
	struct timespec now;

	if (!b->open)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec < b->deadline.tv_sec ||
	    (now.tv_sec == b->deadline.tv_sec &&
	    now.tv_nsec < b->deadline.tv_nsec))
		return 0;
	return batch_commit(ix, b, cause);
}

static int
select_file(struct index *ix, sqlite3_int64 id, char **cause)
{
	sqlite3_stmt *st;

	st = index_cached(ix, "INSERT OR IGNORE INTO selected VALUES (?)");
	sqlite3_bind_int64(st, 1, id);
	return index_step(ix, st, cause);
}

static int
found_has(const struct found *f, const char *path)
{
	size_t lo = 0, hi = f->nfiles;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(f->files[mid].path, path);

		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Drops indexed files under the roots that no longer exist. */
static int
drop_deleted(struct index *ix, const struct found *f, struct batch *b,
    char **cause)
{
	sqlite3_stmt *st;
	char **gone = NULL;
	size_t ngone = 0, i;
	int rc = 0;

	st = index_prepare(ix, "SELECT path FROM files WHERE path = ?1 OR "
	    "substr(path, 1, length(?1) + 1) = ?1 || '/'");
	for (i = 0; i < f->nroots; i++) {
		index_bind_text(st, 1, f->roots[i]);
		while (index_row(st)) {
			const char *path =
			    (const char *)sqlite3_column_text(st, 0);
			struct stat sb;

			if (found_has(f, path) || stat(path, &sb) == 0)
				continue;
			gone = xreallocarray(gone, ngone + 1, sizeof *gone);
			gone[ngone++] = xstrdup(path);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	for (i = 0; i < ngone; i++) {
		if (rc == 0 && (batch_join(ix, b, cause) == -1 ||
		    index_forget_file(ix, gone[i], cause) == -1))
			rc = -1;
		free(gone[i]);
	}
	free(gone);
	return rc;
}

/* Whether a and b are in the same folder. */
static int
same_dir(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	return sa != NULL && sb != NULL && sa - a == sb - b &&
	    strncmp(a, b, (size_t)(sa - a)) == 0;
}

/* The file name at the end of path. */
static const char *
path_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/*
 * Whether file i of f is read.  A run folder's trace JSON holds the same
 * events as its XSpace, and JAX's perfetto_trace.json.gz is a copy of
 * <host>.trace.json.gz: reading both would count everything twice, so a
 * file is read unless its folder holds one of a lower rank (formats.c:
 * the XSpace, then the host's JSON).  Skipped files are still listed.
 */
static int
worth_reading(const struct found *f, size_t i)
{
	const struct found_file *ff = &f->files[i];
	int rank = format_rank(ff->kind, path_base_name(ff->path)), other;
	size_t j;

	if (rank < 0)
		return 0;
	for (j = 0; j < f->nfiles; j++) {
		const struct found_file *o = &f->files[j];

		if (j == i || !same_dir(o->path, ff->path))
			continue;
		other = format_rank(o->kind, path_base_name(o->path));
		if (other >= 0 && other < rank)
			return 0;
	}
	return 1;
}

/*
 * Files to read are parsed by worker threads (hosts are independent) and
 * stored by the calling thread in order, in batches.
 */
/* Archive entries up to this size wait in memory, this much in all. */
#define SPOOL_MEM_ENTRY		((int64_t)4 << 20)
#define SPOOL_MEM_TOTAL		((size_t)256 << 20)

struct job {
	struct pool	*pool;
	const struct found_file *ff;
	char		*spool;		/* its archive entry's bytes, or NULL */
	uint8_t		*mem;		/* or those bytes in memory */
	size_t		 memlen;
	struct file_summary fs;
	char		*cause;		/* set when rc is -1 */
	char		*looks;		/* an entry's found_looks_like_entry() */
	int		 rc;
	int		 done;
	/* Its HLO, read before its planes (struct load_hooks), or NULL. */
	const struct hlo_set *hlo;
	int		 hlo_busy;	/* being stored ahead of the planes */
	/* Long host events given while its planes are read, to store. */
	struct host_event_batch *host_events, **host_events_end;
	struct file_store store;	/* the calling thread's alone */
};

struct pool {
	struct job	*jobs;
	size_t		 njobs;
	size_t		 next;		/* the next job a worker takes */
	size_t		 stored;	/* jobs stored (and freed) so far */
	size_t		 ahead;		/* jobs read ahead of the store, at most */
	int		 plane_threads;	/* per file: CPUs left to its planes */
	/*
	 * Host events are stored while read (small files): only with a CPU
	 * to spare, since on one they would only interrupt the reading.
	 */
	int		 host_events_ahead;
	int		 events;	/* the index stores host events */
	int		 memory;	/* and the memory tables */
	pthread_mutex_t	 mu;
	pthread_cond_t	 done;		/* a job is read, or its HLO */
	pthread_cond_t	 room;		/* a job is stored */
	pthread_cond_t	 hlo_idle;	/* a job's HLO is stored */
};

/* A new private folder in $TMPDIR (or /tmp), its path in buf. */
static int
temp_dir(char *buf)
{
	const char *dir = getenv("TMPDIR");

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if (snprintf(buf, PATH_MAX, "%s/jaxprof-archive.XXXXXX", dir) >=
	    PATH_MAX || mkdtemp(buf) == NULL) {
		*buf = '\0';
		return -1;
	}
	return 0;
}

/*
 * Archive entries: read on their own, each would cost a pass over its
 * archive up to it.  One pass per archive copies all the entries to read
 * into files of a temporary folder instead; a job whose entry is not
 * copied (the archive cannot be read) reads it the slow way and reports
 * the error itself.  Jobs are grouped by archive and found by entry name
 * through hash maps, so the cost is linear in entries and jobs.
 */
static void
spool_archives(struct pool *p, char *tmpdir, size_t *mem_total)
{
	size_t slen = strlen(ARCHIVE_ENTRY_SEP);
	struct strmap archives;
	size_t *head, *next, i, j, a;

	strmap_init(&archives);
	next = xcalloc(p->njobs + 1, sizeof *next);
	head = NULL;
	/* Each archive's jobs, in job order: head[a], then next[j]. */
	for (i = p->njobs; i-- > 0; ) {
		const char *sep = strstr(p->jobs[i].ff->path, ARCHIVE_ENTRY_SEP);
		size_t n = archives.n;

		next[i] = SIZE_MAX;
		if (sep == NULL || p->jobs[i].spool != NULL)
			continue;
		a = strmap_intern(&archives, p->jobs[i].ff->path,
		    (size_t)(sep - p->jobs[i].ff->path));
		if (archives.n > n) {
			head = xreallocarray(head, archives.n, sizeof *head);
			head[a] = SIZE_MAX;
		}
		next[i] = head[a];
		head[a] = i;
	}
	for (a = 0; a < archives.n; a++) {
		const char *archive = archives.strings[a];
		size_t alen = archives.lengths[a];
		struct strmap entries;
		struct arc_reader *r;
		struct arc_entry e;
		size_t *job_of = NULL;
		char *cause = NULL;

		if (arc_open(&r, archive, &cause) == -1) {
			free(cause);
			continue;
		}
		strmap_init(&entries);
		for (j = head[a]; j != SIZE_MAX; j = next[j]) {
			const char *entry = p->jobs[j].ff->path + alen + slen;
			size_t n = entries.n;
			uint32_t id = strmap_intern(&entries, entry,
			    strlen(entry));

			if (entries.n > n) {
				job_of = xreallocarray(job_of, entries.n,
				    sizeof *job_of);
				job_of[id] = j;
			}
		}
		while (arc_next(r, &e, &cause) == 1) {
			int64_t id = strmap_find(&entries, e.name,
			    strlen(e.name));
			struct job *jb;
			char *spool;
			int fd;

			if (id < 0)
				continue;
			j = job_of[id];
			jb = &p->jobs[j];
			if (jb->spool != NULL || jb->mem != NULL)
				continue;
			/*
			 * Small entries wait in memory: a file apiece costs
			 * more than reading them.
			 */
			if (e.size >= 0 && e.size <= SPOOL_MEM_ENTRY &&
			    *mem_total + (size_t)e.size <= SPOOL_MEM_TOTAL) {
				if (arc_read(r, SPOOL_MEM_ENTRY, &jb->mem,
				    &jb->memlen, &cause) == 0)
					*mem_total += jb->memlen;
				free(cause);
				cause = NULL;
				continue;
			}
			/* No folder for spools: the job reads it itself. */
			if (*tmpdir == '\0' && temp_dir(tmpdir) == -1)
				continue;
			spool = xasprintf("%s/entry-%zu", tmpdir, j);
			fd = open(spool, O_WRONLY | O_CREAT | O_EXCL |
			    O_CLOEXEC, 0600);
			if (fd != -1 && arc_copy(r, fd, -1, &cause) != -1)
				p->jobs[j].spool = spool;
			else {
				free(cause);
				cause = NULL;
				(void)unlink(spool);
				free(spool);
			}
			if (fd != -1)
				close(fd);
		}
		free(cause);
		arc_close(r);
		strmap_release(&entries);
		free(job_of);
	}
	strmap_release(&archives);
	free(head);
	free(next);
}

/* A job's HLO is read: the calling thread may store it (pool_wait()). */
static void
job_hlo_read(void *ctx, const struct hlo_set *hlo)
{
	struct job *j = ctx;

	pthread_mutex_lock(&j->pool->mu);
	j->hlo = hlo;
	pthread_cond_broadcast(&j->pool->done);
	pthread_mutex_unlock(&j->pool->mu);
}

/* A job's load failed: its HLO is freed once no longer being stored. */
static void
job_hlo_gone(void *ctx)
{
	struct job *j = ctx;

	pthread_mutex_lock(&j->pool->mu);
	j->hlo = NULL;
	while (j->hlo_busy)
		pthread_cond_wait(&j->pool->hlo_idle, &j->pool->mu);
	pthread_mutex_unlock(&j->pool->mu);
}

/* A batch of a job's host events: the calling thread stores it. */
static void
job_host_events(void *ctx, struct host_event_batch *b)
{
	struct job *j = ctx;

	pthread_mutex_lock(&j->pool->mu);
	b->next = NULL;
	*j->host_events_end = b;
	j->host_events_end = &b->next;
	pthread_cond_broadcast(&j->pool->done);
	pthread_mutex_unlock(&j->pool->mu);
}

/* Host events an index without host_events drops as they come. */
static void
discard_host_events(void *ctx, struct host_event_batch *b)
{
	(void)ctx;
	host_event_batch_free(b);
}

/* Takes job j's waiting host events off it (its waiting list emptied). */
static struct host_event_batch *
job_take_host_events(struct job *j)
{
	struct host_event_batch *b = j->host_events;

	j->host_events = NULL;
	j->host_events_end = &j->host_events;
	return b;
}

static void *
worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		struct load_hooks hooks = { job_hlo_read, job_hlo_gone, NULL,
		    NULL, p->memory };
		struct job *j;

		pthread_mutex_lock(&p->mu);
		while (p->next < p->njobs && p->next >= p->stored + p->ahead)
			pthread_cond_wait(&p->room, &p->mu);
		if (p->next == p->njobs) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		j = &p->jobs[p->next++];
		pthread_mutex_unlock(&p->mu);
		hooks.ctx = j;
		if (!p->events)
			hooks.host_events = discard_host_events;
		else if (p->host_events_ahead &&
		    j->ff->size <= EARLY_STORE_MAX_BYTES)
			hooks.host_events = job_host_events;
		if (j->mem != NULL)
			j->rc = load_memory(j->ff->path, j->mem, j->memlen,
			    j->ff->kind, p->plane_threads, &hooks, &j->fs,
			    &j->cause);
		else
			j->rc = load_file(j->spool != NULL ? j->spool :
			    j->ff->path, j->ff->kind, p->plane_threads, &hooks,
			    &j->fs, &j->cause);
		if (j->rc == -1 && (j->mem != NULL || j->spool != NULL))
			j->looks = found_looks_like_entry(j->ff, j->mem,
			    j->memlen, j->spool);
		free(j->mem);
		j->mem = NULL;
		pthread_mutex_lock(&p->mu);
		j->done = 1;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Stores batches of host events into a begun store, and frees them. */
static int
store_host_events(struct index *ix, struct file_store *fst,
    struct host_event_batch *b, char **cause)
{
	while (b != NULL) {
		struct host_event_batch *next = b->next;
		int rc = index_store_host_events(ix, fst, b, cause);

		host_event_batch_free(b);
		b = next;
		if (rc == -1) {
			host_event_batches_free(b);
			return -1;
		}
	}
	return 0;
}

/* Stores one finished job; -1 on a database error (*cause set). */
static int
store_job(struct index *ix, struct job *j, sqlite3_int64 *id, int *bad,
    char **cause)
{
	const struct pf_read_stats *rs = &j->fs.read_stats;
	struct host_event_batch *waiting;
	int rc;

	if (j->spool != NULL) {
		(void)unlink(j->spool);
		free(j->spool);
		j->spool = NULL;
	}
	if (j->rc == -1) {
		char *shown = found_display_path(j->ff->path);
		char *looks = j->looks != NULL ? j->looks :
		    found_looks_like(j->ff);

		/*
		 * Its HLO and host events may be stored already: the file
		 * goes as a whole.
		 */
		index_store_abandon(ix, &j->store);
		host_event_batches_free(job_take_host_events(j));
		if (looks != NULL)
			jp_warnx("cannot read '%s': %s (%s)", shown, j->cause,
			    looks);
		else
			jp_warnx("cannot read '%s': %s", shown, j->cause);
		free(looks);
		free(shown);
		free(j->cause);
		j->cause = NULL;
		(*bad)++;
		*id = -1;
		return index_forget_file(ix, j->ff->path, cause);
	}
	if (rs->missing_event_metadata + rs->missing_stat_metadata > 0)
		jp_warnx("warning: '%s': %llu events and %llu stats refer to "
		    "missing metadata; their names are empty", j->ff->path,
		    (unsigned long long)rs->missing_event_metadata,
		    (unsigned long long)rs->missing_stat_metadata);
	/* Host events still waiting: the summary holds none of them. */
	waiting = job_take_host_events(j);
	if (waiting != NULL && !j->store.begun &&
	    index_store_begin(ix, j->ff, j->fs.hlo, &j->store, cause) == -1) {
		host_event_batches_free(waiting);
		rc = -1;
	} else
		rc = store_host_events(ix, &j->store, waiting, cause);
	if (rc == 0 && j->store.begun)
		rc = index_store_finish(ix, &j->store, &j->fs, id, cause);
	else if (rc == 0)
		rc = index_store_file(ix, j->ff, &j->fs, id, cause);
	file_summary_release(&j->fs);
	return rc;
}

/* Job j is stored: a worker may read one more ahead. */
static void
pool_stored(struct pool *p, size_t j)
{
	pthread_mutex_lock(&p->mu);
	p->stored = j + 1;
	pthread_cond_broadcast(&p->room);
	pthread_mutex_unlock(&p->mu);
}

/*
 * Begins job j's store ahead of its planes, with its HLO if read (called
 * with p->mu held).
 */
static int
pool_store_begin(struct pool *p, struct job *j, struct index *ix,
    struct batch *b, char **cause)
{
	int rc;

	j->hlo_busy = 1;
	pthread_mutex_unlock(&p->mu);
	rc = batch_join(ix, b, cause) == -1 ? -1 :
	    index_store_begin(ix, j->ff, j->hlo, &j->store, cause);
	pthread_mutex_lock(&p->mu);
	j->hlo_busy = 0;
	pthread_cond_broadcast(&p->hlo_idle);
	return rc;
}

/*
 * Stores the host events given so far while job j is read (called with
 * p->mu held, its store begun).
 */
static int
pool_store_host_events(struct pool *p, struct job *j, struct index *ix,
    char **cause)
{
	struct host_event_batch *b = job_take_host_events(j);
	int rc;

	pthread_mutex_unlock(&p->mu);
	rc = store_host_events(ix, &j->store, b, cause);
	pthread_mutex_lock(&p->mu);
	return rc;
}

/*
 * Waits until job j is read, storing its HLO and host events as soon as
 * they are read when the file is small (EARLY_STORE_MAX_BYTES).  An open
 * batch waits only until its time is up, then commits: the write lock is
 * held BATCH_NS at most, busy or not, except by a file whose store has
 * begun: that commits with the rest of the file.
 */
static int
pool_wait(struct pool *p, size_t j, struct index *ix, struct batch *b,
    char **cause)
{
	struct job *jb = &p->jobs[j];
	int rc = 0;

	pthread_mutex_lock(&p->mu);
	while (!jb->done && rc == 0) {
		if ((jb->hlo != NULL || jb->host_events != NULL) &&
		    !jb->store.begun &&
		    jb->ff->size <= EARLY_STORE_MAX_BYTES)
			rc = pool_store_begin(p, jb, ix, b, cause);
		else if (jb->host_events != NULL && jb->store.begun)
			rc = pool_store_host_events(p, jb, ix, cause);
		else if (!b->open || jb->store.begun)
			pthread_cond_wait(&p->done, &p->mu);
		else if (pthread_cond_timedwait(&p->done, &p->mu,
		    &b->deadline) != 0) {	/* its time is up */
			pthread_mutex_unlock(&p->mu);
			rc = batch_commit(ix, b, cause);
			pthread_mutex_lock(&p->mu);
		}
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

/* The files found, as the selected table of this run's reports. */
static int
select_files(struct index *ix, const sqlite3_int64 *ids, size_t n,
    char **cause)
{
	size_t i;

	/* Only the temporary table is written: no lock on the index. */
	if (index_exec(ix, "BEGIN", cause) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (ids[i] != -1 && select_file(ix, ids[i], cause) == -1) {
			sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	return index_exec(ix, "COMMIT", cause);
}

int
index_refresh(struct index *ix, const struct found *f)
{
	struct pool pool;
	struct batch batch = { 0 };
	pthread_condattr_t monotonic;
	pthread_t *threads;
	sqlite3_int64 *ids = xcalloc(f->nfiles + 1, sizeof *ids);
	size_t *job_of = xcalloc(f->nfiles + 1, sizeof *job_of);
	char *cause = NULL, tmpdir[PATH_MAX] = "";
	size_t i, nthreads = 0, mem_total = 0;
	size_t ncpus = cpu_usable();
	size_t max_threads = ncpus < MAX_THREADS ? ncpus : MAX_THREADS;
	int bad = 0, rc = -1;

	memset(&pool, 0, sizeof pool);
	pthread_mutex_init(&pool.mu, NULL);
	/* Batches keep time on the monotonic clock; waits for them too. */
	pthread_condattr_init(&monotonic);
	pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
	pthread_cond_init(&pool.done, &monotonic);
	pthread_condattr_destroy(&monotonic);
	pthread_cond_init(&pool.room, NULL);
	pthread_cond_init(&pool.hlo_idle, NULL);
	threads = xcalloc(max_threads, sizeof *threads);
	if (index_exec(ix, "DELETE FROM selected", &cause) == -1)
		goto out;
	/*
	 * Which files need reading, looked up in one read transaction: one
	 * each locks and stats the index again per file.
	 */
	pool.jobs = xcalloc(f->nfiles + 1, sizeof *pool.jobs);
	if (index_exec(ix, "SAVEPOINT checks", &cause) == -1)
		goto out;
	for (i = 0; i < f->nfiles; i++) {
		/*
		 * Read or listed as the files beside it say now: a trace
		 * JSON read before its XSpace was found, or while that could
		 * not be read (report_open()), would count twice.
		 */
		int read = worth_reading(f, i);

		job_of[i] = SIZE_MAX;
		if (index_is_current(ix, &f->files[i], read, &ids[i]))
			continue;
		if (ix->readonly)
			break;
		ids[i] = -1;
		if (read) {
			job_of[i] = pool.njobs;
			pool.jobs[pool.njobs].host_events_end =
			    &pool.jobs[pool.njobs].host_events;
			pool.jobs[pool.njobs].pool = &pool;
			pool.jobs[pool.njobs++].ff = &f->files[i];
		}
	}
	if (index_exec(ix, "RELEASE checks", &cause) == -1)
		goto out;
	if (i < f->nfiles) {	/* read-only, and a file is new or changed */
		char *shown = found_display_path(f->files[i].path);

		cause = xasprintf("the index is read-only and needs "
		    "refreshing for '%s' (new or changed); %s", shown,
		    INDEX_WRITABLE_HINT);
		free(shown);
		goto out;
	}
	spool_archives(&pool, tmpdir, &mem_total);
	/* Fewer files than CPUs: the others read planes of a file. */
	pool.plane_threads = pool.njobs == 0 ? 1 : (int)(ncpus / pool.njobs);
	if (pool.plane_threads < 1)
		pool.plane_threads = 1;
	pool.host_events_ahead = ncpus > 1;
	pool.events = ix->events;
	pool.memory = ix->memory;
	pool.ahead = READ_AHEAD * max_threads;
	while (nthreads < max_threads && nthreads < pool.njobs &&
	    pthread_create(&threads[nthreads], NULL, worker, &pool) == 0)
		nthreads++;
	if (nthreads == 0) {
		pool.ahead = pool.njobs;
		worker(&pool);	/* no thread could start: read here */
	}
	for (i = 0; i < f->nfiles; i++) {
		const struct found_file *ff = &f->files[i];

		if (job_of[i] != SIZE_MAX) {
			if (pool_wait(&pool, job_of[i], ix, &batch,
			    &cause) == -1 ||
			    batch_join(ix, &batch, &cause) == -1 ||
			    store_job(ix, &pool.jobs[job_of[i]], &ids[i],
			    &bad, &cause) == -1)
				goto out;
			pool_stored(&pool, job_of[i]);
		} else if (ids[i] == -1 && (batch_join(ix, &batch,
		    &cause) == -1 ||
		    index_store_file(ix, ff, NULL, &ids[i], &cause) == -1))
			goto out;
		if (batch_tick(ix, &batch, &cause) == -1)
			goto out;
	}
	if (!ix->readonly && drop_deleted(ix, f, &batch, &cause) == -1)
		goto out;
	/*
	 * Run totals are rebuilt in the last batch, a commit (and a
	 * journal) fewer; with no batch open, in a transaction of their own.
	 */
	if ((batch.open && run_totals_rebuild(ix, 1, &cause) == -1) ||
	    batch_commit(ix, &batch, &cause) == -1 ||
	    run_totals_rebuild(ix, 0, &cause) == -1 ||
	    select_files(ix, ids, f->nfiles, &cause) == -1)
		goto out;
	rc = bad;
out:
	if (rc == -1) {
		jp_warnx("index '%s': %s", ix->path,
		    cause != NULL ? cause : "error");
		free(cause);
		cause = NULL;
		/* What is stored stays; the workers stop after their job. */
		if (batch_commit(ix, &batch, &cause) == -1)
			free(cause);
		pthread_mutex_lock(&pool.mu);
		pool.next = pool.njobs;
		pthread_cond_broadcast(&pool.room);
		pthread_mutex_unlock(&pool.mu);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	if (rc == -1)
		for (i = 0; i < pool.njobs; i++) {
			if (pool.jobs[i].done && pool.jobs[i].rc == 0)
				file_summary_release(&pool.jobs[i].fs);
			else if (pool.jobs[i].done)
				free(pool.jobs[i].cause);
		}
	pthread_mutex_destroy(&pool.mu);
	pthread_cond_destroy(&pool.done);
	pthread_cond_destroy(&pool.room);
	pthread_cond_destroy(&pool.hlo_idle);
	/* Spools left by an error: nothing else removes them. */
	for (i = 0; i < pool.njobs; i++) {
		host_event_batches_free(pool.jobs[i].host_events);
		free(pool.jobs[i].mem);
		if (pool.jobs[i].spool != NULL) {
			(void)unlink(pool.jobs[i].spool);
			free(pool.jobs[i].spool);
		}
	}
	if (*tmpdir != '\0')
		(void)rmdir(tmpdir);
	free(pool.jobs);
	free(threads);
	free(ids);
	free(job_of);
	return rc;
}
