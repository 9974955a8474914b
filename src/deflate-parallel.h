/*
 * zlib data (RFC 1950, what uncompress() reads) made by deflating the two
 * halves of a buffer at once, on two threads, as pigz does: the second
 * half is primed with the last 32 KiB of the first, and the first ends on
 * a byte boundary (a sync flush), so the pieces join into one stream.
 *
 *	size_t nz;
 *	unsigned char *z = deflate_parallel(buf, n, &nz);  (NULL: failed)
 *	...; free(z);
 */
#ifndef JAXPROF_DEFLATE_PARALLEL_H
#define JAXPROF_DEFLATE_PARALLEL_H

#include <stddef.h>

/* Buffers under this are deflated on the calling thread alone. */
#define DEFLATE_PARALLEL_MIN	((size_t)256 << 10)

/* in (n bytes) deflated at Z_BEST_SPEED into a new buffer of *nz bytes. */
unsigned char	*deflate_parallel(const void *in, size_t n, size_t *nz);

#endif
