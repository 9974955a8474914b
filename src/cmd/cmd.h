/*
 * Subcommands.  Adding one:
 *  1. src/cmd/cmd-<name>.c defining `const struct cmd cmd_<name>` and its
 *     run();
 *  2. its COMMAND(<name>) line in src/cmd/commands.def, in name order
 *     (the declaration below and main.c's table come from it);
 *  3. the file in libjaxprof_a_SOURCES in Makefile.am;
 *  4. man/jaxprof-<name>.1 (SYNOPSIS = .usage, word for word) in
 *     dist_man_MANS, and a line in man/jaxprof.1;
 *  5. CLI tests tests/cli/tNNNN-<name>-*.sh.
 */
#ifndef JAXPROF_CMD_H
#define JAXPROF_CMD_H

#include <getopt.h>
#include <stdio.h>

struct cmd {
	const char	*name;
	const char	*usage;		/* the man page SYNOPSIS */
	const char	*summary;
	const char	*options;	/* the option list --help prints */
	int		(*run)(int argc, char **argv);
};

#define COMMAND(name)	extern const struct cmd cmd_##name;
#include "cmd/commands.def"
#undef COMMAND

/* Prints cmd's usage and option list to fp. */
void	cmd_print_help(const struct cmd *cmd, FILE *fp);
/* Usage on stderr and exit 2: a misuse. */
void	cmd_usage_error(const struct cmd *cmd) __attribute__((noreturn));
/*
 * getopt_long(argc, argv, shortopts, longopts, NULL) that follows an
 * unknown long option's message with the closest known one.
 */
int	cmd_getopt(int argc, char **argv, const char *shortopts,
	    const struct option *longopts);
/* Resets getopt so a command can parse its own arguments. */
void	cmd_reset_getopt(void);

#endif
