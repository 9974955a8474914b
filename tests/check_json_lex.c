/*
 * The JSON tokenizer: the same callbacks, error messages and offsets as
 * yajl (which it replaced in read-json.c) on valid and invalid texts and
 * their mutations, whatever the chunks the text comes in.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "check_suites.h"
#include "input/gzip.h"
#include "read/json-lex.h"

/* ---- A transcript of the callbacks, from either parser ---- */

struct rec {
	char		*p;
	size_t		 len;
	size_t		 cap;
	int		 stop_at;	/* stop at this callback; -1: never */
	int		 ncalls;
};

static void
rec_add(struct rec *r, const char *s, size_t n)
{
	if (r->cap - r->len < n + 1) {
		r->cap = 2 * (r->len + n + 1);
		r->p = realloc(r->p, r->cap);
		ck_assert_ptr_nonnull(r->p);
	}
	memcpy(r->p + r->len, s, n);
	r->len += n;
	r->p[r->len] = '\0';
}

/* "tag" and s[0..n) with its bytes outside printable ASCII as \xNN. */
static int
rec_tok(struct rec *r, const char *tag, const char *s, size_t n)
{
	char hex[8];
	size_t i;

	rec_add(r, tag, strlen(tag));
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\') {
			snprintf(hex, sizeof hex, "\\x%02x", c);
			rec_add(r, hex, 4);
		} else
			rec_add(r, s + i, 1);
	}
	rec_add(r, "\n", 1);
	return r->ncalls++ != r->stop_at;
}

static int
r_null(void *ctx)
{
	return rec_tok(ctx, "null", "", 0);
}

static int
r_bool(void *ctx, int v)
{
	return rec_tok(ctx, v ? "true" : "false", "", 0);
}

static int
r_num(void *ctx, const char *s, size_t n)
{
	return rec_tok(ctx, "num ", s, n);
}

static int
r_str(void *ctx, const char *s, size_t n)
{
	return rec_tok(ctx, "str ", s, n);
}

static int
r_ustr(void *ctx, const unsigned char *s, size_t n)
{
	return r_str(ctx, (const char *)s, n);
}

static int
r_key(void *ctx, const char *s, size_t n)
{
	return rec_tok(ctx, "key ", s, n);
}

static int
r_ukey(void *ctx, const unsigned char *s, size_t n)
{
	return r_key(ctx, (const char *)s, n);
}

static int
r_open_map(void *ctx)
{
	return rec_tok(ctx, "{", "", 0);
}

static int
r_close_map(void *ctx)
{
	return rec_tok(ctx, "}", "", 0);
}

static int
r_open_array(void *ctx)
{
	return rec_tok(ctx, "[", "", 0);
}

static int
r_close_array(void *ctx)
{
	return rec_tok(ctx, "]", "", 0);
}

static const struct json_lex_cb lex_cb = {
	.null = r_null, .boolean = r_bool, .number = r_num, .string = r_str,
	.start_map = r_open_map, .map_key = r_key, .end_map = r_close_map,
	.start_array = r_open_array, .end_array = r_close_array,
};

static const yajl_callbacks yajl_cb = {
	.yajl_null = r_null, .yajl_boolean = r_bool, .yajl_number = r_num,
	.yajl_string = r_ustr, .yajl_start_map = r_open_map,
	.yajl_map_key = r_ukey, .yajl_end_map = r_close_map,
	.yajl_start_array = r_open_array, .yajl_end_array = r_close_array,
};

static void
rec_end(struct rec *r, int failed, uint64_t at, const char *msg)
{
	char line[512];

	if (!failed)
		snprintf(line, sizeof line, "ok\n");
	else
		snprintf(line, sizeof line, "error at %llu: %s\n",
		    (unsigned long long)at, msg != NULL ? msg : "(stopped)");
	rec_add(r, line, strlen(line));
}

