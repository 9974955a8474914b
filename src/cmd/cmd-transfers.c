/* Host<->device and device<->device copies: bytes, time, bandwidth. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "report/report.h"
#include "lib/xmalloc.h"

static int	transfers_run(int argc, char **argv);

const struct cmd cmd_transfers = {
	.name = "transfers",
	.usage = "jaxprof transfers [--events] [--device=glob] [--host=glob] "
	    "[--run=glob] [--latest] [--format=fmt] [--wide] [--db=file] path ...",
	.summary = "host-device and device-device copies with bytes and "
	    "bandwidth",
	.options =
	    "  --events        one row per copy instead of totals\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.run = transfers_run,
};

static const struct out_col total_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "device", COL_STR, NULL, 0, UNIT_NONE },
	{ "direction", COL_STR, NULL, 0, UNIT_NONE },
	{ "kind", COL_STR, NULL, 0, UNIT_NONE },
	{ "count", COL_INT, NULL, 0, UNIT_NONE },
	{ "bytes", COL_BYTES, NULL, 0, UNIT_NONE },
	{ "time_us", COL_PS, "time", 0, UNIT_NONE },
	{ "wait_us", COL_PS, "waiting", 0, UNIT_NONE },
	{ "gbps", COL_RATE, "GB/s", 0, UNIT_NONE },
};

static const struct out_col event_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "device", COL_STR, NULL, 0, UNIT_NONE },
	{ "line", COL_STR, NULL, 0, UNIT_NONE },
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "direction", COL_STR, NULL, 0, UNIT_NONE },
	{ "kind", COL_STR, NULL, 0, UNIT_NONE },
	{ "bytes", COL_BYTES, NULL, 0, UNIT_NONE },
	{ "start_us", COL_PS, "start", 0, UNIT_NONE },
	{ "duration_us", COL_PS, "duration", 0, UNIT_NONE },
	{ "wait_us", COL_PS, "waiting", 0, UNIT_NONE },
	{ "gbps", COL_RATE, "GB/s", 0, UNIT_NONE },
	{ "module", COL_STR, NULL, 0, UNIT_NONE },
	{ "step", COL_INT, NULL, 0, UNIT_NONE },
};

/*
 * What moved the data: a host call, a device copy, a memset (it fills,
 * copies nothing) or a copy of the autotuner's (compile work, not the
 * steps').
 */
#define MOVED_BY_SQL \
	"CASE WHEN t.on_host THEN 'host call' " \
	"WHEN t.compile_work THEN 'autotuning' " \
	"WHEN t.direction = 'memset' THEN 'memset' ELSE 'device copy' END"

/*
 * Bytes per ps * 1e3 = GB/s over the time not spent waiting; unknown
 * without bytes, or over too short a time (rate_meaningful()), and for
 * a memset (no copy: what it fills is no bandwidth of a link).
 */
static void
output_gbps(struct output *o, sqlite3_stmt *st, int dir_col, int bytes,
    int ps, int64_t count)
{
	const char *dir = (const char *)sqlite3_column_text(st, dir_col);

	if (dir != NULL && strcmp(dir, "memset") == 0)
		output_null(o);
	else if (sqlite3_column_type(st, bytes) == SQLITE_NULL ||
	    !rate_meaningful(sqlite3_column_double(st, ps), (double)count))
		output_null(o);
	else
		output_double(o, sqlite3_column_double(st, bytes) /
		    sqlite3_column_double(st, ps) * 1e3);
}

static void
output_bytes(struct output *o, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		output_null(o);
	else
		output_double(o, (double)sqlite3_column_int64(st, i));
}

static void
print_totals(struct report *r, struct output *o)
{
	sqlite3_stmt *st;

	/*
	 * Summed from each file's totals (index-write.c: the same sums over
	 * its transfers), a few rows per device instead of one per copy.
	 * sum() of only NULLs is NULL: bytes unknown stay unknown.
	 */
	st = report_prepare(r, "SELECT f.run, f.host, p.name, t.direction, "
	    MOVED_BY_SQL ", "
	    "sum(t.count), sum(t.bytes), sum(t.dur_ps), sum(t.rated_ps), "
	    "sum(t.rated_count), sum(t.wait_ps) FROM transfer_totals t "
	    "JOIN planes p ON p.id = t.plane JOIN files f ON f.id = t.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1",
	    " GROUP BY f.run, f.host, p.name, t.direction, t.on_host, "
	    "t.compile_work ORDER BY f.run, f.host, t.on_host, p.name, "
	    "t.compile_work, t.direction");
	while (index_row(st)) {
		int i;

		for (i = 0; i < 5; i++)
			output_str(o, (const char *)sqlite3_column_text(st, i));
		output_int(o, sqlite3_column_int64(st, 5));
		output_bytes(o, st, 6);
		output_ps(o, (double)sqlite3_column_int64(st, 7));
		output_ps(o, (double)sqlite3_column_int64(st, 10));
		/* Bandwidth over the copies whose size is known. */
		output_gbps(o, st, 3, 6, 8, sqlite3_column_int64(st, 9));
		output_end_row(o);
	}
	sqlite3_finalize(st);
}

