/*
 * Reading one profile file into a file_summary: an XSpace's planes are
 * classified in one pass, several at once, a trace JSON's events after a
 * first pass for the step boundaries.
 *
 *	struct file_summary fs;
 *	if (load_file(path, 2, &fs, &cause) == -1) ... report cause ...
 *	... file_summary_release(&fs);
 */
#ifndef JAXPROF_LOAD_H
#define JAXPROF_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "classify.h"
#include "discover.h"

/*
 * Reads path, an XSpace (planes in up to nthreads threads) or a trace
 * JSON file (kind says which).  Returns 0, or -1 with *cause a new
 * message (caller frees) and fs left empty.
 */
int	load_file(const char *path, enum file_kind kind, int nthreads,
	    struct file_summary *fs, char **cause);
/*
 * The same for the size bytes at data, read from path (an archive
 * entry): a plain XSpace is read in place, without a file.
 */
int	load_memory(const char *path, const uint8_t *data, size_t size,
	    enum file_kind kind, int nthreads, struct file_summary *fs,
	    char **cause);

#endif
