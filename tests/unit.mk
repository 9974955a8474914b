### Check unit suites: one per module, all in one runner
if HAVE_CHECK
check_PROGRAMS += tests/check_jaxprof
TESTS += tests/check_jaxprof
tests_check_jaxprof_SOURCES = tests/check_main.c tests/check_suites.h \
	tests/check_output.c tests/check_xplane.c tests/check_classify.c \
	tests/check_discover.c tests/check_index.c tests/check_diff.c \
	tests/check_chrome.c tests/check_archive.c tests/check_json.c \
	tests/check_json_lex.c \
	tests/check_hlo.c tests/check_hlo_wire.c tests/check_hlo_cost.c \
	tests/check_stats.c tests/check_strmap.c tests/check_buffers.c \
	tests/check_checked.c tests/check_device_peak.c \
	tests/check_kernel_stats.c tests/check_precision.c \
	tests/check_parquet.c tests/check_rules.c \
	tests/xplane-reference.c tests/xplane-reference.h
tests_check_jaxprof_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS) $(CHECK_CFLAGS)
tests_check_jaxprof_LDADD = libjaxprof.a libxplane-pb.a $(DEP_LIBS) \
	$(CHECK_LIBS)
endif
