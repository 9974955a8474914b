/* table | csv | json | markdown rendering of report rows. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "lib/ptime.h"
#include "lib/units.h"
#include "lib/utf8.h"
#include "lib/xmalloc.h"

#define TABLE_MAX_NAME	80	/* longer names are cut in tables */

const char output_formats[] = "table, csv, json, markdown";

/* 16 bytes: a table of 15,000 rows keeps 200,000 of them. */
struct cell {
	const char *text;	/* in the output's texts; NULL: no value */
	/* Tables: the text shows as it is (len bytes, width columns). */
	uint32_t len;
	uint32_t width : 30;
	uint32_t numeric : 1;	/* JSON: emit unquoted */
	uint32_t plain : 1;
};

/*
 * Cell texts, copied into big blocks: a long report has hundreds of
 * thousands of cells, too many for a malloc each.
 */
struct texts {
	char	**blocks;
	size_t	  nblocks;
	size_t	  used, size;	/* of the last block */
	size_t	  first_size;
};

#define TEXTS_BLOCK	(64 * 1024)
#define NUMBER_MAX	64	/* a formatted number's bytes, at most */
#define LINES_BATCH	(64 * 1024)	/* table rows written at once */

struct output {
	enum out_format	 fmt;
	FILE		*fp;
	const struct out_col *cols;
	size_t		 ncols;
	struct cell	*row;		/* the row being filled */
	size_t		 ncells;
	struct cell	*rows;		/* table/markdown: all rows */
	size_t		 nrows, rowcap;
	struct texts	 texts;		/* the cells' */
	char		**titles, **notes;
	size_t		 ntitles, nnotes;
	size_t		 emitted;	/* json: rows written */
	int		 whole;		/* table text is never cut */
};

int
output_parse_format(const char *s, enum out_format *fmt)
{
	if (strcmp(s, "table") == 0)
		*fmt = FMT_TABLE;
	else if (strcmp(s, "csv") == 0)
		*fmt = FMT_CSV;
	else if (strcmp(s, "json") == 0)
		*fmt = FMT_JSON;
	else if (strcmp(s, "markdown") == 0 || strcmp(s, "md") == 0)
		*fmt = FMT_MARKDOWN;
	else
		return -1;
	return 0;
}

struct output *
output_new(enum out_format fmt, FILE *fp, const struct out_col *cols,
    size_t ncols)
{
	struct output *o = xcalloc(1, sizeof *o);

	o->fmt = fmt;
	o->fp = fp;
	o->cols = cols;
	o->ncols = ncols;
	o->row = xcalloc(ncols, sizeof *o->row);
	if (fmt == FMT_CSV) {
		size_t i;

		for (i = 0; i < ncols; i++)
			fprintf(fp, "%s%s", i > 0 ? "," : "", cols[i].name);
		fputc('\n', fp);
	}
	return o;
}

