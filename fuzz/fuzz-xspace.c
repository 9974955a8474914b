/*
 * Fuzz target: an XSpace (`*.xplane.pb`, plain or gzip) through the whole
 * load of a report: the wire reader, the step pre-pass and the
 * classification of every plane (src/load.c), in one thread.  The bytes
 * are read where they lie, as an archive entry's are (load_memory): an
 * exact-size buffer, so any read past its end is caught; gzip input goes
 * through a file as usual.
 */
#include "config.h"

#include <stdlib.h>

#include "discover.h"
#include "fuzz.h"
#include "load.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct file_summary fs;
	char *cause = NULL;

	if (load_memory("fuzz.xplane.pb", data, size, KIND_XPLANE, 1, NULL,
	    &fs, &cause) == 0)
		file_summary_release(&fs);
	free(cause);
	return 0;
}
