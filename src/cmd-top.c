/* Rank ops (or categories, modules, kernels) by device time. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "err.h"
#include "output.h"
#include "report.h"
#include "xmalloc.h"

static int	top_run(int argc, char **argv);

const struct cmd cmd_top = {
	.name = "top",
	.usage = "jaxprof top [--by=key] [--group=key] [-n count] "
	    "[--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--db=file] path ...",
	.summary = "rank ops by device time, self time, count or average",
	.options =
	    "  --by=KEY        device-time (default), self-time, count, avg\n"
	    "  --group=KEY     op (default), category, module, kernel\n"
	    "  -n, --limit=N   show the first N rows (default 20; 0: all)\n"
	    "  --device=GLOB   only planes matching (/device:GPU:0 or GPU:0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --db=FILE       the index to use (default: $JAXPROF_DB, or a\n"
	    "                  cache file under $XDG_CACHE_HOME/jaxprof)\n",
	.run = top_run,
};

/* --by: the ORDER BY of each ranking (columns of the query below). */
static const struct {
	const char	*name;
	const char	*order;
	const char	*title;
} by_keys[] = {
	{ "device-time", "5 DESC", "device time" },
	{ "self-time", "6 DESC", "self time" },
	{ "count", "4 DESC", "count" },
	{ "avg", "CAST(5 AS REAL) / 4 DESC", "average time" },
};

/* --group: what a row is, as the select list's first columns. */
static const struct {
	const char	*name;
	const char	*select;	/* name, module, category, ... */
	const char	*group;
	const char	*title;
} group_keys[] = {
	{ "op", "o.name, o.module, min(o.category), sum(o.count), "
	    "sum(o.total_ps), sum(o.self_ps), min(o.min_ps), max(o.max_ps), "
	    "sum(o.flops), sum(o.bytes_accessed) FROM ops o",
	    "o.name, o.module", "ops" },
	{ "category", "o.category, '', o.category, sum(o.count), "
	    "sum(o.total_ps), sum(o.self_ps), min(o.min_ps), max(o.max_ps), "
	    "sum(o.flops), sum(o.bytes_accessed) FROM ops o",
	    "o.category", "op categories" },
	{ "module", "o.module, o.module, '', sum(o.count), "
	    "sum(o.total_ps), sum(o.self_ps), min(o.min_ps), max(o.max_ps), "
	    "sum(o.flops), sum(o.bytes_accessed) FROM ops o",
	    "o.module", "modules" },
	{ "kernel", "o.name, '', coalesce(min(o.op), ''), sum(o.count), "
	    "sum(o.total_ps), sum(o.total_ps), min(o.min_ps), max(o.max_ps), "
	    "NULL, NULL FROM kernels o", "o.name", "kernels" },
};

static const struct out_col columns[] = {
	{ "rank", COL_INT, "#" },
	{ "name", COL_STR, NULL },
	{ "module", COL_STR, NULL },
	{ "category", COL_STR, NULL },
	{ "count", COL_INT, NULL },
	{ "total_us", COL_PS, "total" },
	{ "self_us", COL_PS, "self" },
	{ "avg_us", COL_PS, "avg" },
	{ "min_us", COL_PS, "min" },
	{ "max_us", COL_PS, "max" },
	{ "percent", COL_PCT, "%" },
	{ "cum_percent", COL_PCT, "cum%" },
	{ "gflops_per_s", COL_RATE, "GFLOP/s" },
	{ "gbps", COL_RATE, "GB/s" },
};

struct top_row {
	char		*name, *module, *category;
	int64_t		 count, total_ps, self_ps, min_ps, max_ps;
	int64_t		 flops, bytes;
	int		 has_flops, has_bytes;
};

static char *
column_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return xstrdup(s != NULL ? (const char *)s : "");
}

/* The title lines: what was ranked, over which devices. */
static void
add_titles(struct report *r, struct output *o, int by, int group)
{
	sqlite3_stmt *st;
	char *sql, *line;
	int host_only = 1, any = 0, ndev = 0;

	line = xasprintf("Top %s by %s", group_keys[group].title,
	    by_keys[by].title);
	output_title(o, line);
	free(line);
	sql = xasprintf("SELECT DISTINCT p.name, f.op_source FROM ops o "
	    "JOIN planes p ON p.id = o.plane JOIN files f ON f.id = o.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1%s ORDER BY p.name",
	    report_filter_sql());
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *src = (const char *)sqlite3_column_text(st, 1);

		any = 1;
		ndev++;
		if (src == NULL || strncmp(src, "host", 4) != 0)
			host_only = 0;
	}
	sqlite3_finalize(st);
	if (any && host_only)
		output_title(o, "CPU-only profile: op events on the host's "
		    "compute threads stand in for device ops.");
	line = xasprintf("%d plane%s; times summed over hosts and devices.",
	    ndev, ndev == 1 ? "" : "s");
	output_title(o, line);
	free(line);
}

