/* The file summary's kinds by name, and its host-event batches freed. */
#include "config.h"

#include <stdlib.h>

#include "model/file-summary.h"

const char *
plane_kind_name(enum plane_kind kind)
{
	switch (kind) {
	case PLANE_DEVICE:
		return "device";
	case PLANE_HOST:
		return "host";
	default:
		return "other";
	}
}

const char *
op_source_name(enum op_source src)
{
	switch (src) {
	case OPS_DEVICE:
		return "device";
	case OPS_HOST_XLA:
		return "host-xla";
	case OPS_HOST_TF:
		return "host-tf";
	default:
		return "none";
	}
}

const char *
transfer_dir_name(enum transfer_dir dir)
{
	switch (dir) {
	case XFER_H2D:
		return "H2D";
	case XFER_D2H:
		return "D2H";
	case XFER_D2D:
		return "D2D";
	case XFER_MEMSET:
		return "memset";
	default:
		return "other";
	}
}

const char *
step_source_name(enum step_source src)
{
	switch (src) {
	case STEP_DEVICE:
		return "device";
	case STEP_HOST:
		return "host";
	default:
		return "module";
	}
}

void
host_event_batch_free(struct host_event_batch *b)
{
	if (b == NULL)
		return;
	free(b->rows);
	free(b->text);
	free(b);
}

void
host_event_batches_free(struct host_event_batch *first)
{
	while (first != NULL) {
		struct host_event_batch *next = first->next;

		host_event_batch_free(first);
		first = next;
	}
}