static void
push_line(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

void
output_whole_text(struct output *o)
{
	o->whole = 1;
}

void
output_title(struct output *o, const char *line)
{
	push_line(&o->titles, &o->ntitles, line);
}

void
output_note(struct output *o, const char *line)
{
	push_line(&o->notes, &o->nnotes, line);
}

/* Room for n bytes in t, taken by texts_take(). */
static char *
texts_room(struct texts *t, size_t n)
{
	if (t->nblocks == 0 || t->used + n > t->size) {
		t->size = n > TEXTS_BLOCK ? n : TEXTS_BLOCK;
		t->blocks = xreallocarray(t->blocks, t->nblocks + 1,
		    sizeof *t->blocks);
		t->blocks[t->nblocks++] = xmalloc(t->size);
		t->used = 0;
		if (t->nblocks == 1)
			t->first_size = t->size;
	}
	return t->blocks[t->nblocks - 1] + t->used;
}

/* Keeps the first n bytes of the last texts_room(). */
static void
texts_take(struct texts *t, size_t n)
{
	t->used += n;
}

/* A copy of s (len bytes) in t. */
static const char *
texts_copy(struct texts *t, const char *s, size_t len)
{
	char *p = texts_room(t, len + 1);

	memcpy(p, s, len + 1);
	texts_take(t, len + 1);
	return p;
}

/* Forgets every text, keeping a first block of the usual size. */
static void
texts_clear(struct texts *t)
{
	size_t keep = t->nblocks > 0 && t->first_size == TEXTS_BLOCK;

	while (t->nblocks > keep)
		free(t->blocks[--t->nblocks]);
	t->used = 0;
	t->size = TEXTS_BLOCK;
}

static void
texts_release(struct texts *t)
{
	while (t->nblocks > 0)
		free(t->blocks[--t->nblocks]);
	free(t->blocks);
}

/*
 * Whether a table shows c's text as it is (no control character, '|' in
 * markdown or name to cut: see add_table_text()), and its display width
 * then (UTF-8 continuation bytes take no column).
 */
static void
measure_cell(struct cell *c, int markdown, int whole)
{
	const unsigned char *s = (const unsigned char *)(c->text != NULL ?
	    c->text : "");
	size_t i, width = 0;

	c->plain = 1;
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < 0x20 || s[i] == 0x7f || (markdown && s[i] == '|'))
			c->plain = 0;
		width += (s[i] & 0xc0) != 0x80;
	}
	if ((!markdown && !whole && !c->numeric && i > TABLE_MAX_NAME) ||
	    i >= (1u << 30))	/* too long for width's bits */
		c->plain = 0;
	c->len = (uint32_t)i;
	c->width = (uint32_t)width;	/* read only when plain */
}

/*
 * Whether the text cell c of a table holds text, as the cell above it
 * does: then it shares that one's copy and measure.  A run, host or
 * device repeats down thousands of rows.
 */
static int
same_as_above(const struct output *o, struct cell *c, const char *text)
{
	const struct cell *above;

	if (o->nrows == 0)
		return 0;
	above = &o->rows[(o->nrows - 1) * o->ncols + (size_t)(c - o->row)];
	if (above->text == NULL || above->numeric ||
	    strcmp(above->text, text) != 0)
		return 0;
	*c = *above;
	return 1;
}

/* Adds the next cell of the row: a copy of text, or none when NULL. */
static void
put_cell(struct output *o, const char *text, int numeric)
{
	int table = o->fmt == FMT_TABLE || o->fmt == FMT_MARKDOWN;
	struct cell *c;
	size_t len;

	if (o->ncells >= o->ncols)
		return;
	c = &o->row[o->ncells++];
	c->numeric = numeric != 0;
	if (text == NULL) {
		c->text = NULL;
		if (table)
			measure_cell(c, o->fmt == FMT_MARKDOWN, o->whole);
		return;
	}
	if (!numeric && table && same_as_above(o, c, text))
		return;
	len = strlen(text);
	c->text = texts_copy(&o->texts, text, len);
	if (numeric) {
		c->plain = 1;
		c->len = c->width = (uint32_t)len;	/* a number: a few bytes */
	} else if (table)
		measure_cell(c, o->fmt == FMT_MARKDOWN, o->whole);
}

/*
 * Room for the next cell's number, formatted there by the caller and
 * added by put_number(): no copy.
 */
static char *
number_room(struct output *o)
{
	return texts_room(&o->texts, NUMBER_MAX);
}

/*
 * Adds the number of len bytes just formatted at number_room(): ours,
 * printable ASCII, so it shows as it is, a column a byte, unmeasured.
 */
static void
put_number(struct output *o, const char *text, size_t len)
{
	struct cell *c;

	if (o->ncells >= o->ncols)
		return;
	c = &o->row[o->ncells++];
	texts_take(&o->texts, len + 1);
	c->text = text;
	c->numeric = 1;
	c->plain = 1;
	c->len = c->width = (uint32_t)len;
}

void
output_str(struct output *o, const char *s)
{
	put_cell(o, s != NULL ? s : "", 0);
}

void
output_int(struct output *o, int64_t v)
{
	char buf[32], *p = buf + sizeof buf;
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;	/* INT64_MIN too */

	/* Digits from the end, without printf (reports print many). */
	*--p = '\0';
	do {
		*--p = (char)('0' + m % 10);
		m /= 10;
	} while (m > 0);
	if (v < 0)
		*--p = '-';
	put_cell(o, p, 1);
}

