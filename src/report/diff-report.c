/*
 * The diff report: both sides loaded, their ops paired and normalised,
 * then the page or the table written, to a file only once whole.
 */
#include "config.h"

#include <stdio.h>

#include "report/analyze-diff.h"
#include "report/diff-page.h"
#include "report/diff-report.h"
#include "report/diff-table.h"
#include "report/report.h"
#include "report/summary.h"
#include "lib/err.h"
#include "lib/outfile.h"

/* The page, or the table in r's format (JSON: both parts); -1 on error. */
static int
write_diff(struct report *r, const struct diff_request *q,
    const struct diff_table *t, FILE *fp)
{
	int failed = 0;

	if (q->html) {
		struct diff_page page = { t->a, t->b, t->pairs, t->npairs,
		    t->per, t->skip };

		return diff_page_write(&page, fp);
	}
	if (q->summary)
		return diff_summary_write(t, r->format, fp);
	if (r->format == FMT_JSON) {
		/* JSON: {"summary": [...], "ops": [...]} (jaxprof-diff(1)). */
		fputs("{\"summary\": ", fp);
		failed |= diff_summary_write(t, r->format, fp) == -1;
		fputs(", \"ops\": ", fp);
	}
	failed |= diff_ops_write(t, r->format, fp) == -1;
	if (r->format == FMT_JSON)
		fputs("}\n", fp);
	return failed ? -1 : 0;
}

int
diff_report(struct report *r, const struct diff_request *q)
{
	struct diff_table t = { .by = q->by, .group = q->group,
	    .skip = q->skip, .limit = q->limit };
	struct summary a, b;
	struct op_row *ra, *rb;
	struct diff_pair *pairs;
	struct outfile of;
	size_t na, nb, npairs;
	int status, failed;
	FILE *fp = stdout;

	summary_init(&a);
	summary_init(&b);
	status = summary_load(&a, r, q->base, 0);
	if (summary_load(&b, r, q->new, 0) != EXIT_OK)
		status = EXIT_TROUBLE;
	summary_op_rows(&a, q->group, &ra, &na);
	summary_op_rows(&b, q->group, &rb, &nb);
	/* Grouped rows have no identity; old baselines none kept. */
	t.by_identity = q->group == GROUP_OP && !a.pairs_by_name &&
	    !b.pairs_by_name;
	diff_ops(ra, na, rb, nb, q->by, t.by_identity, &pairs, &npairs);
	/* Per step or execution, so runs of different lengths compare. */
	t.per = q->by == BY_AVG ? "total" :
	    summary_op_norm(&a, &b, &t.da, &t.db);
	if (q->by == BY_AVG)
		t.da = t.db = 1;
	diff_normalize(pairs, npairs, t.da, t.db);
	t.a = &a;
	t.b = &b;
	t.ra = ra;
	t.na = na;
	t.rb = rb;
	t.nb = nb;
	t.pairs = pairs;
	t.npairs = npairs;

	if (q->out_path != NULL &&
	    (fp = outfile_fopen(&of, q->out_path)) == NULL) {
		jp_warn("cannot write '%s'", q->out_path);
		status = EXIT_TROUBLE;
		goto out;
	}
	failed = write_diff(r, q, &t, fp) == -1;
	/* A page cut short never replaces the last one (outfile.h). */
	if (fp != stdout && (failed || outfile_commit(&of) == -1)) {
		outfile_abort(&of);
		jp_warn("cannot write '%s'", q->out_path);
		failed = 1;
	}
	if (failed)
		status = EXIT_TROUBLE;	/* stdout's error: main says it */
out:
	diff_pairs_free(pairs, npairs);
	op_rows_free(ra, na);
	op_rows_free(rb, nb);
	summary_release(&a);
	summary_release(&b);
	return status;
}
