/*
 * A profile file converted to Chrome-trace JSON for the Perfetto UI
 * (extract --to=chrome, view): the XSpace reader feeding the Chrome
 * writer, streamed, so memory does not grow with the number of events.
 */
#ifndef JAXPROF_CONVERT_H
#define JAXPROF_CONVERT_H

struct chrome_options;

/*
 * Converts in_path (an XSpace, plain or gzip) to out_path (gzip when it
 * ends in .gz; "-": standard output, plain); opt may be NULL (everything).  Returns 0, or -1 with
 * *cause a new message (caller frees).
 */
int	convert_to_chrome(const char *in_path, const char *out_path,
	    const struct chrome_options *opt, char **cause);

#endif
