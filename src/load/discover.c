/* Walks PATHs for profile files and names their run and host. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/discover.h"
#include "lib/err.h"
#include "load/formats.h"
#include "input/read-archive.h"
#include "input/sniff.h"
#include "lib/xmalloc.h"

static char *
host_of(const char *name)
{
	size_t n = strlen(name), suffix = format_suffix_len(name);

	if (strncmp(name, "perfetto_trace.json", 19) == 0 ||
	    (n >= 19 && strncmp(name + n - 19, "perfetto_trace.json", 19) ==
	    0) || (n >= 22 && strcmp(name + n - 22, "perfetto_trace.json.gz") ==
	    0))
		return xstrdup("");	/* Perfetto traces name no host */
	return suffix > 0 ? xstrndup(name, n - suffix) : xstrdup(name);
}

/* The run of dir/name: the folder under plugins/profile/, else the parent. */
static char *
run_of(const char *path)
{
	const char *marker = "/plugins/profile/", *p, *slash;
	const char *last = strrchr(path, '/'), *prev;

	if ((p = strstr(path, marker)) != NULL) {
		p += strlen(marker);
		if ((slash = strchr(p, '/')) != NULL)
			return xstrndup(p, (size_t)(slash - p));
	}
	if (last == NULL || last == path)
		return xstrdup("");
	for (prev = last - 1; prev > path && *prev != '/'; prev--)
		;
	if (*prev == '/')
		prev++;
	return xstrndup(prev, (size_t)(last - prev));
}

/* Whether path lies in a plugins/profile/<run>/ folder. */
static int
in_run_folder(const char *path)
{
	const char *p = strstr(path, "/plugins/profile/");

	return p != NULL && strchr(p + strlen("/plugins/profile/"), '/') != NULL;
}

char *
found_display_path(const char *path)
{
	const char *sep = strstr(path, ARCHIVE_ENTRY_SEP);

	if (sep == NULL)
		return xstrdup(path);
	return xasprintf("%.*s/%s", (int)(sep - path), path,
	    sep + strlen(ARCHIVE_ENTRY_SEP));
}

static char *
looks_like(const struct found_file *ff, enum sniffed what)
{
	const struct format *f = format_of_kind(ff->kind);
	int match = f->load == NULL || format_of_sniffed(what) == f;

	if (match || what == SNIFF_UNKNOWN)
		return NULL;
	return xasprintf("its name says %s, but it looks like %s", f->what,
	    sniffed_name(what));
}

char *
found_looks_like(const struct found_file *ff)
{
	if (strstr(ff->path, ARCHIVE_ENTRY_SEP) != NULL)
		return NULL;	/* an archive entry: not on disk */
	return looks_like(ff, sniff_file(ff->path));
}

char *
found_looks_like_entry(const struct found_file *ff, const void *mem,
    size_t n, const char *spool)
{
	return looks_like(ff, mem != NULL ? sniff_memory(mem, n) :
	    sniff_file(spool));
}

char *
found_no_run_message(const struct found *f, const char *glob)
{
	char *list = NULL, *l;
	size_t i, j;

	for (i = 0; i < f->nfiles; i++) {
		if (!file_kind_is_profile(f->files[i].kind))
			continue;
		for (j = 0; j < i; j++)
			if (file_kind_is_profile(f->files[j].kind) &&
			    strcmp(f->files[j].run, f->files[i].run) == 0)
				break;
		if (j < i)
			continue;
		l = xasprintf("%s%s'%s'", list != NULL ? list : "",
		    list != NULL ? ", " : "", f->files[i].run);
		free(list);
		list = l;
	}
	l = xasprintf("--run='%s' matches no run; runs found: %s", glob,
	    list != NULL ? list : "none");
	free(list);
	return l;
}

void
found_init(struct found *f)
{
	memset(f, 0, sizeof *f);
}

void
found_release(struct found *f)
{
	size_t i;

	for (i = 0; i < f->nfiles; i++) {
		free(f->files[i].path);
		free(f->files[i].run);
		free(f->files[i].host);
	}
	free(f->files);
	for (i = 0; i < f->nroots; i++)
		free(f->roots[i]);
	free(f->roots);
	memset(f, 0, sizeof *f);
}

