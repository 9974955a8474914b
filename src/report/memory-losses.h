/*
 * The device memory of the selection that could not be read: allocators
 * refused for a damaged memory event, programs whose buffer assignment is
 * unreadable.  Reports that show memory say so, on standard error and in
 * the report, never answer as if the profile had none.
 */
#ifndef JAXPROF_MEMORY_LOSSES_H
#define JAXPROF_MEMORY_LOSSES_H

#include <stddef.h>

#include "report/report.h"

enum memory_loss_kind { LOSS_ALLOCATOR, LOSS_PROGRAM };

struct memory_loss {
	enum memory_loss_kind kind;
	char		*file;		/* its path */
	char		*name;		/* the allocator or program */
	char		*why;		/* what is damaged */
	char		*text;		/* what is wrong, for messages */
	char		*subject;	/* "allocator 'x'", "program 'y'" */
};

struct memory_losses {
	struct memory_loss *v;
	size_t		 n;
};

/* What memory_losses_load() looks for. */
enum {
	LOSSES_ALLOCATORS = 1,
	LOSSES_PROGRAMS = 2,
	/* --device names allocators (jaxprof memory), not planes */
	LOSSES_DEVICE_ALLOCATORS = 4,
};

/*
 * The losses of the selection (filtered by host and run, as the memory
 * reports are) that what asks for: allocators first, then programs, by
 * file and name.
 */
void	memory_losses_load(struct memory_losses *ml, struct report *r,
	    unsigned what);
/* Each loss on standard error: "...; allocator 'x' left out of where". */
void	memory_losses_warn(const struct memory_losses *ml, const char *where);
void	memory_losses_release(struct memory_losses *ml);

#endif
