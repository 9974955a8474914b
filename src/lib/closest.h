/*
 * "Did you mean": the known name closest to a mistyped one.
 *
 *	const char *s = closest_name("topp", 4, names, n);	-> "top"
 */
#ifndef JAXPROF_CLOSEST_H
#define JAXPROF_CLOSEST_H

#include <stddef.h>

/*
 * The name of names[0..n) fewest edits (insert, delete, change, swap of
 * two neighbours) away from word[0..len), or NULL when even the closest
 * is so far that it would be a guess: more than 2 edits, or more than
 * half the word's letters.  Ties go to the first.
 */
const char	*closest_name(const char *word, size_t len,
		    const char *const *names, size_t n);

#endif
