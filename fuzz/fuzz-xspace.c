/*
 * Fuzz target: an XSpace (`*.xplane.pb`, plain or gzip) through the whole
 * load of a report: the wire reader, the step pre-pass, the programs' HLO
 * with their buffer assignments and the cost of every launch, and the
 * classification of every plane with its memory (src/load/load.c), in one
 * thread.  The bytes
 * are read where they lie, as an archive entry's are (load_memory): an
 * exact-size buffer, so any read past its end is caught; gzip input goes
 * through a file as usual.  Then the wire reader twice more for the stats
 * with a key: read for a handler that takes no others
 * (pf_handler.keyed_stats_only), and not: a different stream, return or
 * message aborts.  An input that is a recipe (shape.h) is first built
 * into the XSpace it asks for.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "load/discover.h"
#include "fuzz.h"
#include "load/formats.h"
#include "read/read-hlo.h"
#include "read/read-xplane.h"
#include "shape.h"

/* What one read gave, as a few numbers (of keyed stats only). */
struct digest {
	uint64_t	 events, sum;
};

static int
digest_event(void *ctx, const struct pf_plane *p, const struct pf_line *l,
    const struct pf_event *ev)
{
	struct digest *d = ctx;
	size_t i;

	(void)p;
	d->events++;
	d->sum = d->sum * 1000003 + (uint64_t)l->id;
	d->sum = d->sum * 1000003 + (uint64_t)ev->metadata_id;
	d->sum = d->sum * 1000003 + (uint64_t)ev->start_ps;
	d->sum = d->sum * 1000003 + (uint64_t)ev->duration_ps;
	for (i = 0; i < ev->nstats; i++) {
		const struct pf_stat *st = &ev->stats[i];

		if (st->key == PF_KEY_OTHER)
			continue;
		d->sum = d->sum * 1000003 + (uint64_t)st->metadata_id +
		    (uint64_t)st->kind + st->num.u + st->str.len;
	}
	return 0;
}

static int
read_digest(const uint8_t *data, size_t size, int keyed_only,
    struct digest *d, struct pf_read_stats *rs, char **cause)
{
	struct pf_handler h;
	struct source src;

	memset(d, 0, sizeof *d);
	memset(&h, 0, sizeof h);
	h.ctx = d;
	h.keyed_stats_only = keyed_only;
	h.memory_stats = 1;	/* the digest keeps every stat with a key */
	h.event = digest_event;
	memset(&src, 0, sizeof src);
	src.data = data;
	src.size = size;
	*cause = NULL;
	return xplane_read(&src, "fuzz", &h, rs, cause);
}

/*
 * Aborts unless a read of all stats and one of keyed stats only give the
 * same stream, return and message (the digests of keyed stats only).
 */
static void
same_reads(const uint8_t *data, size_t size)
{
	struct digest d1, d2;
	struct pf_read_stats rs1, rs2;
	char *c1, *c2;
	int r1, r2;

	r1 = read_digest(data, size, 0, &d1, &rs1, &c1);
	r2 = read_digest(data, size, 1, &d2, &rs2, &c2);
	if (r1 != r2 || d1.events != d2.events || d1.sum != d2.sum ||
	    memcmp(&rs1, &rs2, sizeof rs1) != 0 ||
	    (c1 == NULL) != (c2 == NULL) ||
	    (c1 != NULL && strcmp(c1, c2) != 0))
		abort();
	free(c1);
	free(c2);
}

/* Every program costed, whether or not an event names it. */
static void
cost_all(void *ctx, const struct hlo_set *hlo)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < hlo_set_count(hlo); i++)
		hlo_module_cost_launches(hlo_set_module(hlo, i));
}

static void
hlo_gone(void *ctx)
{
	(void)ctx;
}

static void
run(const uint8_t *data, size_t size)
{
	struct load_hooks hooks = { cost_all, hlo_gone, NULL, NULL, 1 };
	struct file_summary fs;
	char *cause = NULL;

	if (load_memory("fuzz.xplane.pb", data, size, KIND_XPLANE, 1, &hooks,
	    &fs, &cause) == 0)
		file_summary_release(&fs);
	free(cause);
	same_reads(data, size);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shape_out built;

	if (!shape_is_recipe(data, size)) {
		run(data, size);
		return 0;
	}
	shape_xspace(data, size, &built);
	run(built.data, built.len);
	shape_out_free(&built);
	return 0;
}
