/* table | csv | json | markdown rendering of report rows. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "lib/json-string.h"
#include "lib/ptime.h"
#include "lib/units.h"
#include "lib/term.h"
#include "lib/utf8.h"
#include "lib/xmalloc.h"

#define TABLE_MAX_NAME	80	/* longer names are cut in tables */
#define SCREEN_NAME_MIN	20	/* a name column narrower tells nothing */
#define ELLIPSIS	"\xe2\x80\xa6"	/* U+2026, a column wide */

static int keep_every_column;	/* --wide */

void
output_set_wide(int wide)
{
	keep_every_column = wide;
}

/* The width of the terminal stdout is, when fp is stdout; else 0. */
static size_t
screen_width(FILE *fp)
{
	return fp == stdout ? term_width(fp) : 0;
}

const char output_formats[] = "table, csv, json, markdown";

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

static void
line_put(struct line *l, const char *s, size_t n)
{
	line_reserve(l, n);
	memcpy(l->s + l->len, s, n);
	l->len += n;
	l->s[l->len] = '\0';
}

#define REPLACEMENT	"\xef\xbf\xbd"	/* U+FFFD */
/* Markdown characters that could begin markup: escaped by a backslash. */
static const char md_markup[] = "\\`*_[]<!|~&$#";

/*
 * Whether markdown shows the printable ASCII ch of s[i] as it is: '_'
 * between letters or digits starts no emphasis.
 */
static int
md_literal(const unsigned char *s, size_t i, size_t n)
{
	if (strchr(md_markup, s[i]) == NULL)
		return 1;
	return s[i] == '_' && i > 0 && i + 1 < n &&
	    isalnum(s[i - 1]) && isalnum(s[i + 1]);
}

static void
put_line(void *l, const char *s, size_t n)
{
	line_put(l, s, n);
}

/*
 * Appends the characters s[0, n) rendered for fmt to l (code: inside a
 * name's code span; cell: in a markdown table row); returns how many
 * columns they take, a character each (none in JSON).  Controls (C0,
 * DEL, C1) become '?' and bytes that are not UTF-8 U+FFFD; JSON escapes
 * them as every JSON string is (json-string.h).
 */
static size_t
render_chars(struct line *l, const unsigned char *s, size_t n,
    enum out_format fmt, int code, int cell)
{
	size_t i = 0, width = 0, len;
	char esc[8];

	if (fmt == FMT_JSON) {
		json_escape((const char *)s, n, put_line, l);
		return 0;
	}
	while (i < n) {
		unsigned ch = s[i];

		len = utf8_char_len(s + i, n - i);
		if (utf8_is_control(s + i, n - i)) {
			/* CSV quotes a field holding a line break. */
			if (fmt == FMT_CSV && (ch == '\n' || ch == '\r' ||
			    ch == '\t'))
				line_put(l, (const char *)s + i, 1);
			else
				line_put(l, "?", 1);
		} else if (ch >= 0x80 && len == 1)
			line_put(l, REPLACEMENT, 3);
		else if (ch >= 0x80)
			line_put(l, (const char *)s + i, len);
		else if (fmt == FMT_HTML && strchr("&<>\"'", (int)ch) != NULL) {
			snprintf(esc, sizeof esc, "&#%u;", ch);
			line_put(l, esc, strlen(esc));
		} else if (fmt == FMT_MARKDOWN && (code ? cell && ch == '|' :
		    !md_literal(s, i, n))) {
			esc[0] = '\\';
			esc[1] = (char)ch;
			line_put(l, esc, 2);
			width++;
		} else
			line_put(l, (const char *)s + i, 1);
		width++;
		i += len;
	}
	return width;
}

/* A name's code span: `name`, <code>name</code>, markdown's fenced. */
static size_t
render_code(struct line *l, const unsigned char *s, size_t n,
    enum out_format fmt, int cell)
{
	size_t i, run = 0, longest = 0, fence, width;
	int pad;

