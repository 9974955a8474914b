/*
 * The overview `jaxprof summary` prints: the steps and what each is made
 * of, what the device waited for when idle, the ops and source lines that
 * take the time, compilations, and the verdict and recommendations the
 * rules of jaxprof-summary(1) draw from those numbers.  Read from the
 * index of an opened report (overview-load.c; the idle time attributed
 * in overview-gaps.c, the rules in overview-rules.c); rendered by
 * overview-text.c, html-page.c and as JSON (overview.c).
 *
 *	struct overview ov;
 *	overview_load(&ov, &report);
 *	... ov.verdict, ov.recs[i].text ...
 *	overview_release(&ov);
 */
#ifndef JAXPROF_OVERVIEW_H
#define JAXPROF_OVERVIEW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/memory-losses.h"
#include "report/precision-share.h"

struct report;

/* The parts a step's time splits into; they add up to its duration. */
enum ov_part {
	OV_COMPUTE,
	OV_COLLECTIVE,
	OV_TRANSFER,
	OV_HOST,	/* idle while the host ran something else (input...) */
	OV_LAUNCH,	/* idle while the host launched work (command buffers) */
	OV_COMPILE,	/* idle while the host compiled */
	OV_SYNC,	/* idle while the host waited for a device result */
	OV_SHORT_IDLE,	/* idle in gaps under 100 us: not attributed */
	OV_NPARTS,
};

/* JSON keys ("compute") and words ("host-bound idle") of the parts. */
extern const char *const ov_part_keys[OV_NPARTS];
extern const char *const ov_part_words[OV_NPARTS];

struct ov_step {
	int64_t		 step, start_ps, dur_ps;
	int64_t		 part_ps[OV_NPARTS];
	const char	*skip_why;	/* NULL: counted in median and spread */
};

/* One device's steps, in order. */
struct ov_series {
	char		*run, *host, *device;
	int64_t		 file_id, plane_id;
	struct ov_step	*steps;
	size_t		 n;
};

/* Device idle time by what the host was running meanwhile. */
struct ov_cause {
	char		*activity;	/* innermost host event: "time.sleep" */
	char		*context;	/* enclosing annotation: "load_batch" */
	enum ov_part	 part;		/* OV_HOST ... OV_SYNC */
	int64_t		 ps, gaps;
};

/* A ranked op or source line. */
struct ov_item {
	char		*name;
	char		*detail;	/* an op's source line, a line's function */
	char		*what;		/* an op's op_what(); a line's "" */
	int64_t		 count, total_ps;
	double		 pct;		/* of all ops' device time */
};

struct ov_compile {
	char		*function;
	int64_t		 count, total_ps;
	char		*programs;	/* "jit_f(52), jit_f(54)" */
	char		*steps;		/* the steps they ran in: "0, 4, 8" */
	/* Parameters whose shape differs: "x: s32[8,16] / s32[8,32]". */
	char		*shapes;
	int64_t		 exec_count, exec_ps;
};

/* A recommendation: the rule, the number that triggered it, the words. */
struct ov_rec {
	const char	*rule;
	double		 value;		/* percent of step time or a count */
	double		 threshold;
	/* The measured time of its part: what fixing it could save. */
	int64_t		 save_ps;	/* per step; in all without steps */
	char		*text;
};

/* One bar of one step's timeline. */
struct ov_span {
	int64_t		 start_ps, dur_ps;	/* start from the step's */
	char		*name;
	int		 kind;	/* 0 work, 1 copy, 2 idle, 3 host */
};

struct ov_track {
	char		*name;	/* "GPU:0 modules", "host python" */
	struct ov_span	*spans;
	size_t		 n;
	size_t		 dropped;	/* thinned out */
};

/* Heap plus stack bytes an allocator held after one of its events. */
struct ov_mem_point {
	int64_t		 time_ps, bytes;
};

/*
 * One device allocator of one file: its peak in the capture, with what
 * ran then (as jaxprof-memory(1) gives them), and its bytes in use over
 * the capture as the index keeps them (MEMORY_POINTS at most).
 */
