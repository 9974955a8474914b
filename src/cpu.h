/* The CPUs this process runs on: how many, and what they do fast. */
#ifndef JAXPROF_CPU_H
#define JAXPROF_CPU_H

#include <stddef.h>

/*
 * The CPUs this process may run on, at least 1: `taskset -c 0 jaxprof
 * ...` reads with one thread (the online count ignores the affinity mask).
 */
size_t	cpu_usable(void);

/*
 * 1 when PEXT (BMI2) is there and fast: Intel's, and AMD's from Zen 3
 * (family 19h) on; Zen 1 and 2 run it in microcode, tens of cycles.
 * Asked of the CPU once per process.
 */
int	cpu_fast_pext(void);

#endif
