/*
 * Discover: kinds, runs and hosts of the files in a profile tree, what is
 * ignored, sorting, --latest, and the errors.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "load/discover.h"

static char	*tree;		/* the fixture's temporary folder */
static char	 root[PATH_MAX];	/* its real path */

#define RUN0	"/plugins/profile/2026_01_01_00_00_00"
#define RUN1	"/plugins/profile/2026_01_01_00_00_01"

static const char *const tree_files[] = {
	RUN0 "/h1.xplane.pb",
	RUN0 "/h1.trace.json.gz",
	RUN0 "/perfetto_trace.json.gz",
	RUN0 "/h1.overview_page.pb",
	RUN0 "/junk.txt",
	RUN1 "/h2.xplane.pb.gz",
	"/notes.txt",
	"/plugins/README",
};

static void
make_tree(void)
{
	char path[PATH_MAX];
	size_t i;

	tree = test_mkdtemp();
	for (i = 0; i < sizeof tree_files / sizeof tree_files[0]; i++) {
		test_fmt(path, sizeof path, "%s%s", tree, tree_files[i]);
		/* Distinct sizes: the size of file i is i + 1. */
		test_spew(path, "0123456789", i + 1);
	}
	ck_assert_ptr_nonnull(realpath(tree, root));
}

static void
remove_tree(void)
{
	test_rmtree(tree);
	free(tree);
	tree = NULL;
}

/* What each file of the tree must be found as, sorted by path. */
static const struct {
	const char	*path;		/* below root */
	enum file_kind	 kind;
	const char	*run, *host;
	int64_t		 size;
} want_files[] = {
	{ RUN0 "/h1.overview_page.pb", KIND_OTHER,
	    "2026_01_01_00_00_00", "h1", 4 },
	{ RUN0 "/h1.trace.json.gz", KIND_TRACE_JSON,
	    "2026_01_01_00_00_00", "h1", 2 },
	{ RUN0 "/h1.xplane.pb", KIND_XPLANE,
	    "2026_01_01_00_00_00", "h1", 1 },
	{ RUN0 "/junk.txt", KIND_OTHER,
	    "2026_01_01_00_00_00", "junk.txt", 5 },
	{ RUN0 "/perfetto_trace.json.gz", KIND_TRACE_JSON,
	    "2026_01_01_00_00_00", "", 3 },
	{ RUN1 "/h2.xplane.pb.gz", KIND_XPLANE,
	    "2026_01_01_00_00_01", "h2", 6 },
};

#define NWANT	(sizeof want_files / sizeof want_files[0])

static void
assert_file(const struct found_file *ff, size_t w)
{
	char path[PATH_MAX];

	test_fmt(path, sizeof path, "%s%s", root, want_files[w].path);
	ck_assert_str_eq(ff->path, path);
	ck_assert_msg(ff->kind == want_files[w].kind, "%s: kind %s",
	    ff->path, file_kind_name(ff->kind));
	ck_assert_str_eq(ff->run, want_files[w].run);
	ck_assert_str_eq(ff->host, want_files[w].host);
	ck_assert_int_eq(ff->size, want_files[w].size);
	ck_assert_int_gt(ff->mtime_ns, 0);
}

START_TEST(test_tree)
{
	struct found f;
	char *cause = NULL;
	size_t i;

	found_init(&f);
	/* Twice, the second time by a relative-looking path: one copy. */
	ck_assert_msg(discover(&f, tree, &cause) == 0, "%s", cause);
	{
		char again[PATH_MAX];

		test_fmt(again, sizeof again, "%s/plugins/../", tree);
		ck_assert_msg(discover(&f, again, &cause) == 0, "%s", cause);
	}
	found_finish(&f);
	ck_assert_uint_eq(f.nroots, 2);
	ck_assert_str_eq(f.roots[0], root);
	ck_assert_str_eq(f.roots[1], root);
	ck_assert_uint_eq(f.nfiles, NWANT);
	for (i = 0; i < f.nfiles; i++)
		assert_file(&f.files[i], i);
	ck_assert_uint_eq(found_profiles(&f), 4);

	found_keep_latest(&f);
	ck_assert_uint_eq(f.nfiles, 1);
	assert_file(&f.files[0], NWANT - 1);
	found_release(&f);
}
END_TEST

