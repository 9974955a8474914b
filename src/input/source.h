/*
 * A profile file's bytes in memory: plain files are mapped; gzip files are
 * inflated into an unlinked temporary file that is then mapped, so memory
 * stays small whatever the size, and readers can walk the bytes twice.
 *
 * Recipe:
 *	struct source src;
 *	char *cause;
 *	if (source_open(&src, path, &cause) == -1) { print cause; free(cause); }
 *	... read src.data[0..src.size) ...;
 *	source_release(&src, &mark, done_offset);
 *	source_close(&src);
 */
#ifndef JAXPROF_SOURCE_H
#define JAXPROF_SOURCE_H

#include <stddef.h>
#include <stdint.h>

struct source {
	const uint8_t	*data;		/* size bytes, read-only */
	size_t		 size;
	int		 compressed;	/* the file was gzip */
	void		*map;		/* the mapping (NULL when size is 0) */
	size_t		 map_size;
	int		 guard;		/* map_guard_add()'s token */
};

/*
 * Opens path.  A path "<archive>//<entry>" (read-archive.h) that is no file
 * names an archive entry: that entry alone is spooled into an unlinked
 * temporary file (then inflated like a file when gzip).  Returns 0, or
 * -1 with *cause a new message naming what is wrong (caller frees), e.g.
 * "truncated gzip data at byte 1234".
 */
int	source_open(struct source *src, const char *path, char **cause);
/*
 * Gives back the memory of bytes from *mark to offset: a reader is done
 * with them.  Readers of different parts of src keep their own marks.
 */
/*
 * The same; when the file is gzip, check sees the first inflated bytes
 * (at least 1, at most 128 KiB) before the rest is inflated, and
 * returns 0, or -1 with *cause to stop there: a file that is not what
 * its name says costs no inflating.
 */
typedef int source_check_fn(const uint8_t *p, size_t n, char **cause);
int	source_open_check(struct source *src, const char *path,
	    source_check_fn *check, char **cause);
/*
 * Bytes already in memory (an archive entry read whole), borrowed: the
 * caller keeps them until source_close().  Not for gzip or empty bytes,
 * which source_open() inflates or rejects.
 */
void	source_borrow(struct source *src, const uint8_t *data, size_t size);
void	source_release(struct source *src, size_t *mark, size_t offset);
void	source_close(struct source *src);

#endif
