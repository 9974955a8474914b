/*
 * The XSpace stream from a plain protobuf-c unpack of the whole message:
 * the slow, obviously correct reference the tests compare the wire walker
 * (read-xplane.c) with.  Test code, outside the library.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "proto/xplane.pb-c.h"

#include "lib/xmalloc.h"
#include "read/xplane-tables.h"
#include "xplane-reference.h"

static void
convert_stat(const Tensorflow__Profiler__XStat *in, struct pf_stat *out)
{
	memset(out, 0, sizeof *out);
	out->metadata_id = in->metadata_id;
	switch (in->value_case) {
	case TENSORFLOW__PROFILER__XSTAT__VALUE_DOUBLE_VALUE:
		out->kind = PF_DOUBLE;
		out->num.d = in->double_value;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE:
		out->kind = PF_UINT64;
		out->num.u = in->uint64_value;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE:
		out->kind = PF_INT64;
		out->num.i = in->int64_value;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE:
		out->kind = PF_STR;
		out->str.ptr = in->str_value;
		out->str.len = strlen(in->str_value);
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE:
		out->kind = PF_BYTES;
		out->str.ptr = (const char *)in->bytes_value.data;
		out->str.len = in->bytes_value.len;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE:
		out->kind = PF_REF;
		out->num.u = in->ref_value;
		break;
	default:
		out->kind = PF_NONE;
	}
}

static void
build_tables(const Tensorflow__Profiler__XPlane *p, struct plane_tables *t,
    struct pf_read_stats *rs)
{
	struct pf_read_stats ignored;
	struct meta_ref *refs;
	size_t i, j;

	for (i = 0; i < p->n_stat_metadata; i++) {
		const char *name = p->stat_metadata[i]->value != NULL ?
		    p->stat_metadata[i]->value->name : "";

		tables_add_stat_name(t, p->stat_metadata[i]->key, name,
		    strlen(name));
	}
	refs = xcalloc(p->n_event_metadata, sizeof *refs);
	for (i = 0; i < p->n_event_metadata; i++) {
		const Tensorflow__Profiler__XEventMetadata *v =
		    p->event_metadata[i]->value;
		struct pf_event_meta *m;
		struct meta_ref *r;

		m = tables_meta_slot(t, p->event_metadata[i]->key);
		r = &refs[m->index];
		r->stat_first = t->nstat_pool;
		r->child_first = t->nchild_pool;
		r->nstats = r->nchild = 0;
		m->name = v != NULL ? arena_strndup(&t->names, v->name,
		    strlen(v->name)) : "";
		m->display_name = v != NULL ? arena_strndup(&t->names,
		    v->display_name, strlen(v->display_name)) : "";
		if (v == NULL)
			continue;
		m->metadata.ptr = (const char *)v->metadata.data;
		m->metadata.len = v->metadata.len;
		for (j = 0; j < v->n_stats; j++) {
			size_t k = pool_stat(t);

			convert_stat(v->stats[j], &t->stat_pool[k]);
			r->nstats++;
		}
		for (j = 0; j < v->n_child_id; j++) {
			t->child_pool = xgrow1(t->child_pool, t->nchild_pool,
			    sizeof *t->child_pool);
			t->child_pool[t->nchild_pool++] = v->child_id[j];
			r->nchild++;
		}
	}
	for (i = 0; i < p->n_stats; i++) {
		size_t k = pool_stat(t);

		convert_stat(p->stats[i], &t->stat_pool[k]);
	}
	memset(&ignored, 0, sizeof ignored);
	for (i = 0; i < t->nstat_pool; i++)
		tables_resolve_stat(t, &t->stat_pool[i],
		    i >= t->nstat_pool - p->n_stats && stats_are_ids(p->name) ?
		    &ignored : rs);
	for (i = 0; i < t->nmetas; i++) {
		t->metas[i].stats = t->stat_pool + refs[i].stat_first;
		t->metas[i].nstats = refs[i].nstats;
		t->metas[i].child_ids = t->child_pool + refs[i].child_first;
		t->metas[i].nchild_ids = refs[i].nchild;
	}
	tables_finish_metas(t);
	free(refs);
}

static int
emit_unpacked_plane(const Tensorflow__Profiler__XPlane *p,
    const struct pf_handler *h, struct pf_read_stats *rs)
{
	struct plane_tables t;
	struct pf_plane plane;
	struct pf_stat *stats = NULL;
	size_t i, j, k, cap = 0;
	int rc;

	memset(&t, 0, sizeof t);
	build_tables(p, &t, rs);
	memset(&plane, 0, sizeof plane);
	plane.id = p->id;
	plane.name = p->name;
	plane.stats = t.stat_pool + (t.nstat_pool - p->n_stats);
	plane.nstats = p->n_stats;
	plane.nlines = p->n_lines;
	plane.metas = t.metas;
	plane.nmetas = t.nmetas;
	rc = h->plane_begin != NULL ? h->plane_begin(h->ctx, &plane) : 0;
	for (i = 0; rc == 0 && i < p->n_lines; i++) {
		const Tensorflow__Profiler__XLine *l = p->lines[i];
		struct pf_line line;

		memset(&line, 0, sizeof line);
		line.id = l->id;
		line.display_id = l->display_id;
		line.name = l->name;
		line.display_name = l->display_name;
		line.timestamp_ns = l->timestamp_ns;
		line.duration_ps = l->duration_ps;
		line.nevents = l->n_events;
		rc = h->line_begin != NULL ?
		    h->line_begin(h->ctx, &plane, &line) : 0;
		if (rc == PF_SKIP) {
			rc = 0;
			continue;
		}
		for (j = 0; rc == 0 && j < l->n_events; j++) {
			const Tensorflow__Profiler__XEvent *e = l->events[j];
			struct pf_event ev;

			if (e->n_stats > cap) {
				cap = e->n_stats;
				stats = xreallocarray(stats, cap,
				    sizeof *stats);
			}
			memset(&ev, 0, sizeof ev);
			for (k = 0; k < e->n_stats; k++) {
				convert_stat(e->stats[k], &stats[k]);
				tables_resolve_stat(&t, &stats[k], rs);
			}
			ev.stats = stats;
			ev.nstats = e->n_stats;
			ev.metadata_id = e->metadata_id;
			ev.aggregated = e->data_case ==
			    TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES;
			if (ev.aggregated)
				ev.num_occurrences = e->num_occurrences;
			else if (e->data_case ==
			    TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS)
				ev.offset_ps = e->offset_ps;
			ev.duration_ps = e->duration_ps;
			tables_event_meta(&t, &ev, rs);
			ev.start_ps = (int64_t)((uint64_t)l->timestamp_ns *
			    1000u + (uint64_t)ev.offset_ps);
			if (h->event != NULL)
				rc = h->event(h->ctx, &plane, &line, &ev);
		}
		if (rc == 0 && h->line_end != NULL)
			rc = h->line_end(h->ctx, &plane, &line);
	}
	if (rc == 0 && h->plane_end != NULL)
		rc = h->plane_end(h->ctx, &plane);
	free(stats);
	tables_release(&t);
	return rc == PF_SKIP ? 0 : rc;
}

int
xplane_read_unpacked(const uint8_t *data, size_t size, const char *path,
    const struct pf_handler *h, struct pf_read_stats *rs, char **cause)
{
	Tensorflow__Profiler__XSpace *xs;
	struct pf_space space;
	size_t i;
	int rc = 0;

	memset(rs, 0, sizeof *rs);
	rs->bytes = size;
	xs = tensorflow__profiler__xspace__unpack(NULL, size, data);
	if (xs == NULL) {
		*cause = xstrdup("protobuf-c cannot unpack it as an XSpace");
		return -1;
	}
	memset(&space, 0, sizeof space);
	space.path = path;
	space.hostnames = xs->hostnames;
	space.nhostnames = xs->n_hostnames;
	space.errors = xs->errors;
	space.nerrors = xs->n_errors;
	space.warnings = xs->warnings;
	space.nwarnings = xs->n_warnings;
	space.nplanes = xs->n_planes;
	if (h->space != NULL)
		rc = h->space(h->ctx, &space);
	for (i = 0; rc == 0 && i < xs->n_planes; i++)
		rc = emit_unpacked_plane(xs->planes[i], h, rs);
	tensorflow__profiler__xspace__free_unpacked(xs, NULL);
	return rc;
}
