/* Chrome-trace JSON from the normalized stream, for the Perfetto UI. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "lib/err.h"
#include "classify/hlo-match.h"
#include "lib/json-string.h"
#include "model/profile.h"
#include "lib/outfile.h"
#include "load/write-chrome.h"
#include "lib/xmalloc.h"

#define CHROME_BUFSIZE	65536

/* One thread of a line: the line's own (lane 0) or an overlap thread. */
struct lane {
	int64_t		*ends;		/* end ps of the open slices, a stack */
	size_t		 n, cap;
	int64_t		 last_start;	/* start of the last slice written */
	int		 named;		/* thread metadata written */
};

struct chrome_writer {
	FILE		*fp;		/* plain output, or NULL */
	int		 own;		/* we opened the output, as of */
	struct outfile	 of;		/* the file replaced once whole */
	gzFile		 gz;		/* gzip output, or NULL */
	char		*path;		/* for messages; may be NULL */
	char		*error;		/* first write error, or NULL */
	struct chrome_options opt;
	int		 windowed;	/* opt.start_ps < opt.end_ps */
	uint64_t	 nitems;	/* array elements written */
	int64_t		 pid;		/* current plane, from 1 */
	int		 plane_named;	/* process metadata written */
	const char	*plane_name;	/* borrowed until plane_end */
	int64_t		 plane_id;
	int64_t		 tid;		/* current line, from 1 */
	int64_t		 tid_step;	/* overlap thread k: k * step + tid */
	struct lane	 lanes[CHROME_MAX_LANES];
	struct hlo_cursor cursor;	/* the line's CUDA graph kernels */
	struct chrome_stats stats;
	size_t		 len;		/* bytes in buf */
	char		 buf[CHROME_BUFSIZE];
};

/* ---- Output: a buffer drained to the FILE or the gzip stream ---- */

static void
set_error(struct chrome_writer *w, const char *what)
{
	if (w->error != NULL)
		return;
	if (w->path != NULL)
		w->error = xasprintf("cannot write '%s': %s", w->path, what);
	else
		w->error = xasprintf("cannot write the trace: %s", what);
}

/* strerror(errno), or a plain word when errno says nothing. */
static const char *
errno_text(void)
{
	return errno != 0 ? strerror(errno) : "write error";
}

static void
chrome_drain(struct chrome_writer *w)
{
	if (w->len == 0)
		return;
	if (w->error == NULL) {
		if (w->gz != NULL) {
			if (gzwrite(w->gz, w->buf, (unsigned)w->len) !=
			    (int)w->len) {
				int zerr;
				const char *msg = gzerror(w->gz, &zerr);

				set_error(w, zerr == Z_ERRNO ? errno_text() :
				    msg);
			}
		} else {
			errno = 0;
			if (fwrite(w->buf, 1, w->len, w->fp) != w->len)
				set_error(w, errno_text());
		}
	}
	w->stats.bytes += w->len;
	w->len = 0;
}

static void
put_raw(struct chrome_writer *w, const char *s, size_t n)
{
	while (n > 0) {
		size_t room = sizeof w->buf - w->len;

		if (room == 0) {
			chrome_drain(w);
			room = sizeof w->buf;
		}
		if (room > n)
			room = n;
		memcpy(w->buf + w->len, s, room);
		w->len += room;
		s += room;
		n -= room;
	}
}

static void
puts_(struct chrome_writer *w, const char *s)
{
	put_raw(w, s, strlen(s));
}

static void
put_int(struct chrome_writer *w, int64_t v)
{
	char num[32];

	snprintf(num, sizeof num, "%" PRId64, v);
	puts_(w, num);
}

static void
put_uint(struct chrome_writer *w, uint64_t v)
{
	char num[32];

	snprintf(num, sizeof num, "%" PRIu64, v);
	puts_(w, num);
}

/* Starts an element of traceEvents. */
static void
put_item(struct chrome_writer *w)
{
	puts_(w, w->nitems++ == 0 ? "\n" : ",\n");
}

char *
chrome_fmt_us(char *buf, int64_t ps)
{
	uint64_t u = ps < 0 ? -(uint64_t)ps : (uint64_t)ps;

	snprintf(buf, CHROME_US_MAX, "%s%" PRIu64 ".%06" PRIu64,
	    ps < 0 ? "-" : "", u / 1000000, u % 1000000);
	return buf;
}

