/* Run SQL against the index: for anything the reports do not show. */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "report/report.h"
#include "lib/xmalloc.h"

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

/*
 * Whether query names an event-level table (memory: a memory table),
 * which the index then makes (index_want_events(), index_want_memory()):
 * other queries leave them as they are.
 */
static int
names_table(const char *query, int memory)
{
	char *lower = xstrdup(query), *p;
	int names;

	for (p = lower; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	if (memory)
		names = strstr(lower, "memory_allocators") != NULL ||
		    strstr(lower, "memory_samples") != NULL ||
		    strstr(lower, "memory_allocations") != NULL ||
		    strstr(lower, "program_memory") != NULL ||
		    strstr(lower, "memory_buffers") != NULL;
	else
		names = strstr(lower, "host_events") != NULL ||
		    strstr(lower, "executions") != NULL ||
		    strstr(lower, "transfers") != NULL ||
		    strstr(lower, "hlo_instructions") != NULL;
	free(lower);
	return names;
}

/*
 * The sqlite3 shell's .tables and .schema [table] as SQL on the index's
 * schema, the temporary one (selected) too; NULL for SQL.  Exits 2 on any
 * other dot command, saying what there is.
 */
static char *
dot_command(const char *query)
{
	static const char schema[] = "(SELECT name, tbl_name, type, sql FROM "
	    "sqlite_schema UNION ALL SELECT name, tbl_name, type, sql FROM "
	    "sqlite_temp_schema)";
	char cmd[16], arg[128], *q, *sql;
	int n;

	if (*query != '.')
		return NULL;
	n = sscanf(query, "%15s %127s", cmd, arg);
	if (n >= 1 && strcmp(cmd, ".tables") == 0)
		q = sqlite3_mprintf("SELECT name FROM %s WHERE type IN "
		    "('table', 'view') AND name NOT LIKE 'sqlite_%%' AND name "
		    "LIKE %Q ORDER BY name", schema, n == 2 ? arg : "%");
	else if (n >= 1 && strcmp(cmd, ".schema") == 0)
		q = sqlite3_mprintf("SELECT sql || ';' AS sql FROM %s WHERE "
		    "sql IS NOT NULL AND tbl_name NOT LIKE 'sqlite_%%' AND "
		    "tbl_name LIKE %Q ORDER BY tbl_name, type = 'index', name",
		    schema, n == 2 ? arg : "%");
	else
		jp_errx(EXIT_TROUBLE, "unknown dot command '%s' (jaxprof sql "
		    "has .tables and .schema [table]; other queries are SQL)",
		    query);
	if (q == NULL)
		jp_errx(EXIT_TROUBLE, "out of memory");
	sql = xstrdup(q);
	sqlite3_free(q);
	return sql;
}

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
	struct output *o = NULL;
	struct out_col *cols = NULL;
	sqlite3_stmt *st;
	const char *query, *tail = NULL;
	char *dot;
	int ch, i, n, rc, status = EXIT_OK;

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
	dot = dot_command(query);
	r.events = dot == NULL && names_table(query, 0);
	r.memory = dot == NULL && names_table(query, 1);
	report_open(&r, argc - optind - 1, argv + optind + 1);
	/* The user's statement runs as given, BEGIN and COMMIT included. */
	report_end_snapshot(&r);
	/* The index is jaxprof's to change: the user's query only reads. */
	if (sqlite3_exec(index_db(r.ix), "PRAGMA query_only = ON", NULL, NULL,
	    NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(index_db(r.ix), dot != NULL ? dot : query, -1,
	    &st, &tail) != SQLITE_OK) {
		jp_warnx("invalid query: %s", sqlite3_errmsg(index_db(r.ix)));
		free(dot);
		return report_close(&r, EXIT_TROUBLE);
	}
	while (tail != NULL && isspace((unsigned char)*tail))
		tail++;
	if (st == NULL || (tail != NULL && *tail != '\0' &&
	    strcmp(tail, ";") != 0)) {
		jp_warnx("invalid query: give exactly one SQL statement");
		sqlite3_finalize(st);
		free(dot);
		return report_close(&r, EXIT_TROUBLE);
	}
	free(dot);
	n = sqlite3_column_count(st);
	cols = calloc((size_t)n + 1, sizeof *cols);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (o == NULL) {
			/* Column types from the first row's values. */
			for (i = 0; i < n; i++) {
				int t = sqlite3_column_type(st, i);

				cols[i].name = sqlite3_column_name(st, i);
				cols[i].type = t == SQLITE_INTEGER ? COL_INT :
				    t == SQLITE_FLOAT ? COL_REAL : COL_STR;
			}
			o = output_new(r.format, stdout, cols, (size_t)n);
			/* The user's own text: shown whole. */
			output_whole_text(o);
		}
		for (i = 0; i < n; i++) {
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_NULL:
				output_null(o);
				break;
			case SQLITE_INTEGER:
				output_int(o, sqlite3_column_int64(st, i));
				break;
			case SQLITE_FLOAT:
				output_double(o, sqlite3_column_double(st, i));
				break;
			default:
				output_str(o, (const char *)
				    sqlite3_column_text(st, i));
			}
		}
		output_end_row(o);
	}
	if (rc != SQLITE_DONE) {
		char *msg = index_errmsg(index_db(r.ix));

		jp_warnx("query failed: %s", msg);
		free(msg);
		status = EXIT_TROUBLE;
	}
	if (o == NULL && status == EXIT_OK) {
		/* No rows: the header alone (csv), or an empty table. */
		for (i = 0; i < n; i++) {
			cols[i].name = sqlite3_column_name(st, i);
			cols[i].type = COL_STR;
		}
		o = output_new(r.format, stdout, cols, (size_t)n);
	}
	if (o != NULL && output_finish(o) == -1)
		status = EXIT_TROUBLE;
	sqlite3_finalize(st);
	free(cols);
	return report_close(&r, status);
}
