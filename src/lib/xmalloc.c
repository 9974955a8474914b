/* Allocation that cannot fail: a report must never crash on NULL. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/xmalloc.h"

void *
xmalloc(size_t size)
{
	void *p = malloc(size == 0 ? 1 : size);

	if (p == NULL)
		jp_errx(EXIT_TROUBLE, "out of memory allocating %zu bytes", size);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	p = calloc(nmemb, size);
	if (p == NULL)
		jp_errx(EXIT_TROUBLE, "out of memory allocating %zu x %zu bytes",
		    nmemb, size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		jp_errx(EXIT_TROUBLE, "allocation of %zu x %zu bytes overflows",
		    nmemb, size);
	p = realloc(ptr, nmemb * size == 0 ? 1 : nmemb * size);
	if (p == NULL)
		jp_errx(EXIT_TROUBLE, "out of memory allocating %zu x %zu bytes",
		    nmemb, size);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		jp_errx(EXIT_TROUBLE, "bad format string '%s'", fmt);
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void *
xgrow1(void *ptr, size_t n, size_t size)
{
	if (n == 0 || (n & (n - 1)) == 0)
		return xreallocarray(ptr, n == 0 ? 1 : 2 * n, size);
	return ptr;
}

void
free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
