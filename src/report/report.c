/* Shared report setup: options, discovery, index refresh, filters. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/err.h"
#include "load/formats.h"
#include "input/read-archive.h"
#include "report/report.h"
#include "lib/ptime.h"
#include "lib/strmap.h"
#include "lib/xmalloc.h"

void
report_init(struct report *r, const char *cmd, unsigned needs)
{
	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	r->format = FMT_TABLE;
	r->host_glob = r->device_glob = r->run_glob = "*";
	r->events = (needs & NEEDS_EVENTS) != 0;
	r->memory = (needs & NEEDS_MEMORY) != 0;
	r->one_run = (needs & NEEDS_ONE_RUN) != 0;
	r->damage_fails = (needs & NEEDS_EVERY_FILE) != 0;
	found_init(&r->found);
}

size_t
report_longopts(unsigned takes, struct option *out)
{
	static const struct option shared[REPORT_NSHARED] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "latest", no_argument, NULL, OPT_LATEST },
		{ "run", required_argument, NULL, OPT_RUN },
		{ "wide", no_argument, NULL, OPT_WIDE },
	};
	size_t i, n = 0;

	for (i = 0; i < REPORT_NSHARED; i++)
		if (takes & (1u << (shared[i].val - OPT_DB)))
			out[n++] = shared[i];
	return n;
}

int
report_option(struct report *r, int ch, const char *arg)
{
	switch (ch) {
	case OPT_DB:
		r->db_path = arg;
		break;
	case OPT_DEVICE:
		r->device_glob = arg;
		break;
	case OPT_FORMAT:
		if (output_parse_format(arg, &r->format) == -1)
			jp_errx(EXIT_TROUBLE, "invalid --format '%s' "
			    "(choose from %s)", arg, output_formats);
		break;
	case OPT_HOST:
		r->host_glob = arg;
		break;
	case OPT_LATEST:
		r->latest = 1;
		break;
	case OPT_RUN:
		r->run_glob = arg;
		r->run_given = 1;
		break;
	case OPT_WIDE:
		output_set_wide(1);
		break;
	default:
		return 0;
	}
	return 1;
}

long
parse_long_option(const char *cmd, const char *name, const char *arg,
    long min, long max)
{
	char *end;
	long v;

	(void)cmd;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || v < min || v > max)
		jp_errx(EXIT_TROUBLE, "invalid --%s '%s' (expected a whole "
		    "number from %ld to %ld)", name, arg, min, max);
	return v;
}

int64_t
parse_duration(const char *arg)
{
	static const struct {
		const char	*unit;
		double		 ps;
	} units[] = {
		{ "", 1e6 }, { "ns", 1e3 }, { "us", 1e6 }, { "ms", 1e9 },
		{ "s", 1e12 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(arg, &end);
	if (errno != 0 || end == arg || !(v >= 0) || v > 1e9)
		return -1;
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(end, units[i].unit) == 0) {
			double ps = v * units[i].ps + 0.5;

			/* No profile holds a longer time (ptime.h). */
			return ps <= (double)PS_LIMIT ? (int64_t)ps : -1;
		}
	return -1;
}

/* mkdir -p for the cache folder; errors surface when the index opens. */
static void
make_dirs(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		(void)mkdir(p, 0700);
		*s = '/';
	}
	(void)mkdir(p, 0700);
	free(p);
}

/*
 * The profile folder of an absolute path: the folder above plugins/ or
 * plugins/profile/ (a TensorBoard log folder), else the path when a
 * folder, else the one holding it.  Returns a new string.
 */
