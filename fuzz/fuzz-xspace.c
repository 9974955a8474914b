/*
 * Fuzz target: an XSpace (`*.xplane.pb`, plain or gzip) through the whole
 * load of a report: the wire reader, the step pre-pass and the
 * classification of every plane (src/load.c), in one thread.
 */
#include "config.h"

#include <stdlib.h>

#include "discover.h"
#include "fuzz.h"
#include "load.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_spool(data, size, ".xplane.pb");
	struct file_summary fs;
	char *cause = NULL;

	if (load_file(path, KIND_XPLANE, 1, &fs, &cause) == 0)
		file_summary_release(&fs);
	free(cause);
	return 0;
}
