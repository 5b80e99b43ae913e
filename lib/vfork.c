/*
 * vfork.c -- exit() in a vfork() child, which must leave its parent's
 * exit alone.
 *
 * A vfork child shares its parent's memory until it execs or exits.
 * POSIX lets it call only _exit() or an exec, but programs do call
 * exit() there -- after an exec that failed, say -- and the C library
 * then runs the parent's exit handlers in the child and takes them off
 * the list in memory the two share: the parent's own exit later finds
 * none left, libmon's writer among them, and no profile is written.
 * So exit() in a vfork child here flushes stdio, as exit() would, and
 * ends the child with _exit(): the handlers stay for the parent, which
 * runs them when it exits, as they were registered to be.
 *
 * vfork() itself (x86_64/vfork.S) notes the process that calls it and
 * counts the vforks in progress, which is how a child is told from its
 * parent: a process that sees a vfork under way and is not the one that
 * called it is such a child.  Another thread of the parent that calls
 * exit() meanwhile is the parent, and exits as always; a fork() child
 * forgets the vforks of its parent's other threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mon_private.h"

_Atomic int		_mon_vforking _mon_hidden;	/* vforks under way */
_Atomic pid_t		_mon_vforker _mon_hidden;	/* the process making them */

/*
 * A fork child shares no memory with anyone: a vfork another thread of
 * its parent had under way is not its own.  Registered at start-up.
 */
static void
forked(void)
{
	atomic_store(&_mon_vforking, 0);
}

__attribute__((constructor)) static void
watch_forks(void)
{
	(void)pthread_atfork(NULL, NULL, forked);
}

/* The vfork system call failed with error e: errno, and -1. */
_mon_hidden long	_mon_vfork_failed(long);

long
_mon_vfork_failed(long e)
{
	errno = (int)e;
	return -1;
}

_mon_public void
exit(int status)
{
	typedef void (*exitfn)(int);
	exitfn real;

	if (atomic_load(&_mon_vforking) > 0 &&
	    getpid() != atomic_load(&_mon_vforker)) {
		(void)fflush(NULL);
		_exit(status);
	}
	if ((real = (exitfn)_mon_libc("exit")) == NULL)
		_exit(status);
	real(status);
	_exit(status);
}

/* Referenced from lifecycle.c so that this file is always linked in. */
const char _mon_link_vfork _mon_hidden = 1;