static char *
profile_folder(const char *path)
{
	const char *p, *rest;
	struct stat st;

	for (p = strstr(path, "/plugins"); p != NULL;
	    p = strstr(p + 1, "/plugins")) {
		rest = p + 8;
		if (*rest == '\0' || (strncmp(rest, "/profile", 8) == 0 &&
		    (rest[8] == '\0' || rest[8] == '/')))
			return xstrndup(path, (size_t)(p - path));
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return xstrdup(path);
	p = strrchr(path, '/');
	return xstrndup(path, p != NULL ? (size_t)(p - path) : 0);
}

/*
 * The default index path for these roots, under $XDG_CACHE_HOME/jaxprof:
 * one per profile folder (jaxprof(1), THE INDEX).
 */
static char *
default_db_path(char **roots, size_t nroots)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir, *path, *folder = NULL;
	size_t i;

	/*
	 * One index per profile folder, whichever of its runs and files are
	 * named; paths in several: the deepest folder holding them all.
	 */
	for (i = 0; i < nroots; i++) {
		char *f = profile_folder(roots[i]);
		size_t n = 0;

		if (folder == NULL) {
			folder = f;
			continue;
		}
		while (folder[n] != '\0' && folder[n] == f[n])
			n++;
		if (!((folder[n] == '\0' || folder[n] == '/') &&
		    (f[n] == '\0' || f[n] == '/')))
			while (n > 0 && folder[n] != '/')
				n--;
		folder[n] = '\0';
		free(f);
	}
	if (cache != NULL && cache[0] == '/')
		dir = xasprintf("%s/jaxprof", cache);
	else
		dir = xasprintf("%s/.cache/jaxprof",
		    home != NULL && *home != '\0' ? home : "/tmp");
	make_dirs(dir);
	path = xasprintf("%s/%016llx.sqlite", dir, (unsigned long long)
	    strmap_hash(folder != NULL ? folder : "", folder != NULL ?
	    strlen(folder) : 0));
	free(folder);
	free(dir);
	return path;
}

/* list (NULL: empty) with ", 'v'" appended; frees the old list. */
static char *
append_quoted(char *list, const char *v)
{
	char *l = xasprintf("%s%s'%s'", list != NULL ? list : "",
	    list != NULL ? ", " : "", v);

	free(list);
	return l;
}

/* Says the filter matches nothing and what there is; frees list; -1. */
static int
no_match(const char *name, const char *glob, char *list)
{
	jp_warnx("--%s='%s' matches no %s; %ss found: %s", name, glob, name,
	    name, list != NULL ? list : "none");
	free(list);
	return -1;
}

/*
 * A --device glob that matches none of the planes of the files read
 * (planes, for --device) is a mistake, said the way git says an unknown
 * branch: the filter, then what there is.  -1 when it matches nothing.
 */
