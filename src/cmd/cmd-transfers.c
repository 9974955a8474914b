/* Host<->device and device<->device copies: bytes, time, bandwidth. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/report.h"
#include "report/transfers.h"

static int	transfers_run(int argc, char **argv);

static const struct option transfers_options[] = {
	{ "events", no_argument, NULL, 'e' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_transfers = {
	.name = "transfers",
	.usage = "jaxprof transfers [--events] [--device=glob] [--host=glob] "
	    "[--run=glob] [--latest] [--format=fmt] [--wide] [--db=file] path ...",
	.summary = "host-device and device-device copies with bytes and "
	    "bandwidth",
	.options =
	    "  --events        one row per copy instead of totals\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.longopts = transfers_options,
	.takes = TAKES_ALL,
	.needs = NEEDS_EVENTS,
	.run = transfers_run,
};

static int
transfers_run(int argc, char **argv)
{
	struct report r;
	int ch, events = 0;

	cmd_report_init(&cmd_transfers, &r);
	while ((ch = cmd_next_option(&cmd_transfers, NULL, &r, argc, argv)) !=
	    -1)
		if (ch == 'e')
			events = 1;
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, transfers_report(&r, events));
}
