/*
 * Finding profile files: a PATH may be a file, a run folder, or any tree
 * holding plugins/profile/<run>/ folders.  Each file gets its kind, run and
 * host from its place and name (FORMATS.md 1).
 *
 * An archive (a PATH, or a file in a tree, named like one: see
 * arc_is_archive_name()) counts as a folder: its entries that are profile
 * files become found_files named "<archive>" ARCHIVE_ENTRY_SEP "<entry>",
 * e.g. "/data/x.tar.gz//plugins/profile/r/h.xplane.pb", with the entry's
 * size and the archive's mtime (so the index reads them again when the
 * archive changes); source_open() reads such a path from the archive.
 * "//" never appears in the normalized (realpath) absolute path of a file,
 * so the first "//" of a found path always ends the archive's path.
 *
 *	struct found f;
 *	found_init(&f);
 *	if (discover(&f, path, &cause) == -1) ...;
 *	found_keep_latest(&f);   (for --latest)
 *	... f.files[i] ...
 *	found_release(&f);
 */
#ifndef JAXPROF_DISCOVER_H
#define JAXPROF_DISCOVER_H

#include <stddef.h>
#include <stdint.h>

#include "load/formats.h"

/*
 * A found file's path as messages show it: an archive entry as
 * "<archive>/<entry>" (the archive read as a folder), else path.  Returns
 * a new string; caller frees.
 */
char	*found_display_path(const char *path);

struct found_file;
/*
 * When the file ff names on disk holds something other than its kind
 * (by sniff.h), a note saying so: "its name says an XSpace, but it looks
 * like gzip'd trace JSON"; else NULL.  Returns a new string; caller frees.
 */
char	*found_looks_like(const struct found_file *ff);
/* The same for an archive entry's bytes: in memory, else spooled there. */
char	*found_looks_like_entry(const struct found_file *ff, const void *mem,
	    size_t n, const char *spool);

struct found;
/*
 * The message for a --run glob that matches none of the runs of f:
 * "--run='x' matches no run; runs found: 'a', 'b'".  Returns a new
 * string; caller frees.
 */
char	*found_no_run_message(const struct found *f, const char *glob);

struct found_file {
	char		*path;		/* absolute, normalized; see above */
	enum file_kind	 kind;
	char		*run;		/* folder under plugins/profile/, or parent */
	char		*host;		/* file name before the kind's suffix */
	int64_t		 size;
	int64_t		 mtime_ns;
};

struct found {
	struct found_file *files;	/* sorted by path, no duplicates */
	size_t		 nfiles;
	char		**roots;	/* absolute form of each PATH given */
	size_t		 nroots;
};

void		 found_init(struct found *f);
void		 found_release(struct found *f);
/* Adds the profile files under path; -1 with *cause (caller frees). */
int		 discover(struct found *f, const char *path, char **cause);
/*
 * For a file named on its own (path, as given to discover()) of a format
 * that reads beside (formats.h: a trace JSON): adds the complete
 * format's files in its folder (the XSpace files), which hold the same
 * events and what it lacks.  Returns how many; *names, their base names
 * joined by "', '" (caller frees), when any.
 */
size_t		 discover_beside(struct found *f, const char *path,
		    char **names);
/* Sorts and removes duplicates; call once after the last discover(). */
void		 found_finish(struct found *f);
/* Keeps only the files of the newest run. */
void		 found_keep_latest(struct found *f);
/* Keeps only the files for which keep(file, arg) returns nonzero. */
void		 found_keep_if(struct found *f,
		    int (*keep)(const struct found_file *, void *), void *arg);
/* Number of profile files (file_kind_is_profile()). */
size_t		 found_profiles(const struct found *f);

#endif
