/* SIGBUS in a mapped file: exit 2 naming the file, not a crash. */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "input/map-guard.h"
#include "lib/xmalloc.h"

/* More than the files read at once: one per reading thread, and HLO. */
#define GUARD_SLOTS	1024

/*
 * The handler reads the slots while other threads fill and empty them:
 * a slot is claimed by 'used', then its message set, and 'start' set
 * last; emptied in the opposite order.  A fault matches only the slot of
 * the mapping it is in, which its own reader cannot empty meanwhile.
 */
static struct guard_slot {
	atomic_int	 used;
	atomic_uintptr_t start;
	atomic_size_t	 len;
	char *_Atomic	 msg;	/* the whole line written on a fault */
} slots[GUARD_SLOTS];

static struct sigaction previous;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void
on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	uintptr_t addr = (uintptr_t)si->si_addr;
	size_t i;

	for (i = 0; i < GUARD_SLOTS; i++) {
		uintptr_t s = atomic_load(&slots[i].start);
		char *msg;

		if (s == 0 || addr < s || addr - s >= atomic_load(&slots[i].len))
			continue;
		if ((msg = atomic_load(&slots[i].msg)) != NULL)
			(void)!write(STDERR_FILENO, msg, strlen(msg));
		_exit(EXIT_TROUBLE);
	}
	/* Not a guarded mapping: a bug, for the handler before ours. */
	(void)sig;
	(void)uctx;
	(void)sigaction(SIGBUS, &previous, NULL);
}

static void
install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGBUS, &sa, &previous);
}

int
map_guard_add(const void *p, size_t n, const char *path)
{
	const char *cmd = err_command();
	int i, free_slot;

	(void)pthread_once(&installed, install);
	for (i = 0; i < GUARD_SLOTS; i++) {
		free_slot = 0;
		if (atomic_compare_exchange_strong(&slots[i].used, &free_slot,
		    1))
			break;
	}
	if (i == GUARD_SLOTS)
		return -1;
	atomic_store(&slots[i].msg, xasprintf("jaxprof: %s%scannot read "
	    "'%s': the file was cut short (or could not be read) while it "
	    "was being read\n", cmd != NULL ? cmd : "", cmd != NULL ? ": " :
	    "", path));
	atomic_store(&slots[i].len, n);
	atomic_store(&slots[i].start, (uintptr_t)p);
	return i;
}

void
map_guard_remove(int token)
{
	struct guard_slot *g;

	if (token < 0)
		return;
	g = &slots[token];
	atomic_store(&g->start, 0);
	free(atomic_exchange(&g->msg, NULL));
	atomic_store(&g->used, 0);
}