struct ov_memory {
	char		*run, *host, *allocator;
	int64_t		 peak_bytes, peak_ps;
	int64_t		 step;		/* -1: none known */
	char		*module, *op;	/* running at the peak, or NULL */
	int64_t		 capacity_bytes;	/* -1: not known */
	int64_t		 start_ps, end_ps;	/* its file's capture */
	struct ov_mem_point *points;	/* in time order */
	size_t		 npoints;
};

struct overview {
	char		**runs, **hosts, **devices;
	size_t		 nruns, nhosts, ndevices;
	int		 cpu_only;	/* ops ran on the host's threads */
	char		*step_source;	/* "host" or "device"; "" none */

	struct ov_series *series;
	size_t		 nseries;
	size_t		 nsteps, nkept;
	double		 median_ps, min_ps, p90_ps, max_ps, stddev_ps;
	int64_t		 part_ps[OV_NPARTS];	/* over every step */
	int64_t		 steps_ps;

	struct ov_cause	*causes;	/* most time first */
	size_t		 ncauses;
	struct ov_item	*ops, *lines;	/* most device time first */
	size_t		 nops, nlines;
	int64_t		 ops_ps;
	struct ov_compile *compiles;	/* most compilations first */
	size_t		 ncompiles;
	int64_t		 compile_ps, ncompilations;

	const char	*verdict_rule;	/* "host", "compile"...: the rule */
	char		*verdict;
	struct ov_rec	*recs;
	size_t		 nrecs;

	int64_t		 tl_step, tl_start_ps, tl_dur_ps;	/* its step */
	struct ov_track	*tracks;
	size_t		 ntracks;

	struct ov_memory *memory;	/* by run, host, file, allocator */
	size_t		 nmemory;
	/* Allocators left out of memory: damaged, and said so. */
	struct memory_losses memory_losses;

	struct precision_share precision;	/* compute time by precision */
};

#define OV_RECS			5	/* recommendations listed */
#define OV_SPREAD_PCT		10.0	/* stddev over median */
#define OV_TOP			10	/* ops and lines listed */
#define OV_TRACK_SPANS		400	/* bars kept per timeline track */

#define OV_SAID_BY	2

/*
 * A rule of jaxprof-summary(1) RULES (overview-rules.c): the number it
 * measures, the threshold that number fires it at, and its words as the
 * verdict and as a recommendation.  Adding one is a row of ov_rules, its
 * place in apply_rules() unless it is a wait, and its test.
 */
struct ov_rule {
	const char	*name;		/* "host": the verdict_rule, JSON "rule" */
	enum ov_part	 part;		/* the part it weighs; OV_NPARTS none */
	/* Its number from the overview; NULL: none, or another report's. */
	double		(*measured)(const struct overview *ov,
			    const struct ov_rule *rule);
	double		 threshold;	/* fires at this number or more */
	const char	*verdict;	/* "input / host bound"; NULL: never */
	/*
	 * A wait (lead non-NULL) says "<lead> 25.0% of step time (...)
	 * <during>[cause]<advice>"; the largest share of those that fire is
	 * the verdict.
	 */
	const char	*lead;		/* "the device is idle" */
	const char	*during;	/* " while the host runs " */
	int		 names_cause;	/* the host activity follows during */
	/* Its recommendation's own words; NULL: it gives none. */
	const char	*advice;
	/* The verdicts whose words say its recommendation already. */
	const char	*said_by[OV_SAID_BY];
};

extern const struct ov_rule ov_rules[];
extern const size_t ov_nrules;

void	overview_load(struct overview *ov, struct report *r);
/* ov->memory from the memory tables, and its release. */
void	overview_load_memory(struct overview *ov, struct report *r);
void	overview_release_memory(struct overview *ov);
/*
 * overview-gaps.c: the loaded steps' idle time by what the host ran, the
 * steps left out of median and spread, and the totals.
 */
void	overview_attribute(struct overview *ov, struct report *r);
/* overview-rules.c: the verdict and recommendations of the loaded ov. */
void	overview_judge(struct overview *ov, struct report *r);
/* The overview as one JSON object (jaxprof-summary(1) JSON); -1 on error. */
int	overview_write_json(const struct overview *ov, FILE *fp);
void	overview_release(struct overview *ov);
/* Part k's percent of all step time (0 without steps). */
double	overview_part_pct(const struct overview *ov, enum ov_part k);

#endif
