/* Serve a trace to the Perfetto UI from 127.0.0.1:9001, until Ctrl-C. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/report.h"
#include "report/view.h"

static int	view_run(int argc, char **argv);

static const struct option view_options[] = {
	{ "keep", no_argument, NULL, 'k' },
	{ "latest", no_argument, NULL, 'l' },
	{ "once", no_argument, NULL, 'o' },
	{ "port", required_argument, NULL, 'p' },
	{ "run", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_view = {
	.name = "view",
	.usage = "jaxprof view [--once] [--port=n] [--run=name | --latest] "
	    "path",
	.summary = "serve a trace to the Perfetto UI and print its link",
	.options =
	    "  --once          exit once the trace was fetched (default: "
	    "until Ctrl-C)\n"
	    "  --keep          serve until Ctrl-C (the default)\n"
	    "  --port=N        listen on port N (default: 9001, the UI's)\n"
	    "  --run=NAME      in a folder, that run (default: the newest)\n"
	    "  --latest        the newest run (the default)\n",
	.longopts = view_options,
	.run = view_run,
};

static int
view_run(int argc, char **argv)
{
	const char *run = NULL;
	long port = VIEW_DEFAULT_PORT;
	int ch, once = 0;

	while ((ch = cmd_next_option(&cmd_view, NULL, NULL, argc, argv)) != -1) {
		switch (ch) {
		case 'k':
			once = 0;	/* what it always does now */
			break;
		case 'o':
			once = 1;
			break;
		case 'l':
			break;	/* the newest run is what view serves anyway */
		case 'p':
			port = parse_long_option("view", "port", optarg, 1,
			    65535);
			break;
		case 'r':
			run = optarg;
			break;
		}
	}
	if (argc - optind != 1)
		cmd_usage_error(&cmd_view);
	return view_serve(argv[optind], run, port, once);
}
