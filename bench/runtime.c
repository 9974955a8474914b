/*
 * runtime: runs a command and prints what it cost, for the benchmarks.
 *
 *	runtime -o FILE CMD [ARG...]
 *
 * appends "wall_s cpu_s maxrss_kb" to FILE once CMD has exited: the
 * wall time from fork to exit (a monotonic clock, in microseconds), its
 * user + system time and its peak resident set (getrusage of the child).
 * CMD's own output goes where runtime's goes.  Unlike GNU time, whose
 * %e and %U have 10 ms steps, it times a 2 ms run as well as a long one,
 * and it adds no exec of its own to the time.  Exits 2 when CMD cannot be
 * run or fails, else 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int
main(int argc, char **argv)
{
	struct rusage ru;
	double t0, t1;
	FILE *out;
	pid_t pid;
	int status;

	if (argc < 4 || strcmp(argv[1], "-o") != 0) {
		fprintf(stderr, "usage: runtime -o FILE CMD [ARG...]\n");
		return 2;
	}
	if ((out = fopen(argv[2], "a")) == NULL) {
		fprintf(stderr, "runtime: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	argv += 2;
	t0 = now();
	if ((pid = fork()) == -1) {
		fprintf(stderr, "runtime: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "runtime: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) == -1)
		if (errno != EINTR) {
			fprintf(stderr, "runtime: wait: %s\n", strerror(errno));
			return 2;
		}
	t1 = now();
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "runtime: %s failed\n", argv[1]);
		return 2;
	}
	fprintf(out, "%.6f %.6f %ld\n", t1 - t0,
	    seconds(ru.ru_utime) + seconds(ru.ru_stime), ru.ru_maxrss);
	return fclose(out) == 0 ? 0 : 2;
}
