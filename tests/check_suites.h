/* The Check suites linked into tests/check_jaxprof. */
#ifndef JAXPROF_CHECK_SUITES_H
#define JAXPROF_CHECK_SUITES_H

#include <check.h>

Suite	*suite_output(void);

#endif
