/* Reports remembered in the index: replayed, or recorded for next time. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "compress-parallel.h"
#include "err.h"
#include "fdio.h"
#include "report-cache.h"
#include "xmalloc.h"

/* Answers larger than this are not kept (stdout and stderr together). */
#define KEEP_MAX_BYTES	((size_t)16 << 20)

/*
 * The recording under way: standard output goes to a memfd in its place;
 * messages still reach stderr as they come (and so does anything a crash
 * or a sanitizer prints), with a copy kept in memory (err_copy_to()).
 */
static struct {
	int	 active;
	int	 real_out;
	int	 out;
	FILE	*messages;
	char	*err;
	size_t	 errlen;
	char	*key;
	size_t	 keylen;
} rec;

/* Appends "<length>:<bytes>" to *key: no two argument lists look alike. */
static void
key_add(char **key, size_t *len, const char *s, size_t n)
{
	char head[32];
	int h = snprintf(head, sizeof head, "%zu:", n);

	*key = xreallocarray(*key, *len + (size_t)h + n + 1, 1);
	memcpy(*key + *len, head, (size_t)h);
	memcpy(*key + *len + h, s, n);
	*len += (size_t)h + n;
	(*key)[*len] = '\0';
}

/*
 * What the answer depends on: the folder (relative paths), the command
 * line, and which files of the index are selected (their ids change when
 * they are stored again, and storing empties the memory anyway).
 */
static char *
make_key(struct index *ix, int argc, char **argv, size_t *len)
{
	char cwd[PATH_MAX], *key = NULL;
	sqlite3_stmt *st;
	int i;

	*len = 0;
	if (getcwd(cwd, sizeof cwd) == NULL)
		return NULL;
	key_add(&key, len, cwd, strlen(cwd));
	for (i = 0; i < argc; i++)
		key_add(&key, len, argv[i], strlen(argv[i]));
	st = index_prepare(ix, "SELECT file_id FROM selected ORDER BY 1");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);

		key_add(&key, len, id, strlen(id));
	}
	sqlite3_finalize(st);
	return key;
}

/* -1 when column col could not all be written to fd (errno set). */
static int
write_blob(int fd, sqlite3_stmt *st, int col)
{
	const void *p = sqlite3_column_blob(st, col);
	int n = sqlite3_column_bytes(st, col);

	return n > 0 ? write_full(fd, p, (size_t)n) : 0;
}

/*
 * Column col, compressed from size bytes (compress-parallel.h), into *out
 * (new, NULL for none); -1 when it does not give back that size: the
 * answer of an older jaxprof (zlib), or a damaged one.
 */
static int
decompress_blob(sqlite3_stmt *st, int col, sqlite3_int64 size, void **out)
{
	*out = NULL;
	if (size == 0)
		return 0;
	if (size < 0 || (size_t)size > KEEP_MAX_BYTES)
		return -1;
	*out = xmalloc((size_t)size);
	if (ZSTD_decompress(*out, (size_t)size, sqlite3_column_blob(st, col),
	    (size_t)sqlite3_column_bytes(st, col)) == (size_t)size)
		return 0;
	free(*out);
	*out = NULL;
	return -1;
}

/* The n bytes of memfd fd, mapped (NULL when empty). */
static void *
map_recording(int fd, size_t *n)
{
	struct stat sb;
	void *p;

	*n = 0;
	if (fstat(fd, &sb) == -1 || sb.st_size <= 0)
		return NULL;
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	*n = (size_t)sb.st_size;
	return p;
}

/* -1 when the bytes could not all be written (errno set). */
static int
print_recorded(int fd, int to)
{
	size_t n;
	void *p = map_recording(fd, &n);
	int rc = 0;

	if (p != NULL) {
		rc = write_full(to, p, n);
		munmap(p, n);
	}
	return rc;
}

/*
 * status, or 2 when standard output could not be written, as main.c's
 * close_stdout() says it: a closed pipe ends the report quietly.
 */
static int
printed(int rc, int status)
{
	if (rc == 0 || errno == EPIPE)
		return status;
	jp_warn("cannot write standard output");
	return EXIT_TROUBLE;
}

/*
 * Puts standard output back and prints what was recorded there; -1 when
 * it could not be written (errno set).
 */
static int
stop_recording(void)
{
	if (!rec.active)
		return 0;
	rec.active = 0;
	fflush(stdout);
	dup2(rec.real_out, STDOUT_FILENO);
	close(rec.real_out);
	err_copy_to(NULL);
	fclose(rec.messages);	/* rec.err, rec.errlen: the copy */
	return print_recorded(rec.out, STDOUT_FILENO);
}

