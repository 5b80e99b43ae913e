/*
 * sigwait.c -- sigwait(), sigwaitinfo(), sigtimedwait() and signalfd()
 * that never hand the program one of libmon's samples.
 *
 * Under the signal clocks (timer, itimer) a sample is a SIGPROF.  A
 * thread that blocks every signal -- a daemon's main thread that waits
 * for its signals with sigwait() -- leaves libmon's samples pending,
 * and the C library's sigwait() would return the first of them to a
 * program that never asked for SIGPROF.  These definitions take the
 * place of libc's: a SIGPROF that sigprof.c says is libmon's sample is
 * dropped (the thread was running with it blocked; where, nothing
 * tells) and the wait goes on, for what is left of its time.  A SIGPROF
 * the program sent itself, or that its own timer raised, is returned
 * as without libmon.  The perf clock sends no signal: nothing changes.
 *
 * A signalfd() cannot be filtered as it is read: one made while a
 * signal clock runs is made without SIGPROF, so that the program reads
 * only its own signals from it; it never reads SIGPROF, even after the
 * profile stops (libmon(7), SIGNALS).
 */
#define _GNU_SOURCE
#include <sys/signalfd.h>

#include <errno.h>
#include <signal.h>
#include <time.h>

#include "mon_private.h"

typedef int (*timedwaitfn)(const sigset_t *, siginfo_t *,
    const struct timespec *);
typedef int (*signalfdfn)(int, const sigset_t *, int);

#define HUGE_SECS	((time_t)1 << 40)	/* some 35,000 years */

/* What is left from now to end, 0 when it has passed. */
static void
left_until(const struct timespec *end, struct timespec *left)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left->tv_sec = end->tv_sec - now.tv_sec;
	left->tv_nsec = end->tv_nsec - now.tv_nsec;
	if (left->tv_nsec < 0) {
		left->tv_nsec += 1000000000;
		left->tv_sec--;
	}
	if (left->tv_sec < 0)
		left->tv_sec = left->tv_nsec = 0;
}

/*
 * libc's sigtimedwait(), passing over libmon's samples; timeout NULL
 * waits for ever.  As sigtimedwait().
 */
static int
wait_one(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	static timedwaitfn real;
	struct timespec end, left;
	siginfo_t si;
	int huge, r;

	if (real == NULL &&
	    (real = (timedwaitfn)_mon_libc("sigtimedwait")) == NULL)
		return -1;
	huge = 0;
	if (timeout != NULL) {
		if (timeout->tv_nsec < 0 || timeout->tv_nsec >= 1000000000) {
			errno = EINVAL;
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &end);
		/* "For ever" as a huge timeout: waited for as it is. */
		huge = timeout->tv_sec > HUGE_SECS;
		if (!huge) {
			end.tv_sec += timeout->tv_sec + (end.tv_nsec +
			    timeout->tv_nsec) / 1000000000;
			end.tv_nsec = (end.tv_nsec + timeout->tv_nsec) %
			    1000000000;
		}
		left = *timeout;
	}
	for (;;) {
		r = real(set, &si, timeout != NULL ? &left : NULL);
		if (r != SIGPROF || !_mon_sigprof_ours(&si))
			break;
		_mon_timer_dropped(&si);
		if (timeout != NULL && !huge)
			left_until(&end, &left);
	}
	if (r > 0 && info != NULL)
		*info = si;
	return r;
}

_mon_public int
sigtimedwait(const sigset_t *set, siginfo_t *info,
    const struct timespec *timeout)
{
	return wait_one(set, info, timeout);
}

_mon_public int
sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return wait_one(set, info, NULL);
}

_mon_public int
sigwait(const sigset_t *set, int *sig)
{
	int err, r;

	err = errno;
	do
		r = wait_one(set, NULL, NULL);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		r = errno;
		errno = err;
		return r;
	}
	*sig = r;
	errno = err;
	return 0;
}

/* A set the program gave, NULL included (libc's call says EFAULT). */
static int
holds_sigprof(const sigset_t *set)
{
	return set != NULL && sigismember(set, SIGPROF) == 1;
}

_mon_public int
signalfd(int fd, const sigset_t *mask, int flags)
{
	static signalfdfn real;
	sigset_t set;

	if (real == NULL &&
	    (real = (signalfdfn)_mon_libc("signalfd")) == NULL)
		return -1;
	if (_mon_sigprof_clock() && holds_sigprof(mask)) {
		set = *mask;
		sigdelset(&set, SIGPROF);
		mask = &set;
	}
	return real(fd, mask, flags);
}

/* Referenced from lifecycle.c so that this file is always linked in. */
const char _mon_link_sigwait _mon_hidden = 1;
