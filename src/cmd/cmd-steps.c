/* Step times per device, their breakdown, summary statistics and skew. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/report.h"
#include "report/steps-report.h"

static int	steps_run(int argc, char **argv);

static const struct option steps_options[] = {
	{ "outlier-margin", required_argument, NULL, 'm' },
	{ "skew", no_argument, NULL, 'k' },
	{ "skip", required_argument, NULL, 's' },
	{ "summary", no_argument, NULL, 'S' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_steps = {
	.name = "steps",
	.usage = "jaxprof steps [--summary | --skew] [--skip=n] "
	    "[--outlier-margin=pct] "
	    "[--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "step times per device, with compute, collective, "
	    "transfer and idle time",
	.options =
	    "  --summary       per device: min, median, mean, p90, max, "
	    "stddev, breakdown\n"
	    "  --skew          per step: spread of step time across hosts\n"
	    "  --skip=N        leave out each device's first N steps\n"
	    "  --outlier-margin=PCT  an outlier is also PCT above the median\n"
	    "                  (default 10%)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching (default: the newest run,\n"
	    "                  naming the others)\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.longopts = steps_options,
	.takes = TAKES_ALL,
	.needs = NEEDS_ONE_RUN,
	.run = steps_run,
};

/* "10%" or "10": a percentage from 0 to 1000, as a fraction. */
static double
parse_margin(const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno != 0 || end == s || !(d >= 0 && d <= 1000) ||
	    (*end != '\0' && strcmp(end, "%") != 0))
		jp_errx(EXIT_TROUBLE, "invalid --outlier-margin '%s' "
		    "(expected a percentage such as 10%%)", s);
	return d / 100;
}

static int
steps_run(int argc, char **argv)
{
	struct steps_options opt = { STEPS_EACH, 0, 0.10 };
	struct report r;
	int ch, view = 0;

	cmd_report_init(&cmd_steps, &r);
	while ((ch = cmd_next_option(&cmd_steps, NULL, &r, argc, argv)) != -1) {
		switch (ch) {
		case 'k':
		case 'S':
			if (view != 0 && view != ch)
				jp_errx(EXIT_TROUBLE, "--summary and --skew "
				    "cannot be combined");
			view = ch;
			opt.view = ch == 'S' ? STEPS_SUMMARY : STEPS_SKEW;
			break;
		case 'm':
			opt.outlier_margin = parse_margin(optarg);
			break;
		case 's':
			opt.skip = (size_t)parse_long_option("steps", "skip",
			    optarg, 0, 1000000000L);
			break;
		}
	}
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, steps_report(&r, &opt));
}
