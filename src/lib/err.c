/* Messages on stderr, in one shape: "jaxprof: [cmd: ]what 'subject'[: why]". */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/term.h"

static const char *command_name;

void
err_set_command(const char *name)
{
	command_name = name;
}

const char *
err_command(void)
{
	return command_name;
}

/*
 * The message as one line, folded at a terminal as tables' notes are:
 * built first without allocating (this reports running out); one too
 * long for that is written as it comes.
 */
static void
emit(FILE *fp, int saved_errno, int with_errno, const char *fmt, va_list ap)
{
	char line[4096];
	size_t n;
	va_list again;
	int k;

	va_copy(again, ap);
	k = snprintf(line, sizeof line, "jaxprof: %s%s",
	    command_name != NULL ? command_name : "",
	    command_name != NULL ? ": " : "");
	n = (size_t)k;
	k = vsnprintf(line + n, sizeof line - n, fmt, ap);
	n = k < 0 ? sizeof line : n + (size_t)k;
	if (with_errno && n < sizeof line) {
		k = snprintf(line + n, sizeof line - n, ": %s",
		    strerror(saved_errno));
		n = k < 0 ? sizeof line : n + (size_t)k;
	}
	if (n < sizeof line)
		term_put_folded(fp, line, n, term_width(fp));
	else {
		fputs("jaxprof: ", fp);
		if (command_name != NULL)
			fprintf(fp, "%s: ", command_name);
		vfprintf(fp, fmt, again);
		if (with_errno)
			fprintf(fp, ": %s", strerror(saved_errno));
		fputc('\n', fp);
	}
	va_end(again);
}

static void
vmessage(int with_errno, const char *fmt, va_list ap)
{
	int saved = errno;

	fflush(stdout);
	emit(stderr, saved, with_errno, fmt, ap);
}

void
jp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(1, fmt, ap);
	va_end(ap);
}

void
jp_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(0, fmt, ap);
	va_end(ap);
}

void
jp_err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(1, fmt, ap);
	va_end(ap);
	exit(status);
}

void
jp_errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(0, fmt, ap);
	va_end(ap);
	exit(status);
}
