/*
 * The memory report: each allocator's peak in the capture, the
 * allocations live there, its bytes in use over time; each program's peak
 * from its buffer assignment, and the buffers live there.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/memory.h"
#include "index/memory-thin.h"
#include "lib/checked.h"
#include "lib/err.h"
#include "lib/term.h"
#include "lib/xmalloc.h"
#include "output/output.h"
#include "report/memory-losses.h"
#include "report/report.h"
#include "report/summary.h"

static const char *const group_names[] = {
	"allocator", "allocation", "timeline", "program", "buffer",
};

static const char *const group_titles[] = {
	"Device memory per allocator from its MemoryAllocation events "
	"(peak: heap plus stack in use, within the capture).",
	"The allocations live at each allocator's peak, largest first "
	"(matched to their frees by address).",
	"Bytes in use per allocator over the capture (of each window of "
	"events, the one of most bytes).",
	"Device memory of each program from its buffer assignment (peak: "
	"all it allocates; heap peak: XLA's heap simulation).",
	"The buffers live at the program's peak, largest first (name.*: "
	"instructions of one kind and size).",
};


static const struct out_col allocator_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "allocator", COL_STR, NULL, 0, UNIT_NONE },
	{ "peak_bytes", COL_BYTES, "peak", 0, UNIT_NONE },
	{ "heap_bytes", COL_BYTES, "heap", 0, UNIT_NONE },
	{ "stack_bytes", COL_BYTES, "stack", 0, UNIT_NONE },
	{ "peak_time_us", COL_PS, "at", 0, UNIT_NONE },
	{ "step", COL_INT, NULL, 0, UNIT_NONE },
	{ "module", COL_STR, NULL, 0, UNIT_NONE },
	{ "op", COL_STR, NULL, 0, UNIT_NONE },
	{ "capacity_bytes", COL_BYTES, "capacity", 0, UNIT_NONE },
	{ "lifetime_peak_bytes", COL_BYTES, "lifetime peak", 0, UNIT_NONE },
	{ "fragmentation_pct", COL_PCT, "fragmentation", 0, UNIT_NONE },
	{ "events", COL_INT, NULL, 0, UNIT_NONE },
};

static const struct out_col allocation_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "allocator", COL_STR, NULL, 0, UNIT_NONE },
	{ "allocation_bytes", COL_BYTES, "bytes", 0, UNIT_NONE },
	{ "requested_bytes", COL_BYTES, "requested", 0, UNIT_NONE },
	{ "time_us", COL_PS, "allocated at", 0, UNIT_NONE },
	{ "op", COL_STR, NULL, 0, UNIT_NONE },
	{ "shape", COL_STR, NULL, 0, UNIT_NONE },
	{ "data_type", COL_STR, "dtype", 0, UNIT_NONE },
	{ "region_type", COL_STR, "region", 0, UNIT_NONE },
};

static const struct out_col timeline_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "allocator", COL_STR, NULL, 0, UNIT_NONE },
	{ "time_us", COL_PS, "time", 0, UNIT_NONE },
	{ "bytes_in_use", COL_BYTES, "in use", 0, UNIT_NONE },
	{ "heap_bytes", COL_BYTES, "heap", 0, UNIT_NONE },
	{ "stack_bytes", COL_BYTES, "stack", 0, UNIT_NONE },
};

static const struct out_col program_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "program", COL_STR, NULL, 0, UNIT_NONE },
	{ "program_id", COL_INT, NULL, 0, UNIT_NONE },
	{ "peak_bytes", COL_BYTES, "peak", 0, UNIT_NONE },
	{ "heap_peak_bytes", COL_BYTES, "heap peak", 0, UNIT_NONE },
	{ "parameter_bytes", COL_BYTES, "parameters", 0, UNIT_NONE },
	{ "output_bytes", COL_BYTES, "outputs", 0, UNIT_NONE },
	{ "temp_bytes", COL_BYTES, "temporaries", 0, UNIT_NONE },
};

static const struct out_col buffer_cols[] = {
	{ "run", COL_STR, NULL, 0, UNIT_NONE },
	{ "host", COL_STR, NULL, 0, UNIT_NONE },
	{ "program", COL_STR, NULL, 0, UNIT_NONE },
	{ "buffer", COL_STR, NULL, 0, UNIT_NONE },
	{ "count", COL_INT, NULL, 0, UNIT_NONE },
	{ "size_bytes", COL_BYTES, "each", 0, UNIT_NONE },
	{ "total_bytes", COL_BYTES, "total", 0, UNIT_NONE },
	{ "kind", COL_STR, NULL, 0, UNIT_NONE },
	{ "shape", COL_STR, NULL, 0, UNIT_NONE },
	{ "opcode", COL_STR, NULL, 0, UNIT_NONE },
	{ "framework_op", COL_STR, "framework op", 0, UNIT_NONE },
	{ "source", COL_STR, NULL, 0, UNIT_NONE },
};

/* Samples m of the selected files, filtered; ?102 matches allocators. */
#define SAMPLE_FILTER " AND f.host GLOB ?101 AND f.run GLOB ?103 AND " \
	REPORT_DEVICE_SQL("m.allocator")

