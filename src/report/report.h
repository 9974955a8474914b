/*
 * What every report does first: parse the shared options, find the
 * profile files under PATH..., open the index and bring it up to date,
 * and offer the --host/--device/--run filters as SQL.
 *
 *	struct report r;
 *	report_init(&r, "top", NEEDS_EVENTS);
 *	while ((ch = getopt_long(...)) != -1)	(report_longopts() in its table)
 *		if (!report_option(&r, ch, optarg)) switch (ch) { ... }
 *	report_open(&r, argc - optind, argv + optind);   (exits 2 on failure)
 *	... SQL with report_filter_sql(&r), report_bind_filters() ...
 *	return report_close(&r, EXIT_OK);
 *
 * A command declares what it needs and the shared options it takes in its
 * row of the command table (cmd/cmd.h), which does the first two steps.
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

/* Which shared options a report takes: bit i is OPT_DB + i. */
enum {
	TAKES_DB = 1 << (OPT_DB - OPT_DB),
	TAKES_DEVICE = 1 << (OPT_DEVICE - OPT_DB),
	TAKES_FORMAT = 1 << (OPT_FORMAT - OPT_DB),
	TAKES_HOST = 1 << (OPT_HOST - OPT_DB),
	TAKES_LATEST = 1 << (OPT_LATEST - OPT_DB),
	TAKES_RUN = 1 << (OPT_RUN - OPT_DB),
	TAKES_WIDE = 1 << (OPT_WIDE - OPT_DB),
	/* --host, --run and --latest: which files */
	TAKES_FILE_FILTERS = TAKES_HOST | TAKES_RUN | TAKES_LATEST,
	TAKES_ALL = TAKES_DB | TAKES_DEVICE | TAKES_FORMAT |
	    TAKES_FILE_FILTERS | TAKES_WIDE,
};
#define REPORT_NSHARED	(OPT_REPORT_LAST - OPT_DB)

/* What a report reads from the index, and how it treats the files. */
enum {
	NEEDS_EVENTS = 1 << 0,		/* an event-level table */
	NEEDS_MEMORY = 1 << 1,		/* a memory table */
	/* the newest run, unless --run or several paths choose */
	NEEDS_ONE_RUN = 1 << 2,
	NEEDS_EVERY_FILE = 1 << 3,	/* a damaged file fails (exit 2) */
};

struct report {
	const char	*cmd;		/* for messages */
	const char	*db_path;	/* --db, $JAXPROF_DB, or the cache */
	enum out_format	 format;
	const char	*host_glob;
	const char	*device_glob;
	const char	*run_glob;
	int		 latest;
	int		 one_run;	/* NEEDS_ONE_RUN (report_open()) */
	int		 run_given;	/* --run */
	int		 damage_fails;	/* NEEDS_EVERY_FILE */
	int		 include_compile_work;	/* ops of autotuning too */
	int		 events;	/* NEEDS_EVENTS: index_want_events() */
	int		 memory;	/* NEEDS_MEMORY: index_want_memory() */
	struct found	 found;
	struct index	*ix;
	int		 nbad;		/* files that could not be read */
	char		*db_owned;
	char		*runs_note;	/* several runs summed, or NULL */
	char		*skipped_note;	/* damaged files skipped, or NULL */
	char		**paths;	/* the PATHs given (report_open()) */
	int		 npaths;
};

/* needs: NEEDS_* (more may be set in r before report_open()). */
void	report_init(struct report *r, const char *cmd, unsigned needs);
/*
 * The shared options of takes (TAKES_*), as getopt_long's table entries,
 * into out[REPORT_NSHARED]; returns how many.
 */
size_t	report_longopts(unsigned takes, struct option *out);
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
