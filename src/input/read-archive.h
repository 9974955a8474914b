/*
 * Packed profile folders: .tar, .tar.gz/.tgz, .tar.zst, .tar.xz, .tar.bz2
 * and .zip, read with libarchive (every filter and format it has).  Entries
 * are listed from their headers and one entry's bytes are streamed to a
 * file descriptor; nothing is ever written to disk by this module.
 *
 * Listing:
 *	struct arc_entry *e;
 *	size_t n, i;
 *	char *cause;
 *	if (arc_list(path, &e, &n, &cause) == -1) { print cause; free(cause); }
 *	for (i = 0; i < n; i++) ... e[i].name, e[i].type, e[i].size ...;
 *	arc_entries_free(e, n);
 *
 * One entry (a pass over the archive up to it):
 *	if (arc_copy_entry(path, "plugins/profile/r/h.xplane.pb", fd, &cause)
 *	    == -1) ...;
 *
 * Several entries in one pass:
 *	struct arc_reader *r;
 *	struct arc_entry e;
 *	if (arc_open(&r, path, &cause) == -1) ...;
 *	while ((rc = arc_next(r, &e, &cause)) == 1)
 *		if (wanted(e.name) && arc_copy(r, fd, max, &cause) == -1) ...;
 *	arc_close(r);
 *
 * Errors come back as -1 and *cause, a new message (caller frees), for
 * example "cannot read archive 'x.tar.gz': truncated gzip input".
 */
#ifndef JAXPROF_READ_ARCHIVE_H
#define JAXPROF_READ_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

/* Between an archive's path and an entry's name: "<archive>//<entry>". */
#define ARCHIVE_ENTRY_SEP	"//"

enum arc_type {
	ARC_FILE,		/* a regular file: the only kind with data */
	ARC_DIR,
	ARC_SYMLINK,
	ARC_HARDLINK,		/* a tar hard link to an earlier entry */
	ARC_SPECIAL,		/* device, fifo, socket */
};

struct arc_entry {
	char		*name;		/* normalized: see arc_normalize() */
	char		*raw_name;	/* as stored in the archive */
	char		*link;		/* link target as stored, or NULL */
	enum arc_type	 type;
	int		 unsafe;	/* raw_name is absolute or has ".." */
	int64_t		 size;		/* -1 when the header does not say */
	int64_t		 mtime_ns;
};

struct arc_reader;

/*
 * Whether a file name says it is an archive (by suffix: .tar, .tar.gz,
 * .tgz, .tar.zst, .tzst, .tar.xz, .txz, .tar.bz2, .tbz2, .zip).
 */
int	arc_is_archive_name(const char *name);
/*
 * The name an entry is known by: leading "/" and "./" dropped, "//" and
 * "/./" collapsed, trailing "/" dropped.  ".." is kept (the entry is then
 * unsafe).  Returns a new string; caller frees.
 */
char	*arc_normalize(const char *raw);
/* Whether a raw entry name is absolute or has a ".." component. */
int	arc_name_unsafe(const char *raw);

/* Opens an archive for one pass; *rp is freed by arc_close(). */
int	arc_open(struct arc_reader **rp, const char *path, char **cause);
/*
 * The next entry: 1 with *e filled (its strings borrowed until the next
 * call or arc_close()), 0 at the end, -1 with *cause.
 */
int	arc_next(struct arc_reader *r, struct arc_entry *e, char **cause);
/*
 * Writes the data of the entry arc_next() returned last to fd.  Returns
 * the number of bytes, or -1 with *cause when reading or writing fails or
 * the data exceeds max bytes (max < 0: no limit).
 */
int64_t	arc_copy(struct arc_reader *r, int fd, int64_t max, char **cause);
/*
 * The same into memory: *buf (caller frees) holds the *len bytes of the
 * entry; -1 with *cause as arc_copy() (max < 0: no limit).
 */
int	arc_read(struct arc_reader *r, int64_t max, uint8_t **buf,
	    size_t *len, char **cause);
void	arc_close(struct arc_reader *r);

/* Every entry of the archive at path, in archive order; 0 or -1. */
int	arc_list(const char *path, struct arc_entry **entries, size_t *n,
	    char **cause);
void	arc_entries_free(struct arc_entry *entries, size_t n);
/*
 * Streams the first regular-file entry whose normalized name is name into
 * fd; returns its size, or -1 with *cause (no such entry included).
 */
int64_t	arc_copy_entry(const char *path, const char *name, int fd,
	    char **cause);

#endif
