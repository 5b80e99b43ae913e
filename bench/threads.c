/*
 * threads.c -- short threads, made and joined one after the other, as
 * a server with a thread per request does.
 *
 *	threads [n]
 *
 * Creates and joins n threads (default 20000), each calling a small
 * function once.  Prints the wall-clock time of one create and join:
 *
 *	thread 21.4 us checksum ...
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long
work(unsigned long x)
{
	return x * 2654435761u + 1;
}

static void *
start(void *arg)
{
	return (void *)work((unsigned long)arg);
}

int
main(int argc, char *argv[])
{
	pthread_t t;
	unsigned long x;
	void *r;
	double t0, t1;
	long i, n;

	n = argc > 1 ? atol(argv[1]) : 20000;
	x = 1;
	t0 = now();
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, NULL, start, (void *)x) != 0 ||
		    pthread_join(t, &r) != 0) {
			fprintf(stderr, "threads: cannot make thread %ld\n", i);
			return 1;
		}
		x = (unsigned long)r;
	}
	t1 = now();
	printf("thread %.1f us checksum %lx\n", (t1 - t0) / n * 1e6, x);
	return 0;
}
