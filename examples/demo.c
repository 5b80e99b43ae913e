/*
 * demo.c -- a small program to profile: three functions that share the
 * work roughly 50/30/20, and a helper called many times.
 *
 *	cc -p demo.c -lmon && ./a.out && prof a.out mon.out
 */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long
step(unsigned long x)
{
	return x * 6364136223846793005UL + 1442695040888963407UL;
}

__attribute__((noinline)) static unsigned long
churn(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < n; i++)
		x = step(x) ^ (x >> 17);
	return x;
}

__attribute__((noinline)) unsigned long
alpha(void)
{
	return churn(100000000);
}

__attribute__((noinline)) unsigned long
beta(void)
{
	return churn(60000000);
}

__attribute__((noinline)) unsigned long
gamma_(void)
{
	return churn(40000000);
}

int
main(void)
{
	sink = alpha() + beta() + gamma_();
	printf("demo: done (%lu)\n", sink & 0xff);
	return 0;
}
