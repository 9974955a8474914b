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
	.run = list_run,
};

static int
list_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "latest", no_argument, NULL, OPT_LATEST },
		{ "run", required_argument, NULL, OPT_RUN },
		{ "wide", no_argument, NULL, OPT_WIDE },
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	int ch;

	report_init(&r, "list");
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		if (ch == 'h') {
			cmd_print_help(&cmd_list, stdout);
			return EXIT_OK;
		}
		cmd_usage_error(&cmd_list);
	}
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, list_report(&r));
}
