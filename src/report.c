/* Shared report setup: options, discovery, index refresh, filters. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "report.h"
#include "report-cache.h"
#include "strmap.h"
#include "xmalloc.h"

void
report_init(struct report *r, const char *cmd)
{
	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	r->format = FMT_TABLE;
	r->host_glob = r->device_glob = r->run_glob = "*";
	found_init(&r->found);
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
		if (strcmp(end, units[i].unit) == 0)
			return (int64_t)(v * units[i].ps + 0.5);
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

char *
default_db_path(char **roots, size_t nroots)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	uint64_t h = 0;
	char *dir, *path;
	size_t i;

	/* Order-free, so "top a b" and "top b a" share an index. */
	for (i = 0; i < nroots; i++)
		h += strmap_hash(roots[i], strlen(roots[i]));
	if (cache != NULL && cache[0] == '/')
		dir = xasprintf("%s/jaxprof", cache);
	else
		dir = xasprintf("%s/.cache/jaxprof",
		    home != NULL && *home != '\0' ? home : "/tmp");
	make_dirs(dir);
	path = xasprintf("%s/%016llx.sqlite", dir, (unsigned long long)h);
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
	n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (n > 0)
		return 0;
	sql = xasprintf("SELECT DISTINCT %s FROM %s JOIN selected s ON "
	    "s.file_id = f.id WHERE %s <> '' ORDER BY 1", col, from, col);
	st = index_prepare(r->ix, sql);
	free(sql);
	while (sqlite3_step(st) == SQLITE_ROW)
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

void
report_open(struct report *r, int npaths, char **paths)
{
	const char *env = getenv("JAXPROF_DB");
	char *cause;
	int i, failed = 0;

	if (npaths == 0)
		jp_errx(EXIT_TROUBLE, "no PATH given; see 'jaxprof %s --help'",
		    r->cmd);
	for (i = 0; i < npaths; i++) {
		size_t before = found_profiles(&r->found);

		if (discover(&r->found, paths[i], &cause) == -1) {
			jp_warnx("%s", cause);
			free(cause);
			failed = 1;
		} else if (found_profiles(&r->found) == before) {
			jp_warnx("no profiles found under '%s'", paths[i]);
			failed = 1;
		}
	}
	if (failed)
		exit(EXIT_TROUBLE);
	found_finish(&r->found);
	if (check_found_filter(r, 1, r->host_glob) == -1 ||
	    check_found_filter(r, 0, r->run_glob) == -1)
		exit(EXIT_TROUBLE);
	if (r->latest)
		found_keep_latest(&r->found);
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
	index_pack(r->ix, INDEX_PACKABLE & ~r->needs);
	r->nbad = index_refresh(r->ix, &r->found);
	if (r->nbad == -1)
		exit(EXIT_TROUBLE);
	if (index_unpack(r->ix, r->needs, &cause) == -1) {
		jp_warnx("index '%s': %s", r->db_path, cause);
		free(cause);
		exit(report_close(r, EXIT_TROUBLE));
	}
	/*
	 * The report reads one snapshot in one read transaction: outside
	 * one, SQLite locks, stats and unlocks the index for every query
	 * (a sixth of a per-device report on 8,000 devices).
	 */
	(void)sqlite3_exec(index_db(r->ix), "BEGIN", NULL, NULL, NULL);
	if (check_filter(r, "device", r->device_glob, "p.name",
	    "planes p JOIN files f ON f.id = p.file_id") == -1)
		exit(report_close(r, EXIT_TROUBLE));
	/* Every profile unreadable (each one reported): nothing to show. */
	if (r->nbad > 0 && (size_t)r->nbad == found_profiles(&r->found))
		exit(report_close(r, EXIT_TROUBLE));
}

void
report_remember(struct report *r, int argc, char **argv)
{
	int status;

	/* Unreadable files are read again each time: nothing to remember. */
	if (r->nbad > 0)
		return;
	r->remembered = 1;
	if (report_cache_replay(r->ix, argc, argv, &status))
		exit(report_close(r, status));
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
	json = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
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

	/* The answer is remembered in a write transaction of its own. */
	report_end_snapshot(r);
	if (r->remembered)
		status = report_cache_store(r->ix, status);
	index_close(r->ix);
	found_release(&r->found);
	free(r->db_owned);
	memset(r, 0, sizeof *r);
	return bad > 0 ? EXIT_TROUBLE : status;
}
