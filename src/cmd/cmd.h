/*
 * Subcommands.  Adding one:
 *  1. src/cmd/cmd-<name>.c defining `const struct cmd cmd_<name>` (its
 *     options and needs declared there) and its run();
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

#include "report/report.h"

/*
 * A command's row: its help, the options it takes, what it reads from the
 * index.  The run function parses with cmd_next_option(), which builds the
 * option table from the row, so what a command takes is declared once.
 */
struct cmd {
	const char	*name;
	const char	*usage;		/* the man page SYNOPSIS */
	const char	*summary;
	const char	*options;	/* the option list --help prints */
	/* Its own options, for getopt_long; --help is everyone's. */
	const char	*shortopts;
	const struct option *longopts;	/* ends with a zero entry */
	unsigned	 takes;		/* the shared options: TAKES_* */
	unsigned	 needs;		/* from the index: NEEDS_* */
	int		(*run)(int argc, char **argv);
};

#define COMMAND(name)	extern const struct cmd cmd_##name;
#include "cmd/commands.def"
#undef COMMAND

/* Prints cmd's usage and option list to fp. */
void	cmd_print_help(const struct cmd *cmd, FILE *fp);
/* Usage on stderr and exit 2: a misuse. */
void	cmd_usage_error(const struct cmd *cmd) __attribute__((noreturn));
/* report_init() with the command's name and needs. */
void	cmd_report_init(const struct cmd *cmd, struct report *r);
/*
 * The next of cmd's own options (getopt_long's value, optarg its
 * argument), -1 after the last.  Handles the rest: --help prints the help
 * and exits 0, a shared option goes to report_option(r, ...) (r may be
 * NULL when the command takes none), a misuse exits 2 after the usage and,
 * for an unknown long option, the closest known one.  more: options built
 * at run time (check's settings), or NULL.
 */
int	cmd_next_option(const struct cmd *cmd, const struct option *more,
	    struct report *r, int argc, char **argv);
/*
 * getopt_long(argc, argv, shortopts, longopts, NULL) that follows an
 * unknown long option's message with the closest known one.
 */
int	cmd_getopt(int argc, char **argv, const char *shortopts,
	    const struct option *longopts);
/* Resets getopt so a command can parse its own arguments. */
void	cmd_reset_getopt(void);
/*
 * Flushes and closes stdout: status, or 2 when what was written did not
 * reach it (a full disk) and nothing said so yet.
 */
int	cmd_close_stdout(int status);

#endif
