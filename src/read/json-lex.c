/*
 * The streaming JSON tokenizer of json-lex.h.
 *
 * Why our own and not a library: yajl's lexer reads byte by byte through
 * a macro that checks its own buffer, and was most of a large trace's
 * read; this file lexes each chunk in place (bench/RESULTS.md measures
 * both).  The other C JSON libraries packaged in Debian do not stream a
 * document in bounded memory: json-c (even its incremental json_tokener), jansson, cJSON and
 * yyjson build a tree of the whole of it, jsmn and simdjson (C++) want
 * all of it in memory.
 *
 * Tokens are lexed in the chunk they come in.  One cut by the chunk's end
 * is copied (carry) and completed from the next chunk, a little more at a
 * time, so that the copy stays as short as the token.
 */
#include "config.h"

#include <sys/types.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "read/json-lex.h"
#include "lib/xmalloc.h"

enum tok {
	T_MORE,		/* cut by the end of the bytes at hand */
	T_ERROR,	/* not JSON: msg, and where (end) */
	T_LBRACE,
	T_RBRACE,
	T_LBRACKET,
	T_RBRACKET,
	T_COMMA,
	T_COLON,
	T_STRING,
	T_NUMBER,
	T_TRUE,
	T_FALSE,
	T_NULL,
};

struct token {
	enum tok	 type;
	const char	*s;	/* strings: after the quote; else the start */
	size_t		 n;	/* strings: the raw bytes between the quotes */
	const char	*end;	/* just past it; for T_ERROR, where */
	int		 esc;	/* a string with escapes */
	const char	*resume;	/* T_MORE string: where to scan on */
	const char	*msg;	/* T_ERROR */
};

/* What the parser wants next (yajl's states). */
enum want {
	W_VALUE,	/* the top value, or an object member's */
	W_FIRST_ELEM,	/* after '[': a value or ']' */
	W_ELEM,		/* after ',' in an array */
	W_FIRST_KEY,	/* after '{': a key or '}' */
	W_KEY,		/* after ',' in an object */
	W_COLON,
	W_NEXT,		/* after a value in an array or object */
	W_DONE,		/* after the top value: white space only */
};

struct json_lex {
	const struct json_lex_cb *cb;
	void		*ctx;
	enum want	 want;
	int		 depth;
	int		 failed;
	const char	*msg;		/* the error; NULL: a callback's stop */
	uint64_t	 at;		/* json_lex_offset() */
	uint64_t	 total;		/* bytes fed */

	/* Pointers in the bytes being lexed map to offsets so: */
	const char	*origin;
	uint64_t	 origin_at;

	/* The token cut by the last chunk's end, and where it began. */
	char		*carry;
	size_t		 ncarry;
	size_t		 capcarry;
	uint64_t	 carry_at;
	size_t		 resume;	/* a string: scanned up to here */
	int		 carry_esc;

	char		*dec;		/* unescaped strings */
	size_t		 capdec;
	unsigned char	 open[JSON_LEX_MAX_DEPTH];	/* '{' or '[' */
};

/* ---- Lexing one token from p (not white space) up to end ---- */

/* Bytes that go on a string's plain run: not '"', '\\' or a control. */
static const unsigned char plain[256] = {
#define R16(v)	v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
	R16(0), R16(0),
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x22 '"' */
	R16(1), R16(1),
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,	/* 0x5c '\\' */
	R16(1), R16(1),
	R16(1), R16(1), R16(1), R16(1), R16(1), R16(1), R16(1), R16(1),
#undef R16
};

