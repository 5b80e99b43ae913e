/*
 * h_sigprog -- a cc -p program for signals_test, compiled as a strict
 * ISO C program would be (no _DEFAULT_SOURCE, so <signal.h> makes
 * signal() glibc's __sysv_signal) with POSIX/XSI added for the rest.
 * It is profiled from start-up to exit, and prints what it saw.
 *
 *	h_sigprog dfl MS	signal(SIGPROF, SIG_DFL), then spin MS ms
 *	h_sigprog sysv MS	signal(SIGPROF, h), h re-arming itself as
 *				System V handlers do; its own ITIMER_PROF
 *				at 100 Hz while it spins MS ms
 *
 * Output: "read back: own" or "read back: other", "own N" (signals the
 * handler got).  Exit status 3.
 */
#undef _DEFAULT_SOURCE
#undef _GNU_SOURCE
#define _XOPEN_SOURCE	700
#include <sys/time.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MS	1000000ULL

static volatile sig_atomic_t own;
static volatile unsigned long sink;

static uint64_t
now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
spin(uint64_t ns)
{
	uint64_t t0;
	unsigned long i;

	t0 = now();
	while (now() - t0 < ns)
		for (i = 0; i < 50000; i++)
			sink = sink * 6364136223846793005UL + 1;
}

/* A System V handler: the action was reset on entry; set it again. */
static void
onprof(int sig)
{
	own++;
	(void)signal(sig, onprof);
}

static int
readback(void (*want)(int))
{
	struct sigaction cur;

	if (sigaction(SIGPROF, NULL, &cur) != 0)
		return 0;
	return cur.sa_handler == want;
}

static int
sysv(uint64_t ns)
{
	struct itimerval it;

	if (signal(SIGPROF, onprof) == SIG_ERR)
		return 10;
	printf("read back: %s\n", readback(onprof) ? "own" : "other");
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 10000;
	it.it_value = it.it_interval;
	if (setitimer(ITIMER_PROF, &it, NULL) != 0)
		return 11;
	spin(ns);
	memset(&it, 0, sizeof(it));
	(void)setitimer(ITIMER_PROF, &it, NULL);
	printf("own %d\n", (int)own);
	return 3;
}

int
main(int argc, char *argv[])
{
	uint64_t ns;

	if (argc != 3) {
		fprintf(stderr, "usage: h_sigprog dfl|sysv MS\n");
		return 2;
	}
	ns = strtoull(argv[2], NULL, 10) * MS;
	if (strcmp(argv[1], "dfl") == 0) {
		if (signal(SIGPROF, SIG_DFL) == SIG_ERR)
			return 10;
		printf("read back: %s\n", readback(SIG_DFL) ? "own" : "other");
		spin(ns);
		return 3;
	}
	if (strcmp(argv[1], "sysv") == 0)
		return sysv(ns);
	return 2;
}
