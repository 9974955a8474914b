/* Allocation that cannot fail: out of memory exits with status 2. */
#ifndef JAXPROF_XMALLOC_H
#define JAXPROF_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t size);
void	*xcalloc(size_t nmemb, size_t size);
void	*xreallocarray(void *ptr, size_t nmemb, size_t size);
/*
 * Room for element n of an array that only ever grows one element at a
 * time through here (its capacity is n rounded up to a power of two):
 * amortized constant, where growing by exactly one each time is quadratic
 * when realloc() copies.
 */
void	*xgrow1(void *ptr, size_t n, size_t size);
/* Frees the n strings of v, then v. */
void	 free_strings(char **v, size_t n);
char	*xstrdup(const char *s);
/* A NUL-terminated copy of the first len bytes of s. */
char	*xstrndup(const char *s, size_t len);
/* Returns a new string built like printf; caller frees. */
char	*xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