/*
 * Ours, fed in pieces cut at cuts[0..ncuts) (ascending); stop_at as in
 * struct rec.  Caller frees.
 */
static char *
run_lex(const char *text, size_t len, const size_t *cuts, size_t ncuts,
    int stop_at)
{
	struct rec r = { NULL, 0, 0, stop_at, 0 };
	struct json_lex *lx = json_lex_new(&lex_cb, &r);
	size_t i, from = 0, to;
	int rc = 0;

	rec_add(&r, "", 0);
	for (i = 0; rc == 0 && i <= ncuts; i++) {
		to = i < ncuts ? cuts[i] : len;
		rc = json_lex_feed(lx, text + from, to - from);
		from = to;
	}
	if (rc == 0)
		rc = json_lex_finish(lx);
	rec_end(&r, rc == -1, json_lex_offset(lx), json_lex_error(lx));
	json_lex_free(lx);
	return r.p;
}

/* yajl in one piece, its error told as read-json.c told it. */
static char *
run_yajl(const char *text, size_t len, int stop_at)
{
	struct rec r = { NULL, 0, 0, stop_at, 0 };
	yajl_handle y = yajl_alloc(&yajl_cb, NULL, &r);
	yajl_status st;
	uint64_t at = len;
	char *msg = NULL, *p;
	unsigned char *e;

	rec_add(&r, "", 0);
	(void)yajl_config(y, yajl_dont_validate_strings, 1);
	st = yajl_parse(y, (const unsigned char *)text, len);
	if (st != yajl_status_ok)
		at = yajl_get_bytes_consumed(y);
	else
		st = yajl_complete_parse(y);
	if (st == yajl_status_client_canceled)
		rec_end(&r, 1, at, NULL);
	else if (st != yajl_status_ok) {
		e = yajl_get_error(y, 0, NULL, 0);
		msg = strdup((const char *)e);
		ck_assert_ptr_nonnull(msg);
		yajl_free_error(y, e);
		if ((p = strchr(msg, '\n')) != NULL)
			*p = '\0';
		rec_end(&r, 1, at, msg);
	} else
		rec_end(&r, 0, 0, NULL);
	free(msg);
	yajl_free(y);
	return r.p;
}

/* ---- The texts ---- */

static const char *const texts[] = {
	/* Valid. */
	"{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1.5,"
	    "\"dur\":0.25,\"name\":\"fusion.1\",\"args\":{\"a\":true,"
	    "\"b\":false,\"c\":null,\"d\":[],\"e\":{}}}],"
	    "\"displayTimeUnit\":\"ns\"}",
	"[1, -2, 0, -0, 10.5, 1e3, 1E+3, 1e-3, -0.0e0, "
	    "123456789012345678901234]",
	" \t\n\r\v\f[ ] \n",
	"\"top\"",
	"42",
	"-7.5e+10",
	"true",
	"null",
	"[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
	"{\"a\":{\"b\":{\"c\":[{\"d\":[1,{\"e\":\"f\"}]}]}}}",
	/* Escapes, \u and surrogates, and raw bytes (no UTF-8 check). */
	"[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"a\\u0041\\u00e9\\u20ac\\u0000z\"]",
	"[\"\\ud83d\\ude00\", \"\\uD83D\\uDE00\", \"\\udc00x\"]",
	"[\"\\ud800\", \"\\ud800x\", \"\\ud800\\n\", \"\\ud800\\\\u0041\"]",
	"[\"\\ud800\\\\\", \"\\ud800\\u0041\", \"\\uDBFF\\uDFFF\"]",
	"{\"k\\u0065y\":\"caf\xc3\xa9\", \"\xff\xfe\":\"\x80\"}",
	/* Empty texts, cut by every chunk's end in the chunks tests. */
	"{\"\":\"\", \"a\":[\"\",\"\"], \"\":{\"\":\"\"}}",
	/* Invalid: literals, numbers, strings, structure. */
	"",
	"   ",
	"[tru]",
	"[nul",
	"[falsy]",
	"[01]",
	"[-]",
	"[-a]",
	"[1.]",
	"[1.e5]",
	"[1e]",
	"[1e+]",
	"[+1]",
	"[.5]",
	"[1x]",
	"[\"abc]",
	"[\"a\tb\"]",
	"[\"a\nb\"]",
	"[\"a\x01\"]",
	"[\"\\x\"]",
	"[\"\\u12G4\"]",
	"[\"\\u12\"]",
	"[\"\\",
	"{\"a\" 1}",
	"{\"a\":1 \"b\":2}",
	"{\"a\":1 \"bcdef\":2}",
	"{\"a\":1 true}",
	"{\"a\":1,}",
	"{1:2}",
	"{,}",
	"[1 2]",
	"[1,]",
	"[,1]",
	"[:]",
	"[}",
	"{]",
	"]",
	"}",
	"[] x",
	"[] []",
	"[] 12",
	"{} \"s\"",
	"[] /",
	"[/* c */]",
	"\x08\x01\x12\x05hello",
	"[1,2",
	"{\"a\":",
	"{\"a\"",
	"{\"a",
	"[\"\\u00",
	"[\"\\ud800\\u",
};