static int
check_filter(struct report *r, const char *name, const char *glob,
    const char *col, const char *from)
{
	sqlite3_stmt *st;
	char *sql, *list = NULL;
	int n;

	if (strcmp(glob, "*") == 0)
		return 0;
	sql = xasprintf("SELECT count(*) FROM %s JOIN selected s ON "
	    "s.file_id = f.id WHERE %s GLOB ?1 OR (%s LIKE '/%%' AND "
	    "substr(%s, instr(%s, ':') + 1) GLOB ?1)", from, col, col, col,
	    col);
	st = index_prepare(r->ix, sql);
	free(sql);
	sqlite3_bind_text(st, 1, glob, -1, SQLITE_STATIC);
	n = index_row(st) ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (n > 0)
		return 0;
	/* What there is: planes with events, not metadata or settings. */
	sql = xasprintf("SELECT DISTINCT %s FROM %s JOIN selected s ON "
	    "s.file_id = f.id WHERE %s <> '' AND p.kind <> 'other' AND "
	    "p.events > 0 ORDER BY 1", col, from, col);
	st = index_prepare(r->ix, sql);
	free(sql);
	while (index_row(st))
		list = append_quoted(list,
		    (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return no_match(name, glob, list);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * check_filter() for --run (host == 0) or --host, on the files found:
 * those of other runs and hosts are never read, so the index cannot say
 * what there is.
 */
static int
check_found_filter(struct report *r, int host, const char *glob)
{
	const char *name = host ? "host" : "run";
	char **values, *list = NULL;
	size_t i, n = 0;

	if (strcmp(glob, "*") == 0)
		return 0;
	values = xcalloc(r->found.nfiles + 1, sizeof *values);
	for (i = 0; i < r->found.nfiles; i++) {
		const struct found_file *ff = &r->found.files[i];
		const char *v = host ? ff->host : ff->run;

		if (sqlite3_strglob(glob, v) == 0) {
			free(values);
			return 0;
		}
		if (*v != '\0')
			values[n++] = (char *)v;
	}
	if (n > 0)
		qsort(values, n, sizeof *values, cmp_str);
	for (i = 0; i < n; i++)
		if (i == 0 || strcmp(values[i], values[i - 1]) != 0)
			list = append_quoted(list, values[i]);
	free(values);
	return no_match(name, glob, list);
}

/* Whether --run and --host select a file (GLOB, as in the SQL filters). */
static int
selected_file(const struct found_file *ff, void *arg)
{
	const struct report *r = arg;

	return sqlite3_strglob(r->run_glob, ff->run) == 0 &&
	    sqlite3_strglob(r->host_glob, ff->host) == 0;
}

/*
 * Says why a file named on the command line holds no profile: a tool's
 * output (its name says which) or something else.
 */
static void
no_profile_file(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t suffix;

	base = base != NULL ? base + 1 : path;
	/* The registry's suffix: a host name may hold dots (10.240.1.50). */
	suffix = format_suffix_len(base);
	dot = suffix > 0 ? base + strlen(base) - suffix : strchr(base, '.');
	jp_warnx("'%s' is not a profile but a file tools write beside one "
	    "(%s); name the run folder, or the .xplane.pb or .trace.json.gz "
	    "in it", path, dot != NULL ? dot : base);
}

/*
 * A trace JSON named on its own, beside an XSpace: the folder's rule
 * (jaxprof(1), DESCRIPTION) reads the XSpace, which has what JSON lacks
 * (the HLO that names a command buffer's ops, FLOPs, bytes).  Which
 * formats read beside which is formats.c's.
 */
static void
add_beside(struct report *r, const char *path, size_t first)
{
	const struct format *fmt;
	struct stat st;
	char *names;

	if (r->found.nfiles != first + 1)
		return;
	fmt = format_of_kind(r->found.files[first].kind);
	if (!fmt->read_beside ||
	    strstr(r->found.files[first].path, ARCHIVE_ENTRY_SEP) != NULL ||
	    stat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return;
	if (discover_beside(&r->found, path, &names) == 0)
		return;
	jp_warnx("note: reading '%s' beside '%s': the same events, with "
	    "the HLO that %s lacks", names, path, fmt->what);
	free(names);
}

char *
report_runs_note(char *const *runs, size_t nruns)
{
	char *list = NULL, *note;
	size_t i;

	if (nruns < 2)
		return NULL;
	for (i = 0; i < nruns && i < 4; i++)
		list = append_quoted(list, runs[i]);
	note = xasprintf("%zu runs summed (%s%s); choose one with --run=GLOB "
	    "or --latest.", nruns, list, nruns > 4 ? ", ..." : "");
	free(list);
	return note;
}

static int
file_of_run(const struct found_file *ff, void *arg)
{
	return strcmp(ff->run, arg) == 0;
}

/*
 * --latest, and summary and steps without --run: of the runs read, the
 * one whose profile started last (a damaged file is no run), by name
 * where no start is known; said on standard error when others are left.
 */
static char *
keep_newest_run(struct report *r)
{
	sqlite3_stmt *st;
	char *run = NULL, *others = NULL, *cause, *note = NULL;
	int nothers = 0;

	st = index_prepare(r->ix, "SELECT f.run FROM files f JOIN selected s "
	    "ON s.file_id = f.id GROUP BY f.run ORDER BY "
	    "max(f.profile_start_ns) IS NULL, max(f.profile_start_ns) DESC, "
	    "f.run DESC");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		if (run == NULL)
			run = xstrdup(name);
		else if (nothers++ < 4)
			others = append_quoted(others, name);
	}
	sqlite3_finalize(st);
	if (run == NULL)
		return NULL;
	st = index_prepare(r->ix, "DELETE FROM selected WHERE file_id IN "
	    "(SELECT id FROM files WHERE run != ?1)");
	sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
	if (index_step(r->ix, st, &cause) == -1) {
		jp_warnx("%s", cause);
		exit(report_close(r, EXIT_TROUBLE));
	}
	sqlite3_finalize(st);
	found_keep_if(&r->found, file_of_run, run);
	if (nothers > 0 && !r->latest)
		note = xasprintf("The newest run, '%s', of %d; the other%s: "
		    "%s%s; choose one with --run=NAME.", run, nothers + 1,
		    nothers == 1 ? "" : "s", others, nothers > 4 ? ", ..." :
		    "");
	free(others);
	free(run);
	return note;
}

/*
 * The rule on runs (jaxprof(1), DESCRIPTION): a report covers every run
 * it selects (summary and steps the newest, keep_newest_run()), and one
 * that sums them says so under its table, naming them and how to choose.
 */
static void
note_runs(struct report *r)
{
	sqlite3_stmt *st;
	char **runs = NULL;
	size_t i, nruns = 0;

	/* The runs read: a run of damaged files only is no run summed. */
	st = index_prepare(r->ix, "SELECT DISTINCT f.run FROM files f "
	    "JOIN selected s ON s.file_id = f.id ORDER BY f.run");
	while (sqlite3_step(st) == SQLITE_ROW) {
		runs = xreallocarray(runs, nruns + 1, sizeof *runs);
		runs[nruns++] = xstrdup((const char *)sqlite3_column_text(st,
		    0));
	}
	sqlite3_finalize(st);
	r->runs_note = report_runs_note(runs, nruns);
	for (i = 0; i < nruns; i++)
		free(runs[i]);
	free(runs);
}

const char *
report_path_of(struct report *r, int64_t file_id)
{
	const char *path, *best = NULL;
	sqlite3_stmt *st;
	size_t i, best_len = 0;

	if (r->npaths < 2)
		return NULL;
	st = index_prepare(r->ix, "SELECT path FROM files WHERE id = ?1");
	sqlite3_bind_int64(st, 1, file_id);
	path = index_row(st) ?
	    (const char *)sqlite3_column_text(st, 0) : "";
	/* Roots are the PATHs resolved, in order; the deepest holds it. */
	for (i = 0; i < r->found.nroots && i < (size_t)r->npaths; i++) {
		size_t n = strlen(r->found.roots[i]);

		if (strncmp(path, r->found.roots[i], n) == 0 &&
		    (path[n] == '\0' || path[n] == '/') && n >= best_len) {
			best = r->paths[i];
			best_len = n;
		}
	}
	sqlite3_finalize(st);
	return best;
}

struct output *
report_output(struct report *r, const struct out_col *cols, size_t ncols)
{
	struct output *o = output_new(r->format, stdout, cols, ncols);

	report_notes(r, o);
	return o;
}

void
report_notes(const struct report *r, struct output *o)
{
	if (r->runs_note != NULL)
		output_note(o, r->runs_note);
	if (r->skipped_note != NULL)
		output_note(o, r->skipped_note);
}

/* Whether file ff was read into the index (is in the selected table). */
static int
was_read(struct report *r, const struct found_file *ff)
{
	sqlite3_stmt *st;
	int read;

	st = index_prepare(r->ix, "SELECT 1 FROM files f JOIN selected s "
	    "ON s.file_id = f.id WHERE f.path = ?1");
	sqlite3_bind_text(st, 1, ff->path, -1, SQLITE_STATIC);
	read = index_row(st);
	sqlite3_finalize(st);
	return read;
}

/* The folder of path, as a new string. */
static char *
dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return xstrndup(path, slash != NULL ? (size_t)(slash - path) : 0);
}

/* ff's rank among its folder's files (formats.h: format_rank()). */
static int
rank_of(const struct found_file *ff)
{
	const char *base = strrchr(ff->path, '/');

	return format_rank(ff->kind, base != NULL ? base + 1 : ff->path);
}

struct unread {
	char		**dirs;		/* folders whose XSpace was unread */
	size_t		 n;
};

/* found_keep_if(): all but the unread folders' files that fall back. */
static int
not_unread(const struct found_file *ff, void *arg)
{
	const struct unread *u = arg;
	char *dir;
	size_t i;
	int keep = 1;

	if (!format_of_kind(ff->kind)->falls_back)
		return 1;
	dir = dir_of(ff->path);
	for (i = 0; keep && i < u->n; i++)
		keep = strcmp(dir, u->dirs[i]) != 0;
	free(dir);
	return keep;
}

/*
 * A folder's trace JSON is read only when it has no XSpace
 * (index-refresh.c: the lowest rank is read): when none of its XSpace
 * files could be read, its JSON is read in their place, and said so
 * (formats.c: a format that falls back).  Returns the files the second
 * refresh could not read, or r->nbad when there was none.
 */
static int
fall_back_to_json(struct report *r)
{
	struct unread u = { NULL, 0 };
	size_t i, j;
	int nbad;

	if (r->nbad <= 0)
		return r->nbad;
	/*
	 * The folders where no XSpace was read and a file of a later rank
	 * (a trace JSON) waits.
	 */
	for (i = 0; i < r->found.nfiles; i++) {
		const struct found_file *ff = &r->found.files[i];
		char *dir;
		int waits = 0, read = 0;

		if (!format_of_kind(ff->kind)->falls_back || was_read(r, ff))
			continue;
		dir = dir_of(ff->path);
		for (j = 0; j < u.n && strcmp(u.dirs[j], dir) != 0; j++)
			;
		if (j < u.n) {	/* the folder is known already */
			free(dir);
			continue;
		}
		for (j = 0; j < r->found.nfiles; j++) {
			const struct found_file *o = &r->found.files[j];
			char *od = dir_of(o->path);

			if (strcmp(od, dir) == 0) {
				waits |= rank_of(o) > rank_of(ff);
				read |= o->kind == ff->kind && was_read(r, o);
			}
			free(od);
		}
		if (!waits || read) {
			free(dir);
			continue;
		}
		u.dirs = xreallocarray(u.dirs, u.n + 1, sizeof *u.dirs);
		u.dirs[u.n++] = dir;
	}
	if (u.n == 0)
		return r->nbad;
	for (i = 0; i < u.n; i++)
		jp_warnx("note: reading the trace JSON in '%s' in place of "
		    "its XSpace, which cannot be read", u.dirs[i]);
	found_keep_if(&r->found, not_unread, &u);
	nbad = index_refresh(r->ix, &r->found);
	for (i = 0; i < u.n; i++)
		free(u.dirs[i]);
	free(u.dirs);
	if (nbad == -1)
		exit(EXIT_TROUBLE);
	r->nbad += nbad;
	return nbad;
}

void
report_open(struct report *r, int npaths, char **paths)
{
	const char *env = getenv("JAXPROF_DB");
	char *cause, *one_run = NULL;
	int i, failed = 0, nbad;

	if (npaths == 0)
		jp_errx(EXIT_TROUBLE, "no PATH given; see 'jaxprof %s --help'",
		    r->cmd);
	r->paths = paths;
	r->npaths = npaths;
	for (i = 0; i < npaths; i++) {
		size_t before = found_profiles(&r->found);
		size_t first = r->found.nfiles;
		struct stat st;

		if (discover(&r->found, paths[i], &cause) == -1) {
			jp_warnx("%s", cause);
			free(cause);
			failed = 1;
		} else if (found_profiles(&r->found) == before) {
			if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode))
				no_profile_file(paths[i]);
			else
				jp_warnx("no profiles found under '%s'",
				    paths[i]);
			failed = 1;
		} else
			add_beside(r, paths[i], first);
	}
	if (failed)
		exit(EXIT_TROUBLE);
	found_finish(&r->found);
	if (check_found_filter(r, 1, r->host_glob) == -1 ||
	    check_found_filter(r, 0, r->run_glob) == -1)
		exit(EXIT_TROUBLE);
	/* Files of other runs and hosts are never read (nor can fail). */
	found_keep_if(&r->found, selected_file, r);
	if (r->db_path == NULL && env != NULL && *env != '\0')
		r->db_path = env;
	if (r->db_path == NULL) {
		r->db_owned = default_db_path(r->found.roots, r->found.nroots);
		r->db_path = r->db_owned;
	}
	if ((r->db_owned != NULL ? index_open_cache : index_open)(&r->ix,
	    r->db_path, &cause) == -1) {
		jp_warnx("%s", cause);
		free(cause);
		exit(EXIT_TROUBLE);
	}
	if ((r->events && index_want_events(r->ix, &cause) == -1) ||
	    (r->memory && index_want_memory(r->ix, &cause) == -1)) {
		jp_warnx("%s", cause);
		free(cause);
		exit(report_close(r, EXIT_TROUBLE));
	}
	r->nbad = index_refresh(r->ix, &r->found);
	if (r->nbad == -1)
		exit(EXIT_TROUBLE);
	nbad = fall_back_to_json(r);
	/*
	 * The report reads one snapshot in one read transaction: outside
	 * one, SQLite locks, stats and unlocks the index for every query.
	 */
	(void)sqlite3_exec(index_db(r->ix), "BEGIN", NULL, NULL, NULL);
	if (check_filter(r, "device", r->device_glob, "p.name",
	    "planes p JOIN files f ON f.id = p.file_id") == -1)
		exit(report_close(r, EXIT_TROUBLE));
	/* Every profile unreadable (each one reported): nothing to show. */
	if (nbad > 0 && (size_t)nbad == found_profiles(&r->found))
		exit(report_close(r, EXIT_TROUBLE));
	/* Runs asked for: by --run, or by naming several paths. */
	if (r->latest || (r->one_run && !r->run_given && npaths == 1))
		one_run = keep_newest_run(r);
	note_runs(r);
	if (one_run != NULL) {
		jp_warnx("note: %s", one_run);
		free(r->runs_note);
		r->runs_note = one_run;
	}
	if (r->nbad > 0 && !r->damage_fails) {
		r->skipped_note = xasprintf("%d damaged file%s skipped (named "
		    "on standard error); the report covers the files that "
		    "could be read.", r->nbad, r->nbad == 1 ? "" : "s");
		jp_warnx("%s", r->skipped_note);
	}
}

