/* Memory given back all at once (arena.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/arena.h"
#include "lib/xmalloc.h"

/*
 * Under AddressSanitizer the arena's free room and the gaps between its
 * pieces are poisoned, so an overrun of a piece is still caught.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN	1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN	1
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define ARENA_GAP	16
#else
#define ASAN_POISON_MEMORY_REGION(p, n)		((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n)	((void)(p), (void)(n))
#define ARENA_GAP	0
#endif

/*
 * Bytes an arena takes from malloc at a time (more for a bigger piece):
 * its first block small, each next one twice the last, up to
 * ARENA_BLOCK, so that the many small arenas (a string map's) stay small.
 */
#define ARENA_FIRST_BLOCK	1024
#define ARENA_BLOCK		(64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t		 used, size;
	size_t		 pad;	/* the data after the header 16-byte aligned */
};

void *
arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	size_t want = n;

	n = (n + ARENA_GAP + 15) & ~(size_t)15;
	if (b == NULL || b->size - b->used < n) {
		size_t size = b == NULL ? ARENA_FIRST_BLOCK :
		    b->size < ARENA_BLOCK / 2 ? b->size * 2 : ARENA_BLOCK;
		int own = n > size / 4;

		b = xmalloc(sizeof *b + (own ? n : size));
		b->used = 0;
		b->size = own ? n : size;
		ASAN_POISON_MEMORY_REGION(b + 1, b->size);
		/* A big piece gets a block of its own; the head keeps its room. */
		if (own && a->head != NULL) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	b->used += n;
	ASAN_UNPOISON_MEMORY_REGION((char *)(b + 1) + b->used - n, want);
	return (char *)(b + 1) + b->used - n;
}

char *
arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
arena_release(struct arena *a)
{
	while (a->head != NULL) {
		struct arena_block *next = a->head->next;

		ASAN_UNPOISON_MEMORY_REGION(a->head + 1, a->head->size);
		free(a->head);
		a->head = next;
	}
}
