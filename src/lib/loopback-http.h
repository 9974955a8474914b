/*
 * One file served over HTTP/1.1 on 127.0.0.1 to one web page's origin,
 * until SIGINT or SIGTERM, or until it was fetched whole once.
 *
 *	struct loopback_file f = { path, "trace.json.gz", origin, once };
 *	if (loopback_listen(port, &sock, host, sizeof host) != 0) ... errno ...
 *	printf("http://%s/%s\n", host, percent_encode(f.name, 1));
 *	rc = loopback_serve(sock, &f, host);
 */
#ifndef JAXPROF_LOOPBACK_HTTP_H
#define JAXPROF_LOOPBACK_HTTP_H

#include <stddef.h>

struct loopback_file {
	const char	*file;		/* the file on disk */
	const char	*name;		/* the URL path it answers, decoded */
	const char	*origin;	/* the only page that may read it */
	int		 once;		/* stop after one whole GET */
};

/* Which step of loopback_listen() failed. */
enum {
	LOOPBACK_SOCKET = 1,
	LOOPBACK_BIND,
	LOOPBACK_LISTEN,
};

/*
 * A socket listening on 127.0.0.1:port (0: any free port) into *sock,
 * and "127.0.0.1:PORT", the Host requests must name, into host.  Returns
 * 0, or the step that failed with errno set (*sock, when not -1, is
 * still the caller's to close).
 */
int	loopback_listen(long port, int *sock, char *host, size_t size);
/*
 * Serves f on sock, each connection on a thread of its own, until
 * SIGINT or SIGTERM (or f->once and one GET answered whole), then waits
 * for the clients cut off.  Returns 0, or -1 when accept() failed.
 */
int	loopback_serve(int sock, const struct loopback_file *f,
	    const char *host);
/*
 * s with every byte but RFC 3986's unreserved ones as %XX, times times
 * (a URL inside a query value that is decoded once more); a new string.
 */
char	*percent_encode(const char *s, int times);

#endif
