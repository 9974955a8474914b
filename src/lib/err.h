/* Messages on stderr and the exit codes every command shares. */
#ifndef JAXPROF_ERR_H
#define JAXPROF_ERR_H

#include <stdarg.h>
#include <stdio.h>

/* Exit codes: 0 ok, 1 a check the user asked for failed, 2 anything else. */
enum {
	EXIT_OK = 0,
	EXIT_CHECK_FAILED = 1,
	EXIT_TROUBLE = 2,
};

/*
 * Set by main before a subcommand runs, so messages read
 * "jaxprof: top: cannot read 'x': ..." (NULL: no command part).
 */
void	err_set_command(const char *name);
/* That name, or NULL. */
const char *err_command(void);

/* "jaxprof: [cmd: ]fmt[: strerror(errno)]" on stderr. */
void	jp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	jp_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As above, then exit(status). */
void	jp_err(int status, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
void	jp_errx(int status, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));

#endif
