/*
 * UTF-8 (utf8.c): valid sequences as JSON writers check them, characters
 * counted and cut on their boundaries.  A byte that starts no valid
 * sequence counts as one character of its own (writers show it as
 * U+FFFD).
 */
#ifndef JAXPROF_UTF8_H
#define JAXPROF_UTF8_H

#include <stddef.h>

/*
 * The length of the valid UTF-8 sequence (2 to 4 bytes) that starts at p,
 * or 0 when it is not one (JSON writers replace such a byte by U+FFFD).
 */
size_t		 utf8_seq_len(const unsigned char *p, size_t n);
/* The bytes of the character at p (n > 0 left): 1 to 4. */
size_t		 utf8_char_len(const unsigned char *p, size_t n);
/* Whether the character at p is a control: C0, DEL, or C1 (U+0080-9F). */
int		 utf8_is_control(const unsigned char *p, size_t n);
/* The characters of s. */
size_t		 utf8_chars(const char *s);
/* The bytes of s's first chars characters. */
size_t		 utf8_head(const char *s, size_t chars);
/* Where s's last chars characters start. */
const char	*utf8_tail(const char *s, size_t chars);

#endif
