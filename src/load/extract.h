/*
 * Writing the profile files of a folder or archive out into a folder,
 * safely (extract): which files, under which names, refusing hostile
 * archive entries, overwrites, symbolic links on the way and more than
 * max_bytes; and converting one XSpace to Chrome-trace JSON (--to=chrome).
 *
 *	struct extract x;
 *	extract_init(&x);
 *	x.path = "logdir"; x.outdir = "out";
 *	if (extract_select(&x) == 0) (list x.jobs, or) extract_write(&x);
 *	extract_release(&x);
 *
 * Each function prints what went wrong (jp_warnx) and returns -1.
 */
#ifndef JAXPROF_EXTRACT_H
#define JAXPROF_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/outfile.h"
#include "load/discover.h"

struct chrome_options;
struct extract_mode;

/* One file to write. */
struct job {
	const struct found_file *ff;	/* borrowed from the found set */
	char		*archive;	/* the archive holding it, or NULL */
	const char	*entry;		/* its name there (in ff->path) */
	char		*out;		/* output path relative to OUTDIR */
	char		*shown;		/* its path in messages */
	int		 done;
	/* Written beside its output, renamed there once all are written. */
	struct outfile	 of;
};

struct extract {
	const char	*path;		/* PATH as given */
	const char	*outdir;	/* -o, or NULL */
	const char	*run_glob;
	int		 latest;
	int		 force;
	int64_t		 max_bytes;
	const struct extract_mode *mode;
	struct found	 found;
	struct job	*jobs;		/* in found order: by path */
	size_t		 njobs;
	int		 outfd;		/* OUTDIR, open while writing */
	char		**made;		/* files and folders made, to undo */
	size_t		 nmade;
};

/* Empty, copying, run_glob "*", max_bytes 16 GiB, no outdir. */
void	extract_init(struct extract *x);
void	extract_release(struct extract *x);
/*
 * Finds the files under x->path, refuses a hostile archive, selects the
 * jobs (x->run_glob, x->latest), checks the total size and, when
 * x->outdir is set, that no output is in the way.
 */
int	extract_select(struct extract *x);
/* Writes the selected jobs into x->outdir; undoes everything on failure. */
int	extract_write(struct extract *x);
/*
 * Converts the one XSpace under x->path (x->run_glob, x->latest) to
 * Chrome-trace JSON in x->outdir, a file ("-": standard output); opt's
 * window, or steps first..last of the profile when first >= 0.
 */
int	extract_chrome(struct extract *x, struct chrome_options *opt,
	    int64_t first, int64_t last);

#endif
