/* Messages on stderr, in one shape: "jaxprof: [cmd: ]what 'subject'[: why]". */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

static const char *command_name;

void
err_set_command(const char *name)
{
	command_name = name;
}

static void
vmessage(int with_errno, const char *fmt, va_list ap)
{
	int saved = errno;

	fflush(stdout);
	fputs("jaxprof: ", stderr);
	if (command_name != NULL)
		fprintf(stderr, "%s: ", command_name);
	vfprintf(stderr, fmt, ap);
	if (with_errno)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
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
