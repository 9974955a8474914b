/* Packed profile folders through libarchive: list entries, stream one. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "lib/err.h"
#include "lib/fdio.h"
#include "input/gzip.h"
#include "lib/ptime.h"
#include "input/read-archive.h"
#include "lib/xmalloc.h"

struct arc_reader {
	struct archive	*a;
	char		*path;		/* for messages */
	char		*name;		/* current entry, normalized */
	int		 have_entry;	/* arc_next() returned an entry */
	int64_t		 entry_in;	/* archive bytes read before its data */
};

static const char *const archive_suffixes[] = {
	".tar", ".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar.xz", ".txz",
	".tar.bz2", ".tbz2", ".zip",
};

int
arc_is_archive_name(const char *name)
{
	size_t n = strlen(name), m, i;

	for (i = 0; i < sizeof archive_suffixes / sizeof archive_suffixes[0];
	    i++) {
		m = strlen(archive_suffixes[i]);
		if (n > m && strcmp(name + n - m, archive_suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

char *
arc_normalize(const char *raw)
{
	char *out = xmalloc(strlen(raw) + 1), *o = out;
	const char *p = raw, *end;
	size_t len;

	while (*p != '\0') {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		end = strchr(p, '/');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (!(len == 1 && p[0] == '.')) {
			if (o != out)
				*o++ = '/';
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	*o = '\0';
	return out;
}

int
arc_name_unsafe(const char *raw)
{
	const char *p = raw, *end;
	size_t len;

	if (*raw == '/' || *raw == '\\')
		return 1;
	while (*p != '\0') {
		end = strpbrk(p, "/\\");
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		p += len;
		if (*p != '\0')
			p++;
	}
	return 0;
}

static char *
arc_error(struct arc_reader *r, const char *what)
{
	const char *msg = archive_error_string(r->a);

	return xasprintf("%s '%s': %s", what, r->path,
	    msg != NULL ? msg : "unknown error");
}

int
arc_open(struct arc_reader **rp, const char *path, char **cause)
{
	struct arc_reader *r = xcalloc(1, sizeof *r);

	r->path = xstrdup(path);
	if ((r->a = archive_read_new()) == NULL) {
		*cause = xasprintf("cannot read archive '%s': out of memory",
		    path);
		goto fail;
	}
	archive_read_support_filter_all(r->a);
	archive_read_support_format_all(r->a);
	if (archive_read_open_filename(r->a, path, 1 << 16) != ARCHIVE_OK) {
		*cause = arc_error(r, "cannot read archive");
		goto fail;
	}
	*rp = r;
	return 0;
fail:
	arc_close(r);
	*rp = NULL;
	return -1;
}

int
arc_next(struct arc_reader *r, struct arc_entry *e, char **cause)
{
	struct archive_entry *ae;
	const char *raw;
	int rc;

	memset(e, 0, sizeof *e);
	free(r->name);
	r->name = NULL;
	r->have_entry = 0;
	rc = archive_read_next_header(r->a, &ae);
	if (rc == ARCHIVE_EOF)
		return 0;
	if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
		*cause = arc_error(r, "cannot read archive");
		return -1;
	}
	if ((raw = archive_entry_pathname(ae)) == NULL &&
	    (raw = archive_entry_pathname_utf8(ae)) == NULL) {
		*cause = xasprintf("cannot read archive '%s': an entry has "
		    "no name", r->path);
		return -1;
	}
	r->name = arc_normalize(raw);
	r->have_entry = 1;
	r->entry_in = archive_filter_bytes(r->a, -1);
	e->name = r->name;
	e->raw_name = (char *)raw;
	e->unsafe = arc_name_unsafe(raw);
	if ((e->link = (char *)archive_entry_hardlink(ae)) != NULL)
		e->type = ARC_HARDLINK;
	else
		switch (archive_entry_filetype(ae)) {
		case AE_IFREG:
			e->type = ARC_FILE;
			break;
		case AE_IFDIR:
			e->type = ARC_DIR;
			break;
		case AE_IFLNK:
			e->type = ARC_SYMLINK;
			e->link = (char *)archive_entry_symlink(ae);
			break;
		default:
			e->type = ARC_SPECIAL;
			break;
		}
	e->size = archive_entry_size_is_set(ae) ?
	    (int64_t)archive_entry_size(ae) : -1;
	/* Saturated: a header may say any year at all. */
	e->mtime_ns = archive_entry_mtime_is_set(ae) ?
	    ps_add(ps_mul((int64_t)archive_entry_mtime(ae), 1000000000),
	    archive_entry_mtime_nsec(ae)) : 0;
	return 1;
}

/*
 * The inflate limits (gzip.h) for an entry: out bytes of it so far, from
 * the archive bytes read since its header (read-ahead makes that a
 * generous measure).
 */
static int
entry_limits(struct arc_reader *r, int64_t out, char **cause)
{
	char *why = NULL;

	if (inflate_check(archive_filter_bytes(r->a, -1) - r->entry_in, out,
	    &why) == 0)
		return 0;
	*cause = xasprintf("entry '%s' of '%s' %s", r->name, r->path, why);
	free(why);
	return -1;
}

int64_t
arc_copy(struct arc_reader *r, int fd, int64_t max, char **cause)
{
	enum { CHUNK = 1 << 16 };
	char *buf;
	int64_t total = 0;
	ssize_t n;

	if (!r->have_entry) {
		*cause = xasprintf("cannot read archive '%s': no entry",
		    r->path);
		return -1;
	}
	buf = xmalloc(CHUNK);
	while ((n = archive_read_data(r->a, buf, CHUNK)) != 0) {
		if (n < 0) {
			char *what = xasprintf("cannot read entry '%s' of",
			    r->name);

			*cause = arc_error(r, what);
			free(what);
			total = -1;
			break;
		}
		if (max >= 0 && total + n > max) {
			*cause = xasprintf("entry '%s' of '%s' is larger than "
			    "%lld bytes", r->name, r->path, (long long)max);
			total = -1;
			break;
		}
		if (entry_limits(r, total + n, cause) == -1) {
			total = -1;
			break;
		}
		if (write_full(fd, buf, (size_t)n) == -1) {
			*cause = xasprintf("cannot write entry '%s' of '%s': "
			    "%s", r->name, r->path, strerror(errno));
			total = -1;
			break;
		}
		total += n;
	}
	free(buf);
	r->have_entry = 0;
	return total;
}

int
arc_read(struct arc_reader *r, int64_t max, uint8_t **buf, size_t *len,
    char **cause)
{
	size_t cap = 1 << 12;
	ssize_t n;

	*len = 0;
	*buf = NULL;
	if (!r->have_entry) {
		*cause = xasprintf("cannot read archive '%s': no entry",
		    r->path);
		return -1;
	}
	*buf = xmalloc(cap);
	for (;;) {
		if (cap - *len < (1 << 12)) {
			cap *= 2;
			*buf = xreallocarray(*buf, cap, 1);
		}
		if ((n = archive_read_data(r->a, *buf + *len, cap - *len)) == 0)
			break;
		if (n < 0) {
			char *what = xasprintf("cannot read entry '%s' of",
			    r->name);

			*cause = arc_error(r, what);
			free(what);
			break;
		}
		if (max >= 0 && (int64_t)(*len + (size_t)n) > max) {
			*cause = xasprintf("entry '%s' of '%s' is larger than "
			    "%lld bytes", r->name, r->path, (long long)max);
			n = -1;
			break;
		}
		if (entry_limits(r, (int64_t)(*len + (size_t)n), cause) == -1) {
			n = -1;
			break;
		}
		*len += (size_t)n;
	}
	r->have_entry = 0;
	if (n < 0) {
		free(*buf);
		*buf = NULL;
		*len = 0;
		return -1;
	}
	/* Many small entries wait in memory: no slack kept per entry. */
	*buf = xreallocarray(*buf, *len + 1, 1);
	return 0;
}

void
arc_close(struct arc_reader *r)
{
	if (r == NULL)
		return;
	if (r->a != NULL)
		archive_read_free(r->a);
	free(r->name);
	free(r->path);
	free(r);
}

int
arc_list(const char *path, struct arc_entry **entries, size_t *n,
    char **cause)
{
	struct arc_reader *r;
	struct arc_entry e, *out = NULL;
	size_t count = 0;
	int rc;

	*entries = NULL;
	*n = 0;
	if (arc_open(&r, path, cause) == -1)
		return -1;
	while ((rc = arc_next(r, &e, cause)) == 1) {
		out = xreallocarray(out, count + 1, sizeof *out);
		out[count] = e;
		out[count].name = xstrdup(e.name);
		out[count].raw_name = xstrdup(e.raw_name);
		out[count].link = e.link != NULL ? xstrdup(e.link) : NULL;
		count++;
	}
	arc_close(r);
	if (rc == -1) {
		arc_entries_free(out, count);
		return -1;
	}
	*entries = out;
	*n = count;
	return 0;
}

void
arc_entries_free(struct arc_entry *entries, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(entries[i].name);
		free(entries[i].raw_name);
		free(entries[i].link);
	}
	free(entries);
}

int64_t
arc_copy_entry(const char *path, const char *name, int fd, char **cause)
{
	struct arc_reader *r;
	struct arc_entry e;
	int64_t size = -1;
	int rc;

	if (arc_open(&r, path, cause) == -1)
		return -1;
	while ((rc = arc_next(r, &e, cause)) == 1)
		if (e.type == ARC_FILE && strcmp(e.name, name) == 0) {
			size = arc_copy(r, fd, -1, cause);
			break;
		}
	if (rc == 0)
		*cause = xasprintf("no entry '%s' in archive '%s'", name,
		    path);
	arc_close(r);
	return size;
}
