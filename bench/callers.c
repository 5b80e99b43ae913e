/*
 * callers.c -- whose time is a shared function's: the call graph's
 * children time, measured against gprof's equal-cost estimate.
 *
 *	callers [units]
 *
 * work(n) spins n units.  Each of 40 rounds, cheap_caller() calls it 9
 * times with 1 unit and costly_caller() once with 81: cheap_caller
 * makes 90% of work's calls but costly_caller gets 90% of its time.  An
 * estimate that shares a function's time among its callers by calls
 * (gprof's) gives them the opposite.  Each caller is timed whole on the
 * thread's CPU clock -- its inclusive time, the truth -- and the shares
 * of the measured section's CPU time are printed:
 *
 *	truth cheap_caller 10.0 costly_caller 90.0 cpu 1.25 checksum 9f...
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "spin.h"

#define ROUNDS	40

static long unit;

__attribute__((noinline)) unsigned long
work(unsigned long x, long n)
{
	return spin(x, n * unit);
}

__attribute__((noinline)) unsigned long
cheap_caller(unsigned long x)
{
	for (int i = 0; i < 9; i++)
		x = work(x, 1);
	return x + 1;		/* no call in tail position */
}

__attribute__((noinline)) unsigned long
costly_caller(unsigned long x)
{
	x = work(x, 81);
	return x + 1;
}

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char *argv[])
{
	unsigned long x = 1;
	double t0, t1, t2, t3, cheap = 0, costly = 0;
	long units;
	int r;

	units = argc > 1 ? atol(argv[1]) : 600000000;
	if (units < 90 * ROUNDS) {
		fprintf(stderr, "usage: callers [units]\n");
		return 2;
	}
	unit = units / 90 / ROUNDS;
	t0 = tcpu();
	for (r = 0; r < ROUNDS; r++) {
		t1 = tcpu();
		x = cheap_caller(x);
		t2 = tcpu();
		x = costly_caller(x);
		t3 = tcpu();
		cheap += t2 - t1;
		costly += t3 - t2;
	}
	t3 = tcpu() - t0;
	printf("truth cheap_caller %.2f costly_caller %.2f cpu %.3f "
	    "checksum %lx\n", 100 * cheap / t3, 100 * costly / t3, t3, x);
	return 0;
}
