/* UTF-8: valid sequences, characters, and where to cut a text. */
#include "config.h"

#include <string.h>

#include "lib/utf8.h"

/*
 * The length of the valid UTF-8 sequence (2 to 4 bytes) that starts at p,
 * or 0 when it is not one: overlong forms, surrogates and code points
 * beyond U+10FFFF are invalid (Unicode 15, table 3-7).
 */
size_t
utf8_seq_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

size_t
utf8_char_len(const unsigned char *p, size_t n)
{
	size_t len;

	if (p[0] < 0x80)
		return 1;
	return (len = utf8_seq_len(p, n)) > 0 ? len : 1;
}

int
utf8_is_control(const unsigned char *p, size_t n)
{
	return p[0] < 0x20 || p[0] == 0x7f ||
	    (n >= 2 && p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
}

size_t
utf8_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, chars = 0;

	while (i < n) {
		i += utf8_char_len(p + i, n - i);
		chars++;
	}
	return chars;
}

size_t
utf8_head(const char *s, size_t chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n && chars-- > 0)
		i += utf8_char_len(p + i, n - i);
	return i;
}

const char *
utf8_tail(const char *s, size_t chars)
{
	size_t total = utf8_chars(s);

	return total <= chars ? s : s + utf8_head(s, total - chars);
}
