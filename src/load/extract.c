/* The profile files of a folder or archive written out, safely (extract.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "classify/classify.h"
#include "load/convert.h"
#include "load/discover.h"
#include "lib/err.h"
#include "load/extract.h"
#include "load/formats.h"
#include "input/read-archive.h"
#include "input/sniff.h"
#include "load/write-chrome.h"
#include "lib/xmalloc.h"

/*
 * How a selected file becomes an output file.  Only "copy" exists: the
 * bytes as they are, streamed from the archive or file.  A converter
 * (e.g. --to=chrome) adds a row whose output_name() renames the file and
 * whose write() reads j->ff->path with source_open() (which reads archive
 * entries too) and writes fd; an option then picks the row.
 */
struct extract_mode {
	const char	*name;
	/* The output path for rel (relative to OUTDIR); a new string. */
	char		*(*output_name)(const char *rel);
	/* Writes one file into fd; NULL: copy the bytes, streamed. */
	int		(*write)(struct extract *x, struct job *j, int fd,
			    char **cause);
};

static char *
copy_output_name(const char *rel)
{
	return xstrdup(rel);
}

static const struct extract_mode modes[] = {
	{ "copy", copy_output_name, NULL },
};

void
extract_init(struct extract *x)
{
	memset(x, 0, sizeof *x);
	x->run_glob = "*";
	x->max_bytes = (int64_t)16 << 30;
	x->mode = &modes[0];
	x->outfd = -1;
	found_init(&x->found);
}

void
extract_release(struct extract *x)
{
	size_t i;

	for (i = 0; i < x->njobs; i++) {
		free(x->jobs[i].archive);
		free(x->jobs[i].out);
		free(x->jobs[i].shown);
	}
	free(x->jobs);
	for (i = 0; i < x->nmade; i++)
		free(x->made[i]);
	free(x->made);
	found_release(&x->found);
	if (x->outfd != -1)
		close(x->outfd);
}

/*
 * Where a file goes: its path below PATH (an archive counting as a
 * folder), from "plugins/profile/" on when it has that part.
 */
static char *
relative_path(const char *root, const struct found_file *ff)
{
	size_t rootlen = strlen(root);
	char *logical = found_display_path(ff->path), *rel;
	const char *p;

	if (strncmp(logical, root, rootlen) == 0 && logical[rootlen] == '/')
		p = logical + rootlen;		/* "/rest" */
	else
		p = strrchr(logical, '/');	/* PATH is the file */
	if (p == NULL)
		rel = xstrdup(logical);
	else {
		const char *pp = strstr(p, "/plugins/profile/");

		rel = xstrdup((pp != NULL ? pp : p) + 1);
	}
	free(logical);
	return rel;
}

/* Selects the profile files, as the reports do, and names their outputs. */
static int
select_jobs(struct extract *x)
{
	const char *root = x->found.roots[0];
	size_t i, j;

	found_finish(&x->found);
	if (x->latest)
		found_keep_latest(&x->found);
	for (i = 0; i < x->found.nfiles; i++) {
		const struct found_file *ff = &x->found.files[i];
		const char *sep;
		struct job *jb;
		char *rel;

		if (!file_kind_is_profile(ff->kind) ||
		    fnmatch(x->run_glob, ff->run, 0) != 0)
			continue;
		x->jobs = xreallocarray(x->jobs, x->njobs + 1, sizeof *x->jobs);
		jb = &x->jobs[x->njobs++];
		memset(jb, 0, sizeof *jb);
		jb->ff = ff;
		jb->shown = found_display_path(ff->path);
		if ((sep = strstr(ff->path, ARCHIVE_ENTRY_SEP)) != NULL) {
			jb->archive = xstrndup(ff->path,
			    (size_t)(sep - ff->path));
			jb->entry = sep + strlen(ARCHIVE_ENTRY_SEP);
		}
		rel = relative_path(root, ff);
		jb->out = x->mode->output_name(rel);
		free(rel);
		if (*jb->out == '\0' || arc_name_unsafe(jb->out)) {
			jp_warnx("refusing '%s': no safe output name",
			    jb->shown);
			return -1;
		}
	}
	if (x->njobs == 0 && strcmp(x->run_glob, "*") != 0 &&
	    found_profiles(&x->found) > 0) {
		char *msg = found_no_run_message(&x->found, x->run_glob);

		jp_warnx("%s", msg);
		free(msg);
		return -1;
	}
	if (x->njobs == 0) {
		jp_warnx("no profile files to extract from '%s'", x->path);
		return -1;
	}
	/* Two files for one output: neither wins. */
	for (i = 0; i < x->njobs; i++)
		for (j = i + 1; j < x->njobs; j++)
			if (strcmp(x->jobs[i].out, x->jobs[j].out) == 0) {
				jp_warnx("refusing '%s' and '%s': both would "
				    "be written to '%s'", x->jobs[i].shown,
				    x->jobs[j].shown, x->jobs[i].out);
				return -1;
			}
	return 0;
}

