/*
 * Chrome-trace JSON writer: a consumer of the normalized stream
 * (profile.h) that converts a profile to the JSON the Perfetto UI and
 * chrome://tracing load, streamed straight to a FILE * or a gzip file.
 *
 * Recipe:
 *	struct chrome_options opt;
 *	struct chrome_writer *w;
 *	struct pf_handler h;
 *	struct pf_read_stats rs;
 *	char *cause = NULL, *cause2 = NULL;
 *	int rc;
 *
 *	chrome_options_init(&opt);
 *	opt.start_ps = ...; opt.end_ps = ...;	(optional window)
 *	if ((w = chrome_writer_new(NULL, "out.json.gz", &opt, &h,
 *	    &cause)) == NULL) { print cause; free(cause); }
 *	rc = xplane_read(&src, path, &h, &rs, &cause);
 *	(rc == CHROME_STOPPED: writing failed; finish says why)
 *	if (chrome_writer_finish(w, NULL, &cause2) == -1) ...;
 *
 * Output, in this order:
 *	{"displayTimeUnit":"ns","traceEvents":[
 *	process_name / process_sort_index of a plane, thread_name /
 *	thread_sort_index of a line, each written just before the first event
 *	written on that plane or thread, then the events of the line, ...
 *	]}
 * The array holds only real events (no trailing {}).
 *
 * - pid: the plane's position in the stream, from 1 (all planes count,
 *   also those written without events, so a pid names the same plane
 *   whatever the window).  process_name is the plane name (else
 *   "plane <id>"), process_sort_index the pid.  A plane or line with no
 *   event written gets no metadata either, so it shows no empty track.
 * - tid: the line's position within its plane, from 1; thread_name is the
 *   line's display_name, else its name, else "line <id>";
 *   thread_sort_index is 2 * tid, so each overlap thread (below) sorts
 *   right after its line.
 * - Each event is {"ph":"X","pid":P,"tid":T,"ts":US,"dur":US,"name":N,
 *   "args":{...}}: ts is pf_event.start_ps and dur duration_ps (a negative
 *   duration is written as 0), both in µs with exactly 6 decimals, so no
 *   picosecond is lost.  N is the metadata's display_name when set (args
 *   then holds "long_name": the full name), else its name.  args holds the
 *   metadata's stats, then the event's; of stats with the same name only
 *   the last is written, so an event stat overrides a metadata stat.
 *   Integers are JSON numbers, doubles too (shortest form that reads back
 *   the same, whatever the locale; NaN and infinities as the strings
 *   "nan", "inf", "-inf"), strings and resolved refs JSON strings, bytes
 *   "<N bytes>", a stat without a value null.  A stat whose name is
 *   unknown is keyed "stat_<metadata id>".  Strings are escaped as
 *   every JSON string jaxprof writes (json-string.h: controls as \n, \t
 *   or \u00xx, bytes that are not valid UTF-8 as U+FFFD), so the output
 *   is always valid JSON.
 * - With opt.hlo, events gain the attribution args said above it.
 * - Aggregated events (num_occurrences instead of a start time) have no
 *   place on a timeline and are not written (counted in stats).
 * - Nesting: Chrome and Perfetto need the slices of a thread properly
 *   nested.  Events of a line arrive sorted by start, longer first, and
 *   the writer keeps a stack of open slices per thread.  An event that
 *   starts inside the open slice on top but ends after it (a partial
 *   overlap), or that starts before an event already written there (input
 *   not sorted), is not dropped: it goes to an extra thread of the same
 *   process, tid = 10000 + the line's tid, named "<line name> (overlaps)",
 *   created when first needed; if it does not nest there either, to
 *   20000 + tid, "<line name> (overlaps 2)", and so on up to
 *   CHROME_MAX_LANES - 1 extra threads (the last one then takes what is
 *   left, nested or not: counted in stats.unnested).  On a plane with
 *   10000 lines or more the step is the next power of ten above the
 *   number of lines, not 10000.
 * - Window: with start_ps < end_ps, only events overlapping
 *   [start_ps, end_ps) are written, and written whole (not clipped), so
 *   durations stay true: an event overlaps when it starts before end_ps
 *   and ends after start_ps, or, with duration 0, starts within the
 *   window.  Times are in the stream's time base (pf_event.start_ps).
 *
 * Memory does not grow with the number of events: the writer keeps only
 * the stacks of the line being read (their depth is the nesting depth).
 * It needs the planes in stream order, one at a time (xplane_read, not
 * parallel xspace_read_plane).
 */
#ifndef JAXPROF_WRITE_CHROME_H
#define JAXPROF_WRITE_CHROME_H

#include <stdint.h>
#include <stdio.h>

#include "model/profile.h"

/* Threads per line: the line's own and up to this many minus one more. */
#define CHROME_MAX_LANES	8

/*
 * What the writer's callbacks return once writing has failed, to stop the
 * reader early (the reader then returns it, with no cause of its own);
 * chrome_writer_finish() says what went wrong.
 */
#define CHROME_STOPPED		0x63687277

struct hlo_set;

struct chrome_options {
	int64_t		 start_ps;	/* window [start_ps, end_ps); */
	int64_t		 end_ps;	/* everything unless start < end */
	/*
	 * The programs' HLO (load_hlo()), borrowed; NULL: none.  With it,
	 * each event whose hlo_op (and hlo_module, program_id) names an
	 * instruction, or that is a kernel of a CUDA graph launched by an
	 * op the HLO does not have (matched as `top` matches it,
	 * hlo-match.h), gets the args "hlo_op" (the instruction: for a
	 * graph kernel it replaces the launch's name, kept as
	 * "hlo_launch"), "framework_op" (its JAX op) and "source"
	 * ("file:line"), as `top` shows them.
	 */
	const struct hlo_set *hlo;
};

struct chrome_stats {
	uint64_t	events;		/* X events written */
	uint64_t	outside;	/* not written: outside the window */
	uint64_t	aggregated;	/* not written: no start time */
	uint64_t	overlaps;	/* written on an overlap thread */
	uint64_t	unnested;	/* of those, not nested even there */
	uint64_t	bytes;		/* JSON bytes (before gzip) */
};

struct chrome_writer;

/* No window: every event is written. */
void	chrome_options_init(struct chrome_options *opt);

/*
 * A writer to out, or, when out is NULL, to the file path (created or
 * truncated; gzip-compressed through zlib when path ends in ".gz", plain
 * otherwise); with out, path (may be NULL) only names it in messages.
 * Fills *h with its callbacks (and ctx) for a reader.  opt
 * may be NULL (no window); it is copied.  Returns the writer, or NULL with
 * *cause a new message (caller frees) when path cannot be created.  out
 * stays the caller's: the writer flushes but never closes it.
 */
struct chrome_writer *chrome_writer_new(FILE *out, const char *path,
	    const struct chrome_options *opt, struct pf_handler *h,
	    char **cause);

/*
 * Closes the JSON, flushes, closes the file it opened and frees w (w may
 * be NULL: returns 0).  Copies the counts to *stats when not NULL.
 * Returns 0, or -1 with *cause a new message (caller frees) when any write
 * failed; what was written is then incomplete, and the caller removes it.
 */
int	chrome_writer_finish(struct chrome_writer *w, struct chrome_stats *stats,
	    char **cause);

/*
 * ps as microseconds with exactly 6 decimals ("-0.000001", "1.234567"),
 * in integer arithmetic: exact for every int64_t.  buf holds at least
 * CHROME_US_MAX bytes.  Returns buf.
 */
#define CHROME_US_MAX	32
char	*chrome_fmt_us(char *buf, int64_t ps);

#endif
