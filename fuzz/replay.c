/*
 * Runs a fuzz target once per input without libFuzzer: each argument is a
 * file, or a folder whose files are all run (sorted, dot files skipped).
 * make check runs every target over its seed corpus and its crashers, so an
 * input that once crashed stays a test; a crash is the test failing, and
 * so is one input running past REPLAY_TIMEOUT seconds (default 60: an
 * input that once hung fails alone, not only when all of them pass 600).
 */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fdio.h"
#include "fuzz.h"
#include "lib/err.h"
#include "lib/xmalloc.h"

/* The input running, named when it runs too long. */
static const char *running;

static void
on_alarm(int sig)
{
	static const char msg[] = "replay: this input ran too long: ";

	(void)sig;
	(void)write(STDERR_FILENO, msg, sizeof msg - 1);
	(void)write(STDERR_FILENO, running, strlen(running));
	(void)write(STDERR_FILENO, "\n", 1);
	_exit(3);
}

static int
run_file(const char *path, unsigned limit)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (fp == NULL) {
		perror(path);
		return -1;
	}
	do {
		if (cap - n < 65536) {
			cap = cap * 2 + 65536;
			buf = xreallocarray(buf, cap, 1);
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	if (ferror(fp)) {
		perror(path);
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	printf("%s (%zu bytes)\n", path, n);
	fflush(stdout);
	running = path;
	alarm(limit);
	LLVMFuzzerTestOneInput(buf, n);
	alarm(0);
	free(buf);
	return 0;
}

static int
by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int
main(int argc, char **argv)
{
	int i, j, n, rc = 0, ran = 0;
	const char *env = getenv("REPLAY_TIMEOUT");
	unsigned limit = env != NULL && atoi(env) > 0 ? (unsigned)atoi(env) : 60;

	signal(SIGALRM, on_alarm);

	for (i = 1; i < argc; i++) {
		struct dirent **ents;
		struct stat st;

		if (stat(argv[i], &st) == -1) {
			perror(argv[i]);
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc |= run_file(argv[i], limit);
			ran++;
			continue;
		}
		if ((n = scandir(argv[i], &ents, NULL, by_name)) == -1) {
			perror(argv[i]);
			return 2;
		}
		for (j = 0; j < n; j++) {
			char *p;

			if (ents[j]->d_name[0] != '.') {
				p = xasprintf("%s/%s", argv[i],
				    ents[j]->d_name);
				rc |= run_file(p, limit);
				ran++;
				free(p);
			}
			free(ents[j]);
		}
		free(ents);
	}
	printf("%d inputs ran\n", ran);
	return rc == 0 ? 0 : 2;
}