static int
top_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "limit", required_argument, NULL, 'n' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	struct top_row *rows = NULL;
	struct output *o;
	sqlite3_stmt *st;
	size_t nrows = 0, i, k;
	long limit = 20;
	int ch, by = 0, group = 0, status = EXIT_OK;
	double total_self = 0, cum = 0;
	char *sql;

	report_init(&r, "top");
	while ((ch = getopt_long(argc, argv, "hn:", longopts, NULL)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'b':
			for (by = 0; by < (int)(sizeof by_keys /
			    sizeof by_keys[0]); by++)
				if (strcmp(by_keys[by].name, optarg) == 0)
					break;
			if (by == (int)(sizeof by_keys / sizeof by_keys[0]))
				jp_errx(EXIT_TROUBLE, "invalid --by '%s' "
				    "(choose from device-time, self-time, "
				    "count, avg)", optarg);
			break;
		case 'g':
			for (group = 0; group < (int)(sizeof group_keys /
			    sizeof group_keys[0]); group++)
				if (strcmp(group_keys[group].name, optarg) == 0)
					break;
			if (group == (int)(sizeof group_keys /
			    sizeof group_keys[0]))
				jp_errx(EXIT_TROUBLE, "invalid --group '%s' "
				    "(choose from op, category, module, "
				    "kernel)", optarg);
			break;
		case 'h':
			cmd_print_help(&cmd_top, stdout);
			return EXIT_OK;
		case 'n':
			limit = parse_long_option("top", "limit", optarg, 0,
			    1000000000L);
			break;
		default:
			cmd_usage_error(&cmd_top);
		}
	}
	report_open(&r, argc - optind, argv + optind);

	sql = xasprintf("SELECT %s JOIN planes p ON p.id = o.plane "
	    "JOIN files f ON f.id = o.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1%s "
	    "GROUP BY %s ORDER BY %s, 1, 2", group_keys[group].select,
	    report_filter_sql(), group_keys[group].group, by_keys[by].order);
	st = index_prepare(r.ix, sql);
	free(sql);
	report_bind_filters(&r, st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct top_row *row;

		rows = xreallocarray(rows, nrows + 1, sizeof *rows);
		row = &rows[nrows++];
		row->name = column_text(st, 0);
		row->module = column_text(st, 1);
		row->category = column_text(st, 2);
		row->count = sqlite3_column_int64(st, 3);
		row->total_ps = sqlite3_column_int64(st, 4);
		row->self_ps = sqlite3_column_int64(st, 5);
		row->min_ps = sqlite3_column_int64(st, 6);
		row->max_ps = sqlite3_column_int64(st, 7);
		row->has_flops = sqlite3_column_type(st, 8) != SQLITE_NULL;
		row->flops = sqlite3_column_int64(st, 8);
		row->has_bytes = sqlite3_column_type(st, 9) != SQLITE_NULL;
		row->bytes = sqlite3_column_int64(st, 9);
		total_self += (double)row->self_ps;
	}
	sqlite3_finalize(st);
	if (nrows == 0)
		jp_warnx("no ops in the selection");

	o = output_new(r.format, stdout, columns,
	    sizeof columns / sizeof columns[0]);
	add_titles(&r, o, by, group);
	k = limit == 0 || (size_t)limit > nrows ? nrows : (size_t)limit;
	for (i = 0; i < nrows; i++) {
		struct top_row *row = &rows[i];
		double pct = total_self > 0 ?
		    100.0 * (double)row->self_ps / total_self : 0;

		cum += pct;
		if (i < k) {
			output_int(o, (int64_t)i + 1);
			output_str(o, row->name);
			output_str(o, row->module);
			output_str(o, row->category);
			output_int(o, row->count);
			output_ps(o, (double)row->total_ps);
			output_ps(o, (double)row->self_ps);
			output_ps(o, row->count > 0 ? (double)row->total_ps /
			    (double)row->count : 0);
			output_ps(o, (double)row->min_ps);
			output_ps(o, (double)row->max_ps);
			output_double(o, pct);
			output_double(o, cum);
			/* FLOP per ps * 1e3 = GFLOP/s; likewise GB/s. */
			if (row->flops > 0 && row->total_ps > 0)
				output_double(o, (double)row->flops /
				    (double)row->total_ps * 1e3);
			else
				output_null(o);
			if (row->bytes > 0 && row->total_ps > 0)
				output_double(o, (double)row->bytes /
				    (double)row->total_ps * 1e3);
			else
				output_null(o);
			output_end_row(o);
		}
		free(row->name);
		free(row->module);
		free(row->category);
	}
	free(rows);
	if (k < nrows) {
		char *note = xasprintf("%zu more rows; -n 0 shows all.",
		    nrows - k);

		output_note(o, note);
		free(note);
	}
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
