/* Serve a trace to the Perfetto UI from 127.0.0.1:9001, until Ctrl-C. */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "load/convert.h"
#include "load/discover.h"
#include "lib/err.h"
#include "lib/fdio.h"
#include "report/report.h"
#include "lib/xmalloc.h"

static int	view_run(int argc, char **argv);

static const struct option view_options[] = {
	{ "keep", no_argument, NULL, 'k' },
	{ "latest", no_argument, NULL, 'l' },
	{ "once", no_argument, NULL, 'o' },
	{ "port", required_argument, NULL, 'p' },
	{ "run", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd cmd_view = {
	.name = "view",
	.usage = "jaxprof view [--once] [--port=n] [--run=name | --latest] "
	    "path",
	.summary = "serve a trace to the Perfetto UI and print its link",
	.options =
	    "  --once          exit once the trace was fetched (default: "
	    "until Ctrl-C)\n"
	    "  --keep          serve until Ctrl-C (the default)\n"
	    "  --port=N        listen on port N (default: 9001, the UI's)\n"
	    "  --run=NAME      in a folder, that run (default: the newest)\n"
	    "  --latest        the newest run (the default)\n",
	.longopts = view_options,
	.run = view_run,
};

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The trace file a path names: itself, or the best one of a folder's. */
static char *
choose_trace(const char *path, const char *run, enum file_kind *kind,
    char **cause)
{
	struct found f;
	const struct found_file *best = NULL;
	size_t i;

	found_init(&f);
	if (discover(&f, path, cause) == -1) {
		found_release(&f);
		return NULL;
	}
	found_finish(&f);
	if (run == NULL)
		found_keep_latest(&f);
	/* An XSpace has everything; else JAX's Perfetto file, else any. */
	for (i = 0; i < f.nfiles; i++) {
		const struct found_file *ff = &f.files[i];

		if (!file_kind_is_profile(ff->kind) ||
		    (run != NULL && strcmp(ff->run, run) != 0))
			continue;
		if (best == NULL || (format_of_kind(ff->kind)->complete &&
		    !format_of_kind(best->kind)->complete))
			best = ff;
	}
	if (best == NULL && run != NULL && found_profiles(&f) > 0)
		*cause = found_no_run_message(&f, run);
	if (best == NULL) {
		if (*cause == NULL)
			*cause = xasprintf("no profiles found under '%s'",
			    path);
		found_release(&f);
		return NULL;
	}
	*kind = best->kind;
	path = xstrdup(best->path);
	found_release(&f);
	return (char *)path;
}

/*
 * The Perfetto UI fetches the trace cross-origin: say that its page, and
 * only it, may read the answer (any other page open in the browser could
 * read the profile's source paths and HLO).  No caching: a reload fetches
 * the trace again.
 */
#define UI_ORIGIN	"https://ui.perfetto.dev"
static const char cors[] =
    "Access-Control-Allow-Origin: " UI_ORIGIN "\r\n"
    "Access-Control-Allow-Methods: GET, OPTIONS\r\n"
    "Access-Control-Allow-Headers: *\r\n"
    "Cache-Control: no-cache\r\n";

/*
 * Its content security policy lets the UI fetch from this port only (the
 * one of trace_processor --httpd and Perfetto's open_trace_in_ui).
 */
#define DEFAULT_PORT	9001
/* A request must arrive whole in this time, or its connection is dropped. */
#define REQUEST_MS	5000
/* A write to a client that stalls this long drops it. */
#define SEND_STALL_S	30
/*
 * Clients served at once.  When all are taken, the one that has waited
 * longest without sending its whole request is dropped for the new one:
 * connections left idle cannot lock the trace's fetch out.
 */
#define MAX_CLIENTS	16
/* How long a new connection waits for a dropped idle one's slot. */
#define SLOT_WAIT_MS	1000

struct server {
	const char	*file;
	const char	*name;		/* the URL path it answers, decoded */
	const char	*host;		/* the Host requests must name */
	int		 once;		/* stop after one whole GET */
	pthread_mutex_t	 mu;
	pthread_cond_t	 idle;		/* nclients fell to 0 */
	pthread_cond_t	 freed;		/* a slot was freed */
	int		 clients[MAX_CLIENTS];	/* -1: a free slot */
	long long	 since[MAX_CLIENTS];	/* when it connected, in ms */
	int		 answering[MAX_CLIENTS];	/* its request came whole */
	int		 nclients;
	int		 fetched;	/* a GET of the trace was sent whole */
};

struct client {
	struct server	*srv;
	int		 fd, slot;
};

/* Milliseconds on the monotonic clock. */
static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Reads the request headers into req (NUL-terminated) within REQUEST_MS
 * of the connection, however slowly they come: 0, or -1 to drop it.
 */
static int
read_request(int fd, char *req, size_t size)
{
	long long deadline = now_ms() + REQUEST_MS;
	size_t have = 0;

	while (have < size - 1) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		long long left = deadline - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return -1;
		if ((n = read(fd, req + have, size - 1 - have)) <= 0)
			return -1;
		have += (size_t)n;
		req[have] = '\0';
		/* A GET has no body. */
		if (strstr(req, "\r\n\r\n") != NULL)
			return 0;
	}
	return -1;
}

/*
 * The value of the request's header name (its only one) into out: 1, or
 * 0 when it has none, -1 when several or too long.
 */
static int
header_value(const char *req, const char *name, char *out, size_t size)
{
	size_t nlen = strlen(name), found = 0;
	const char *line;

	for (line = strstr(req, "\r\n"); line != NULL;
	    line = strstr(line, "\r\n")) {
		const char *v, *end;

		line += 2;
		if (line[0] == '\r' && line[1] == '\n')
			break;	/* the end of the headers */
		if (strncasecmp(line, name, nlen) != 0 || line[nlen] != ':')
			continue;
		for (v = line + nlen + 1; *v == ' ' || *v == '\t'; v++)
			;
		end = v + strcspn(v, "\r\n");
		while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (found++ > 0 || (size_t)(end - v) >= size)
			return -1;
		memcpy(out, v, (size_t)(end - v));
		out[end - v] = '\0';
	}
	return found > 0;
}

/*
 * Whether a request may have the trace: it names the loopback address
 * and port printed (a page whose own name was rebound to 127.0.0.1 sends
 * its name: DNS rebinding), and comes from no page but the Perfetto UI's
 * when a browser says where it comes from.
 */
static const char *
refusal(const char *req, const char *host)
{
	char value[256];
	int n;

	if (header_value(req, "Host", value, sizeof value) != 1 ||
	    strcmp(value, host) != 0)
		return "421 Misdirected Request";
	if ((n = header_value(req, "Origin", value, sizeof value)) == -1 ||
	    (n == 1 && strcmp(value, UI_ORIGIN) != 0))
		return "403 Forbidden";
	return NULL;
}

/* s with %XX decoded into out (size bytes); -1 when malformed or long. */
static int
percent_decode(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s != '\0'; s++) {
		unsigned hi, lo;

		if (n + 1 >= size)
			return -1;
		if (*s != '%') {
			out[n++] = *s;
			continue;
		}
		if (!isxdigit((unsigned char)s[1]) ||
		    !isxdigit((unsigned char)s[2]))
			return -1;
		hi = (unsigned)(isdigit((unsigned char)s[1]) ? s[1] - '0' :
		    tolower((unsigned char)s[1]) - 'a' + 10);
		lo = (unsigned)(isdigit((unsigned char)s[2]) ? s[2] - '0' :
		    tolower((unsigned char)s[2]) - 'a' + 10);
		if (hi == 0 && lo == 0)
			return -1;
		out[n++] = (char)(hi << 4 | lo);
		s += 2;
	}
	out[n] = '\0';
	return 0;
}

