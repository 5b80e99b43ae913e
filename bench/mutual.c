/*
 * mutual.c -- inclusive time through mutual recursion, measured, where
 * gprof can only give the cycle as a whole.
 *
 *	mutual [units]
 *
 * ping(d) and pong(d) each spin a unit and call the other down to depth
 * 0.  Each of 40 rounds, the driver starts a chain at ping whose top
 * frame spins 6 units more, then a chain at pong whose top spins 1
 * more; both chains are 5 frames deep.  Every frame of a chain is under
 * its top, so ping's inclusive time is all of the ping chains and all
 * of the pong chains but their top frame's own spin (its unit and its
 * extra), and pong's the same the other way round.  The chains are
 * timed whole, and the top frames' own spins apart, on the thread's CPU
 * clock; the inclusive shares of the measured section's CPU time are
 * printed:
 *
 *	truth ping 88.2 pong 58.8 cpu 1.20 checksum 3c...
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "spin.h"

#define ROUNDS	40
#define DEPTH	4

static long unit;
static double topself;		/* CPU s of a top frame's own spin */

unsigned long pong(unsigned long, int, int);

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A frame's own spin: a unit, and extra more in a top frame, timed. */
static inline __attribute__((always_inline)) unsigned long
own(unsigned long x, int extra)
{
	double t;

	if (extra == 0)
		return spin(x, unit);
	t = tcpu();
	x = spin(x, (extra + 1) * unit);
	topself += tcpu() - t;
	return x;
}

__attribute__((noinline)) unsigned long
ping(unsigned long x, int d, int extra)
{
	x = own(x, extra);
	if (d > 0)
		x = pong(x, d - 1, 0);
	return x + 1;		/* no call in tail position */
}

__attribute__((noinline)) unsigned long
pong(unsigned long x, int d, int extra)
{
	x = own(x, extra);
	if (d > 0)
		x = ping(x, d - 1, 0);
	return x + 1;
}

int
main(int argc, char *argv[])
{
	unsigned long x = 1;
	double t0, t, tping = 0, tpong = 0, sping = 0, spong = 0, all;
	long units;
	int r;

	units = argc > 1 ? atol(argv[1]) : 600000000;
	if (units < 17 * ROUNDS) {
		fprintf(stderr, "usage: mutual [units]\n");
		return 2;
	}
	unit = units / 17 / ROUNDS;
	t0 = tcpu();
	for (r = 0; r < ROUNDS; r++) {
		topself = 0;
		t = tcpu();
		x = ping(x, DEPTH, 6);
		tping += tcpu() - t;
		sping += topself;
		topself = 0;
		t = tcpu();
		x = pong(x, DEPTH, 1);
		tpong += tcpu() - t;
		spong += topself;
	}
	all = tcpu() - t0;
	printf("truth ping %.2f pong %.2f cpu %.3f checksum %lx\n",
	    100 * (tping + tpong - spong) / all,
	    100 * (tping + tpong - sping) / all, all, x);
	return 0;
}
