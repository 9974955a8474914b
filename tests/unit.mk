### Check unit suites: one per module, all in one runner
if HAVE_CHECK
check_PROGRAMS += tests/check_jaxprof
TESTS += tests/check_jaxprof
tests_check_jaxprof_SOURCES = tests/check_main.c tests/check_suites.h \
	tests/check_output.c
tests_check_jaxprof_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS) $(CHECK_CFLAGS)
tests_check_jaxprof_LDADD = libjaxprof.a libxplane-pb.a $(DEP_LIBS) $(CHECK_LIBS)
endif