#define NTEXTS	(sizeof texts / sizeof texts[0])

/*
 * Whether s[0..n) escapes a surrogate or U+0000: yajl decodes those its
 * own way, json-lex by the JSON rules (test_escapes).
 */
static int
decodes_unlike_yajl(const char *s, size_t n)
{
	size_t i, k;
	unsigned v;

	for (i = 0; i + 1 < n; i++) {
		if (s[i] != '\\')
			continue;
		if (s[i + 1] == 'u' && i + 5 < n) {
			for (v = 0, k = 2; k < 6 && isxdigit((unsigned char)s[i + k]);
			    k++)
				v = v << 4 | (unsigned)(isdigit((unsigned char)
				    s[i + k]) ? s[i + k] - '0' :
				    (s[i + k] | 0x20) - 'a' + 10);
			if (k == 6 && (v == 0 || (v >= 0xd800 && v <= 0xdfff)))
				return 1;
		}
		i++;
	}
	return 0;
}

/* One-shot: ours and yajl say the same, callbacks and errors. */
START_TEST(test_like_yajl)
{
	const char *t = texts[_i];
	char *ours = run_lex(t, strlen(t), NULL, 0, -1);
	char *theirs = run_yajl(t, strlen(t), -1);

	if (!decodes_unlike_yajl(t, strlen(t)))
		ck_assert_msg(strcmp(ours, theirs) == 0, "text '%s':\n--- "
		    "ours:\n%s--- yajl:\n%s", t, ours, theirs);
	free(ours);
	free(theirs);
}
END_TEST

/* Cut anywhere (two pieces at every offset, byte by byte): the same. */
START_TEST(test_chunks)
{
	const char *t = texts[_i];
	size_t len = strlen(t), i, *cuts;
	char *whole = run_lex(t, len, NULL, 0, -1), *part;

	for (i = 0; i <= len; i++) {
		part = run_lex(t, len, &i, 1, -1);
		ck_assert_msg(strcmp(part, whole) == 0, "text '%s' cut at %zu:"
		    "\n--- cut:\n%s--- whole:\n%s", t, i, part, whole);
		free(part);
	}
	cuts = calloc(len + 1, sizeof *cuts);
	ck_assert_ptr_nonnull(cuts);
	for (i = 0; i < len; i++)
		cuts[i] = i;
	part = run_lex(t, len, cuts, len, -1);
	ck_assert_msg(strcmp(part, whole) == 0, "text '%s' byte by byte:\n"
	    "--- bytes:\n%s--- whole:\n%s", t, part, whole);
	free(part);
	free(cuts);
	free(whole);
}
END_TEST