/*
 * Answers the request req on fd; returns 1 when it was a GET of the
 * trace that was sent whole.
 */
static int
serve_one(int fd, const char *req, const struct server *srv)
{
	char *hdr = NULL, method[16], target[1024], path[1024];
	struct timeval stall = { SEND_STALL_S, 0 };
	const char *refused;
	struct stat st;
	ssize_t n = 0;
	int in = -1, sent = 0;

	if (sscanf(req, "%15s %1023s", method, target) != 2)
		return 0;
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &stall, sizeof stall);
	if ((refused = refusal(req, srv->host)) != NULL) {
		hdr = xasprintf("HTTP/1.1 %s\r\nContent-Length: 0\r\n"
		    "Connection: close\r\n\r\n", refused);
		(void)write_full(fd, hdr, strlen(hdr));
	} else if (strcmp(method, "OPTIONS") == 0) {
		hdr = xasprintf("HTTP/1.1 204 No Content\r\n%s"
		    "Content-Length: 0\r\nConnection: close\r\n\r\n", cors);
		(void)write_full(fd, hdr, strlen(hdr));
	} else if (strcmp(method, "GET") != 0 ||
	    percent_decode(target, path, sizeof path) == -1 ||
	    path[0] != '/' || strcmp(path + 1, srv->name) != 0 ||
	    (in = open(srv->file, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(in, &st) == -1) {
		hdr = xasprintf("HTTP/1.1 404 Not Found\r\n%s"
		    "Content-Length: 0\r\nConnection: close\r\n\r\n", cors);
		(void)write_full(fd, hdr, strlen(hdr));
	} else {
		char buf[65536];

		hdr = xasprintf("HTTP/1.1 200 OK\r\n%s"
		    "Content-Type: application/octet-stream\r\n"
		    "Content-Length: %lld\r\nConnection: close\r\n\r\n", cors,
		    (long long)st.st_size);
		sent = write_full(fd, hdr, strlen(hdr)) == 0;
		while (sent && (n = read(in, buf, sizeof buf)) > 0)
			sent = write_full(fd, buf, (size_t)n) == 0;
		if (n < 0)
			sent = 0;
	}
	if (in != -1)
		close(in);
	free(hdr);
	return sent;
}

/* One connection, on a thread of its own: an idle one blocks no other. */
static void *
client_thread(void *arg)
{
	struct client *c = arg;
	struct server *srv = c->srv;
	char req[4096];
	int sent = 0, whole = read_request(c->fd, req, sizeof req) == 0;

	if (whole) {
		pthread_mutex_lock(&srv->mu);
		srv->answering[c->slot] = 1;
		pthread_mutex_unlock(&srv->mu);
		sent = serve_one(c->fd, req, srv);
	}
	pthread_mutex_lock(&srv->mu);
	close(c->fd);
	srv->clients[c->slot] = -1;
	srv->fetched |= sent;
	pthread_cond_broadcast(&srv->freed);
	if (--srv->nclients == 0)
		pthread_cond_broadcast(&srv->idle);
	pthread_mutex_unlock(&srv->mu);
	free(c);
	return NULL;
}

/*
 * A free slot, after dropping the client that has been idle longest when
 * none is; -1 when every client is being answered.  Called locked.
 */
static int
free_slot(struct server *srv)
{
	long long deadline = now_ms() + SLOT_WAIT_MS;
	int slot, oldest = -1;

	for (slot = 0; slot < MAX_CLIENTS; slot++) {
		if (srv->clients[slot] == -1)
			return slot;
		if (!srv->answering[slot] && (oldest == -1 ||
		    srv->since[slot] < srv->since[oldest]))
			oldest = slot;
	}
	if (oldest == -1)
		return -1;
	/* Its thread sees the end of its input and frees the slot. */
	(void)shutdown(srv->clients[oldest], SHUT_RDWR);
	srv->answering[oldest] = 1;	/* not dropped twice */
	while (srv->clients[oldest] != -1) {
		struct timespec ts = { (time_t)(deadline / 1000),
		    (long)(deadline % 1000) * 1000000 };

		if (pthread_cond_timedwait(&srv->freed, &srv->mu, &ts) != 0)
			return -1;
	}
	return oldest;
}

/* Hands fd to a thread; closes it when no slot can be had. */
static void
start_client(struct server *srv, int fd)
{
	struct client *c = xmalloc(sizeof *c);
	pthread_attr_t attr;
	pthread_t t;
	int slot;

	pthread_mutex_lock(&srv->mu);
	if ((slot = free_slot(srv)) == -1) {
		pthread_mutex_unlock(&srv->mu);
		close(fd);
		free(c);
		return;
	}
	srv->clients[slot] = fd;
	srv->since[slot] = now_ms();
	srv->answering[slot] = 0;
	srv->nclients++;
	pthread_mutex_unlock(&srv->mu);
	c->srv = srv;
	c->fd = fd;
	c->slot = slot;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, client_thread, c) != 0)
		client_thread(c);	/* served here, then */
	pthread_attr_destroy(&attr);
}

