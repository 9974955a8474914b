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

#include "lib/err.h"
#include "lib/fdio.h"
#include "input/gzip.h"
#include "input/map-guard.h"
#include "input/read-archive.h"
#include "input/source.h"
#include "lib/xmalloc.h"

#define RELEASE_CHUNK	(1u << 20)	/* drop consumed pages 1 MiB at a time */

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
 * Inflates the gzip file on in (gzip.h: the policy and the limits) into
 * out.  check, when not NULL, sees the first bytes before the rest is
 * inflated.  Returns the uncompressed size, or -1 with *cause set.
 */
static off_t
inflate_to(int in, int out, source_check_fn *check, char **cause)
{
	enum { CHUNK = 1 << 17 };
	unsigned char *buf = xmalloc(CHUNK);
	struct gzr *z = gzr_open(in);
	off_t total = 0;
	ssize_t n;

	while ((n = gzr_read(z, buf, CHUNK, cause)) > 0) {
		if (total == 0 && check != NULL &&
		    check(buf, (size_t)n, cause) == -1) {
			n = -1;
			break;
		}
		if (write_full(out, buf, (size_t)n) == -1) {
			*cause = xasprintf("cannot write temporary file: %s",
			    strerror(errno));
			n = -1;
			break;
		}
		total += (off_t)n;
	}
	gzr_free(z);
	free(buf);
	return n == -1 ? -1 : total;
}

/*
 * An entry of an archive, "<archive>//<entry>" (read-archive.h), spooled into
 * an unlinked temporary file: only that entry is read, never the whole
 * archive unpacked.  Returns the file, rewound, or -1 with *cause.
 */
static int
open_entry(const char *path, char **cause)
{
	const char *sep = strstr(path, ARCHIVE_ENTRY_SEP);
	char *archive;
	int fd;

	archive = xstrndup(path, (size_t)(sep - path));
	if ((fd = temp_fd()) == -1) {
		*cause = xasprintf("cannot create temporary file: %s",
		    strerror(errno));
	} else if (arc_copy_entry(archive, sep + strlen(ARCHIVE_ENTRY_SEP), fd,
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
	return source_open_check(src, path, NULL, cause);
}

int
source_open_check(struct source *src, const char *path,
    source_check_fn *check, char **cause)
{
	struct stat st;
	int fd, mapfd = -1, rc = -1;
	off_t size;

	memset(src, 0, sizeof *src);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if ((errno == ENOENT || errno == ENOTDIR) &&
		    strstr(path, ARCHIVE_ENTRY_SEP) != NULL) {
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
	if (gzip_magic_at(fd)) {
		src->compressed = 1;
		if ((mapfd = temp_fd()) == -1) {
			*cause = xasprintf("cannot create temporary file: %s",
			    strerror(errno));
			goto out;
		}
		if ((size = inflate_to(fd, mapfd, check, cause)) == -1)
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
	src->guard = map_guard_add(src->map, src->map_size, path);
	src->data = src->map;
	rc = 0;
out:
	if (mapfd != -1)
		close(mapfd);
	close(fd);
	return rc;
}

void
source_borrow(struct source *src, const uint8_t *data, size_t size)
{
	memset(src, 0, sizeof *src);
	src->data = data;
	src->size = size;
}

void
source_release(struct source *src, size_t *mark, size_t offset)
{
	size_t page, start, end;

	/* Called per event: the cheap test first, sysconf only per chunk. */
	if (src->map == NULL || offset < *mark + RELEASE_CHUNK)
		return;
	page = (size_t)sysconf(_SC_PAGESIZE);
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
	if (src->map != NULL) {
		map_guard_remove(src->guard);
		munmap(src->map, src->map_size);
	}
	memset(src, 0, sizeof *src);
}
