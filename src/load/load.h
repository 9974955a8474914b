/*
 * Reading one profile file into a file_summary: an XSpace's planes are
 * classified in one pass, several at once, a trace JSON's events after a
 * first pass for the step boundaries.
 *
 *	struct file_summary fs;
 *	if (load_file(ff->path, ff->kind, 2, NULL, &fs, &cause) == -1) ...
 *	... file_summary_release(&fs);
 *
 * load_file() and load_memory() (formats.h) take the reader of a kind
 * from the formats' table; these are the readers.
 */
#ifndef JAXPROF_LOAD_H
#define JAXPROF_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "classify/classify.h"

/*
 * What a load tells its caller as it goes, from the load's threads.
 * hlo_read: an XSpace's programs' HLO is read (while planes that need
 * none are), before host_events has any; another thread may read the
 * set (and nothing else of the load) until the load returns 0, when the
 * set is fs->hlo, or until hlo_gone, from the loading thread, which must
 * wait until that thread is done with it: the load failed and frees the
 * set.  Not called for a file without HLO.
 */
struct load_hooks {
	void	(*hlo_read)(void *ctx, const struct hlo_set *hlo);
	void	(*hlo_gone)(void *ctx);
	/*
	 * Given (may be NULL): takes an XSpace's long host events in
	 * batches as its host planes are read (the summary keeps none),
	 * planes in file order, each plane's in its order; from any of
	 * the load's threads, one call at a time.  If the load fails, what
	 * it took is incomplete.
	 */
	void	(*host_events)(void *ctx, struct host_event_batch *b);
	void	*ctx;
	/*
	 * Nonzero: the allocators' events (plane_summary.memory) and the
	 * programs' buffer assignments (hlo_module.memory) are read too;
	 * without hooks, or with 0, neither is.
	 */
	int	 memory;
};

/*
 * An XSpace at path (planes in up to nthreads threads), or the size plain
 * bytes at data read from path; a trace JSON file.  As load_file().
 */
int	load_xspace_file(const char *path, int nthreads,
	    const struct load_hooks *hooks, struct file_summary *fs,
	    char **cause);
int	load_xspace_bytes(const char *path, const uint8_t *data, size_t size,
	    int nthreads, const struct load_hooks *hooks,
	    struct file_summary *fs, char **cause);
int	load_json_file(const char *path, int nthreads,
	    const struct load_hooks *hooks, struct file_summary *fs,
	    char **cause);

/*
 * The programs' HLO of the XSpace at path (the protos of its
 * /host:metadata plane), as a load reads it: a new set, empty when the
 * file has none; NULL with *cause when the file cannot be read.
 */
struct hlo_set *load_hlo(const char *path, char **cause);

#endif