/* Machine formats get µs with 3 decimals; tables get human units. */
void
output_ps(struct output *o, double ps)
{
	char *buf;

	/* No number at all (JSON has no NaN): a null cell. */
	if (!isfinite(ps)) {
		output_null(o);
		return;
	}
	buf = number_room(o);
	if (o->fmt == FMT_TABLE || o->fmt == FMT_MARKDOWN) {
		put_number(o, buf, fmt_duration_len(buf, NUMBER_MAX,
		    ps_from_double(ps)));
		return;
	}
	fmt_ps_fixed(buf, NUMBER_MAX, ps, 1000000, 3);
	put_number(o, buf, strlen(buf));
}

void
output_double(struct output *o, double v)
{
	enum col_type type = o->ncells < o->ncols ?
	    o->cols[o->ncells].type : COL_RATE;
	char *buf;

	if (!isfinite(v)) {
		output_null(o);
		return;
	}
	buf = number_room(o);
	if (type == COL_BYTES && (o->fmt == FMT_TABLE ||
	    o->fmt == FMT_MARKDOWN)) {
		fmt_bytes(buf, NUMBER_MAX, ps_from_double(v));
		put_number(o, buf, strlen(buf));
		return;
	}
	/* Machine formats: bytes are a whole number, like every base unit. */
	if (type == COL_REAL || type == COL_STR || type == COL_INT) {
		/* 15 significant digits, as sqlite3 prints; locale-free. */
		char *p;

		snprintf(buf, NUMBER_MAX, "%.15g", v);
		for (p = buf; *p != '\0'; p++)
			if (*p == ',')
				*p = '.';
		put_number(o, buf, strlen(buf));
		return;
	}
	fmt_fixed(buf, NUMBER_MAX, v, type == COL_PCT ? 2 :
	    type == COL_BYTES ? 0 : 3);
	if (type == COL_PCT && (o->fmt == FMT_TABLE || o->fmt == FMT_MARKDOWN))
		strncat(buf, "%", NUMBER_MAX - strlen(buf) - 1);
	put_number(o, buf, strlen(buf));
}

void
output_bool(struct output *o, int v)
{
	if (o->fmt == FMT_TABLE || o->fmt == FMT_MARKDOWN)
		put_cell(o, v ? "yes" : "", 0);
	else
		put_cell(o, v ? "true" : "false", 1);
}

void
output_null(struct output *o)
{
	put_cell(o, NULL, 0);
}

void
output_more_rows(struct output *o, size_t shown, size_t total)
{
	char note[96];

	if (shown >= total)
		return;
	snprintf(note, sizeof note, "%zu more row%s; -n 0 shows all.",
	    total - shown, total - shown == 1 ? "" : "s");
	output_note(o, note);
}

