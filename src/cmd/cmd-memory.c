/*
 * Device memory: each allocator's peak in the capture, the allocations
 * live there, its bytes in use over time; each program's peak from its
 * buffer assignment, and the buffers live there.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "index/memory-thin.h"
#include "lib/err.h"
#include "report/memory.h"
#include "report/report.h"

static int	memory_run(int argc, char **argv);

enum { OPT_GROUP = OPT_REPORT_LAST, OPT_POINTS, OPT_PROGRAM };

static const struct option memory_options[] = {
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "limit", required_argument, NULL, 'n' },
	{ "points", required_argument, NULL, OPT_POINTS },
	{ "program", required_argument, NULL, OPT_PROGRAM },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_memory = {
	.name = "memory",
	.usage = "jaxprof memory [--group=key] [--program=name] [--points=n] "
	    "[-n count] [--device=glob] [--host=glob] [--run=glob] [--latest] "
	    "[--format=fmt] [--wide] [--db=file] path ...",
	.summary = "peak device memory per allocator and program, and what "
	    "holds it",
	.options =
	    "  --group=KEY     allocator (default): each allocator's peak;\n"
	    "                  allocation: the allocations live at that peak;\n"
	    "                  timeline: bytes in use over the capture;\n"
	    "                  program: each program's peak from its buffer\n"
	    "                  assignment; buffer: the buffers live at a\n"
	    "                  program's peak\n"
	    "  --program=NAME  with --group=buffer: that program (name, or\n"
	    "                  name(program_id)); default the largest\n"
	    "  --points=N      with --group=timeline: at most N points per\n"
	    "                  allocator (default and most: 1000)\n"
	    "  -n, --limit=N   at most N rows per allocator (allocation) or\n"
	    "                  program (buffer), or programs per host\n"
	    "                  (program); default 20, 0: all\n"
	    "  --device=GLOB   only allocators matching (GPU_0_bfc, 0)\n"
	    "  --host=GLOB     only hosts matching\n"
	    "  --run=GLOB      only runs matching\n"
	    "  --latest        only the newest run\n"
	    "  --format=FMT    table (default), csv, json, markdown\n"
	    "  --wide          tables at a terminal: every column, not cut\n"
	    "  --db=FILE       the index to use\n",
	.shortopts = "n:",
	.longopts = memory_options,
	.takes = TAKES_ALL,
	/* the executions too: what ran at the peak */
	.needs = NEEDS_EVENTS | NEEDS_MEMORY,
	.run = memory_run,
};

static int
memory_run(int argc, char **argv)
{
	struct memory_options opt = { MEMORY_ALLOCATOR, NULL, 20,
	    MEMORY_POINTS };
	struct report r;
	int ch, group;

	cmd_report_init(&cmd_memory, &r);
	while ((ch = cmd_next_option(&cmd_memory, NULL, &r, argc, argv)) != -1) {
		switch (ch) {
		case OPT_GROUP:
			if ((group = memory_group_parse(optarg)) == -1)
				jp_errx(EXIT_TROUBLE, "invalid --group '%s' "
				    "(choose from allocator, allocation, "
				    "timeline, program, buffer)", optarg);
			opt.group = (enum memory_group)group;
			break;
		case 'n':
			opt.limit = parse_long_option("memory", "limit",
			    optarg, 0, 1000000000L);
			break;
		case OPT_POINTS:
			opt.points = (size_t)parse_long_option("memory",
			    "points", optarg, 1, MEMORY_POINTS);
			break;
		case OPT_PROGRAM:
			opt.program = optarg;
			break;
		}
	}
	if (opt.program != NULL && opt.group != MEMORY_BUFFER)
		jp_errx(EXIT_TROUBLE, "--program goes with --group=buffer");
	report_open(&r, argc - optind, argv + optind);
	return report_close(&r, memory_report(&r, &opt));
}
