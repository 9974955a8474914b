/*
 * The memory tables of one file (index-memory.h): each allocator's peak, the
 * allocations live there and its timeline thinned, worked out as the file
 * is stored (a row per event cost more than the rest of a small GPU
 * profile's index); its programs' peaks and the buffers live there.
 */
#include "config.h"

#include <stdlib.h>

#include "classify/classify.h"
#include "index/index-db.h"
#include "index/index-memory.h"
#include "index/index-rows.h"
#include "index/memory-thin.h"
#include "read/read-buffers.h"
#include "read/read-hlo.h"
#include "lib/xmalloc.h"

static void
bind_bytes(sqlite3_stmt *st, int i, int64_t v)
{
	if (v >= 0)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void
bind_nonempty(sqlite3_stmt *st, int i, const char *s)
{
	index_bind_text(st, i, s != NULL && s[0] != '\0' ? s : NULL);
}

/* Records of one plane (recs), by allocator, time and arrival. */
static int
cmp_rec(const void *a, const void *b, void *recs)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct memory_rec *rx = (const struct memory_rec *)recs + x;
	const struct memory_rec *ry = (const struct memory_rec *)recs + y;

	if (rx->allocator != ry->allocator)
		return rx->allocator < ry->allocator ? -1 : 1;
	if (rx->time_ps != ry->time_ps)
		return rx->time_ps < ry->time_ps ? -1 : 1;
	return (x > y) - (x < y);
}

/* An allocation or free up to the peak, by address, then in turn. */
struct at_addr {
	uint64_t	 addr;
	size_t		 turn;
	const struct memory_rec *r;
};

static int
cmp_addr(const void *a, const void *b)
{
	const struct at_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->turn > y->turn) - (x->turn < y->turn);
}

static int
cmp_live(const void *a, const void *b)
{
	const struct memory_rec *x = *(const struct memory_rec *const *)a;
	const struct memory_rec *y = *(const struct memory_rec *const *)b;

	if (x->allocation_bytes != y->allocation_bytes)
		return x->allocation_bytes > y->allocation_bytes ? -1 : 1;
	if (x->requested_bytes != y->requested_bytes)
		return x->requested_bytes > y->requested_bytes ? -1 : 1;
	return (x->time_ps > y->time_ps) - (x->time_ps < y->time_ps);
}

static int64_t
in_use(const struct memory_rec *r)
{
	return (r->heap_bytes > 0 ? r->heap_bytes : 0) +
	    (r->stack_bytes > 0 ? r->stack_bytes : 0);
}

struct memory_writers {
	sqlite3_stmt	*allocator;
	struct index_rows *sample, *allocation;
};

