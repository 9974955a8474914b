/* One profile file to a file_summary: two passes, planes in parallel. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "read-json.h"
#include "read-xplane.h"
#include "source.h"
#include "xmalloc.h"

/* One plane, classified into a summary of its own. */
struct plane_job {
	struct file_summary fs;
	struct pf_read_stats rs;
	char		*cause;
	int		 rc;
};

struct plane_pool {
	const struct xspace *xs;
	const struct step_windows *windows;
	struct plane_job *jobs;
	size_t		 njobs;
	size_t		 next;
	pthread_mutex_t	 mu;
};

static void *
plane_worker(void *arg)
{
	struct plane_pool *pool = arg;

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
		c = classify_new(&job->fs, pool->windows, &h);
		job->rc = xspace_read_plane(pool->xs, i, &h, &job->rs,
		    &job->cause);
		classify_release(c);
	}
}

/* The first pass: step boundaries from Steps lines and host steps. */
static struct step_windows *
read_windows(const struct xspace *xs, char **cause)
{
	struct pf_read_stats rs;
	struct pf_handler h;
	struct step_windows *w = steps_prepass_new(&h);
	size_t i;

	memset(&rs, 0, sizeof rs);
	for (i = 0; i < xspace_nplanes(xs); i++)
		if (xspace_read_plane(xs, i, &h, &rs, cause) != 0) {
			step_windows_free(w);
			return NULL;
		}
	step_windows_sort(w);
	return w;
}

/*
 * Trace JSON: the reader re-reads the file for each pass itself, and
 * emits its planes in order (no plane of its own to hand to threads).
 */
static int
load_json(const char *path, struct file_summary *fs, char **cause)
{
	struct pf_read_stats rs;
	struct step_windows *windows;
	struct pf_handler h;
	struct classify *c;
	int rc;

	windows = steps_prepass_new(&h);
	if (json_read(path, &h, &rs, cause) != 0) {
		step_windows_free(windows);
		return -1;
	}
	step_windows_sort(windows);
	c = classify_new(fs, windows, &h);
	rc = json_read(path, &h, &fs->read_stats, cause);
	classify_finish(c);
	step_windows_free(windows);
	if (rc != 0) {
		file_summary_release(fs);
		return -1;
	}
	return 0;
}

int
load_file(const char *path, enum file_kind kind, int nthreads,
    struct file_summary *fs, char **cause)
{
	struct plane_pool pool;
	pthread_t threads[16];
	struct step_windows *windows = NULL;
	struct pf_handler h;
	struct classify *c;
	struct source src;
	struct xspace *xs = NULL;
	char *error = NULL;
	size_t i, nstarted = 0;
	int rc = -1;

	memset(fs, 0, sizeof *fs);
	memset(&pool, 0, sizeof pool);
	if (kind == KIND_TRACE_JSON)
		return load_json(path, fs, cause);
	if (source_open(&src, path, cause) == -1)
		return -1;
	if (xspace_open(&src, path, &xs, cause) == -1 ||
	    (windows = read_windows(xs, cause)) == NULL)
		goto out;

	pool.xs = xs;
	pool.windows = windows;
	pool.njobs = xspace_nplanes(xs);
	pool.jobs = xcalloc(pool.njobs + 1, sizeof *pool.jobs);
	pthread_mutex_init(&pool.mu, NULL);
	while ((int)nstarted + 1 < nthreads && nstarted + 1 < pool.njobs &&
	    nstarted < sizeof threads / sizeof threads[0] &&
	    pthread_create(&threads[nstarted], NULL, plane_worker,
	    &pool) == 0)
		nstarted++;
	plane_worker(&pool);	/* this thread works too */
	for (i = 0; i < nstarted; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&pool.mu);

	/* The planes' summaries join the file's in file order. */
	c = classify_new(fs, windows, &h);
	(void)xspace_read_space(xs, &h);
	fs->read_stats.bytes = src.size;
	for (i = 0; i < pool.njobs; i++) {
		struct plane_job *job = &pool.jobs[i];

		if (job->rc != 0 && error == NULL) {
			error = job->cause != NULL ? job->cause :
			    xstrdup("reading stopped");
			job->cause = NULL;
		}
		free(job->cause);
		job->fs.read_stats = job->rs;
		file_summary_absorb(fs, &job->fs);
	}
	classify_finish(c);
	if (error == NULL)
		rc = 0;
	else {
		*cause = error;
		file_summary_release(fs);
	}
out:
	free(pool.jobs);
	step_windows_free(windows);
	xspace_free(xs);
	source_close(&src);
	return rc;
}
