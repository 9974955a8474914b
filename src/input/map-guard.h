/*
 * Mapped files that shrink while read.  A file truncated under jaxprof
 * (cp or rsync --inplace over a profile being indexed) makes any read of
 * its mapping past the new end raise SIGBUS, in whichever thread parses
 * it.  The handler finds the mapping the fault is in, says which file it
 * was, and exits 2: no reader is unwound (the parsers run in threads,
 * holding locks, arenas and half-written rows), so the process ends as
 * a killed run would, the index keeping every file it committed.
 */
#ifndef JAXPROF_MAP_GUARD_H
#define JAXPROF_MAP_GUARD_H

#include <stddef.h>

/*
 * Guards [p, p + n), the mapping of path; returns a token for
 * map_guard_remove(), or -1 when all slots are taken (then unguarded).
 */
int	map_guard_add(const void *p, size_t n, const char *path);
void	map_guard_remove(int token);

#endif
