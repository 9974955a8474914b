/*
 * What a file holds, by its first bytes rather than its name: an XSpace,
 * trace JSON (either plain or gzip-compressed), an archive, a baseline.
 * Files named on the command line are read by what they hold; in folders
 * the naming rules decide, and a file that fails to read is described by
 * what it looks like.
 *
 *	enum sniffed s = sniff_file("warm.perfetto_trace.json.gz");
 *	printf("it looks like %s\n", sniffed_name(s));
 */
#ifndef JAXPROF_SNIFF_H
#define JAXPROF_SNIFF_H

enum sniffed {
	SNIFF_UNKNOWN,		/* unreadable, empty, or none of these */
	SNIFF_XSPACE,
	SNIFF_XSPACE_GZ,
	SNIFF_JSON,		/* trace JSON: an array, or "traceEvents" */
	SNIFF_JSON_GZ,
	SNIFF_JSON_OTHER,	/* a JSON object without "traceEvents" */
	SNIFF_BASELINE,		/* a jaxprof baseline (JSON) */
	SNIFF_ARCHIVE,		/* tar (plain or compressed), zip */
};

/* Looks at the first kilobytes of the file at path. */
enum sniffed	 sniff_file(const char *path);
/* The same of n bytes in memory, inflated first when they are gzip. */
enum sniffed	 sniff_memory(const unsigned char *p, size_t n);
/* "an XSpace", "gzip'd trace JSON", ...; for messages. */
const char	*sniffed_name(enum sniffed s);

#endif
