/*
 * The profile formats jaxprof reads, registered once: what finding files
 * (discover.c: names), telling them by their bytes (sniff.h), loading them
 * (the reader), the index refresh (which of a folder's files to read),
 * reading one beside another and falling back from one to the next each
 * ask of a format.  A new input format is a row of formats.c and its
 * reader; only formats.c and this file name a kind (t0905 checks).
 *
 *	enum file_kind kind;
 *	if (file_kind_of("host0.xplane.pb", &kind) == 0 &&
 *	    file_kind_is_profile(kind)) ... load_file(path, kind, ...)
 */
#ifndef JAXPROF_FORMATS_H
#define JAXPROF_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "load/load.h"
#include "input/sniff.h"

enum file_kind {
	KIND_XPLANE,
	KIND_TRACE_JSON,
	KIND_OTHER,		/* other files tools write into a run folder */
};

/* A file name of a format: a suffix after the host, or a whole name. */
struct format_name {
	const char	*text;
	int		 whole;		/* the whole name, no host part */
	/*
	 * Beside a file of a lower rank in its folder, one of this name is
	 * not read (the same events in another format); -1: never read.
	 */
	int		 rank;
};

struct format {
	enum file_kind	 kind;
	const char	*name;		/* files.kind in the index */
	const char	*what;		/* for messages: "an XSpace" */
	const struct format_name *names;	/* longest suffix first; NULL-ended */
	enum sniffed	 sniffed[3];	/* what sniff.h says of it */
	/*
	 * Everything a profile holds, the HLO included: preferred where one
	 * file is read (view), what extract --to=chrome converts, and the
	 * reader of a file whose name and bytes say nothing.
	 */
	int		 complete;
	/* Named on its own, the complete files of its folder are read too. */
	int		 read_beside;
	/*
	 * When none of a folder's files of it could be read, the folder's
	 * next rank (struct format_name) is read in their place.
	 */
	int		 falls_back;
	/* The reader, as load_file(); NULL for files only listed. */
	int	(*load)(const char *path, int nthreads,
		    const struct load_hooks *hooks, struct file_summary *fs,
		    char **cause);
	/* Its reader of plain bytes in memory, as load_memory(); or NULL. */
	int	(*load_bytes)(const char *path, const uint8_t *data,
		    size_t size, int nthreads, const struct load_hooks *hooks,
		    struct file_summary *fs, char **cause);
};

const struct format *format_of_kind(enum file_kind kind);
/* The complete format (struct format). */
const struct format *format_complete(void);
/* The format of a file in a run folder that no format's names match. */
const struct format *format_unnamed(void);
/* Whether files of kind are profiles (read), not only listed. */
int		 file_kind_is_profile(enum file_kind kind);
/* The kind's name, files.kind in the index. */
const char	*file_kind_name(enum file_kind kind);
/* Kind of a file by its name; -1 when it is nothing jaxprof knows. */
int		 file_kind_of(const char *name, enum file_kind *kind);
/*
 * The rank (struct format_name) of a file of kind named name: its name's,
 * or the kind's first suffix's when its name is none of the kind's.
 */
int	format_rank(enum file_kind kind, const char *name);
/* The length of the format suffix name ends in (the host before); 0: none. */
size_t	format_suffix_len(const char *name);
/* The profile format sniff.h recognised, NULL for any other. */
const struct format *format_of_sniffed(enum sniffed s);

/*
 * Reads path, of kind's format (planes in up to nthreads threads); hooks
 * may be NULL.  Returns 0, or -1 with *cause a new message (caller frees)
 * and fs left empty.  A kind without a reader is read as the complete
 * format (an XSpace).
 */
int	load_file(const char *path, enum file_kind kind, int nthreads,
	    const struct load_hooks *hooks, struct file_summary *fs,
	    char **cause);
/*
 * The same for the size bytes at data, read from path (an archive
 * entry): plain bytes are read in place where the format can, the rest
 * (gzip, or a reader of files only) through a file.
 */
int	load_memory(const char *path, const uint8_t *data, size_t size,
	    enum file_kind kind, int nthreads, const struct load_hooks *hooks,
	    struct file_summary *fs, char **cause);

#endif