/*
 * Whether a link stored at name with target link points outside the
 * folder it is unpacked into: absolute, or climbing above it with "..".
 */
static int
link_escapes(const char *name, const char *link, int hard)
{
	const char *p = link, *end;
	long depth = 0;
	size_t len;

	if (*link == '/' || *link == '\\')
		return 1;
	if (!hard)	/* a symlink is relative to its own folder */
		for (p = name; (p = strchr(p, '/')) != NULL; p++)
			depth++;
	for (p = link; *p != '\0';) {
		end = strchr(p, '/');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (len > 0 && !(len == 1 && p[0] == '.'))
			depth++;
		p += len;
		if (*p == '/')
			p++;
	}
	return 0;
}

/*
 * Every entry of an archive is checked, selected or not: one hostile
 * entry and the whole archive is refused, before anything is written.
 * Links that stay inside are allowed but never written (only regular
 * files are).
 */
static int
check_archive(const char *archive)
{
	struct arc_entry *e;
	size_t n, i;
	char *cause;
	int rc = 0;

	if (arc_list(archive, &e, &n, &cause) == -1) {
		jp_warnx("%s", cause);
		free(cause);
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		const char *why = NULL;

		if (*e[i].raw_name == '/' || *e[i].raw_name == '\\')
			why = "has an absolute path";
		else if (e[i].unsafe)
			why = "has a '..' component";
		else if (e[i].type == ARC_SPECIAL)
			why = "is a device, fifo or socket";
		else if (e[i].type == ARC_SYMLINK && (e[i].link == NULL ||
		    link_escapes(e[i].name, e[i].link, 0)))
			why = "is a symbolic link pointing outside";
		else if (e[i].type == ARC_HARDLINK &&
		    link_escapes(e[i].name, e[i].link, 1))
			why = "is a hard link pointing outside";
		if (why == NULL)
			continue;
		if (e[i].link != NULL)
			jp_warnx("refusing '%s': entry '%s' %s ('%s')",
			    archive, e[i].raw_name, why, e[i].link);
		else
			jp_warnx("refusing '%s': entry '%s' %s", archive,
			    e[i].raw_name, why);
		rc = -1;
	}
	arc_entries_free(e, n);
	return rc;
}

/* The checks that need no output folder: archives, then the total size. */
static int
check_inputs(struct extract *x)
{
	const char *last = NULL;
	int64_t total = 0;
	size_t i;

	for (i = 0; i < x->njobs; i++) {
		const char *a = x->jobs[i].archive;

		if (a == NULL || (last != NULL && strcmp(a, last) == 0) ||
		    strcmp(a, x->found.roots[0]) == 0)
			continue;
		last = a;
		if (check_archive(a) == -1)
			return -1;
	}
	for (i = 0; i < x->njobs; i++) {
		total += x->jobs[i].ff->size;
		if (total > x->max_bytes) {
			jp_warnx("refusing '%s': %lld bytes in all with it, "
			    "over --max-bytes=%lld", x->jobs[i].shown,
			    (long long)total, (long long)x->max_bytes);
			return -1;
		}
	}
	return 0;
}

/*
 * Nothing is overwritten without --force, nothing is written through a
 * symbolic link, and a folder on the way is never replaced: all checked
 * for every output before the first is written.
 */
static int
check_outputs(struct extract *x)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < x->njobs; i++) {
		char *path = xasprintf("%s/%s", x->outdir, x->jobs[i].out);
		char *slash = path + strlen(x->outdir) + 1;
		const char *why = NULL;
		struct stat st;

		/* Each folder on the way: missing, or a real folder. */
		while (why == NULL && (slash = strchr(slash, '/')) != NULL) {
			*slash = '\0';
			if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode))
				why = "is in the way and not a folder";
			else
				*slash++ = '/';
		}
		if (why == NULL && lstat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				why = "is a folder";
			else if (!x->force)
				why = "exists (use --force to overwrite it)";
		}
		if (why != NULL) {
			jp_warnx("refusing '%s': '%s' %s", x->jobs[i].shown,
			    path, why);
			rc = -1;
		}
		free(path);
	}
	return rc;
}

