/* The fuzz targets' scratch files: readers take paths, not buffers. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fdio.h"
#include "fuzz.h"

static char	dir[4096];

static void
remove_dir(void)
{
	rmdir(dir);
}

const char *
fuzz_spool(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[4096 + 64];
	int fd;

	if (dir[0] == '\0') {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof dir, "%s/jaxprof-fuzz.XXXXXX",
		    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
		if (mkdtemp(dir) == NULL) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(remove_dir);
	}
	snprintf(path, sizeof path, "%s/in%s", dir, suffix);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd == -1 || write_full(fd, data, size) == -1 || close(fd) == -1) {
		perror(path);
		abort();
	}
	return path;
}
