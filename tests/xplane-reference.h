/* The tests' protobuf-c reference reader of XSpace (xplane-reference.c). */
#ifndef JAXPROF_XPLANE_REFERENCE_H
#define JAXPROF_XPLANE_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

/*
 * The same stream from a plain protobuf-c unpack of the whole message: the
 * slow, obviously correct reference that tests compare xplane_read with.
 * Returns 0, a callback's value, or -1 with *cause set if unpack fails.
 */
int	xplane_read_unpacked(const uint8_t *data, size_t size, const char *path,
	    const struct pf_handler *h, struct pf_read_stats *stats,
	    char **cause);

#endif
