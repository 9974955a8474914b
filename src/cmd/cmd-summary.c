/* What bounds a run and what to do about it, on one screen or one page. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "lib/outfile.h"
#include "report/html-page.h"
#include "output/output.h"
#include "report/overview.h"
#include "report/overview-text.h"
#include "report/report.h"

static int	summary_run(int argc, char **argv);

/* --format is summary's own: it takes html, not csv. */
static const struct option summary_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_summary = {
	.name = "summary",
	.usage = "jaxprof summary [-o file] [--device=glob] [--host=glob] "
	    "[--run=glob] [--latest] [--format=fmt] [--wide] [--db=file] path ...",
	.summary = "what bounds the run, with the numbers, and what to do",
	.options =
	    "  -o, --output=FILE  write to FILE (needed for --format=html)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching (default: the newest run,\n"
	    "                  naming the others)\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), json, markdown, html\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.shortopts = "o:",
	.longopts = summary_options,
	.takes = TAKES_ALL & ~TAKES_FORMAT,
	/* host events and executions; each allocator's peak and timeline */
	.needs = NEEDS_ONE_RUN | NEEDS_EVENTS | NEEDS_MEMORY,
	.run = summary_run,
};

static int
summary_run(int argc, char **argv)
{
	struct report r;
	struct overview ov;
	struct outfile of;
	const char *out_path = NULL;
	FILE *fp = stdout;
	int ch, html = 0, rc, status = EXIT_OK;

	cmd_report_init(&cmd_summary, &r);
	while ((ch = cmd_next_option(&cmd_summary, NULL, &r, argc, argv)) !=
	    -1) {
		if (ch == OPT_FORMAT && strcmp(optarg, "html") == 0) {
			html = 1;
			continue;
		}
		if (ch == OPT_FORMAT) {
			enum out_format f;

			html = 0;	/* the last --format counts */
			if (strcmp(optarg, "csv") == 0 ||
			    output_parse_format(optarg, &f) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --format '%s' "
				    "(choose from table, json, markdown, html)",
				    optarg);
		}
		if (report_option(&r, ch, optarg))
			continue;
		if (ch == 'o')
			out_path = optarg;
	}
	if (html && out_path == NULL)
		jp_errx(EXIT_TROUBLE, "--format=html needs -o FILE");
	report_open(&r, argc - optind, argv + optind);
	overview_load(&ov, &r);
	report_end_snapshot(&r);
	/*
	 * Said here and in the report, which is written all the same: like
	 * a damaged file skipped, it leaves a report to read (exit 0).
	 */
	memory_losses_warn(&ov.memory_losses, "the summary");
	if (out_path != NULL && (fp = outfile_fopen(&of, out_path)) == NULL) {
		jp_warn("cannot write '%s'", out_path);
		overview_release(&ov);
		return report_close(&r, EXIT_TROUBLE);
	}
	if (html)
		rc = html_page_write(&ov, fp);
	else if (r.format == FMT_JSON)
		rc = overview_write_json(&ov, fp);
	else
		rc = overview_write_text(&ov, r.format, fp);
	if (fp != stdout && (rc == -1 || outfile_commit(&of) == -1)) {
		outfile_abort(&of);
		rc = -1;
	}
	if (rc == -1) {
		jp_warn("cannot write '%s'", out_path != NULL ? out_path :
		    "standard output");
		status = EXIT_TROUBLE;
	}
	overview_release(&ov);
	return report_close(&r, status);
}
