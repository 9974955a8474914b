/* Whole writes to a file descriptor. */
#ifndef JAXPROF_FDIO_H
#define JAXPROF_FDIO_H

#include <stddef.h>

/* Writes all n bytes of buf, retrying short writes; -1 with errno set. */
int	write_full(int fd, const void *buf, size_t n);

#endif