static void
put_escaped(void *w, const char *s, size_t n)
{
	put_raw(w, s, n);
}

/* s[0..n) as a JSON string, escaped as all are (json-string.h). */
static void
put_str(struct chrome_writer *w, const char *s, size_t n)
{
	put_raw(w, "\"", 1);
	json_escape(s, n, put_escaped, w);
	put_raw(w, "\"", 1);
}

static void
put_cstr(struct chrome_writer *w, const char *s)
{
	put_str(w, s, s != NULL ? strlen(s) : 0);
}

/*
 * A double as a JSON number: the shortest of 15, 16 or 17 significant
 * digits that reads back the same.  snprintf and strtod share the locale,
 * so the round trip holds in any; whatever the locale wrote between the
 * digits (',' or a multibyte separator) then becomes '.'.
 */
static void
put_double(struct chrome_writer *w, double v)
{
	char num[64], out[64];
	size_t i, o;
	int prec;

	if (isnan(v)) {
		puts_(w, "\"nan\"");
		return;
	}
	if (isinf(v)) {
		puts_(w, v < 0 ? "\"-inf\"" : "\"inf\"");
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(num, sizeof num, "%.*g", prec, v);
		if (strtod(num, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(num, sizeof num, "%.17g", v);
	for (i = o = 0; num[i] != '\0'; i++) {
		char c = num[i];

		if ((c >= '0' && c <= '9') || c == '-' || c == '+' ||
		    c == 'e' || c == 'E')
			out[o++] = c;
		else if (o == 0 || out[o - 1] != '.')
			out[o++] = '.';
	}
	out[o] = '\0';
	puts_(w, out);
}

/* ---- Metadata events ---- */

static void
put_meta(struct chrome_writer *w, int64_t tid, const char *what,
    const char *name, int64_t sort_index)
{
	put_item(w);
	puts_(w, "{\"ph\":\"M\",\"pid\":");
	put_int(w, w->pid);
	if (tid != 0) {
		puts_(w, ",\"tid\":");
		put_int(w, tid);
	}
	puts_(w, ",\"name\":\"");
	puts_(w, what);
	if (name != NULL) {
		puts_(w, "\",\"args\":{\"name\":");
		put_cstr(w, name);
	} else {
		puts_(w, "\",\"args\":{\"sort_index\":");
		put_int(w, sort_index);
	}
	puts_(w, "}}");
}

static void
name_plane(struct chrome_writer *w)
{
	char *name;

	if (w->plane_named)
		return;
	w->plane_named = 1;
	if (w->plane_name != NULL && w->plane_name[0] != '\0')
		name = xstrdup(w->plane_name);
	else
		name = xasprintf("plane %" PRId64, w->plane_id);
	put_meta(w, 0, "process_name", name, 0);
	free(name);
	put_meta(w, 0, "process_sort_index", NULL, w->pid);
}

static void
name_lane(struct chrome_writer *w, const struct pf_line *line, size_t k,
    int64_t tid)
{
	const char *lname = line->display_name[0] != '\0' ?
	    line->display_name : line->name;
	char *name;

	if (w->lanes[k].named)
		return;
	w->lanes[k].named = 1;
	if (lname[0] == '\0')
		name = xasprintf("line %" PRId64, line->id);
	else
		name = xstrdup(lname);
	if (k == 1) {
		char *o = xasprintf("%s (overlaps)", name);

		free(name);
		name = o;
	} else if (k > 1) {
		char *o = xasprintf("%s (overlaps %zu)", name, k);

		free(name);
		name = o;
	}
	put_meta(w, tid, "thread_name", name, 0);
	put_meta(w, tid, "thread_sort_index", NULL,
	    2 * w->tid + (k > 0 ? 1 : 0));
	free(name);
}

/* ---- Events ---- */

/* Whether two stats have the same args key. */
static int
same_key(const struct pf_stat *a, const struct pf_stat *b)
{
	if (a->name[0] == '\0' || b->name[0] == '\0')
		return a->name[0] == b->name[0] &&
		    a->metadata_id == b->metadata_id;
	return a->metadata_id == b->metadata_id ||
	    strcmp(a->name, b->name) == 0;
}

/* The i-th of the metadata's stats followed by the event's. */
static const struct pf_stat *
nth_stat(const struct pf_event *ev, size_t i)
{
	size_t nmeta = ev->meta != NULL ? ev->meta->nstats : 0;

	return i < nmeta ? &ev->meta->stats[i] : &ev->stats[i - nmeta];
}

static void
put_stat_value(struct chrome_writer *w, const struct pf_stat *st)
{
	char num[48];

	switch (st->kind) {
	case PF_NONE:
		puts_(w, "null");
		break;
	case PF_DOUBLE:
		put_double(w, st->num.d);
		break;
	case PF_UINT64:
		put_uint(w, st->num.u);
		break;
	case PF_INT64:
		put_int(w, st->num.i);
		break;
	case PF_STR:
	case PF_REF:
		put_str(w, st->str.ptr, st->str.len);
		break;
	case PF_BYTES:
		snprintf(num, sizeof num, "\"<%zu bytes>\"", st->str.len);
		puts_(w, num);
		break;
	}
}

/*
 * The instruction an event runs (chrome_options.hlo), found as `top`
 * finds it: the one its hlo_op names (the part after the last "::"),
 * else, for a kernel of a CUDA graph, by its name and place in the
 * schedule; *launch is then the hlo_op that launched the graph.
 */
static const struct hlo_instr *
event_instr(struct chrome_writer *w, const struct pf_event *ev,
    struct pf_bytes *launch)
{
	struct pf_bytes op, module = { "", 0 };
	const struct hlo_module *m;
	const struct hlo_instr *in;
	const char *name;
	int64_t program, graph_launch;
	size_t i;

	launch->len = 0;
	if (w->opt.hlo == NULL ||
	    !pf_stat_str(pf_event_stat(ev, PF_KEY_HLO_OP), &op))
		return NULL;
	(void)pf_stat_str(pf_event_stat(ev, PF_KEY_HLO_MODULE), &module);
	if (!pf_stat_int(pf_event_stat(ev, PF_KEY_PROGRAM_ID), &program))
		program = -1;
	if ((m = hlo_set_find(w->opt.hlo, program, module.ptr,
	    module.len)) == NULL)
		return NULL;
	for (i = op.len; i > 1; i--)
		if (memcmp(op.ptr + i - 2, "::", 2) == 0) {
			op.ptr += i;
			op.len -= i;
			break;
		}
	if ((in = hlo_module_instr(m, op.ptr, op.len)) != NULL)
		return in;
	if (!pf_stat_int(pf_event_stat(ev, PF_KEY_CORRELATION_ID),
	    &graph_launch))
		graph_launch = -1;
	name = pf_event_name(ev);
	if ((in = hlo_match_kernel(&w->cursor, m, graph_launch, name,
	    strlen(name))) != NULL)
		*launch = op;
	return in;
}

/* The attribution args of in (after others: `,"key":value`...). */
static void
put_attribution(struct chrome_writer *w, const struct hlo_instr *in,
    struct pf_bytes launch, int first)
{
	char line[32];

	if (!first)
		put_raw(w, ",", 1);
	puts_(w, "\"hlo_op\":");
	put_cstr(w, in->name);
	if (launch.len > 0) {
		puts_(w, ",\"hlo_launch\":");
		put_str(w, launch.ptr, launch.len);
	}
	if (in->op_name[0] != '\0') {
		puts_(w, ",\"framework_op\":");
		put_cstr(w, in->op_name);
	}
	if (in->source_file[0] != '\0') {
		char *s;

		snprintf(line, sizeof line, ":%" PRId32, in->source_line);
		s = xasprintf("%s%s", in->source_file, in->source_line > 0 ?
		    line : "");
		puts_(w, ",\"source\":");
		put_cstr(w, s);
		free(s);
	}
}

/* Stats the attribution writes itself. */
static int
attribution_key(const struct pf_stat *st)
{
	return st->key == PF_KEY_HLO_OP || strcmp(st->name, "framework_op") ==
	    0 || strcmp(st->name, "source") == 0 ||
	    strcmp(st->name, "hlo_launch") == 0;
}

static void
put_args(struct chrome_writer *w, const struct pf_event *ev)
{
	size_t nmeta = ev->meta != NULL ? ev->meta->nstats : 0;
	size_t n = nmeta + ev->nstats, i, j;
	int first = 1, long_name;
	struct pf_bytes launch;
	const struct hlo_instr *in = event_instr(w, ev, &launch);

	/* A stat named "long_name" wins over ours. */
	long_name = ev->meta != NULL && ev->meta->display_name[0] != '\0';
	for (i = 0; long_name && i < n; i++)
		if (strcmp(nth_stat(ev, i)->name, "long_name") == 0)
			long_name = 0;
	puts_(w, "\"args\":{");
	if (long_name) {
		puts_(w, "\"long_name\":");
		put_cstr(w, ev->meta->name);
		first = 0;
	}
	for (i = 0; i < n; i++) {
		const struct pf_stat *st = nth_stat(ev, i);

		for (j = i + 1; j < n; j++)
			if (same_key(st, nth_stat(ev, j)))
				break;
		if (j < n)
			continue;	/* a later one overrides it */
		if (in != NULL && attribution_key(st))
			continue;	/* ours say it, as top does */
		if (!first)
			put_raw(w, ",", 1);
		first = 0;
		if (st->name[0] != '\0')
			put_cstr(w, st->name);
		else {
			char key[40];

			snprintf(key, sizeof key, "\"stat_%" PRId64 "\"",
			    st->metadata_id);
			puts_(w, key);
		}
		put_raw(w, ":", 1);
		put_stat_value(w, st);
	}
	if (in != NULL)
		put_attribution(w, in, launch, first);
	puts_(w, "}");
}

/*
 * The thread (lane) an event [s, e) nests on: the first whose stack, once
 * the slices ended by s are popped, is empty or holds a slice that contains
 * it, and that has written nothing starting after s.  The last lane takes
 * the event when none does.
 */
static size_t
pick_lane(struct chrome_writer *w, int64_t s, int64_t e)
{
	size_t k;

	for (k = 0; k < CHROME_MAX_LANES; k++) {
		struct lane *l = &w->lanes[k];

		if (s < l->last_start)
			continue;
		while (l->n > 0 && l->ends[l->n - 1] <= s)
			l->n--;
		if (l->n > 0 && e > l->ends[l->n - 1])
			continue;
		if (l->n == l->cap) {
			l->cap = l->cap * 2 + 16;
			l->ends = xreallocarray(l->ends, l->cap,
			    sizeof *l->ends);
		}
		l->ends[l->n++] = e;
		l->last_start = s;
		if (k > 0)
			w->stats.overlaps++;
		return k;
	}
	w->stats.overlaps++;
	w->stats.unnested++;
	return CHROME_MAX_LANES - 1;
}

static int
on_event(void *ctx, const struct pf_plane *plane, const struct pf_line *line,
    const struct pf_event *ev)
{
	struct chrome_writer *w = ctx;
	int64_t s = ev->start_ps, d = ev->duration_ps > 0 ? ev->duration_ps : 0;
	int64_t e = s > INT64_MAX - d ? INT64_MAX : s + d, tid;
	const char *name;
	char us[CHROME_US_MAX];
	size_t k;

	(void)plane;
	if (ev->aggregated) {
		w->stats.aggregated++;
		return 0;
	}
	if (w->windowed && (s >= w->opt.end_ps ||
	    (d == 0 ? s < w->opt.start_ps : e <= w->opt.start_ps))) {
		w->stats.outside++;
		return 0;
	}
	k = pick_lane(w, s, e);
	tid = (int64_t)k * w->tid_step + w->tid;
	name_plane(w);
	name_lane(w, line, k, tid);

	put_item(w);
	puts_(w, "{\"ph\":\"X\",\"pid\":");
	put_int(w, w->pid);
	puts_(w, ",\"tid\":");
	put_int(w, tid);
	puts_(w, ",\"ts\":");
	puts_(w, chrome_fmt_us(us, s));
	puts_(w, ",\"dur\":");
	puts_(w, chrome_fmt_us(us, d));
	puts_(w, ",\"name\":");
	name = pf_event_name(ev);
	put_cstr(w, name);
	put_raw(w, ",", 1);
	put_args(w, ev);
	put_raw(w, "}", 1);
	w->stats.events++;
	return w->error != NULL ? CHROME_STOPPED : 0;
}

static int
on_plane_begin(void *ctx, const struct pf_plane *plane)
{
	struct chrome_writer *w = ctx;

	w->pid++;
	w->plane_named = 0;
	w->plane_name = plane->name;
	w->plane_id = plane->id;
	w->tid = 0;
	w->tid_step = 10000;
	while ((uint64_t)w->tid_step <= plane->nlines &&
	    w->tid_step <= INT64_MAX / 10 / CHROME_MAX_LANES)
		w->tid_step *= 10;
	return w->error != NULL ? CHROME_STOPPED : 0;
}

static int
on_line_begin(void *ctx, const struct pf_plane *plane,
    const struct pf_line *line)
{
	struct chrome_writer *w = ctx;
	size_t k;

	(void)plane;
	static const struct hlo_cursor fresh = HLO_CURSOR_INIT;

	(void)line;
	w->tid++;
	w->cursor = fresh;
	for (k = 0; k < CHROME_MAX_LANES; k++) {
		w->lanes[k].n = 0;
		w->lanes[k].last_start = INT64_MIN;
		w->lanes[k].named = 0;
	}
	return w->error != NULL ? CHROME_STOPPED : 0;
}

static int
on_plane_end(void *ctx, const struct pf_plane *plane)
{
	struct chrome_writer *w = ctx;

	(void)plane;
	w->plane_name = NULL;
	return w->error != NULL ? CHROME_STOPPED : 0;
}

/* ---- Lifecycle ---- */

static int
name_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

void
chrome_options_init(struct chrome_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->start_ps = INT64_MIN;
	opt->end_ps = INT64_MAX;
}

struct chrome_writer *
chrome_writer_new(FILE *out, const char *path,
    const struct chrome_options *opt, struct pf_handler *h, char **cause)
{
	struct chrome_writer *w;

	if (out == NULL && path == NULL) {
		*cause = xstrdup("no output for the trace");
		return NULL;
	}
	w = xcalloc(1, sizeof *w);
	if (path != NULL)
		w->path = xstrdup(path);
	if (out != NULL)
		w->fp = out;
	else if (name_has_suffix(path, ".gz")) {
		int fd;

		if ((fd = outfile_open(&w->of, AT_FDCWD, path)) == -1) {
			*cause = xasprintf("cannot create '%s': %s", path,
			    strerror(errno));
			goto fail;
		}
		w->own = 1;
		/* gzclose() closes its own descriptor; of syncs fd after. */
		errno = 0;
		if ((fd = dup(fd)) == -1 || (w->gz = gzdopen(fd, "wb")) ==
		    NULL) {
			*cause = xasprintf("cannot create '%s': %s", path,
			    errno != 0 ? strerror(errno) : "out of memory");
			if (fd != -1)
				close(fd);
			outfile_abort(&w->of);
			goto fail;
		}
	} else {
		if ((w->fp = outfile_fopen(&w->of, path)) == NULL) {
			*cause = xasprintf("cannot create '%s': %s", path,
			    strerror(errno));
			goto fail;
		}
		w->own = 1;
	}
	if (opt != NULL)
		w->opt = *opt;
	else
		chrome_options_init(&w->opt);
	w->windowed = w->opt.start_ps < w->opt.end_ps &&
	    (w->opt.start_ps != INT64_MIN || w->opt.end_ps != INT64_MAX);

	memset(h, 0, sizeof *h);
	h->ctx = w;
	h->plane_begin = on_plane_begin;
	h->line_begin = on_line_begin;
	h->event = on_event;
	h->plane_end = on_plane_end;

	puts_(w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	return w;

fail:
	free(w->path);
	free(w);
	return NULL;
}

int
chrome_writer_finish(struct chrome_writer *w, struct chrome_stats *stats,
    char **cause)
{
	size_t k;
	int rc;

	if (w == NULL)
		return 0;
	puts_(w, "\n]}\n");
	chrome_drain(w);
	errno = 0;
	if (w->gz != NULL) {
		int zrc = gzclose(w->gz);

		if (zrc != Z_OK)
			set_error(w, zrc == Z_ERRNO ? errno_text() :
			    zError(zrc));
	} else if (fflush(w->fp) != 0 || ferror(w->fp))
		set_error(w, errno_text());
	/* A trace not written whole leaves the old file as it was. */
	if (w->own && (w->error != NULL || outfile_commit(&w->of) == -1)) {
		set_error(w, errno_text());
		outfile_abort(&w->of);
	}
	if (stats != NULL)
		*stats = w->stats;
	rc = 0;
	if (w->error != NULL) {
		*cause = w->error;
		w->error = NULL;
		rc = -1;
	}
	for (k = 0; k < CHROME_MAX_LANES; k++)
		free(w->lanes[k].ends);
	free(w->path);
	free(w);
	return rc;
}
