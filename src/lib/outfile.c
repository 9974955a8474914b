/* Files written beside their target and renamed over it once whole. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/outfile.h"
#include "lib/xmalloc.h"

/* "dir/.name.jaxprof-XXXXXXXX" beside target, with a fresh suffix. */
static char *
temp_name(const char *target, unsigned n)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash != NULL ? slash + 1 : target;
	struct timespec ts;

	(void)clock_gettime(CLOCK_REALTIME, &ts);
	return xasprintf("%.*s.%s.jaxprof-%08lx", (int)(base - target),
	    target, base, (unsigned long)(((unsigned long)getpid() << 16) ^
	    (unsigned long)ts.tv_nsec ^ n * 2654435761u) & 0xffffffffUL);
}

/* Creates the temporary file beside of->target, with its mode. */
static int
create_temp(struct outfile *of, const struct stat *old)
{
	unsigned n;

	for (n = 0; n < 100; n++) {
		of->tmp = temp_name(of->target, n);
		of->fd = openat(of->dirfd, of->tmp, O_WRONLY | O_CREAT |
		    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (of->fd != -1)
			break;
		free(of->tmp);
		of->tmp = NULL;
		if (errno != EEXIST)
			return -1;
	}
	if (of->fd == -1)
		return -1;
	/* The new file keeps the permissions of the one it replaces. */
	if (old != NULL)
		(void)fchmod(of->fd, old->st_mode & 07777);
	return of->fd;
}

int
outfile_open(struct outfile *of, int dirfd, const char *path)
{
	struct stat st;
	char *real;
	int e;

	memset(of, 0, sizeof *of);
	of->dirfd = dirfd;
	of->fd = -1;
	if (fstatat(dirfd, path, &st, dirfd == AT_FDCWD ? 0 :
	    AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		/* A device or a FIFO named by the user is written in place. */
		if (dirfd == AT_FDCWD && !S_ISREG(st.st_mode)) {
			of->fd = openat(dirfd, path, O_WRONLY | O_TRUNC |
			    O_CLOEXEC);
			if (of->fd != -1)
				of->target = xstrdup(path);
			return of->fd;
		}
	}
	/* Through a symbolic link, the file it names is replaced. */
	if (dirfd == AT_FDCWD && (real = realpath(path, NULL)) != NULL) {
		of->target = xstrdup(real);
		free(real);
	} else
		of->target = xstrdup(path);
	if (create_temp(of, fstatat(dirfd, of->target, &st,
	    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) ? &st : NULL) ==
	    -1) {
		e = errno;
		free(of->target);
		of->target = NULL;
		errno = e;
		return -1;
	}
	return of->fd;
}

FILE *
outfile_fopen(struct outfile *of, const char *path)
{
	if (outfile_open(of, AT_FDCWD, path) == -1)
		return NULL;
	if ((of->fp = fdopen(of->fd, "w")) == NULL) {
		outfile_abort(of);
		return NULL;
	}
	return of->fp;
}

int
outfile_close(struct outfile *of)
{
	int rc = 0, e = 0;

	if (of->fd == -1)
		return 0;
	if (of->fp != NULL && (fflush(of->fp) != 0 || ferror(of->fp))) {
		rc = -1;
		e = errno != 0 ? errno : EIO;
	}
	/* On disk before the rename: a crash leaves the old file or this. */
	if (rc == 0 && of->tmp != NULL && fsync(of->fd) == -1) {
		rc = -1;
		e = errno;
	}
	if ((of->fp != NULL ? fclose(of->fp) : close(of->fd)) != 0 &&
	    rc == 0) {
		rc = -1;
		e = errno;
	}
	of->fp = NULL;
	of->fd = -1;
	errno = e;
	return rc;
}

int
outfile_commit(struct outfile *of)
{
	if (outfile_close(of) == -1 || (of->tmp != NULL &&
	    renameat(of->dirfd, of->tmp, of->dirfd, of->target) == -1))
		return -1;
	free(of->tmp);
	free(of->target);
	memset(of, 0, sizeof *of);
	of->fd = -1;
	return 0;
}

void
outfile_abort(struct outfile *of)
{
	int e = errno;

	if (of->fp != NULL)
		(void)fclose(of->fp);
	else if (of->fd != -1)
		(void)close(of->fd);
	if (of->tmp != NULL)
		(void)unlinkat(of->dirfd, of->tmp, 0);
	free(of->tmp);
	free(of->target);
	memset(of, 0, sizeof *of);
	of->fd = -1;
	errno = e;
}
