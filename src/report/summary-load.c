/*
 * summary_load(): a summary from a baseline file (baseline.c) or from the
 * index (summary.c), whichever the path names.  Kept apart so that
 * baseline.c and summary.c depend one way: baseline on summary.
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "report/baseline.h"
#include "load/discover.h"
#include "lib/err.h"
#include "input/read-archive.h"
#include "report/report.h"
#include "input/sniff.h"
#include "report/summary.h"
#include "lib/xmalloc.h"

/* Whether path names a baseline file rather than profiles. */
static int
is_baseline(const char *path, int want_baseline)
{
	const char *base = strrchr(path, '/');
	enum file_kind kind;
	struct stat sb;
	size_t len = strlen(path);

	base = base != NULL ? base + 1 : path;
	if (stat(path, &sb) == -1)
		return want_baseline ||
		    (len > 5 && strcmp(path + len - 5, ".json") == 0);
	if (!S_ISREG(sb.st_mode))
		return 0;
	/* By what it holds; by name when its bytes say nothing. */
	switch (sniff_file(path)) {
	case SNIFF_BASELINE:
		return 1;
	case SNIFF_JSON_OTHER:	/* a baseline's reader says what is wrong */
	case SNIFF_UNKNOWN:
		return file_kind_of(base, &kind) == -1 &&
		    !arc_is_archive_name(base);
	default:
		return 0;
	}
}

/*
 * A side with nothing at all to compare is a wrong input (a baseline
 * written as "[]" reads as an empty trace), never a run that passes or
 * fails: exits 2 naming it.
 */
static void
refuse_empty(const struct summary *s, const char *path)
{
	if (s->nops > 0 || s->nkernels > 0 || s->nsteps > 0 ||
	    s->ncompiles > 0 || s->ntransfers > 0 || s->nmemory > 0)
		return;
	jp_errx(EXIT_TROUBLE, "'%s' holds nothing to compare: no ops, steps, "
	    "compiles, transfers or memory (an empty trace?)", path);
}

int
summary_load(struct summary *s, const struct report *opts,
    const char *path, int want_baseline)
{
	struct report r;
	char *cause;
	int status;

	s->label = xstrdup(path);
	if (is_baseline(path, want_baseline)) {
		if (baseline_read(s, path, &cause) == -1)
			jp_errx(EXIT_TROUBLE, "%s", cause);
		refuse_empty(s, path);
		return EXIT_OK;
	}
	/* A fresh report per side: report_close() clears it. */
	r = *opts;
	r.memory = 1;	/* summary_load_memory() */
	r.damage_fails = 1;	/* a verdict on part of a profile misleads */
	report_open(&r, 1, (char **)&path);
	status = report_close(&r, summary_from_index(s, &r, path));
	refuse_empty(s, path);
	return status;
}
