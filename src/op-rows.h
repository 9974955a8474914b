/*
 * Op rows: one op's (or kernel's) counts, times, FLOPs and bytes, summed
 * from the index's stored rows (one per file, device and op) by
 * op_rows_fold().  Reports rank them (analyze-ops.h); the index keeps them
 * per run (run-totals.h).
 */
#ifndef JAXPROF_OP_ROWS_H
#define JAXPROF_OP_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

struct op_row {
	char		*name;
	char		*module;	/* "" for kernels and categories */
	char		*category;	/* a kernel's launching HLO op */
	char		*framework_op;	/* JAX op (HLO op_name, tf_op); "" */
	char		*source;	/* "file:line" from the HLO; "" */
	char		*source_function;	/* the function there; "" */
	char		*details;	/* a kernel's kernel_details; NULL */
	char		*hlo_op;	/* the HLO op a kernel runs; NULL */
	int64_t		 count;
	int64_t		 total_ps;	/* device time */
	int64_t		 self_ps;
	int64_t		 min_ps, max_ps;
	int64_t		 flops, bytes;	/* sums; valid when has_* */
	int		 has_flops, has_bytes;
	int		 has_min, has_max;	/* min_ps, max_ps were seen */
};

/*
 * The SELECT list ("o.name, ...") of the stored rows o of table ops, or
 * of kernels, in the columns op_rows_fold() reads.  Kernel rows differ
 * by kernel_details and framework op too, as xprof's kernel stats do.
 */
const char	*op_rows_columns(int kernels);
/*
 * Folds every row st gives (columns as op_rows_columns()) into one row
 * per (name, module), as SQL's sum(), min() and max() would: a new array
 * in *rows, *n of them (NULL and 0 on entry: it grows by xgrow1()).
 * Texts no row had stay NULL, so folded rows can be stored and folded
 * again to the same result.
 */
void		 op_rows_fold(sqlite3_stmt *st, struct op_row **rows,
		    size_t *n);
/* Frees the rows' strings and the array. */
void		 op_rows_free(struct op_row *rows, size_t n);

#endif
