/* Compile vs execute per jitted function, and recompilations. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/compile.h"
#include "report/report.h"

static int	compile_run(int argc, char **argv);

static const struct option compile_options[] = {
	{ "phases", no_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 },
};

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
	.longopts = compile_options,
	.takes = TAKES_ALL,
	.needs = NEEDS_EVENTS,
	.run = compile_run,
};

static int
compile_run(int argc, char **argv)
{
	struct report r;
	int ch, phases = 0;

	cmd_report_init(&cmd_compile, &r);
	while ((ch = cmd_next_option(&cmd_compile, NULL, &r, argc, argv)) != -1)
		if (ch == 'p')
			phases = 1;
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, compile_report(&r, phases));
}
