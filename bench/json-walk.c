/*
 * The bare tokenizer pass that bench/json-speed.sh compares jaxprof with:
 * reads JSON on stdin and streams it through yajl as src/read-json.c does
 * (same chunk size, same options), counting tokens and nothing else.
 *
 *	zcat trace.json.gz | json-walk		prints "N tokens"
 */
#include <stdio.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

#define CHUNK	(256 * 1024)	/* READ_CHUNK of src/read-json.c */

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

int
main(void)
{
	static unsigned char buf[CHUNK];
	yajl_handle y = yajl_alloc(&callbacks, NULL, NULL);
	yajl_status st = yajl_status_ok;
	ssize_t n;

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
