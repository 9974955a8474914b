/*
 * The index's tables of each selected file, written for other engines
 * (jaxprof-export(1)): DIR/<table>/run=<run>/host=<host>/part-<hash>.<ext>,
 * Parquet or newline-delimited JSON, one part per table and file,
 * replaced whole when the file is exported again.
 */
#ifndef JAXPROF_EXPORT_H
#define JAXPROF_EXPORT_H

#include "report/report.h"

/* Written into every Parquet file's metadata; jaxprof-export(1). */
#define EXPORT_SCHEMA_VERSION	"1"

enum export_format {
	EXPORT_PARQUET,
	EXPORT_NDJSON,
};

/* "parquet" or "ndjson" to the enum; -1 if unknown. */
int	export_parse_format(const char *s, enum export_format *fmt);

/*
 * Every table of every file report_open() selected, under dir: 0, or -1
 * after a message naming what could not be written.
 */
int	export_files(struct report *r, enum export_format fmt,
	    const char *dir);

#endif
