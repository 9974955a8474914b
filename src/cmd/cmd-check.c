/* Check a profile against a baseline with rules; exit 1 when one fails. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/check-rules.h"
#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/report.h"
#include "lib/xmalloc.h"

static int	check_run(int argc, char **argv);

/* Setting i of check-rules.h is long option OPT_SETTING + i. */
enum {
	OPT_INCLUDE_COMPILE_WORK = OPT_REPORT_LAST,
	OPT_SETTING = 0x200,
};

static const struct option check_options[] = {
	{ "include-compile-work", no_argument, NULL,
	    OPT_INCLUDE_COMPILE_WORK },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_check = {
	.name = "check",
	.usage = "jaxprof check --baseline=base [--rules=file] "
	    "[--max-step-regression=pct] [--max-step-time=time] "
	    "[--step-percentile=p] [--skip=n] [--max-op-regression=pct] "
	    "[--max-new-op-share=pct] [--min-op-share=pct] [--max-compiles=n] "
	    "[--max-memory-growth=pct] [--max-peak-memory=size] "
	    "[--include-compile-work] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--format=fmt] [--wide] "
	    "[--db=file] new",
	.summary = "check a profile against a baseline; exit 1 on regression",
	.options =
	    "  --baseline=BASE          a baseline file or profile path\n"
	    "  --rules=FILE             read 'key = value' settings (the long\n"
	    "                           option names) from FILE; options win\n"
	    "  --max-step-regression=PCT  step time may grow by PCT at most\n"
	    "                           (default 5%)\n"
	    "  --max-step-time=TIME     step time at most TIME (150ms, 2s;\n"
	    "                           default off)\n"
	    "  --step-percentile=P      step time is this percentile "
	    "(default 50)\n"
	    "  --skip=N                 leave each device's first N steps out\n"
	    "  --max-op-regression=PCT  an op's self time may grow by PCT\n"
	    "                           (default 10%), or by twice its noise\n"
	    "                           when that is more\n"
	    "  --max-new-op-share=PCT   ops only in the new run may take PCT\n"
	    "                           of the base's device time per step\n"
	    "                           (default 5%)\n"
	    "  --min-op-share=PCT       ops below PCT of the self time on "
	    "both\n"
	    "                           sides are not checked (default 1%)\n"
	    "  --max-compiles=N         no function compiled more than N "
	    "times\n"
	    "                           (default off)\n"
	    "  --max-memory-growth=PCT  an allocator's or a program's peak\n"
	    "                           memory may grow by PCT at most\n"
	    "                           (default off)\n"
	    "  --max-peak-memory=SIZE   no allocator's peak above SIZE (16G;\n"
	    "                           default off)\n"
	    "  --include-compile-work   also the ops of device work done while\n"
	    "                           compiling (autotuning)\n"
	    "  --device=GLOB, --host=GLOB, --run=GLOB, --latest\n"
	    "                           select what both sides hold\n"
	    "  --format=FMT             table (default), csv, json, markdown\n"
	    "  --wide                   tables at a terminal: every column, not cut\n"
	    "  --db=FILE                the index to use\n"
	    "Every rule has its default unless set; a rule's value 'off'\n"
	    "turns it off.  Numbers are plain decimals (no sign, exponent,\n"
	    "0x or leading 0); shares and the percentile are 0 to 100.\n"
	    "Ops pair by identity (jaxprof-diff(1), PAIRING).\n",
	.longopts = check_options,	/* and the settings' (check_run()) */
	.takes = TAKES_ALL,
	.run = check_run,
};

/*
 * The long options of the settings of check-rules.h, setting i as
 * OPT_SETTING + i, with a zero entry after them.
 */
static struct option *
setting_options(const struct check_settings *cs)
{
	struct option *lo = xcalloc(cs->n + 1, sizeof *lo);
	size_t i;

	for (i = 0; i < cs->n; i++) {
		lo[i].name = check_setting_name(cs, i);
		lo[i].has_arg = required_argument;
		lo[i].val = OPT_SETTING + (int)i;
	}
	return lo;
}

static int
check_run(int argc, char **argv)
{
	struct check_settings *cs = check_settings_new();
	struct option *settings = setting_options(cs);
	struct report r;
	char *cause;
	int ch, status;
	size_t i;

	cmd_report_init(&cmd_check, &r);
	while ((ch = cmd_next_option(&cmd_check, settings, &r, argc, argv)) !=
	    -1) {
		if (ch == OPT_INCLUDE_COMPILE_WORK) {
			r.include_compile_work = 1;
			continue;
		}
		i = (size_t)(ch - OPT_SETTING);
		if (check_setting_parse(cs, i, optarg) == -1)
			jp_errx(EXIT_TROUBLE, "invalid --%s '%s' (expected %s)",
			    check_setting_name(cs, i), optarg,
			    check_setting_expected(cs, i));
	}
	if (argc - optind != 1)
		cmd_usage_error(&cmd_check);
	if (check_settings_read(cs, &cause) == -1)
		jp_errx(EXIT_TROUBLE, "%s", cause);
	if (check_settings_baseline(cs) == NULL) {
		jp_warnx("no --baseline given");
		cmd_usage_error(&cmd_check);
	}
	status = check_report(&r, cs, argv[optind]);
	free(settings);
	check_settings_free(cs);
	return status;
}
