/*
 * The top report: ops, op groups or host annotation scopes ranked, with
 * the roofline they are judged against.  One call reads everything the
 * command prints, so --group=module or scope goes down into the index
 * and comes back once.
 *
 *	struct top_options opt = { .by = BY_DEVICE_TIME, .limit = 20 };
 *	struct top t;
 *	top_report(&report, &opt, &t);
 *	... t.title[i], t.line[i] (t.nshown of t.nrows), t.note[i] ...
 *	top_free(&t);
 */
#ifndef JAXPROF_REPORT_TOP_H
#define JAXPROF_REPORT_TOP_H

#include <stddef.h>
#include <stdint.h>

#include "model/kernel-stats.h"
#include "model/precision.h"
#include "report/analyze-ops.h"

struct report;

/* The peaks the roofline is drawn with; gflops 0 when none is known. */
struct top_roof {
	double		 gflops, gbps;
	int		 bf16;		/* gflops is the table's bf16/fp16 rate */
	char		*model;		/* the table's device; NULL: none */
	int		 from_spec;	/* the table's, else the profile's */
	int		 ndevices;	/* kinds of device peaks selected */
	/* --peak-flops, --peak-bandwidth in G per second; 0: not given */
	double		 flops_option, bandwidth_option;
	/* The table's rate per precision (precision.h); 0: none published */
	double		 prec_gflops[PREC_N];
};

struct top_options {
	enum op_by	 by;
	enum op_group	 group;
	int		 scopes;	/* --group=scope */
	int		 tree;		/* --tree */
	long		 limit;		/* rows shown; 0: all */
	int		 machine;	/* csv, json: a tree as depth, parent */
	double		 flops_option, bandwidth_option;
};

/*
 * One row of the report, an op's (or group's) or a scope's, as the
 * columns read it.
 */
struct top_line {
	int64_t		 rank;
	const char	*name, *module, *category, *source;
	char		*what;		/* op_what() of an HLO op; NULL */
	char		*indented;	/* a tree's name, owned; or NULL */
	int64_t		 count, total_ps, self_ps, min_ps, max_ps;
	int		 has_min_max;	/* scopes and modules have none */
	double		 pct;
	int		 has_cum;	/* a tree of scopes has none */
	double		 cum;
	int64_t		 flops, bytes;
	int		 has_flops, has_bytes;
	int		 precision;	/* precision.h's, or PREC_UNKNOWN */
	double		 intensity;	/* FLOP per byte; -1: unknown */
	/* Against the roof: compute- or memory-bound, at roof_pct of it. */
	int		 has_roof, compute_bound;
	double		 roof_pct;
	const struct op_row *kernel;	/* --group=kernel's row, or NULL */
	int		 has_launch;	/* the kernel's kernel_details */
	struct kernel_launch launch;
	int		 has_tree;	/* a scope in a tree: depth, parent */
	int64_t		 depth, parent_rank;	/* parent_rank 0: none */
};

struct top {
	char		**title;	/* the lines above the table */
	size_t		 ntitles;
	struct top_line	*line;		/* the rows shown */
	size_t		 nshown, nrows;	/* of all the rows */
	char		**note;		/* the lines under it */
	size_t		 nnotes;
	struct top_roof	 roof;
	/* What the lines point into. */
	struct op_row	*ops;
	size_t		 nops;
	void		*scopes;
	size_t		 nscopes;
};

/* Reads and ranks what opt asks for from the opened report r. */
void	top_report(struct report *r, const struct top_options *opt,
	    struct top *t);
void	top_free(struct top *t);

/*
 * A rate of --peak-flops or --peak-bandwidth in G per second: a positive
 * number, perhaps with an SI prefix; exits 2 on anything else.
 */
double	top_parse_rate(const char *opt, const char *arg);

#endif
