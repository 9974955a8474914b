/*
 * A terminal's width, and text folded to it: what a person reads at a
 * terminal (a table's titles and notes, messages on stderr) never runs
 * past its right edge.
 *
 *	size_t w = term_width(stderr);		0: not a terminal
 *	term_put_folded(stderr, msg, strlen(msg), w);
 */
#ifndef JAXPROF_TERM_H
#define JAXPROF_TERM_H

#include <stddef.h>
#include <stdio.h>

/*
 * The width of the terminal fp writes to: $COLUMNS, else the terminal's,
 * else 80; 0 when fp is no terminal.
 */
size_t	term_width(FILE *fp);
/*
 * Writes the UTF-8 line s[0, len) and a newline, folded at blanks into
 * lines of at most width characters, each after the first indented two
 * (a word longer than a line is cut); width 0: as it is.
 */
void	term_put_folded(FILE *fp, const char *s, size_t len, size_t width);

#endif
