/*
 * tscpair -- what the clock of a timed call costs by itself: n pairs of
 * TSC reads (as lib/calls.c's hooks take one as a call starts and one as
 * it ends), timed on this thread's CPU clock.  Prints "tsc2 NS", the CPU
 * nanoseconds of one pair, for bench row 28.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static double
cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int
main(int argc, char **argv)
{
	unsigned long long sum;
	double t0, t1;
	long i, n;

	n = argc > 1 ? atol(argv[1]) : 10000000;
	if (n <= 0) {
		fprintf(stderr, "usage: tscpair [pairs]\n");
		return 2;
	}
	sum = 0;
	t0 = cpu_ns();
	for (i = 0; i < n; i++) {
		sum += __rdtsc();
		__asm__ volatile("" ::: "memory");
		sum -= __rdtsc();
	}
	t1 = cpu_ns();
	printf("tsc2 %.2f\n", (t1 - t0) / n);
	/* Keeps the reads: no compiler may drop them. */
	return sum == 1 ? 3 : 0;
}
