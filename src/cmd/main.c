/* jaxprof: global options, the command table, and a checked stdout. */
#include "config.h"

#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/closest.h"
#include "lib/cpu.h"
#include "lib/err.h"
#include "input/gzip.h"
#include "output/output.h"
#include "report/report.h"

/* Sorted by name, as commands.def lists them. */
static const struct cmd *const commands[] = {
#define COMMAND(name)	&cmd_##name,
#include "cmd/commands.def"
#undef COMMAND
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void
usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: jaxprof [--help] [--version] [--max-inflated=size] "
	    "[--max-inflate-ratio=n]\n               <command> [<args>]\n\n"
	    "Commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-10s %s\n", commands[i]->name,
		    commands[i]->summary);
	fprintf(fp, "\nCompressed input may inflate to --max-inflated bytes "
	    "(default 16G) and, past\n64M, --max-inflate-ratio times its "
	    "size (default 200; 0: no ratio limit).\n");
	fprintf(fp, "\n'jaxprof <command> --help' or 'man jaxprof-<command>' "
	    "for more.\nExit status: 0 ok, 1 a check failed, 2 usage or "
	    "input error.\n");
}

static const struct cmd *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* Exits 2 on an unknown command name, suggesting the closest one. */
static void __attribute__((noreturn))
unknown_command(const char *name)
{
	const char *names[NCOMMANDS], *near;
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i]->name;
	near = closest_name(name, strlen(name), names, NCOMMANDS);
	if (near != NULL)
		jp_errx(EXIT_TROUBLE, "'%s' is not a jaxprof command; did you "
		    "mean '%s'? See 'jaxprof --help'", name, near);
	jp_errx(EXIT_TROUBLE, "'%s' is not a jaxprof command; see 'jaxprof "
	    "--help'", name);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "max-inflate-ratio", required_argument, NULL, 'R' },
		{ "max-inflated", required_argument, NULL, 'I' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static char prog[64];
	const struct cmd *cmd;
	int ch;

#ifdef M_MMAP_THRESHOLD
	/*
	 * Big per-plane arrays come and go while files are read; glibc would
	 * otherwise raise its mmap threshold after the first free and keep
	 * later ones in its arenas, counted against the process.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
#ifdef M_TOP_PAD
	/*
	 * The reading threads' arenas grow a few pages at a time, each an
	 * mprotect() that stops the other threads' cores to flush their
	 * TLBs: 4 MiB a step makes fewer, and the peak memory stays (only
	 * pages written are resident; bench/RESULTS.md).
	 */
	mallopt(M_TOP_PAD, 4 * 1024 * 1024);
#endif
#ifdef M_ARENA_MAX
	/*
	 * On one CPU the threads take turns, and with an arena each every
	 * thread's first pages were new: one arena lets each reuse what the
	 * others freed, fewer page faults.  With more CPUs they allocate at
	 * the same time and keep an arena each.
	 */
	if (cpu_usable() == 1)
		mallopt(M_ARENA_MAX, 1);
#endif
	/* getopt's messages start with argv[0]: make it "jaxprof". */
	if (argc > 0)
		argv[0] = (char *)"jaxprof";
	while ((ch = cmd_getopt(argc, argv, "+hV", longopts)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			return cmd_close_stdout(EXIT_OK);
		case 'I':
			if ((inflate_max_bytes = parse_size(optarg)) < 0)
				jp_errx(EXIT_TROUBLE, "invalid --max-inflated "
				    "'%s' (expected a size such as 64G)",
				    optarg);
			break;
		case 'R':
			inflate_max_ratio = parse_long_option(NULL,
			    "max-inflate-ratio", optarg, 0, 1000000000L);
			break;
		case 'V':
			printf("jaxprof %s\n", PACKAGE_VERSION);
			return cmd_close_stdout(EXIT_OK);
		default:
			usage(stderr);
			return EXIT_TROUBLE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		usage(stderr);
		return EXIT_TROUBLE;
	}
	/* "jaxprof help top" is "jaxprof top --help". */
	if (strcmp(argv[0], "help") == 0) {
		if (argc == 1) {
			usage(stdout);
			return cmd_close_stdout(EXIT_OK);
		}
		if ((cmd = find_command(argv[1])) == NULL)
			unknown_command(argv[1]);
		cmd_print_help(cmd, stdout);
		return cmd_close_stdout(EXIT_OK);
	}
	if ((cmd = find_command(argv[0])) == NULL)
		unknown_command(argv[0]);
	err_set_command(cmd->name);
	cmd_reset_getopt();
	/* ... and in a command, "jaxprof: top: unrecognized option ...". */
	snprintf(prog, sizeof prog, "jaxprof: %s", cmd->name);
	argv[0] = prog;
	return cmd_close_stdout(cmd->run(argc, argv));
}