	if (fmt == FMT_HTML) {
		line_put(l, "<code>", 6);
		width = render_chars(l, s, n, fmt, 1, cell);
		line_put(l, "</code>", 7);
		return width;
	}
	if (fmt != FMT_MARKDOWN) {
		line_put(l, "`", 1);
		width = render_chars(l, s, n, fmt, 1, cell);
		line_put(l, "`", 1);
		return width + 2;
	}
	if (n == 0)
		return 0;
	/* A fence longer than any run of backticks in the name. */
	for (i = 0; i < n; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	fence = longest + 1;
	pad = s[0] == '`' || s[0] == ' ' || s[n - 1] == '`' ||
	    s[n - 1] == ' ';
	for (i = 0; i < fence; i++)
		line_put(l, "`", 1);
	if (pad)
		line_put(l, " ", 1);
	width = render_chars(l, s, n, fmt, 1, cell);
	if (pad)
		line_put(l, " ", 1);
	for (i = 0; i < fence; i++)
		line_put(l, "`", 1);
	return width + 2 * fence + 2 * (size_t)pad;
}

/*
 * Appends text rendered for fmt to l: its names marked by OUT_CODE and
 * OUT_END_CODE as code spans, the rest as plain text (markdown escaped).
 * Returns the columns it takes.
 */
static size_t
render(struct line *l, const char *text, enum out_format fmt, int cell)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text), i = 0, width = 0;

	line_reserve(l, 0);
	l->s[l->len] = '\0';
	/* Markdown: a line that starts like a list or heading does not. */
	if (fmt == FMT_MARKDOWN && !cell && n > 0 &&
	    strchr("-+=>", s[0]) != NULL) {
		line_put(l, "\\", 1);
		width++;
	}
	while (i < n) {
		const unsigned char *open = memchr(s + i, OUT_CODE[0], n - i);
		const unsigned char *close;
		size_t end = open != NULL ? (size_t)(open - s) : n;

		width += render_chars(l, s + i, end - i, fmt, 0, cell);
		if (open == NULL)
			break;
		i = end + 1;
		close = memchr(s + i, OUT_END_CODE[0], n - i);
		end = close != NULL ? (size_t)(close - s) : n;
		width += render_code(l, s + i, end - i, fmt, cell);
		i = close != NULL ? end + 1 : n;
	}
	return width;
}

void
output_prose(FILE *fp, enum out_format fmt, const char *text)
{
	struct line l = { NULL, 0, 0 };

	if (fmt == FMT_JSON)
		line_put(&l, "\"", 1);
	(void)render(&l, text, fmt, 0);
	if (fmt == FMT_JSON)
		line_put(&l, "\"", 1);
	fwrite(l.s, 1, l.len, fp);
	free(l.s);
}

void
output_json_string(FILE *fp, const char *s)
{
	output_prose(fp, FMT_JSON, s);
}

/* 16 bytes: a long table keeps every cell until it is rendered. */
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
	int		 terminal;	/* a table for a person at a terminal */
	size_t		 screen;	/* its width to fit; 0: any */
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
	if (fmt == FMT_TABLE && (o->screen = screen_width(fp)) > 0) {
		o->terminal = 1;
		if (keep_every_column)
			o->screen = 0;
	}
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
 * Whether a table shows c's text as it is (nothing to escape, replace or
 * cut: see add_table_text()), and its display width then, a column a
 * character.
 */
