/* Compute time by precision (precision-share.h). */
#include "config.h"

#include <string.h>

#include "lib/checked.h"
#include "lib/units.h"
#include "index/op-rows.h"
#include "report/analyze-ops.h"
#include "report/precision-share.h"

void
precision_share_load(struct precision_share *s, struct report *r)
{
	struct op_row *rows;
	size_t n, i;

	memset(s, 0, sizeof *s);
	op_rows_query(r, 0, &rows, &n);
	for (i = 0; i < n; i++) {
		int p;

		if (!rows[i].has_flops || rows[i].flops <= 0)
			continue;
		p = precision_parse(rows[i].precision);
		if (p == PREC_UNKNOWN)
			p = PREC_N;
		s->ps[p] = sat_add(s->ps[p], rows[i].self_ps);
		s->compute_ps = sat_add(s->compute_ps, rows[i].self_ps);
	}
	op_rows_free(rows, n);
}

double
precision_share_pct(const struct precision_share *s, int p)
{
	int k = p == PREC_UNKNOWN ? PREC_N : p;

	return s->compute_ps > 0 && k >= 0 && k <= PREC_N ?
	    100.0 * (double)s->ps[k] / (double)s->compute_ps : 0;
}

void
precision_share_write_json(const struct precision_share *s, FILE *fp)
{
	char us[64], pct[64];
	int p;

	fputs("\"compute_precision\":[", fp);
	for (p = 0; p <= PREC_N; p++) {
		const char *name = precision_name(p);

		fmt_fixed(us, sizeof us, (double)s->ps[p] / 1e6, 3);
		fmt_fixed(pct, sizeof pct, precision_share_pct(s,
		    p == PREC_N ? PREC_UNKNOWN : p), 2);
		fprintf(fp, "%s{\"precision\":%s%s%s,\"total_us\":%s,"
		    "\"percent\":%s}", p > 0 ? "," : "", name != NULL ?
		    "\"" : "", name != NULL ? name : "null",
		    name != NULL ? "\"" : "", us, pct);
	}
	fputc(']', fp);
}
