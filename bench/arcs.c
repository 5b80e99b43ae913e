/*
 * arcs.c -- the driver of the generated arcs programs (bench/arcs.awk):
 * threads sweeping many functions.
 *
 *	arcs [nthreads [sweeps]]
 *
 * Each of nthreads threads (default 1) sweeps the program's functions
 * sweeps times (default 1): a sweep calls every function in arcs_top
 * once, which in the sites shape is the root of a tree of them all.  A
 * sweep makes arcs_calls calls, one to each generated function.  The
 * driver itself is built without -p or -pg in every build, so the calls
 * a profiler should count are exactly those.  Prints
 *
 *	arcs N calls made C ns T checksum X
 *	exit at S
 *
 * T the CPU nanoseconds a call of the sweeps (the process's CPU clock,
 * threads made and joined included, start-up and exit not), S the
 * CLOCK_MONOTONIC seconds just before main returns: what follows, up
 * to the process's end, is the exit, a profile's writing included.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef unsigned long	fn(unsigned long);

extern fn *const	arcs_top[];
extern const long	arcs_ntop, arcs_calls;

static long sweeps;

static double
clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *
sweep(void *arg)
{
	unsigned long x = (unsigned long)(uintptr_t)arg;

	for (long s = 0; s < sweeps; s++)
		for (long i = 0; i < arcs_ntop; i++)
			x = arcs_top[i](x);
	return (void *)(uintptr_t)x;
}

int
main(int argc, char *argv[])
{
	pthread_t tid[256];
	unsigned long sum = 0;
	double t0, t1;
	void *r;
	long n, made;
	int i;

	n = argc > 1 ? atol(argv[1]) : 1;
	sweeps = argc > 2 ? atol(argv[2]) : 1;
	if (n < 1 || n > 256 || sweeps < 1) {
		fprintf(stderr, "usage: arcs [nthreads [sweeps]]\n");
		return 2;
	}
	t0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, sweep,
		    (void *)(uintptr_t)(i + 1)) != 0) {
			fprintf(stderr, "arcs: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], &r);
		sum += (unsigned long)(uintptr_t)r;
	}
	t1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	made = n * sweeps * arcs_calls;
	printf("arcs %ld calls made %ld ns %.3f checksum %lx\n", arcs_calls,
	    made, (t1 - t0) * 1e9 / made, sum);
	if (fflush(stdout) != 0)
		return 1;
	printf("exit at %.6f\n", clock_s(CLOCK_MONOTONIC));
	return 0;
}
