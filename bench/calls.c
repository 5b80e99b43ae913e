/*
 * calls.c -- mcount's cost: a loop calling a tiny function, in threads.
 *
 *	calls [nthreads [total]]
 *
 * Each of nthreads threads (default 1) calls leaf() total/nthreads
 * times (default 100000000 in all).  leaf() is noinline and noipa and
 * its results are summed and printed, so gcc can neither inline nor
 * drop a call: the calls made are exactly nthreads * (total/nthreads),
 * and the bench compares that with the count each profiler reports for
 * leaf.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__GNUC__) && !defined(__clang__)
#define NOIPA	__attribute__((noinline, noipa))
#else
#define NOIPA	__attribute__((noinline))
#endif

static long per;

NOIPA unsigned long
leaf(unsigned long x)
{
	return x * 2654435761u + 1;
}

static void *
loop(void *arg)
{
	unsigned long s = (unsigned long)(uintptr_t)arg;

	for (long i = 0; i < per; i++)
		s += leaf(s + (unsigned long)i);
	return (void *)(uintptr_t)s;
}

int
main(int argc, char *argv[])
{
	pthread_t tid[64];
	unsigned long sum = 0;
	void *r;
	long n, total;
	int i;

	n = argc > 1 ? atol(argv[1]) : 1;
	total = argc > 2 ? atol(argv[2]) : 100000000;
	if (n < 1 || n > 64 || total < n) {
		fprintf(stderr, "usage: calls [nthreads [total]]\n");
		return 2;
	}
	per = total / n;
	for (i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, loop,
		    (void *)(uintptr_t)i) != 0) {
			fprintf(stderr, "calls: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], &r);
		sum += (unsigned long)(uintptr_t)r;
	}
	printf("calls made %ld checksum %lx\n", per * n, sum);
	return 0;
}
