/* Rows of one index table, inserted many to a statement (index-int.h). */
#include "config.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "err.h"
#include "index-int.h"
#include "varint.h"
#include "xmalloc.h"

/*
 * zstd's level for packed rows: a fast one.  cmdbuf-train's 2.7 MB of
 * packed cells took 33 M instructions at level 1 (to 0.4 MB), 21 M at -5
 * (to 0.5 MB).
 */
#define PACKED_LEVEL	(-5)
/* Packed bytes a row of packed_rows holds at most: a bound on memory. */
#define PACKED_BLOB_BYTES	((size_t)4 << 20)
/*
 * Packed cells wait in a stage of this size and go to zstd a frame at a
 * time: a stage that stays in the cache, where packing a whole row's
 * cells first grew a buffer to a megabyte, a third of a cold run's page
 * faults on cmdbuf-train.
 */
#define PACKED_STAGE_BYTES	((size_t)128 << 10)

/* SQLite's smallest limit on parameters of one statement (before 3.32). */
#define MAX_PARAMS	999
/*
 * Rows a statement inserts at most: 16 take most of the statement cost off
 * a row; longer statements cost more to prepare than they save on small
 * profiles.
 */
#define MAX_ROWS	16

enum cell_kind { CELL_NULL, CELL_INT, CELL_TEXT, CELL_COPY, CELL_KEPT };

/*
 * The kept texts (index_rows_text_kept()) a packed row holds in full, by
 * address, each with its number among the row's texts.  Direct-mapped: a
 * collision only packs a text in full once more (so the packed bytes
 * depend on addresses; the rows they unpack to do not).  A profile's host
 * events repeat a few line and event names: packed once each, the TPU
 * profile tiled 64 times gave zstd 3.9 MB instead of 11.5 MB, and a cold
 * top 2% less time on one CPU.
 */
#define PACKED_REF_SLOTS	256

struct packed_refs {
	const char	*text[PACKED_REF_SLOTS];	/* NULL: free */
	uint32_t	 number[PACKED_REF_SLOTS];
	uint32_t	 ntexts;	/* texts packed in full so far */
};

struct cell {
	enum cell_kind	 kind;
	union {
		sqlite3_int64	 i;
		const char	*text;
		size_t		 copy;	/* offset in index_rows.copies */
	} u;
};

struct index_rows {
	struct index	*ix;
	const char	*table;
	/* Kept by the index (index_cached()), prepared when first needed. */
	sqlite3_stmt	*one, *many;
	int		 ncols;
	int		 max_rows;
	int		 nrows;		/* complete rows waiting in cells */
	int		 cap_rows;	/* grown to max_rows as rows come */
	struct cell	*cells;		/* cap_rows rows of ncols */
	char		*copies;	/* texts the caller does not keep */
	size_t		 copies_len, copies_cap;
	/*
	 * Packing (index_pack()): the rows encoded for one packed_rows row,
	 * the latest in stage, the rest compressed in frames.
	 */
	int		 packing;
	unsigned char	*stage;
	size_t		 stage_len, stage_cap;
	unsigned char	*frames;
	size_t		 frames_len, frames_cap;
	size_t		 pack_len;	/* bytes packed, staged or compressed */
	size_t		 zerror;	/* a zstd error code, else 0 */
	sqlite3_int64	 pack_file;	/* the file_id (column 1) of its rows */
	sqlite3_int64	 pack_rows;
	struct packed_refs refs;	/* of the packed row begun */
};

/* The tables whose rows may wait packed (index.h), by index_pack() bit. */
static const struct {
	const char	*table;
	unsigned	 bit;
	int		 ncols;
} packable[] = {
	{ "host_events", INDEX_HOST_EVENTS, 7 },
	{ "hlo_instructions", INDEX_HLO_INSTRUCTIONS, 16 },
	{ "scopes", INDEX_SCOPES, 8 },
	{ "transfers", INDEX_TRANSFERS, 10 },
	{ "steps", INDEX_STEPS, 11 },
	{ "executions", INDEX_EXECUTIONS, 9 },
};

#define NPACKABLE	(sizeof packable / sizeof packable[0])

