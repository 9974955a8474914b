/*
 * extract: options, then extract.c writes the trace files of an archive or
 * folder out, safely, or converts one to Chrome-trace JSON.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "load/discover.h"
#include "lib/err.h"
#include "load/extract.h"
#include "output/output.h"
#include "load/write-chrome.h"

static int	extract_run(int argc, char **argv);

/* --format, --latest and --run are extract's own: it reads no index. */
enum {
	OPT_FORCE = OPT_REPORT_LAST,
	OPT_LIST_ONLY,
	OPT_MAX_BYTES,
	OPT_STEP,
	OPT_TO,
	OPT_WINDOW,
};

static const struct option extract_options[] = {
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "latest", no_argument, NULL, OPT_LATEST },
	{ "list-only", no_argument, NULL, OPT_LIST_ONLY },
	{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
	{ "output", required_argument, NULL, 'o' },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "step", required_argument, NULL, OPT_STEP },
	{ "to", required_argument, NULL, OPT_TO },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_extract = {
	.name = "extract",
	.usage = "jaxprof extract [-o outdir] [--run=glob] [--latest] "
	    "[--list-only] [--force] [--max-bytes=size] [--format=fmt] "
	    "[--to=chrome [--step=n[-m] | --window=start_us:end_us]] path",
	.summary = "write the trace files of an archive or folder into a folder",
	.options =
	    "  -o, --output=DIR  the folder to write into (made if missing)\n"
	    "  --run=GLOB        only runs matching\n"
	    "  --latest          only the newest run\n"
	    "  --list-only       print what would be written; write nothing\n"
	    "  --force           overwrite files that exist\n"
	    "  --max-bytes=SIZE  refuse more than SIZE bytes in all (suffix\n"
	    "                    K, M or G; default 16G)\n"
	    "  --format=FMT      for --list-only: table (default), csv, json,\n"
	    "                    markdown\n"
	    "  --to=chrome       convert one XSpace to Chrome-trace JSON for\n"
	    "                    the Perfetto UI; -o names the file (.gz: gzip;\n"
	    "                    -: standard output)\n"
	    "  --step=N[-M]      with --to=chrome: only steps N to M\n"
	    "  --window=A:B      with --to=chrome: only events overlapping\n"
	    "                    A..B (microseconds, the profile's time base)\n",
	.shortopts = "o:",
	.longopts = extract_options,
	.run = extract_run,
};

static const struct out_col columns[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "kind", COL_STR, NULL, 0, UNIT_NONE },
	{ "size_bytes", COL_BYTES, "size", 0, UNIT_NONE },
	{ "file", COL_STR, NULL, 0, UNIT_NONE },
};

/*
 * "N" or "N-M": steps N to M, plain decimals (a number too large is
 * refused, not read as the largest one).
 */
static int
parse_steps(const char *s, int64_t *first, int64_t *last)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*first = strtoll(s, &end, 10);
	if (errno != 0)
		return -1;
	*last = *first;
	if (*end == '-') {
		s = end + 1;
		if (*s < '0' || *s > '9')
			return -1;
		*last = strtoll(s, &end, 10);
		if (errno != 0 || *last < *first)
			return -1;
	}
	return *end == '\0' ? 0 : -1;
}

/* "A:B" in microseconds, to [start_ps, end_ps). */
static int
parse_window(const char *s, int64_t *start, int64_t *end)
{
	char *colon = strchr(s, ':'), *p;
	double a, b;

	if (colon == NULL)
		return -1;
	a = strtod(s, &p);
	if (p != colon)
		return -1;
	b = strtod(colon + 1, &p);
	if (p == colon + 1 || *p != '\0' || !(b > a) || a < -9e12 ||
	    b > 9e12)
		return -1;
	*start = (int64_t)(a * 1e6 + (a < 0 ? -0.5 : 0.5));
	*end = (int64_t)(b * 1e6 + 0.5);
	return 0;
}

