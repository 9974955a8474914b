/* JSON strings, escaped one way (json-string.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/json-string.h"
#include "lib/utf8.h"

/* The bytes at p[0, n) that go out as they are, up to the first escape. */
static size_t
plain_run(const unsigned char *p, size_t n)
{
	size_t i = 0, len;

	while (i < n) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
			i++;
		else if (p[i] >= 0x80 && (len = utf8_seq_len(p + i, n - i)) > 0 &&
		    !utf8_is_control(p + i, n - i))
			i += len;
		else
			break;
	}
	return i;
}

void
json_escape(const char *s, size_t n, json_put_fn *put, void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run;
	char esc[8];

	while (i < n) {
		if ((run = plain_run(p + i, n - i)) > 0) {
			put(ctx, s + i, run);
			if ((i += run) == n)
				break;
		}
		if (p[i] == '"' || p[i] == '\\') {
			esc[0] = '\\';
			esc[1] = (char)p[i];
			put(ctx, esc, 2);
			i++;
		} else if (p[i] == '\n' || p[i] == '\t') {
			put(ctx, p[i] == '\n' ? "\\n" : "\\t", 2);
			i++;
		} else if (utf8_is_control(p + i, n - i)) {
			/* C0 and DEL are a byte; C1 is 0xc2 and the code. */
			size_t len = p[i] < 0x80 ? 1 : 2;

			snprintf(esc, sizeof esc, "\\u%04x", p[i + len - 1]);
			put(ctx, esc, 6);
			i += len;
		} else {
			put(ctx, "\\ufffd", 6);
			i++;
		}
	}
}

static void
put_file(void *fp, const char *s, size_t n)
{
	fwrite(s, 1, n, fp);
}

void
json_fputs(FILE *fp, const char *s)
{
	fputc('"', fp);
	json_escape(s, strlen(s), put_file, fp);
	fputc('"', fp);
}
