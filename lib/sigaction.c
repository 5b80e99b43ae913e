/*
 * sigaction.c -- sigaction() and the signal() family, so that a program
 * that sets its own SIGPROF action while libmon samples it by signal
 * keeps both (sigprof.c has the rules), and one that sets SIGINT,
 * SIGTERM, SIGHUP or the snapshot signal finds libmon's handler gone or
 * back as it should be and reads back its own action (term.c).  Other
 * signals, and SIGPROF when no signal clock runs, go straight to libc.
 *
 * libmon's own calls use __sigaction, libc's exported alias, so they
 * never come back here.
 */
#define _GNU_SOURCE	/* sysv_signal, sigset */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "mon_private.h"


_mon_public int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction copy;

	if (sig != SIGPROF && !_mon_term_watches(sig))
		return __sigaction(sig, act, oact);
	/* act and oact may be one object. */
	if (act != NULL)
		copy = *act;
	if (sig == SIGPROF)
		return _mon_sigprof_adopt(act != NULL ? &copy : NULL, oact);
	return _mon_term_adopt(sig, act != NULL ? &copy : NULL, oact);
}

/* Signals whose actions libmon keeps: they go through sigaction() above. */
static int
kept(int sig)
{
	return sig == SIGPROF || _mon_term_watches(sig);
}

/* sig set through sigaction() above, with flags the caller names. */
static void
(*setsig(int sig, void (*handler)(int), int flags, int self))(int)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (self)
		sigaddset(&sa.sa_mask, sig);
	sa.sa_flags = flags;
	if (sigaction(sig, &sa, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* glibc's signal(): BSD semantics, the signal blocked in its handler. */
_mon_public void
(*signal(int sig, void (*handler)(int)))(int)
{
	if (kept(sig))
		return setsig(sig, handler, SA_RESTART, 1);
	return bsd_signal(sig, handler);
}

typedef void (*sighandler)(int);
typedef sighandler (*setfn)(int, sighandler);

/* libc's definition of name, one of the signal() family. */
static sighandler
libc_set(const char *name, int sig, sighandler handler)
{
	setfn f;

	if ((f = (setfn)_mon_libc(name)) == NULL)
		return SIG_ERR;
	return f(sig, handler);
}

/*
 * System V signal(), what signal() is in a strict -std=c99 program:
 * the action reset and the signal not blocked in its handler.
 */
_mon_public sighandler
__sysv_signal(int sig, sighandler handler)
{
	if (kept(sig))
		return setsig(sig, handler, SA_RESETHAND | SA_NODEFER, 0);
	return libc_set("__sysv_signal", sig, handler);
}

_mon_public sighandler
sysv_signal(int sig, sighandler handler)
{
	return __sysv_signal(sig, handler);
}

/*
 * sigset(): the handler, with no flags and an empty mask (the kernel
 * blocks the signal while it runs), and the signal unblocked now;
 * SIG_HOLD only blocks it.  SIG_HOLD is returned when the signal was
 * blocked before.
 */
_mon_public sighandler
sigset(int sig, sighandler disp)
{
	struct sigaction old;
	sigset_t set, was;
	sighandler prev;

	if (!kept(sig))
		return libc_set("sigset", sig, disp);
	sigemptyset(&set);
	sigaddset(&set, sig);
	if (disp == SIG_HOLD) {
		if (sigaction(sig, NULL, &old) != 0 ||
		    pthread_sigmask(SIG_BLOCK, &set, &was) != 0)
			return SIG_ERR;
		return sigismember(&was, sig) ? SIG_HOLD : old.sa_handler;
	}
	if ((prev = setsig(sig, disp, 0, 0)) == SIG_ERR ||
	    pthread_sigmask(SIG_UNBLOCK, &set, &was) != 0)
		return SIG_ERR;
	return sigismember(&was, sig) ? SIG_HOLD : prev;
}

/* Referenced from lifecycle.c so that this file is always linked in. */
const char _mon_link_sigaction _mon_hidden = 1;
