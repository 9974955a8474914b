/* Baseline files: write a summary as versioned JSON, read it back (yajl). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <yajl_tree.h>

#include "report/baseline.h"
#include "lib/err.h"
#include "lib/json-string.h"
#include "report/summary.h"
#include "lib/xmalloc.h"

/* A baseline larger than this is not one (real ones are KBs). */
#define BASELINE_MAX_BYTES	(256L * 1024 * 1024)

/*
 * Writing: laid out as yajl's beautifier did (two-space indents, an
 * empty array as "[", a blank line, "]"), strings as json-string.h.
 */
#define WRITER_DEPTH	8	/* the deepest a baseline nests */

struct writer {
	FILE		*fp;
	int		 depth;
	int		 items[WRITER_DEPTH];	/* values (or keys) per depth */
	int		 key;		/* a key was written: its value next */
};

/* Before a key or a value: the separator and the indent. */
static void
w_next(struct writer *w)
{
	int i;

	if (w->key) {
		fputs(": ", w->fp);
		w->key = 0;
		return;
	}
	if (w->items[w->depth]++ > 0)
		fputs(",\n", w->fp);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->fp);
}

static void
w_open(struct writer *w, char c)
{
	w_next(w);
	fputc(c, w->fp);
	fputc('\n', w->fp);
	w->items[++w->depth] = 0;
}

static void
w_close(struct writer *w, char c)
{
	int i;

	w->depth--;
	fputc('\n', w->fp);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->fp);
	fputc(c, w->fp);
	if (w->depth == 0)
		fputc('\n', w->fp);
}

static void
w_key(struct writer *w, const char *key)
{
	w_next(w);
	json_fputs(w->fp, key);
	w->key = 1;
}

static void
w_str(struct writer *w, const char *s)
{
	w_next(w);
	json_fputs(w->fp, s);
}

/* A string member, or null when s is NULL. */
static void
w_key_str(struct writer *w, const char *key, const char *s)
{
	w_key(w, key);
	if (s != NULL)
		w_str(w, s);
	else {
		w_next(w);
		fputs("null", w->fp);
	}
}

static void
w_int(struct writer *w, int64_t v)
{
	w_next(w);
	fprintf(w->fp, "%lld", (long long)v);
}

static void
w_key_int(struct writer *w, const char *key, int64_t v)
{
	w_key(w, key);
	w_int(w, v);
}

/* An integer member, or null when has is 0. */
static void
w_key_opt(struct writer *w, const char *key, int64_t v, int has)
{
	w_key(w, key);
	if (has)
		w_int(w, v);
	else {
		w_next(w);
		fputs("null", w->fp);
	}
}

static void
w_key_bool(struct writer *w, const char *key, int v)
{
	w_key(w, key);
	w_next(w);
	fputs(v ? "true" : "false", w->fp);
}

static void
w_strings(struct writer *w, const char *key, char **v, size_t n)
{
	size_t i;

	w_key(w, key);
	w_open(w, '[');
	for (i = 0; i < n; i++)
		w_str(w, v[i]);
	w_close(w, ']');
}

/* "2026-01-01T00:00:00Z" for now, or for $SOURCE_DATE_EPOCH. */
static void
format_created(char *buf, size_t size)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char *end;
	long long v;

	if (epoch != NULL && *epoch != '\0') {
		errno = 0;
		v = strtoll(epoch, &end, 10);
		if (errno == 0 && *end == '\0' && v >= 0)
			t = (time_t)v;
	}
	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void
write_ops(struct writer *w, const struct summary *s)
{
	size_t i;

	w_key(w, "ops");
	w_open(w, '[');
	for (i = 0; i < s->nops; i++) {
		const struct op_row *o = &s->ops[i];

		w_open(w, '{');
		w_key_str(w, "name", o->name);
		w_key_str(w, "module", o->module);
		w_key_str(w, "category", o->category);
		w_key_str(w, "framework_op", o->framework_op);
		w_key_str(w, "source", o->source);
		w_key_str(w, "source_function", o->source_function);
		w_key_int(w, "count", o->count);
		w_key_int(w, "total_ps", o->total_ps);
		w_key_int(w, "self_ps", o->self_ps);
		w_key_int(w, "min_ps", o->min_ps);
		w_key_int(w, "max_ps", o->max_ps);
		w_key_opt(w, "flops", o->flops, o->has_flops);
		w_key_opt(w, "bytes_accessed", o->bytes, o->has_bytes);
		w_close(w, '}');
	}
	w_close(w, ']');
	w_key(w, "kernels");
	w_open(w, '[');
	for (i = 0; i < s->nkernels; i++) {
		const struct op_row *k = &s->kernels[i];

		w_open(w, '{');
		w_key_str(w, "name", k->name);
		w_key_str(w, "op", k->category);
		w_key_int(w, "count", k->count);
		w_key_int(w, "total_ps", k->total_ps);
		w_key_int(w, "min_ps", k->min_ps);
		w_key_int(w, "max_ps", k->max_ps);
		w_close(w, '}');
	}
	w_close(w, ']');
}

