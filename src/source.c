/* Profile bytes in memory without holding them twice: mmap, or inflate+mmap. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "discover.h"
#include "err.h"
#include "fdio.h"
#include "read-archive.h"
#include "source.h"
#include "xmalloc.h"

#define RELEASE_CHUNK	(1u << 20)	/* drop consumed pages 1 MiB at a time */

static int
read_magic(int fd, unsigned char magic[2])
{
	ssize_t n = pread(fd, magic, 2, 0);

	return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

/* An unlinked file in $TMPDIR (or /tmp); -1 on failure. */
static int
temp_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	path = xasprintf("%s/jaxprof.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd != -1)
		unlink(path);
	free(path);
	return fd;
}

/*
 * Inflates the gzip stream on in (several members allowed) into out.
 * Returns the uncompressed size, or -1 with *cause set.
 */
static off_t
inflate_to(int in, int out, char **cause)
{
	enum { CHUNK = 1 << 17 };
	unsigned char *ibuf = xmalloc(CHUNK), *obuf = xmalloc(CHUNK);
	z_stream zs;
	off_t total = 0, consumed = 0;
	int zr = Z_OK, ended = 0;

	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, 15 + 16) != Z_OK) {
		*cause = xstrdup("cannot initialise zlib");
		total = -1;
		goto out;
	}
	for (;;) {
		if (zs.avail_in == 0) {
			ssize_t n = read(in, ibuf, CHUNK);

			if (n == -1) {
				*cause = xasprintf("read error: %s",
				    strerror(errno));
				total = -1;
				goto out;
			}
			if (n == 0)
				break;
			zs.next_in = ibuf;
			zs.avail_in = (uInt)n;
		}
		if (ended) {
			/* Another gzip member follows the last one. */
			inflateReset(&zs);
			ended = 0;
		}
		do {
			size_t have;

			zs.next_out = obuf;
			zs.avail_out = CHUNK;
			consumed += zs.avail_in;
			zr = inflate(&zs, Z_NO_FLUSH);
			consumed -= zs.avail_in;
			if (zr != Z_OK && zr != Z_STREAM_END &&
			    zr != Z_BUF_ERROR) {
				*cause = xasprintf("corrupt gzip data at "
				    "byte %lld: %s", (long long)consumed,
				    zs.msg != NULL ? zs.msg : "inflate failed");
				total = -1;
				goto out;
			}
			have = CHUNK - zs.avail_out;
			if (write_full(out, obuf, have) == -1) {
				*cause = xasprintf("cannot write temporary "
				    "file: %s", strerror(errno));
				total = -1;
				goto out;
			}
			total += (off_t)have;
			if (zr == Z_STREAM_END) {
				ended = 1;
				break;
			}
		} while (zs.avail_out == 0);
	}
	if (!ended) {
		*cause = xasprintf("truncated gzip data at byte %lld",
		    (long long)consumed);
		total = -1;
	}
out:
	inflateEnd(&zs);
	free(ibuf);
	free(obuf);
	return total;
}

/*
 * An entry of an archive, "<archive>//<entry>" (discover.h), spooled into
 * an unlinked temporary file: only that entry is read, never the whole
 * archive unpacked.  Returns the file, rewound, or -1 with *cause.
 */
static int
open_entry(const char *path, char **cause)
{
	const char *sep = strstr(path, FOUND_ARCHIVE_SEP);
	char *archive;
	int fd;

	archive = xstrndup(path, (size_t)(sep - path));
	if ((fd = temp_fd()) == -1) {
		*cause = xasprintf("cannot create temporary file: %s",
		    strerror(errno));
	} else if (arc_copy_entry(archive, sep + strlen(FOUND_ARCHIVE_SEP), fd,
	    cause) == -1 || lseek(fd, 0, SEEK_SET) == -1) {
		if (*cause == NULL)
			*cause = xstrdup(strerror(errno));
		close(fd);
		fd = -1;
	}
	free(archive);
	return fd;
}

int
source_open(struct source *src, const char *path, char **cause)
{
	unsigned char magic[2];
	struct stat st;
	int fd, mapfd = -1, rc = -1;
	off_t size;

	memset(src, 0, sizeof *src);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if ((errno == ENOENT || errno == ENOTDIR) &&
		    strstr(path, FOUND_ARCHIVE_SEP) != NULL) {
			*cause = NULL;
			if ((fd = open_entry(path, cause)) == -1)
				return -1;
		} else {
			*cause = xstrdup(strerror(errno));
			return -1;
		}
	}
	if (fstat(fd, &st) == -1) {
		*cause = xstrdup(strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		*cause = xstrdup("is a directory");
		goto out;
	}
	if (read_magic(fd, magic)) {
		src->compressed = 1;
		if ((mapfd = temp_fd()) == -1) {
			*cause = xasprintf("cannot create temporary file: %s",
			    strerror(errno));
			goto out;
		}
		if ((size = inflate_to(fd, mapfd, cause)) == -1)
			goto out;
	} else {
		mapfd = dup(fd);
		size = st.st_size;
	}
	if (size == 0) {
		*cause = xstrdup("empty file");
		goto out;
	}
	src->size = (size_t)size;
	src->map_size = (size_t)size;
	src->map = mmap(NULL, src->map_size, PROT_READ, MAP_PRIVATE, mapfd, 0);
	if (src->map == MAP_FAILED) {
		src->map = NULL;
		*cause = xasprintf("cannot map: %s", strerror(errno));
		goto out;
	}
	(void)madvise(src->map, src->map_size, MADV_SEQUENTIAL);
	src->data = src->map;
	rc = 0;
out:
	if (mapfd != -1)
		close(mapfd);
	close(fd);
	return rc;
}

void
source_release(struct source *src, size_t *mark, size_t offset)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), start, end;

	if (src->map == NULL || offset < *mark + RELEASE_CHUNK)
		return;
	/* Whole pages only: the ends may hold a neighbour's bytes. */
	start = (*mark + page - 1) / page * page;
	end = offset / page * page;
	if (end > start)
		(void)madvise((char *)src->map + start, end - start,
		    MADV_DONTNEED);
	*mark = offset;
}

void
source_close(struct source *src)
{
	if (src->map != NULL)
		munmap(src->map, src->map_size);
	memset(src, 0, sizeof *src);
}