static int
write_allocator(struct index *ix, struct memory_writers *w,
    sqlite3_int64 file_id, sqlite3_int64 plane, char *const *s,
    const struct memory_rec *const *g, size_t n, char **cause)
{
	const struct memory_rec *peak = g[0];
	const struct memory_rec **live;
	struct at_addr *seen;
	int64_t lifetime = -1, *used;
	sqlite3_int64 id;
	size_t i, ip = 0, nseen = 0, nlive = 0, *pick, npick;
	sqlite3_stmt *st = w->allocator;
	int rc = 0;

	/* At or above the peak: the last time it was there, as xprof. */
	for (i = 0; i < n; i++) {
		if (in_use(g[i]) >= in_use(peak)) {
			peak = g[i];
			ip = i;
		}
		if (g[i]->lifetime_peak_bytes > lifetime)
			lifetime = g[i]->lifetime_peak_bytes;
	}
	sqlite3_bind_int64(st, 1, file_id);
	sqlite3_bind_int64(st, 2, plane);
	index_bind_text(st, 3, s[peak->allocator]);
	sqlite3_bind_int64(st, 4, in_use(peak));
	bind_bytes(st, 5, peak->heap_bytes);
	bind_bytes(st, 6, peak->stack_bytes);
	bind_bytes(st, 7, peak->free_bytes);
	if (peak->fragmentation >= 0)
		sqlite3_bind_double(st, 8, peak->fragmentation);
	sqlite3_bind_int64(st, 9, peak->time_ps);
	if (peak->step >= 0)
		sqlite3_bind_int64(st, 10, peak->step);
	bind_nonempty(st, 11, s[peak->tf_op]);
	bind_bytes(st, 12, lifetime);
	sqlite3_bind_int64(st, 13, (sqlite3_int64)n);
	if (index_step(ix, st, cause) == -1)
		return -1;
	id = sqlite3_last_insert_rowid(ix->db);

	/*
	 * Live at the peak: an address's last allocation by then, unless
	 * freed after it (xprof keeps the latest allocation per address).
	 */
	seen = xcalloc(ip + 2, sizeof *seen);
	for (i = 0; i <= ip; i++)
		if (g[i]->kind == MEM_ALLOC || g[i]->kind == MEM_FREE) {
			seen[nseen].addr = g[i]->addr;
			seen[nseen].turn = i;
			seen[nseen++].r = g[i];
		}
	qsort(seen, nseen, sizeof *seen, cmp_addr);
	live = xcalloc(nseen + 1, sizeof *live);
	for (i = 0; i < nseen; i++)
		if ((i + 1 == nseen || seen[i + 1].addr != seen[i].addr) &&
		    seen[i].r->kind == MEM_ALLOC)
			live[nlive++] = seen[i].r;
	if (nlive > 0)
		qsort(live, nlive, sizeof *live, cmp_live);
	for (i = 0; rc == 0 && i < nlive; i++) {
		struct index_rows *rows = w->allocation;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, id);
		index_rows_int(rows, 3, (sqlite3_int64)i);
		if (live[i]->allocation_bytes >= 0)
			index_rows_int(rows, 4, live[i]->allocation_bytes);
		if (live[i]->requested_bytes >= 0)
			index_rows_int(rows, 5, live[i]->requested_bytes);
		index_rows_int(rows, 6, live[i]->time_ps);
		if (s[live[i]->tf_op][0] != '\0')
			index_rows_text(rows, 7, s[live[i]->tf_op]);
		if (s[live[i]->shape][0] != '\0')
			index_rows_text(rows, 8, s[live[i]->shape]);
		if (s[live[i]->data_type][0] != '\0')
			index_rows_text(rows, 9, s[live[i]->data_type]);
		if (s[live[i]->region][0] != '\0')
			index_rows_text(rows, 10, s[live[i]->region]);
		rc = index_rows_end(rows, cause);
	}
	free(live);
	free(seen);

	/* The timeline, thinned as xprof's (memory-thin.h). */
	used = xcalloc(n + 1, sizeof *used);
	pick = xcalloc(n + 1, sizeof *pick);
	for (i = 0; i < n; i++)
		used[i] = in_use(g[i]);
	npick = memory_thin(used, n, MEMORY_POINTS, pick);
	for (i = 0; rc == 0 && i < npick; i++) {
		const struct memory_rec *r = g[pick[i]];
		struct index_rows *rows = w->sample;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, id);
		index_rows_int(rows, 3, (sqlite3_int64)i);
		index_rows_int(rows, 4, r->time_ps);
		index_rows_int(rows, 5, r->heap_bytes > 0 ? r->heap_bytes : 0);
		index_rows_int(rows, 6, r->stack_bytes > 0 ? r->stack_bytes :
		    0);
		rc = index_rows_end(rows, cause);
	}
	free(used);
	free(pick);
	return rc;
}

/* A damaged event refuses the file: its allocator row says why. */
static int
write_damage(struct index *ix, struct memory_writers *w,
    sqlite3_int64 file_id, sqlite3_int64 plane, char *const *s,
    const struct memory_rec *r, char **cause)
{
	sqlite3_stmt *st = w->allocator;

	sqlite3_bind_int64(st, 1, file_id);
	sqlite3_bind_int64(st, 2, plane);
	index_bind_text(st, 3, s[r->allocator]);
	sqlite3_bind_int64(st, 4, 0);
	sqlite3_bind_int64(st, 13, 0);
	index_bind_text(st, 14, s[r->damage]);
	return index_step(ix, st, cause);
}

