/*
 * The one formatter every report prints through: table | csv | json |
 * markdown.  Reports describe columns and fill rows; they never printf.
 * CSV and JSON stream row by row; table and markdown buffer to size columns.
 *
 *	static const struct out_col cols[] = {
 *		{ "name", COL_STR }, { "total_us", COL_PS },
 *	};
 *	struct output *o = output_new(FMT_CSV, stdout, cols, 2);
 *	output_title(o, "Top ops by device time");   (table/markdown only)
 *	output_str(o, "fusion.1"); output_ps(o, 1234567); output_end_row(o);
 *	if (output_finish(o) == -1) ... write error ...
 */
#ifndef JAXPROF_OUTPUT_H
#define JAXPROF_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "lib/units.h"

enum out_format {
	FMT_TABLE,
	FMT_CSV,
	FMT_JSON,
	FMT_MARKDOWN,
	FMT_HTML,	/* text for summary's page: output_prose() only */
	FMT_NDJSON,	/* one JSON object a line (export; no --format) */
};

/*
 * Names are data, never commands or markup: every text printed, in cells,
 * titles, notes or through output_prose(), is made safe for its format.
 * A control character (C0, DEL, C1 as U+0080 to U+009F) shows as '?' and
 * a byte that is not UTF-8 as U+FFFD in table, markdown, csv and html,
 * and is escaped in json (csv keeps tabs and line breaks, quoted).
 * Markdown puts a backslash before what would begin markup
 * (` * _ [ ] < ! | ~ & $ #, and - + = > starting a line); html writes
 * & < > " ' as character references.  Tables count width and cut long
 * names by characters.
 *
 * A name inside a sentence goes between OUT_CODE and OUT_END_CODE:
 *	xasprintf("op " OUT_CODE "%s" OUT_END_CODE " takes %.1f%%", name, p)
 * shows as `name` in table, csv and json, as a code span that no
 * backtick in the name can end in markdown, as <code> in html.
 */
#define OUT_CODE	"\016"
#define OUT_END_CODE	"\017"

enum col_type {
	COL_STR,
	COL_INT,
	COL_PS,		/* picoseconds in; microseconds out (table: human) */
	COL_PCT,	/* a percentage, 2 decimals */
	COL_RATE,	/* a double, 3 decimals (GFLOP/s, GB/s); see RATE_MIN_PS */
	COL_BYTES,	/* bytes; table shows KiB/MiB/GiB */
	COL_REAL,	/* a double as precise as it comes (sql results) */
};

/* What a number counts, for SI units in a table at a terminal. */
enum col_unit {
	UNIT_NONE,
	UNIT_FLOP,	/* a count of FLOP: "1.37 TFLOP" */
	UNIT_BYTE,	/* a count of bytes: "3.36 GB" */
	UNIT_GFLOP_S,	/* GFLOP/s: "249.2 TFLOP/s" */
	UNIT_GB_S,	/* GB/s: "1.20 TB/s" */
};

struct out_col {
	const char	*name;	/* snake_case, unit in the name; JSON key */
	enum col_type	 type;
	const char	*header;	/* table/markdown header; NULL: name */
	/*
	 * A table too wide for the terminal leaves columns out, the largest
	 * drop first; 0: never left out (as long as any other can go).
	 */
	unsigned	 drop;
	enum col_unit	 unit;
};

/*
 * Tables at a terminal (stdout, fp a tty) fit its width: $COLUMNS, else
 * the terminal's.  There a table shows numbers with SI units, cuts long
 * names in the middle with U+2026, and leaves out the columns that do not
 * fit, saying so under the table.  Every table, piped or not, leaves out
 * the columns that are empty on every row (csv, json and markdown keep
 * them).  output_set_wide(1) (--wide) keeps every column at any width.
 */
void		 output_set_wide(int wide);

/* "table" etc. to the enum; -1 if unknown.  output_formats lists them. */
int		 output_parse_format(const char *s, enum out_format *fmt);
extern const char output_formats[];

struct output	*output_new(enum out_format fmt, FILE *fp,
		    const struct out_col *cols, size_t ncols);
/* Tables show text whole, not cut at 80 characters as names are. */
void		 output_whole_text(struct output *o);
/* A line above a table (table and markdown formats only). */
void		 output_title(struct output *o, const char *line);
/* A line below a table (table and markdown formats only). */
void		 output_note(struct output *o, const char *line);
void		 output_str(struct output *o, const char *s);
void		 output_int(struct output *o, int64_t v);
/* An unsigned 64-bit number (a program id), v's bits read unsigned. */
void		 output_uint(struct output *o, uint64_t v);
void		 output_ps(struct output *o, double ps);
void		 output_double(struct output *o, double v);
/* A yes or no: true or false in csv and json, mark or "" in tables. */
void		 output_flag(struct output *o, int v, const char *mark);
void		 output_null(struct output *o);
void		 output_end_row(struct output *o);
/* The note "N more rows; -n 0 shows all." when shown < total. */
void		 output_more_rows(struct output *o, size_t shown, size_t total);
/* text, names marked as above, rendered for fmt; no newline added. */
void		 output_prose(FILE *fp, enum out_format fmt, const char *text);
/* s as a quoted JSON string, as output_prose() writes it. */
void		 output_json_string(FILE *fp, const char *s);
/* Renders what is buffered and frees o; -1 if writing failed. */
int		 output_finish(struct output *o);
/* Frees o without rendering anything. */
void		 output_discard(struct output *o);

#endif
