/* Whole writes to a file descriptor, short writes and EINTR retried. */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "lib/fdio.h"

int
write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
