/* The CPUs this process runs on (cpu.h). */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include "cpu.h"

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

static pthread_once_t asked = PTHREAD_ONCE_INIT;
static int fast_pext;

static void
ask_cpu(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	unsigned int a, b, c, d, family;
	char vendor[13];

	if (__get_cpuid_max(0, NULL) < 7)
		return;
	__cpuid_count(7, 0, a, b, c, d);
	if ((b & bit_BMI2) == 0)
		return;
	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	__cpuid(1, a, b, c, d);
	family = (a >> 8) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	fast_pext = strcmp(vendor, "GenuineIntel") == 0 ||
	    (strcmp(vendor, "AuthenticAMD") == 0 && family >= 0x19);
#endif
}

int
cpu_fast_pext(void)
{
	pthread_once(&asked, ask_cpu);
	return fast_pext;
}
