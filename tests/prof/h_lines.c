/*
 * h_lines.c -- a program whose hot lines are known by construction, for
 * prof -L and -A (lines_test).
 *
 * main() runs three loops, each written on one line of its own, and
 * times each on the thread's CPU clock; then it calls callee() from
 * two call sites on two other lines, a known number of times from
 * each.  It prints what it measured, one "name value" a line:
 *
 *	loop1 SECONDS	loop2 SECONDS	loop3 SECONDS
 *	site1 CALLS	site2 CALLS
 *
 * Every loop sits on a line that names it in a comment (LOOP1 ...,
 * SITE1 ...), so that the test finds the line numbers with grep.  The
 * argument scales the work: 1 by default, about a second of CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SITE1_CALLS	3000
#define SITE2_CALLS	7000

static volatile unsigned long sink;

static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Called from the two sites; a little work so that it has a body. */
static void __attribute__((noinline))
callee(void)
{
	sink = sink * 3 + 1;
}

int
main(int argc, char **argv)
{
	unsigned long n = 40000000UL, i, x = sink;
	double t0, t1, t2, t3;
	int k;

	if (argc > 1)
		n = (unsigned long)(atof(argv[1]) * (double)n);
	t0 = cpu();
	for (i = 0; i < n; i++) x = x * 2862933555777941757UL + 3037000493UL; /* LOOP1 */
	t1 = cpu();
	for (i = 0; i < 2 * n; i++) x = x * 2862933555777941757UL + 3037000493UL; /* LOOP2 */
	t2 = cpu();
	for (i = 0; i < 3 * n; i++) x = x * 2862933555777941757UL + 3037000493UL; /* LOOP3 */
	t3 = cpu();
	sink = x;
	for (k = 0; k < SITE1_CALLS; k++)
		callee(); /* SITE1 */
	for (k = 0; k < SITE2_CALLS; k++)
		callee(); /* SITE2 */
	printf("loop1 %.6f\nloop2 %.6f\nloop3 %.6f\n", t1 - t0, t2 - t1,
	    t3 - t2);
	printf("site1 %d\nsite2 %d\n", SITE1_CALLS, SITE2_CALLS);
	return 0;
}
