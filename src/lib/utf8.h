/* UTF-8 as JSON writers check it (utf8.c). */
#ifndef JAXPROF_UTF8_H
#define JAXPROF_UTF8_H

#include <stddef.h>

/*
 * The length of the valid UTF-8 sequence (2 to 4 bytes) that starts at p,
 * or 0 when it is not one (JSON writers replace such a byte by U+FFFD).
 */
size_t		 utf8_seq_len(const unsigned char *p, size_t n);

#endif