static int
is_space(unsigned char c)
{
	/* yajl's white space: also '\v' and '\f'. */
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int
is_digit(unsigned char c)
{
	return (unsigned char)(c - '0') < 10;
}

static int
is_hex(unsigned char c)
{
	return is_digit(c) || (unsigned char)((c | 0x20) - 'a') < 6;
}

#define ONES	0x0101010101010101u
#define HIGHS	0x8080808080808080u

/* The first byte in [p, end) that ends a plain run, or end. */
static const char *
scan_plain(const char *p, const char *end)
{
	uint64_t x, q, b, t;

	/* Eight bytes at a time: a byte flags '"', '\\' or below 0x20. */
	while (end - p >= 8) {
		memcpy(&x, p, 8);
		q = x ^ (ONES * '"');
		b = x ^ (ONES * '\\');
		t = (((q - ONES) & ~q) | ((b - ONES) & ~b) |
		    ((x - ONES * 0x20) & ~x)) & HIGHS;
		/*
		 * Borrows only flag bytes above a flagged one, so the
		 * lowest flag is exact: in memory order the first byte
		 * when the machine is little-endian.
		 */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (t != 0)
			return p + (__builtin_ctzll(t) >> 3);
#else
		if (t != 0)
			break;
#endif
		p += 8;
	}
	while (p < end && plain[(unsigned char)*p])
		p++;
	return p;
}

static void
lex_error(struct token *t, const char *at, const char *msg)
{
	t->type = T_ERROR;
	t->end = at;
	t->msg = msg;
}

/*
 * A string from its opening quote q, scanning on from `from` (q + 1, or
 * where a cut one stopped).
 */
static void
lex_string(const char *q, const char *from, const char *end, struct token *t)
{
	const char *p = from;
	int i;

	for (;;) {
		p = scan_plain(p, end);
		if (p == end)
			goto more;
		if (*p == '"') {
			t->type = T_STRING;
			t->s = q + 1;
			t->n = (size_t)(p - (q + 1));
			t->end = p + 1;
			return;
		}
		if (*p != '\\') {
			lex_error(t, p, "lexical error: invalid character "
			    "inside string.");
			return;
		}
		t->esc = 1;
		if (end - p < 2)
			goto more;
		switch (p[1]) {
		case '"': case '\\': case '/': case 'b': case 'f': case 'n':
		case 'r': case 't':
			p += 2;
			break;
		case 'u':
			for (i = 2; i < 6; i++) {
				if (p + i == end)
					goto more;
				if (!is_hex((unsigned char)p[i])) {
					lex_error(t, p + i, "lexical error: "
					    "invalid (non-hex) character "
					    "occurs after '\\u' inside "
					    "string.");
					return;
				}
			}
			p += 6;
			break;
		default:
			lex_error(t, p + 1, "lexical error: inside a string, "
			    "'\\' occurs before a character which it may not.");
			return;
		}
	}
more:
	/* An escape cut short is scanned again from its backslash. */
	t->type = T_MORE;
	t->resume = p;
}

/* A number, per JSON's grammar; it ends at the first byte not its own. */
static void
lex_number(const char *p, const char *end, struct token *t)
{
	const char *s = p;

	if (*p == '-' && ++p == end)
		goto more;
	if (*p == '0')
		p++;
	else if (is_digit((unsigned char)*p))
		while (++p < end && is_digit((unsigned char)*p))
			;
	else {
		lex_error(t, p, "lexical error: malformed number, a digit is "
		    "required after the minus sign.");
		return;
	}
	if (p == end)
		goto more;
	if (*p == '.') {
		if (++p == end)
			goto more;
		if (!is_digit((unsigned char)*p)) {
			lex_error(t, p, "lexical error: malformed number, a "
			    "digit is required after the decimal point.");
			return;
		}
		while (++p < end && is_digit((unsigned char)*p))
			;
		if (p == end)
			goto more;
	}
	if (*p == 'e' || *p == 'E') {
		if (++p == end)
			goto more;
		if ((*p == '+' || *p == '-') && ++p == end)
			goto more;
		if (!is_digit((unsigned char)*p)) {
			lex_error(t, p, "lexical error: malformed number, a "
			    "digit is required after the exponent.");
			return;
		}
		while (++p < end && is_digit((unsigned char)*p))
			;
		if (p == end)
			goto more;
	}
	t->type = T_NUMBER;
	t->s = s;
	t->n = (size_t)(p - s);
	t->end = p;
	return;
more:
	t->type = T_MORE;
}

static void
lex_literal(const char *p, const char *end, const char *word, size_t len,
    enum tok type, struct token *t)
{
	size_t i;

	for (i = 1; i < len; i++) {
		if (p + i == end) {
			t->type = T_MORE;
			return;
		}
		if (p[i] != word[i]) {
			lex_error(t, p + i, "lexical error: invalid string in "
			    "json text.");
			return;
		}
	}
	t->type = type;
	t->s = p;
	t->n = len;
	t->end = p + len;
}

/* The token at p, p < end; a string's scan starts at from. */
static void
lex_token(const char *p, const char *from, const char *end, struct token *t)
{
	enum tok one;

	switch (*p) {
	case '"':
		lex_string(p, from, end, t);
		return;
	case '{':
		one = T_LBRACE;
		break;
	case '}':
		one = T_RBRACE;
		break;
	case '[':
		one = T_LBRACKET;
		break;
	case ']':
		one = T_RBRACKET;
		break;
	case ',':
		one = T_COMMA;
		break;
	case ':':
		one = T_COLON;
		break;
	case '-': case '0': case '1': case '2': case '3': case '4': case '5':
	case '6': case '7': case '8': case '9':
		lex_number(p, end, t);
		return;
	case 't':
		lex_literal(p, end, "true", 4, T_TRUE, t);
		return;
	case 'f':
		lex_literal(p, end, "false", 5, T_FALSE, t);
		return;
	case 'n':
		lex_literal(p, end, "null", 4, T_NULL, t);
		return;
	case '/':
		lex_error(t, p, "lexical error: probable comment found in "
		    "input text, comments are not enabled.");
		return;
	default:
		lex_error(t, p + 1, "lexical error: invalid char in json "
		    "text.");
		return;
	}
	t->type = one;
	t->s = p;
	t->n = 1;
	t->end = p + 1;
}

/* ---- Unescaping, as yajl's yajl_string_decode() ---- */

/* The four hex digits at s (lex_string() checked them). */
static unsigned int
hex4(const char *s)
{
	unsigned int v = 0, k;
	unsigned char c;

	for (k = 0; k < 4; k++) {
		c = (unsigned char)s[k];
		v = v << 4 | (unsigned int)(c <= '9' ? c - '0' :
		    (c | 0x20) - 'a' + 10);
	}
	return v;
}

static size_t
utf8_put(unsigned int cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(cp >> 6 | 0xc0);
		out[1] = (char)((cp & 0x3f) | 0x80);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(cp >> 12 | 0xe0);
		out[1] = (char)((cp >> 6 & 0x3f) | 0x80);
		out[2] = (char)((cp & 0x3f) | 0x80);
		return 3;
	}
	out[0] = (char)(cp >> 18 | 0xf0);
	out[1] = (char)((cp >> 12 & 0x3f) | 0x80);
	out[2] = (char)((cp >> 6 & 0x3f) | 0x80);
	out[3] = (char)((cp & 0x3f) | 0x80);
	return 4;
}

