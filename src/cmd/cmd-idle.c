/* Device idle gaps, and what the host was doing during each. */
#include "config.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "classify/classify.h"
#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/idle.h"
#include "report/report.h"

static int	idle_run(int argc, char **argv);

static const struct option idle_options[] = {
	{ "limit", required_argument, NULL, 'n' },
	{ "min-gap", required_argument, NULL, 'g' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_idle = {
	.name = "idle",
	.usage = "jaxprof idle [--min-gap=time] [-n count] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--format=fmt] [--wide] "
	    "[--db=file] path ...",
	.summary = "device idle gaps and what the host was doing meanwhile",
	.options =
	    "  --min-gap=TIME  gaps at least this long (default 1ms; at "
	    "least 100us)\n"
	    "  -n, --limit=N   the N longest gaps (default 20; 0: all)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.shortopts = "n:",
	.longopts = idle_options,
	.takes = TAKES_ALL,
	.needs = NEEDS_EVENTS,
	.run = idle_run,
};

static int
idle_run(int argc, char **argv)
{
	struct report r;
	int64_t min_gap = 1000000000LL;
	long limit = 20;
	int ch;

	cmd_report_init(&cmd_idle, &r);
	while ((ch = cmd_next_option(&cmd_idle, NULL, &r, argc, argv)) != -1) {
		switch (ch) {
		case 'g':
			min_gap = parse_duration(optarg);
			if (min_gap == -1)
				jp_errx(EXIT_TROUBLE, "invalid --min-gap '%s' "
				    "(a time such as 1ms, 500us or 2s)", optarg);
			if (min_gap < GAP_FLOOR_PS)
				jp_errx(EXIT_TROUBLE, "--min-gap '%s' is below "
				    "the 100us the index keeps", optarg);
			break;
		case 'n':
			limit = parse_long_option("idle", "limit", optarg, 0,
			    1000000000L);
			break;
		}
	}
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, idle_report(&r, min_gap, limit));
}
