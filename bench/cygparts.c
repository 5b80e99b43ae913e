/*
 * cygparts -- bench row 28's accuracy program, built with
 * -finstrument-functions and linked with libmon, whose hooks time every
 * call.  Four parts, each timed here around its calls with
 * CLOCK_MONOTONIC, the wall time the hooks measure too:
 *
 *	part_a	one call spinning 300 ms		main thread
 *	part_b	100 calls of 1 ms each			main thread
 *	part_c	one call spinning 200 ms		a second thread
 *	part_d	one call asleep in nanosleep 100 ms	the second thread
 *
 * Prints "truth part_a S part_b S part_c S part_d S", seconds, and
 * "checksum N", the same profiled or not.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE	__attribute__((noinline))

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static volatile unsigned long sink;

/* Spin for s seconds of wall time. */
static NOINLINE void
spin(double s)
{
	double end = now() + s;

	while (now() < end)
		sink++;
}

static NOINLINE void part_a(void) { spin(0.3); }
static NOINLINE void part_b(void) { spin(0.001); }
static NOINLINE void part_c(void) { spin(0.2); }

static NOINLINE void
part_d(void)
{
	struct timespec t = { 0, 100000000 };

	while (nanosleep(&t, &t) != 0)
		continue;
}

static double	 truth[4];

/* Call fn, its wall time added to truth[k]. */
static NOINLINE void
timed(void (*fn)(void), int k)
{
	double t0 = now();

	fn();
	truth[k] += now() - t0;
}

static void *
second(void *unused)
{
	(void)unused;
	timed(part_c, 2);
	timed(part_d, 3);
	return NULL;
}

int
main(void)
{
	pthread_t t;
	int i;

	if (pthread_create(&t, NULL, second, NULL) != 0) {
		fprintf(stderr, "cygparts: pthread_create failed\n");
		return 1;
	}
	timed(part_a, 0);
	for (i = 0; i < 100; i++)
		timed(part_b, 1);
	pthread_join(t, NULL);
	printf("truth part_a %.6f part_b %.6f part_c %.6f part_d %.6f\n",
	    truth[0], truth[1], truth[2], truth[3]);
	printf("checksum %d\n", i);
	return 0;
}
