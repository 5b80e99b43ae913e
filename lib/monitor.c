/*
 * monitor.c -- monitor(3C): profile a range of the program's text;
 * moncontrol(), glibc's pause and resume of a running profile; and
 * monsnapshot(), a part of a running profile written now.
 *
 * The work is in lifecycle.c; this is the public face, which keeps errno
 * for every call that succeeds.
 */
#include <errno.h>
#include <stdint.h>

#include "mon_private.h"

/*
 * monitor(lowpc, highpc, buffer, bufsize, nfunc): start profiling
 * [lowpc, highpc) into buffer, bufsize WORDs long, with room for nfunc
 * call-count cells; monitor(0, 0, 0, 0, 0) stops and writes the profile.
 * With PROFDIR set and empty nothing is profiled and nothing written.
 * Invalid arguments set errno to EINVAL and change nothing.  Not
 * async-signal-safe; calls from several threads are serialised.
 */
_mon_public void
monitor(int (*lowpc)(void), int (*highpc)(void), WORD *buffer,
    size_t bufsize, size_t nfunc)
{
	int saved, r;

	saved = errno;
	r = 0;
	if (lowpc == NULL)
		_mon_life_stop();
	else
		r = _mon_life_start((char *)(uintptr_t)lowpc,
		    (char *)(uintptr_t)highpc, buffer, bufsize, nfunc, 0);
	errno = r != 0 ? r : saved;
}

/*
 * moncontrol(mode): 0 pauses the running profile -- no samples, no call
 * counts -- and anything else resumes it.  The time paused is not in
 * the profile.  Nothing happens when no profile runs.  errno is kept.
 */
_mon_public void
moncontrol(int mode)
{
	int saved;

	saved = errno;
	_mon_life_control(mode != 0);
	errno = saved;
}

/*
 * monsnapshot(): write what the running profile holds since the last
 * snapshot (or its start) as a file of its own, the next part of the
 * run, and profile on.  0; or -1 with errno set and no file written --
 * EINVAL when no profile runs in this process -- the counts then going
 * to the next part.  Not async-signal-safe.
 */
_mon_public int
monsnapshot(void)
{
	int saved;

	saved = errno;
	if (_mon_life_snapshot() != 0)
		return -1;
	errno = saved;
	return 0;
}