/* Serves on sock until stopped; 0, or -1 when accept() failed. */
static int
serve(struct server *srv, int sock)
{
	int i, rc = 0;

	for (i = 0; i < MAX_CLIENTS; i++)
		srv->clients[i] = -1;
	while (!stop) {
		struct pollfd pfd = { sock, POLLIN, 0 };
		int fd, done;

		pthread_mutex_lock(&srv->mu);
		done = srv->once && srv->fetched;
		pthread_mutex_unlock(&srv->mu);
		if (done)
			break;
		/* Woken now and then to see a signal or a --once fetch. */
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if ((fd = accept(sock, NULL, NULL)) == -1) {
			if (errno == EINTR || errno == ECONNABORTED ||
			    errno == EAGAIN)
				continue;
			jp_warn("accept failed");
			rc = -1;
			break;
		}
		start_client(srv, fd);
	}
	/* Clients still served are cut off, then waited for. */
	pthread_mutex_lock(&srv->mu);
	for (i = 0; i < MAX_CLIENTS; i++)
		if (srv->clients[i] != -1)
			(void)shutdown(srv->clients[i], SHUT_RDWR);
	while (srv->nclients > 0)
		pthread_cond_wait(&srv->idle, &srv->mu);
	pthread_mutex_unlock(&srv->mu);
	return rc;
}

