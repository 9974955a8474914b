/*
 * A file's transfers summed per plane, direction and kind, as the index's
 * transfer_totals holds them: the sums INSERT ... SELECT ... GROUP BY gave,
 * with the wait of each on-host D2H call (index.h, INDEX_WAIT_PS_SQL)
 * found by a binary search over the file's executions ordered once, where
 * SQL scanned them for every call.
 *
 *	struct exec_ends *x = exec_ends_new(fs);
 *	for each plane p:
 *		if (transfer_totals(p, x, &t, &n, &cause) == -1) ...;
 *		... store t[0..n) ...; free(t);
 *	exec_ends_free(x);
 */
#ifndef JAXPROF_TRANSFER_TOTALS_H
#define JAXPROF_TRANSFER_TOTALS_H

#include <stddef.h>
#include <stdint.h>

#include "classify/classify.h"

/* The executions of every plane of a file, by start. */
struct exec_ends;

struct exec_ends *exec_ends_new(const struct file_summary *fs);
void		 exec_ends_free(struct exec_ends *x);


/* One row of transfer_totals: a plane's transfers of one dir and kind. */
struct transfer_total {
	enum transfer_dir dir;
	int		 on_host;
	int		 compile_work;
	int64_t		 count;
	int64_t		 rated_count;	/* those with bytes known */
	int64_t		 bytes;		/* of the rated: NULL if none */
	int64_t		 rated_ps;	/* their dur less wait: NULL if none */
	int64_t		 dur_ps;
	int64_t		 wait_ps;
};

/*
 * Plane p's totals in *out (caller frees), *n of them, in GROUP BY's
 * order: by direction name, then on_host.  -1 with *cause as SQLite's
 * sum() says it ("integer overflow") when a sum leaves int64.
 */
int		 transfer_totals(const struct plane_summary *p,
		    const struct exec_ends *x, struct transfer_total **out,
		    size_t *n, char **cause);

#endif
