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

/*
 * What every page shares (diff's page too: diff-page.c): one look, text
 * escaped, numbers as the JSON reports give them.
 *
 *	html_open(fp, "jaxprof diff");		doctype, style, <h1>
 *	... html_text(fp, name); html_dur(fp, ps); ...
 *	return html_close(fp, "diff; ...");	-1 on a write error
 */
void	html_open(FILE *fp, const char *title);
int	html_close(FILE *fp, const char *made_by);
/* Text or an attribute's value: names as data, marked names as <code>. */
void	html_text(FILE *fp, const char *s);
/* Microseconds with 3 decimals: a JSON report's *_us. */
void	html_us(FILE *fp, double ps);
/* A percent with 2 decimals. */
void	html_pct(FILE *fp, double v);
/* A duration as people read it: "5.183 ms". */
void	html_dur(FILE *fp, double ps);

#endif