/* head, the filter, tail: prepared with the filters bound. */
static sqlite3_stmt *
prepare(struct report *r, const char *head, const char *filter,
    const char *tail)
{
	sqlite3_stmt *st;
	char *sql = xasprintf("%s%s%s", head, filter, tail);

	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	return st;
}

static void
out_text(struct output *o, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		output_null(o);
	else
		output_str(o, (const char *)sqlite3_column_text(st, i));
}

/* A program id: the column holds its 64 bits, read unsigned. */
static void
out_program_id(struct output *o, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		output_null(o);
	else
		output_uint(o, (uint64_t)sqlite3_column_int64(st, i));
}

static void
out_bytes(struct output *o, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		output_null(o);
	else
		output_double(o, (double)sqlite3_column_int64(st, i));
}

/*
 * Refuses the profiles if memory the report would show could not be
 * read: an allocator's damaged event, a program's buffer assignment.
 */
static int
check_damage(struct report *r, int programs)
{
	struct memory_losses ml;
	int bad;

	memory_losses_load(&ml, r, programs ? LOSSES_PROGRAMS :
	    LOSSES_ALLOCATORS | LOSSES_DEVICE_ALLOCATORS);
	if (ml.n > 0)
		jp_warnx("%s", ml.v[0].text);
	bad = ml.n > 0;
	memory_losses_release(&ml);
	return bad;
}

/* One allocator of one file, and its peak (the last sample at it). */
struct allocator {
	sqlite3_int64	 id;		/* memory_allocators.id */
	sqlite3_int64	 file_id;
	char		*run, *host, *name;
	int64_t		 peak, heap, stack, free_bytes, lifetime;
	int		 has_free, has_stack;
	double		 frag;		/* -1: not given */
	int64_t		 peak_ps;
	int64_t		 step;		/* group_id, or -1 */
	char		*op;		/* tf_op at the peak, or NULL */
	int64_t		 events;
};

static char *
col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

