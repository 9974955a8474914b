/* A terminal's width, and lines folded to it (term.h). */
#include "config.h"

#include <sys/ioctl.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/term.h"
#include "lib/utf8.h"

size_t
term_width(FILE *fp)
{
	struct winsize ws;
	const char *env;
	char *end;
	long n;

	if (!isatty(fileno(fp)))
		return 0;
	env = getenv("COLUMNS");
	if (env != NULL) {
		errno = 0;
		n = strtol(env, &end, 10);
		if (errno == 0 && end != env && *end == '\0' && n > 0 &&
		    n < 100000)
			return (size_t)n;
	}
	if (ioctl(fileno(fp), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* The characters of s[0, len). */
static size_t
chars(const char *s, size_t len)
{
	size_t i = 0, n = 0;

	while (i < len) {
		i += utf8_char_len((const unsigned char *)s + i, len - i);
		n++;
	}
	return n;
}

void
term_put_folded(FILE *fp, const char *s, size_t len, size_t width)
{
	size_t start = 0;

	if (width == 0 || chars(s, len) <= width) {
		fwrite(s, 1, len, fp);
		fputc('\n', fp);
		return;
	}
	while (start < len) {
		size_t col = start == 0 ? 0 : 2, end = start, blank = SIZE_MAX;

		/* The most characters that fit; then back to a blank. */
		while (end < len && col < width) {
			if (s[end] == ' ')
				blank = end;
			end += utf8_char_len((const unsigned char *)s + end,
			    len - end);
			col++;
		}
		if (end < len && s[end] != ' ' && blank != SIZE_MAX &&
		    blank > start)
			end = blank;
		if (start > 0)
			fputs("  ", fp);
		fwrite(s + start, 1, end - start, fp);
		fputc('\n', fp);
		start = end;
		while (start < len && s[start] == ' ')
			start++;
	}
}
