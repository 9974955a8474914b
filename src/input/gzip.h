/*
 * The one gzip policy of every reader (XSpace, trace JSON, archive
 * entries), and the limits on what compressed input may inflate to
 * (jaxprof(1), UNTRUSTED INPUT).
 *
 *	struct gzr *z = gzr_open(fd);	(fd stays the caller's)
 *	while ((n = gzr_read(z, buf, sizeof buf, &cause)) > 0) ...;
 *	if (n == -1) { print cause; free(cause); }
 *	gzr_rewind(z); ... read again ...; gzr_free(z);
 *
 * A file that starts with the gzip magic is gzip: one member or several
 * back to back, and nothing else after the last one ("trailing garbage");
 * any other file is read as it is.  Errors say where, counted in bytes of
 * the compressed file: "corrupt gzip data at byte 1234: incorrect data
 * check", "truncated gzip data at byte 1234", "trailing garbage after gzip
 * data at byte 1234".
 */
#ifndef JAXPROF_GZIP_H
#define JAXPROF_GZIP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What compressed bytes may inflate to: at most inflate_max_bytes in all,
 * and, past the first INFLATE_RATIO_FLOOR bytes, at most inflate_max_ratio
 * times the compressed bytes read so far (0: no ratio limit).  main() sets
 * them from --max-inflated and --max-inflate-ratio.
 */
#define INFLATE_DEFAULT_MAX_BYTES	((int64_t)16 << 30)
#define INFLATE_DEFAULT_MAX_RATIO	200
#define INFLATE_RATIO_FLOOR		((int64_t)64 << 20)
extern int64_t	inflate_max_bytes;
extern int64_t	inflate_max_ratio;

/*
 * Whether out bytes inflated from in compressed bytes are within the
 * limits: 0, or -1 with *cause (caller frees) naming the limit and the
 * option that raises it.
 */
int	inflate_check(int64_t in, int64_t out, char **cause);

/* Whether the file at fd starts with the gzip magic (fd's offset stays). */
int	gzip_magic_at(int fd);

struct gzr;

struct gzr *gzr_open(int fd);
/* Whether the file is gzip (known after the first read). */
int	gzr_is_gzip(const struct gzr *z);
/* Up to n bytes: their number, 0 at the end, -1 with *cause. */
ssize_t	gzr_read(struct gzr *z, void *buf, size_t n, char **cause);
/* Back to byte 0 (the file must be seekable); -1 with errno. */
int	gzr_rewind(struct gzr *z);
void	gzr_free(struct gzr *z);

#endif
