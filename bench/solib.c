/*
 * solib.c -- three quarters of the CPU in a shared library.
 *
 *	solib [units]
 *
 * main_part() here and lib_part() in libsolib.so (solib_lib.c) run the
 * same inlined loop, 1 : 3 by work, in 40 alternating rounds (units
 * default 400000000 iterations in all).  The bench builds the library
 * without -p/-pg -- a library as a distribution ships it -- and this
 * program unprofiled, with -pg or with -p.  Each piece is timed on the
 * CPU clock and the measured share of the library is printed:
 *
 *	truth 75.03 cpu 0.861 checksum ...
 */
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

#define ROUNDS	40

unsigned long	lib_part(unsigned long, long);

__attribute__((noinline)) unsigned long
main_part(unsigned long x, long n)
{
	return spin(x, n);
}

int
main(int argc, char *argv[])
{
	unsigned long x = 1;
	double t0, t1, t2, tm = 0, tl = 0;
	long units, n;

	units = argc > 1 ? atol(argv[1]) : 400000000;
	n = units / 4 / ROUNDS;
	for (int r = 0; r < ROUNDS; r++) {
		t0 = tcpu();
		x = main_part(x, n);
		t1 = tcpu();
		x = lib_part(x, 3 * n);
		t2 = tcpu();
		tm += t1 - t0;
		tl += t2 - t1;
	}
	printf("truth %.2f cpu %.3f checksum %lx\n", 100 * tl / (tm + tl),
	    tm + tl, x);
	return 0;
}
