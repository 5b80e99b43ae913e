/*
 * snap.c -- a busy server's threads while its profile is written in
 * parts: what a snapshot costs, and whether any thread waits for it.
 *
 *	snap threads iters ms
 *
 * Each of the threads runs iters steps of CPU work (step() calls leaf()
 * 200 times), noting the longest wall-clock gap between two steps; the
 * main thread meanwhile calls monsnapshot() every ms milliseconds (0:
 * never) if the program is linked with libmon, timing each call.
 * Prints the mean wall time of a snapshot, the longest gap any thread
 * saw, and a checksum:
 *
 *	snapshots 40 us 812.3 stall 2104.0 us checksum ...
 *
 * With PROFINTERVAL set instead, libmon's own thread writes the parts
 * and the program does nothing of the kind.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* libmon's, when linked; the other builds have none. */
extern int monsnapshot(void) __attribute__((weak));

struct worker {
	pthread_t	 t;
	long		 id;
	long		 iters;
	uint64_t	 gap;		/* longest, ns */
	unsigned long	 sum;
};

static volatile int done;

static uint64_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) unsigned long
leaf(unsigned long x)
{
	return x * 6364136223846793005UL + 1442695040888963407UL;
}

__attribute__((noinline)) unsigned long
step(unsigned long x)
{
	int i;

	for (i = 0; i < 200; i++)
		x = leaf(x);
	return x;
}

static void *
work(void *p)
{
	struct worker *w = p;
	uint64_t t0, t1;
	unsigned long x;
	long i;

	x = (unsigned long)w->id + 1;
	t0 = now();
	for (i = 0; i < w->iters; i++) {
		x = step(x);
		t1 = now();
		if (t1 - t0 > w->gap)
			w->gap = t1 - t0;
		t0 = t1;
	}
	w->sum = x;
	return NULL;
}

int
main(int argc, char *argv[])
{
	struct worker *w;
	struct timespec pause;
	uint64_t spent, gap, t0;
	unsigned long sum;
	long n, i, ms, snaps;

	n = argc > 1 ? atol(argv[1]) : 4;
	ms = argc > 3 ? atol(argv[3]) : 0;
	if (n < 1 || (w = calloc((size_t)n, sizeof(*w))) == NULL)
		return 1;
	for (i = 0; i < n; i++) {
		w[i].id = i;
		w[i].iters = argc > 2 ? atol(argv[2]) : 100000;
		if (pthread_create(&w[i].t, NULL, work, &w[i]) != 0)
			return 1;
	}
	pause.tv_sec = ms / 1000;
	pause.tv_nsec = ms % 1000 * 1000000;
	spent = 0;
	snaps = 0;
	/* Snapshots while the workers run: the first to end stops them. */
	while (ms > 0 && monsnapshot != NULL && !done) {
		nanosleep(&pause, NULL);
		t0 = now();
		if (monsnapshot() != 0) {
			perror("monsnapshot");
			return 1;
		}
		spent += now() - t0;
		snaps++;
		done = __atomic_load_n(&w[0].sum, __ATOMIC_RELAXED) != 0;
	}
	gap = 0;
	sum = 0;
	for (i = 0; i < n; i++) {
		pthread_join(w[i].t, NULL);
		if (w[i].gap > gap)
			gap = w[i].gap;
		sum ^= w[i].sum;
	}
	printf("snapshots %ld us %.1f stall %.1f us checksum %lx\n", snaps,
	    snaps > 0 ? spent / 1e3 / snaps : 0.0, gap / 1e3, sum);
	return 0;
}