/* U+FFFD, which stands for what JSON escapes but a name cannot hold. */
#define REPLACEMENT	0xfffd

/*
 * Unescapes s[0..n), escapes checked by lex_string(), into out (room for
 * n bytes: no escape is shorter than what it gives); returns the length.
 * By the JSON rules (RFC 8259, 7): a high surrogate and the low one
 * escaped right after it are one character; a surrogate without its other
 * half is U+FFFD, and what follows is read on its own.  \u0000 is U+FFFD
 * too: names are C strings, and a NUL would cut off the text after it.
 */
static size_t
unescape(const char *s, size_t n, char *out)
{
	size_t i = 0, o = 0;
	unsigned int cp, lo;

	while (i < n) {
		if (s[i] != '\\') {
			out[o++] = s[i++];
			continue;
		}
		switch (s[i + 1]) {
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'n': out[o++] = '\n'; break;
		case 'r': out[o++] = '\r'; break;
		case 't': out[o++] = '\t'; break;
		case 'u':
			cp = hex4(s + i + 2);
			if (cp >= 0xd800 && cp <= 0xdbff && i + 11 < n &&
			    s[i + 6] == '\\' && s[i + 7] == 'u' &&
			    (lo = hex4(s + i + 8)) >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				i += 6;
			} else if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0)
				cp = REPLACEMENT;
			o += utf8_put(cp, out + o);
			i += 4;
			break;
		default:	/* '"', '\\' and '/' */
			out[o++] = s[i + 1];
			break;
		}
		i += 2;
	}
	return o;
}

/* ---- The parser: what each token does where it comes ---- */

static uint64_t
offset_of(const struct json_lex *lx, const char *p)
{
	return lx->origin_at + (uint64_t)(p - lx->origin);
}

static int
fail_at(struct json_lex *lx, uint64_t at, const char *msg)
{
	lx->failed = 1;
	lx->at = at;
	lx->msg = msg;
	return -1;
}

static int
stopped(struct json_lex *lx)
{
	lx->failed = 1;
	lx->msg = NULL;
	return -1;
}

#define STRING(x)	#x
#define DIGITS(x)	STRING(x)