const char *
report_filter_sql(void)
{
	return " AND f.host GLOB ?101 AND f.run GLOB ?103 AND "
	    REPORT_DEVICE_SQL("p.name");
}

sqlite3_stmt *
report_prepare(struct report *r, const char *head, const char *tail)
{
	sqlite3_stmt *st;
	char *sql = xasprintf("%s%s%s", head, report_filter_sql(), tail);

	st = index_prepare(r->ix, sql);
	free(sql);
	report_bind_filters(r, st);
	return st;
}

void
report_bind_filters(const struct report *r, sqlite3_stmt *st)
{
	sqlite3_bind_text(st, 101, r->host_glob, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 102, r->device_glob, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 103, r->run_glob, -1, SQLITE_STATIC);
}

int
report_has_json(struct report *r)
{
	sqlite3_stmt *st;
	int json;

	st = index_prepare(r->ix, "SELECT count(*) FROM files f "
	    "JOIN selected s ON s.file_id = f.id "
	    "WHERE f.kind = 'trace-json' AND f.planes IS NOT NULL");
	json = index_row(st) && sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return json;
}

void
report_end_snapshot(struct report *r)
{
	if (r->ix != NULL && !sqlite3_get_autocommit(index_db(r->ix)))
		(void)sqlite3_exec(index_db(r->ix), "COMMIT", NULL, NULL,
		    NULL);
}

int
report_close(struct report *r, int status)
{
	int bad = r->nbad;

	/* Said here, once: main's check of stdout stays quiet on a failure. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			jp_warn("cannot write standard output");
		status = EXIT_TROUBLE;
	}
	report_end_snapshot(r);
	index_close(r->ix);
	found_release(&r->found);
	free(r->db_owned);
	free(r->runs_note);
	free(r->skipped_note);
	status = bad > 0 && r->damage_fails ? EXIT_TROUBLE : status;
	memset(r, 0, sizeof *r);
	return status;
}