static void
csv_field(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* s as a JSON string; a byte that is not valid UTF-8 becomes U+FFFD. */
static void
json_string(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, len;

	fputc('"', fp);
	while (i < n) {
		unsigned char ch = p[i];

		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", fp);
		else if (ch == '\t')
			fputs("\\t", fp);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else if (ch < 0x80)
			fputc(ch, fp);
		else if ((len = utf8_seq_len(p + i, n - i)) > 0) {
			fwrite(p + i, 1, len, fp);
			i += len;
			continue;
		} else
			fputs("\\ufffd", fp);
		i++;
	}
	fputc('"', fp);
}

void
output_end_row(struct output *o)
{
	size_t i;

	while (o->ncells < o->ncols)
		put_cell(o, NULL, 0);
	switch (o->fmt) {
	case FMT_CSV:
		for (i = 0; i < o->ncols; i++) {
			if (i > 0)
				fputc(',', o->fp);
			if (o->row[i].text != NULL)
				csv_field(o->fp, o->row[i].text);
		}
		fputc('\n', o->fp);
		break;
	case FMT_JSON:
	case FMT_NDJSON:
		if (o->fmt == FMT_JSON)
			fputs(o->emitted++ == 0 ? "[\n  " : ",\n  ", o->fp);
		fputc('{', o->fp);
		for (i = 0; i < o->ncols; i++) {
			if (i > 0)
				fputs(", ", o->fp);
			json_string(o->fp, o->cols[i].name);
			fputs(": ", o->fp);
			if (o->row[i].text == NULL)
				fputs("null", o->fp);
			else if (o->row[i].numeric)
				fputs(o->row[i].text, o->fp);
			else
				json_string(o->fp, o->row[i].text);
		}
		fputs(o->fmt == FMT_NDJSON ? "}\n" : "}", o->fp);
		break;
	default:	/* tables: every row is kept until output_finish() */
		if (o->nrows == o->rowcap) {
			o->rowcap = o->rowcap > 0 ? 2 * o->rowcap : 64;
			o->rows = xreallocarray(o->rows, o->rowcap,
			    o->ncols * sizeof *o->rows);
		}
		memcpy(o->rows + o->nrows * o->ncols, o->row,
		    o->ncols * sizeof *o->row);
		o->nrows++;
	}
	if (o->fmt == FMT_CSV || o->fmt == FMT_JSON || o->fmt == FMT_NDJSON)
		texts_clear(&o->texts);
	memset(o->row, 0, o->ncols * sizeof *o->row);
	o->ncells = 0;
}

void
output_discard(struct output *o)
{
	size_t i;

	texts_release(&o->texts);
	free(o->rows);
	free(o->row);
	for (i = 0; i < o->ntitles; i++)
		free(o->titles[i]);
	free(o->titles);
	for (i = 0; i < o->nnotes; i++)
		free(o->notes[i]);
	free(o->notes);
	free(o);
}

/* Lines being built: rows are rendered without a stdio stream each. */
struct line {
	char	*s;
	size_t	 len, cap;
};

static void
line_reserve(struct line *l, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		l->cap = 2 * (l->len + n + 1);
		l->s = xreallocarray(l->s, l->cap, 1);
	}
}

/* n blanks at out; returns their end. */
static char *
spaces(char *out, size_t n)
{
	memset(out, ' ', n);
	return out + n;
}

/*
 * Room for a table's cell i of n more bytes, and the separator before
 * it: returns where the cell goes.  Reserved once, written directly,
 * rather than appended piece by piece.
 */
static char *
cell_start(struct line *l, int markdown, size_t i, size_t n)
{
	char *out;

	line_reserve(l, n + 3);
	out = l->s + l->len;
	if (markdown || i > 0) {
		*out++ = markdown ? '|' : ' ';
		*out++ = ' ';
	}
	return out;
}

static void
line_add(struct line *l, const char *s)
{
	size_t n = strlen(s);

	line_reserve(l, n);
	memcpy(l->s + l->len, s, n + 1);
	l->len += n;
}

/*
 * Appends the cell's table text, control characters shown as '?', long
 * names cut; returns its display width (UTF-8 continuation bytes take no
 * column).
 */
static size_t
add_table_text(struct line *l, const struct cell *c, int markdown, int whole)
{
	const char *s = c->text != NULL ? c->text : "";
	size_t len = strlen(s), i, width = 0;
	char *out;

	line_reserve(l, len * 2 + 4);
	out = l->s + l->len;
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (!markdown && !whole && !c->numeric &&
		    i == TABLE_MAX_NAME - 3 && len > TABLE_MAX_NAME) {
			memcpy(out, "...", 3);
			out += 3;
			width += 3;
			break;
		}
		if (ch < 0x20 || ch == 0x7f)
			*out++ = '?';
		else {
			if (markdown && ch == '|') {
				*out++ = '\\';
				width++;
			}
			*out++ = (char)ch;
		}
		width += (ch & 0xc0) != 0x80;
	}
	*out = '\0';
	l->len = (size_t)(out - l->s);
	return width;
}


static void
pad(FILE *fp, size_t n)
{
	while (n-- > 0)
		fputc(' ', fp);
}

static const char *
header_of(const struct out_col *c)
{
	return c->header != NULL ? c->header : c->name;
}

/*
 * Rows [from, to) of a table whose columns are width wide, appended to
 * line; written to fp by the batch unless fp is NULL (then kept whole).
 */
