/* List profile files: run, host, kind, size, planes, events, devices, span. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "lib/ptime.h"
#include "report/report.h"
#include "lib/xmalloc.h"

static int	list_run(int argc, char **argv);

const struct cmd cmd_list = {
	.name = "list",
	.usage = "jaxprof list [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "list the runs, hosts and profile files under each path",
	.options =
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.run = list_run,
};

static const struct out_col columns[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "file", COL_STR, NULL, 0, UNIT_NONE },
	{ "kind", COL_STR, NULL, 0, UNIT_NONE },
	{ "size_bytes", COL_BYTES, "size", 0, UNIT_NONE },
	{ "planes", COL_INT, NULL, 0, UNIT_NONE },
	{ "events", COL_INT, NULL, 0, UNIT_NONE },
	{ "devices", COL_STR, NULL, 0, UNIT_NONE },
	{ "span_us", COL_PS, "span", 0, UNIT_NONE },
	{ "start_utc", COL_STR, "start (UTC)", 0, UNIT_NONE },
};

/*
 * Event counts at which a collector stops recording (CUPTI, the trace
 * viewer): a plane with exactly this many events was probably cut short.
 */
static const int64_t event_caps[] = {
	1000000, 2000000, 5000000, 1 << 20, 1 << 21, 1 << 22,
};

/* Device names of a file, "GPU:0,GPU:1"; the host's when it has none. */
static char *
devices_of(sqlite3_stmt *st, sqlite3_int64 file_id)
{
	char *out = NULL;
	size_t len = 0, cap = 0;
	int pass;

	/* First device planes; for a CPU-only profile, host planes. */
	for (pass = 0; pass < 2 && out == NULL; pass++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_text(st, 2, pass == 0 ? "device" : "host", -1,
		    SQLITE_STATIC);
		while (index_row(st)) {
			const char *d = (const char *)sqlite3_column_text(st, 0);
			size_t n = strlen(d);
			int more = out != NULL;

			/* Grown by doubling: 100,000 planes in linear time. */
			if (len + n + 2 > cap) {
				cap = (len + n + 2) * 2;
				out = xreallocarray(out, cap, 1);
			}
			if (more)
				out[len++] = ',';
			memcpy(out + len, d, n + 1);
			len += n;
		}
	}
	sqlite3_reset(st);
	return out != NULL ? out : xstrdup("");
}

/* Profiler errors and warnings, and planes cut at an event cap. */
static void
warn_file(sqlite3_stmt *planes, sqlite3_stmt *row, sqlite3_int64 file_id)
{
	const char *path = (const char *)sqlite3_column_text(row, 9);
	int kinds[] = { 10, 11 }, i;
	size_t k;

	for (i = 0; i < 2; i++) {
		const char *text = (const char *)sqlite3_column_text(row,
		    kinds[i]);
		char *copy, *line, *save = NULL;

		if (text == NULL || *text == '\0')
			continue;
		copy = xstrdup(text);
		for (line = strtok_r(copy, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			jp_warnx("warning: '%s': profiler %s: %s", path,
			    i == 0 ? "error" : "warning", line);
		free(copy);
	}
	sqlite3_bind_int64(planes, 1, file_id);
	while (index_row(planes))
		for (k = 0; k < sizeof event_caps / sizeof event_caps[0]; k++)
			if (sqlite3_column_int64(planes, 1) == event_caps[k])
				jp_warnx("warning: '%s': plane '%s' has "
				    "exactly %lld events: the profiler's event "
				    "cap was probably hit", path,
				    (const char *)sqlite3_column_text(planes, 0),
				    (long long)event_caps[k]);
	sqlite3_reset(planes);
}

static int
list_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "latest", no_argument, NULL, OPT_LATEST },
		{ "run", required_argument, NULL, OPT_RUN },
		{ "wide", no_argument, NULL, OPT_WIDE },
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	struct output *o;
	sqlite3_stmt *st, *devices_query, *planes_query;
	int ch, status = EXIT_OK;

	report_init(&r, "list");
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		if (ch == 'h') {
			cmd_print_help(&cmd_list, stdout);
			return EXIT_OK;
		}
		cmd_usage_error(&cmd_list);
	}
	report_open(&r, argc - optind, argv + optind);

	st = index_prepare(r.ix, "SELECT f.run, f.host, f.kind, f.size, "
	    "f.planes, f.events, f.start_ps, f.end_ps, f.profile_start_ns, "
	    "f.path, f.errors, f.warnings, f.id FROM files f "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE f.host GLOB ?101 AND f.run GLOB ?103 "
	    "ORDER BY f.run, f.host, f.path");
	report_bind_filters(&r, st);
	/* Asked per file: prepared once. */
	devices_query = index_prepare(r.ix, "SELECT substr(name, "
	    "instr(name, ':') + 1) FROM planes WHERE file_id = ? AND "
	    "kind = ? ORDER BY plane_id, name");
	planes_query = index_prepare(r.ix, "SELECT name, events FROM planes "
	    "WHERE file_id = ?");
	o = output_new(r.format, stdout, columns,
	    sizeof columns / sizeof columns[0]);
	while (index_row(st)) {
		sqlite3_int64 id = sqlite3_column_int64(st, 12);
		const char *path = (const char *)sqlite3_column_text(st, 9);
		const char *base = strrchr(path, '/');
		char *devices;

		output_str(o, (const char *)sqlite3_column_text(st, 0));
		output_str(o, (const char *)sqlite3_column_text(st, 1));
		output_str(o, base != NULL ? base + 1 : path);
		output_str(o, (const char *)sqlite3_column_text(st, 2));
		output_double(o, (double)sqlite3_column_int64(st, 3));
		if (sqlite3_column_type(st, 4) == SQLITE_NULL) {
			/* Not read: a tool's output, or not yet supported. */
			output_null(o);
			output_null(o);
			output_null(o);
			output_null(o);
			output_null(o);
			output_end_row(o);
			continue;
		}
		output_int(o, sqlite3_column_int64(st, 4));
		output_int(o, sqlite3_column_int64(st, 5));
		devices = devices_of(devices_query, id);
		output_str(o, devices);
		free(devices);
		if (sqlite3_column_type(st, 6) != SQLITE_NULL)
			output_ps(o, (double)ps_sub(sqlite3_column_int64(st, 7),
			    sqlite3_column_int64(st, 6)));
		else
			output_null(o);
		if (sqlite3_column_type(st, 8) != SQLITE_NULL) {
			time_t t = (time_t)(sqlite3_column_int64(st, 8) /
			    1000000000);
			struct tm tm;
			char buf[32];

			/* A year gmtime_r() cannot hold: no date. */
			if (gmtime_r(&t, &tm) != NULL &&
			    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ",
			    &tm) > 0)
				output_str(o, buf);
			else
				output_null(o);
		} else
			output_null(o);
		output_end_row(o);
		warn_file(planes_query, st, id);
	}
	sqlite3_finalize(st);
	sqlite3_finalize(devices_query);
	sqlite3_finalize(planes_query);
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
