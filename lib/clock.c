/*
 * clock.c -- the sampling clock behind the histogram.
 *
 * setitimer(ITIMER_PROF) counts the CPU time of all threads and signals
 * whichever thread is running, so every thread is sampled.  The kernel
 * checks CPU-time timers at its tick, so the rate asked for (PROFHZ,
 * default 1000) is an upper bound; what matters is that the writer
 * records the CPU time covered, from which prof derives honest seconds.
 *
 * Starting saves the SIGPROF action and the timer that were there;
 * stopping puts both back.  Interval timers are not inherited by fork()
 * (the child is re-armed) and survive execve() (exec.c switches the
 * clock off before a new image starts).
 */
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "mon_private.h"

#define DEFAULT_HZ	1000
#define MAX_HZ		100000

static struct sigaction	oldact;
static struct itimerval	oldtimer;
static struct itimerval	ourtimer;
static volatile sig_atomic_t running;

/* The period asked for, from PROFHZ when it is a sane number. */
static uint64_t
period_ns(void)
{
	const char *s;
	char *end;
	long hz;

	hz = DEFAULT_HZ;
	if ((s = getenv("PROFHZ")) != NULL && *s != '\0') {
		errno = 0;
		hz = strtol(s, &end, 10);
		if (errno != 0 || *end != '\0' || hz < 1 || hz > MAX_HZ) {
			_mon_warn("PROFHZ", "not a rate from 1 to 100000 Hz;"
			    " using 1000", 0);
			hz = DEFAULT_HZ;
		}
	}
	return 1000000000u / (uint64_t)hz;
}

int
_mon_clock_running(void)
{
	return running;
}

/*
 * Install handler on SIGPROF and arm the clock.  On failure nothing is
 * left changed.
 */
int
_mon_clock_start(void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction sa;
	uint64_t ns;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, &oldact) != 0)
		return -1;
	ns = period_ns();
	ourtimer.it_interval.tv_sec = ns / 1000000000u;
	ourtimer.it_interval.tv_usec = (ns % 1000000000u) / 1000u;
	if (ourtimer.it_interval.tv_sec == 0 &&
	    ourtimer.it_interval.tv_usec == 0)
		ourtimer.it_interval.tv_usec = 1;
	ourtimer.it_value = ourtimer.it_interval;
	if (setitimer(ITIMER_PROF, &ourtimer, &oldtimer) != 0) {
		(void)sigaction(SIGPROF, &oldact, NULL);
		return -1;
	}
	_mon_stats.period_ns = ns;
	if (_mon_stats.clock < 0)
		_mon_stats.clock = MONX_CLK_ITIMER;
	running = 1;
	return 0;
}

/* Disarm and put back what was there before _mon_clock_start(). */
void
_mon_clock_stop(void)
{
	int saved;

	if (!running)
		return;
	saved = errno;
	running = 0;
	(void)setitimer(ITIMER_PROF, &oldtimer, NULL);
	(void)sigaction(SIGPROF, &oldact, NULL);
	errno = saved;
}

/* In a fork child: the timer was not inherited; arm it again. */
void
_mon_clock_fork(void)
{
	if (running)
		(void)setitimer(ITIMER_PROF, &ourtimer, NULL);
}

/*
 * Around an exec: the interval timer would outlive the image and kill
 * the new program with SIGPROF.  Pause before, resume if exec failed.
 */
void
_mon_clock_pause(void)
{
	static const struct itimerval zero;

	if (running)
		(void)setitimer(ITIMER_PROF, &zero, NULL);
}

void
_mon_clock_resume(void)
{
	if (running)
		(void)setitimer(ITIMER_PROF, &ourtimer, NULL);
}
