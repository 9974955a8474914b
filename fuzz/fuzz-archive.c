/*
 * Fuzz target: an archive (any format and filter libarchive reads) as
 * discover and source read one: the listing, then every regular entry
 * streamed out in one pass, and the first profile entry opened by name
 * ("<archive>//<entry>", gzip inflated when it is gzip).
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/discover.h"
#include "lib/err.h"
#include "lib/xmalloc.h"
#include "fuzz.h"
#include "input/read-archive.h"
#include "input/source.h"
#include "lib/xmalloc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_spool(data, size, ".tar.gz");
	struct arc_entry *entries, e;
	struct arc_reader *r;
	struct source src;
	char *cause = NULL, *first = NULL;
	size_t n, i;
	int fd, rc;

	if (arc_list(path, &entries, &n, &cause) == 0) {
		for (i = 0; i < n && first == NULL; i++)
			if (entries[i].type == ARC_FILE && !entries[i].unsafe)
				first = xasprintf("%s%s%s", path,
				    ARCHIVE_ENTRY_SEP, entries[i].name);
		arc_entries_free(entries, n);
	}
	free(cause);
	cause = NULL;

	if ((fd = open("/dev/null", O_WRONLY | O_CLOEXEC)) != -1 &&
	    arc_open(&r, path, &cause) == 0) {
		while ((rc = arc_next(r, &e, &cause)) == 1)
			if (e.type == ARC_FILE &&
			    arc_copy(r, fd, (int64_t)1 << 24, &cause) == -1)
				break;
		arc_close(r);
	}
	if (fd != -1)
		close(fd);
	free(cause);
	cause = NULL;

	if (first != NULL) {
		if (source_open(&src, first, &cause) == 0)
			source_close(&src);
		free(cause);
		free(first);
	}
	return 0;
}
