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
 * The direction of a copy-start from its HLO text: to or from the host's
 * memory where a shape is in memory space 5 (host offload): its operand,
 * "copy-start(f32[...]{...S(5)} %param)", is a copy to the device, its
 * result's first element (the destination) one from it.
 */
static enum transfer_dir
copy_start_dir(const char *name)
{
	const char *call = strstr(name, " copy-start("), *dst, *s5, *comma;

	if (call == NULL)
		return XFER_D2D;
	if (strstr(call, "S(5)") != NULL)
		return XFER_H2D;
	dst = strchr(name, '(');
	if (dst == NULL || dst > call)
		return XFER_D2D;
	s5 = strstr(dst, "S(5)");
	comma = strstr(dst, "}, ");
	return s5 != NULL && s5 < call && (comma == NULL || s5 < comma) ?
	    XFER_D2H : XFER_D2D;
}

/* Whether the event's hlo_category is cat. */
static int
category_is(struct classify *c, const char *cat)
{
	struct pf_bytes v;

	return event_str(c, PF_KEY_HLO_CATEGORY, &v) &&
	    v.len == strlen(cat) && memcmp(v.ptr, cat, v.len) == 0;
}

static void
add_copy_start(struct classify *c, const struct pf_event *ev, int64_t start,
    int64_t dur)
{
	int64_t bytes;

	if (!event_int(c, PF_KEY_BYTES_ACCESSED, &bytes))
		bytes = -1;
	add_transfer(c, ev, copy_start_dir(ev->meta->name), 0, bytes, start,
	    dur);
}

/* Drops the copies the "XLA Ops" line gave: the async line has them. */
static void
drop_op_copies(struct classify *c)
{
	struct plane_summary *p = c->plane;
	size_t i, k = 0, next = 0;

	for (i = 0; i < p->ntransfers; i++) {
		if (next < c->nop_copies && c->op_copies[next].transfer == i) {
			next++;
			continue;
		}
		p->transfers[k++] = p->transfers[i];
	}
	p->ntransfers = k;
	c->nop_copies = c->nop_dones = 0;
}

/* An "Async XLA Ops" event spans an asynchronous op from start to done. */
void
copies_on_async_copy(struct classify *c, const struct pf_event *ev,
    int64_t start, int64_t dur)
{
	if (!category_is(c, "copy-start"))
		return;
	if (!c->async_copies)
		drop_op_copies(c);
	c->async_copies = 1;
	add_copy_start(c, ev, start, dur);
}

/*
 * The instruction a copy-done waits for, from its HLO text's last
 * operand, "copy-done((...) %copy-start.2)": "copy-start.2".
 */
static int
done_of(const char *name, struct pf_bytes *start_name)
{
	const char *pct = strrchr(name, '%');
	size_t len;

	if (pct == NULL)
		return 0;
	len = strcspn(pct + 1, ") ,");
	start_name->ptr = pct + 1;
	start_name->len = len;
	return len > 0;
}

/* The instruction's name in its HLO text, "%copy-start.2 = ...". */
static int
instr_of(const char *name, struct pf_bytes *out)
{
	if (name[0] != '%')
		return 0;
	out->ptr = name + 1;
	out->len = strcspn(name + 1, " ");
	return out->len > 0;
}

void
copies_on_xla_op(struct classify *c, const struct pf_event *ev,
    int64_t start, int64_t dur)
{
	struct pf_bytes name;
	struct op_copy *oc;

	if (!c->tpu || c->async_copies)
		return;
	if (category_is(c, "copy-start")) {
		if (!instr_of(ev->meta->name, &name))
			return;
		c->op_copies = xgrow1(c->op_copies, c->nop_copies,
		    sizeof *c->op_copies);
		oc = &c->op_copies[c->nop_copies++];
		oc->transfer = c->plane->ntransfers;
		add_copy_start(c, ev, start, dur);
	} else if (category_is(c, "copy-done") &&
	    done_of(ev->meta->name, &name)) {
		c->op_dones = xgrow1(c->op_dones, c->nop_dones,
		    sizeof *c->op_dones);
		oc = &c->op_dones[c->nop_dones++];
		oc->end = ps_add(start, dur);
	} else
		return;
	oc->instr = intern(c, name.ptr, name.len);
	oc->at = start;
}

/* By instruction, then time. */
static int
cmp_op_copy(const void *a, const void *b)
{
	const struct op_copy *x = a, *y = b;

	if (x->instr != y->instr)
		return x->instr < y->instr ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

void
copies_plane_end(struct classify *c)
{
	struct plane_summary *p = c->plane;
	uint32_t name = UINT32_MAX;
	int64_t last_done = INT64_MIN;
	size_t i, k = 0;

	if (c->nop_copies == 0 || c->nop_dones == 0)
		return;
	qsort(c->op_copies, c->nop_copies, sizeof *c->op_copies,
	    cmp_op_copy);
	qsort(c->op_dones, c->nop_dones, sizeof *c->op_dones, cmp_op_copy);
	/*
	 * Runs of one instruction do not overlap: a done ends the latest
	 * start of its name since the done before it, if any (a start or
	 * done the line lacks ends none).
	 */
	for (i = 0; i < c->nop_dones; i++) {
		const struct op_copy *d = &c->op_dones[i];
		const struct op_copy *s;

		if (d->instr != name) {
			name = d->instr;
			last_done = INT64_MIN;
		}
		while (k < c->nop_copies &&
		    cmp_op_copy(&c->op_copies[k], d) <= 0)
			k++;
		s = k > 0 ? &c->op_copies[k - 1] : NULL;
		if (s != NULL && s->instr == d->instr && s->at > last_done) {
			struct transfer_rec *t = &p->transfers[s->transfer];
			if (d->end > t->start_ps)
				t->dur_ps = ps_sub(d->end, t->start_ps);
		}
		last_done = d->at;
	}
}

void
copies_plane_begin(struct classify *c, const char *plane_name)
{
	c->nop_copies = c->nop_dones = 0;
	c->async_copies = 0;
	c->tpu = strncmp(plane_name, "/device:TPU:", 12) == 0;
}
