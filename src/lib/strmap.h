/*
 * String interning: each distinct string gets a dense id 0, 1, 2, ... in
 * the order first seen.  The map owns copies of the strings.
 *
 *	struct strmap m;
 *	strmap_init(&m);
 *	uint32_t id = strmap_intern(&m, "fusion.1", 8);
 *	const char *s = m.strings[id];
 *	strmap_release(&m);
 */
#ifndef JAXPROF_STRMAP_H
#define JAXPROF_STRMAP_H

#include <stddef.h>
#include <stdint.h>

#include "lib/arena.h"

struct strmap {
	char		**strings;	/* id -> NUL-terminated copy */
	size_t		 *lengths;
	size_t		  n;
	uint32_t	 *slots;	/* hash table of id + 1; 0 is empty */
	size_t		  cap;		/* power of two */
	struct arena	  copies;	/* the strings, freed together */
};

void		strmap_init(struct strmap *m);
void		strmap_release(struct strmap *m);
/* The id of s[0..len), added if new. */
uint32_t	strmap_intern(struct strmap *m, const char *s, size_t len);
/* The id of s[0..len), or -1 when absent. */
int64_t		strmap_find(const struct strmap *m, const char *s, size_t len);
uint64_t	strmap_hash(const char *s, size_t len);

#endif
