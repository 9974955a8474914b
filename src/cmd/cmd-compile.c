/* Compile vs execute per jitted function, and recompilations. */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "lib/ptime.h"
#include "output/output.h"
#include "report/report.h"
#include "lib/xmalloc.h"

static int	compile_run(int argc, char **argv);

const struct cmd cmd_compile = {
	.name = "compile",
	.usage = "jaxprof compile [--phases] [--device=glob] [--host=glob] "
	    "[--run=glob] [--latest] [--format=fmt] [--wide] [--db=file] path ...",
	.summary = "compile time versus execution time per jitted function",
	.options =
	    "  --phases        what ran inside the compiles, per function\n"
	    "  --device=GLOB   executions on planes matching only\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.run = compile_run,
};

static const struct out_col columns[] = {
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "module", COL_STR, NULL, 0, UNIT_NONE },
	{ "compiles", COL_INT, NULL, 0, UNIT_NONE },
	{ "compile_us", COL_PS, "compile", 0, UNIT_NONE },
	{ "executions", COL_INT, NULL, 0, UNIT_NONE },
	{ "execute_us", COL_PS, "execute", 0, UNIT_NONE },
	{ "compile_execute_ratio", COL_RATE, "compile/execute", 0, UNIT_NONE },
	{ "programs", COL_INT, NULL, 0, UNIT_NONE },
	{ "execute_span_us", COL_PS, "execute span", 0, UNIT_NONE },
	{ "autotune_us", COL_PS, "autotune", 0, UNIT_NONE },
};

static const struct out_col phase_columns[] = {
	{ "name", COL_STR, NULL, 0, UNIT_NONE },
	{ "phase", COL_STR, NULL, 0, UNIT_NONE },
	{ "line", COL_STR, NULL, 0, UNIT_NONE },
	{ "depth", COL_INT, NULL, 0, UNIT_NONE },
	{ "count", COL_INT, NULL, 0, UNIT_NONE },
	{ "total_us", COL_PS, "total", 0, UNIT_NONE },
	{ "percent", COL_PCT, "% of compile", 0, UNIT_NONE },
};

struct fn_row {
	char		*name;		/* the jitted function, or module */
	char		*module;	/* "" when none ran in the profile */
	int64_t		 compiles, compile_ps;
	int64_t		 max_per_file;	/* > 1: recompiled on some host */
	int64_t		 executions, execute_ps;
	int64_t		 span_ps;	/* wall span of the executions */
	int64_t		 autotune_ps;	/* compile work in its compiles */
	int64_t		 programs;
};

/* Host and run filters only: compiles happen on the host. */
static const char host_filter[] = " AND f.host GLOB ?101 AND f.run GLOB ?103";

/* JAX names a jitted function's module "jit_<name>", other chars '_'. */
static char *
module_of(const char *function)
{
	char *m = xasprintf("jit_%s", function), *p;

	for (p = m + 4; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			*p = '_';
	return m;
}

static struct fn_row *
find_module(struct fn_row *rows, size_t n, const char *module)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].module, module) == 0)
			return &rows[i];
	return NULL;
}