/* A callback's 0 stops the parse just past its token, as yajl. */
START_TEST(test_stop)
{
	const char *t = texts[0];
	size_t len = strlen(t);
	char *ours, *theirs;
	int k;

	for (k = 0; k < 40; k++) {
		ours = run_lex(t, len, NULL, 0, k);
		theirs = run_yajl(t, len, k);
		ck_assert_msg(strcmp(ours, theirs) == 0, "stop at %d:\n"
		    "--- ours:\n%s--- yajl:\n%s", k, ours, theirs);
		free(ours);
		free(theirs);
	}
	/* A number at the very end completes only at json_lex_finish(). */
	ours = run_lex("12", 2, NULL, 0, 0);
	ck_assert_str_eq(ours, "num 12\nerror at 2: (stopped)\n");
	free(ours);
}
END_TEST

/* A deterministic generator, for mutations. */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Mutations of the valid texts (a byte changed, dropped or doubled, to
 * one of JSON's own or any byte): ours and yajl agree on each.
 */
START_TEST(test_mutations)
{
	static const char alphabet[] = "{}[]:,\"\\/-+.0123456789eEtrufalsn u"
	    " \t\n\x01\x80";
	uint64_t seed = 0x9e3779b97f4a7c15u;
	char buf[512], *ours, *theirs;
	size_t len, at, i, ntexts = 15;
	const char *t;
	int n, kind;

	for (n = 0; n < 20000; n++) {
		t = texts[next_rand(&seed) % ntexts];
		len = strlen(t);
		ck_assert(len + 2 < sizeof buf);
		memcpy(buf, t, len);
		for (i = 0; i < 1 + next_rand(&seed) % 3 && len > 0; i++) {
			at = next_rand(&seed) % len;
			kind = (int)(next_rand(&seed) % 3);
			if (kind == 0)
				buf[at] = alphabet[next_rand(&seed) %
				    (sizeof alphabet - 1)];
			else if (kind == 1) {
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
			} else {
				memmove(buf + at + 1, buf + at, len - at);
				len++;
			}
		}
		ours = run_lex(buf, len, NULL, 0, -1);
		theirs = run_yajl(buf, len, -1);
		ck_assert_msg(decodes_unlike_yajl(buf, len) ||
		    strcmp(ours, theirs) == 0, "mutation %d '%.*s':\n"
		    "--- ours:\n%s--- yajl:\n%s", n, (int)len, buf, ours,
		    theirs);
		free(theirs);
		at = len > 0 ? next_rand(&seed) % len : 0;
		theirs = run_lex(buf, len, &at, 1, -1);
		ck_assert_msg(strcmp(ours, theirs) == 0, "mutation %d '%.*s' "
		    "cut at %zu:\n--- whole:\n%s--- cut:\n%s", n, (int)len, buf,
		    at, ours, theirs);
		free(ours);
		free(theirs);
	}
}
END_TEST

/*
 * Escapes by the JSON rules (issue 37.7): a surrogate pair is one
 * character, a surrogate without its other half U+FFFD, and what follows
 * it read on its own; U+0000 is U+FFFD and the text after it is kept.
 */
START_TEST(test_escapes)
{
	static const char *const cases[][2] = {
		{ "[\"\\ud800\\u0041\"]", "str \\xef\\xbf\\xbdA" },
		{ "[\"\\ud83d\\ude00\"]", "str \\xf0\\x9f\\x98\\x80" },
		{ "[\"\\uDBFF\\uDFFF\"]", "str \\xf4\\x8f\\xbf\\xbf" },
		{ "[\"\\ud800\"]", "str \\xef\\xbf\\xbd" },
		{ "[\"x\\ud800\"]", "str x\\xef\\xbf\\xbd" },
		{ "[\"\\udc00x\"]", "str \\xef\\xbf\\xbdx" },
		{ "[\"\\ud800\\ud800\\udc00\"]",
		    "str \\xef\\xbf\\xbd\\xf0\\x90\\x80\\x80" },
		{ "[\"\\udc00\\ud800\"]",
		    "str \\xef\\xbf\\xbd\\xef\\xbf\\xbd" },
		{ "[\"\\ud800\\n\"]", "str \\xef\\xbf\\xbd\\x0a" },
		{ "[\"\\ud800\\\\u0041\"]", "str \\xef\\xbf\\xbd\\x5cu0041" },
		{ "[\"a\\u0000b\"]", "str a\\xef\\xbf\\xbdb" },
		{ "{\"k\\u0000\":1}", "key k\\xef\\xbf\\xbd" },
		{ "[\"\\u00e9\\u20ac\"]", "str \\xc3\\xa9\\xe2\\x82\\xac" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *t = cases[i][0];
		char *got = run_lex(t, strlen(t), NULL, 0, -1);

		ck_assert_msg(strstr(got, cases[i][1]) != NULL &&
		    strstr(got, "error") == NULL, "text '%s': want '%s' in:\n%s",
		    t, cases[i][1], got);
		free(got);
	}
}
END_TEST

/* Nesting is bounded, with an error that says so. */
START_TEST(test_depth)
{
	size_t n = JSON_LEX_MAX_DEPTH, i;
	char *text = malloc(2 * n + 3), *got, want[256];

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < n; i++) {
		text[i] = '[';
		text[2 * n - 1 - i] = ']';
	}
	got = run_lex(text, 2 * n, NULL, 0, -1);
	ck_assert(strstr(got, "\nok\n") != NULL);
	free(got);
	memmove(text + 1, text, 2 * n);
	text[0] = '[';
	text[2 * n + 1] = ']';
	got = run_lex(text, 2 * n + 2, NULL, 0, -1);
	snprintf(want, sizeof want, "error at %zu: parse error: arrays and "
	    "objects nested deeper than %d levels\n", n + 1,
	    JSON_LEX_MAX_DEPTH);
	ck_assert_msg(strstr(got, want) != NULL, "got ...%s",
	    got + strlen(got) - (strlen(got) > 100 ? 100 : strlen(got)));
	free(got);
	free(text);
}
END_TEST

/* Strings and numbers far longer than any chunk, cut many times. */
START_TEST(test_long_tokens)
{
	size_t n = 300000, len, i, cuts[40];
	char *text = malloc(3 * n + 64), *whole, *part;

	ck_assert_ptr_nonnull(text);
	len = (size_t)sprintf(text, "[\"");
	for (i = 0; i < n; i++)
		if (i % 1000 == 0) {
			text[len++] = '\\';
			text[len++] = 't';
		} else
			text[len++] = (char)('a' + i % 26);
	len += (size_t)sprintf(text + len, "\", 1");
	memset(text + len, '7', n);
	len += n;
	text[len++] = ']';
	whole = run_lex(text, len, NULL, 0, -1);
	ck_assert(strstr(whole, "\nok\n") != NULL);
	for (i = 0; i < 40; i++)
		cuts[i] = (i + 1) * (len / 41) + i % 3;
	part = run_lex(text, len, cuts, 40, -1);
	ck_assert(strcmp(part, whole) == 0);
	free(part);
	part = run_yajl(text, len, -1);
	ck_assert(strcmp(part, whole) == 0);
	free(part);
	free(whole);
	free(text);
}
END_TEST

Suite *
suite_json_lex(void)
{
	Suite *s = suite_create("json-lex");
	TCase *tc = tcase_create("like yajl");

	tcase_add_loop_test(tc, test_like_yajl, 0, (int)NTEXTS);
	tcase_add_test(tc, test_stop);
	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_mutations);
	suite_add_tcase(s, tc);
	tc = tcase_create("chunks");
	tcase_add_loop_test(tc, test_chunks, 0, (int)NTEXTS);
	tcase_add_test(tc, test_long_tokens);
	tcase_add_test(tc, test_depth);
	suite_add_tcase(s, tc);
	return s;
}
