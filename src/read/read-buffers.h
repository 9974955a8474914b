/*
 * A program's device memory from its buffer assignment (field 3 of
 * xla.HloProto): what it allocates in all, and the buffers live at the
 * peak of XLA's heap simulation, each tied to its HLO instruction.
 * Read off the wire beside read-hlo.c (which skips the field).
 *
 *	struct hlo_memory *mem;
 *	if (hlo_memory_read(data, len, module, &mem, &cause) == -1) ...;
 *	... mem is NULL when the proto has no buffer assignment ...
 *	hlo_memory_free(mem);
 */
#ifndef JAXPROF_READ_BUFFERS_H
#define JAXPROF_READ_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

struct hlo_module;
struct hlo_instr;

/*
 * A buffer live at the program's peak; strings owned by its hlo_memory.
 * Those under HLO_SMALL_BUFFER come as one, of count buffers, kind
 * "small": many, and no one of them what holds the memory.
 */
#define HLO_SMALL_BUFFER	((int64_t)1 << 20)

struct hlo_buffer {
	const struct hlo_instr *instr;	/* defining instruction, or NULL */
	char		*name;		/* "custom-call.17{0}" */
	char		*shape;		/* "f32[1024,512]", or "" */
	int64_t		 size_bytes;	/* of all count */
	int64_t		 count;
	const char	*kind;		/* "parameter", "output", "temporary"... */
};

struct hlo_memory {
	/* All allocations of device memory (memory space 0), as XLA makes. */
	int64_t		 peak_bytes;
	/* The heap simulation's peak plus what lives throughout. */
	int64_t		 heap_peak_bytes;
	int64_t		 parameter_bytes, output_bytes, constant_bytes;
	int64_t		 temp_bytes;
	size_t		 nallocations;
	struct hlo_buffer *buffers;	/* largest first */
	size_t		 nbuffers;
};

/*
 * Reads the buffer assignment of the serialized xla.HloProto data whose
 * module m is: 0 with *mem a new hlo_memory (NULL when there is none), or
 * -1 with *cause a new message when it is damaged (caller frees).
 */
int	hlo_memory_read(const void *data, size_t len,
	    const struct hlo_module *m, struct hlo_memory **mem,
	    char **cause);
void	hlo_memory_free(struct hlo_memory *mem);

#endif