static void
note_made(struct extract *x, const char *rel)
{
	x->made = xreallocarray(x->made, x->nmade + 1, sizeof *x->made);
	x->made[x->nmade++] = xstrdup(rel);
}

/* Undoes a failed extraction: what was made goes, newest first. */
static void
undo_made(struct extract *x)
{
	size_t i;

	for (i = x->nmade; i > 0; i--)
		if (unlinkat(x->outfd, x->made[i - 1], 0) == -1)
			(void)unlinkat(x->outfd, x->made[i - 1], AT_REMOVEDIR);
}

/* mkdir -p of OUTDIR itself (it may be anywhere the user says). */
static int
make_outdir(struct extract *x)
{
	char *p = xstrdup(x->outdir), *s;
	int rc = 0;

	for (s = p + 1; rc == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		{
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0777) == -1 && errno != EEXIST) {
				jp_warn("cannot create folder '%s'", p);
				rc = -1;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
	if (rc == 0 && (x->outfd = open(x->outdir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1) {
		jp_warn("cannot open folder '%s'", x->outdir);
		rc = -1;
	}
	return rc;
}

/*
 * Creates a temporary file beside OUTDIR/rel (j->of) for writing, folders
 * included, relative to OUTDIR's descriptor and following no symbolic
 * link on the way.  Returns the fd or -1 (message printed).
 */
static int
create_output(struct extract *x, struct job *j)
{
	const char *rel = j->out;
	char *p = xstrdup(rel), *s;
	int fd = -1;

	for (s = strchr(p, '/'); s != NULL; s = strchr(s + 1, '/')) {
		struct stat st;

		*s = '\0';
		if (mkdirat(x->outfd, p, 0777) == 0)
			note_made(x, p);
		else if (errno != EEXIST) {
			jp_warn("cannot create folder '%s/%s'", x->outdir, p);
			goto out;
		} else if (fstatat(x->outfd, p, &st, AT_SYMLINK_NOFOLLOW) ==
		    -1 || !S_ISDIR(st.st_mode)) {
			jp_warnx("cannot create folder '%s/%s': something "
			    "else is in the way", x->outdir, p);
			goto out;
		}
		*s = '/';
	}
	/* An old file (--force) stays until the new one is whole. */
	if ((fd = outfile_open(&j->of, x->outfd, rel)) == -1)
		jp_warn("cannot create '%s/%s'", x->outdir, rel);
out:
	free(p);
	return fd;
}

/* Copies a file on disk into fd, which writes out (for messages). */
static int64_t
copy_file(const char *path, int fd, const char *out, int64_t max,
    char **cause)
{
	enum { CHUNK = 1 << 16 };
	char *buf = xmalloc(CHUNK);
	int64_t total = 0;
	ssize_t n;
	int in;

	if ((in = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		*cause = xasprintf("cannot read '%s': %s", path,
		    strerror(errno));
		free(buf);
		return -1;
	}
	while ((n = read(in, buf, CHUNK)) != 0) {
		const char *p = buf;

		if (n == -1) {
			if (errno == EINTR)
				continue;
			*cause = xasprintf("cannot read '%s': %s", path,
			    strerror(errno));
			total = -1;
			break;
		}
		if (total + n > max) {
			*cause = xasprintf("'%s' grew past --max-bytes", path);
			total = -1;
			break;
		}
		total += n;
		while (n > 0) {
			ssize_t w = write(fd, p, (size_t)n);

			if (w == -1 && errno == EINTR)
				continue;
			if (w == -1) {
				*cause = xasprintf("cannot write '%s': %s",
				    out, strerror(errno));
				total = -1;
				goto out;
			}
			p += w;
			n -= w;
		}
	}
out:
	close(in);
	free(buf);
	return total;
}

/* Writes one job, whose data a copy reads from r (archive) or disk. */
static int
write_job(struct extract *x, struct job *j, struct arc_reader *r,
    int64_t *budget)
{
	char *cause = NULL;
	int64_t n;
	int fd, rc = 0;

	if ((fd = create_output(x, j)) == -1)
		return -1;
	if (x->mode->write != NULL)
		rc = x->mode->write(x, j, fd, &cause);
	else {
		char *out = xasprintf("%s/%s", x->outdir, j->out);

		n = r != NULL ? arc_copy(r, fd, *budget, &cause) :
		    copy_file(j->ff->path, fd, out, *budget, &cause);
		free(out);
		if (n == -1)
			rc = -1;
		else
			*budget -= n;
	}
	if (outfile_close(&j->of) == -1 && rc == 0) {
		cause = xasprintf("cannot write '%s/%s': %s", x->outdir,
		    j->out, strerror(errno));
		rc = -1;
	}
	if (rc == -1) {
		jp_warnx("%s", cause);
		free(cause);
	}
	j->done = 1;
	return rc;
}

/* The jobs of one archive, jobs[first..last), in one pass over it. */
static int
write_archive_jobs(struct extract *x, size_t first, size_t last,
    int64_t *budget)
{
	const char *archive = x->jobs[first].archive;
	struct arc_reader *r;
	struct arc_entry e;
	char *cause = NULL;
	size_t i, left = last - first;
	int rc;

	if (arc_open(&r, archive, &cause) == -1) {
		jp_warnx("%s", cause);
		free(cause);
		return -1;
	}
	while (left > 0 && (rc = arc_next(r, &e, &cause)) == 1) {
		if (e.type != ARC_FILE)
			continue;
		for (i = first; i < last; i++)
			if (!x->jobs[i].done &&
			    strcmp(x->jobs[i].entry, e.name) == 0)
				break;
		if (i == last)
			continue;
		left--;
		if (write_job(x, &x->jobs[i], r, budget) == -1) {
			arc_close(r);
			return -1;
		}
	}
	arc_close(r);
	if (left > 0 && rc == -1) {
		jp_warnx("%s", cause);
		free(cause);
		return -1;
	}
	for (i = first; i < last; i++)
		if (!x->jobs[i].done) {
			jp_warnx("no entry '%s' in '%s' any more",
			    x->jobs[i].entry, archive);
			return -1;
		}
	return 0;
}

static int
write_all_jobs(struct extract *x)
{
	int64_t budget = x->max_bytes;
	size_t i, j;

	if (make_outdir(x) == -1)
		return -1;
	for (i = 0; i < x->njobs; i = j) {
		j = i + 1;
		if (x->jobs[i].archive == NULL || x->mode->write != NULL) {
			if (write_job(x, &x->jobs[i], NULL, &budget) == -1)
				goto fail;
			continue;
		}
		while (j < x->njobs && x->jobs[j].archive != NULL &&
		    strcmp(x->jobs[j].archive, x->jobs[i].archive) == 0)
			j++;
		if (write_archive_jobs(x, i, j, &budget) == -1)
			goto fail;
	}
	/* All written: each takes its place (an old one only now). */
	for (i = 0; i < x->njobs; i++)
		if (x->jobs[i].of.target != NULL &&
		    outfile_commit(&x->jobs[i].of) == -1) {
			jp_warn("cannot write '%s/%s'", x->outdir,
			    x->jobs[i].out);
			goto fail;
		}
	return 0;
fail:
	for (i = 0; i < x->njobs; i++)
		if (x->jobs[i].of.target != NULL)
			outfile_abort(&x->jobs[i].of);
	undo_made(x);
	return -1;
}

static int
cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* "its steps are 0 to 9" for the step numbers v (sorted), or none. */
static char *
steps_there(int64_t *v, size_t n)
{
	size_t i, distinct = 0;

	if (n == 0)
		return xstrdup("it has no steps");
	for (i = 0; i < n; i++)
		if (i == 0 || v[i] != v[i - 1])
			distinct++;
	if (distinct == 1)
		return xasprintf("its one step is %lld", (long long)v[0]);
	if ((uint64_t)(v[n - 1] - v[0]) + 1 == distinct)
		return xasprintf("its steps are %lld to %lld", (long long)v[0],
		    (long long)v[n - 1]);
	return xasprintf("its %zu steps lie between %lld and %lld", distinct,
	    (long long)v[0], (long long)v[n - 1]);
}

/*
 * The span of steps first..last of an XSpace: from the first one's start
 * to the last one's end, over every plane that has them.
 */
static int
step_window(const struct found_file *ff, int64_t first, int64_t last,
    int64_t *start, int64_t *end, char **cause)
{
	struct file_summary fs;
	int64_t *all = NULL;
	size_t i, j, nall = 0;
	int found = 0;
	char *there;

	if (load_file(ff->path, ff->kind, 1, NULL, &fs, cause) == -1)
		return -1;
	for (i = 0; i < fs.nplanes; i++)
		for (j = 0; j < fs.planes[i].nsteps; j++) {
			const struct step_rec *s = &fs.planes[i].steps[j];

			all = xreallocarray(all, nall + 1, sizeof *all);
			all[nall++] = s->step;
			if (s->step < first || s->step > last)
				continue;
			if (!found || s->start_ps < *start)
				*start = s->start_ps;
			if (!found || s->start_ps + s->dur_ps > *end)
				*end = s->start_ps + s->dur_ps;
			found = 1;
		}
	file_summary_release(&fs);
	if (!found) {
		/* Which steps there are: what to ask for instead. */
		if (nall > 0)
			qsort(all, nall, sizeof *all, cmp_int64);
		there = steps_there(all, nall);
		*cause = last != first ? xasprintf("no step %lld to %lld in "
		    "the profile; %s", (long long)first, (long long)last,
		    there) : xasprintf("no step %lld in the profile; %s",
		    (long long)first, there);
		free(there);
	}
	free(all);
	return found ? 0 : -1;
}

/*
 * --to=chrome: one XSpace (the file named, or the only one of the runs
 * selected) converted into the file -o names.
 */
int
extract_chrome(struct extract *x, struct chrome_options *opt, int64_t first,
    int64_t last)
{
	const struct found_file *xspace = NULL;
	struct stat st;
	char *cause = NULL, *shown;
	size_t i, n = 0;
	int rc = 0;

	if (x->outdir == NULL) {
		jp_warnx("--to=chrome needs -o FILE");
		return -1;
	}
	if (discover(&x->found, x->path, &cause) == -1) {
		jp_warnx("%s", cause);
		free(cause);
		return -1;
	}
	found_finish(&x->found);
	if (x->latest)
		found_keep_latest(&x->found);
	for (i = 0; i < x->found.nfiles; i++)
		if (format_of_kind(x->found.files[i].kind)->complete &&
		    fnmatch(x->run_glob, x->found.files[i].run, 0) == 0) {
			xspace = &x->found.files[i];
			n++;
		}
	if (n == 0 && strcmp(x->run_glob, "*") != 0 &&
	    found_profiles(&x->found) > 0) {
		char *msg = found_no_run_message(&x->found, x->run_glob);

		jp_warnx("%s", msg);
		free(msg);
		return -1;
	}
	if (n != 1) {
		jp_warnx("'%s' holds %zu XSpace files; --to=chrome converts "
		    "one: name it, or choose with --run or --latest", x->path,
		    n);
		return -1;
	}
	if (!x->force && strcmp(x->outdir, "-") != 0 &&
	    stat(x->outdir, &st) == 0) {
		jp_warnx("'%s' exists; --force overwrites it", x->outdir);
		return -1;
	}
	shown = found_display_path(xspace->path);
	if (first >= 0 && step_window(xspace, first, last,
	    &opt->start_ps, &opt->end_ps, &cause) == -1) {
		jp_warnx("%s: %s", shown, cause);
		free(cause);
		rc = -1;
	} else if (convert_to_chrome(xspace->path, x->outdir, opt, &cause) ==
	    -1) {
		jp_warnx("cannot convert '%s' to '%s': %s", shown, x->outdir,
		    cause);
		free(cause);
		rc = -1;
	}
	free(shown);
	return rc;
}

int
extract_select(struct extract *x)
{
	char *cause;

	if (discover(&x->found, x->path, &cause) == -1) {
		jp_warnx("%s", cause);
		free(cause);
		return -1;
	}
	/* A hostile archive is refused first, whatever it holds. */
	if ((arc_is_archive_name(x->found.roots[0]) ||
	    sniff_file(x->found.roots[0]) == SNIFF_ARCHIVE) &&
	    check_archive(x->found.roots[0]) == -1)
		return -1;
	if (select_jobs(x) == -1 || check_inputs(x) == -1)
		return -1;
	if (x->outdir != NULL && check_outputs(x) == -1)
		return -1;
	return 0;
}

int
extract_write(struct extract *x)
{
	return write_all_jobs(x);
}
