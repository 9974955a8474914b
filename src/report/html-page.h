/*
 * The overview as one self-contained HTML page: inline CSS and SVG,
 * nothing fetched, so it opens from file:// and mails as one file.  Every
 * chart carries its numbers in data-* attributes, as the JSON report
 * gives them (jaxprof-summary(1) HTML), so a test reads them back.
 */
#ifndef JAXPROF_HTML_PAGE_H
#define JAXPROF_HTML_PAGE_H

#include <stdio.h>

#include "report/overview.h"

/* Bars of the steps chart at most: longer runs are shown in bins. */
#define HTML_MAX_STEP_BARS	300
/* Timeline tracks at most (devices' lines and host threads). */
#define HTML_MAX_TRACKS		24
/* Memory charts at most (allocators; the JSON report has them all). */
#define HTML_MAX_MEMORY_CHARTS	8

/* Writes the page; -1 on a write error. */
int	html_page_write(const struct overview *ov, FILE *fp);

#endif
