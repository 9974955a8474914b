/* What a file holds, by its first bytes (sniff.h). */
#include "config.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "input/sniff.h"

#define SNIFF_BYTES	4096

const char *
sniffed_name(enum sniffed s)
{
	switch (s) {
	case SNIFF_XSPACE:
		return "an XSpace";
	case SNIFF_XSPACE_GZ:
		return "a gzip'd XSpace";
	case SNIFF_JSON:
		return "trace JSON";
	case SNIFF_JSON_GZ:
		return "gzip'd trace JSON";
	case SNIFF_JSON_OTHER:
		return "JSON but not a trace";
	case SNIFF_BASELINE:
		return "a jaxprof baseline";
	case SNIFF_ARCHIVE:
		return "an archive";
	default:
		return "none of the profile formats";
	}
}

static int
has_at(const unsigned char *p, size_t n, size_t off, const char *magic,
    size_t len)
{
	return n >= off + len && memcmp(p + off, magic, len) == 0;
}

/* A protobuf varint at p; 0 if there is none in n bytes. */
static size_t
sniff_varint(const unsigned char *p, size_t n, unsigned long long *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n && i < 10; i++) {
		*v |= (unsigned long long)(p[i] & 0x7f) << (7 * i);
		if ((p[i] & 0x80) == 0)
			return i + 1;
	}
	return 0;
}

/* Looks at the first n bytes of a file already read (decompressed or not). */
static enum sniffed
sniff_bytes(const unsigned char *p, size_t n, int gzipped)
{
	unsigned long long len;
	size_t i, k;

	if (n == 0)
		return SNIFF_UNKNOWN;
	/* tar (the ustar magic), zip, and compressions only archives use. */
	if (has_at(p, n, 257, "ustar", 5) || has_at(p, n, 0, "PK\3\4", 4) ||
	    has_at(p, n, 0, "PK\5\6", 4))
		return SNIFF_ARCHIVE;
	if (!gzipped && (has_at(p, n, 0, "BZh", 3) ||
	    has_at(p, n, 0, "\xfd" "7zXZ", 5) ||
	    has_at(p, n, 0, "\x28\xb5\x2f\xfd", 4)))
		return SNIFF_ARCHIVE;
	for (i = 0; i < n && strchr(" \t\r\n", p[i]) != NULL; i++)
		;
	if (i < n && (p[i] == '{' || p[i] == '[')) {
		int trace = p[i] == '[';

		for (k = i; k + 16 <= n; k++)
			if (memcmp(p + k, "jaxprof-baseline", 16) == 0)
				return SNIFF_BASELINE;
		for (k = i; !trace && k + 13 <= n; k++)
			trace = memcmp(p + k, "\"traceEvents\"", 13) == 0;
		/* A long "metadata" first may hide it: a full window is JSON. */
		if (!trace && n < SNIFF_BYTES)
			return SNIFF_JSON_OTHER;
		return gzipped ? SNIFF_JSON_GZ : SNIFF_JSON;
	}
	/*
	 * A JSON string and nothing after it: its quote is also the tag of
	 * XSpace field 4, so it is told by the whole file being that string.
	 */
	if (i < n && p[i] == '"' && n < SNIFF_BYTES) {
		for (k = i + 1; k < n && p[k] != '"'; k++)
			if (p[k] == '\\')
				k++;
		for (k++; k < n && strchr(" \t\r\n", p[k]) != NULL; k++)
			;
		if (k == n)
			return SNIFF_JSON_OTHER;
	}
	/*
	 * XSpace: fields 1-4 (planes, errors, warnings, hostnames) are all
	 * length-delimited: tag 0x0a, 0x12, 0x1a or 0x22, then a length.
	 */
	if ((p[0] == 0x0a || p[0] == 0x12 || p[0] == 0x1a || p[0] == 0x22) &&
	    sniff_varint(p + 1, n - 1, &len) > 0)
		return gzipped ? SNIFF_XSPACE_GZ : SNIFF_XSPACE;
	return SNIFF_UNKNOWN;
}

enum sniffed
sniff_memory(const unsigned char *p, size_t n)
{
	unsigned char buf[SNIFF_BYTES];
	z_stream z;
	size_t got;
	int rc;

	if (n < 2 || p[0] != 0x1f || p[1] != 0x8b)
		return sniff_bytes(p, n < SNIFF_BYTES ? n : SNIFF_BYTES, 0);
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return SNIFF_UNKNOWN;
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = n > UINT_MAX ? UINT_MAX : (unsigned)n;
	z.next_out = buf;
	z.avail_out = sizeof buf;
	rc = inflate(&z, Z_SYNC_FLUSH);
	got = sizeof buf - z.avail_out;
	(void)inflateEnd(&z);
	if (rc != Z_OK && rc != Z_STREAM_END)
		return SNIFF_UNKNOWN;
	return sniff_bytes(buf, got, 1);
}

enum sniffed
sniff_file(const char *path)
{
	unsigned char buf[SNIFF_BYTES];
	gzFile gz;
	int n, direct;

	if ((gz = gzopen(path, "rb")) == NULL)
		return SNIFF_UNKNOWN;
	n = gzread(gz, buf, sizeof buf);
	direct = gzdirect(gz);
	(void)gzclose(gz);
	if (n <= 0)
		return SNIFF_UNKNOWN;
	return sniff_bytes(buf, (size_t)n, !direct);
}
