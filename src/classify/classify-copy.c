/* Copies and memsets on a device's lines: transfers, and their busy time. */
#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "classify/classify-event.h"
#include "classify/classify-copy.h"
#include "classify/classify-kernel.h"
#include "lib/ptime.h"
#include "lib/xmalloc.h"

/* The number after "num_bytes:" in a memset's Memset_details, or -1. */
static int64_t
memset_bytes(const struct pf_event *ev)
{
	const struct pf_stat *sets[2] = { ev->stats, ev->meta->stats };
	size_t ns[2] = { ev->nstats, ev->meta->nstats }, i, k;
	struct pf_bytes v;

	for (k = 0; k < 2; k++)
		for (i = 0; i < ns[k]; i++) {
			const char *p, *end;
			int64_t n = 0;

			if (sets[k][i].key != PF_KEY_MEMSET_DETAILS ||
			    !pf_stat_str(&sets[k][i], &v))
				continue;
			end = v.ptr + v.len;
			for (p = v.ptr; p + 10 <= end; p++)
				if (memcmp(p, "num_bytes:", 10) == 0) {
					for (p += 10; p < end &&
					    isdigit((unsigned char)*p); p++)
						n = n * 10 + (*p - '0');
					return n;
				}
		}
	return -1;
}

enum copy_name { COPY_NAME_UNKNOWN, COPY_NAME_OTHER, COPY_NAME_MEMSET,
    COPY_NAME_MEMCPY };

/* Whether an event's name is a Memset* or Memcpy*, once per metadata. */
static enum copy_name
copy_name(const struct classify *c, const struct pf_event *ev)
{
	uint8_t *slot = &c->meta_copy[ev->meta_index];

	if (*slot == COPY_NAME_UNKNOWN) {
		const char *name = pf_event_name(ev);

		*slot = strncmp(name, "Memset", 6) == 0 ? COPY_NAME_MEMSET :
		    strncmp(name, "Memcpy", 6) == 0 ? COPY_NAME_MEMCPY :
		    COPY_NAME_OTHER;
	}
	return (enum copy_name)*slot;
}

/* A memset that no op launched (no hlo_op). */
int
copies_is_lone_memset(const struct classify *c, const struct pf_event *ev)
{
	return copy_name(c, ev) == COPY_NAME_MEMSET &&
	    event_stat(c, PF_KEY_HLO_OP) == NULL;
}

/* A device copy: a Memcpy* event, or anything with memcpy_details. */
int
copies_is_device_copy(const struct classify *c, const struct pf_event *ev,
    struct pf_bytes *details, int *has_details)
{
	*has_details = event_str(c, PF_KEY_MEMCPY_DETAILS, details);
	return copy_name(c, ev) == COPY_NAME_MEMCPY || *has_details;
}

/* The transfer busy time of a device's line: ops' copies come apart. */
static void
add_copy_busy(struct classify *c, int64_t start, int64_t dur)
{
	/* Streamed: the plane's copies are all counted already. */
	if (c->meter == NULL)
		ivals_add(&c->busy_ops[BUSY_TRANSFER], start, start + dur);
	kernels_add_busy(c, BUSY_TRANSFER, start, start + dur);
}

/*
 * A memset that no op launched: a transfer of direction "memset", so
 * that it lands in a report.
 */
int
copies_on_memset(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	if (!copies_is_lone_memset(c, ev))
		return 0;
	add_transfer(c, ev, XFER_MEMSET, 0, memset_bytes(ev), start, dur);
	add_copy_busy(c, start, dur);
	return 1;
}

/* Device copies: Memcpy* events and anything with memcpy_details. */
void
copies_on_device_copy(struct classify *c, const struct pf_event *ev,
    int64_t start, int64_t dur)
{
	const char *name = pf_event_name(ev);
	struct pf_bytes details;
	enum transfer_dir dir = XFER_OTHER;
	int64_t bytes = -1;
	int has_details;

	if (!copies_is_device_copy(c, ev, &details, &has_details))
		return;
	/* CUPTI's names, and ROCm's (CopyDeviceToDevice on an MI300X). */
	if (strcmp(name, "MemcpyH2D") == 0 ||
	    strcmp(name, "CopyHostToDevice") == 0)
		dir = XFER_H2D;
	else if (strcmp(name, "MemcpyD2H") == 0 ||
	    strcmp(name, "CopyDeviceToHost") == 0)
		dir = XFER_D2H;
	else if (strcmp(name, "MemcpyD2D") == 0 ||
	    strcmp(name, "MemcpyP2P") == 0 ||
	    strcmp(name, "CopyDeviceToDevice") == 0 ||
	    strcmp(name, "CopyPeerToPeer") == 0)
		dir = XFER_D2D;
	if (has_details) {
		/* "kind_src:... kind_dst:... size:<bytes> dest:... async:..." */
		const char *p = details.ptr, *end = details.ptr + details.len;

		for (; p + 5 <= end; p++)
			if (memcmp(p, "size:", 5) == 0 &&
			    (p == details.ptr || p[-1] == ' ')) {
				bytes = 0;
				for (p += 5; p < end && isdigit((unsigned char)*p);
				    p++)
					bytes = bytes * 10 + (*p - '0');
				break;
			}
	}
	add_transfer(c, ev, dir, 0, bytes, start, dur);
	add_copy_busy(c, start, dur);
}

/*
 * An "Async XLA Ops" event spans an asynchronous op from its start to its
 * done (TPU): a copy-start is a copy between memories, to or from the
 * host's where a shape is in memory space 5 (host offload): its operand,
 * "copy-start(f32[...]{...S(5)} %param)", is a copy to the device, its
 * result's first element (the destination) one from it.
 */
void
copies_on_async_copy(struct classify *c, const struct pf_event *ev,
    int64_t start, int64_t dur)
{
	const char *name = ev->meta->name, *call;	/* the HLO text */
	struct pf_bytes cat;
	enum transfer_dir dir = XFER_D2D;
	int64_t bytes;

	if (!event_str(c, PF_KEY_HLO_CATEGORY, &cat) || cat.len != 10 ||
	    memcmp(cat.ptr, "copy-start", 10) != 0)
		return;
	if (!event_int(c, PF_KEY_BYTES_ACCESSED, &bytes))
		bytes = -1;
	if ((call = strstr(name, " copy-start(")) != NULL) {
		const char *dst = strchr(name, '(');

		if (strstr(call, "S(5)") != NULL)
			dir = XFER_H2D;
		else if (dst != NULL && dst < call) {
			const char *s5 = strstr(dst, "S(5)");
			const char *comma = strstr(dst, "}, ");

			if (s5 != NULL && s5 < call &&
			    (comma == NULL || s5 < comma))
				dir = XFER_D2H;
		}
	}
	add_transfer(c, ev, dir, 0, bytes, start, dur);
}