static int
push(struct json_lex *lx, const struct token *t, unsigned char kind)
{
	if (lx->depth == JSON_LEX_MAX_DEPTH)
		return fail_at(lx, offset_of(lx, t->end), "parse error: "
		    "arrays and objects nested deeper than "
		    DIGITS(JSON_LEX_MAX_DEPTH) " levels");
	lx->open[lx->depth++] = kind;
	lx->want = kind == '{' ? W_FIRST_KEY : W_FIRST_ELEM;
	return 0;
}

static void
pop(struct json_lex *lx)
{
	lx->want = --lx->depth == 0 ? W_DONE : W_NEXT;
}

/* A string token's bytes, unescaped when it has escapes. */
static const char *
string_of(struct json_lex *lx, const struct token *t, size_t *n)
{
	if (!t->esc) {
		*n = t->n;
		return t->s;
	}
	if (lx->capdec < t->n) {
		lx->capdec = t->n > 2 * lx->capdec ? t->n : 2 * lx->capdec;
		free(lx->dec);
		lx->dec = xmalloc(lx->capdec);
	}
	*n = unescape(t->s, t->n, lx->dec);
	return lx->dec;
}

static int
value(struct json_lex *lx, const struct token *t)
{
	const struct json_lex_cb *cb = lx->cb;
	const char *s;
	size_t n;
	int ok;

	switch (t->type) {
	case T_STRING:
		s = string_of(lx, t, &n);
		ok = cb->string(lx->ctx, s, n);
		break;
	case T_NUMBER:
		ok = cb->number(lx->ctx, t->s, t->n);
		break;
	case T_TRUE:
	case T_FALSE:
		ok = cb->boolean(lx->ctx, t->type == T_TRUE);
		break;
	case T_NULL:
		ok = cb->null(lx->ctx);
		break;
	case T_LBRACE:
		if (push(lx, t, '{') == -1)
			return -1;
		return cb->start_map(lx->ctx) ? 0 : stopped(lx);
	case T_LBRACKET:
		if (push(lx, t, '[') == -1)
			return -1;
		return cb->start_array(lx->ctx) ? 0 : stopped(lx);
	case T_RBRACKET:
		if (lx->want == W_FIRST_ELEM) {
			pop(lx);
			return cb->end_array(lx->ctx) ? 0 : stopped(lx);
		}
		/* FALLTHROUGH */
	default:
		return fail_at(lx, offset_of(lx, t->end), "parse error: "
		    "unallowed token at this point in JSON text");
	}
	if (!ok)
		return stopped(lx);
	lx->want = lx->depth == 0 ? W_DONE : W_NEXT;
	return 0;
}

/* A complete token (or a lexical error), as the state wants it. */
static int
lex_take(struct json_lex *lx, const struct token *t)
{
	const char *s;
	size_t n;

	lx->at = offset_of(lx, t->end);
	if (t->type == T_ERROR)
		return fail_at(lx, lx->at, lx->want == W_DONE ?
		    "parse error: trailing garbage" : t->msg);
	switch (lx->want) {
	case W_VALUE:
	case W_FIRST_ELEM:
	case W_ELEM:
		return value(lx, t);
	case W_FIRST_KEY:
	case W_KEY:
		if (t->type == T_STRING) {
			lx->want = W_COLON;
			s = string_of(lx, t, &n);
			return lx->cb->map_key(lx->ctx, s, n) ? 0 : stopped(lx);
		}
		if (t->type == T_RBRACE && lx->want == W_FIRST_KEY) {
			pop(lx);
			return lx->cb->end_map(lx->ctx) ? 0 : stopped(lx);
		}
		return fail_at(lx, lx->at, "parse error: invalid object key "
		    "(must be a string)");
	case W_COLON:
		if (t->type == T_COLON) {
			lx->want = W_VALUE;
			return 0;
		}
		return fail_at(lx, lx->at, "parse error: object key and value "
		    "must be separated by a colon (':')");
	case W_NEXT:
		if (t->type == T_COMMA) {
			lx->want = lx->open[lx->depth - 1] == '{' ? W_KEY :
			    W_ELEM;
			return 0;
		}
		if (lx->open[lx->depth - 1] == '[') {
			if (t->type == T_RBRACKET) {
				pop(lx);
				return lx->cb->end_array(lx->ctx) ? 0 :
				    stopped(lx);
			}
			return fail_at(lx, lx->at, "parse error: after array "
			    "element, I expect ',' or ']'");
		}
		if (t->type == T_RBRACE) {
			pop(lx);
			return lx->cb->end_map(lx->ctx) ? 0 : stopped(lx);
		}
		/*
		 * yajl backs up by the token's length (but not before the
		 * chunk it is in: that one we leave, to say the same
		 * wherever the chunks end).
		 */
		return fail_at(lx, lx->at - t->n, "parse error: after key "
		    "and value, inside map, I expect ',' or '}'");
	case W_DONE:
		break;
	}
	return fail_at(lx, lx->at, "parse error: trailing garbage");
}

