/*
 * Chrome trace JSON reader (`*.trace.json`, `*.trace.json.gz`,
 * `perfetto_trace.json.gz`, FORMATS.md section 8): emits the normalized
 * stream of profile.h, as read-xplane.h does for an XSpace.
 *
 * Mapping: one plane per pid (ascending; named by the process_name
 * metadata event, else "pid N"), one line per (pid, tid) (in
 * thread_sort_index order, else ascending tid; named by thread_name, else
 * "tid N"; timestamp_ns 0).  Events: "X", "B"/"E" pairs matched as a stack
 * per line, "i"/"I" (duration 0); every other ph is skipped, and so is a
 * "B" never closed.  ts and dur (µs, numbers or strings) become integer ps,
 * rounded.  One event metadata per distinct name in a plane; with a string
 * args.long_name, that is the name and the event's name its display name.
 * Scalar args become event stats: integral numbers and integer strings
 * ("1234") PF_INT64, other numbers PF_DOUBLE, booleans PF_INT64 0/1, other
 * strings PF_STR; nulls, objects and arrays are dropped.  The space has no
 * hostnames, errors or warnings.
 *
 * Recipe:
 *	struct pf_read_stats rs;
 *	char *cause;
 *	if (json_read(path, &handler, &rs, &cause) == -1) {
 *		print cause; free(cause);
 *	}
 */
#ifndef JAXPROF_READ_JSON_H
#define JAXPROF_READ_JSON_H

#include <stddef.h>

#include "model/profile.h"

/* Memory for one batch of lines' events (see json_read_budget()). */
#define JSON_BATCH_BYTES	((size_t)256 << 20)

/*
 * Reads path, plain or gzip (told by its magic), streaming: a first pass
 * reads the metadata and counts each line's events, and each later pass
 * keeps only the events of a batch of lines that fits JSON_BATCH_BYTES, so
 * memory grows with the number of distinct names and lines, not with the
 * file size (a single line is never split: it needs memory for all its
 * events).  When all the events fit one batch, the first pass keeps them
 * and there is no other pass.  Returns 0, the first non-zero value a
 * callback returned, or -1 with *cause a new one-line message (caller
 * frees), e.g. "at byte 1234: parse error: premature EOF", the offset
 * counted in uncompressed bytes.
 */
int	json_read(const char *path, const struct pf_handler *h,
	    struct pf_read_stats *rs, char **cause);
/* The same, with batches of at most budget bytes (tests use tiny ones). */
int	json_read_budget(const char *path, size_t budget,
	    const struct pf_handler *h, struct pf_read_stats *rs,
	    char **cause);

/*
 * json_read() in two halves, for a caller that needs the events more than
 * once without reading a file that fits the budget again, or wants its
 * planes one by one (load.c classifies them on threads):
 *
 *	struct json_trace *jt;
 *	if (json_open(path, JSON_BATCH_BYTES, &jt, &rs, &cause) == -1) ...;
 *	rc = json_emit(jt, &h1, &cause); ... rc = json_emit(jt, &h2, &cause);
 *	json_close(jt);
 *
 * json_open() makes the first pass (its errors are json_read()'s, but for
 * those found only in a batch, which the emits return); each json_emit()
 * gives the whole stream as json_read() does.
 */
struct json_trace;

int	json_open(const char *path, size_t budget, struct json_trace **jt,
	    struct pf_read_stats *rs, char **cause);
int	json_emit(struct json_trace *jt, const struct pf_handler *h,
	    char **cause);
/*
 * json_emit() in parts: the space callback (json_emit_space()), then
 * plane i of json_nplanes() (json_emit_plane(): its plane_begin to
 * plane_end) for each i in turn gives the same stream.  Names: the
 * planes' names in that order.  When json_planes_apart() says so (the
 * events were kept in memory), planes may be emitted in any order and
 * from several threads at once; else one at a time, in order, is best
 * (each batch is read again when it is needed again).
 */
size_t	json_nplanes(const struct json_trace *jt);
char *const *json_plane_names(const struct json_trace *jt);
int	json_planes_apart(const struct json_trace *jt);
int	json_emit_space(struct json_trace *jt, const struct pf_handler *h);
int	json_emit_plane(struct json_trace *jt, size_t i,
	    const struct pf_handler *h, char **cause);
void	json_close(struct json_trace *jt);

#endif
