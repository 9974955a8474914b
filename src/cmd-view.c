/* Serve a trace to the Perfetto UI from 127.0.0.1, once. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "convert.h"
#include "discover.h"
#include "err.h"
#include "fdio.h"
#include "report.h"
#include "xmalloc.h"

static int	view_run(int argc, char **argv);

const struct cmd cmd_view = {
	.name = "view",
	.usage = "jaxprof view [--keep] [--port=n] [--run=name | --latest] "
	    "path",
	.summary = "serve a trace to the Perfetto UI and print its link",
	.options =
	    "  --keep          keep serving after the trace was fetched "
	    "(until Ctrl-C)\n"
	    "  --port=N        listen on port N (default: any free port)\n"
	    "  --run=NAME      in a folder, that run (default: the newest)\n"
	    "  --latest        the newest run (the default)\n",
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

		if (ff->kind == KIND_OTHER ||
		    (run != NULL && strcmp(ff->run, run) != 0))
			continue;
		if (best == NULL || (ff->kind == KIND_XPLANE &&
		    best->kind != KIND_XPLANE))
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

/* The Perfetto UI fetches the trace cross-origin: say it may. */
static const char cors[] =
    "Access-Control-Allow-Origin: *\r\n"
    "Access-Control-Allow-Methods: GET, OPTIONS\r\n"
    "Access-Control-Allow-Headers: *\r\n";

/*
 * Answers one request on fd; returns 1 when it was a GET of the trace
 * that was sent whole.
 */
static int
serve_one(int fd, const char *url_path, const char *file)
{
	char req[4096], *hdr = NULL, method[16], target[1024];
	struct stat st;
	ssize_t n;
	size_t have = 0;
	int in = -1, sent = 0;

	/* Read until the end of the request headers (a GET has no body). */
	while (have < sizeof req - 1) {
		n = read(fd, req + have, sizeof req - 1 - have);
		if (n <= 0)
			return 0;
		have += (size_t)n;
		req[have] = '\0';
		if (strstr(req, "\r\n\r\n") != NULL)
			break;
	}
	if (sscanf(req, "%15s %1023s", method, target) != 2)
		return 0;
	if (strcmp(method, "OPTIONS") == 0) {
		hdr = xasprintf("HTTP/1.1 204 No Content\r\n%s"
		    "Content-Length: 0\r\nConnection: close\r\n\r\n", cors);
		(void)write_full(fd, hdr, strlen(hdr));
	} else if (strcmp(method, "GET") != 0 ||
	    strcmp(target, url_path) != 0 ||
	    (in = open(file, O_RDONLY | O_CLOEXEC)) == -1 ||
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

static int
view_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "keep", no_argument, NULL, 'k' },
		{ "latest", no_argument, NULL, 'l' },
		{ "port", required_argument, NULL, 'p' },
		{ "run", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct sockaddr_in addr;
	struct sigaction sa;
	socklen_t len = sizeof addr;
	const char *run = NULL, *base, *plugins;
	char *trace, *cause = NULL, *served = NULL, *url_path = NULL;
	enum file_kind kind;
	char tmpdir[PATH_MAX];
	long port = 0;
	int ch, keep = 0, sock = -1, one = 1, status = EXIT_TROUBLE;

	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			cmd_print_help(&cmd_view, stdout);
			return EXIT_OK;
		case 'k':
			keep = 1;
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
		default:
			cmd_usage_error(&cmd_view);
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
	if (kind == KIND_XPLANE) {
		/* The UI reads Chrome JSON: convert the XSpace first. */
		served = xasprintf("%s/trace.json.gz", tmpdir);
		if (convert_to_chrome(trace, served, NULL, &cause) == -1) {
			jp_warnx("cannot convert '%s': %s", trace, cause);
			free(cause);
			goto out;
		}
		url_path = xstrdup("/trace.json.gz");
	} else {
		served = xstrdup(trace);
		url_path = xasprintf("/%s", base);
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
	if (bind(sock, (struct sockaddr *)&addr, sizeof addr) == -1 ||
	    listen(sock, 8) == -1 ||
	    getsockname(sock, (struct sockaddr *)&addr, &len) == -1) {
		jp_warn("cannot listen on 127.0.0.1:%ld", port);
		goto out;
	}
	printf("Serving %s\n", trace);
	printf("Open: https://ui.perfetto.dev/#!/?url=http://127.0.0.1:%d%s\n",
	    ntohs(addr.sin_port), url_path);
	/* TensorBoard's profile plugin takes the folder holding plugins/. */
	if ((plugins = strstr(trace, "/plugins/profile/")) != NULL)
		printf("Or:   tensorboard --logdir %.*s\n",
		    (int)(plugins - trace), trace);
	printf("%s\n", keep ? "Serving until Ctrl-C." :
	    "Serving until the trace has been fetched once, or Ctrl-C.");
	fflush(stdout);

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	status = EXIT_OK;
	while (!stop) {
		int fd = accept(sock, NULL, NULL);

		if (fd == -1) {
			if (errno == EINTR)
				continue;
			jp_warn("accept failed");
			status = EXIT_TROUBLE;
			break;
		}
		if (serve_one(fd, url_path, served) && !keep)
			stop = 1;
		close(fd);
	}
out:
	if (sock != -1)
		close(sock);
	if (served != NULL && strncmp(served, tmpdir, strlen(tmpdir)) == 0)
		unlink(served);
	rmdir(tmpdir);
	free(served);
	free(url_path);
	free(trace);
	return status;
}
