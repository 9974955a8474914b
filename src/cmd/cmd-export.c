/* Write the index's tables as Parquet or NDJSON, for Spark or DuckDB. */
#include "config.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "lib/xmalloc.h"
#include "report/export.h"
#include "report/report.h"

static int	export_run(int argc, char **argv);

enum { OPT_TO = OPT_REPORT_LAST };

static const struct option export_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "to", required_argument, NULL, OPT_TO },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_export = {
	.name = "export",
	.usage = "jaxprof export [--to=parquet|ndjson] [--latest] [--run=glob] "
	    "[--host=glob] [--db=file] -o dir path ...",
	.summary = "write the index's tables as Parquet or NDJSON for other "
	    "engines",
	.options =
	    "  --to=FORMAT     parquet (default) or ndjson\n"
	    "  -o, --output=DIR  where the tables go: "
	    "DIR/<table>/run=<run>/host=<host>/\n"
	    "  --latest        only the newest run\n"
	    "  --run=GLOB      only runs whose name matches\n"
	    "  --host=GLOB     only hosts whose name matches\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  private one, removed after)\n"
	    "Each file's parts are replaced whole when it is exported again: "
	    "one process\nper file may write into one DIR.\n",
	.shortopts = "o:",
	.longopts = export_options,
	.takes = TAKES_DB | TAKES_FILE_FILTERS,
	.needs = NEEDS_EVENTS | NEEDS_MEMORY,
	.run = export_run,
};

/* The private index's folder, removed at exit (report_open() may exit). */
static char	*db_dir;

/* A new folder for a private index; NULL with a warning if none. */
static char *
private_db_dir(void)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir = xasprintf("%s/jaxprof-export.XXXXXX",
	    tmpdir != NULL && *tmpdir != '\0' ? tmpdir : "/tmp");

	if (mkdtemp(dir) == NULL) {
		jp_warn("cannot make a private index folder '%s'", dir);
		free(dir);
		return NULL;
	}
	return dir;
}

/* The private index folder and what SQLite left in it. */
static void
remove_db_dir(void)
{
	char *dir = db_dir;
	DIR *d;

	if (dir == NULL)
		return;
	d = opendir(dir);
	struct dirent *e;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char *path;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		(void)unlink(path);
		free(path);
	}
	if (d != NULL)
		closedir(d);
	(void)rmdir(dir);
	free(dir);
	db_dir = NULL;
}

static int
export_run(int argc, char **argv)
{
	enum export_format fmt = EXPORT_PARQUET;
	const char *out = NULL, *env = getenv("JAXPROF_DB");
	char *db = NULL;
	struct report r;
	int ch, status;

	cmd_report_init(&cmd_export, &r);
	while ((ch = cmd_next_option(&cmd_export, NULL, &r, argc, argv)) != -1) {
		switch (ch) {
		case 'o':
			out = optarg;
			break;
		case OPT_TO:
			if (export_parse_format(optarg, &fmt) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --to '%s' "
				    "(parquet, ndjson)", optarg);
			break;
		}
	}
	if (out == NULL || *out == '\0') {
		jp_warnx("no output folder: give -o DIR");
		cmd_usage_error(&cmd_export);
	}
	/* One process per file needs no shared index: a private one. */
	if (r.db_path == NULL && (env == NULL || *env == '\0')) {
		if ((db_dir = private_db_dir()) == NULL)
			return EXIT_TROUBLE;
		atexit(remove_db_dir);
		db = xasprintf("%s/index.sqlite", db_dir);
		r.db_path = db;
	}
	report_open(&r, argc - optind, argv + optind);
	status = export_files(&r, fmt, out) == 0 ? EXIT_OK : EXIT_TROUBLE;
	status = report_close(&r, status);
	free(db);
	return status;
}
