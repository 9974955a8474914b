/* Build or refresh the index of the profiles under each path. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "lib/term.h"
#include "lib/xmalloc.h"
#include "report/report.h"

static int	index_run(int argc, char **argv);

enum { OPT_EVENTS = OPT_REPORT_LAST, OPT_MEMORY };

static const struct option index_options[] = {
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "memory", no_argument, NULL, OPT_MEMORY },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_index = {
	.name = "index",
	.usage = "jaxprof index [--events] [--memory] [--latest] [--db=file] "
	    "path ...",
	.summary = "build or refresh the index of the profiles under each path",
	.options =
	    "  --events        the event-level tables too (host_events,\n"
	    "                  executions, transfers, hlo_instructions; see\n"
	    "                  jaxprof(1))\n"
	    "  --memory        the memory tables too (memory_allocators,\n"
	    "                  memory_samples, memory_allocations,\n"
	    "                  program_memory, memory_buffers)\n"
	    "  --latest        only the newest run\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.longopts = index_options,
	.takes = TAKES_DB | TAKES_LATEST,
	/* indexing every file is the job; --events, --memory add tables */
	.needs = NEEDS_EVERY_FILE,
	.run = index_run,
};

static int
index_run(int argc, char **argv)
{
	struct report r;
	char *line;
	int ch;

	cmd_report_init(&cmd_index, &r);
	while ((ch = cmd_next_option(&cmd_index, NULL, &r, argc, argv)) != -1) {
		if (ch == OPT_EVENTS)
			r.events = 1;
		else if (ch == OPT_MEMORY)
			r.memory = 1;
	}
	report_open(&r, argc - optind, argv + optind);
	/* The index's path may be long: folded at a terminal. */
	line = xasprintf("%s: %zu profile files, %zu other files", r.db_path,
	    found_profiles(&r.found), r.found.nfiles -
	    found_profiles(&r.found));
	term_put_folded(stdout, line, strlen(line), term_width(stdout));
	free(line);
	return report_close(&r, EXIT_OK);
}
