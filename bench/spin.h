/*
 * spin.h -- the one loop the accuracy workloads burn time in, and the
 * clock that measures them.
 *
 * The loop is always inlined, so the time lands in the function that
 * runs it, and a serial chain of multiplies, so equal iterations cost
 * equal time wherever the loop is compiled.  The clock is the calling
 * thread's CPU time, user and system, which no profiler touches: the
 * truth a report is held to.
 */
#ifndef BENCH_SPIN_H
#define BENCH_SPIN_H

#include <time.h>

static inline __attribute__((always_inline)) unsigned long
spin(unsigned long x, long n)
{
	for (long i = 0; i < n; i++)
		x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15UL + (unsigned long)i;
	return x;
}

/* The calling thread's CPU seconds. */
static inline double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
