/*
 * fib.c -- recursion: the naive Fibonacci, every call an mcount call.
 *
 *	fib [n [reps]]
 *
 * Computes fib(n) (default 35) reps times (default 1) and prints the
 * sum, so the work cannot be dropped; n is read through a volatile so
 * gcc, which knows fib() is a pure function, cannot compute it once.
 * fib() starts on a 64-byte line, wherever the link would place it
 * otherwise (calls.c says why).
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, aligned(64))) unsigned long
fib(unsigned long n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int
main(int argc, char *argv[])
{
	volatile unsigned long n;
	unsigned long sum = 0;
	long reps, i;

	n = argc > 1 ? strtoul(argv[1], NULL, 10) : 35;
	reps = argc > 2 ? atol(argv[2]) : 1;
	for (i = 0; i < reps; i++)	/* n is volatile: no hoisting */
		sum += fib(n);
	printf("fib(%lu) x %ld checksum %lu\n", n, reps, sum);
	return 0;
}