const char *
index_packable_table(const char *name, unsigned tables, int *ncols)
{
	size_t i;

	for (i = 0; i < NPACKABLE; i++)
		if ((packable[i].bit & tables) != 0 &&
		    strcmp(packable[i].table, name) == 0) {
			*ncols = packable[i].ncols;
			return packable[i].table;
		}
	return NULL;
}

const char *
index_packable_nth(size_t n, unsigned tables)
{
	size_t i;

	for (i = 0; i < NPACKABLE; i++)
		if ((packable[i].bit & tables) != 0 && n-- == 0)
			return packable[i].table;
	return NULL;
}

/* "INSERT OR FAIL INTO table VALUES (?,...)" with nrows rows. */
static char *
insert_sql(const char *table, int ncols, int nrows)
{
	size_t len = strlen(table) + 32 + (size_t)nrows * ((size_t)ncols * 2 + 3);
	char *sql = xmalloc(len), *p;
	int r, c;

	/*
	 * OR FAIL: a failed insert then leaves the rows before it in place,
	 * so SQLite keeps no statement journal for a multi-row insert; the
	 * caller rolls the whole file back on any failure anyway.
	 */
	p = sql + snprintf(sql, len, "INSERT OR FAIL INTO %s VALUES ", table);
	for (r = 0; r < nrows; r++) {
		*p++ = r > 0 ? ',' : ' ';
		*p++ = '(';
		for (c = 0; c < ncols; c++) {
			if (c > 0)
				*p++ = ',';
			*p++ = '?';
		}
		*p++ = ')';
	}
	*p = '\0';
	return sql;
}

struct index_rows *
index_rows_new(struct index *ix, const char *table, int ncols)
{
	struct index_rows *r = xcalloc(1, sizeof *r);
	int packed_ncols = 0;

	r->ix = ix;
	r->table = table;
	r->ncols = ncols;
	r->max_rows = MAX_PARAMS / ncols < MAX_ROWS ? MAX_PARAMS / ncols :
	    MAX_ROWS;
	r->cap_rows = 1;
	r->cells = xcalloc((size_t)ncols, sizeof *r->cells);
	r->packing = index_packable_table(table, ix->pack, &packed_ncols) !=
	    NULL;
	/* The packable list says how many columns unpacking sets. */
	assert(!r->packing || packed_ncols == ncols);
	return r;
}

void
index_rows_free(struct index_rows *r)
{
	if (r == NULL)
		return;
	free(r->cells);
	free(r->copies);
	free(r->stage);
	free(r->frames);
	free(r);
}

static struct cell *
cell_at(struct index_rows *r, int col)
{
	return &r->cells[r->nrows * r->ncols + col - 1];
}

void
index_rows_int(struct index_rows *r, int col, sqlite3_int64 v)
{
	struct cell *c = cell_at(r, col);

	c->kind = CELL_INT;
	c->u.i = v;
}

void
index_rows_text(struct index_rows *r, int col, const char *s)
{
	struct cell *c = cell_at(r, col);

	c->kind = s != NULL ? CELL_TEXT : CELL_NULL;
	c->u.text = s;
}

void
index_rows_text_kept(struct index_rows *r, int col, const char *s)
{
	struct cell *c = cell_at(r, col);

	c->kind = s != NULL ? CELL_KEPT : CELL_NULL;
	c->u.text = s;
}

void
index_rows_text_copy(struct index_rows *r, int col, const char *s)
{
	struct cell *c = cell_at(r, col);
	size_t len = strlen(s) + 1;

	if (r->copies_len + len > r->copies_cap) {
		r->copies_cap = (r->copies_len + len) * 2;
		r->copies = xreallocarray(r->copies, r->copies_cap, 1);
	}
	memcpy(r->copies + r->copies_len, s, len);
	c->kind = CELL_COPY;
	c->u.copy = r->copies_len;
	r->copies_len += len;
}

