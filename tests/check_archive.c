/* Check suite for read-archive.c, and archives in discover.c and source.c. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

#include "check_suites.h"
#include "load/discover.h"
#include "input/read-archive.h"
#include "input/source.h"

struct member {
	const char	*name;
	int		 type;		/* AE_IFREG, AE_IFDIR, AE_IFLNK */
	const char	*data;		/* or the link target */
	size_t		 len;
};

/* Writes an archive with libarchive: format "pax" or "zip", gzip or not. */
static void
write_archive(const char *path, const char *format, int gzip,
    const struct member *m, size_t n)
{
	struct archive *a = archive_write_new();
	size_t i;

	ck_assert_ptr_nonnull(a);
	if (strcmp(format, "zip") == 0)
		ck_assert_int_eq(archive_write_set_format_zip(a), ARCHIVE_OK);
	else
		ck_assert_int_eq(archive_write_set_format_pax_restricted(a),
		    ARCHIVE_OK);
	if (gzip)
		ck_assert_int_eq(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();

		archive_entry_set_pathname(e, m[i].name);
		archive_entry_set_filetype(e, (unsigned)m[i].type);
		archive_entry_set_perm(e, m[i].type == AE_IFDIR ? 0755 : 0644);
		archive_entry_set_mtime(e, 1700000000, 0);
		if (m[i].type == AE_IFLNK)
			archive_entry_set_symlink(e, m[i].data);
		else
			archive_entry_set_size(e, m[i].type == AE_IFREG ?
			    (la_int64_t)m[i].len : 0);
		ck_assert_int_eq(archive_write_header(a, e), ARCHIVE_OK);
		if (m[i].type == AE_IFREG && m[i].len > 0)
			ck_assert_int_eq(archive_write_data(a, m[i].data,
			    m[i].len), (la_ssize_t)m[i].len);
		archive_entry_free(e);
	}
	ck_assert_int_eq(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

static const char payload[] = "not really an xspace, but bytes to stream";

static const struct member members[] = {
	{ "./plugins/", AE_IFDIR, NULL, 0 },
	{ "./plugins/profile/r1/h0.xplane.pb", AE_IFREG, payload,
	    sizeof payload - 1 },
	{ "./plugins/profile/r1/notes.txt", AE_IFREG, "x", 1 },
	{ "./plugins/profile/r1/latest", AE_IFLNK, "h0.xplane.pb", 0 },
	{ "readme", AE_IFREG, "", 0 },
};
#define NMEMBERS (sizeof members / sizeof members[0])

static void
check_listing(const char *format, int gzip, const char *suffix)
{
	char *dir = test_mkdtemp(), path[512], *cause = NULL;
	struct arc_entry *e;
	size_t n;

	test_fmt(path, sizeof path, "%s/x%s", dir, suffix);
	write_archive(path, format, gzip, members, NMEMBERS);
	ck_assert_int_eq(arc_is_archive_name(path), 1);
	ck_assert_msg(arc_list(path, &e, &n, &cause) == 0, "%s", cause);
	ck_assert_uint_eq(n, NMEMBERS);
	ck_assert_str_eq(e[0].name, "plugins");
	ck_assert_int_eq(e[0].type, ARC_DIR);
	ck_assert_str_eq(e[1].name, "plugins/profile/r1/h0.xplane.pb");
	ck_assert_str_eq(e[1].raw_name, "./plugins/profile/r1/h0.xplane.pb");
	ck_assert_int_eq(e[1].type, ARC_FILE);
	ck_assert_int_eq(e[1].size, (int64_t)(sizeof payload - 1));
	ck_assert_int_eq(e[1].mtime_ns, (int64_t)1700000000 * 1000000000);
	ck_assert_int_eq(e[1].unsafe, 0);
	ck_assert_int_eq(e[3].type, ARC_SYMLINK);
	ck_assert_str_eq(e[3].link, "h0.xplane.pb");
	ck_assert_str_eq(e[4].name, "readme");
	ck_assert_int_eq(e[4].size, 0);
	arc_entries_free(e, n);
	test_rmtree(dir);
	free(dir);
}

START_TEST(test_list_tar_gz)
{
	check_listing("pax", 1, ".tar.gz");
}
END_TEST

START_TEST(test_list_tar)
{
	check_listing("pax", 0, ".tar");
}
END_TEST

START_TEST(test_list_zip)
{
	check_listing("zip", 0, ".zip");
}
END_TEST

/* One entry's bytes, exactly, into a file descriptor. */
START_TEST(test_copy_entry)
{
	char *dir = test_mkdtemp(), path[512], out[512], *cause = NULL;
	char *got;
	size_t len;
	int fd;

	test_fmt(path, sizeof path, "%s/x.tgz", dir);
	test_fmt(out, sizeof out, "%s/out", dir);
	write_archive(path, "pax", 1, members, NMEMBERS);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ne(fd, -1);
	ck_assert_int_eq(arc_copy_entry(path,
	    "plugins/profile/r1/h0.xplane.pb", fd, &cause),
	    (int64_t)(sizeof payload - 1));
	close(fd);
	got = test_slurp(out, &len);
	ck_assert_uint_eq(len, sizeof payload - 1);
	ck_assert_mem_eq(got, payload, len);
	free(got);

	/* No such entry; a folder is no file. */
	fd = open(out, O_WRONLY | O_TRUNC);
	ck_assert_int_eq(arc_copy_entry(path, "plugins/profile/r1/nope", fd,
	    &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "no entry 'plugins/profile/r1/"
	    "nope'"));
	free(cause);
	ck_assert_int_eq(arc_copy_entry(path, "plugins", fd, &cause), -1);
	free(cause);
	close(fd);
	test_rmtree(dir);
	free(dir);
}
END_TEST

/* Garbage, a truncated tar.gz, a missing file: -1 and a message. */
START_TEST(test_corrupt)
{
	char *dir = test_mkdtemp(), path[512], bad[512], *cause = NULL;
	static const char junk[] = "this is not an archive at all, just "
	    "some text\nand more of it\n";
	struct arc_entry *e;
	char *bytes;
	size_t n, len;

	test_fmt(path, sizeof path, "%s/x.tar.gz", dir);
	write_archive(path, "pax", 1, members, NMEMBERS);
	bytes = test_slurp(path, &len);

	test_fmt(bad, sizeof bad, "%s/cut.tar.gz", dir);
	test_spew(bad, bytes, len / 2);
	ck_assert_int_eq(arc_list(bad, &e, &n, &cause), -1);
	ck_assert_ptr_null(e);
	ck_assert_uint_eq(n, 0);
	ck_assert_msg(strstr(cause, "cannot read archive '") != NULL &&
	    strstr(cause, "cut.tar.gz") != NULL, "%s", cause);
	free(cause);

	test_fmt(bad, sizeof bad, "%s/junk.tar", dir);
	test_spew(bad, junk, strlen(junk));
	ck_assert_int_eq(arc_list(bad, &e, &n, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "junk.tar"));
	free(cause);

	test_fmt(bad, sizeof bad, "%s/missing.zip", dir);
	ck_assert_int_eq(arc_list(bad, &e, &n, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "missing.zip"));
	free(cause);
	free(bytes);
	test_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_names)
{
	static const struct {
		const char	*raw, *norm;
		int		 unsafe;
	} cases[] = {
		{ "a/b", "a/b", 0 },
		{ "./a//b/./c/", "a/b/c", 0 },
		{ "/abs/path", "abs/path", 1 },
		{ "../evil", "../evil", 1 },
		{ "a/../../b", "a/../../b", 1 },
		{ "a/..b/c..", "a/..b/c..", 0 },
		{ "a\\..\\b", "a\\..\\b", 1 },
		{ ".", "", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *n = arc_normalize(cases[i].raw);

		ck_assert_str_eq(n, cases[i].norm);
		ck_assert_int_eq(arc_name_unsafe(cases[i].raw),
		    cases[i].unsafe);
		free(n);
	}
	ck_assert_int_eq(arc_is_archive_name("x.tgz"), 1);
	ck_assert_int_eq(arc_is_archive_name("x.tar.zst"), 1);
	ck_assert_int_eq(arc_is_archive_name("h.xplane.pb.gz"), 0);
	ck_assert_int_eq(arc_is_archive_name(".zip"), 0);
}
END_TEST

/*
 * discover() names the profile entries "<archive>//<entry>"; source_open()
 * reads one, gunzipping it like a file.
 */
START_TEST(test_discover_and_source)
{
	char *dir = test_mkdtemp(), path[512], gzpath[512], want[600];
	char *gz, *cause = NULL;
	struct member m[3];
	struct source src;
	struct found f;
	size_t gzlen;
	gzFile g;

	test_fmt(gzpath, sizeof gzpath, "%s/p.gz", dir);
	ck_assert_ptr_nonnull(g = gzopen(gzpath, "wb"));
	ck_assert_int_eq(gzwrite(g, payload, sizeof payload - 1),
	    (int)(sizeof payload - 1));
	ck_assert_int_eq(gzclose(g), Z_OK);
	gz = test_slurp(gzpath, &gzlen);
	memcpy(m, members, sizeof m);
	m[2].name = "plugins/profile/r1/h1.xplane.pb.gz";
	m[2].type = AE_IFREG;
	m[2].data = gz;
	m[2].len = gzlen;

	test_fmt(path, sizeof path, "%s/x.tar.gz", dir);
	write_archive(path, "pax", 1, m, 3);
	found_init(&f);
	ck_assert_msg(discover(&f, path, &cause) == 0, "%s", cause);
	found_finish(&f);
	ck_assert_uint_eq(f.nfiles, 2);
	test_fmt(want, sizeof want, "%s//plugins/profile/r1/h0.xplane.pb",
	    f.roots[0]);
	ck_assert_str_eq(f.files[0].path, want);
	ck_assert_str_eq(f.files[0].run, "r1");
	ck_assert_str_eq(f.files[0].host, "h0");
	ck_assert_int_eq(f.files[0].kind, KIND_XPLANE);
	ck_assert_int_eq(f.files[0].size, (int64_t)(sizeof payload - 1));
	ck_assert_str_eq(f.files[1].host, "h1");

	ck_assert_msg(source_open(&src, f.files[0].path, &cause) == 0, "%s",
	    cause);
	ck_assert_uint_eq(src.size, sizeof payload - 1);
	ck_assert_mem_eq(src.data, payload, src.size);
	source_close(&src);
	ck_assert_msg(source_open(&src, f.files[1].path, &cause) == 0, "%s",
	    cause);
	ck_assert_int_eq(src.compressed, 1);
	ck_assert_uint_eq(src.size, sizeof payload - 1);
	ck_assert_mem_eq(src.data, payload, src.size);
	source_close(&src);

	test_fmt(want, sizeof want, "%s//plugins/profile/r1/gone.xplane.pb",
	    f.roots[0]);
	ck_assert_int_eq(source_open(&src, want, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "no entry"));
	free(cause);
	found_release(&f);
	free(gz);
	test_rmtree(dir);
	free(dir);
}
END_TEST

Suite *
suite_archive(void)
{
	Suite *s = suite_create("archive");
	TCase *tc = tcase_create("read-archive");

	tcase_add_test(tc, test_list_tar_gz);
	tcase_add_test(tc, test_list_tar);
	tcase_add_test(tc, test_list_zip);
	tcase_add_test(tc, test_copy_entry);
	tcase_add_test(tc, test_corrupt);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_discover_and_source);
	suite_add_tcase(s, tc);
	return s;
}
