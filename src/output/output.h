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
	FMT_NDJSON,	/* one JSON object a line (export; no --format) */
};

enum col_type {
	COL_STR,
	COL_INT,
	COL_PS,		/* picoseconds in; microseconds out (table: human) */
	COL_PCT,	/* a percentage, 2 decimals */
	COL_RATE,	/* a double, 3 decimals (GFLOP/s, GB/s); see RATE_MIN_PS */
	COL_BYTES,	/* bytes; table shows KiB/MiB/GiB */
	COL_REAL,	/* a double as precise as it comes (sql results) */
};

struct out_col {
	const char	*name;	/* snake_case, unit in the name; JSON key */
	enum col_type	 type;
	const char	*header;	/* table/markdown header; NULL: name */
};

/* "table" etc. to the enum; -1 if unknown.  output_formats lists them. */
int		 output_parse_format(const char *s, enum out_format *fmt);
extern const char output_formats[];

struct output	*output_new(enum out_format fmt, FILE *fp,
		    const struct out_col *cols, size_t ncols);
/* Tables show text whole, not cut at 80 bytes as names are. */
void		 output_whole_text(struct output *o);
/* A line above a table (table and markdown formats only). */
void		 output_title(struct output *o, const char *line);
/* A line below a table (table and markdown formats only). */
void		 output_note(struct output *o, const char *line);
void		 output_str(struct output *o, const char *s);
void		 output_int(struct output *o, int64_t v);
void		 output_ps(struct output *o, double ps);
void		 output_double(struct output *o, double v);
/* true or false (csv, a JSON boolean); "yes" or empty in tables. */
void		 output_bool(struct output *o, int v);
void		 output_null(struct output *o);
void		 output_end_row(struct output *o);
/* The note "N more rows; -n 0 shows all." when shown < total. */
void		 output_more_rows(struct output *o, size_t shown, size_t total);
/* Renders what is buffered and frees o; -1 if writing failed. */
int		 output_finish(struct output *o);
/* Frees o without rendering anything. */
void		 output_discard(struct output *o);

#endif
