/*
 * view: the trace chosen, an XSpace converted to Chrome JSON in a
 * temporary folder (the UI reads no XSpace), the link printed, the file
 * served to the Perfetto UI's page only, the folder removed after.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/view.h"
#include "load/choose-trace.h"
#include "load/convert.h"
#include "lib/err.h"
#include "lib/loopback-http.h"
#include "lib/xmalloc.h"

/*
 * The Perfetto UI fetches the trace cross-origin; any other page open in
 * the browser could read the profile's source paths and HLO.
 */
#define UI_ORIGIN	"https://ui.perfetto.dev"

/* Says what the link opens and how long it is served. */
static void
print_link(const char *trace, const char *host, const char *name, int once)
{
	const char *plugins;
	/* The URL is a query value, which the UI decodes once. */
	char *link = percent_encode(name, 2);

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
	free(link);
}

int
view_serve(const char *path, const char *run, long port, int once)
{
	struct loopback_file f = { NULL, NULL, UI_ORIGIN, once };
	char *trace, *cause = NULL, *served = NULL, *name = NULL;
	char host[32], tmpdir[PATH_MAX];
	const char *base;
	enum file_kind kind;
	int sock = -1, status = EXIT_TROUBLE;

	if ((trace = choose_trace(path, run, &kind, &cause)) == NULL) {
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

	switch (loopback_listen(port, &sock, host, sizeof host)) {
	case 0:
		break;
	case LOOPBACK_SOCKET:
		jp_warn("cannot create a socket");
		goto out;
	case LOOPBACK_BIND:
		if (errno == EADDRINUSE) {
			jp_warnx("cannot listen on 127.0.0.1:%ld: the port is "
			    "in use (another jaxprof view, or trace_processor "
			    "--httpd?); stop it, or choose another with "
			    "--port=N", port);
			goto out;
		}
		/* FALLTHROUGH */
	default:
		jp_warn("cannot listen on 127.0.0.1:%ld", port);
		goto out;
	}
	print_link(trace, host, name, once);
	f.file = served;
	f.name = name;
	status = loopback_serve(sock, &f, host) == 0 ? EXIT_OK : EXIT_TROUBLE;
out:
	if (sock != -1)
		close(sock);
	if (served != NULL && strncmp(served, tmpdir, strlen(tmpdir)) == 0)
		unlink(served);
	rmdir(tmpdir);
	free(served);
	free(name);
	free(trace);
	return status;
}
