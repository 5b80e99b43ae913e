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
 *
 * leaf() and loop() start on a 64-byte line (ALIGNED): where the link
 * places them otherwise depends on what else is linked in -- libmon's
 * size, how many PLT entries the program has -- and a loop that happens
 * to straddle a line costs some CPUs 10-20% more a call (seen with the
 * same code 0x6f0 bytes apart), which would read as the profiler's.
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
#define ALIGNED	__attribute__((aligned(64)))

static long per;

NOIPA ALIGNED unsigned long
leaf(unsigned long x)
{
	return x * 2654435761u + 1;
}

static ALIGNED void *
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
