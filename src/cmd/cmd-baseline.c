/* Save a profile's summary as a baseline file, for diff and check. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/baseline.h"
#include "cmd/cmd.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "report/report.h"
#include "report/summary.h"

static int	baseline_run(int argc, char **argv);

static const struct option baseline_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_baseline = {
	.name = "baseline",
	.usage = "jaxprof baseline save [-o file] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--db=file] path",
	.summary = "save a profile's summary as a baseline for diff and check",
	.options =
	    "  -o, --output=FILE  write the baseline to FILE (default: "
	    "standard output)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.shortopts = "o:",
	.longopts = baseline_options,
	.takes = TAKES_DB | TAKES_DEVICE | TAKES_FILE_FILTERS,
	.run = baseline_run,
};

static int
baseline_run(int argc, char **argv)
{
	struct report r;
	struct summary s;
	const char *output = NULL;
	char *cause;
	struct outfile of;
	FILE *fp;
	int ch, save = 0, status;

	cmd_report_init(&cmd_baseline, &r);
	/* The action comes first: "baseline save ..."; drop it. */
	if (argc > 1 && strcmp(argv[1], "save") == 0) {
		argv[1] = argv[0];
		argc--;
		argv++;
		save = 1;
	}
	while ((ch = cmd_next_option(&cmd_baseline, NULL, &r, argc, argv)) !=
	    -1)
		if (ch == 'o')
			output = optarg;
	/* "jaxprof baseline --help" is fine without the action. */
	if (!save && optind < argc)
		jp_warnx("unknown action '%s' (the only one is save)",
		    argv[optind]);
	if (!save || argc - optind != 1)
		cmd_usage_error(&cmd_baseline);

	summary_init(&s);
	status = summary_load(&s, &r, argv[optind], 0);
	/* A baseline not written whole leaves the old one as it was. */
	fp = output != NULL ? outfile_fopen(&of, output) : stdout;
	if (fp == NULL) {
		jp_warn("cannot write '%s'", output);
		status = EXIT_TROUBLE;
	} else if (baseline_write(&s, fp, &cause) == -1) {
		jp_warnx("cannot write '%s': %s", output != NULL ? output :
		    "standard output", cause);
		free(cause);
		if (fp != stdout)
			outfile_abort(&of);
		status = EXIT_TROUBLE;
	} else if (fp != stdout && outfile_commit(&of) == -1) {
		jp_warn("cannot write '%s'", output);
		outfile_abort(&of);
		status = EXIT_TROUBLE;
	}
	summary_release(&s);
	return status;
}
