/* The Check suites linked into tests/check_jaxprof, and their helpers. */
#ifndef JAXPROF_CHECK_SUITES_H
#define JAXPROF_CHECK_SUITES_H

#include <stddef.h>

#include <check.h>

Suite	*suite_output(void);
Suite	*suite_xplane(void);
Suite	*suite_classify(void);
Suite	*suite_discover(void);
Suite	*suite_index(void);
Suite	*suite_diff(void);
Suite	*suite_archive(void);
Suite	*suite_chrome(void);
Suite	*suite_json(void);
Suite	*suite_json_lex(void);
Suite	*suite_hlo(void);
Suite	*suite_stats(void);
Suite	*suite_strmap(void);
Suite	*suite_hlo_wire(void);
Suite	*suite_buffers(void);
Suite	*suite_hlo_cost(void);
Suite	*suite_checked(void);
Suite	*suite_device_peak(void);
Suite	*suite_kernel_stats(void);
Suite	*suite_parquet(void);
Suite	*suite_precision(void);
Suite	*suite_rules(void);

/* Helpers shared by the suites (check_main.c); all abort the test on error. */

/* A new directory under $TMPDIR (or /tmp); caller frees the path. */
char	*test_mkdtemp(void);
/* Removes path and everything below it. */
void	 test_rmtree(const char *path);
/* The whole file at path (NUL-terminated too); caller frees. */
char	*test_slurp(const char *path, size_t *len);
/* Writes len bytes to path, creating the folders above it. */
void	 test_spew(const char *path, const void *data, size_t len);
/*
 * Runs $GEN_XPLANE with args (may be "") into dir and returns the path of
 * the file it wrote, dir/plugins/profile/2026_01_01_00_00_00/host0.xplane.pb
 * (".gz" when gzip); caller frees.
 */
char	*test_gen_profile(const char *dir, const char *args, int gzip);
/* snprintf into buf, failing the test if it does not fit. */
void	 test_fmt(char *buf, size_t size, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* $name, or NULL when unset or empty. */
const char *test_env(const char *name);

#endif
