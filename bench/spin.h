/*
 * spin.h -- the one loop the accuracy workloads burn time in.
 *
 * Always inlined, so the time lands in the function that runs it, and
 * a serial chain of multiplies, so equal iterations cost equal time
 * wherever the loop is compiled.
 */
#ifndef BENCH_SPIN_H
#define BENCH_SPIN_H

static inline __attribute__((always_inline)) unsigned long
spin(unsigned long x, long n)
{
	for (long i = 0; i < n; i++)
		x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15UL + (unsigned long)i;
	return x;
}

#endif
