/*
 * The memory tables of one file (index-int.h): its allocators' samples,
 * and its programs' peaks and the buffers live there.  Plain statements:
 * a file has a few thousand of these rows at most.
 */
#include "config.h"

#include "classify.h"
#include "index-int.h"
#include "read-buffers.h"
#include "read-hlo.h"

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

static const char *const kind_names[] = {
	[MEM_ALLOC] = "alloc", [MEM_FREE] = "free",
	[MEM_DAMAGED] = "damaged",
};

int
index_write_memory_samples(struct index *ix, sqlite3_int64 file_id,
    const struct file_summary *fs, const struct plane_summary *p,
    sqlite3_int64 plane, char **cause)
{
	char *const *s = fs->strings.strings;
	sqlite3_stmt *st;
	size_t i;

	if (p->nmemory == 0)
		return 0;
	st = index_cached(ix, "INSERT INTO memory_samples VALUES "
	    "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	for (i = 0; i < p->nmemory; i++) {
		const struct memory_rec *r = &p->memory[i];

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, plane);
		index_bind_text(st, 3, s[r->line]);
		index_bind_text(st, 4, s[r->allocator]);
		index_bind_text(st, 5, kind_names[r->kind]);
		sqlite3_bind_int64(st, 6, r->time_ps);
		bind_bytes(st, 7, r->heap_bytes);
		bind_bytes(st, 8, r->stack_bytes);
		bind_bytes(st, 9, r->free_bytes);
		bind_bytes(st, 10, r->lifetime_peak_bytes);
		if (r->fragmentation >= 0)
			sqlite3_bind_double(st, 11, r->fragmentation);
		bind_bytes(st, 12, r->requested_bytes);
		bind_bytes(st, 13, r->allocation_bytes);
		sqlite3_bind_int64(st, 14, (sqlite3_int64)r->addr);
		if (r->step >= 0)
			sqlite3_bind_int64(st, 15, r->step);
		bind_nonempty(st, 16, s[r->tf_op]);
		bind_nonempty(st, 17, s[r->region]);
		bind_nonempty(st, 18, s[r->data_type]);
		bind_nonempty(st, 19, s[r->shape]);
		bind_nonempty(st, 20, s[r->damage]);
		if (index_step(ix, st, cause) == -1)
			return -1;
	}
	return 0;
}

static int
write_buffers(struct index *ix, sqlite3_int64 file_id,
    const struct hlo_module *m, char **cause)
{
	sqlite3_stmt *st = index_cached(ix, "INSERT INTO memory_buffers "
	    "VALUES (?,?,?,?,?,?,?,?,?,?,?)");
	size_t i;

	for (i = 0; i < m->memory->nbuffers; i++) {
		const struct hlo_buffer *b = &m->memory->buffers[i];

		sqlite3_bind_int64(st, 1, file_id);
		sqlite3_bind_int64(st, 2, m->program_id);
		index_bind_text(st, 3, m->name);
		index_bind_text(st, 4, b->name);
		bind_nonempty(st, 5, b->instr != NULL ? b->instr->opcode : NULL);
		sqlite3_bind_int64(st, 6, b->size_bytes);
		index_bind_text(st, 7, b->kind);
		bind_nonempty(st, 8, b->shape);
		bind_nonempty(st, 9, b->instr != NULL ? b->instr->op_name :
		    NULL);
		bind_nonempty(st, 10, b->instr != NULL ?
		    b->instr->source_file : NULL);
		if (b->instr != NULL && b->instr->source_line > 0)
			sqlite3_bind_int64(st, 11, b->instr->source_line);
		if (index_step(ix, st, cause) == -1)
			return -1;
	}
	return 0;
}

int
index_write_program_memory(struct index *ix, sqlite3_int64 file_id,
    const struct hlo_set *hlo, char **cause)
{
	sqlite3_stmt *st = index_cached(ix, "INSERT INTO program_memory "
	    "VALUES (?,?,?,?,?,?,?,?,?,?)");
	size_t i;

	for (i = 0; i < hlo_set_count(hlo); i++) {
		const struct hlo_module *m = hlo_set_module(hlo, i);
		const struct hlo_memory *mem = m->memory;

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
		    write_buffers(ix, file_id, m, cause) == -1)
			return -1;
	}
	return 0;
}