/* Binds rows [first, first + n) to st from parameter 1 on, steps it. */
static int
insert(struct index_rows *r, sqlite3_stmt *st, int first, int n,
    char **cause)
{
	const struct cell *c = &r->cells[first * r->ncols];
	int i;

	for (i = 1; i <= n * r->ncols; i++, c++)
		switch (c->kind) {
		case CELL_NULL:
			sqlite3_bind_null(st, i);
			break;
		case CELL_INT:
			sqlite3_bind_int64(st, i, c->u.i);
			break;
		case CELL_TEXT:
		case CELL_KEPT:
			sqlite3_bind_text(st, i, c->u.text, -1, SQLITE_STATIC);
			break;
		case CELL_COPY:
			sqlite3_bind_text(st, i, r->copies + c->u.copy, -1,
			    SQLITE_STATIC);
			break;
		}
	return index_step(r->ix, st, cause);
}

/*
 * The statement inserting nrows rows: a small profile's tables never fill
 * one of max_rows, and preparing it costs as much as a few rows.
 */
static sqlite3_stmt *
statement(struct index_rows *r, sqlite3_stmt **st, int nrows)
{
	if (*st == NULL) {
		char *sql = insert_sql(r->table, r->ncols, nrows);

		*st = index_cached(r->ix, sql);
		free(sql);
	}
	return *st;
}

/* The staged cells compressed as one more frame; a failure kept for later. */
static void
compress_stage(struct index_rows *r)
{
	size_t cap, nz;

	if (r->stage_len == 0)
		return;
	cap = ZSTD_compressBound(r->stage_len);
	if (r->ix->pack_cctx == NULL &&
	    (r->ix->pack_cctx = ZSTD_createCCtx()) == NULL)
		jp_errx(EXIT_TROUBLE, "out of memory making a zstd context");
	if (r->frames_len + cap > r->frames_cap) {
		r->frames_cap = (r->frames_len + cap) * 2;
		r->frames = xreallocarray(r->frames, r->frames_cap, 1);
	}
	nz = ZSTD_compressCCtx(r->ix->pack_cctx, r->frames + r->frames_len,
	    cap, r->stage, r->stage_len, PACKED_LEVEL);
	if (ZSTD_isError(nz)) {
		if (r->zerror == 0)
			r->zerror = nz;
	} else
		r->frames_len += nz;
	r->pack_len += r->stage_len;
	r->stage_len = 0;
}

/* Room for n more bytes of packed cells: where they go. */
static unsigned char *
pack_room(struct index_rows *r, size_t n)
{
	if (r->stage_len + n > r->stage_cap) {
		compress_stage(r);
		/* A text longer than a stage gets a stage of its own. */
		if (n > r->stage_cap) {
			r->stage_cap = n > PACKED_STAGE_BYTES ? n :
			    PACKED_STAGE_BYTES;
			free(r->stage);
			r->stage = xmalloc(r->stage_cap);
		}
	}
	return r->stage + r->stage_len;
}

/*
 * The number of kept text s when the packed row holds it already; else
 * -1, and it is remembered as the text the caller packs next.
 */
static int64_t
packed_ref(struct packed_refs *refs, const char *s)
{
	size_t slot = (size_t)(((uint64_t)(uintptr_t)s *
	    UINT64_C(0x9e3779b97f4a7c15)) >> 56) % PACKED_REF_SLOTS;

	if (refs->text[slot] == s)
		return refs->number[slot];
	refs->text[slot] = s;
	refs->number[slot] = refs->ntexts;
	return -1;
}

