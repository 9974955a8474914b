/* Run SQL against the index: for anything the reports do not show. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "report/report.h"
#include "report/sql.h"

static int	sql_run(int argc, char **argv);

const struct cmd cmd_sql = {
	.name = "sql",
	.usage = "jaxprof sql [--latest] [--format=fmt] [--wide] [--db=file] "
	    "query path ...",
	.summary = "run an SQL query on the index of the profiles under path",
	.options =
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n"
	    "The temporary table selected(file_id) holds the files found "
	    "under path.\nThe query runs read-only, one statement; as in "
	    "the sqlite3 shell, '.tables'\nlists the tables and '.schema "
	    "[table]' shows how they are made.\n",
	.run = sql_run,
};

static int
sql_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "latest", no_argument, NULL, OPT_LATEST },
		{ "wide", no_argument, NULL, OPT_WIDE },
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	const char *query;
	int ch;

	report_init(&r, "sql");
	r.damage_fails = 1;	/* a query's answer is for a script */
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		if (ch == 'h') {
			cmd_print_help(&cmd_sql, stdout);
			return EXIT_OK;
		}
		cmd_usage_error(&cmd_sql);
	}
	if (argc - optind < 2)
		cmd_usage_error(&cmd_sql);
	query = argv[optind];
	sql_tables_wanted(&r, query);
	report_open(&r, argc - optind - 1, argv + optind + 1);
	return report_close(&r, sql_report(&r, query));
}
