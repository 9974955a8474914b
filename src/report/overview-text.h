/*
 * The overview as text, a table for each of its parts, in the summary
 * command's table or markdown format (html-page.c writes the page,
 * overview.c the JSON).
 *
 *	if (overview_write_text(&ov, FMT_TABLE, stdout) == -1)
 *		... a write error ...
 */
#ifndef JAXPROF_OVERVIEW_TEXT_H
#define JAXPROF_OVERVIEW_TEXT_H

#include <stdio.h>

#include "output/output.h"
#include "report/overview.h"

/* Writes ov in fmt to fp; -1 on a write error. */
int	overview_write_text(const struct overview *ov, enum out_format fmt,
	    FILE *fp);

#endif