START_TEST(test_run_folder)
{
	struct found f;
	char *cause = NULL, path[PATH_MAX];

	/* A run folder given directly: only its own files. */
	found_init(&f);
	test_fmt(path, sizeof path, "%s" RUN0, tree);
	ck_assert_msg(discover(&f, path, &cause) == 0, "%s", cause);
	found_finish(&f);
	ck_assert_uint_eq(f.nfiles, 5);
	assert_file(&f.files[0], 0);
	assert_file(&f.files[4], 4);
	found_keep_latest(&f);
	ck_assert_uint_eq(f.nfiles, 5);
	found_release(&f);
}
END_TEST

START_TEST(test_explicit_file)
{
	struct found f;
	char *cause = NULL, path[PATH_MAX];

	found_init(&f);
	/* Named explicitly, a file of unknown name is read as an XSpace. */
	test_fmt(path, sizeof path, "%s/notes.txt", tree);
	ck_assert_msg(discover(&f, path, &cause) == 0, "%s", cause);
	test_fmt(path, sizeof path, "%s" RUN0 "/h1.trace.json.gz", tree);
	ck_assert_msg(discover(&f, path, &cause) == 0, "%s", cause);
	found_finish(&f);
	ck_assert_uint_eq(f.nfiles, 2);
	test_fmt(path, sizeof path, "%s/notes.txt", root);
	ck_assert_str_eq(f.files[0].path, path);
	ck_assert_int_eq(f.files[0].kind, KIND_XPLANE);
	ck_assert_str_eq(f.files[0].host, "notes.txt");
	ck_assert_str_eq(f.files[0].run, strrchr(root, '/') + 1);
	ck_assert_int_eq(f.files[0].size, 7);
	assert_file(&f.files[1], 1);
	found_release(&f);
}
END_TEST

START_TEST(test_missing)
{
	struct found f;
	char *cause = NULL, path[PATH_MAX], want[PATH_MAX + 64];

	found_init(&f);
	test_fmt(path, sizeof path, "%s/nonexistent", tree);
	ck_assert_int_eq(discover(&f, path, &cause), -1);
	test_fmt(want, sizeof want, "cannot read '%s': No such file or "
	    "directory", path);
	ck_assert_str_eq(cause, want);
	free(cause);
	found_finish(&f);
	ck_assert_uint_eq(f.nfiles, 0);
	found_keep_latest(&f);
	ck_assert_uint_eq(f.nfiles, 0);
	found_release(&f);
}
END_TEST

static const struct {
	const char	*name;
	int		 known;
	enum file_kind	 kind;
} kinds[] = {
	{ "h.xplane.pb", 1, KIND_XPLANE },
	{ "h.xplane.pb.gz", 1, KIND_XPLANE },
	{ "h.trace.json", 1, KIND_TRACE_JSON },
	{ "h.trace.json.gz", 1, KIND_TRACE_JSON },
	{ "perfetto_trace.json.gz", 1, KIND_TRACE_JSON },
	{ "perfetto_trace.json", 1, KIND_TRACE_JSON },
	{ "h.memory_profile.json.gz", 1, KIND_OTHER },
	{ "h.hlo_proto.pb", 1, KIND_OTHER },
	{ "h.xplane.pb.bak", 0, KIND_OTHER },
	{ "xplane.pb", 0, KIND_OTHER },
	{ "notes.txt", 0, KIND_OTHER },
};

START_TEST(test_kind_of)
{
	enum file_kind kind = KIND_OTHER;
	int r = file_kind_of(kinds[_i].name, &kind);

	ck_assert_msg(r == (kinds[_i].known ? 0 : -1), "%s: %d",
	    kinds[_i].name, r);
	if (r == 0)
		ck_assert_msg(kind == kinds[_i].kind, "%s: %s",
		    kinds[_i].name, file_kind_name(kind));
}
END_TEST

Suite *
suite_discover(void)
{
	Suite *s = suite_create("discover");
	TCase *tc = tcase_create("tree");

	tcase_add_checked_fixture(tc, make_tree, remove_tree);
	tcase_add_test(tc, test_tree);
	tcase_add_test(tc, test_run_folder);
	tcase_add_test(tc, test_explicit_file);
	tcase_add_test(tc, test_missing);
	suite_add_tcase(s, tc);
	tc = tcase_create("kind");
	tcase_add_loop_test(tc, test_kind_of, 0,
	    (int)(sizeof kinds / sizeof kinds[0]));
	suite_add_tcase(s, tc);
	return s;
}
