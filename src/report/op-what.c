/* What an HLO op is: its framework op, or its source line, shortened. */
#include "config.h"

#include <string.h>

#include "report/op-what.h"
#include "lib/xmalloc.h"

#define WHAT_PARTS	2	/* the op and what holds it */

/* Whether the part of s ending at end (exclusive) is a jit(...) scope. */
static int
is_jit(const char *s, const char *end)
{
	size_t n = (size_t)(end - s);

	return (n > 5 && strncmp(s, "jit(", 4) == 0 && end[-1] == ')') ||
	    (n > 6 && strncmp(s, "pjit(", 5) == 0 && end[-1] == ')');
}

char *
op_what(const char *framework_op, const char *source)
{
	const char *s = framework_op, *slash, *base;
	size_t parts = 1;

	if (s != NULL && *s != '\0') {
		/* Every op of a step sits in the same jit(train_step). */
		while ((slash = strchr(s, '/')) != NULL && is_jit(s, slash))
			s = slash + 1;
		for (slash = s + strlen(s); slash > s; slash--)
			if (slash[-1] == '/' && ++parts > WHAT_PARTS)
				break;
		return xstrdup(slash);
	}
	if (source == NULL || *source == '\0')
		return xstrdup("");
	base = strrchr(source, '/');
	return xstrdup(base != NULL ? base + 1 : source);
}
