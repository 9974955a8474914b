/* Help and usage shared by the subcommands. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "lib/closest.h"
#include "lib/err.h"
#include "lib/xmalloc.h"

void
cmd_print_help(const struct cmd *cmd, FILE *fp)
{
	fprintf(fp, "usage: %s\n\n%s\n", cmd->usage, cmd->summary);
	if (cmd->options != NULL && *cmd->options != '\0')
		fprintf(fp, "\nOptions:\n%s", cmd->options);
}

void
cmd_usage_error(const struct cmd *cmd)
{
	fprintf(stderr, "usage: %s\nSee 'jaxprof %s --help'.\n", cmd->usage,
	    cmd->name);
	exit(EXIT_TROUBLE);
}

void
cmd_reset_getopt(void)
{
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 1;
}


/* After getopt's "unrecognized option '--grup=kernel'": the closest one. */
static void
suggest_option(const char *arg, const struct option *longopts)
{
	const char **names, *near;
	size_t n, i, len = strcspn(arg + 2, "=");

	for (n = 0; longopts[n].name != NULL; n++)
		if (strncmp(longopts[n].name, arg + 2, len) == 0)
			return;	/* ambiguous, not unknown: getopt said so */
	names = xcalloc(n, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = longopts[i].name;
	if ((near = closest_name(arg + 2, len, names, n)) != NULL)
		jp_warnx("did you mean '--%s'?", near);
	free(names);
}

int
cmd_getopt(int argc, char **argv, const char *shortopts,
    const struct option *longopts)
{
	int ch = getopt_long(argc, argv, shortopts, longopts, NULL);

	/* optopt 0: a long option, not one with a missing argument. */
	if (ch == '?' && optopt == 0 && optind > 0 && optind <= argc &&
	    strncmp(argv[optind - 1], "--", 2) == 0)
		suggest_option(argv[optind - 1], longopts);
	return ch;
}
