/* The CPUs this process runs on (cpu.h). */
#include "config.h"

#include <sched.h>
#include <unistd.h>

#include "lib/cpu.h"

size_t
cpu_usable(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (size_t)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (size_t)n : 1;
}
