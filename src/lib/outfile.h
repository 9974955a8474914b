/*
 * A file written for the user (a report's -o, a baseline, an extracted
 * file, a converted trace) is written to a temporary file beside it, put
 * on disk, and only then renamed over it: a full disk or a failed run
 * leaves the old file as it was, never a part of the new one.
 *
 * Recipe:
 *	struct outfile of;
 *	FILE *fp = outfile_fopen(&of, path);	(NULL: errno says why)
 *	... write to fp ...;
 *	if (failed || outfile_commit(&of) == -1) { outfile_abort(&of); ... }
 *
 * A path that is not a regular file (/dev/null, /dev/stdout, a FIFO) is
 * written in place: it cannot be replaced.  A symbolic link's file is
 * replaced, the link kept.  Under a folder descriptor (extract), whatever
 * is there is replaced, a link or a FIFO itself: nothing is written
 * through one.
 */
#ifndef JAXPROF_OUTFILE_H
#define JAXPROF_OUTFILE_H

#include <stdio.h>

struct outfile {
	int	 dirfd;		/* AT_FDCWD, or the folder target is under */
	char	*target;	/* the file replaced */
	char	*tmp;		/* beside it; NULL when written in place */
	int	 fd;		/* -1 once closed */
	FILE	*fp;		/* outfile_fopen()'s, over fd */
};

/* The descriptor to write path (under dirfd) through; -1 with errno. */
int	outfile_open(struct outfile *of, int dirfd, const char *path);
/* The same as a stdio stream; NULL with errno. */
FILE	*outfile_fopen(struct outfile *of, const char *path);
/* Flushes, syncs and closes the temporary file; -1 with errno. */
int	outfile_close(struct outfile *of);
/* outfile_close(), then the rename over the target; -1 with errno. */
int	outfile_commit(struct outfile *of);
/* Closes and removes the temporary file: the target stays as it was. */
void	outfile_abort(struct outfile *of);

#endif
