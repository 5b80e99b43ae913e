/*
 * profil.c -- profil(2), classic: every clock tick of CPU time adds one
 * to buf[((pc - offset) * scale) >> 17].  The histogram is hist.c's, the
 * clock ITIMER_PROF (timer.c), the bookkeeping lifecycle.c's.  And
 * glibc's sprofil(), which libmon does not provide: it says so.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "mon_private.h"

/*
 * bufsiz in bytes; scale 0 or 1 (or a NULL buffer) stops sampling and
 * puts back the SIGPROF action and timer that were there before.
 * Samples come from every thread of the process.
 */
_mon_public int
profil(unsigned short *buf, size_t bufsiz, size_t offset, unsigned int scale)
{
	return _mon_life_profil(buf, bufsiz, (uintptr_t)offset, scale);
}

/*
 * sprofil(): several histograms at once, glibc's extension.  Not
 * provided: one line on standard error and ENOSYS, so that a program
 * does not take silence for a profile.
 */
struct prof;
struct timeval;

_mon_public int
sprofil(struct prof *profp, int profcnt, struct timeval *tvp,
    unsigned int flags)
{
	(void)profp;
	(void)profcnt;
	(void)tvp;
	(void)flags;
	_mon_warn("sprofil", "not provided by libmon; use profil or monitor",
	    0);
	errno = ENOSYS;
	return -1;
}
