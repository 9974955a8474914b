/*
 * The one trace file to show for a path: the file itself, or the most
 * complete one of a folder's newest run (or of the run named).
 */
#include "config.h"

#include <string.h>

#include "load/choose-trace.h"
#include "load/discover.h"
#include "lib/xmalloc.h"

/* The trace file a path names: itself, or the best one of a folder's. */
char *
choose_trace(const char *path, const char *run, enum file_kind *kind,
    char **cause)
{
	struct found f;
	const struct found_file *best = NULL;
	size_t i;

	found_init(&f);
	if (discover(&f, path, cause) == -1) {
		found_release(&f);
		return NULL;
	}
	found_finish(&f);
	if (run == NULL)
		found_keep_latest(&f);
	/* An XSpace has everything; else JAX's Perfetto file, else any. */
	for (i = 0; i < f.nfiles; i++) {
		const struct found_file *ff = &f.files[i];

		if (!file_kind_is_profile(ff->kind) ||
		    (run != NULL && strcmp(ff->run, run) != 0))
			continue;
		if (best == NULL || (format_of_kind(ff->kind)->complete &&
		    !format_of_kind(best->kind)->complete))
			best = ff;
	}
	if (best == NULL && run != NULL && found_profiles(&f) > 0)
		*cause = found_no_run_message(&f, run);
	if (best == NULL) {
		if (*cause == NULL)
			*cause = xasprintf("no profiles found under '%s'",
			    path);
		found_release(&f);
		return NULL;
	}
	*kind = best->kind;
	path = xstrdup(best->path);
	found_release(&f);
	return (char *)path;
}