static void
write_steps_compiles_transfers(struct writer *w, const struct summary *s)
{
	int64_t count, total = summary_compile_total_ps(s, &count);
	size_t i, j;

	w_key(w, "steps");
	w_open(w, '{');
	w_key_str(w, "source", s->step_source);
	w_key(w, "series");
	w_open(w, '[');
	for (i = 0; i < s->nsteps; i++) {
		w_open(w, '{');
		w_key_str(w, "host", s->steps[i].host);
		w_key_str(w, "run", s->steps[i].run);
		w_key_str(w, "plane", s->steps[i].plane);
		w_key(w, "dur_ps");
		w_open(w, '[');
		for (j = 0; j < s->steps[i].n; j++)
			w_int(w, s->steps[i].dur_ps[j]);
		w_close(w, ']');
		w_close(w, '}');
	}
	w_close(w, ']');
	w_close(w, '}');

	w_key(w, "compiles");
	w_open(w, '{');
	w_key_int(w, "count", count);
	w_key_int(w, "total_ps", total);
	w_key(w, "functions");
	w_open(w, '[');
	for (i = 0; i < s->ncompiles; i++) {
		w_open(w, '{');
		w_key_str(w, "function", s->compiles[i].function);
		w_key_int(w, "count", s->compiles[i].count);
		w_key_int(w, "total_ps", s->compiles[i].total_ps);
		w_close(w, '}');
	}
	w_close(w, ']');
	w_close(w, '}');

	w_key(w, "transfers");
	w_open(w, '[');
	for (i = 0; i < s->ntransfers; i++) {
		const struct transfer_total *t = &s->transfers[i];

		w_open(w, '{');
		w_key_str(w, "direction", t->direction);
		w_key_bool(w, "on_host", t->on_host);
		w_key_int(w, "count", t->count);
		w_key_opt(w, "bytes", t->bytes, t->has_bytes);
		w_key_int(w, "total_ps", t->total_ps);
		w_close(w, '}');
	}
	w_close(w, ']');
}

static void
write_memory(struct writer *w, const struct summary *s)
{
	size_t i;

	w_key(w, "memory");
	w_open(w, '[');
	for (i = 0; i < s->nmemory; i++) {
		w_open(w, '{');
		w_key_str(w, "kind", s->memory[i].kind);
		w_key_str(w, "name", s->memory[i].name);
		w_key_int(w, "bytes", s->memory[i].bytes);
		w_close(w, '}');
	}
	w_close(w, ']');
}

