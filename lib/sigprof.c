/*
 * sigprof.c -- the SIGPROF action, for the clocks that sample by signal
 * (timer, itimer, and profil() called by the program).  The default perf
 * clock sends no signal and never installs anything here.
 *
 * While such a clock runs, libmon's handler is the installed action and
 * the program's own action is kept aside: the program reads back what
 * it set (sigaction.c), receives every SIGPROF that is not one of
 * libmon's samples -- its own ITIMER_PROF, its own timers -- and finds
 * its action in place when profiling stops.
 *
 * The handler is the only code of libmon that runs in the program's
 * signal context: it reads the interrupted pc from the ucontext and
 * calls down into the histogram (hist.c); errno is kept.
 */
#define _GNU_SOURCE	/* REG_RIP */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "mon_private.h"

static struct sigaction	saved;		/* the program's action */
static volatile sig_atomic_t installed;
static int		itimer;		/* every SIGPROF is a sample */

/*
 * Pass a signal that is not ours to the action the program had.  Its
 * default action is to terminate, and so it does, as it would have
 * without libmon.
 */
static void
chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction a;
	sigset_t set;

	a = saved;
	if (a.sa_flags & SA_SIGINFO) {
		if (a.sa_sigaction != NULL)
			a.sa_sigaction(sig, si, uc);
	} else if (a.sa_handler == SIG_DFL) {
		(void)__sigaction(sig, &a, NULL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		(void)pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		(void)raise(sig);
	} else if (a.sa_handler != SIG_IGN)
		a.sa_handler(sig);
}

static void
handler(int sig, siginfo_t *si, void *uc)
{
	uint64_t n;
	int err;

	err = errno;
	if (!itimer && (si == NULL || !_mon_timer_ours(si))) {
		chain(sig, si, uc);
		errno = err;
		return;
	}
	n = 1;
	if (si != NULL && si->si_code == SI_TIMER && si->si_overrun > 0) {
		n += (uint64_t)si->si_overrun;
		_mon_stats_overrun((uint64_t)si->si_overrun);
	}
	_mon_sample((uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP],
	    n);
	errno = err;
}

/*
 * Install the handler, keeping the program's action aside; every
 * SIGPROF is a sample when whole_process (ITIMER_PROF).  0 or -1.
 */
int
_mon_sigprof_install(int whole_process)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	itimer = whole_process;
	if (__sigaction(SIGPROF, &sa, &saved) != 0)
		return -1;
	installed = 1;
	return 0;
}

/*
 * Put the program's action back -- unless, with ITIMER_PROF, it has
 * since installed one of its own over ours, which is then left.
 *
 * A sample signalled just before its clock went may still be pending in
 * some thread; under the action put back (SIG_DFL, most often) it would
 * kill the program.  Ignoring SIGPROF for a moment discards every
 * pending one: no clock of ours is left to raise another.
 */
void
_mon_sigprof_restore(void)
{
	struct sigaction cur, ign;
	int err;

	if (!installed)
		return;
	err = errno;
	installed = 0;
	if (__sigaction(SIGPROF, NULL, &cur) == 0 &&
	    (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == handler) {
		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		(void)__sigaction(SIGPROF, &ign, NULL);
		(void)__sigaction(SIGPROF, &saved, NULL);
	}
	errno = err;
}

/*
 * Discard every SIGPROF pending on the calling thread or the process,
 * whatever the action, without changing it: before an exec, so that the
 * new image is not handed one of libmon's samples.
 */
void
_mon_sigprof_discard(void)
{
	struct sigaction cur, ign;
	int err;

	if (!installed)
		return;
	err = errno;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	if (__sigaction(SIGPROF, &ign, &cur) == 0)
		(void)__sigaction(SIGPROF, &cur, NULL);
	errno = err;
}

/*
 * The program sets or reads its SIGPROF action (sigaction.c).  While a
 * per-thread clock samples, the action is kept aside for chaining and
 * put in place at stop; 1 if so handled.
 */
int
_mon_sigprof_adopt(const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction old;

	if (!installed)
		return 0;
	if (itimer) {
		if (act != NULL)
			_mon_itimer_yield();
		return 0;
	}
	old = saved;
	if (act != NULL)
		saved = *act;
	if (oact != NULL)
		*oact = old;
	return 1;
}
