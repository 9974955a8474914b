/* Help and usage shared by the subcommands. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "lib/err.h"

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

