/* Messages on stderr, in one shape: "jaxprof: [cmd: ]what 'subject'[: why]". */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"

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

static void
emit(FILE *fp, int saved_errno, int with_errno, const char *fmt, va_list ap)
{
	fputs("jaxprof: ", fp);
	if (command_name != NULL)
		fprintf(fp, "%s: ", command_name);
	vfprintf(fp, fmt, ap);
	if (with_errno)
		fprintf(fp, ": %s", strerror(saved_errno));
	fputc('\n', fp);
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
