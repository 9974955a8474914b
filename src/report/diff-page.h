/*
 * diff's page for a pull request (jaxprof-diff(1), HTML): one
 * self-contained file, like the summary's (html-page.h), that says at a
 * glance what a change did: the step time before and after, what got
 * slower and what is new by framework op and by source line, and the
 * memory peaks before and after.  Every bar carries its numbers in
 * data-* attributes, those of diff's csv and json, so a test reads them
 * back.
 *
 *	struct diff_page d = { &base, &new, pairs, npairs, per, skip };
 *	if (diff_page_write(&d, fp) == -1) ... write error ...
 */
#ifndef JAXPROF_DIFF_PAGE_H
#define JAXPROF_DIFF_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "report/analyze-diff.h"
#include "report/summary.h"

/* Rows of each "slower or new" chart at most; the csv has them all. */
#define DIFF_PAGE_KINDS	12

struct diff_page {
	const struct summary	*base, *new;
	/* Paired by device time and normalised (diff_normalize()). */
	const struct diff_pair	*pairs;
	size_t			 npairs;
	const char		*per;	/* "step", "execution" or "total" */
	size_t			 skip;	/* each device's first steps left out */
};

/* Writes the page; -1 on a write error. */
int	diff_page_write(const struct diff_page *d, FILE *fp);

#endif
