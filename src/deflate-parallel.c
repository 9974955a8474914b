/* A buffer deflated in two halves on two threads: see deflate-parallel.h. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "deflate-parallel.h"

#define WINDOW	((size_t)32 << 10)	/* deflate's farthest reach back */

/* One half: raw deflate of in, primed with dict; its Adler-32 too. */
struct half {
	const unsigned char *in, *dict;
	size_t		 n, ndict;
	int		 last;		/* ends the stream, else sync-flushed */
	unsigned char	*out;
	size_t		 nout;
	uLong		 adler;
	int		 ok;
};

static void *
deflate_half(void *arg)
{
	struct half *h = arg;
	z_stream z;
	uLong bound;
	int rc;

	memset(&z, 0, sizeof z);
	h->ok = 0;
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, -15, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	/* The bound of a whole stream, and room for the flush's marker. */
	bound = deflateBound(&z, (uLong)h->n) + 16;
	if ((h->ndict == 0 || deflateSetDictionary(&z, h->dict,
	    (uInt)h->ndict) == Z_OK) && (h->out = malloc(bound)) != NULL) {
		z.next_in = (Bytef *)(uintptr_t)h->in;
		z.avail_in = (uInt)h->n;
		z.next_out = h->out;
		z.avail_out = (uInt)bound;
		rc = deflate(&z, h->last ? Z_FINISH : Z_SYNC_FLUSH);
		h->ok = h->last ? rc == Z_STREAM_END :
		    rc == Z_OK && z.avail_in == 0 && z.avail_out > 0;
		h->nout = bound - z.avail_out;
		h->adler = adler32(adler32(0, NULL, 0), h->in, (uInt)h->n);
	}
	deflateEnd(&z);
	return NULL;
}

static void
put_be32(unsigned char *p, uLong v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

unsigned char *
deflate_parallel(const void *in, size_t n, size_t *nz)
{
	const unsigned char *bytes = in;
	struct half h[2];
	unsigned char *z = NULL;
	pthread_t second;
	int threaded;
	uLongf nout;

	*nz = 0;
	if (n > UINT32_MAX)		/* zlib counts in uInt */
		return NULL;
	if (n < DEFLATE_PARALLEL_MIN) {
		nout = compressBound((uLong)n);
		if ((z = malloc(nout)) != NULL && compress2(z, &nout,
		    n > 0 ? bytes : (const Bytef *)"", (uLong)n,
		    Z_BEST_SPEED) == Z_OK) {
			*nz = nout;
			return z;
		}
		free(z);
		return NULL;
	}
	memset(h, 0, sizeof h);
	h[0].in = bytes;
	h[0].n = n / 2;
	h[1].in = bytes + n / 2;
	h[1].n = n - n / 2;
	h[1].dict = h[1].in - WINDOW;
	h[1].ndict = WINDOW;
	h[1].last = 1;
	/* Without a second thread the halves are deflated one after the other. */
	threaded = pthread_create(&second, NULL, deflate_half, &h[1]) == 0;
	deflate_half(&h[0]);
	if (threaded)
		pthread_join(second, NULL);
	else
		deflate_half(&h[1]);
	if (h[0].ok && h[1].ok &&
	    (z = malloc(2 + h[0].nout + h[1].nout + 4)) != NULL) {
		z[0] = 0x78;		/* deflate, 32 KiB window */
		z[1] = 0x01;		/* fastest level; header check */
		memcpy(z + 2, h[0].out, h[0].nout);
		memcpy(z + 2 + h[0].nout, h[1].out, h[1].nout);
		put_be32(z + 2 + h[0].nout + h[1].nout,
		    adler32_combine(h[0].adler, h[1].adler, (z_off_t)h[1].n));
		*nz = 2 + h[0].nout + h[1].nout + 4;
	}
	free(h[0].out);
	free(h[1].out);
	return z;
}
