/*
 * libarchive, loaded when the first archive is opened rather than when
 * jaxprof starts.  Linked, it brought libxml2, ICU, libstdc++ and six
 * compression libraries into every run: 4 of a report's 5 ms of start-up,
 * archives or not.  Loaded by the file name the build linked against
 * (LIBARCHIVE_SONAME, found by configure), so it is the same library.
 *
 *	const struct archive_api *api = archive_api(&cause);
 *	if (api == NULL) { print cause; free(cause); }
 *	struct archive *a = api->read_new();
 */
#ifndef JAXPROF_ARCHIVE_API_H
#define JAXPROF_ARCHIVE_API_H

#include <sys/types.h>

#include <archive.h>
#include <archive_entry.h>

/* The functions read-archive.c calls, named without "archive_". */
struct archive_api {
	struct archive	*(*read_new)(void);
	int		 (*read_support_filter_all)(struct archive *);
	int		 (*read_support_format_all)(struct archive *);
	int		 (*read_open_filename)(struct archive *, const char *,
			    size_t);
	int		 (*read_next_header)(struct archive *,
			    struct archive_entry **);
	la_ssize_t	 (*read_data)(struct archive *, void *, size_t);
	int		 (*read_free)(struct archive *);
	const char	*(*error_string)(struct archive *);
	la_int64_t	 (*filter_bytes)(struct archive *, int);
	const char	*(*entry_pathname)(struct archive_entry *);
	const char	*(*entry_pathname_utf8)(struct archive_entry *);
	const char	*(*entry_hardlink)(struct archive_entry *);
	const char	*(*entry_symlink)(struct archive_entry *);
	__LA_MODE_T	 (*entry_filetype)(struct archive_entry *);
	int		 (*entry_size_is_set)(struct archive_entry *);
	la_int64_t	 (*entry_size)(struct archive_entry *);
	int		 (*entry_mtime_is_set)(struct archive_entry *);
	time_t		 (*entry_mtime)(struct archive_entry *);
	long		 (*entry_mtime_nsec)(struct archive_entry *);
};

/*
 * The library, loaded on the first call (from any thread); NULL and
 * *cause (new) when it cannot be, as "libarchive.so.13: cannot open
 * shared object file: ...".
 */
const struct archive_api *archive_api(char **cause);

#endif
