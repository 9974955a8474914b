/* Rank ops (or categories, modules, kernels) by device time. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "report/analyze-ops.h"
#include "report/report.h"
#include "report/top.h"
#include "report/top-table.h"

static int	top_run(int argc, char **argv);

enum {
	OPT_INCLUDE_COMPILE_WORK = OPT_REPORT_LAST,
	OPT_PEAK_BANDWIDTH,
	OPT_PEAK_FLOPS,
};

static const struct option top_options[] = {
	{ "by", required_argument, NULL, 'b' },
	{ "fields", required_argument, NULL, 'f' },
	{ "group", required_argument, NULL, 'g' },
	{ "include-compile-work", no_argument, NULL, OPT_INCLUDE_COMPILE_WORK },
	{ "limit", required_argument, NULL, 'n' },
	{ "peak-bandwidth", required_argument, NULL, OPT_PEAK_BANDWIDTH },
	{ "peak-flops", required_argument, NULL, OPT_PEAK_FLOPS },
	{ "tree", no_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_top = {
	.name = "top",
	.usage = "jaxprof top [--by=key] [--group=key] [--tree] [-n count] "
	    "[--fields=list] [--include-compile-work] "
	    "[--peak-flops=rate] [--peak-bandwidth=rate] "
	    "[--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "rank ops by device time, self time, count or average",
	.options =
	    "  --by=KEY        device-time (default), self-time, count, avg\n"
	    "  --group=KEY     op (default), category, module, kernel,\n"
	    "                  framework-op, source (file:line from the HLO),\n"
	    "                  scope (host annotations)\n"
	    "  --tree          with --group=scope: the nesting as a tree\n"
	    "  -n, --limit=N   show the first N rows (0: all; default 20 in\n"
	    "                  table and markdown, all in csv and json)\n"
	    "  --fields=LIST   the columns, by their csv names or table headers,\n"
	    "                  comma-separated\n"
	    "                  (default: those jaxprof-top(1) marks shown)\n"
	    "  --include-compile-work  also the ops of device work done while\n"
	    "                  compiling (autotuning; left out by default)\n"
	    "  --peak-flops=R  the roofline's FLOP/s for every op, over the\n"
	    "                  device's (a number, or with k, M, G, T, P: 989T)\n"
	    "  --peak-bandwidth=R  the roofline's memory bytes/s (3.35T)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.shortopts = "n:",
	.longopts = top_options,
	.takes = TAKES_ALL,
	.run = top_run,
};

static int
top_run(int argc, char **argv)
{
	struct top_columns cols;
	struct top_options opt;
	const char *field_list = NULL;
	struct report r;
	int ch, by = BY_DEVICE_TIME, group = GROUP_OP, status = EXIT_OK;

	memset(&opt, 0, sizeof opt);
	opt.limit = -1;
	cmd_report_init(&cmd_top, &r);
	while ((ch = cmd_next_option(&cmd_top, NULL, &r, argc, argv)) != -1) {
		switch (ch) {
		case 'b':
			if ((by = op_by_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --by '%s' "
				    "(choose from %s)", optarg, op_by_choices);
			break;
		case 'g':
			if ((opt.scopes = strcmp(optarg, "scope") == 0))
				break;
			if ((group = op_group_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --group '%s' "
				    "(choose from %s, scope)", optarg,
				    op_group_choices);
			break;
		case 'f':
			field_list = optarg;
			break;
		case 't':
			opt.tree = 1;
			break;
		case OPT_INCLUDE_COMPILE_WORK:
			r.include_compile_work = 1;
			break;
		case OPT_PEAK_FLOPS:
			opt.flops_option = top_parse_rate("peak-flops", optarg);
			break;
		case OPT_PEAK_BANDWIDTH:
			opt.bandwidth_option = top_parse_rate("peak-bandwidth",
			    optarg);
			break;
		case 'n':
			opt.limit = parse_long_option("top", "limit", optarg, 0,
			    1000000000L);
			break;
		}
	}
	if (opt.tree && !opt.scopes)
		jp_errx(EXIT_TROUBLE, "--tree goes with --group=scope");
	opt.by = by;
	opt.group = group;
	opt.machine = r.format == FMT_CSV || r.format == FMT_JSON;
	/* Machine formats feed programs: a silent cut would skew them. */
	if (opt.limit == -1)
		opt.limit = opt.machine ? 0 : 20;
	top_columns_choose(&cols, field_list, &opt, r.format);
	report_open(&r, argc - optind, argv + optind);
	if (top_table_write(&r, &opt, &cols) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
