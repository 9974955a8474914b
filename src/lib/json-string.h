/*
 * JSON strings (RFC 8259), escaped one way wherever jaxprof writes JSON:
 * the reports' --format=json (output.c), Chrome traces (write-chrome.c)
 * and baseline files (baseline.c).  '"' and '\' are escaped, a line feed
 * and a tab as \n and \t, the other controls (C0, DEL, C1) as \u00xx,
 * each byte that starts no valid UTF-8 sequence as \ufffd (so the text
 * is valid UTF-8 whatever a name holds), the rest is written as it is.
 * Here, below every layer, because write-chrome.c (load/) may not reach
 * output/.
 *
 *	json_escape(s, n, put, ctx);	the characters, through put
 *	json_fputs(fp, s);		"s", quoted, to a stream
 */
#ifndef JAXPROF_JSON_STRING_H
#define JAXPROF_JSON_STRING_H

#include <stddef.h>
#include <stdio.h>

/* Writes n bytes at s (the caller's buffer, a stream). */
typedef void	json_put_fn(void *ctx, const char *s, size_t n);

/*
 * Puts the n bytes at s escaped, without quotes: the runs that need no
 * escape in one call each.
 */
void	json_escape(const char *s, size_t n, json_put_fn *put, void *ctx);
/* Writes s (NUL-ended) to fp as a JSON string, quotes included. */
void	json_fputs(FILE *fp, const char *s);

#endif
