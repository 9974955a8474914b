/* Device idle gaps, and what the host was doing during each. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "classify/classify.h"
#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "report/report.h"
#include "lib/xmalloc.h"

static int	idle_run(int argc, char **argv);

const struct cmd cmd_idle = {
	.name = "idle",
	.usage = "jaxprof idle [--min-gap=time] [-n count] [--device=glob] "
	    "[--host=glob] [--run=glob] [--latest] [--format=fmt] [--wide] "
	    "[--db=file] path ...",
	.summary = "device idle gaps and what the host was doing meanwhile",
	.options =
	    "  --min-gap=TIME  gaps at least this long (default 1ms; at "
	    "least 100us)\n"
	    "  -n, --limit=N   the N longest gaps (default 20; 0: all)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.run = idle_run,
};

static const struct out_col columns[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "device", COL_STR, NULL, 0, UNIT_NONE },
	{ "start_us", COL_PS, "start", 0, UNIT_NONE },
	{ "duration_us", COL_PS, "idle", 0, UNIT_NONE },
	{ "step", COL_INT, NULL, 0, UNIT_NONE },
	{ "host_activity", COL_STR, "host was running", 0, UNIT_NONE },
	{ "host_context", COL_STR, "inside", 0, UNIT_NONE },
	{ "host_line", COL_STR, "thread", 0, UNIT_NONE },
};

static int
idle_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "limit", required_argument, NULL, 'n' },
		{ "min-gap", required_argument, NULL, 'g' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	struct output *o;
	sqlite3_stmt *st;
	int64_t min_gap = 1000000000LL, total = 0, count = 0;
	long limit = 20;
	int ch, status = EXIT_OK;
	char buf[40], *note;

	report_init(&r, "idle");
	while ((ch = cmd_getopt(argc, argv, "hn:", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'g':
			min_gap = parse_duration(optarg);
			if (min_gap == -1)
				jp_errx(EXIT_TROUBLE, "invalid --min-gap '%s' "
				    "(a time such as 1ms, 500us or 2s)", optarg);
			if (min_gap < GAP_FLOOR_PS)
				jp_errx(EXIT_TROUBLE, "--min-gap '%s' is below "
				    "the 100us the index keeps", optarg);
			break;
		case 'h':
			cmd_print_help(&cmd_idle, stdout);
			return EXIT_OK;
		case 'n':
			limit = parse_long_option("idle", "limit", optarg, 0,
			    1000000000L);
			break;
		default:
			cmd_usage_error(&cmd_idle);
		}
	}
	r.events = 1;
	report_open(&r, argc - optind, argv + optind);

	/* How many gaps, and their time: the table shows the longest. */
	st = report_prepare(&r, "SELECT count(*), coalesce(sum(g.dur_ps), 0) "
	    "FROM gaps g JOIN planes p ON p.id = g.plane "
	    "JOIN files f ON f.id = g.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE g.dur_ps >= ?1", "");
	sqlite3_bind_int64(st, 1, min_gap);
	if (index_row(st)) {
		count = sqlite3_column_int64(st, 0);
		total = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	/*
	 * The host events covering the gap's middle: the innermost one is
	 * what the host was doing, and the innermost around it on that
	 * thread (the scope it ran in: Python calls, '$...', left out) its
	 * context, itself when outermost.  Looked up for the gaps shown
	 * only (LIMIT -1: all).
	 */
	st = report_prepare(&r, "WITH g AS (SELECT g.*, f.run, f.host, "
	    "p.name AS device, "
	    "g.start_ps + g.dur_ps / 2 AS mid FROM gaps g "
	    "JOIN planes p ON p.id = g.plane JOIN files f ON f.id = g.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE g.dur_ps >= ?1",
	    " ORDER BY g.dur_ps DESC, f.run, f.host, p.name, g.start_ps "
	    "LIMIT ?2) "
	    "SELECT g.run, g.host, g.device, g.start_ps, g.dur_ps, "
	    "(SELECT st.step FROM steps st WHERE st.plane = g.plane AND "
	    "st.start_ps <= g.mid AND g.mid < st.start_ps + st.dur_ps), "
	    "h.name, coalesce((SELECT h2.name FROM host_events h2 WHERE "
	    "h2.file_id = g.file_id AND h2.line = h.line AND "
	    "h2.depth < h.depth AND substr(h2.name, 1, 1) <> '$' AND "
	    "h2.start_ps <= g.mid AND g.mid < h2.start_ps + h2.dur_ps "
	    "ORDER BY h2.depth DESC LIMIT 1), h.name), "
	    "h.line FROM g LEFT JOIN host_events h ON h.rowid = "
	    "(SELECT h3.rowid FROM host_events h3 WHERE h3.file_id = g.file_id "
	    "AND h3.start_ps <= g.mid AND g.mid < h3.start_ps + h3.dur_ps "
	    "ORDER BY h3.depth DESC, h3.dur_ps LIMIT 1) "
	    "ORDER BY g.dur_ps DESC, g.run, g.host, g.device, g.start_ps");
	sqlite3_bind_int64(st, 1, min_gap);
	sqlite3_bind_int64(st, 2, limit != 0 ? limit : -1);
	o = report_output(&r, columns,
	    sizeof columns / sizeof columns[0]);
	fmt_duration(buf, sizeof buf, min_gap);
	note = xasprintf("Device idle gaps of %s or more (no op, kernel or "
	    "copy running), longest first.", buf);
	output_title(o, note);
	free(note);
	while (index_row(st)) {
		int i;

		for (i = 0; i < 3; i++)
			output_str(o, (const char *)sqlite3_column_text(st, i));
		output_ps(o, (double)sqlite3_column_int64(st, 3));
		output_ps(o, (double)sqlite3_column_int64(st, 4));
		if (sqlite3_column_type(st, 5) == SQLITE_NULL)
			output_null(o);
		else
			output_int(o, sqlite3_column_int64(st, 5));
		for (i = 6; i < 9; i++) {
			const unsigned char *t = sqlite3_column_text(st, i);

			if (t == NULL)
				output_null(o);
			else
				output_str(o, (const char *)t);
		}
		output_end_row(o);
	}
	sqlite3_finalize(st);
	fmt_duration(buf, sizeof buf, total);
	note = xasprintf("%lld gap%s, %s idle in all%s", (long long)count,
	    count == 1 ? "" : "s", buf, limit != 0 && count > limit ?
	    "; -n 0 shows all." : ".");
	output_note(o, note);
	free(note);
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
