/* Compare two profiles (or baselines) op by op, with step totals. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analyze-ops.h"
#include "report/diff-report.h"
#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "report/report.h"

static int	diff_run(int argc, char **argv);

enum {
	OPT_INCLUDE_COMPILE_WORK = OPT_REPORT_LAST,
	OPT_SKIP,
	OPT_SUMMARY,
};

/* --format is diff's own: it takes html. */
static const struct option diff_options[] = {
	{ "by", required_argument, NULL, 'b' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "group", required_argument, NULL, 'g' },
	{ "include-compile-work", no_argument, NULL, OPT_INCLUDE_COMPILE_WORK },
	{ "limit", required_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "skip", required_argument, NULL, OPT_SKIP },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_diff = {
	.name = "diff",
	.usage = "jaxprof diff [--by=key] [--group=key] [-n count] "
	    "[--skip=n] [--summary] [--include-compile-work] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--format=fmt] [--wide] "
	    "[-o file] [--db=file] base new",
	.summary = "compare two profiles or baselines op by op",
	.options =
	    "  --by=KEY        device-time (default), self-time, count, avg\n"
	    "  --group=KEY     op (default), category, module, kernel,\n"
	    "                  framework-op, source (file:line from the HLO)\n"
	    "  -n, --limit=N   show the first N rows (default 20; 0: all)\n"
	    "  --include-compile-work  also the ops of device work done while\n"
	    "                  compiling (autotuning; left out by default)\n"
	    "  --skip=N        leave each device's first N steps out of the\n"
	    "                  step times (default 0)\n"
	    "  --summary       the device time, steps, compiles, transfers and\n"
	    "                  memory peaks of both sides as rows (metric,\n"
	    "                  base, new, change)\n"
	    "                  instead of the ops; JSON has both without it\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown, html (a\n"
	    "                  page for a pull request; needs -o)\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  -o, --output=FILE  write to FILE, replaced once whole\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n"
	    "BASE and NEW are profile paths or files saved by "
	    "'jaxprof baseline save'.\n",
	.shortopts = "n:o:",
	.longopts = diff_options,
	.takes = TAKES_ALL & ~TAKES_FORMAT,
	.run = diff_run,
};

static int
diff_run(int argc, char **argv)
{
	struct diff_request q;
	struct report r;
	long limit = 20, skip = 0;
	int ch, by = BY_DEVICE_TIME, group = GROUP_OP, summary = 0, html = 0;
	const char *out_path = NULL;

	cmd_report_init(&cmd_diff, &r);
	while ((ch = cmd_next_option(&cmd_diff, NULL, &r, argc, argv)) != -1) {
		if (ch == OPT_FORMAT) {
			enum out_format f;

			/* The last --format counts. */
			html = strcmp(optarg, "html") == 0;
			if (html)
				continue;
			if (output_parse_format(optarg, &f) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --format '%s' "
				    "(choose from %s, html)", optarg,
				    output_formats);
		}
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'b':
			if ((by = op_by_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --by '%s' "
				    "(choose from %s)", optarg, op_by_choices);
			break;
		case 'g':
			if ((group = op_group_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --group '%s' "
				    "(choose from %s)", optarg,
				    op_group_choices);
			break;
		case OPT_INCLUDE_COMPILE_WORK:
			r.include_compile_work = 1;
			break;
		case 'n':
			limit = parse_long_option("diff", "limit", optarg, 0,
			    1000000000L);
			break;
		case 'o':
			out_path = optarg;
			break;
		case OPT_SKIP:
			skip = parse_long_option("diff", "skip", optarg, 0,
			    1000000000L);
			break;
		case OPT_SUMMARY:
			summary = 1;
			break;
		}
	}
	if (argc - optind != 2)
		cmd_usage_error(&cmd_diff);
	if (html && out_path == NULL)
		jp_errx(EXIT_TROUBLE, "--format=html needs -o FILE");
	/* The page compares the time of ops, paired by what they are. */
	if (html && (by == BY_COUNT || group != GROUP_OP || summary))
		jp_errx(EXIT_TROUBLE, "--format=html compares ops by time: "
		    "no --by=count, --group or --summary");

	q.base = argv[optind];
	q.new = argv[optind + 1];
	q.by = by;
	q.group = group;
	q.limit = (size_t)limit;
	q.skip = (size_t)skip;
	q.summary = summary;
	q.html = html;
	q.out_path = out_path;
	return diff_report(&r, &q);
}
