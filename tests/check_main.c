/* Runs every Check suite; CK_RUN_SUITE=name runs one. */
#include "config.h"

#include <stdlib.h>

#include "check_suites.h"

int
main(void)
{
	SRunner *sr = srunner_create(suite_output());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
