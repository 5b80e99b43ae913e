/*
 * inline.c -- h_inline: a hot function whose time is mostly in a
 * static inline function of a header (inline.h), for prof's exports
 * of source lines (lines_test).  Lines 5 to 7 of this file are this
 * comment, where inline.h has its hot lines: a line of the header
 * written as this file's would land on text, not code, and lines_test
 * tells these three lines apart by their text.
 *
 * main() calls work() from two call sites: once with much work, then
 * many times with little, and times each part on the thread's CPU
 * clock.  It prints what it measured, one "name value" a line:
 *
 *	big SECONDS	small SECONDS	smallcalls CALLS
 *
 * The argument scales the work: 1 by default, about a second of CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "inline.h"

#define SMALL_CALLS	20000

static volatile unsigned long sink;

static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) unsigned long
work(unsigned long n)
{
	unsigned long x = sink, i;

	for (i = 0; i < n; i++)
		x = scramble(x + i);	/* WORK */
	return x;
}

int
main(int argc, char **argv)
{
	unsigned long n = 150000000UL, small;
	double t0, t1, t2;
	int k;

	if (argc > 1)
		n = (unsigned long)(atof(argv[1]) * (double)n);
	/* The small calls take a third of the big call's time. */
	small = n / 3 / SMALL_CALLS + 1;
	t0 = cpu();
	sink = work(n); /* BIGCALL */
	t1 = cpu();
	for (k = 0; k < SMALL_CALLS; k++)
		sink += work(small); /* SMALLCALLS */
	t2 = cpu();
	printf("big %.6f\nsmall %.6f\nsmallcalls %d\n", t1 - t0, t2 - t1,
	    SMALL_CALLS);
	return 0;
}
