/*
 * view: a profile's trace served to the Perfetto UI from 127.0.0.1,
 * converted to Chrome JSON first when it is an XSpace, with the link
 * that opens it printed.
 */
#ifndef JAXPROF_REPORT_VIEW_H
#define JAXPROF_REPORT_VIEW_H

/*
 * The UI's content security policy lets it fetch from this port only
 * (the one of trace_processor --httpd and Perfetto's open_trace_in_ui).
 */
#define VIEW_DEFAULT_PORT	9001

/*
 * Serves the trace of path (of run, NULL: the newest) on port until
 * Ctrl-C, or until it was fetched once; the exit status.
 */
int	view_serve(const char *path, const char *run, long port, int once);

#endif
