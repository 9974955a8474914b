/*
 * Read-ahead: a thread reads (and inflates) the next chunks of a gzr while
 * the caller parses the last one, so that decompression and parsing take
 * the time of the slower, not of both.
 *
 *	struct ahead *a = ahead_start(z, 256 * 1024);
 *	while ((n = ahead_next(a, &p, &cause)) > 0) ... parse p[0..n) ...;
 *	if (n == -1) { print cause; free(cause); }
 *	ahead_stop(a);		(at any point; z is the caller's again)
 */
#ifndef JAXPROF_READ_AHEAD_H
#define JAXPROF_READ_AHEAD_H

#include <stddef.h>
#include <sys/types.h>

#include "input/gzip.h"

struct ahead;

/* Starts reading z, from where it is, in chunks of at most chunk bytes. */
struct ahead	*ahead_start(struct gzr *z, size_t chunk);
/*
 * The next chunk (*p valid until the next call): its length, 0 at the
 * end, or -1 with *cause, gzr_read()'s.
 */
ssize_t		 ahead_next(struct ahead *a, const char **p, char **cause);
void		 ahead_stop(struct ahead *a);

#endif
