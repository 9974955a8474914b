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
	/* The precision it computes in (precision.h's names); NULL: unknown */
	char		*precision;
	int64_t		 count;
	int64_t		 total_ps;	/* device time */
	int64_t		 self_ps;
	int64_t		 min_ps, max_ps;
	int64_t		 flops, bytes;	/* sums; valid when has_* */
	int		 has_flops, has_bytes;
	int		 has_min, has_max;	/* min_ps, max_ps were seen */
};

struct index_rows;

/*
 * The SELECT list ("o.name, ...") of the stored rows o of table ops, or
 * of kernels, or of the run totals, in the columns op_rows_fold() reads
 * (op_cols[] in op-rows.c: each column's name and how it folds).  Kernel
 * rows differ by kernel_details and framework op too, as xprof's kernel
 * stats do.
 */
enum op_rows_from { OP_ROWS_OPS, OP_ROWS_KERNELS, OP_ROWS_TOTALS };
const char	*op_rows_columns(enum op_rows_from from);
/* How many columns that is. */
size_t		 op_rows_ncolumns(void);
/*
 * The row's columns, in that order, set in w from column first on, and
 * the row completed (index_rows_end()); -1 with *cause as it fails.
 */
int		 op_rows_store(struct index_rows *w, int first,
		    const struct op_row *row, char **cause);
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
