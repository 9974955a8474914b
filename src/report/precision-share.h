/*
 * The share of compute time at each precision, as xprof's overview page
 * breaks it down: the device time of the ops that compute (FLOPs above
 * 0), by the precision each computes in (the ops table's precision,
 * precision.h), for `summary` (jaxprof-summary(1), Precision).
 *
 *	struct precision_share s;
 *	precision_share_load(&s, &report);
 *	precision_share_pct(&s, PREC_TF32) ...
 */
#ifndef JAXPROF_PRECISION_SHARE_H
#define JAXPROF_PRECISION_SHARE_H

#include <stdint.h>
#include <stdio.h>

#include "model/precision.h"

struct report;

struct precision_share {
	/* Self time per precision; [PREC_N]: of unknown precision. */
	int64_t		 ps[PREC_N + 1];
	int64_t		 compute_ps;	/* their sum */
};

void		 precision_share_load(struct precision_share *s,
		    struct report *r);
/* Precision p's percent of compute time (PREC_UNKNOWN: unknown's). */
double		 precision_share_pct(const struct precision_share *s, int p);
/* "compute_precision":[...] for summary's JSON (no separator). */
void		 precision_share_write_json(const struct precision_share *s,
		    FILE *fp);

#endif
