/*
 * Lex-ahead: json-lex.h's tokenizer in a thread of its own, reading a
 * gzr and writing each chunk's tokens down, while the caller's callbacks
 * take the tokens of the chunks before: on a plain file, tokenizing and
 * what the callbacks do then take the time of the slower, not of both.
 * The callbacks see what json_lex_feed() and json_lex_finish() would have
 * given them, token for token, with the same offsets and messages.
 *
 *	struct lex_ahead *la = lex_ahead_start(z, chunk, &callbacks, ctx);
 *	if (la == NULL) ... no thread: tokenize in this one ...;
 *	rc = lex_ahead_run(la, &bytes, &cause);
 *	... lex_ahead_offset(la) (in a callback too), lex_ahead_error(la) ...
 *	lex_ahead_stop(la);	(z is the caller's again)
 */
#ifndef JAXPROF_LEX_AHEAD_H
#define JAXPROF_LEX_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "gzip.h"
#include "json-lex.h"

struct lex_ahead;

/* Starts reading z from where it is, chunk bytes at a time; NULL if no thread. */
struct lex_ahead *lex_ahead_start(struct gzr *z, size_t chunk,
		    const struct json_lex_cb *cb, void *ctx);
/*
 * Hands every token to the callbacks, in this thread.  0: the text ended
 * (json_lex_finish() found no error, or there was no byte at all), its
 * length in *bytes; -1: the parse stopped (lex_ahead_error(), NULL when a
 * callback stopped it); -2: gzr_read() failed after the tokens before,
 * with *cause (caller frees).
 */
int		 lex_ahead_run(struct lex_ahead *la, uint64_t *bytes,
		    char **cause);
/* json_lex_offset() of the token being handed, or of the error. */
uint64_t	 lex_ahead_offset(const struct lex_ahead *la);
/* json_lex_error() once lex_ahead_run() returned -1. */
const char	*lex_ahead_error(const struct lex_ahead *la);
void		 lex_ahead_stop(struct lex_ahead *la);

#endif
