/*
 * A new index's file as SQLite leaves it once index_schema_create() has
 * run in it: made at build time by gen-index-image (src/index-image.c is
 * generated), written by index_open() where it begins a new index.  The
 * file is mostly zeros: only the runs of other bytes are kept.
 */
#ifndef JAXPROF_INDEX_IMAGE_H
#define JAXPROF_INDEX_IMAGE_H

#include <stddef.h>

struct index_image_run {
	size_t			 offset;
	size_t			 len;
	const unsigned char	*bytes;
};

extern const struct index_image_run index_image_runs[];
extern const size_t index_image_nruns;
extern const size_t index_image_size;	/* the file's, zeros included */

#endif
