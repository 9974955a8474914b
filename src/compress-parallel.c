/* A buffer compressed on two threads: see compress-parallel.h. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "compress-parallel.h"

#define LEVEL	1	/* zstd's fastest non-negative level */

/* One half, compressed into a frame of its own at out (cap bytes). */
struct half {
	const unsigned char *in;
	size_t		 n;
	unsigned char	*out;
	size_t		 cap;
	size_t		 rc;		/* its size, or a zstd error code */
};

static void *
compress_half(void *arg)
{
	struct half *h = arg;

	h->rc = ZSTD_compress(h->out, h->cap, h->in, h->n, LEVEL);
	return NULL;
}

unsigned char *
compress_parallel(const void *in, size_t n, size_t *nz)
{
	const unsigned char *bytes = n > 0 ? in : (const unsigned char *)"";
	size_t nhalves = n >= COMPRESS_PARALLEL_MIN ? 2 : 1;
	struct half h[2];
	unsigned char *z;
	pthread_t second;
	int threaded = 0;

	*nz = 0;
	h[0].in = bytes;
	h[0].n = n / nhalves;
	h[1].in = bytes + h[0].n;
	h[1].n = n - h[0].n;
	h[0].cap = ZSTD_compressBound(h[0].n);
	h[1].cap = nhalves == 2 ? ZSTD_compressBound(h[1].n) : 0;
	if ((z = malloc(h[0].cap + h[1].cap)) == NULL)
		return NULL;
	h[0].out = z;
	h[1].out = z + h[0].cap;
	h[1].rc = 0;
	/* Without a second thread the halves are done one by one. */
	if (nhalves == 2)
		threaded = pthread_create(&second, NULL, compress_half,
		    &h[1]) == 0;
	compress_half(&h[0]);
	if (threaded)
		pthread_join(second, NULL);
	else if (nhalves == 2)
		compress_half(&h[1]);
	if (ZSTD_isError(h[0].rc) || ZSTD_isError(h[1].rc)) {
		free(z);
		return NULL;
	}
	/* The second frame moves up to follow the first. */
	memmove(z + h[0].rc, h[1].out, h[1].rc);
	*nz = h[0].rc + h[1].rc;
	return z;
}
