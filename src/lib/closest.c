/* The closest known name to a mistyped one (closest.h). */
#include "config.h"

#include <string.h>

#include "lib/closest.h"

/* Names longer than this are not typed by hand: no suggestion. */
#define CLOSEST_MAX	64

/* Edits from a to b: optimal string alignment (Damerau-Levenshtein). */
static size_t
edits(const char *a, size_t na, const char *b, size_t nb)
{
	size_t d[CLOSEST_MAX + 1][CLOSEST_MAX + 1], i, j, best;

	for (i = 0; i <= na; i++)
		d[i][0] = i;
	for (j = 0; j <= nb; j++)
		d[0][j] = j;
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++) {
			best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[na][nb];
}

const char *
closest_name(const char *word, size_t len, const char *const *names,
    size_t n)
{
	const char *best = NULL;
	size_t i, d, best_d = 3;

	if (len == 0 || len > CLOSEST_MAX)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t nl = strlen(names[i]);

		if (nl > CLOSEST_MAX)
			continue;
		d = edits(word, len, names[i], nl);
		if (d < best_d && 2 * d <= len) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}
