/*
 * XSpace reader (`*.xplane.pb`, plain or gzip): emits the normalized stream
 * of profile.h.  The only file that sees the protobuf-c types.
 */
#ifndef JAXPROF_READ_XPLANE_H
#define JAXPROF_READ_XPLANE_H

#include "model/profile.h"
#include "input/source.h"

/*
 * Walks the wire format of src in place, one plane and one line at a time,
 * so memory grows with the number of distinct names and not with the number
 * of events.  path is only copied into struct pf_space.  Returns 0, the
 * first non-zero value a callback returned, or -1 with *cause a new
 * message like "at byte 1234: truncated varint in XEvent" (caller frees).
 */
int	xplane_read(struct source *src, const char *path,
	    const struct pf_handler *h, struct pf_read_stats *stats,
	    char **cause);

/*
 * Whether the first n bytes of a file can start an XSpace (its first
 * tag): 0, or -1 with *cause as xplane_read() gives it.  source_open_check()
 * runs it on a gzip file before inflating the rest.
 */
int	xplane_check_start(const uint8_t *p, size_t n, char **cause);

/*
 * The same, a plane at a time, so that planes can be read in parallel:
 * xspace_open() finds the planes (and reads hostnames, errors, warnings),
 * xspace_read_space() emits the space callback, and xspace_read_plane()
 * reads plane i; calls for different planes may run in different threads
 * (each with its own handler and stats, which it adds to).  The source
 * must outlive xs.
 */
struct xspace;

int	xspace_open(struct source *src, const char *path, struct xspace **xs,
	    char **cause);
size_t	xspace_nplanes(const struct xspace *xs);
/* The planes' names, in file order ("" for one whose name is unreadable). */
char *const *xspace_plane_names(const struct xspace *xs);
int	xspace_read_space(const struct xspace *xs, const struct pf_handler *h);
int	xspace_read_plane(const struct xspace *xs, size_t i,
	    const struct pf_handler *h, struct pf_read_stats *rs,
	    char **cause);
/*
 * Lends the calling thread to the planes being read: it decodes ahead
 * the events of their long lines, which their threads then hand on
 * (classifying stays with them, in order); returns once no plane is
 * being read, with how many segments of events it decoded.  For a thread
 * with no plane left to read.
 */
size_t	xspace_help(const struct xspace *xs);
void	xspace_free(struct xspace *xs);

#endif