static void
render_rows(const struct output *o, const size_t *width, size_t from,
    size_t to, struct line *line, FILE *fp)
{
	int md = o->fmt == FMT_MARKDOWN;
	struct line text = { NULL, 0, 0 };
	size_t r, i;

	for (r = from; r < to; r++) {
		size_t row_start = line->len;
		char *out;

		for (i = 0; i < o->ncols; i++) {
			const struct cell *c = &o->rows[r * o->ncols + i];
			int right = o->cols[i].type != COL_STR;
			const char *t = c->text != NULL ? c->text : "";
			size_t w = c->width, len = c->len;

			if (!c->plain) {
				text.len = 0;
				w = add_table_text(&text, c, md, o->whole);
				t = text.s;
				len = text.len;
			}
			out = cell_start(line, md, i, len + width[i] - w);
			if (right)
				out = spaces(out, width[i] - w);
			memcpy(out, t, len);
			out += len;
			if (!right)
				out = spaces(out, width[i] - w);
			if (md)
				*out++ = ' ';
			line->len = (size_t)(out - line->s);
		}
		if (md)
			line_add(line, "|");
		/* Empty cells at the end leave no trailing blanks. */
		while (line->len > row_start && line->s[line->len - 1] == ' ')
			line->len--;
		line->s[line->len++] = '\n';
		/* Rows go out by the batch: one write each was 500 calls. */
		if (fp != NULL && (line->len >= LINES_BATCH || r + 1 == to)) {
			fwrite(line->s, 1, line->len, fp);
			line->len = 0;
		}
	}
	free(text.s);
}

static void
render_grid(struct output *o)
{
	int md = o->fmt == FMT_MARKDOWN;
	size_t *width = xcalloc(o->ncols, sizeof *width);
	struct line text = { NULL, 0, 0 };
	size_t r, i;

	for (i = 0; i < o->ncols; i++) {
		width[i] = strlen(header_of(&o->cols[i]));
		if (md && width[i] < 3)
			width[i] = 3;
	}
	for (r = 0; r < o->nrows; r++)
		for (i = 0; i < o->ncols; i++) {
			const struct cell *c = &o->rows[r * o->ncols + i];
			size_t w = c->width;

			if (!c->plain) {
				text.len = 0;
				w = add_table_text(&text, c, md, o->whole);
			}
			if (w > width[i])
				width[i] = w;
		}
	for (i = 0; i < o->ntitles; i++)
		fprintf(o->fp, "%s\n", o->titles[i]);
	if (o->ntitles > 0)
		fputc('\n', o->fp);
	/* Header: numbers are right-aligned, names left. */
	for (i = 0; i < o->ncols; i++) {
		int right = o->cols[i].type != COL_STR;
		size_t w = strlen(header_of(&o->cols[i]));

		fputs(md ? "| " : (i > 0 ? "  " : ""), o->fp);
		if (right)
			pad(o->fp, width[i] - w);
		fputs(header_of(&o->cols[i]), o->fp);
		if (!right && (md || i + 1 < o->ncols))
			pad(o->fp, width[i] - w);
		if (md)
			fputc(' ', o->fp);
	}
	fputs(md ? "|\n" : "\n", o->fp);
	if (md) {
		for (i = 0; i < o->ncols; i++) {
			size_t k;

			fputs("|", o->fp);
			for (k = 0; k < width[i] + 1; k++)
				fputc('-', o->fp);
			fputc(o->cols[i].type != COL_STR ? ':' : '-', o->fp);
		}
		fputs("|\n", o->fp);
	}
	{
		struct line line = { NULL, 0, 0 };

		render_rows(o, width, 0, o->nrows, &line, o->fp);
		free(line.s);
	}
	if (o->nnotes > 0)
		fputc('\n', o->fp);
	for (i = 0; i < o->nnotes; i++)
		fprintf(o->fp, "%s\n", o->notes[i]);
	free(text.s);
	free(width);
}

int
output_finish(struct output *o)
{
	int rc;

	if (o->ncells > 0)
		output_end_row(o);
	if (o->fmt == FMT_JSON)
		fputs(o->emitted == 0 ? "[]\n" : "\n]\n", o->fp);
	else if (o->fmt == FMT_TABLE || o->fmt == FMT_MARKDOWN)
		render_grid(o);
	rc = fflush(o->fp) == 0 && !ferror(o->fp) ? 0 : -1;
	output_discard(o);
	return rc;
}
