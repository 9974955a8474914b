/*
 * What every report does first: parse the shared options, find the
 * profile files under PATH..., open the index and bring it up to date,
 * and offer the --host/--device/--run filters as SQL.
 *
 *	struct report r;
 *	report_init(&r, "top");
 *	while ((ch = getopt_long(...)) != -1)
 *		if (!report_option(&r, ch, optarg)) switch (ch) { ... }
 *	report_open(&r, argc - optind, argv + optind);   (exits 2 on failure)
 *	... SQL with report_filter_sql(&r), report_bind_filters() ...
 *	return report_close(&r, EXIT_OK);
 */
#ifndef JAXPROF_REPORT_H
#define JAXPROF_REPORT_H

#include <getopt.h>
#include <sqlite3.h>

#include "load/discover.h"
#include "index/index.h"
#include "output/output.h"

/* getopt_long values of the shared options. */
enum {
	OPT_DB = 0x100,
	OPT_DEVICE,
	OPT_FORMAT,
	OPT_HOST,
	OPT_LATEST,
	OPT_RUN,
	OPT_WIDE,
	OPT_REPORT_LAST,	/* commands number their own options from here */
};

/* The shared long options, for a command's longopts[]. */
#define REPORT_LONGOPTS \
	{ "db", required_argument, NULL, OPT_DB }, \
	{ "device", required_argument, NULL, OPT_DEVICE }, \
	{ "format", required_argument, NULL, OPT_FORMAT }, \
	{ "host", required_argument, NULL, OPT_HOST }, \
	{ "latest", no_argument, NULL, OPT_LATEST }, \
	{ "run", required_argument, NULL, OPT_RUN }, \
	{ "wide", no_argument, NULL, OPT_WIDE }

struct report {
	const char	*cmd;		/* for messages */
	const char	*db_path;	/* --db, $JAXPROF_DB, or the cache */
	enum out_format	 format;
	const char	*host_glob;
	const char	*device_glob;
	const char	*run_glob;
	int		 latest;
	/*
	 * summary, steps: the newest run, unless --run or several paths
	 * choose (report_open()).
	 */
	int		 one_run;
	int		 run_given;	/* --run */
	/* diff, check, baseline, sql, index: a damaged file fails (exit 2). */
	int		 damage_fails;
	int		 include_compile_work;	/* ops of autotuning too */
	/* Reads an event-level table (index_want_events()). */
	int		 events;
	/* Reads a memory table (index_want_memory()). */
	int		 memory;
	struct found	 found;
	struct index	*ix;
	int		 nbad;		/* files that could not be read */
	char		*db_owned;
	char		*runs_note;	/* several runs summed, or NULL */
	char		*skipped_note;	/* damaged files skipped, or NULL */
	char		**paths;	/* the PATHs given (report_open()) */
	int		 npaths;
};

void	report_init(struct report *r, const char *cmd);
/* Handles a shared option; 0 if ch is not one of them. */
int	report_option(struct report *r, int ch, const char *arg);
/*
 * Finds the files under paths, opens and refreshes the index.  Exits 2
 * when nothing usable is found or the index cannot be opened.
 */
void	report_open(struct report *r, int npaths, char **paths);
/*
 * Ends the read transaction report_open() began, in which the report
 * sees one snapshot of the index; report_close() does it too.
 */
void	report_end_snapshot(struct report *r);
/*
 * SQL: whether the device (plane) name in column col matches --device,
 * parameter ?102: the whole name or the part after its ':'.
 */
#define REPORT_DEVICE_SQL(col) "(" col " GLOB ?102 OR substr(" col \
	", instr(" col ", ':') + 1) GLOB ?102)"

/*
 * " AND ..." restricting files f and planes p to the filters, with
 * parameters ?101 (host), ?102 (device), ?103 (run).
 */
const char *report_filter_sql(void);
void	report_bind_filters(const struct report *r, sqlite3_stmt *st);
/*
 * The statement head + report_filter_sql() + tail, prepared with the
 * filters bound (exits 2 on an SQL error, as index_prepare()).
 */
sqlite3_stmt *report_prepare(struct report *r, const char *head,
	    const char *tail);
/*
 * Whether any selected file that was read is trace JSON, which lacks what
 * only an XSpace has (FLOP and byte counts, program ids, HLO metadata):
 * reports then say what they could not compute.
 */
int	report_has_json(struct report *r);
/*
 * The report's output on stdout, with the notes of report_notes().
 */
struct output *report_output(struct report *r, const struct out_col *cols,
	    size_t ncols);
/*
 * Notes under o's table: several runs summed, or the one run chosen of
 * several (jaxprof(1), DESCRIPTION); damaged files skipped.
 */
void	report_notes(const struct report *r, struct output *o);
/*
 * The PATH given on the command line that the indexed file file_id was
 * found under, as given; NULL when only one PATH was given.
 */
const char *report_path_of(struct report *r, int64_t file_id);
/* That note for runs (distinct, sorted), or NULL for one; caller frees. */
char	*report_runs_note(char *const *runs, size_t nruns);
/* Frees everything; returns status, or 2 if some file was unreadable. */
int	report_close(struct report *r, int status);

/*
 * Strict number parsing for options: exits 2 with "invalid --name 'arg'"
 * unless arg is an integer in [min, max].
 */
long	parse_long_option(const char *cmd, const char *name, const char *arg,
	    long min, long max);
/*
 * A time such as "150ms", "2.5s", "500us" or "800ns" (a bare number is
 * microseconds), in ps; -1 if arg is not one.
 */
int64_t	parse_duration(const char *arg);

#endif
