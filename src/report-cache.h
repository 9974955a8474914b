/*
 * Reports remembered in the index.  A report run again with the same
 * command line, from the same folder, on the same files, while no file
 * of the index changed, prints what it printed the first time (standard
 * output, standard error, exit status) without querying again: a warm
 * report costs the same whatever the size of the profiles.  Storing or
 * forgetting any file empties the memory (index-refresh.c).
 *
 * For reports whose output depends on the index and their arguments
 * alone; report.c calls these:
 *	if (report_cache_replay(ix, argc, argv, &status)) done, it printed;
 *	else it records:
 *	... the report writes stdout and stderr ...
 *	status = report_cache_store(ix, status);	prints, keeps the record
 */
#ifndef JAXPROF_REPORT_CACHE_H
#define JAXPROF_REPORT_CACHE_H

#include "index.h"

/*
 * Prints the remembered answer to this command line and returns 1 with
 * *status its exit status; else starts recording standard output and
 * error and returns 0.
 */
int	report_cache_replay(struct index *ix, int argc, char **argv,
	    int *status);
/*
 * Ends the recording: writes what was recorded to the real standard
 * output and error, and keeps it when status is 0.  Returns status, or 2
 * when standard output could not be written (said on stderr).
 */
int	report_cache_store(struct index *ix, int status);

#endif
