/* An XSpace file converted to Chrome-trace JSON, streamed. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/convert.h"
#include "load/load.h"
#include "read/read-hlo.h"
#include "read/read-xplane.h"
#include "input/source.h"
#include "load/write-chrome.h"
#include "lib/xmalloc.h"

/*
 * A temporary file under $TMPDIR (else /tmp), already unlinked: standard
 * output's trace is written there first.  NULL with *cause.
 */
static FILE *
spool_open(char **cause)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	FILE *fp = NULL;
	int fd;

	path = xasprintf("%s/jaxprof-extract.XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	if ((fd = mkstemp(path)) == -1 || unlink(path) == -1 ||
	    (fp = fdopen(fd, "w+")) == NULL) {
		*cause = xasprintf("cannot create a temporary file '%s': %s",
		    path, strerror(errno));
		if (fd != -1)
			close(fd);
	}
	free(path);
	return fp;
}

/* Copies the spooled trace to standard output; -1 with *cause. */
static int
spool_copy(FILE *fp, char **cause)
{
	char buf[65536];
	size_t n;

	rewind(fp);
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			break;
	if (ferror(fp)) {
		*cause = xasprintf("cannot read back the temporary file: %s",
		    strerror(errno));
		return -1;
	}
	if (ferror(stdout) || fflush(stdout) != 0) {
		*cause = xasprintf("cannot write 'standard output': %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
convert_to_chrome(const char *in_path, const char *out_path,
    const struct chrome_options *opt, char **cause)
{
	struct chrome_options attributed;
	struct pf_read_stats rs;
	struct chrome_writer *w;
	struct pf_handler h;
	struct source src;
	struct hlo_set *hlo;
	FILE *spool = NULL;
	char *write_cause = NULL;
	int rc, rc2;

	/* The programs' HLO first: kernels are named after it as they come. */
	if ((hlo = load_hlo(in_path, cause)) == NULL)
		return -1;
	if (opt != NULL)
		attributed = *opt;
	else
		chrome_options_init(&attributed);
	attributed.hlo = hlo;
	if (source_open_check(&src, in_path, xplane_check_start, cause) == -1) {
		hlo_set_free(hlo);
		return -1;
	}
	/*
	 * Standard output gets the trace only once the whole input was read:
	 * a pipeline must not take a damaged file for a short, valid trace.
	 */
	if (strcmp(out_path, "-") == 0 && (spool = spool_open(cause)) == NULL) {
		source_close(&src);
		hlo_set_free(hlo);
		return -1;
	}
	if (spool != NULL)
		w = chrome_writer_new(spool, "a temporary file", &attributed,
		    &h, cause);
	else
		w = chrome_writer_new(NULL, out_path, &attributed, &h, cause);
	if (w == NULL) {
		source_close(&src);
		hlo_set_free(hlo);
		if (spool != NULL)
			fclose(spool);
		return -1;
	}
	rc = xplane_read(&src, in_path, &h, &rs, cause);
	source_close(&src);
	/* A failed write stops the reader; finish says what failed. */
	rc2 = chrome_writer_finish(w, NULL, &write_cause);
	hlo_set_free(hlo);
	if (rc2 == -1) {
		if (rc == -1)
			free(*cause);
		*cause = write_cause;
		rc = -1;
	} else if (rc == 0 && spool != NULL)
		rc = spool_copy(spool, cause);
	if (spool != NULL)
		fclose(spool);
	return rc == 0 ? 0 : -1;
}