/*
 * s with every byte but RFC 3986's unreserved ones as %XX, times times:
 * the link's URL is a query value the UI decodes once before fetching.
 */
static char *
percent_encode(const char *s, int times)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = xstrdup(s);

	while (times-- > 0) {
		char *in = out, *p;

		out = p = xmalloc(3 * strlen(in) + 1);
		for (s = in; *s != '\0'; s++) {
			unsigned char ch = (unsigned char)*s;

			if (isalnum(ch) || strchr("-._~", ch) != NULL)
				*p++ = (char)ch;
			else {
				*p++ = '%';
				*p++ = hex[ch >> 4];
				*p++ = hex[ch & 15];
			}
		}
		*p = '\0';
		free(in);
	}
	return out;
}

static int
view_run(int argc, char **argv)
{
	struct sockaddr_in addr;
	struct sigaction sa;
	socklen_t len = sizeof addr;
	const char *run = NULL, *base, *plugins;
	char *trace, *cause = NULL, *served = NULL, *name = NULL, *link = NULL;
	char host[32];
	pthread_condattr_t ca;
	enum file_kind kind;
	char tmpdir[PATH_MAX];
	struct server srv;
	long port = DEFAULT_PORT;
	int ch, once = 0, sock = -1, one = 1, status = EXIT_TROUBLE;

	while ((ch = cmd_next_option(&cmd_view, NULL, NULL, argc, argv)) != -1) {
		switch (ch) {
		case 'k':
			once = 0;	/* what it always does now */
			break;
		case 'o':
			once = 1;
			break;
		case 'l':
			break;	/* the newest run is what view serves anyway */
		case 'p':
			port = parse_long_option("view", "port", optarg, 1,
			    65535);
			break;
		case 'r':
			run = optarg;
			break;
		}
	}
	if (argc - optind != 1)
		cmd_usage_error(&cmd_view);
	if ((trace = choose_trace(argv[optind], run, &kind, &cause)) == NULL) {
		jp_warnx("%s", cause);
		free(cause);
		return EXIT_TROUBLE;
	}
	base = strrchr(trace, '/') != NULL ? strrchr(trace, '/') + 1 : trace;
	snprintf(tmpdir, sizeof tmpdir, "%s/jaxprof-view.XXXXXX",
	    getenv("TMPDIR") != NULL && *getenv("TMPDIR") != '\0' ?
	    getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tmpdir) == NULL) {
		jp_warn("cannot create a temporary folder");
		goto out;
	}
	if (format_of_kind(kind)->complete) {
		/* The UI reads Chrome JSON: convert the XSpace first. */
		served = xasprintf("%s/trace.json.gz", tmpdir);
		if (convert_to_chrome(trace, served, NULL, &cause) == -1) {
			jp_warnx("cannot convert '%s': %s", trace, cause);
			free(cause);
			goto out;
		}
		name = xstrdup("trace.json.gz");
	} else {
		served = xstrdup(trace);
		name = xstrdup(base);
	}

	if ((sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		jp_warn("cannot create a socket");
		goto out;
	}
	(void)setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr.sin_port = htons((uint16_t)port);
	/* Unbound, listen() would take a random port on every address. */
	if (bind(sock, (struct sockaddr *)&addr, sizeof addr) == -1) {
		if (errno == EADDRINUSE)
			jp_warnx("cannot listen on 127.0.0.1:%ld: the port is "
			    "in use (another jaxprof view, or trace_processor "
			    "--httpd?); stop it, or choose another with "
			    "--port=N", port);
		else
			jp_warn("cannot listen on 127.0.0.1:%ld", port);
		goto out;
	}
	if (listen(sock, 64) == -1 ||
	    getsockname(sock, (struct sockaddr *)&addr, &len) == -1) {
		jp_warn("cannot listen on 127.0.0.1:%ld", port);
		goto out;
	}
	snprintf(host, sizeof host, "127.0.0.1:%d", ntohs(addr.sin_port));
	link = percent_encode(name, 2);
	printf("Serving %s\n", trace);
	printf("Open: https://ui.perfetto.dev/#!/?url=http://%s/%s\n", host,
	    link);
	/* TensorBoard's profile plugin takes the folder holding plugins/. */
	if ((plugins = strstr(trace, "/plugins/profile/")) != NULL)
		printf("Or:   tensorboard --logdir %.*s\n",
		    (int)(plugins - trace), trace);
	printf("%s\n", !once ? "Serving until Ctrl-C." :
	    "Serving until the trace has been fetched once, or Ctrl-C.");
	fflush(stdout);

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	memset(&srv, 0, sizeof srv);
	srv.name = name;
	srv.file = served;
	srv.host = host;
	srv.once = once;
	pthread_mutex_init(&srv.mu, NULL);
	pthread_cond_init(&srv.idle, NULL);
	/* free_slot() waits by now_ms()'s clock. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&srv.freed, &ca);
	pthread_condattr_destroy(&ca);
	status = serve(&srv, sock) == 0 ? EXIT_OK : EXIT_TROUBLE;
	pthread_cond_destroy(&srv.freed);
	pthread_cond_destroy(&srv.idle);
	pthread_mutex_destroy(&srv.mu);
out:
	if (sock != -1)
		close(sock);
	if (served != NULL && strncmp(served, tmpdir, strlen(tmpdir)) == 0)
		unlink(served);
	rmdir(tmpdir);
	free(served);
	free(name);
	free(link);
	free(trace);
	return status;
}
