/* Runs every Check suite; CK_RUN_SUITE=name runs one. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_suites.h"

const char *
test_env(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? v : NULL;
}

void
test_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	ck_assert_msg(n >= 0 && (size_t)n < size, "path too long: %s", buf);
}

char *
test_mkdtemp(void)
{
	const char *dir = test_env("TMPDIR");
	char *path;
	size_t n;

	if (dir == NULL)
		dir = "/tmp";
	n = strlen(dir) + sizeof "/jaxprof-check.XXXXXX";
	path = malloc(n);
	ck_assert_ptr_nonnull(path);
	snprintf(path, n, "%s/jaxprof-check.XXXXXX", dir);
	ck_assert_msg(mkdtemp(path) != NULL, "mkdtemp %s: %s", path,
	    strerror(errno));
	return path;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void
test_rmtree(const char *path)
{
	if (path != NULL)
		(void)nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *
test_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	ck_assert_msg(fp != NULL, "cannot open %s: %s", path,
	    strerror(errno));
	do {
		if (cap - n < 65536) {
			cap = cap * 2 + 65536;
			buf = realloc(buf, cap + 1);
			ck_assert_ptr_nonnull(buf);
		}
		r = fread(buf + n, 1, cap - n, fp);
		n += r;
	} while (r > 0);
	ck_assert_msg(!ferror(fp), "cannot read %s", path);
	fclose(fp);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

static void
mkdirs(const char *path)
{
	char *p = strdup(path), *s;

	ck_assert_ptr_nonnull(p);
	for (s = p + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		ck_assert_msg(mkdir(p, 0777) == 0 || errno == EEXIST,
		    "mkdir %s: %s", p, strerror(errno));
		*s = '/';
	}
	free(p);
}

void
test_spew(const char *path, const void *data, size_t len)
{
	FILE *fp;

	mkdirs(path);
	fp = fopen(path, "wb");
	ck_assert_msg(fp != NULL, "cannot create %s: %s", path,
	    strerror(errno));
	ck_assert(len == 0 || fwrite(data, 1, len, fp) == len);
	ck_assert_int_eq(fclose(fp), 0);
}

char *
test_gen_profile(const char *dir, const char *args, int gzip)
{
	const char *gen = test_env("GEN_XPLANE");
	char *cmd, *path;
	size_t n;

	ck_assert_msg(gen != NULL, "GEN_XPLANE is not set (run via make "
	    "check)");
	n = strlen(gen) + strlen(args) + strlen(dir) + 32;
	cmd = malloc(n);
	ck_assert_ptr_nonnull(cmd);
	snprintf(cmd, n, "'%s' %s%s '%s'", gen, args, gzip ? " --gzip" : "",
	    dir);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
	free(cmd);
	n = strlen(dir) + 64;
	path = malloc(n);
	ck_assert_ptr_nonnull(path);
	snprintf(path, n, "%s/plugins/profile/2026_01_01_00_00_00/"
	    "host0.xplane.pb%s", dir, gzip ? ".gz" : "");
	ck_assert_msg(access(path, R_OK) == 0, "%s: %s", path,
	    strerror(errno));
	return path;
}

int
main(void)
{
	SRunner *sr = srunner_create(suite_output());
	int failed;

	srunner_add_suite(sr, suite_xplane());
	srunner_add_suite(sr, suite_classify());
	srunner_add_suite(sr, suite_discover());
	srunner_add_suite(sr, suite_index());
	srunner_add_suite(sr, suite_diff());
	srunner_add_suite(sr, suite_archive());
	srunner_add_suite(sr, suite_chrome());
	srunner_add_suite(sr, suite_json());
	srunner_add_suite(sr, suite_json_lex());
	srunner_add_suite(sr, suite_hlo());
	srunner_add_suite(sr, suite_buffers());
	srunner_add_suite(sr, suite_hlo_cost());
	srunner_add_suite(sr, suite_stats());
	srunner_add_suite(sr, suite_device_peak());
	srunner_add_suite(sr, suite_kernel_stats());
	srunner_add_suite(sr, suite_precision());
	srunner_add_suite(sr, suite_strmap());
	srunner_add_suite(sr, suite_hlo_wire());
	srunner_add_suite(sr, suite_checked());
	srunner_add_suite(sr, suite_parquet());
	srunner_add_suite(sr, suite_rules());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