int
baseline_write(const struct summary *s, FILE *fp, char **cause)
{
	struct writer w = { fp, 0, { 0 }, 0 };
	char created[32];

	format_created(created, sizeof created);
	w_open(&w, '{');
	w_key_str(&w, "format", BASELINE_FORMAT);
	w_key_int(&w, "version", BASELINE_VERSION);
	w_key_str(&w, "jaxprof_version", PACKAGE_VERSION);
	w_key_str(&w, "created", created);
	w_strings(&w, "sources", s->sources, s->nsources);
	w_key(&w, "selection");
	w_open(&w, '{');
	w_key_str(&w, "host", s->host_glob);
	w_key_str(&w, "device", s->device_glob);
	w_key_str(&w, "run", s->run_glob);
	w_key_bool(&w, "latest", s->latest);
	w_close(&w, '}');
	w_strings(&w, "hosts", s->hosts, s->nhosts);
	w_strings(&w, "runs", s->runs, s->nruns);
	write_ops(&w, s);
	write_steps_compiles_transfers(&w, s);
	write_memory(&w, s);
	w_key_int(&w, "executions", s->executions);
	w_close(&w, '}');
	if (fflush(fp) != 0 || ferror(fp)) {
		*cause = xasprintf("%s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Reading: the first problem found, for the message. */
struct reader {
	const char	*path;
	char		*cause;
};

static int
bad(struct reader *rd, const char *what, const char *key)
{
	if (rd->cause == NULL)
		rd->cause = xasprintf("invalid baseline '%s': %s '%s'",
		    rd->path, what, key);
	return -1;
}

static yajl_val
member(yajl_val obj, const char *key)
{
	const char *path[2] = { key, NULL };

	return yajl_tree_get(obj, path, yajl_t_any);
}

/* A required string member, copied. */
static int
get_opt_str(yajl_val obj, const char *key, char **out)
{
	yajl_val v = member(obj, key);

	/* Added after version 1 was first written: "" when absent. */
	*out = xstrdup(YAJL_IS_STRING(v) ? YAJL_GET_STRING(v) : "");
	return 0;
}

static int
get_str(struct reader *rd, yajl_val obj, const char *key, char **out)
{
	yajl_val v = member(obj, key);

	if (!YAJL_IS_STRING(v))
		return bad(rd, "missing or non-string", key);
	*out = xstrdup(YAJL_GET_STRING(v));
	return 0;
}

/*
 * A required integer member; with has, null is allowed (*has = 0).  Every
 * integer a baseline holds is a count, a time, FLOPs or bytes: a negative
 * one is a damaged or hand-made file, not a measurement.
 */
static int
get_int(struct reader *rd, yajl_val obj, const char *key, int64_t *out,
    int *has)
{
	yajl_val v = member(obj, key);

	*out = 0;
	if (has != NULL && YAJL_IS_NULL(v)) {
		*has = 0;
		return 0;
	}
	if (!YAJL_IS_INTEGER(v))
		return bad(rd, "missing or non-integer", key);
	if (YAJL_GET_INTEGER(v) < 0)
		return bad(rd, "negative", key);
	*out = YAJL_GET_INTEGER(v);
	if (has != NULL)
		*has = 1;
	return 0;
}

static int
get_array(struct reader *rd, yajl_val obj, const char *key, yajl_val *out)
{
	*out = member(obj, key);
	return YAJL_IS_ARRAY(*out) ? 0 : bad(rd, "missing array", key);
}

static int
get_strings(struct reader *rd, yajl_val obj, const char *key, char ***v,
    size_t *n)
{
	yajl_val a;
	size_t i;

	if (get_array(rd, obj, key, &a) == -1)
		return -1;
	*v = xcalloc(a->u.array.len + 1, sizeof **v);
	for (i = 0; i < a->u.array.len; i++) {
		if (!YAJL_IS_STRING(a->u.array.values[i]))
			return bad(rd, "non-string in", key);
		(*v)[(*n)++] = xstrdup(YAJL_GET_STRING(a->u.array.values[i]));
	}
	return 0;
}

static int
read_ops(struct reader *rd, struct summary *s, yajl_val root)
{
	yajl_val a;
	size_t i;

	if (get_array(rd, root, "ops", &a) == -1)
		return -1;
	s->ops = xcalloc(a->u.array.len + 1, sizeof *s->ops);
	for (i = 0; i < a->u.array.len; i++) {
		yajl_val v = a->u.array.values[i];
		struct op_row *o = &s->ops[s->nops++];

		if (get_str(rd, v, "name", &o->name) == -1 ||
		    get_str(rd, v, "module", &o->module) == -1 ||
		    get_str(rd, v, "category", &o->category) == -1 ||
		    (s->pairs_by_name ?
		    get_opt_str(v, "framework_op", &o->framework_op) :
		    get_str(rd, v, "framework_op", &o->framework_op)) == -1 ||
		    (s->pairs_by_name ? get_opt_str(v, "source", &o->source) :
		    get_str(rd, v, "source", &o->source)) == -1 ||
		    get_opt_str(v, "source_function", &o->source_function) ==
		    -1 ||
		    get_int(rd, v, "count", &o->count, NULL) == -1 ||
		    get_int(rd, v, "total_ps", &o->total_ps, NULL) == -1 ||
		    get_int(rd, v, "self_ps", &o->self_ps, NULL) == -1 ||
		    get_int(rd, v, "min_ps", &o->min_ps, NULL) == -1 ||
		    get_int(rd, v, "max_ps", &o->max_ps, NULL) == -1 ||
		    get_int(rd, v, "flops", &o->flops, &o->has_flops) == -1 ||
		    get_int(rd, v, "bytes_accessed", &o->bytes,
		    &o->has_bytes) == -1)
			return -1;
	}
	if (get_array(rd, root, "kernels", &a) == -1)
		return -1;
	s->kernels = xcalloc(a->u.array.len + 1, sizeof *s->kernels);
	for (i = 0; i < a->u.array.len; i++) {
		yajl_val v = a->u.array.values[i];
		struct op_row *k = &s->kernels[s->nkernels++];

		k->module = xstrdup("");
		k->source = xstrdup("");
		k->source_function = xstrdup("");
		if (get_str(rd, v, "name", &k->name) == -1 ||
		    get_str(rd, v, "op", &k->category) == -1 ||
		    get_opt_str(v, "framework_op", &k->framework_op) == -1 ||
		    get_int(rd, v, "count", &k->count, NULL) == -1 ||
		    get_int(rd, v, "total_ps", &k->total_ps, NULL) == -1 ||
		    get_int(rd, v, "min_ps", &k->min_ps, NULL) == -1 ||
		    get_int(rd, v, "max_ps", &k->max_ps, NULL) == -1)
			return -1;
		k->self_ps = k->total_ps;
	}
	return 0;
}

static int
read_steps(struct reader *rd, struct summary *s, yajl_val root)
{
	yajl_val steps = member(root, "steps"), a;
	size_t i, j;

	if (!YAJL_IS_OBJECT(steps))
		return bad(rd, "missing object", "steps");
	if (get_str(rd, steps, "source", &s->step_source) == -1 ||
	    get_array(rd, steps, "series", &a) == -1)
		return -1;
	s->steps = xcalloc(a->u.array.len + 1, sizeof *s->steps);
	for (i = 0; i < a->u.array.len; i++) {
		yajl_val v = a->u.array.values[i], d;
		struct step_series *ss = &s->steps[s->nsteps++];

		if (get_str(rd, v, "host", &ss->host) == -1 ||
		    get_str(rd, v, "run", &ss->run) == -1 ||
		    get_str(rd, v, "plane", &ss->plane) == -1 ||
		    get_array(rd, v, "dur_ps", &d) == -1)
			return -1;
		ss->dur_ps = xcalloc(d->u.array.len + 1, sizeof *ss->dur_ps);
		for (j = 0; j < d->u.array.len; j++) {
			if (!YAJL_IS_INTEGER(d->u.array.values[j]))
				return bad(rd, "non-integer in", "dur_ps");
			if (YAJL_GET_INTEGER(d->u.array.values[j]) < 0)
				return bad(rd, "negative number in", "dur_ps");
			ss->dur_ps[ss->n++] =
			    YAJL_GET_INTEGER(d->u.array.values[j]);
		}
	}
	return 0;
}

/* Compile totals are derived from the functions when read. */
static int
read_compiles_transfers(struct reader *rd, struct summary *s, yajl_val root)
{
	yajl_val c = member(root, "compiles"), a;
	size_t i;

	if (!YAJL_IS_OBJECT(c))
		return bad(rd, "missing object", "compiles");
	if (get_array(rd, c, "functions", &a) == -1)
		return -1;
	s->compiles = xcalloc(a->u.array.len + 1, sizeof *s->compiles);
	for (i = 0; i < a->u.array.len; i++) {
		yajl_val v = a->u.array.values[i];
		struct compile_fn *f = &s->compiles[s->ncompiles++];

		if (get_str(rd, v, "function", &f->function) == -1 ||
		    get_int(rd, v, "count", &f->count, NULL) == -1 ||
		    get_int(rd, v, "total_ps", &f->total_ps, NULL) == -1)
			return -1;
	}
	if (get_array(rd, root, "transfers", &a) == -1)
		return -1;
	s->transfers = xcalloc(a->u.array.len + 1, sizeof *s->transfers);
	for (i = 0; i < a->u.array.len; i++) {
		yajl_val v = a->u.array.values[i];
		yajl_val on_host = member(v, "on_host");
		struct transfer_total *t = &s->transfers[s->ntransfers++];

		if (get_str(rd, v, "direction", &t->direction) == -1)
			return -1;
		if (!YAJL_IS_TRUE(on_host) && !YAJL_IS_FALSE(on_host))
			return bad(rd, "missing or non-boolean", "on_host");
		t->on_host = YAJL_IS_TRUE(on_host);
		if (get_int(rd, v, "count", &t->count, NULL) == -1 ||
		    get_int(rd, v, "bytes", &t->bytes, &t->has_bytes) == -1 ||
		    get_int(rd, v, "total_ps", &t->total_ps, NULL) == -1)
			return -1;
	}
	return 0;
}

/* Optional: baselines before it hold no memory peaks. */
static int
read_memory(struct reader *rd, struct summary *s, yajl_val root)
{
	yajl_val a = member(root, "memory");
	size_t i;

	if (a == NULL)
		return 0;
	if (get_array(rd, root, "memory", &a) == -1)
		return -1;
	s->memory = xcalloc(a->u.array.len + 1, sizeof *s->memory);
	for (i = 0; i < a->u.array.len; i++) {
		yajl_val v = a->u.array.values[i];
		struct memory_peak *m = &s->memory[s->nmemory++];

		if (get_str(rd, v, "kind", &m->kind) == -1 ||
		    get_str(rd, v, "name", &m->name) == -1 ||
		    get_int(rd, v, "bytes", &m->bytes, NULL) == -1)
			return -1;
	}
	return 0;
}

/* The whole file, NUL-terminated; NULL with errno set. */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, n;
	int saved;

	if (fp == NULL)
		return NULL;
	do {
		buf = xreallocarray(buf, len + 65536 + 1, 1);
		n = fread(buf + len, 1, 65536, fp);
		len += n;
	} while (n > 0 && len <= BASELINE_MAX_BYTES);
	saved = ferror(fp) ? errno : 0;
	fclose(fp);
	if (saved != 0 || len > BASELINE_MAX_BYTES) {
		free(buf);
		errno = saved != 0 ? saved : EFBIG;
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

int
baseline_read(struct summary *s, const char *path, char **cause)
{
	struct reader rd = { path, NULL };
	yajl_val root, v;
	char *text, errbuf[256];
	int64_t version;
	int rc = -1;

	if ((text = slurp(path)) == NULL) {
		*cause = xasprintf("cannot read baseline '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	root = yajl_tree_parse(text, errbuf, sizeof errbuf);
	free(text);
	if (root == NULL) {
		/* yajl's message spans lines; its first says what is wrong. */
		errbuf[strcspn(errbuf, "\n")] = '\0';
		*cause = xasprintf("'%s' is not a jaxprof baseline: %s", path,
		    errbuf);
		return -1;
	}
	v = member(root, "format");
	if (!YAJL_IS_OBJECT(root) || !YAJL_IS_STRING(v) ||
	    strcmp(v->u.string, BASELINE_FORMAT) != 0) {
		*cause = xasprintf("'%s' is not a jaxprof baseline (its "
		    "\"format\" is not \"%s\")", path, BASELINE_FORMAT);
		goto out;
	}
	if (get_int(&rd, root, "version", &version, NULL) == -1)
		goto fail;
	if (version < 1 || version > BASELINE_VERSION) {
		*cause = xasprintf("baseline '%s' has version %lld; this "
		    "jaxprof reads versions 1 to %d", path,
		    (long long)version, BASELINE_VERSION);
		goto out;
	}
	/* Version 1 kept no identity to pair by (or not always). */
	s->pairs_by_name = version == 1;
	if (get_str(&rd, root, "jaxprof_version", &s->jaxprof_version) == -1 ||
	    get_str(&rd, root, "created", &s->created) == -1 ||
	    get_strings(&rd, root, "sources", &s->sources,
	    &s->nsources) == -1 ||
	    get_strings(&rd, root, "hosts", &s->hosts, &s->nhosts) == -1 ||
	    get_strings(&rd, root, "runs", &s->runs, &s->nruns) == -1 ||
	    read_ops(&rd, s, root) == -1 ||
	    read_steps(&rd, s, root) == -1 ||
	    read_compiles_transfers(&rd, s, root) == -1 ||
	    read_memory(&rd, s, root) == -1)
		goto fail;
	v = member(root, "selection");
	if (YAJL_IS_OBJECT(v) && (get_str(&rd, v, "host", &s->host_glob) ||
	    get_str(&rd, v, "device", &s->device_glob) ||
	    get_str(&rd, v, "run", &s->run_glob)))
		goto fail;
	s->latest = YAJL_IS_TRUE(member(v, "latest"));
	/* Optional: baselines before it have no per-execution figure. */
	v = member(root, "executions");
	if (YAJL_IS_INTEGER(v) &&
	    get_int(&rd, root, "executions", &s->executions, NULL) == -1)
		goto fail;
	rc = 0;
	goto out;
fail:
	*cause = rd.cause;
	rd.cause = NULL;
out:
	free(rd.cause);
	yajl_tree_free(root);
	return rc;
}
