/*
 * sigaction.c -- sigaction() and signal(), so that a program that sets
 * its own SIGPROF action while libmon samples it with a per-thread clock
 * keeps both: libmon's handler stays installed and samples; the
 * program's action is recorded and receives every SIGPROF that is not
 * one of libmon's samples (its own ITIMER_PROF, its own timers), and is
 * what the program reads back and what is installed when profiling
 * stops.  Other signals, and SIGPROF when libmon is not sampling or
 * samples with ITIMER_PROF itself, go straight to libc.
 *
 * libmon's own calls use __sigaction, libc's exported alias, so they
 * never come back here.
 */
#include <errno.h>
#include <signal.h>

#include "mon_private.h"

_mon_public int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	if (sig == SIGPROF && _mon_clock_adopt(act, oact))
		return 0;
	return __sigaction(sig, act, oact);
}

/* glibc's signal(): BSD semantics, the signal blocked in its handler. */
_mon_public void
(*signal(int sig, void (*handler)(int)))(int)
{
	struct sigaction sa, old;

	if (sig == SIGPROF) {
		sa.sa_handler = handler;
		sigemptyset(&sa.sa_mask);
		sigaddset(&sa.sa_mask, sig);
		sa.sa_flags = SA_RESTART;
		if (sigaction(sig, &sa, &old) != 0)
			return SIG_ERR;
		return old.sa_handler;
	}
	return bsd_signal(sig, handler);
}

/* Referenced from clock.c so that this file is always linked in. */
const char _mon_link_sigaction _mon_hidden = 1;