/* A report that calls exit() while recorded still prints. */
static void
print_on_exit(void)
{
	(void)stop_recording();
}

static int
start_recording(void)
{
	static int registered;

	fflush(stdout);
	rec.out = memfd_create("jaxprof-stdout", MFD_CLOEXEC);
	rec.real_out = dup(STDOUT_FILENO);
	rec.err = NULL;
	rec.errlen = 0;
	rec.messages = open_memstream(&rec.err, &rec.errlen);
	if (rec.out == -1 || rec.real_out == -1 || rec.messages == NULL ||
	    dup2(rec.out, STDOUT_FILENO) == -1) {
		/* No recording: the report prints as it goes. */
		if (rec.real_out != -1)
			close(rec.real_out);
		if (rec.out != -1)
			close(rec.out);
		if (rec.messages != NULL)
			fclose(rec.messages);
		free(rec.err);
		rec.err = NULL;
		return -1;
	}
	err_copy_to(rec.messages);
	rec.active = 1;
	if (!registered && atexit(print_on_exit) == 0)
		registered = 1;
	return 0;
}

int
report_cache_replay(struct index *ix, int argc, char **argv, int *status)
{
	sqlite3_stmt *st;
	void *out = NULL;
	int hit;

	free(rec.key);
	if ((rec.key = make_key(ix, argc, argv, &rec.keylen)) == NULL)
		return 0;
	st = index_prepare(ix, "SELECT status, stdout, stderr, stdout_size "
	    "FROM report_cache WHERE key = ?");
	sqlite3_bind_blob(st, 1, rec.key, (int)rec.keylen, SQLITE_STATIC);
	/* An answer that does not decompress is computed again. */
	if ((hit = sqlite3_step(st) == SQLITE_ROW &&
	    decompress_blob(st, 1, sqlite3_column_int64(st, 3), &out) == 0)) {
		size_t n = (size_t)sqlite3_column_int64(st, 3);

		*status = sqlite3_column_int(st, 0);
		fflush(stdout);
		(void)write_blob(STDERR_FILENO, st, 2);
		*status = printed(n > 0 ? write_full(STDOUT_FILENO, out, n) : 0,
		    *status);
		free(out);
	}
	sqlite3_finalize(st);
	if (hit || start_recording() == -1) {
		free(rec.key);
		rec.key = NULL;
	}
	return hit;
}

int
report_cache_store(struct index *ix, int status)
{
	sqlite3_stmt *st;
	void *out;
	size_t nout, nz = 0;
	unsigned char *z = NULL;

	if (!rec.active)
		return status;
	status = printed(stop_recording(), status);
	out = map_recording(rec.out, &nout);
	/*
	 * Kept compressed: a table of 15,000 rows is 2 MB of text that
	 * compresses sixfold, and writing it whole to the index (its WAL, then
	 * the checkpoint) cost more than computing it again.  Compressed on
	 * two threads: on one it was a third of such a report.  A read-only
	 * or busy index keeps nothing: the answer was printed.
	 */
	if (status == EXIT_OK && nout + rec.errlen <= KEEP_MAX_BYTES &&
	    (nout == 0 || out != NULL))
		z = compress_parallel(out, nout, &nz);
	if (nz > 0) {
		st = index_prepare(ix, "INSERT OR REPLACE INTO report_cache"
		    "(key, status, stdout, stdout_size, stderr) "
		    "VALUES (?, ?, ?, ?, ?)");
		sqlite3_bind_blob(st, 1, rec.key, (int)rec.keylen,
		    SQLITE_STATIC);
		sqlite3_bind_int(st, 2, status);
		sqlite3_bind_blob(st, 3, z, (int)nz, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)nout);
		sqlite3_bind_blob(st, 5, rec.err != NULL ? rec.err : "",
		    (int)rec.errlen, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_DONE)
			sqlite3_exec(index_db(ix), "DELETE FROM report_cache "
			    "WHERE rowid <= (SELECT max(rowid) FROM "
			    "report_cache) - 100", /* the newest 100 */
			    NULL, NULL, NULL);
		sqlite3_finalize(st);
	}
	free(z);
	if (out != NULL)
		munmap(out, nout);
	close(rec.out);
	free(rec.err);
	rec.err = NULL;
	free(rec.key);
	rec.key = NULL;
	return status;
}