/*
 * Adds a file whose run and host come from runpath (the file's own path,
 * or for an archive entry "<archive>/<entry>", as if the archive were a
 * folder).
 */
static void
add_entry(struct found *f, const char *path, const char *runpath,
    int64_t size, int64_t mtime_ns, enum file_kind kind)
{
	const char *base = strrchr(runpath, '/');
	struct found_file *ff;

	base = base != NULL ? base + 1 : runpath;
	f->files = xreallocarray(f->files, f->nfiles + 1, sizeof *f->files);
	ff = &f->files[f->nfiles++];
	ff->path = xstrdup(path);
	ff->kind = kind;
	ff->run = run_of(runpath);
	ff->host = host_of(base);
	ff->size = size;
	ff->mtime_ns = mtime_ns;
}

static void
add_file(struct found *f, const char *path, const struct stat *st,
    enum file_kind kind)
{
	add_entry(f, path, path, (int64_t)st->st_size,
	    (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec,
	    kind);
}

/*
 * The profile files packed in the archive at abs, by the same name rules
 * as files on disk.  Each is "<abs>//<entry>" with the archive's size and
 * mtime rules of discover.h; entries with unsafe names, links, folders and
 * archives within archives are left out.
 */
static int
add_archive(struct found *f, const char *abs, const struct stat *st,
    char **cause)
{
	struct arc_entry *e;
	size_t n, i;
	int64_t mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 +
	    st->st_mtim.tv_nsec;

	if (arc_list(abs, &e, &n, cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		const char *base = strrchr(e[i].name, '/');
		enum file_kind kind;
		char *path, *runpath;

		if (e[i].type != ARC_FILE || e[i].unsafe || *e[i].name == '\0')
			continue;
		base = base != NULL ? base + 1 : e[i].name;
		runpath = xasprintf("%s/%s", abs, e[i].name);
		if (file_kind_of(base, &kind) == -1) {
			if (!in_run_folder(runpath)) {
				free(runpath);
				continue;
			}
			kind = format_unnamed()->kind;
		}
		path = xasprintf("%s%s%s", abs, ARCHIVE_ENTRY_SEP, e[i].name);
		add_entry(f, path, runpath, e[i].size >= 0 ? e[i].size : 0,
		    mtime_ns, kind);
		free(path);
		free(runpath);
	}
	arc_entries_free(e, n);
	return 0;
}

static int
walk(struct found *f, const char *dir, int depth, char **cause)
{
	struct dirent *de;
	DIR *d;

	if (depth > 64)
		return 0;	/* deeper than any real layout: a loop */
	if ((d = opendir(dir)) == NULL) {
		*cause = xasprintf("cannot open directory '%s': %s", dir,
		    strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		enum file_kind kind;
		struct stat st;
		char *path;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		path = xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir,
		    de->d_name);
		/* Directory symlinks are not followed (no loops). */
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (walk(f, path, depth + 1, cause) == -1) {
				free(path);
				closedir(d);
				return -1;
			}
		} else if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (arc_is_archive_name(de->d_name)) {
				if (add_archive(f, path, &st, cause) == -1) {
					free(path);
					closedir(d);
					return -1;
				}
			} else if (file_kind_of(de->d_name, &kind) == 0)
				add_file(f, path, &st, kind);
			else if (in_run_folder(path))
				add_file(f, path, &st, format_unnamed()->kind);
		}
		free(path);
	}
	closedir(d);
	return 0;
}

