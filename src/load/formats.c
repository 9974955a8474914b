/* The profile formats, registered once (formats.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/fdio.h"
#include "load/formats.h"

static const struct format_name xplane_names[] = {
	{ ".xplane.pb.gz", 0, 0 },
	{ ".xplane.pb", 0, 0 },
	{ NULL, 0, 0 },
};

/* Perfetto's copy of a trace is read only where nothing else is. */
static const struct format_name json_names[] = {
	{ "perfetto_trace.json.gz", 1, 2 },
	{ "perfetto_trace.json", 1, 2 },
	{ ".trace.json.gz", 0, 1 },
	{ ".trace.json", 0, 1 },
	{ NULL, 0, 0 },
};

/* Tool outputs written beside a profile (FORMATS.md 1.2): listed. */
static const struct format_name other_names[] = {
	{ ".xplane.riegeli", 0, -1 },
	{ ".input_pipeline.pb", 0, -1 },
	{ ".input_pipeline.json", 0, -1 },
	{ ".overview_page.pb", 0, -1 },
	{ ".overview_page.json", 0, -1 },
	{ ".tensorflow_stats.pb", 0, -1 },
	{ ".kernel_stats.pb", 0, -1 },
	{ ".memory_profile.json.gz", 0, -1 },
	{ ".memory_viewer.json", 0, -1 },
	{ ".pod_viewer.json", 0, -1 },
	{ ".op_profile.json", 0, -1 },
	{ ".hlo_proto.pb", 0, -1 },
	{ NULL, 0, 0 },
};

/*
 * By enum file_kind.  An XSpace has what trace JSON lacks (the HLO): a
 * trace JSON named on its own is read with the XSpace beside it, and a
 * folder whose XSpace cannot be read has its trace JSON read instead.
 */
static const struct format formats[] = {
	{ KIND_XPLANE, "xplane", "an XSpace", xplane_names,
	    { SNIFF_XSPACE, SNIFF_XSPACE_GZ, SNIFF_XSPACE_GZ }, 1, 0, 1,
	    load_xspace_file, load_xspace_bytes },
	{ KIND_TRACE_JSON, "trace-json", "trace JSON", json_names,
	    { SNIFF_JSON, SNIFF_JSON_GZ, SNIFF_JSON_OTHER }, 0, 1, 0,
	    load_json_file, NULL },
	{ KIND_OTHER, "other", "another tool's output", other_names,
	    { SNIFF_UNKNOWN, SNIFF_UNKNOWN, SNIFF_UNKNOWN }, 0, 0, 0,
	    NULL, NULL },
};

#define NFORMATS	(sizeof formats / sizeof formats[0])

const struct format *
format_of_kind(enum file_kind kind)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (formats[i].kind == kind)
			return &formats[i];
	return &formats[NFORMATS - 1];
}

const struct format *
format_complete(void)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (formats[i].complete)
			return &formats[i];
	return &formats[0];
}

const struct format *
format_unnamed(void)
{
	return format_of_kind(KIND_OTHER);
}

int
file_kind_is_profile(enum file_kind kind)
{
	return format_of_kind(kind)->load != NULL;
}

const char *
file_kind_name(enum file_kind kind)
{
	return format_of_kind(kind)->name;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The first name of a format that name matches (suffixes: whole or not). */
static const struct format_name *
match_name(const char *name, int suffixes_only, const struct format **fp)
{
	const struct format_name *fn;
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		for (fn = formats[i].names; fn->text != NULL; fn++)
			if (fn->whole ? !suffixes_only &&
			    strcmp(name, fn->text) == 0 :
			    has_suffix(name, fn->text)) {
				*fp = &formats[i];
				return fn;
			}
	return NULL;
}

/* The format a file name says; NULL: none. */
static const struct format *
format_of_name(const char *name)
{
	const struct format *f;

	return match_name(name, 0, &f) != NULL ? f : NULL;
}

int
file_kind_of(const char *name, enum file_kind *kind)
{
	const struct format *f = format_of_name(name);

	if (f == NULL)
		return -1;
	*kind = f->kind;
	return 0;
}

size_t
format_suffix_len(const char *name)
{
	const struct format *f;
	const struct format_name *fn = match_name(name, 1, &f);

	return fn != NULL ? strlen(fn->text) : 0;
}

int
format_rank(enum file_kind kind, const char *name)
{
	const struct format *f, *k = format_of_kind(kind);
	const struct format_name *fn = match_name(name, 0, &f);

	if (fn != NULL && f == k)
		return fn->rank;
	for (fn = k->names; fn->text != NULL && fn->whole; fn++)
		continue;
	return fn->text != NULL ? fn->rank : -1;
}

const struct format *
format_of_sniffed(enum sniffed s)
{
	size_t i, j;

	if (s == SNIFF_UNKNOWN)
		return NULL;
	for (i = 0; i < NFORMATS; i++)
		for (j = 0; j < sizeof formats[i].sniffed /
		    sizeof formats[i].sniffed[0]; j++)
			if (formats[i].sniffed[j] == s)
				return &formats[i];
	return NULL;
}

/* The reader of kind: the complete format's for a kind without one. */
static const struct format *
reader_of(enum file_kind kind)
{
	const struct format *f = format_of_kind(kind);

	return f->load != NULL ? f : format_complete();
}

int
load_file(const char *path, enum file_kind kind, int nthreads,
    const struct load_hooks *hooks, struct file_summary *fs, char **cause)
{
	memset(fs, 0, sizeof *fs);
	return reader_of(kind)->load(path, nthreads, hooks, fs, cause);
}

int
load_memory(const char *path, const uint8_t *data, size_t size,
    enum file_kind kind, int nthreads, const struct load_hooks *hooks,
    struct file_summary *fs, char **cause)
{
	const struct format *f = reader_of(kind);
	char fdpath[64];
	int fd, rc;

	memset(fs, 0, sizeof *fs);
	if (f->load_bytes != NULL && size >= 2 &&
	    !(data[0] == 0x1f && data[1] == 0x8b))
		return f->load_bytes(path, data, size, nthreads, hooks, fs,
		    cause);
	/* Others (gzip, JSON, empty) through a memfd, as from a file. */
	fd = memfd_create("jaxprof-entry", MFD_CLOEXEC);
	if (fd == -1 || write_full(fd, data, size) == -1) {
		if (fd != -1)
			close(fd);
		return load_file(path, kind, nthreads, hooks, fs, cause);
	}
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fd);
	rc = load_file(fdpath, kind, nthreads, hooks, fs, cause);
	close(fd);
	return rc;
}