/* Every allocator's peak, in run, host, allocator order. */
static struct allocator *
find_peaks(struct report *r, size_t *np)
{
	struct allocator *v = NULL, *a;
	sqlite3_stmt *st;
	size_t n = 0;

	st = prepare(r, "SELECT m.file_id, f.run, f.host, m.allocator, "
	    "m.peak_bytes, m.heap_bytes, m.stack_bytes, m.free_bytes, "
	    "m.fragmentation, m.peak_ps, m.step, m.tf_op, "
	    "m.lifetime_peak_bytes, m.events, m.id FROM memory_allocators m "
	    "JOIN files f ON f.id = m.file_id JOIN selected s ON "
	    "s.file_id = f.id WHERE m.damage IS NULL", SAMPLE_FILTER,
	    " ORDER BY f.run, f.host, m.file_id, m.allocator, m.plane");
	while (index_row(st)) {
		v = xgrow1(v, n, sizeof *v);
		a = &v[n++];
		memset(a, 0, sizeof *a);
		a->file_id = sqlite3_column_int64(st, 0);
		a->run = col_dup(st, 1);
		a->host = col_dup(st, 2);
		a->name = col_dup(st, 3);
		a->peak = sqlite3_column_int64(st, 4);
		a->heap = sqlite3_column_int64(st, 5);
		a->stack = sqlite3_column_int64(st, 6);
		a->has_stack = sqlite3_column_type(st, 6) != SQLITE_NULL;
		a->free_bytes = sqlite3_column_int64(st, 7);
		a->has_free = sqlite3_column_type(st, 7) != SQLITE_NULL;
		a->frag = sqlite3_column_type(st, 8) == SQLITE_NULL ? -1 :
		    sqlite3_column_double(st, 8);
		a->peak_ps = sqlite3_column_int64(st, 9);
		a->step = sqlite3_column_type(st, 10) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 10);
		a->op = col_dup(st, 11);
		a->lifetime = sqlite3_column_type(st, 12) == SQLITE_NULL ? -1 :
		    sqlite3_column_int64(st, 12);
		a->events = sqlite3_column_int64(st, 13);
		a->id = sqlite3_column_int64(st, 14);
	}
	sqlite3_finalize(st);
	*np = n;
	return v;
}

static void
free_peaks(struct allocator *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].run);
		free(v[i].host);
		free(v[i].name);
		free(v[i].op);
	}
	free(v);
}

static void
print_allocators(struct report *r, struct output *o,
    const struct allocator *v, size_t n)
{
	sqlite3_stmt *at;
	size_t i;

	at = summary_memory_context(r);
	for (i = 0; i < n; i++) {
		const struct allocator *a = &v[i];

		sqlite3_bind_int64(at, 1, a->file_id);
		sqlite3_bind_int64(at, 2, a->peak_ps);
		if (!index_row(at))
			jp_errx(EXIT_TROUBLE, "cannot read the index");
		output_str(o, a->run);
		output_str(o, a->host);
		output_str(o, a->name);
		output_double(o, (double)a->peak);
		output_double(o, (double)a->heap);
		if (a->has_stack)
			output_double(o, (double)a->stack);
		else
			output_null(o);
		output_ps(o, (double)a->peak_ps);
		if (sqlite3_column_type(at, 1) != SQLITE_NULL)
			output_int(o, sqlite3_column_int64(at, 1));
		else if (a->step >= 0)
			output_int(o, a->step);
		else
			output_null(o);
		out_text(o, at, 0);
		if (a->op != NULL)
			output_str(o, a->op);
		else
			output_null(o);
		if (a->has_free)
			output_double(o, (double)(a->peak + a->free_bytes));
		else
			output_null(o);
		if (a->lifetime >= 0)
			output_double(o, (double)a->lifetime);
		else
			output_null(o);
		if (a->frag >= 0)
			output_double(o, a->frag * 100);
		else
			output_null(o);
		output_int(o, a->events);
		output_end_row(o);
		sqlite3_reset(at);
	}
	sqlite3_finalize(at);
}

/*
 * The allocations live at each allocator's peak: allocated by then and
 * not freed (matched by address) by then, largest first; what the heap
 * held beside them was allocated before the capture.
 */
