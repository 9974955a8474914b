/* An XSpace file converted to Chrome-trace JSON, streamed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "load.h"
#include "read-hlo.h"
#include "read-xplane.h"
#include "source.h"
#include "write-chrome.h"

int
convert_to_chrome(const char *in_path, const char *out_path,
    const struct chrome_options *opt, char **cause)
{
	struct pf_read_stats rs;
	struct chrome_options attributed;
	struct chrome_writer *w;
	struct pf_handler h;
	struct source src;
	struct hlo_set *hlo;
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
	if (strcmp(out_path, "-") == 0)
		w = chrome_writer_new(stdout, "standard output", &attributed,
		    &h, cause);
	else
		w = chrome_writer_new(NULL, out_path, &attributed, &h, cause);
	if (w == NULL) {
		source_close(&src);
		hlo_set_free(hlo);
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
		return -1;
	}
	return rc == 0 ? 0 : -1;
}
