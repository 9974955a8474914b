/* List profile files: run, host, kind, size, planes, events, devices, span. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/list.h"
#include "report/report.h"

static int	list_run(int argc, char **argv);

const struct cmd cmd_list = {
	.name = "list",
	.usage = "jaxprof list [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "list the runs, hosts and profile files under each path",
	.options =
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.takes = TAKES_DB | TAKES_FORMAT | TAKES_FILE_FILTERS | TAKES_WIDE,
	.run = list_run,
};

static int
list_run(int argc, char **argv)
{
	struct report r;

	cmd_report_init(&cmd_list, &r);
	while (cmd_next_option(&cmd_list, NULL, &r, argc, argv) != -1)
		;	/* list has no option of its own */
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, list_report(&r));
}
