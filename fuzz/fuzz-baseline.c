/*
 * Fuzz target: a baseline file (jaxprof-baseline(1)) read as check and
 * diff read one, then written back out as baseline save would.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/baseline.h"
#include "fuzz.h"
#include "report/summary.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct summary s;
	char *cause = NULL;
	FILE *fp;

	summary_init(&s);
	if (baseline_read(&s, fuzz_spool(data, size, ".json"), &cause) == 0 &&
	    (fp = fopen("/dev/null", "w")) != NULL) {
		(void)baseline_write(&s, fp, &cause);
		fclose(fp);
	}
	summary_release(&s);
	free(cause);
	return 0;
}