/* ---- Feeding ---- */

/* Keeps [p, end), a token t cut short, for the next chunk. */
static void
keep_cut(struct json_lex *lx, const char *p, const char *end,
    const struct token *t)
{
	size_t n = (size_t)(end - p);

	if (lx->capcarry < n) {
		lx->capcarry = n > 2 * lx->capcarry ? n : 2 * lx->capcarry;
		lx->carry = xreallocarray(lx->carry, lx->capcarry, 1);
	}
	memmove(lx->carry, p, n);
	lx->carry_at = offset_of(lx, p);
	lx->ncarry = n;
	lx->resume = *p == '"' ? (size_t)(t->resume - p) : 0;
	lx->carry_esc = t->esc;
}

/* Past white space; returns from run() at end, all of it taken. */
#define SKIP_SPACE()							\
	do {								\
		while (p < end && is_space((unsigned char)*p))		\
			p++;						\
		if (p == end)						\
			return 0;					\
	} while (0)

/*
 * The tokens in [p, end); one cut at end is kept.  Each state has a fast
 * way for the tokens a trace has there, whole in the chunk; any other
 * token, a cut one or an error goes through lex_token() and lex_take(), which
 * do the same for those and all the rest.
 */
static int
run(struct json_lex *lx, const char *p, const char *end)
{
	const struct json_lex_cb *cb = lx->cb;
	void *ctx = lx->ctx;
	struct token t;
	const char *q;

again:
	switch (lx->want) {
	case W_VALUE:
	case W_ELEM:
	case W_FIRST_ELEM:
		goto value;
	case W_FIRST_KEY:
		goto first_key;
	case W_KEY:
		goto key;
	case W_COLON:
		goto colon;
	case W_NEXT:
		goto next;
	case W_DONE:
		break;
	}
	goto slow;

first_key:
	SKIP_SPACE();
	if (*p == '}')
		goto slow;
	goto key_here;
key:
	SKIP_SPACE();
key_here:
	if (*p != '"')
		goto slow;
	q = scan_plain(p + 1, end);
	if (q == end || *q != '"')
		goto slow;
	lx->want = W_COLON;
	lx->at = offset_of(lx, q + 1);
	if (!cb->map_key(ctx, p + 1, (size_t)(q - p - 1)))
		return stopped(lx);
	p = q + 1;
colon:
	SKIP_SPACE();
	if (*p != ':')
		goto slow;
	p++;
	lx->want = W_VALUE;
value:
	SKIP_SPACE();
	switch (*p) {
	case '"':
		q = scan_plain(p + 1, end);
		if (q == end || *q != '"')
			goto slow;
		lx->at = offset_of(lx, q + 1);
		if (!cb->string(ctx, p + 1, (size_t)(q - p - 1)))
			return stopped(lx);
		p = q + 1;
		break;
	case '-': case '0': case '1': case '2': case '3': case '4': case '5':
	case '6': case '7': case '8': case '9':
		lex_number(p, end, &t);
		if (t.type != T_NUMBER)
			goto slow;
		lx->at = offset_of(lx, t.end);
		if (!cb->number(ctx, t.s, t.n))
			return stopped(lx);
		p = t.end;
		break;
	case '{':
		if (lx->depth == JSON_LEX_MAX_DEPTH)
			goto slow;
		lx->open[lx->depth++] = '{';
		lx->want = W_FIRST_KEY;
		lx->at = offset_of(lx, ++p);
		if (!cb->start_map(ctx))
			return stopped(lx);
		goto first_key;
	case '[':
		if (lx->depth == JSON_LEX_MAX_DEPTH)
			goto slow;
		lx->open[lx->depth++] = '[';
		lx->want = W_FIRST_ELEM;
		lx->at = offset_of(lx, ++p);
		if (!cb->start_array(ctx))
			return stopped(lx);
		goto value;
	default:
		goto slow;
	}
	if (lx->depth == 0) {
		lx->want = W_DONE;
		goto slow;
	}
	lx->want = W_NEXT;
next:
	SKIP_SPACE();
	if (*p == ',') {
		p++;
		if (lx->open[lx->depth - 1] == '{') {
			lx->want = W_KEY;
			goto key;
		}
		lx->want = W_ELEM;
		goto value;
	}
	if (*p != (lx->open[lx->depth - 1] == '{' ? '}' : ']'))
		goto slow;
	pop(lx);
	lx->at = offset_of(lx, ++p);
	if (!(p[-1] == '}' ? cb->end_map(ctx) : cb->end_array(ctx)))
		return stopped(lx);
	if (lx->depth > 0)
		goto next;
slow:
	SKIP_SPACE();
	t.esc = 0;
	lex_token(p, p + 1, end, &t);
	if (t.type == T_MORE) {
		keep_cut(lx, p, end, &t);
		return 0;
	}
	if (lex_take(lx, &t) == -1)
		return -1;
	p = t.end;
	goto again;
}