static void
measure_cell(struct cell *c, int markdown, int whole)
{
	const unsigned char *s = (const unsigned char *)(c->text != NULL ?
	    c->text : "");
	size_t i = 0, n = strlen((const char *)s), width = 0, len;

	c->plain = 1;
	while (i < n) {
		len = utf8_char_len(s + i, n - i);
		if (utf8_is_control(s + i, n - i) || s[i] == OUT_CODE[0] ||
		    (s[i] >= 0x80 && len == 1) ||
		    (markdown && s[i] < 0x80 && !md_literal(s, i, n)))
			c->plain = 0;
		width++;
		i += len;
	}
	if ((!markdown && !whole && !c->numeric && width > TABLE_MAX_NAME) ||
	    n >= (1u << 30))	/* too long for width's bits */
		c->plain = 0;
	c->len = (uint32_t)n;
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

/* The column the next cell goes in, NULL past the last. */
static const struct out_col *
next_col(const struct output *o)
{
	return o->ncells < o->ncols ? &o->cols[o->ncells] : NULL;
}

/* Adds v of the next column with its SI unit; 0 if it has none. */
static int
put_si(struct output *o, double v)
{
	static const struct {
		const char	*unit;
		double		 scale;
	} units[] = {
		[UNIT_FLOP] = { "FLOP", 1 }, [UNIT_BYTE] = { "B", 1 },
		[UNIT_GFLOP_S] = { "FLOP/s", 1e9 },
		[UNIT_GB_S] = { "B/s", 1e9 },
	};
	const struct out_col *c = next_col(o);
	char *buf;

	if (!o->terminal || c == NULL || c->unit == UNIT_NONE)
		return 0;
	buf = number_room(o);
	fmt_si(buf, NUMBER_MAX, v * units[c->unit].scale, units[c->unit].unit);
	put_number(o, buf, strlen(buf));
	return 1;
}

void
output_int(struct output *o, int64_t v)
{
	char buf[32], *p = buf + sizeof buf;
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;	/* INT64_MIN too */

	if (put_si(o, (double)v))
		return;
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

void
output_uint(struct output *o, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%" PRIu64, v);
	put_cell(o, buf, 1);
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
	if (put_si(o, v))
		return;
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
output_flag(struct output *o, int v, const char *mark)
{
	if (o->fmt == FMT_TABLE || o->fmt == FMT_MARKDOWN)
		put_cell(o, v ? mark : "", 0);
	else
		put_cell(o, v ? "true" : "false", 1);	/* JSON's literal */
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

/* A CSV field: made safe as table text is, quoted when it must be. */
static void
csv_field(FILE *fp, const char *text)
{
	struct line l = { NULL, 0, 0 };
	const char *s;

	(void)render(&l, text, FMT_CSV, 0);
	if (strpbrk(l.s, ",\"\r\n") == NULL)
		fputs(l.s, fp);
	else {
		fputc('"', fp);
		for (s = l.s; *s != '\0'; s++) {
			if (*s == '"')
				fputc('"', fp);
			fputc(*s, fp);
		}
		fputc('"', fp);
	}
	free(l.s);
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
			output_json_string(o->fp, o->cols[i].name);
			fputs(": ", o->fp);
			if (o->row[i].text == NULL)
				fputs("null", o->fp);
			else if (o->row[i].numeric)
				fputs(o->row[i].text, o->fp);
			else
				output_json_string(o->fp, o->row[i].text);
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
 * Appends the cell's table text rendered (see render()), a long name cut
 * to TABLE_MAX_NAME columns on a character's boundary; returns its width.
 */
static size_t
add_table_text(struct line *l, const struct cell *c, int markdown, int whole)
{
	size_t start = l->len, width;

	width = render(l, c->text != NULL ? c->text : "", markdown ?
	    FMT_MARKDOWN : FMT_TABLE, 1);
	if (!markdown && !whole && !c->numeric && width > TABLE_MAX_NAME) {
		l->len = start + utf8_head(l->s + start, TABLE_MAX_NAME - 3);
		line_put(l, "...", 3);
		width = TABLE_MAX_NAME;
	}
	return width;
}

static void
pad(FILE *fp, size_t n)
{
	while (n-- > 0)
		fputc(' ', fp);
}

/* Column i's header; SI rates at a terminal carry their own prefix. */
static const char *
header_of(const struct output *o, size_t i)
{
	const struct out_col *c = &o->cols[i];

	if (o->terminal && c->unit == UNIT_GFLOP_S)
		return "FLOP/s";
	if (o->terminal && c->unit == UNIT_GB_S)
		return "B/s";
	return c->header != NULL ? c->header : c->name;
}

/*
 * Cuts the rendered text at l->s + start, width columns, to fit columns:
 * its middle gives way to U+2026, a name's head and tail both tell.
 */
static size_t
cut_middle(struct line *l, size_t start, size_t width, size_t fit)
{
	char *text, *tail;
	size_t head, keep;

	if (width <= fit)
		return width;
	text = xstrdup(l->s + start);
	keep = fit - 1;
	head = utf8_head(text, keep - keep / 2);
	tail = (char *)utf8_tail(text, keep / 2);
	l->len = start;
	line_put(l, text, head);
	line_put(l, ELLIPSIS, strlen(ELLIPSIS));
	line_put(l, tail, strlen(tail));
	free(text);
	return fit;
}

/*
 * Rows [from, to) of a table whose columns are width wide (those shown),
 * appended to line; written to fp by the batch unless fp is NULL (then
 * kept whole).
 */
static void
render_rows(const struct output *o, const size_t *width,
    const unsigned char *shown, size_t from, size_t to, struct line *line,
    FILE *fp)
{
	int md = o->fmt == FMT_MARKDOWN;
	struct line text = { NULL, 0, 0 };
	size_t r, i;

	for (r = from; r < to; r++) {
		size_t row_start = line->len, nth = 0;
		char *out;

		for (i = 0; i < o->ncols; i++) {
			const struct cell *c = &o->rows[r * o->ncols + i];
			int right = o->cols[i].type != COL_STR;
			const char *t = c->text != NULL ? c->text : "";
			size_t w = c->width, len = c->len;

			if (!shown[i])
				continue;
			if (!c->plain || w > width[i]) {
				text.len = 0;
				w = add_table_text(&text, c, md,
				    o->whole || o->terminal);
				w = cut_middle(&text, 0, w, width[i]);
				t = text.s;
				len = text.len;
			}
			out = cell_start(line, md, nth++, len + width[i] - w);
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

/* Whether some row of a table has a value in column i. */
static int
column_used(const struct output *o, size_t i)
{
	size_t r;

	for (r = 0; r < o->nrows; r++) {
		const struct cell *c = &o->rows[r * o->ncols + i];

		if (c->text != NULL && c->len > 0)
			return 1;
	}
	return 0;
}

/* The narrowest a terminal's table cuts column i to. */
static size_t
least_width(const struct output *o, const size_t *width, size_t i)
{
	size_t least = strlen(header_of(o, i));

	if (o->cols[i].type != COL_STR)
		return width[i];
	if (least < SCREEN_NAME_MIN)
		least = SCREEN_NAME_MIN;
	return least < width[i] ? least : width[i];
}

/* The columns the shown ones take, names at their narrowest if least. */
static size_t
table_width(const struct output *o, const size_t *width,
    const unsigned char *shown, int least)
{
	size_t i, total = 0, n = 0;

	for (i = 0; i < o->ncols; i++)
		if (shown[i]) {
			total += least ? least_width(o, width, i) : width[i];
			n++;
		}
	return total + (n > 0 ? 2 * (n - 1) : 0);
}

/*
 * The shown column a table too wide leaves out first: the largest drop,
 * the rightmost of equals; the rightmost when none has a drop.  SIZE_MAX
 * when one column is left.
 */
static size_t
column_to_leave(const struct output *o, const unsigned char *shown)
{
	size_t i, best = SIZE_MAX, n = 0, last = SIZE_MAX;

	for (i = 0; i < o->ncols; i++) {
		if (!shown[i])
			continue;
		n++;
		last = i;
		if (o->cols[i].drop > 0 && (best == SIZE_MAX ||
		    o->cols[i].drop >= o->cols[best].drop))
			best = i;
	}
	if (n < 2)
		return SIZE_MAX;
	return best != SIZE_MAX ? best : last;
}

/*
 * Fits a terminal's table to o->screen: leaves out the least important
 * columns until the rest fit with names at their narrowest, then cuts
 * the widest names.  Says under the table what it left out.
 */
static void
fit_screen(struct output *o, size_t *width, unsigned char *shown)
{
	char *left = NULL, *more;
	size_t i, excess, n = 0;

	while (table_width(o, width, shown, 1) > o->screen &&
	    (i = column_to_leave(o, shown)) != SIZE_MAX) {
		shown[i] = 0;
		more = xasprintf("%s%s%s", left != NULL ? left : "",
		    left != NULL ? ", " : "", header_of(o, i));
		free(left);
		left = more;
		n++;
	}
	while (table_width(o, width, shown, 0) > o->screen) {
		size_t widest = SIZE_MAX, cut;

		for (i = 0; i < o->ncols; i++)
			if (shown[i] && width[i] > least_width(o, width, i) &&
			    (widest == SIZE_MAX || width[i] > width[widest]))
				widest = i;
		if (widest == SIZE_MAX)
			break;
		excess = table_width(o, width, shown, 0) - o->screen;
		cut = width[widest] - least_width(o, width, widest);
		width[widest] -= cut < excess ? cut : excess;
	}
	if (left != NULL) {
		more = xasprintf("Left out to fit %zu columns: %s; --wide "
		    "shows %s.", o->screen, left, n == 1 ? "it" : "them");
		output_note(o, more);
		free(more);
		free(left);
	}
}

/*
 * Writes text, rendered, to o's stream; at a terminal in lines that fit
 * it, broken at blanks.
 */
static void
put_prose(const struct output *o, const char *text)
{
	struct line l = { NULL, 0, 0 };

	(void)render(&l, text, o->fmt, 0);
	term_put_folded(o->fp, l.s, l.len, o->screen);
	free(l.s);
}

static void
render_grid(struct output *o)
{
	int md = o->fmt == FMT_MARKDOWN;
	size_t *width = xcalloc(o->ncols, sizeof *width);
	unsigned char *shown = xcalloc(o->ncols, 1);
	struct line text = { NULL, 0, 0 };
	size_t r, i, nth;

	for (i = 0; i < o->ncols; i++) {
		width[i] = strlen(header_of(o, i));
		if (md && width[i] < 3)
			width[i] = 3;
		/* A column empty on every row tells nothing in a table. */
		shown[i] = md || o->nrows == 0 || column_used(o, i);
	}
	for (r = 0; r < o->nrows; r++)
		for (i = 0; i < o->ncols; i++) {
			const struct cell *c = &o->rows[r * o->ncols + i];
			size_t w = c->width;

			if (!c->plain) {
				text.len = 0;
				w = add_table_text(&text, c, md,
				    o->whole || o->terminal);
			}
			if (w > width[i])
				width[i] = w;
		}
	if (o->terminal && !o->whole)
		for (i = 0; i < o->ncols; i++)
			if (o->cols[i].type == COL_STR &&
			    width[i] > TABLE_MAX_NAME)
				width[i] = TABLE_MAX_NAME;
	if (o->screen > 0)
		fit_screen(o, width, shown);
	for (i = 0; i < o->ntitles; i++)
		put_prose(o, o->titles[i]);
	if (o->ntitles > 0)
		fputc('\n', o->fp);
	/* Header: numbers are right-aligned, names left. */
	for (i = 0, nth = 0; i < o->ncols; i++) {
		int right = o->cols[i].type != COL_STR;
		size_t w = strlen(header_of(o, i)), k;

		if (!shown[i])
			continue;
		fputs(md ? "| " : (nth++ > 0 ? "  " : ""), o->fp);
		if (right)
			pad(o->fp, width[i] - w);
		fputs(header_of(o, i), o->fp);
		for (k = i + 1; k < o->ncols && !shown[k]; k++)
			;
		if (!right && (md || k < o->ncols))
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

		render_rows(o, width, shown, 0, o->nrows, &line, o->fp);
		free(line.s);
	}
	if (o->nnotes > 0)
		fputc('\n', o->fp);
	for (i = 0; i < o->nnotes; i++)
		put_prose(o, o->notes[i]);
	free(text.s);
	free(shown);
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
