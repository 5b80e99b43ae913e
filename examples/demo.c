/*
 * demo.c -- a small program to profile: alpha, beta and gamma_ do the
 * same work per call and are called 5, 3 and 2 times, so they should
 * take 50%, 30% and 20% of the time; mix is small and called often.
 *
 *	cc -p demo.c -lmon && ./a.out && prof a.out mon.out
 */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long
mix(unsigned long x)
{
	return x * 6364136223846793005UL + 1442695040888963407UL;
}

/* The work of one call: a loop that stays in the caller's own code. */
static inline __attribute__((always_inline)) unsigned long
work(unsigned long x)
{
	for (unsigned long i = 0; i < 60000000; i++)
		x = (x ^ (x >> 13)) * 0x9e3779b97f4a7c15UL + i;
	return mix(x);
}

__attribute__((noinline)) unsigned long
alpha(unsigned long x)
{
	return work(x);
}

__attribute__((noinline)) unsigned long
beta(unsigned long x)
{
	return work(x + 1);
}

__attribute__((noinline)) unsigned long
gamma_(unsigned long x)
{
	return work(x + 2);
}

int
main(void)
{
	unsigned long x = 1;
	int i;

	for (i = 0; i < 5; i++)
		x = alpha(x);
	for (i = 0; i < 3; i++)
		x = beta(x);
	for (i = 0; i < 2; i++)
		x = gamma_(x);
	for (i = 0; i < 100000; i++)
		x = mix(x);
	sink = x;
	printf("demo: done (%lu)\n", x & 0xff);
	return 0;
}