static void
print_allocations(struct report *r, struct output *o,
    const struct allocator *v, size_t n, long limit)
{
	sqlite3_stmt *st;
	size_t i;

	st = index_prepare(r->ix, "SELECT allocation_bytes, "
	    "requested_bytes, time_ps, tf_op, shape, data_type, region_type "
	    "FROM memory_allocations WHERE file_id = ?1 AND allocator = ?2 "
	    "ORDER BY seq");
	for (i = 0; i < n; i++) {
		const struct allocator *a = &v[i];
		int64_t mapped = 0;
		long shown = 0;

		sqlite3_bind_int64(st, 1, a->file_id);
		sqlite3_bind_int64(st, 2, a->id);
		while (index_row(st)) {
			mapped += sqlite3_column_int64(st, 0);
			if (limit > 0 && shown >= limit)
				continue;
			shown++;
			output_str(o, a->run);
			output_str(o, a->host);
			output_str(o, a->name);
			out_bytes(o, st, 0);
			out_bytes(o, st, 1);
			output_ps(o, (double)sqlite3_column_int64(st, 2));
			out_text(o, st, 3);
			out_text(o, st, 4);
			out_text(o, st, 5);
			out_text(o, st, 6);
			output_end_row(o);
		}
		sqlite3_reset(st);
		if (a->heap > mapped) {
			output_str(o, a->run);
			output_str(o, a->host);
			output_str(o, a->name);
			output_double(o, (double)(a->heap - mapped));
			output_null(o);
			output_null(o);
			output_str(o, "(allocated before the capture)");
			output_null(o);
			output_null(o);
			output_str(o, "persist/dynamic");
			output_end_row(o);
		}
		if (a->stack > 0) {
			output_str(o, a->run);
			output_str(o, a->host);
			output_str(o, a->name);
			output_double(o, (double)a->stack);
			output_null(o);
			output_null(o);
			output_str(o, "(stack)");
			output_null(o);
			output_null(o);
			output_str(o, "stack");
			output_end_row(o);
		}
	}
	sqlite3_finalize(st);
}

/*
 * Each allocator's stored timeline (MEMORY_POINTS at most), thinned
 * again to points by the same filter.
 */
static void
print_timeline(struct report *r, struct output *o, const struct allocator *v,
    size_t n, size_t points)
{
	int64_t *time_ps = NULL, *heap = NULL, *stack = NULL, *used = NULL;
	size_t *pick = NULL, i, j, ns, npick, cap = 0;
	sqlite3_stmt *st;

	st = index_prepare(r->ix, "SELECT time_ps, heap_bytes, stack_bytes "
	    "FROM memory_samples WHERE file_id = ?1 AND allocator = ?2 "
	    "ORDER BY seq");
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(st, 1, v[i].file_id);
		sqlite3_bind_int64(st, 2, v[i].id);
		for (ns = 0; index_row(st); ns++) {
			if (ns == cap) {
				cap = cap == 0 ? 256 : cap * 2;
				time_ps = xreallocarray(time_ps, cap,
				    sizeof *time_ps);
				heap = xreallocarray(heap, cap, sizeof *heap);
				stack = xreallocarray(stack, cap,
				    sizeof *stack);
				used = xreallocarray(used, cap, sizeof *used);
				pick = xreallocarray(pick, cap, sizeof *pick);
			}
			time_ps[ns] = sqlite3_column_int64(st, 0);
			heap[ns] = sqlite3_column_int64(st, 1);
			stack[ns] = sqlite3_column_int64(st, 2);
			used[ns] = heap[ns] + stack[ns];
		}
		sqlite3_reset(st);
		npick = ns > 0 ? memory_thin(used, ns, points, pick) : 0;
		for (j = 0; j < npick; j++) {
			output_str(o, v[i].run);
			output_str(o, v[i].host);
			output_str(o, v[i].name);
			output_ps(o, (double)time_ps[pick[j]]);
			output_double(o, (double)used[pick[j]]);
			output_double(o, (double)heap[pick[j]]);
			output_double(o, (double)stack[pick[j]]);
			output_end_row(o);
		}
	}
	free(time_ps);
	free(heap);
	free(stack);
	free(used);
	free(pick);
	sqlite3_finalize(st);
}

#define PROGRAM_FILTER " AND f.host GLOB ?101 AND f.run GLOB ?103"