#undef SKIP_SPACE

/*
 * Completes the token kept in carry from p[0..n), appending a little more
 * of p at a time; returns the bytes of p it took, or -1.
 */
static ssize_t
complete_cut(struct json_lex *lx, const char *p, size_t n)
{
	size_t used = 0, step = 64, k, before;
	struct token t;

	for (;;) {
		k = n - used < step ? n - used : step;
		if (lx->capcarry - lx->ncarry < k) {
			lx->capcarry = 2 * (lx->ncarry + k);
			lx->carry = xreallocarray(lx->carry, lx->capcarry, 1);
		}
		memcpy(lx->carry + lx->ncarry, p + used, k);
		lx->ncarry += k;
		used += k;
		t.esc = lx->carry_esc;
		lex_token(lx->carry, lx->carry + (lx->resume > 0 ?
		    lx->resume : 1), lx->carry + lx->ncarry, &t);
		if (t.type != T_MORE)
			break;
		if (*lx->carry == '"') {
			lx->resume = (size_t)(t.resume - lx->carry);
			lx->carry_esc = t.esc;
		}
		if (used == n)
			return (ssize_t)n;
		step *= 2;
	}
	lx->origin = lx->carry;
	lx->origin_at = lx->carry_at;
	before = lx->ncarry - used;	/* carried from earlier chunks */
	lx->ncarry = 0;
	if (lex_take(lx, &t) == -1)
		return -1;
	return (ssize_t)((size_t)(t.end - lx->carry) - before);
}

struct json_lex *
json_lex_new(const struct json_lex_cb *cb, void *ctx)
{
	struct json_lex *lx = xcalloc(1, sizeof *lx);

	lx->cb = cb;
	lx->ctx = ctx;
	lx->want = W_VALUE;
	return lx;
}

void
json_lex_free(struct json_lex *lx)
{
	if (lx == NULL)
		return;
	free(lx->carry);
	free(lx->dec);
	free(lx);
}

int
json_lex_feed(struct json_lex *lx, const char *p, size_t n)
{
	ssize_t used = 0;
	int rc = 0;

	if (lx->failed)
		return -1;
	if (lx->ncarry > 0 && n > 0)
		used = complete_cut(lx, p, n);
	if (used >= 0 && (size_t)used < n) {
		lx->origin = p;
		lx->origin_at = lx->total;
		rc = run(lx, p + used, p + n);
	} else if (used < 0)
		rc = -1;
	lx->total += n;
	return rc;
}

int
json_lex_finish(struct json_lex *lx)
{
	uint64_t total = lx->total;
	int rc;

	if (lx->failed)
		return -1;
	/* As yajl: a space ends a number, then the text must be done. */
	rc = json_lex_feed(lx, " ", 1);
	lx->total = total;
	if (rc == 0 && lx->want != W_DONE)
		rc = fail_at(lx, total, "parse error: premature EOF");
	if (rc == -1)
		lx->at = total;
	return rc;
}

uint64_t
json_lex_offset(const struct json_lex *lx)
{
	return lx->at;
}

const char *
json_lex_error(const struct json_lex *lx)
{
	return lx->failed ? lx->msg : NULL;
}
