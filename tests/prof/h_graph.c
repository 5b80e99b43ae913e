/*
 * h_graph.c -- a profiled program whose call graph the end-to-end
 * tests know.
 *
 * usage: h_graph [units]
 *
 * Each of 40 rounds, cheap_caller() calls work() 9 times with 1 unit
 * to burn and costly_caller() calls it once with 81: cheap_caller makes
 * 90% of work's calls, costly_caller gets 90% of its time.  Then ping()
 * and pong() call each other 8 deep, each burning 3 units a level.  A
 * unit is units (default 150000) times a pseudo-random 0.5 to 1.5, new
 * each round: rounds of one length would meet a CPU-time timer's 4 ms
 * tick at the same few phases every time, and cheap_caller's 2 ms
 * would get a sample every round or none.  The
 * truth -- each caller, and the top call of ping, timed whole on the
 * thread's CPU clock -- goes to stdout as shares of the rounds' time,
 * one "name percent" a line.  No call is in tail position, and -O1
 * makes no sibling calls, so the stacks and the arcs see every frame.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "h_burn.h"

#define ROUNDS	40

static unsigned long unit;	/* this round's */

void	pong(int);

void
work(unsigned long n)
{
	BURN(n * unit);
}

void
cheap_caller(void)
{
	int i;

	for (i = 0; i < 9; i++)
		work(1);
	burn_sink++;
}

void
costly_caller(void)
{
	work(81);
	burn_sink++;
}

void
ping(int depth)
{
	BURN(3 * unit);
	if (depth > 0)
		pong(depth - 1);
	burn_sink++;
}

void
pong(int depth)
{
	BURN(3 * unit);
	if (depth > 0)
		ping(depth - 1);
	burn_sink++;
}

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char *argv[])
{
	double t0, t1, t2, t3, t4, cheap = 0, costly = 0, rec = 0, all;
	unsigned long long x = 1;	/* an LCG's, Knuth's MMIX constants */
	unsigned long units = 150000;
	int r;

	if (argc > 1)
		units = strtoul(argv[1], NULL, 0);
	t0 = tcpu();
	for (r = 0; r < ROUNDS; r++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		unit = units / 8 * (4 + (unsigned long)(x >> 33) % 9);
		t1 = tcpu();
		cheap_caller();
		t2 = tcpu();
		costly_caller();
		t3 = tcpu();
		ping(7);
		t4 = tcpu();
		cheap += t2 - t1;
		costly += t3 - t2;
		rec += t4 - t3;
	}
	all = tcpu() - t0;
	printf("cheap_caller %.1f\ncostly_caller %.1f\nping %.1f\n",
	    100 * cheap / all, 100 * costly / all, 100 * rec / all);
	return 0;
}