static int
print_programs(struct report *r, struct output *o, long limit)
{
	sqlite3_stmt *st;
	char *run = NULL, *host = NULL;
	long in_file = 0;
	int n = 0, shown = 0;

	st = prepare(r, "SELECT f.run, f.host, pm.module, pm.program_id, "
	    "pm.peak_bytes, pm.heap_peak_bytes, pm.parameter_bytes, "
	    "pm.output_bytes, pm.temp_bytes FROM program_memory pm "
	    "JOIN files f ON f.id = pm.file_id JOIN selected s ON "
	    "s.file_id = f.id WHERE pm.damage IS NULL", PROGRAM_FILTER, " ORDER BY f.run, "
	    "f.host, pm.peak_bytes DESC, pm.module, pm.program_id");
	while (index_row(st)) {
		const char *rn = (const char *)sqlite3_column_text(st, 0);
		const char *hn = (const char *)sqlite3_column_text(st, 1);
		int i;

		n++;
		if (run == NULL || strcmp(run, rn) != 0 ||
		    strcmp(host, hn) != 0) {
			free(run);
			free(host);
			run = xstrdup(rn);
			host = xstrdup(hn);
			in_file = 0;
		}
		if (limit > 0 && in_file++ >= limit)
			continue;
		shown++;
		for (i = 0; i < 3; i++)
			out_text(o, st, i);
		out_program_id(o, st, 3);
		for (i = 4; i < 9; i++)
			out_bytes(o, st, i);
		output_end_row(o);
	}
	sqlite3_finalize(st);
	if (shown < n)
		output_more_rows(o, (size_t)shown, (size_t)n);
	free(run);
	free(host);
	return n;
}

/* A buffer at a program's peak, and the group it shows in. */
struct buffer {
	char		*name, *base, *kind, *shape, *opcode, *op, *source;
	int64_t		 size;		/* of all count */
	int64_t		 count;
};

/*
 * "fusion.12" -> "fusion.*": XLA numbers the instructions it makes of
 * one kind, so repeats of one size read as one row (as xprof groups).
 */
static char *
base_name(const char *name)
{
	const char *dot = strrchr(name, '.'), *p;

	if (dot == NULL || dot == name || dot[1] == '\0')
		return xstrdup(name);
	for (p = dot + 1; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return xstrdup(name);
	for (p = name; p < dot; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    *p == '_' || (p > name && *p >= '0' && *p <= '9')))
			return xstrdup(name);
	return xasprintf("%.*s.*", (int)(dot - name), name);
}

static int
cmp_group(const void *a, const void *b)
{
	const struct buffer *x = a, *y = b;
	int c = strcmp(x->base, y->base);

	if (c != 0)
		return c;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct group_row {
	const struct buffer *first;
	size_t		 count;
	int64_t		 total;
};

static int
cmp_row(const void *a, const void *b)
{
	const struct group_row *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->first->base, y->first->base);
}

