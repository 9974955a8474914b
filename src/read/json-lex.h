/*
 * A streaming JSON tokenizer: JSON text pushed in chunks of any size, its
 * tokens handed to callbacks as they complete (a SAX parser, as yajl's).
 * Strings without escapes are handed as pointers into the chunk, numbers
 * as their JSON text; nothing is allocated per token.
 *
 *	struct json_lex *lx = json_lex_new(&callbacks, ctx);
 *	while ((n = read(fd, buf, sizeof buf)) > 0)
 *		if (json_lex_feed(lx, buf, n) == -1)
 *			break;		// json_lex_error(), json_lex_offset()
 *	... json_lex_finish(lx) once all of the text is in ...
 *	json_lex_free(lx);
 *
 * It accepts and rejects what yajl 2 does with yajl_dont_validate_strings
 * (strings are not checked to be UTF-8), with the same messages and byte
 * offsets, so that swapping one for the other changes no output.  Two
 * differences: nesting deeper than JSON_LEX_MAX_DEPTH is an error (yajl
 * has no limit), and every offset is the same wherever the chunks end
 * (yajl's "after key and value" one is not when a chunk's end cuts the
 * token it names).
 */
#ifndef JAXPROF_JSON_LEX_H
#define JAXPROF_JSON_LEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Each returns non-zero to go on, 0 to stop the parse there.  Strings are
 * unescaped; s[0..n) lives until the callback returns.  All must be set.
 */
struct json_lex_cb {
	int	(*null)(void *ctx);
	int	(*boolean)(void *ctx, int value);
	int	(*number)(void *ctx, const char *s, size_t n);
	int	(*string)(void *ctx, const char *s, size_t n);
	int	(*start_map)(void *ctx);
	int	(*map_key)(void *ctx, const char *s, size_t n);
	int	(*end_map)(void *ctx);
	int	(*start_array)(void *ctx);
	int	(*end_array)(void *ctx);
};

/* Arrays and objects nested deeper than this are an error. */
#define JSON_LEX_MAX_DEPTH	1024

struct json_lex;

struct json_lex	*json_lex_new(const struct json_lex_cb *cb, void *ctx);
void		 json_lex_free(struct json_lex *lx);
/* The next n bytes of the text: 0, or -1 when it is not JSON or stopped. */
int		 json_lex_feed(struct json_lex *lx, const char *p, size_t n);
/* The end of the text: -1 when it is cut short (or json_lex_feed was). */
int		 json_lex_finish(struct json_lex *lx);
/*
 * Where the parse is, in bytes from the start of the text: in a callback,
 * just past its token; after an error, where it was found (yajl's offset:
 * the whole length when json_lex_finish() found it).
 */
uint64_t	 json_lex_offset(const struct json_lex *lx);
/*
 * After -1, yajl's words for the error ("lexical error: ...", "parse
 * error: ..."), or NULL when a callback stopped the parse.
 */
const char	*json_lex_error(const struct json_lex *lx);

#endif
