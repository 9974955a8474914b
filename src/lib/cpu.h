/* The CPUs this process runs on: how many. */
#ifndef JAXPROF_CPU_H
#define JAXPROF_CPU_H

#include <stddef.h>

/*
 * The CPUs this process may run on, at least 1: `taskset -c 0 jaxprof
 * ...` reads with one thread (the online count ignores the affinity mask).
 */
size_t	cpu_usable(void);

#endif
