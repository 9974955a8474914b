/* libarchive loaded on first use: see archive-api.h. */
#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "archive-api.h"
#include "xmalloc.h"

static struct archive_api api;
static char *load_error;	/* why it could not be loaded, once */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Sets the function pointer at *member to symbol name of lib. */
static int
resolve(void *lib, const char *name, void *member)
{
	void *sym = dlsym(lib, name);

	memcpy(member, &sym, sizeof sym);	/* POSIX: same representation */
	return sym != NULL;
}

/*
 * api.member from archive_<member>.  The unevaluated assignment checks the
 * member's type against libarchive's own prototype, without linking to it.
 */
#define RESOLVE(lib, member) \
	((void)sizeof(api.member = archive_##member), \
	 resolve(lib, "archive_" #member, &api.member))

static void
load(void)
{
	void *lib = dlopen(LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *why;

	if (lib == NULL) {
		load_error = xstrdup(dlerror());
		return;
	}
	if (RESOLVE(lib, read_new) &&
	    RESOLVE(lib, read_support_filter_all) &&
	    RESOLVE(lib, read_support_format_all) &&
	    RESOLVE(lib, read_open_filename) &&
	    RESOLVE(lib, read_next_header) &&
	    RESOLVE(lib, read_data) &&
	    RESOLVE(lib, read_free) &&
	    RESOLVE(lib, error_string) &&
	    RESOLVE(lib, filter_bytes) &&
	    RESOLVE(lib, entry_pathname) &&
	    RESOLVE(lib, entry_pathname_utf8) &&
	    RESOLVE(lib, entry_hardlink) &&
	    RESOLVE(lib, entry_symlink) &&
	    RESOLVE(lib, entry_filetype) &&
	    RESOLVE(lib, entry_size_is_set) &&
	    RESOLVE(lib, entry_size) &&
	    RESOLVE(lib, entry_mtime_is_set) &&
	    RESOLVE(lib, entry_mtime) &&
	    RESOLVE(lib, entry_mtime_nsec))
		return;
	why = dlerror();
	load_error = xstrdup(why != NULL ? why : "a function is missing");
	dlclose(lib);
}

const struct archive_api *
archive_api(char **cause)
{
	pthread_once(&once, load);
	if (load_error == NULL)
		return &api;
	*cause = xstrdup(load_error);
	return NULL;
}