/* A cell packed (index-int.h). */
static void
pack_cell(struct index_rows *r, const struct cell *c)
{
	unsigned char *p;
	const char *text;
	int64_t ref;
	uint64_t v;
	size_t n;

	switch (c->kind) {
	case CELL_NULL:
		*pack_room(r, 1) = PACKED_NULL;
		r->stage_len++;
		break;
	case CELL_INT:
		/* Zigzag: 0, -1, 1, -2... as 0, 1, 2, 3... */
		v = c->u.i < 0 ? (uint64_t)(-(c->u.i + 1)) << 1 | 1 :
		    (uint64_t)c->u.i << 1;
		p = pack_room(r, 11);
		*p++ = PACKED_INT;
		r->stage_len = (size_t)(varint_put(p, v) - r->stage);
		break;
	case CELL_KEPT:
		if ((ref = packed_ref(&r->refs, c->u.text)) != -1) {
			p = pack_room(r, 11);
			*p++ = PACKED_REF;
			r->stage_len = (size_t)(varint_put(p, (uint64_t)ref) -
			    r->stage);
			break;
		}
		/* FALLTHROUGH */
	case CELL_TEXT:
	case CELL_COPY:
		text = c->kind == CELL_COPY ? r->copies + c->u.copy :
		    c->u.text;
		n = strlen(text) + 1;
		p = pack_room(r, n + 1);
		*p = PACKED_TEXT;
		memcpy(p + 1, text, n);
		r->stage_len += n + 1;
		r->refs.ntexts++;
		break;
	}
}

/* The rows packed so far, compressed into a row of packed_rows. */
static int
write_packed(struct index_rows *r, char **cause)
{
	sqlite3_stmt *st;
	int rc;

	if (r->pack_rows == 0)
		return 0;
	compress_stage(r);
	if (r->zerror != 0) {
		*cause = xasprintf("cannot compress the rows of %s: %s",
		    r->table, ZSTD_getErrorName(r->zerror));
		return -1;
	}
	st = index_cached(r->ix, "INSERT INTO packed_rows(file_id, tbl, "
	    "rows, size, data) VALUES (?, ?, ?, ?, ?)");
	sqlite3_bind_int64(st, 1, r->pack_file);
	sqlite3_bind_text(st, 2, r->table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, r->pack_rows);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)r->pack_len);
	sqlite3_bind_blob(st, 5, r->frames, (int)r->frames_len,
	    SQLITE_STATIC);
	rc = index_step(r->ix, st, cause);
	r->pack_len = 0;
	r->frames_len = 0;
	r->pack_rows = 0;
	memset(&r->refs, 0, sizeof r->refs);
	return rc;
}

/* The waiting rows packed; PACKED_BLOB_BYTES start a new packed row. */
static int
pack_waiting(struct index_rows *r, char **cause)
{
	int i, c;

	for (i = 0; i < r->nrows; i++) {
		const struct cell *row = &r->cells[i * r->ncols];

		/* A writer serves one file's store (index-write.c). */
		assert(r->pack_rows == 0 || row[0].u.i == r->pack_file);
		r->pack_file = row[0].u.i;
		for (c = 0; c < r->ncols; c++)
			pack_cell(r, &row[c]);
		r->pack_rows++;
		if (r->pack_len + r->stage_len >= PACKED_BLOB_BYTES &&
		    write_packed(r, cause) == -1)
			return -1;
	}
	return 0;
}

/* The rows waiting in cells inserted, or packed. */
static int
drain(struct index_rows *r, char **cause)
{
	int i, rc = 0;

	if (r->packing)
		rc = pack_waiting(r, cause);
	else if (r->nrows == r->max_rows)
		rc = insert(r, statement(r, &r->many, r->max_rows), 0,
		    r->nrows, cause);
	else
		for (i = 0; i < r->nrows && rc == 0; i++)
			rc = insert(r, statement(r, &r->one, 1), i, 1, cause);
	r->nrows = 0;
	r->copies_len = 0;
	memset(r->cells, 0, (size_t)r->ncols * sizeof *r->cells);
	return rc;
}

int
index_rows_flush(struct index_rows *r, char **cause)
{
	if (drain(r, cause) == -1)
		return -1;
	return r->packing ? write_packed(r, cause) : 0;
}

int
index_rows_end(struct index_rows *r, char **cause)
{
	if (++r->nrows == r->max_rows)
		return drain(r, cause);
	if (r->nrows == r->cap_rows) {
		r->cap_rows = r->cap_rows * 2 < r->max_rows ? r->cap_rows * 2 :
		    r->max_rows;
		r->cells = xreallocarray(r->cells,
		    (size_t)r->cap_rows * (size_t)r->ncols, sizeof *r->cells);
	}
	memset(cell_at(r, 1), 0, (size_t)r->ncols * sizeof *r->cells);
	return 0;
}
