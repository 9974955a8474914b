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
	.takes = TAKES_DB | TAKES_FORMAT | TAKES_LATEST | TAKES_WIDE,
	/* a query's answer is for a script */
	.needs = NEEDS_EVERY_FILE,
	.run = sql_run,
};

static int
sql_run(int argc, char **argv)
{
	struct report r;
	const char *query;

	cmd_report_init(&cmd_sql, &r);
	while (cmd_next_option(&cmd_sql, NULL, &r, argc, argv) != -1)
		;	/* sql has no option of its own */
	if (argc - optind < 2)
		cmd_usage_error(&cmd_sql);
	query = argv[optind];
	sql_tables_wanted(&r, query);
	report_open(&r, argc - optind - 1, argv + optind + 1);
	return report_close(&r, sql_report(&r, query));
}