static void
print_program_buffers(struct output *o, sqlite3_stmt *st, const char *run,
    const char *host, const char *program, long limit)
{
	struct buffer *b = NULL;
	struct group_row *rows;
	size_t i, n = 0, nrows = 0;

	while (index_row(st)) {
		b = xgrow1(b, n, sizeof *b);
		b[n].name = col_dup(st, 0);
		b[n].base = base_name(b[n].name);
		b[n].size = sqlite3_column_int64(st, 1);
		b[n].kind = col_dup(st, 2);
		b[n].shape = col_dup(st, 3);
		b[n].opcode = col_dup(st, 4);
		b[n].op = col_dup(st, 5);
		b[n].source = col_dup(st, 6);
		b[n].count = sqlite3_column_int64(st, 7);
		n++;
	}
	sqlite3_reset(st);
	if (n > 0)
		qsort(b, n, sizeof *b, cmp_group);
	rows = xcalloc(n + 1, sizeof *rows);
	for (i = 0; i < n; i++) {
		if (nrows > 0 && b[i].count == 1 &&
		    rows[nrows - 1].first->count == 1 &&
		    strcmp(rows[nrows - 1].first->base, b[i].base) == 0 &&
		    rows[nrows - 1].first->size == b[i].size) {
			rows[nrows - 1].count++;
			rows[nrows - 1].total = sat_add(rows[nrows - 1].total,
			    b[i].size);
			continue;
		}
		rows[nrows].first = &b[i];
		rows[nrows].count = (size_t)b[i].count;
		rows[nrows++].total = b[i].size;
	}
	if (nrows > 0)
		qsort(rows, nrows, sizeof *rows, cmp_row);
	for (i = 0; i < nrows && (limit == 0 || i < (size_t)limit); i++) {
		const struct buffer *f = rows[i].first;
		const char *const texts[] = {
			f->kind, f->shape, f->opcode, f->op, f->source,
		};
		size_t j;

		output_str(o, run);
		output_str(o, host);
		output_str(o, program);
		output_str(o, rows[i].count > 1 && f->count == 1 ? f->base :
		    f->name);
		output_int(o, (int64_t)rows[i].count);
		if (f->count == 1)
			output_double(o, (double)f->size);
		else
			output_null(o);
		output_double(o, (double)rows[i].total);
		for (j = 0; j < sizeof texts / sizeof texts[0]; j++)
			if (texts[j] != NULL)
				output_str(o, texts[j]);
			else
				output_null(o);
		output_end_row(o);
	}
	if (limit > 0 && nrows > (size_t)limit)
		output_more_rows(o, (size_t)limit, nrows);
	for (i = 0; i < n; i++) {
		free(b[i].name);
		free(b[i].base);
		free(b[i].kind);
		free(b[i].shape);
		free(b[i].opcode);
		free(b[i].op);
		free(b[i].source);
	}
	free(b);
	free(rows);
}

/*
 * Whether a program is the one --program names: by name, or as the
 * profile names it, "jit_f(12190760917235803885)" (its id unsigned).
 */
static int
program_named(const char *want, const char *module, int64_t id)
{
	char num[48];
	size_t len = strlen(module);

	if (strcmp(want, module) == 0)
		return 1;
	if (strncmp(want, module, len) != 0 || want[len] != '(')
		return 0;
	snprintf(num, sizeof num, "(%" PRIu64 ")", (uint64_t)id);
	if (strcmp(want + len, num) == 0)
		return 1;
	snprintf(num, sizeof num, "(%" PRId64 ")", id);
	return strcmp(want + len, num) == 0;
}