/* One row per function compiled and per module executed. */
static struct fn_row *
load_rows(struct report *r, size_t *nrows)
{
	struct fn_row *rows = NULL, *row;
	sqlite3_stmt *st;
	size_t n = 0;
	char *sql;

	/* Each host compiles for itself: recompiling is per file. */
	sql = xasprintf("SELECT function, sum(n), sum(ps), max(n), sum(a) FROM "
	    "(SELECT c.function, count(*) AS n, sum(c.dur_ps) AS ps, "
	    "sum(c.autotune_ps) AS a "
	    "FROM compiles c JOIN planes p ON p.id = c.plane "
	    "JOIN files f ON f.id = c.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1%s "
	    "GROUP BY c.file_id, c.function) GROUP BY function "
	    "ORDER BY function", host_filter);
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (index_row(st)) {
		rows = xreallocarray(rows, n + 1, sizeof *rows);
		row = &rows[n++];
		memset(row, 0, sizeof *row);
		row->name = index_column_text(st, 0);
		row->module = module_of(row->name);
		row->compiles = sqlite3_column_int64(st, 1);
		row->compile_ps = sqlite3_column_int64(st, 2);
		row->max_per_file = sqlite3_column_int64(st, 3);
		row->autotune_ps = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);

	/* Executions on devices, or on the host in a CPU-only profile. */
	sql = xasprintf("SELECT m.name, sum(m.count), sum(m.device_ps), "
	    "sum(m.total_ps) "
	    "FROM modules m JOIN planes p ON p.id = m.plane "
	    "JOIN files f ON f.id = m.file_id "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE (p.kind = 'device' OR f.op_source LIKE 'host%%') "
	    "AND m.compile_work = 0%s "
	    "GROUP BY m.name ORDER BY m.name", report_filter_sql());
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (index_row(st)) {
		const char *module = (const char *)sqlite3_column_text(st, 0);

		if ((row = find_module(rows, n, module)) == NULL) {
			rows = xreallocarray(rows, n + 1, sizeof *rows);
			row = &rows[n++];
			memset(row, 0, sizeof *row);
			row->name = xstrdup(module);
			row->module = xstrdup(module);
		}
		row->executions = sqlite3_column_int64(st, 1);
		row->execute_ps = sqlite3_column_int64(st, 2);
		row->span_ps = sqlite3_column_int64(st, 3);
	}
	sqlite3_finalize(st);

	/* Programs XLA built per module (/host:metadata): fingerprints. */
	sql = xasprintf("SELECT g.module, count(DISTINCT g.program_id) "
	    "FROM programs g JOIN files f ON f.id = g.file_id "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE 1%s GROUP BY g.module", host_filter);
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (index_row(st))
		if ((row = find_module(rows, n,
		    (const char *)sqlite3_column_text(st, 0))) != NULL)
			row->programs = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	*nrows = n;
	return rows;
}

static int
cmp_rows(const void *a, const void *b)
{
	const struct fn_row *x = a, *y = b;

	if (x->compile_ps != y->compile_ps)
		return x->compile_ps > y->compile_ps ? -1 : 1;
	if (x->execute_ps != y->execute_ps)
		return x->execute_ps > y->execute_ps ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* "jit_f(0), jit_f(4)": the program ids of a recompiled module. */
static char *
program_list(struct report *r, const char *module)
{
	sqlite3_stmt *st;
	char *list = xstrdup(""), *s, *sql;

	sql = xasprintf("SELECT DISTINCT g.program_id FROM programs g "
	    "JOIN files f ON f.id = g.file_id JOIN selected s ON "
	    "s.file_id = f.id WHERE g.module = ?1%s ORDER BY g.program_id",
	    host_filter);
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	sqlite3_bind_text(st, 1, module, -1, SQLITE_STATIC);
	while (index_row(st)) {
		/* Ids are unsigned: the column holds their bits. */
		s = xasprintf("%s%s%s(%llu)", list, *list != '\0' ? ", " : "",
		    module, (unsigned long long)sqlite3_column_int64(st, 0));
		free(list);
		list = s;
	}
	sqlite3_finalize(st);
	return list;
}

/*
 * Compile phases: the events nested directly in each compile on its line,
 * and the long host events (>= 100 us, any line: XLA often compiles on a
 * thread pool) that ran inside its window.
 */
static void
print_phases(struct report *r, struct output *o)
{
	sqlite3_stmt *st;
	char *sql;

	sql = xasprintf("WITH c AS (SELECT c.* FROM compiles c "
	    "JOIN planes p ON p.id = c.plane JOIN files f ON f.id = c.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE 1%s), "
	    "ph AS (SELECT c.id, c.function, c.line AS cline, c.line, 1 AS depth, "
	    "x.name, x.dur_ps FROM c JOIN compile_phases x ON x.compile = c.id "
	    "UNION ALL SELECT c.id, c.function, c.line, h.line, h.depth, "
	    "h.name, h.dur_ps FROM c JOIN host_events h "
	    "ON h.file_id = c.file_id AND h.line != c.line "
	    "AND h.start_ps >= c.start_ps "
	    "AND h.start_ps + h.dur_ps <= c.start_ps + c.dur_ps) "
	    "SELECT function, name, line, min(depth), count(*), sum(dur_ps), "
	    "100.0 * sum(dur_ps) / (SELECT sum(c2.dur_ps) FROM c c2 "
	    "WHERE c2.function = ph.function) FROM ph "
	    "GROUP BY function, line, name ORDER BY function, line, 6 DESC",
	    host_filter);
	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	while (index_row(st)) {
		output_str(o, (const char *)sqlite3_column_text(st, 0));
		output_str(o, (const char *)sqlite3_column_text(st, 1));
		output_str(o, (const char *)sqlite3_column_text(st, 2));
		output_int(o, sqlite3_column_int64(st, 3));
		output_int(o, sqlite3_column_int64(st, 4));
		output_ps(o, (double)sqlite3_column_int64(st, 5));
		output_double(o, sqlite3_column_double(st, 6));
		output_end_row(o);
	}
	sqlite3_finalize(st);
}

static void
print_rows(struct report *r, struct output *o, struct fn_row *rows,
    size_t n)
{
	int64_t compiles = 0, compile_ps = 0, executions = 0, execute_ps = 0;
	size_t i, recompiled = 0;
	char a[40], b[40], *note;

	for (i = 0; i < n; i++) {
		struct fn_row *row = &rows[i];

		output_str(o, row->name);
		output_str(o, row->executions > 0 ? row->module : "");
		output_int(o, row->compiles);
		output_ps(o, (double)row->compile_ps);
		output_int(o, row->executions);
		output_ps(o, (double)row->execute_ps);
		if (row->execute_ps > 0)
			output_double(o, (double)row->compile_ps /
			    (double)row->execute_ps);
		else
			output_null(o);
		output_int(o, row->programs);
		output_ps(o, (double)row->span_ps);
		output_ps(o, (double)row->autotune_ps);
		output_end_row(o);
		compiles += row->compiles;
		compile_ps = ps_add(compile_ps, row->compile_ps);
		executions += row->executions;
		execute_ps = ps_add(execute_ps, row->execute_ps);
		if (row->max_per_file > 1) {
			char *programs = program_list(r, row->module);

			recompiled++;
			note = xasprintf("Recompiled: %s, %lld times on one "
			    "host%s%s%s.", row->name,
			    (long long)row->max_per_file,
			    *programs != '\0' ? " (programs " : "", programs,
			    *programs != '\0' ? ")" : "");
			output_note(o, note);
			free(note);
			free(programs);
		}
	}
	fmt_duration(a, sizeof a, compile_ps);
	fmt_duration(b, sizeof b, execute_ps);
	note = xasprintf("Total: compile %s (%lld compilation%s), execute %s "
	    "(%lld execution%s)%s", a, (long long)compiles,
	    compiles == 1 ? "" : "s", b, (long long)executions,
	    executions == 1 ? "" : "s", execute_ps > 0 ? "" : ".");
	if (execute_ps > 0) {
		char ratio[40], *s;

		fmt_fixed(ratio, sizeof ratio, (double)compile_ps /
		    (double)execute_ps, 2);
		s = xasprintf("%s; compile/execute %s.", note, ratio);
		free(note);
		note = s;
	}
	output_note(o, note);
	free(note);
	if (recompiled > 0)
		jp_warnx("warning: %zu function%s compiled more than once "
		    "(recompilation)", recompiled, recompiled == 1 ? " was" :
		    "s were");
}

static int
compile_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "phases", no_argument, NULL, 'p' },
		REPORT_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct report r;
	struct output *o;
	struct fn_row *rows;
	size_t n, i;
	int ch, phases = 0, status = EXIT_OK;

	report_init(&r, "compile");
	while ((ch = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		if (report_option(&r, ch, optarg))
			continue;
		switch (ch) {
		case 'h':
			cmd_print_help(&cmd_compile, stdout);
			return EXIT_OK;
		case 'p':
			phases = 1;
			break;
		default:
			cmd_usage_error(&cmd_compile);
		}
	}
	r.events = 1;
	report_open(&r, argc - optind, argv + optind);
	if (phases) {
		o = report_output(&r, phase_columns,
		    sizeof phase_columns / sizeof phase_columns[0]);
		output_title(o, "Compile phases per jitted function: events "
		    "nested in each compile, and host events of 100 us or more "
		    "inside it on other threads (depth: nesting on their "
		    "thread).");
		print_phases(&r, o);
	} else {
		rows = load_rows(&r, &n);
		if (n > 0)
			qsort(rows, n, sizeof *rows, cmp_rows);
		o = report_output(&r, columns,
		    sizeof columns / sizeof columns[0]);
		output_title(o, "Compile (host wall time) versus execute "
		    "(device time) per jitted function.");
		if (report_has_json(&r))
			output_title(o, "Read from trace JSON, which does not "
			    "name the programs XLA built: programs is 0 for "
			    "it.");
		print_rows(&r, o, rows, n);
		for (i = 0; i < n; i++) {
			free(rows[i].name);
			free(rows[i].module);
		}
		free(rows);
	}
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