int
index_write_memory_samples(struct index *ix, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    sqlite3_int64 plane, char **cause)
{
	char *const *s = fs->strings.strings;
	const struct memory_rec **g;
	struct memory_writers w;
	size_t i, j, *order;
	int rc = 0;

	if (p->nmemory == 0)
		return 0;
	for (i = 0; i < p->nmemory; i++)
		if (p->memory[i].kind == MEM_DAMAGED) {
			w.allocator = index_cached(ix, "INSERT INTO "
			    "memory_allocators VALUES "
			    "(NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
			return write_damage(ix, &w, file_id, plane, s,
			    &p->memory[i], cause);
		}
	order = xcalloc(p->nmemory, sizeof *order);
	for (i = 0; i < p->nmemory; i++)
		order[i] = i;
	qsort_r(order, p->nmemory, sizeof *order, cmp_rec, p->memory);
	g = xcalloc(p->nmemory, sizeof *g);
	for (i = 0; i < p->nmemory; i++)
		g[i] = &p->memory[order[i]];
	free(order);
	w.allocator = index_cached(ix, "INSERT INTO memory_allocators VALUES "
	    "(NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	w.sample = index_rows_new(ix, "memory_samples", 6);
	w.allocation = index_rows_new(ix, "memory_allocations", 10);
	for (i = 0; rc == 0 && i < p->nmemory; i = j) {
		for (j = i; j < p->nmemory && g[j]->allocator ==
		    g[i]->allocator; j++)
			continue;
		rc = write_allocator(ix, &w, file_id, plane, s, g + i, j - i,
		    cause);
	}
	if (rc == 0)
		rc = index_rows_flush(w.sample, cause);
	if (rc == 0)
		rc = index_rows_flush(w.allocation, cause);
	index_rows_free(w.sample);
	index_rows_free(w.allocation);
	free(g);
	return rc;
}

static int
write_buffers(struct index_rows *rows, sqlite3_int64 file_id,
    const struct hlo_module *m, char **cause)
{
	size_t i;

	for (i = 0; i < m->memory->nbuffers; i++) {
		const struct hlo_buffer *b = &m->memory->buffers[i];
		const struct hlo_instr *in = b->instr;

		index_rows_int(rows, 1, file_id);
		index_rows_int(rows, 2, m->program_id);
		index_rows_text(rows, 3, m->name);
		index_rows_text(rows, 4, b->name);
		if (in != NULL && in->opcode[0] != '\0')
			index_rows_text(rows, 5, in->opcode);
		index_rows_int(rows, 6, b->size_bytes);
		index_rows_int(rows, 7, b->count);
		index_rows_text(rows, 8, b->kind);
		if (b->shape[0] != '\0')
			index_rows_text(rows, 9, b->shape);
		if (in != NULL && in->op_name[0] != '\0')
			index_rows_text(rows, 10, in->op_name);
		if (in != NULL && in->source_file[0] != '\0')
			index_rows_text(rows, 11, in->source_file);
		if (in != NULL && in->source_line > 0)
			index_rows_int(rows, 12, in->source_line);
		if (index_rows_end(rows, cause) == -1)
			return -1;
	}
	return 0;
}

int
index_write_program_memory(struct index *ix, sqlite3_int64 file_id,
    const struct hlo_set *hlo, char **cause)
{
	sqlite3_stmt *st = index_cached(ix, "INSERT INTO program_memory "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?)");
	struct index_rows *rows = index_rows_new(ix, "memory_buffers", 12);
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < hlo_set_count(hlo); i++) {
		const struct hlo_module *m = hlo_set_module(hlo, i);
		const struct hlo_memory *mem = m->memory;

		/* An unreadable buffer assignment is a row that says why. */
		if (mem == NULL && m->memory_why != NULL) {
			sqlite3_bind_int64(st, 1, file_id);
			sqlite3_bind_int64(st, 2, m->program_id);
			index_bind_text(st, 3, m->name);
			sqlite3_bind_int64(st, 4, 0);
			index_bind_text(st, 11, m->memory_why);
			rc = index_step(ix, st, cause);
			continue;
		}
		if (mem == NULL)
			continue;
		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, m->program_id);
		index_bind_text(st, 3, m->name);
		sqlite3_bind_int64(st, 4, mem->peak_bytes);
		sqlite3_bind_int64(st, 5, mem->heap_peak_bytes);
		sqlite3_bind_int64(st, 6, mem->parameter_bytes);
		sqlite3_bind_int64(st, 7, mem->output_bytes);
		sqlite3_bind_int64(st, 8, mem->constant_bytes);
		sqlite3_bind_int64(st, 9, mem->temp_bytes);
		sqlite3_bind_int64(st, 10, (sqlite3_int64)mem->nallocations);
		if (index_step(ix, st, cause) == -1 ||
		    write_buffers(rows, file_id, m, cause) == -1)
			rc = -1;
	}
	if (rc == 0)
		rc = index_rows_flush(rows, cause);
	index_rows_free(rows);
	return rc;
}
