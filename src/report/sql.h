/*
 * jaxprof sql's query runner: one statement of the user's, or the sqlite3
 * shell's .tables and .schema [table], on the index, read-only.
 *
 *	sql_tables_wanted(&report, query);	(before report_open())
 *	report_open(&report, npaths, paths);
 *	status = sql_report(&report, query);
 */
#ifndef JAXPROF_REPORT_SQL_H
#define JAXPROF_REPORT_SQL_H

struct report;

/*
 * Sets r's events and memory when query names an event-level or memory
 * table, which the index then makes; exits 2 on a dot command it lacks.
 */
void	sql_tables_wanted(struct report *r, const char *query);

/*
 * Runs query on the opened r, its rows on stdout with the first row's
 * types; the exit status (2: an invalid or failed query).
 */
int	sql_report(struct report *r, const char *query);

#endif