/* The buffers of the program named (default: each file's largest). */
static int
print_buffers(struct report *r, struct output *o, const char *program,
    long limit)
{
	sqlite3_stmt *pick, *st;
	int n = 0;

	pick = prepare(r, "SELECT pm.file_id, pm.program_id, f.run, f.host, "
	    "pm.module, pm.rowid = (SELECT p2.rowid FROM program_memory p2 "
	    "WHERE p2.file_id = pm.file_id AND p2.damage IS NULL "
	    "ORDER BY p2.peak_bytes DESC, p2.module LIMIT 1) "
	    "FROM program_memory pm JOIN files f ON f.id = pm.file_id "
	    "JOIN selected s ON s.file_id = f.id WHERE pm.damage IS NULL",
	    PROGRAM_FILTER, " ORDER BY f.run, f.host, pm.module, "
	    "pm.program_id");
	st = index_prepare(r->ix, "SELECT instruction, size_bytes, kind, "
	    "shape, opcode, op_name, CASE WHEN source_file IS NULL THEN NULL "
	    "ELSE source_file || ':' || coalesce(source_line, '') END, count "
	    "FROM memory_buffers WHERE file_id = ?1 AND program_id = ?2 "
	    "ORDER BY rowid");
	while (index_row(pick)) {
		const char *module = (const char *)sqlite3_column_text(pick, 4);
		int64_t id = sqlite3_column_int64(pick, 1);
		char *name;

		if (program != NULL ? !program_named(program, module, id) :
		    !sqlite3_column_int(pick, 5))
			continue;
		name = xasprintf("%s(%" PRIu64 ")", module, (uint64_t)id);
		sqlite3_bind_int64(st, 1, sqlite3_column_int64(pick, 0));
		sqlite3_bind_int64(st, 2, id);
		print_program_buffers(o, st,
		    (const char *)sqlite3_column_text(pick, 2),
		    (const char *)sqlite3_column_text(pick, 3), name, limit);
		free(name);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(pick);
	return n;
}

static const struct out_col *
group_cols(enum memory_group g, size_t *n)
{
	switch (g) {
	case MEMORY_ALLOCATION:
		*n = sizeof allocation_cols / sizeof allocation_cols[0];
		return allocation_cols;
	case MEMORY_TIMELINE:
		*n = sizeof timeline_cols / sizeof timeline_cols[0];
		return timeline_cols;
	case MEMORY_PROGRAM:
		*n = sizeof program_cols / sizeof program_cols[0];
		return program_cols;
	case MEMORY_BUFFER:
		*n = sizeof buffer_cols / sizeof buffer_cols[0];
		return buffer_cols;
	default:
		*n = sizeof allocator_cols / sizeof allocator_cols[0];
		return allocator_cols;
	}
}

/* What the profiles lack, said once: no rows is an answer, not an error. */
static void
say_none(struct report *r, struct output *o, const char *what)
{
	if (r->format == FMT_TABLE || r->format == FMT_MARKDOWN)
		term_put_folded(stdout, what, strlen(what),
		    term_width(stdout));
	else
		jp_warnx("%s", what);
	(void)o;
}


int
memory_group_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof group_names / sizeof group_names[0]; i++)
		if (strcmp(s, group_names[i]) == 0)
			return (int)i;
	return -1;
}

int
memory_report(struct report *r, const struct memory_options *opt)
{
	const struct out_col *cols;
	struct allocator *peaks = NULL;
	struct output *o;
	enum memory_group group = opt->group;
	size_t ncols, npeaks = 0;
	int found = 0, status = EXIT_OK;

	if (check_damage(r, group == MEMORY_PROGRAM || group == MEMORY_BUFFER))
		return EXIT_TROUBLE;
	cols = group_cols(group, &ncols);
	o = output_new(r->format, stdout, cols, ncols);
	switch (group) {
	case MEMORY_PROGRAM:
		found = print_programs(r, o, opt->limit) > 0;
		break;
	case MEMORY_BUFFER:
		found = print_buffers(r, o, opt->program, opt->limit) > 0;
		break;
	default:
		peaks = find_peaks(r, &npeaks);
		found = npeaks > 0;
		if (group == MEMORY_ALLOCATOR)
			print_allocators(r, o, peaks, npeaks);
		else if (group == MEMORY_ALLOCATION)
			print_allocations(r, o, peaks, npeaks, opt->limit);
		else
			print_timeline(r, o, peaks, npeaks, opt->points);
		free_peaks(peaks, npeaks);
	}
	if (!found) {
		say_none(r, o, group == MEMORY_BUFFER && opt->program != NULL ?
		    "No program of that name has a buffer assignment." :
		    group == MEMORY_PROGRAM || group == MEMORY_BUFFER ?
		    "No buffer assignment in the programs' HLO: the profile "
		    "holds no HLO of its programs." :
		    "No memory events: the profile has no MemoryAllocation "
		    "events of a device allocator.");
		if (r->format == FMT_TABLE || r->format == FMT_MARKDOWN) {
			output_discard(o);
			return status;
		}
	}
	output_title(o, group_titles[group]);
	if (output_finish(o) == -1)
		status = EXIT_TROUBLE;
	return status;
}
