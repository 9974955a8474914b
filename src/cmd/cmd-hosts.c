/* The hosts of each run side by side, and the one the others wait for. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/err.h"
#include "output/output.h"
#include "report/hosts.h"
#include "report/report.h"
#include "lib/xmalloc.h"

static int	hosts_run(int argc, char **argv);

const struct cmd cmd_hosts = {
	.name = "hosts",
	.usage = "jaxprof hosts [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "compare the hosts of a run; name the one the others "
	    "wait for",
	.options =
	    "  --host=GLOB     only hosts matching (compared among themselves)\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.takes = TAKES_DB | TAKES_FORMAT | TAKES_FILE_FILTERS | TAKES_WIDE,
	.run = hosts_run,
};

static const struct out_col columns[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "steps", COL_INT, NULL, 6, UNIT_NONE },
	{ "median_step_us", COL_PS, "median step", 0, UNIT_NONE },
	{ "p90_step_us", COL_PS, "p90 step", 5, UNIT_NONE },
	{ "compute_us", COL_PS, "compute", 3, UNIT_NONE },
	{ "collective_us", COL_PS, "collectives", 3, UNIT_NONE },
	{ "wait_us", COL_PS, "waiting", 2, UNIT_NONE },
	{ "transfer_us", COL_PS, "transfer", 4, UNIT_NONE },
	{ "idle_us", COL_PS, "host-bound idle", 2, UNIT_NONE },
	{ "idle_in", COL_STR, "host ran", 7, UNIT_NONE },
	{ "idle_in_us", COL_PS, "per step", 7, UNIT_NONE },
	{ "last_steps", COL_INT, "last", 8, UNIT_NONE },
	{ "joined_steps", COL_INT, "of", 8, UNIT_NONE },
	{ "lateness_us", COL_PS, "late by", 1, UNIT_NONE },
	{ "straggler", COL_STR, NULL, 0, UNIT_NONE },
	{ "evidence", COL_STR, NULL, 0, UNIT_NONE },	/* csv and json only */
};

/* The table's note for the run of rows [lo, hi): its stragglers, or none. */
static void
run_note(struct output *o, const struct host_row *rows, size_t lo, size_t hi)
{
	size_t i, n = 0;
	char *line;

	for (i = lo; i < hi; i++)
		if (rows[i].straggler) {
			line = xasprintf("%s: straggler: %s.", rows[i].run,
			    rows[i].evidence);
			output_note(o, line);
			free(line);
			n++;
		}
	if (n > 0)
		return;
	line = xasprintf("%s: no straggler among %zu host%s.", rows[lo].run,
	    hi - lo, hi - lo == 1 ? "" : "s");
	output_note(o, line);
	free(line);
}

static int
hosts_run(int argc, char **argv)
{
	struct report r;
	struct output *o;
	struct hosts h;
	size_t i, lo;
	int words, status = EXIT_OK;

	cmd_report_init(&cmd_hosts, &r);
	while (cmd_next_option(&cmd_hosts, NULL, &r, argc, argv) != -1)
		;	/* hosts has no option of its own */
	report_open(&r, argc - optind, argv + optind);
	hosts_load(&h, &r);

	/* Tables give the evidence below, as a note: it is a sentence. */
	words = r.format == FMT_CSV || r.format == FMT_JSON;
	o = report_output(&r, columns, sizeof columns / sizeof columns[0] -
	    (words ? 0 : 1));
	output_title(o, "Hosts of each run: who the others wait for "
	    "(jaxprof-hosts(1) gives the rule).");
	for (i = 0; i < h.nrows; i++) {
		const struct host_row *row = &h.rows[i];

		output_str(o, row->run);
		output_str(o, row->host);
		output_int(o, row->steps);
		output_ps(o, row->median_step_ps);
		output_ps(o, row->p90_step_ps);
		output_ps(o, row->compute_ps);
		output_ps(o, row->collective_ps);
		output_ps(o, row->wait_ps);
		output_ps(o, row->transfer_ps);
		output_ps(o, row->idle_ps);
		output_str(o, row->idle_in);
		if (*row->idle_in != '\0')
			output_ps(o, row->idle_in_ps);
		else
			output_null(o);
		output_int(o, row->last_steps);
		output_int(o, row->joined_steps);
		output_ps(o, row->lateness_ps);
		output_flag(o, row->straggler, "yes");
		if (words)
			output_str(o, row->evidence);
		output_end_row(o);
	}
	for (lo = 0; lo < h.nrows; lo = i) {
		for (i = lo; i < h.nrows &&
		    strcmp(h.rows[i].run, h.rows[lo].run) == 0; i++)
			;
		run_note(o, h.rows, lo, i);
	}
	hosts_release(&h);
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return report_close(&r, status);
}
