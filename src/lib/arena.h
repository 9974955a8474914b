/*
 * Memory handed out piece by piece and given back all at once, for many
 * small pieces that live and die together (an unpacked protobuf, the names
 * of a plane's metadata, a string map's copies): malloc and free of each
 * piece cost as much as decoding it.  Its blocks begin at 1 KiB and grow
 * to 64 KiB, so that a small arena stays small.
 *
 *	struct arena a = ARENA_INIT;
 *	char *s = arena_strndup(&a, p, len);
 *	...
 *	arena_release(&a);	(every piece at once)
 */
#ifndef JAXPROF_ARENA_H
#define JAXPROF_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
};

#define ARENA_INIT	{ NULL }

/* n bytes, 16-byte aligned, uninitialized; never NULL (xmalloc). */
void	*arena_alloc(struct arena *a, size_t n);
/* A copy of the len bytes at s, NUL-terminated (as xstrndup()). */
char	*arena_strndup(struct arena *a, const char *s, size_t len);
/* Gives back every piece; a is then empty, ready for use again. */
void	 arena_release(struct arena *a);

#endif
