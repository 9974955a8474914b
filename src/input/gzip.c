/* gzip for every reader: one policy, one set of limits (gzip.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "lib/err.h"
#include "input/gzip.h"
#include "lib/xmalloc.h"

int64_t	inflate_max_bytes = INFLATE_DEFAULT_MAX_BYTES;
int64_t	inflate_max_ratio = INFLATE_DEFAULT_MAX_RATIO;

int
inflate_check(int64_t in, int64_t out, char **cause)
{
	if (inflate_max_bytes >= 0 && out > inflate_max_bytes) {
		*cause = xasprintf("inflates to more than %" PRId64 " bytes "
		    "(the limit; raise it with --max-inflated)",
		    inflate_max_bytes);
		return -1;
	}
	if (inflate_max_ratio > 0 && out > INFLATE_RATIO_FLOOR &&
	    out / inflate_max_ratio > in) {
		*cause = xasprintf("inflates more than %" PRId64 " times: %"
		    PRId64 " bytes from the first %" PRId64 " (a decompression "
		    "bomb? raise the limit with --max-inflate-ratio)",
		    inflate_max_ratio, out, in);
		return -1;
	}
	return 0;
}

enum { IN_CHUNK = 1 << 16 };

struct gzr {
	int		 fd;
	int		 started;	/* the magic was looked at */
	int		 gzip;
	int		 in_member;	/* inside a gzip member */
	int		 eof;		/* no more input */
	int		 done;
	z_stream	 zs;
	int		 zinit;
	unsigned char	*in;
	int64_t		 in_read;	/* compressed bytes read from fd */
	int64_t		 out;		/* bytes returned */
};

struct gzr *
gzr_open(int fd)
{
	struct gzr *z = xcalloc(1, sizeof *z);

	z->fd = fd;
	z->in = xmalloc(IN_CHUNK);
	return z;
}

int
gzip_magic_at(int fd)
{
	unsigned char magic[2];

	return pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f &&
	    magic[1] == 0x8b;
}

int
gzr_is_gzip(const struct gzr *z)
{
	return z->gzip;
}

/* Offset in the compressed file of the next byte zlib will look at. */
static int64_t
in_offset(const struct gzr *z)
{
	return z->in_read - (int64_t)z->zs.avail_in;
}

/* Up to n bytes of the file into dst: their number, -1 with *cause. */
static ssize_t
read_input(struct gzr *z, void *dst, size_t n, char **cause)
{
	ssize_t r;

	do
		r = read(z->fd, dst, n);
	while (r == -1 && errno == EINTR);
	if (r == -1) {
		*cause = xasprintf("read error at byte %" PRId64 ": %s",
		    z->in_read, strerror(errno));
		return -1;
	}
	if (r == 0)
		z->eof = 1;
	z->in_read += r;
	return r;
}

/* Refills the input when it is empty; -1 with *cause on a read error. */
static int
fill(struct gzr *z, char **cause)
{
	ssize_t n;

	if (z->zs.avail_in > 0 || z->eof)
		return 0;
	if ((n = read_input(z, z->in, IN_CHUNK, cause)) == -1)
		return -1;
	z->zs.next_in = z->in;
	z->zs.avail_in = (uInt)n;
	return 0;
}

ssize_t
gzr_read(struct gzr *z, void *buf, size_t n, char **cause)
{
	size_t got = 0;

	if (!z->started) {
		z->started = 1;
		if (fill(z, cause) == -1)
			return -1;
		z->gzip = z->zs.avail_in >= 2 && z->zs.next_in[0] == 0x1f &&
		    z->zs.next_in[1] == 0x8b;
		if (z->gzip) {
			if (inflateInit2(&z->zs, 15 + 16) != Z_OK) {
				*cause = xstrdup("cannot initialise zlib");
				return -1;
			}
			z->zinit = 1;
			z->in_member = 1;
		}
	}
	if (n > (size_t)1 << 30)
		n = (size_t)1 << 30;
	if (!z->gzip) {
		/*
		 * Plain bytes: what the magic's look buffered, then straight
		 * from fd into buf, without a copy through z->in.
		 */
		if (z->zs.avail_in > 0) {
			got = z->zs.avail_in < n ? z->zs.avail_in : n;
			memcpy(buf, z->zs.next_in, got);
			z->zs.next_in += got;
			z->zs.avail_in -= (uInt)got;
		} else if (!z->eof && n > 0) {
			ssize_t r = read_input(z, buf, n, cause);

			if (r == -1)
				return -1;
			got = (size_t)r;
		}
		z->out += (int64_t)got;
		return (ssize_t)got;
	}
	while (got == 0 && !z->done) {
		int zr;

		if (fill(z, cause) == -1)
			return -1;
		if (!z->in_member) {
			/* Between members: another one, or the end. */
			if (z->zs.avail_in == 0 && z->eof) {
				z->done = 1;
				break;
			}
			if (z->zs.avail_in == 1 && !z->eof) {
				/* One byte of a magic: keep it, read on. */
				unsigned char b = z->zs.next_in[0];
				ssize_t r;

				z->in[0] = b;
				do
					r = read(z->fd, z->in + 1,
					    IN_CHUNK - 1);
				while (r == -1 && errno == EINTR);
				if (r == -1) {
					*cause = xasprintf("read error at "
					    "byte %" PRId64 ": %s", z->in_read,
					    strerror(errno));
					return -1;
				}
				if (r == 0)
					z->eof = 1;
				z->zs.next_in = z->in;
				z->zs.avail_in = 1 + (uInt)r;
				z->in_read += r;
			}
			if (z->zs.avail_in < 2 || z->zs.next_in[0] != 0x1f ||
			    z->zs.next_in[1] != 0x8b) {
				*cause = xasprintf("trailing garbage after "
				    "gzip data at byte %" PRId64,
				    in_offset(z));
				return -1;
			}
			inflateReset(&z->zs);
			z->in_member = 1;
		}
		if (z->zs.avail_in == 0 && z->eof) {
			*cause = xasprintf("truncated gzip data at byte %"
			    PRId64, in_offset(z));
			return -1;
		}
		z->zs.next_out = (unsigned char *)buf;
		z->zs.avail_out = (uInt)n;
		zr = inflate(&z->zs, Z_NO_FLUSH);
		got = n - z->zs.avail_out;
		if (zr == Z_STREAM_END)
			z->in_member = 0;
		else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			const char *msg = z->zs.msg != NULL ? z->zs.msg :
			    "inflate failed";
			int64_t at = in_offset(z);

			/* A bad trailer: where its 4-byte field starts. */
			if (strstr(msg, "check") != NULL && at >= 4)
				at -= 4;
			*cause = xasprintf("corrupt gzip data at byte %" PRId64
			    ": %s", at, msg);
			return -1;
		}
	}
	z->out += (int64_t)got;
	if (inflate_check(in_offset(z), z->out, cause) == -1)
		return -1;
	return (ssize_t)got;
}

int
gzr_rewind(struct gzr *z)
{
	if (lseek(z->fd, 0, SEEK_SET) == -1)
		return -1;
	if (z->zinit)
		inflateEnd(&z->zs);
	memset(&z->zs, 0, sizeof z->zs);
	z->started = z->gzip = z->in_member = z->eof = z->done = 0;
	z->zinit = 0;
	z->in_read = z->out = 0;
	return 0;
}

void
gzr_free(struct gzr *z)
{
	if (z == NULL)
		return;
	if (z->zinit)
		inflateEnd(&z->zs);
	free(z->in);
	free(z);
}
