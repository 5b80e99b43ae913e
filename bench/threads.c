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
 *
 * With -DFLOOR (no profiler at all) the main thread first opens events
 * like those of libmon's default clock (lib/ring.c), inherited by every
 * thread made after, and reads none of their samples: what the kernel
 * does for such events as each thread is made and ends, without the
 * profiler.  Where perf_event_open() is refused, the figure is "n/a".
 * FLOOR_PERIOD in the environment, in ns, sets their period (unless set,
 * 250000, FINE in lib/ring.c: the period libmon's fine clock has at the
 * default rate).  The kernel arms a timer for such an event each time
 * its thread is switched in, and programs the CPU's timer anew when that
 * one is the next to expire, as it is for a period shorter than the
 * tick -- under a hypervisor, an exit from the guest each time.  A
 * period longer than the tick (10 ms, where HZ is 250 or more) spares
 * that, and the samples themselves.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(FLOOR)
#include "floorev.h"
#endif

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
	int nofigure = 0;

	n = argc > 1 ? atol(argv[1]) : 20000;
#if defined(FLOOR)
	/* 250 us: FINE in lib/ring.c, the fine clock's at the default rate */
	if (floor_arm("threads", "FLOOR_PERIOD", 250000) != 0)
		nofigure = 1;
#endif
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
	if (nofigure)
		printf("thread n/a us checksum %lx\n", x);
	else
		printf("thread %.1f us checksum %lx\n", (t1 - t0) / n * 1e6,
		    x);
	return 0;
}
