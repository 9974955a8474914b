/* An XSpace file converted to Chrome-trace JSON, streamed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "read-xplane.h"
#include "source.h"
#include "write-chrome.h"

int
convert_to_chrome(const char *in_path, const char *out_path,
    const struct chrome_options *opt, char **cause)
{
	struct pf_read_stats rs;
	struct chrome_writer *w;
	struct pf_handler h;
	struct source src;
	char *write_cause = NULL;
	int rc;

	if (source_open_check(&src, in_path, xplane_check_start, cause) == -1)
		return -1;
	if (strcmp(out_path, "-") == 0)
		w = chrome_writer_new(stdout, "standard output", opt, &h,
		    cause);
	else
		w = chrome_writer_new(NULL, out_path, opt, &h, cause);
	if (w == NULL) {
		source_close(&src);
		return -1;
	}
	rc = xplane_read(&src, in_path, &h, &rs, cause);
	source_close(&src);
	/* A failed write stops the reader; finish says what failed. */
	if (chrome_writer_finish(w, NULL, &write_cause) == -1) {
		if (rc == -1)
			free(*cause);
		*cause = write_cause;
		return -1;
	}
	return rc == 0 ? 0 : -1;
}
