/* Host<->device and device<->device copies: bytes, time, bandwidth. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/report.h"
#include "report/transfers.h"

static int	transfers_run(int argc, char **argv);

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
	.run = transfers_run,
};

static int
transfers_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	int ch, events = 0;

	report_init(&r, "transfers");
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'e':
			events = 1;
			break;
		case 'h':
			cmd_print_help(&cmd_transfers, stdout);
			return EXIT_OK;
		default:
			cmd_usage_error(&cmd_transfers);
		}
	}
	r.events = 1;
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, transfers_report(&r, events));
}
