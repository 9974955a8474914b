/*
 * The one trace file to show for a path (view): the file itself, or of
 * a folder's files the best of the newest run or of the run named, an
 * XSpace before JAX's Perfetto file before any other.
 */
#ifndef JAXPROF_CHOOSE_TRACE_H
#define JAXPROF_CHOOSE_TRACE_H

#include "load/formats.h"

/*
 * The chosen file's path (a new string) and its kind into *kind; run
 * NULL: the newest run.  NULL with *cause a new message when there is
 * none.
 */
char	*choose_trace(const char *path, const char *run, enum file_kind *kind,
	    char **cause);

#endif