static void
print_events(struct report *r, struct output *o)
{
	sqlite3_stmt *st;
	char *sql;

	/*
	 * The module execution and the step a copy starts in, on its own
	 * plane; a host call's, on any plane of its file.
	 */
	sql = xasprintf("SELECT f.run, f.host, p.name, t.line, t.name, "
	    "t.direction, "
	    MOVED_BY_SQL ", "
	    "t.bytes, t.start_ps, t.dur_ps, "
	    "coalesce((SELECT e.module FROM executions e WHERE "
	    "e.plane = t.plane AND e.start_ps <= t.start_ps AND "
	    "t.start_ps < e.start_ps + e.dur_ps), (SELECT e.module FROM "
	    "executions e WHERE t.on_host AND e.file_id = t.file_id AND "
	    "e.start_ps <= t.start_ps AND t.start_ps < e.start_ps + "
	    "e.dur_ps)), "
	    "coalesce((SELECT st.step FROM steps st WHERE st.plane = t.plane "
	    "AND st.start_ps <= t.start_ps AND t.start_ps < st.start_ps + "
	    "st.dur_ps), (SELECT st.step FROM steps st WHERE t.on_host AND "
	    "st.file_id = t.file_id AND st.start_ps <= t.start_ps AND "
	    "t.start_ps < st.start_ps + st.dur_ps)), "
	    INDEX_WAIT_PS_SQL ", t.dur_ps - " INDEX_WAIT_PS_SQL " "
	    "FROM transfers t JOIN planes p ON p.id = t.plane "
	    "JOIN files f ON f.id = t.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1%s "
	    "ORDER BY f.run, f.host, p.name, t.start_ps",
	    report_filter_sql());
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (index_row(st)) {
		int i;

		for (i = 0; i < 7; i++)
			output_str(o, (const char *)sqlite3_column_text(st, i));
		output_bytes(o, st, 7);
		output_ps(o, (double)sqlite3_column_int64(st, 8));
		output_ps(o, (double)sqlite3_column_int64(st, 9));
		output_ps(o, (double)sqlite3_column_int64(st, 12));
		output_gbps(o, st, 5, 7, 13, 1);
		if (sqlite3_column_type(st, 10) == SQLITE_NULL)
			output_null(o);
		else
			output_str(o, (const char *)sqlite3_column_text(st, 10));
		if (sqlite3_column_type(st, 11) == SQLITE_NULL)
			output_null(o);
		else
			output_int(o, sqlite3_column_int64(st, 11));
		output_end_row(o);
	}
	sqlite3_finalize(st);
}

static int
transfers_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	struct output *o;
	int ch, events = 0, status = EXIT_OK;

	report_init(&r, "transfers");
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'e':
			events = 1;
			break;
		case 'h':
			cmd_print_help(&cmd_transfers, stdout);
			return EXIT_OK;
		default:
			cmd_usage_error(&cmd_transfers);
		}
	}
	r.events = 1;
	report_open(&r, argc - optind, argv + optind);
	if (events) {
		o = report_output(&r, event_cols,
		    sizeof event_cols / sizeof event_cols[0]);
		print_events(&r, o);
	} else {
		o = report_output(&r, total_cols,
		    sizeof total_cols / sizeof total_cols[0]);
		print_totals(&r, o);
	}
	output_title(o, "Copies on the devices (Memcpy events: bytes from "
	    "memcpy_details; TPU async copies), memsets, the autotuner's "
	    "copies (autotuning) and host calls that move data (DevicePut, "
	    "copy_to_host_async, np.asarray: host wall time; their bytes "
	    "are not in the profile).");
	output_title(o, "waiting: the part of a D2H host call spent waiting "
	    "for the device to finish the program that computes the value (as "
	    "float(loss) does), not copying.");
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
