/*
 * sigprof.c -- the SIGPROF action, for the clocks that sample by signal
 * (timer, itimer, and profil() called by the program).  The default perf
 * clock sends no signal and never installs anything here.
 *
 * While such a clock runs, libmon's handler is the installed action and
 * the program's own action is kept aside: the program reads back what
 * it set (sigaction.c), receives every SIGPROF that is not one of
 * libmon's samples -- its own ITIMER_PROF, its own timers, kill() and
 * raise() -- and finds its action in place when profiling stops.
 *
 * A signal passed on reaches the program's handler as the kernel would
 * have delivered it: with the mask the action asks for (the interrupted
 * mask, sa_mask, and SIGPROF itself unless SA_NODEFER), the action reset
 * first if SA_RESETHAND, on the alternate stack if SA_ONSTACK, and a
 * system call it interrupted restarted only if SA_RESTART.  The last two
 * are decided by the kernel from the installed action, so libmon's is
 * installed with those two flags as the program's action has them (see
 * ours_for()).
 *
 * The handler is the only code of libmon that runs in the program's
 * signal context: it reads the interrupted pc from the ucontext and
 * calls down into the histogram (hist.c); errno is kept.
 */
#define _GNU_SOURCE	/* REG_RIP, sigorset */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "mon_private.h"

static struct sigaction	saved;		/* the program's action */
static volatile sig_atomic_t installed;
static int		itimer;		/* ITIMER_PROF samples */

static void handler(int, siginfo_t *, void *);

/* Does action a run a handler of the program's? */
static int
catches(const struct sigaction *a)
{
	return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

/*
 * libmon's action while prog is the program's.  How a system call is
 * resumed and which stack a handler runs on are the kernel's choice,
 * made from the installed action: while the program's action catches
 * the signal, SA_ONSTACK and SA_RESTART are the program's.  Dropping
 * SA_RESTART is safe for the per-thread timers, which only signal a
 * thread that runs, but not for ITIMER_PROF, which may signal one asleep
 * in read(): that clock keeps it.
 */
static void
ours_for(const struct sigaction *prog, struct sigaction *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sa_sigaction = handler;
	sigfillset(&sa->sa_mask);
	sa->sa_flags = SA_SIGINFO | SA_RESTART;
	if (!catches(prog))
		return;
	sa->sa_flags |= prog->sa_flags & SA_ONSTACK;
	if (!itimer && !(prog->sa_flags & SA_RESTART))
		sa->sa_flags &= ~SA_RESTART;
}

/* Is si one of libmon's samples? */
static int
sample(const siginfo_t *si)
{
	if (itimer)		/* ITIMER_PROF signals come from the kernel */
		return si->si_code == SI_KERNEL;
	return _mon_timer_ours(si);
}

/*
 * Run the program's handler of action a under the mask the kernel would
 * have set, then go back to libmon's (every signal blocked) for the
 * return.  A handler that leaves by siglongjmp() keeps its own mask.
 */
static void
call(const struct sigaction *a, int sig, siginfo_t *si, void *uc)
{
	sigset_t mask, entry;
	int err;

	mask = ((ucontext_t *)uc)->uc_sigmask;
	sigorset(&mask, &mask, &a->sa_mask);
	if (!(a->sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	err = errno;
	(void)pthread_sigmask(SIG_SETMASK, &mask, &entry);
	errno = err;
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, si, uc);
	else
		a->sa_handler(sig);
	err = errno;
	(void)pthread_sigmask(SIG_SETMASK, &entry, NULL);
	errno = err;
}

/*
 * SIGPROF's default action, terminate, as it would have been taken
 * without libmon.
 */
static void
terminate(int sig)
{
	struct sigaction dfl;
	sigset_t set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	(void)__sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	(void)pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	(void)raise(sig);
}

/*
 * Pass a signal that is not a sample to the action the program had.  As
 * the kernel does, SA_RESETHAND puts SIG_DFL in place (the flags stay)
 * before the handler runs.
 */
static void
chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction a;

	a = saved;
	if (a.sa_handler == SIG_IGN)
		return;
	if (a.sa_handler == SIG_DFL) {
		terminate(sig);
		return;
	}
	if (a.sa_flags & SA_RESETHAND)
		saved.sa_handler = SIG_DFL;
	call(&a, sig, si, uc);
}

static void
handler(int sig, siginfo_t *si, void *uc)
{
	uint64_t n;
	int err;

	if (!sample(si)) {
		chain(sig, si, uc);
		return;
	}
	err = errno;
	n = 1;
	if (si->si_code == SI_TIMER && si->si_overrun > 0) {
		n += (uint64_t)si->si_overrun;
		_mon_stats_overrun((uint64_t)si->si_overrun);
	}
	_mon_sample((uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP],
	    n);
	errno = err;
}

/* Is a libmon's action? */
static int
is_ours(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == handler;
}

/*
 * Install the handler, keeping the program's action aside; SIGPROFs from
 * the kernel are the samples when whole_process (ITIMER_PROF), those of
 * timer.c's timers otherwise.  0 or -1.
 */
int
_mon_sigprof_install(int whole_process)
{
	struct sigaction sa, prog;

	itimer = whole_process;
	if (__sigaction(SIGPROF, NULL, &prog) != 0)
		return -1;
	ours_for(&prog, &sa);
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
	if (__sigaction(SIGPROF, NULL, &cur) == 0 && is_ours(&cur)) {
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
 * With ITIMER_PROF: an action the program sets takes the place of
 * libmon's, and the timer yields to it; what it reads back while
 * libmon's is in place is its own.
 */
static int
adopt_itimer(const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction old;

	if (act != NULL)
		_mon_itimer_yield();
	if (__sigaction(SIGPROF, act, &old) != 0)
		return -1;
	if (oact != NULL)
		*oact = is_ours(&old) ? saved : old;
	return 1;
}

/*
 * The program sets or reads its SIGPROF action (sigaction.c); act and
 * oact are distinct.  While a per-thread clock samples, the action is
 * kept aside for chaining and put in place at stop, and libmon's takes
 * the flags that go with it.  Returns 1 if so handled, -1 if so handled
 * and failed (errno set), 0 if the call is libc's to make.
 */
int
_mon_sigprof_adopt(const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction old, sa;

	if (!installed)
		return 0;
	if (itimer)
		return adopt_itimer(act, oact);
	old = saved;
	if (act != NULL) {
		saved = *act;
		ours_for(act, &sa);
		(void)__sigaction(SIGPROF, &sa, NULL);
	}
	if (oact != NULL)
		*oact = old;
	return 1;
}