static int
list_jobs(struct extract *x, enum out_format format)
{
	struct output *o = output_new(format, stdout, columns,
	    sizeof columns / sizeof columns[0]);
	size_t i;

	for (i = 0; i < x->njobs; i++) {
		const struct found_file *ff = x->jobs[i].ff;

		output_str(o, ff->run);
		output_str(o, ff->host);
		output_str(o, file_kind_name(ff->kind));
		output_double(o, (double)ff->size);
		output_str(o, x->jobs[i].out);
		output_end_row(o);
	}
	return output_finish(o);
}

static int
extract_run(int argc, char **argv)
{
	struct chrome_options opt;
	struct extract x;
	enum out_format format = FMT_TABLE;
	const char *steps = NULL, *window = NULL;
	int64_t first = -1, last = -1;
	int ch, list_only = 0, to_chrome = 0, status = EXIT_TROUBLE;

	extract_init(&x);
	chrome_options_init(&opt);
	while ((ch = cmd_next_option(&cmd_extract, NULL, NULL, argc, argv)) !=
	    -1) {
		switch (ch) {
		case OPT_FORCE:
			x.force = 1;
			break;
		case OPT_FORMAT:
			if (output_parse_format(optarg, &format) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --format '%s' "
				    "(choose from %s)", optarg, output_formats);
			break;
		case OPT_LATEST:
			x.latest = 1;
			break;
		case OPT_LIST_ONLY:
			list_only = 1;
			break;
		case OPT_MAX_BYTES:
			if ((x.max_bytes = parse_size(optarg)) < 0)
				jp_errx(EXIT_TROUBLE, "invalid --max-bytes "
				    "'%s' (expected bytes, or a number with "
				    "K, M or G)", optarg);
			break;
		case 'o':
			x.outdir = optarg;
			break;
		case OPT_RUN:
			x.run_glob = optarg;
			break;
		case OPT_STEP:
			steps = optarg;
			break;
		case OPT_TO:
			if (strcmp(optarg, "chrome") != 0)
				jp_errx(EXIT_TROUBLE, "invalid --to '%s' "
				    "(the one choice is chrome)", optarg);
			to_chrome = 1;
			break;
		case OPT_WINDOW:
			window = optarg;
			break;
		}
	}
	if (argc - optind != 1)
		cmd_usage_error(&cmd_extract);
	if ((steps != NULL || window != NULL) && !to_chrome)
		jp_errx(EXIT_TROUBLE, "--step and --window go with --to=chrome");
	if (steps != NULL && window != NULL)
		jp_errx(EXIT_TROUBLE, "--step and --window cannot be combined");
	if (window != NULL && parse_window(window, &opt.start_ps,
	    &opt.end_ps) == -1)
		jp_errx(EXIT_TROUBLE, "invalid --window '%s' (expected "
		    "START_US:END_US, START below END)", window);
	if (steps != NULL && parse_steps(steps, &first, &last) == -1)
		jp_errx(EXIT_TROUBLE, "invalid --step '%s' (expected N or N-M)",
		    steps);
	if (to_chrome) {
		x.path = argv[optind];
		status = extract_chrome(&x, &opt, first, last) == -1 ?
		    EXIT_TROUBLE : EXIT_OK;
		extract_release(&x);
		return status;
	}
	if (x.outdir == NULL && !list_only)
		jp_errx(EXIT_TROUBLE, "no output folder: give -o outdir, or "
		    "--list-only");
	if (x.outdir != NULL && *x.outdir == '\0')
		jp_errx(EXIT_TROUBLE, "invalid -o ''");
	x.path = argv[optind];

	if (extract_select(&x) == -1)
		goto out;
	if (list_only)
		status = list_jobs(&x, format) == -1 ? EXIT_TROUBLE : EXIT_OK;
	else
		status = extract_write(&x) == -1 ? EXIT_TROUBLE : EXIT_OK;
out:
	extract_release(&x);
	return status;
}