int
discover(struct found *f, const char *path, char **cause)
{
	char abs[PATH_MAX];
	struct stat st;

	if (stat(path, &st) == -1) {
		*cause = xasprintf("cannot read '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	if (realpath(path, abs) == NULL) {
		*cause = xasprintf("cannot resolve '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	f->roots = xreallocarray(f->roots, f->nroots + 1, sizeof *f->roots);
	f->roots[f->nroots++] = xstrdup(abs);
	if (S_ISDIR(st.st_mode))
		return walk(f, abs, 0, cause);
	if (!S_ISREG(st.st_mode)) {
		*cause = xasprintf("'%s' is not a regular file", path);
		return -1;
	}
	{
		const char *base = strrchr(abs, '/');
		enum file_kind kind;

		enum sniffed what = sniff_file(abs);

		base = base != NULL ? base + 1 : abs;
		/*
		 * A file named explicitly is read by what it holds, whatever
		 * its name; by its name when its bytes say nothing (then as
		 * an XSpace unless named otherwise).
		 */
		if (what == SNIFF_ARCHIVE ||
		    (what == SNIFF_UNKNOWN && arc_is_archive_name(base)))
			return add_archive(f, abs, &st, cause);
		if (file_kind_of(base, &kind) == 0 &&
		    format_of_kind(kind)->load == NULL)
			;	/* a known tool output: listed, not read */
		else if (format_of_sniffed(what) != NULL)
			kind = format_of_sniffed(what)->kind;
		else if (file_kind_of(base, &kind) == -1)
			kind = format_complete()->kind;
		add_file(f, abs, &st, kind);
	}
	return 0;
}

size_t
discover_beside(struct found *f, const char *path, char **names)
{
	enum file_kind complete = format_complete()->kind;
	char abs[PATH_MAX], *slash, *list = NULL;
	struct dirent *de;
	struct stat st, self;
	size_t n = 0;
	DIR *d;

	*names = NULL;
	if (realpath(path, abs) == NULL || (slash = strrchr(abs, '/')) == NULL ||
	    stat(abs, &self) == -1)
		return 0;
	*slash = '\0';
	if ((d = opendir(*abs != '\0' ? abs : "/")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		enum file_kind kind;
		char *file;

		if (file_kind_of(de->d_name, &kind) == -1 || kind != complete)
			continue;
		file = xasprintf("%s/%s", abs, de->d_name);
		/* A file named as one of them is not beside itself. */
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
		    (st.st_dev != self.st_dev || st.st_ino != self.st_ino)) {
			char *l = xasprintf("%s%s%s", list != NULL ? list : "",
			    list != NULL ? "', '" : "", de->d_name);

			add_file(f, file, &st, complete);
			free(list);
			list = l;
			n++;
		}
		free(file);
	}
	closedir(d);
	*names = list;
	return n;
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct found_file *)a)->path,
	    ((const struct found_file *)b)->path);
}

void
found_finish(struct found *f)
{
	size_t i, j = 0;

	if (f->nfiles == 0)
		return;	/* files is NULL: qsort(NULL, 0) is undefined */
	qsort(f->files, f->nfiles, sizeof *f->files, cmp_path);
	for (i = 0; i < f->nfiles; i++) {
		if (j > 0 && strcmp(f->files[j - 1].path, f->files[i].path) == 0) {
			free(f->files[i].path);
			free(f->files[i].run);
			free(f->files[i].host);
			continue;
		}
		f->files[j++] = f->files[i];
	}
	f->nfiles = j;
}

/*
 * JAX names runs by time (YYYY_MM_DD_HH_MM_SS), so the newest run is the
 * one whose name sorts last.
 */
void
found_keep_latest(struct found *f)
{
	const char *best = NULL;
	size_t i, j = 0;

	for (i = 0; i < f->nfiles; i++) {
		const struct found_file *ff = &f->files[i];

		if (!file_kind_is_profile(ff->kind))
			continue;
		if (best == NULL || strcmp(ff->run, best) > 0)
			best = ff->run;
	}
	if (best == NULL)
		return;
	best = xstrdup(best);
	for (i = 0; i < f->nfiles; i++) {
		if (strcmp(f->files[i].run, best) == 0) {
			f->files[j++] = f->files[i];
			continue;
		}
		free(f->files[i].path);
		free(f->files[i].run);
		free(f->files[i].host);
	}
	f->nfiles = j;
	free((char *)best);
}

void
found_keep_if(struct found *f, int (*keep)(const struct found_file *, void *),
    void *arg)
{
	size_t i, j = 0;

	for (i = 0; i < f->nfiles; i++) {
		struct found_file *ff = &f->files[i];

		if (keep(ff, arg)) {
			f->files[j++] = *ff;
			continue;
		}
		free(ff->path);
		free(ff->run);
		free(ff->host);
	}
	f->nfiles = j;
}

size_t
found_profiles(const struct found *f)
{
	size_t i, n = 0;

	for (i = 0; i < f->nfiles; i++)
		n += file_kind_is_profile(f->files[i].kind);
	return n;
}
