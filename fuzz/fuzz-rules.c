/* Fuzz target: a `jaxprof check --rules` file (jaxprof-check(1)). */
#include "config.h"

#include <stdlib.h>

#include "report/check-rules.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *cause = NULL;

	(void)check_rules_validate(fuzz_spool(data, size, ".rules"), &cause);
	free(cause);
	return 0;
}
