/* Help, usage, option parsing and stdout shared by the subcommands. */
#include "config.h"

#include <errno.h>
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
cmd_report_init(const struct cmd *cmd, struct report *r)
{
	report_init(r, cmd->name, cmd->needs);
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

static size_t
count_options(const struct option *lo)
{
	size_t n = 0;

	while (lo != NULL && lo[n].name != NULL)
		n++;
	return n;
}

static int
cmp_option_name(const void *a, const void *b)
{
	return strcmp(((const struct option *)a)->name,
	    ((const struct option *)b)->name);
}

/*
 * cmd's getopt_long table: its own options, more, --help and the shared
 * ones it takes, sorted by name (as getopt's "ambiguous" message lists
 * them); its short options with 'h'.  Built on the first call: a process
 * runs one command.
 */
static const struct option *
option_table(const struct cmd *cmd, const struct option *more,
    const char **shortopts)
{
	static const struct option help = { "help", no_argument, NULL, 'h' };
	static struct option *table;
	static char *shorts;
	size_t nown = count_options(cmd->longopts), nmore = count_options(more);
	size_t n;

	if (table == NULL) {
		table = xcalloc(nown + nmore + 1 + REPORT_NSHARED + 1,
		    sizeof *table);
		if (nown > 0)
			memcpy(table, cmd->longopts, nown * sizeof *table);
		if (nmore > 0)
			memcpy(table + nown, more, nmore * sizeof *table);
		n = nown + nmore;
		table[n++] = help;
		n += report_longopts(cmd->takes, table + n);
		qsort(table, n, sizeof *table, cmp_option_name);
		shorts = xasprintf("h%s", cmd->shortopts != NULL ?
		    cmd->shortopts : "");
	}
	*shortopts = shorts;
	return table;
}

/* Whether ch is a shared option cmd takes, not one of its own so named. */
static int
takes_shared(const struct cmd *cmd, int ch)
{
	return ch >= OPT_DB && ch < OPT_REPORT_LAST &&
	    (cmd->takes & (1u << (ch - OPT_DB))) != 0;
}

int
cmd_next_option(const struct cmd *cmd, const struct option *more,
    struct report *r, int argc, char **argv)
{
	const struct option *table;
	const char *shortopts;
	int ch;

	table = option_table(cmd, more, &shortopts);
	for (;;) {
		switch (ch = cmd_getopt(argc, argv, shortopts, table)) {
		case 'h':
			cmd_print_help(cmd, stdout);
			exit(cmd_close_stdout(EXIT_OK));
		case '?':
		case ':':
			cmd_usage_error(cmd);
		default:
			if (r != NULL && takes_shared(cmd, ch) &&
			    report_option(r, ch, optarg))
				continue;
			return ch;
		}
	}
}

int
cmd_close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		/* A command that failed said why (a full disk, once). */
		if (errno == EPIPE || status == EXIT_TROUBLE)
			return status;
		jp_warn("cannot write standard output");
		return EXIT_TROUBLE;
	}
	return status;
}
