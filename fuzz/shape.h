/*
 * The structure-aware mode of fuzz-xspace and fuzz-json (fuzz/README.md):
 * an input that begins with SHAPE_MAGIC is not a profile but a recipe,
 * which these build into a well-formed XSpace or trace JSON.  Random bytes
 * rarely get past the wire format or the JSON grammar; a recipe always
 * does, and its counts come from a table of extremes (0, 1, 127, 128,
 * 65,536, 100,000 ...), so that a few bytes ask for a file of many planes,
 * lines, processes or events, or of empty records, up to SHAPE_MAX_OUT.
 * An XSpace recipe may also ask for programs with their HLO, for the HLO
 * reader, its buffer assignments and its cost rules.
 */
#ifndef JAXPROF_FUZZ_SHAPE_H
#define JAXPROF_FUZZ_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#define SHAPE_MAGIC	"\xfeS"
#define SHAPE_MAGIC_LEN	2
/* What a recipe may build: past it, records are left out. */
#define SHAPE_MAX_OUT	(4u << 20)

struct shape_out {
	uint8_t		*data;
	size_t		 len, cap;
};

/* Whether data is a recipe (begins with SHAPE_MAGIC). */
int	shape_is_recipe(const uint8_t *data, size_t size);
/* The XSpace, or the trace JSON, that the recipe after the magic asks for. */
void	shape_xspace(const uint8_t *data, size_t size, struct shape_out *out);
void	shape_json(const uint8_t *data, size_t size, struct shape_out *out);
void	shape_out_free(struct shape_out *out);

#endif
