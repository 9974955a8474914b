/* Compile vs execute per jitted function, and recompilations. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/compile.h"
#include "report/report.h"

static int	compile_run(int argc, char **argv);

const struct cmd cmd_compile = {
	.name = "compile",
	.usage = "jaxprof compile [--phases] [--device=glob] [--host=glob] "
	    "[--run=glob] [--latest] [--format=fmt] [--wide] [--db=file] path ...",
	.summary = "compile time versus execution time per jitted function",
	.options =
	    "  --phases        what ran inside the compiles, per function\n"
	    "  --device=GLOB   executions on planes matching only\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.run = compile_run,
};

static int
compile_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "phases", no_argument, NULL, 'p' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	int ch, phases = 0;

	report_init(&r, "compile");
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			cmd_print_help(&cmd_compile, stdout);
			return EXIT_OK;
		case 'p':
			phases = 1;
			break;
		default:
			cmd_usage_error(&cmd_compile);
		}
	}
	r.events = 1;
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, compile_report(&r, phases));
}
