/*
 * Fuzz target: a Chrome trace JSON file (plain or gzip) through the whole
 * load of a report: the streaming reader, the step pre-pass and the
 * classification of every plane (src/load/load.c), in one thread; then the
 * reader alone with a small batch budget (a quarter of the file), so that
 * the first pass gives up keeping the events part way and the batches
 * read them again.  An
 * input that is a recipe (shape.h) is first built into the trace it asks
 * for.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "load/discover.h"
#include "fuzz.h"
#include "load/formats.h"
#include "read/read-json.h"
#include "shape.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct pf_read_stats rs;
	struct file_summary fs;
	struct pf_handler none;
	struct shape_out built;
	char *cause = NULL;

	if (shape_is_recipe(data, size)) {
		shape_json(data, size, &built);
		path = fuzz_spool(built.data, built.len, ".trace.json");
		size = built.len;
		shape_out_free(&built);
	} else
		path = fuzz_spool(data, size, ".trace.json");

	if (load_file(path, KIND_TRACE_JSON, 1, NULL, &fs, &cause) == 0)
		file_summary_release(&fs);
	free(cause);
	cause = NULL;
	memset(&none, 0, sizeof none);
	/* Every pass reads the whole file: a few passes, however large. */
	(void)json_read_budget(path, 4096 + size / 4, &none, &rs, &cause);
	free(cause);
	return 0;
}
