/*
 * The bare tokenizer pass that bench/json-speed.sh compares jaxprof with:
 * reads JSON on stdin and streams it through a tokenizer in chunks of
 * src/read/read-json.c's size, counting tokens and nothing else.  The
 * tokenizer is yajl (as read-json.c used it: yajl_dont_validate_strings),
 * or with --lex src/read/json-lex.c, the one read-json.c uses now.
 *
 *	zcat trace.json.gz | json-walk [--lex]	prints "N tokens"
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#include "read/json-lex.h"

#define CHUNK	(256 * 1024)	/* READ_CHUNK of src/read/read-json.c */

static unsigned long long ntokens;

static int
scalar(void *ctx)
{
	(void)ctx;
	ntokens++;
	return 1;
}

static int
on_bool(void *ctx, int v)
{
	(void)v;
	return scalar(ctx);
}

static int
on_text(void *ctx, const char *s, size_t n)
{
	(void)s;
	(void)n;
	return scalar(ctx);
}

static int
on_string(void *ctx, const unsigned char *s, size_t n)
{
	(void)s;
	(void)n;
	return scalar(ctx);
}

static int
on_chars(void *ctx, const char *s, size_t n)
{
	(void)s;
	(void)n;
	return scalar(ctx);
}

static const struct json_lex_cb lex_callbacks = {
	.null = scalar,
	.boolean = on_bool,
	.number = on_text,
	.string = on_chars,
	.start_map = scalar,
	.map_key = on_chars,
	.end_map = scalar,
	.start_array = scalar,
	.end_array = scalar,
};

static const yajl_callbacks callbacks = {
	.yajl_null = scalar,
	.yajl_boolean = on_bool,
	.yajl_number = on_text,
	.yajl_string = on_string,
	.yajl_start_map = scalar,
	.yajl_map_key = on_string,
	.yajl_end_map = scalar,
	.yajl_start_array = scalar,
	.yajl_end_array = scalar,
};

static int
walk_lex(void)
{
	static char buf[CHUNK];
	struct json_lex *lx = json_lex_new(&lex_callbacks, NULL);
	ssize_t n;
	int rc = 0;

	while (rc == 0 && (n = read(0, buf, sizeof buf)) > 0)
		rc = json_lex_feed(lx, buf, (size_t)n);
	if (rc == 0)
		rc = json_lex_finish(lx);
	if (rc != 0)
		fprintf(stderr, "json-walk: at byte %llu: %s\n",
		    (unsigned long long)json_lex_offset(lx), json_lex_error(lx));
	else
		printf("%llu tokens\n", ntokens);
	json_lex_free(lx);
	return rc != 0;
}

int
main(int argc, char **argv)
{
	static unsigned char buf[CHUNK];
	yajl_handle y;
	yajl_status st = yajl_status_ok;
	ssize_t n;

	if (argc > 1 && strcmp(argv[1], "--lex") == 0)
		return walk_lex();
	y = yajl_alloc(&callbacks, NULL, NULL);

	(void)yajl_config(y, yajl_dont_validate_strings, 1);
	while (st == yajl_status_ok && (n = read(0, buf, sizeof buf)) > 0)
		st = yajl_parse(y, buf, (size_t)n);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(y);
	if (st != yajl_status_ok) {
		unsigned char *e = yajl_get_error(y, 0, NULL, 0);

		fprintf(stderr, "json-walk: %s", (const char *)e);
		yajl_free_error(y, e);
		yajl_free(y);
		return 1;
	}
	yajl_free(y);
	printf("%llu tokens\n", ntokens);
	return 0;
}
