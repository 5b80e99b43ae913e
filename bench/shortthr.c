/*
 * shortthr.c -- CPU whose truth the program measures itself: many
 * threads shorter than a sampling period, and a long stretch on the
 * main thread.  The bench's rows 21 and 22 (bench/rows/21-short-threads.sh,
 * 22-fine-parts.sh) run it, and tests/lib/accuracy_test.sh as h_shortthr.
 *
 *	shortthr nthreads task_us main_ms
 *
 * The main thread spins main_ms ms of its own CPU time in mainwork(),
 * then starts nthreads threads one after another, each spinning task_us
 * us in task() and joined before the next starts.  Each measures the
 * CPU time its function used on its own thread's clock
 * (CLOCK_THREAD_CPUTIME_ID), which is the truth a profile is checked
 * against; it prints, in seconds:
 *
 *	task 0.5123 mainwork 0.3001
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static uint64_t	 tasktotal;	/* under mu */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static uint64_t
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spin ns of this thread's CPU in the caller; the CPU used. */
#define SPINFOR(ns, used) do {						\
	uint64_t t0_ = cpu(), t_;					\
	unsigned long i_, x_ = sink;					\
	while ((t_ = cpu()) - t0_ < (uint64_t)(ns))			\
		for (i_ = 0; i_ < 20000; i_++)				\
			x_ = x_ * 6364136223846793005UL +		\
			    1442695040888963407UL;			\
	sink = x_;							\
	(used) = t_ - t0_;						\
} while (0)

static void *
task(void *arg)
{
	uint64_t used;

	SPINFOR((uintptr_t)arg, used);
	pthread_mutex_lock(&mu);
	tasktotal += used;
	pthread_mutex_unlock(&mu);
	return NULL;
}

static uint64_t
mainwork(uint64_t ns)
{
	uint64_t used;

	SPINFOR(ns, used);
	return used;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	uint64_t mainused;
	long i, n;

	if (argc != 4) {
		fprintf(stderr, "usage: shortthr nthreads task_us main_ms\n");
		return 2;
	}
	n = atol(argv[1]);
	mainused = mainwork((uint64_t)atol(argv[3]) * 1000000u);
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, NULL, task,
		    (void *)(uintptr_t)(atol(argv[2]) * 1000)) != 0) {
			perror("pthread_create");
			return 1;
		}
		pthread_join(t, NULL);
	}
	printf("task %.4f mainwork %.4f\n", (double)tasktotal / 1e9,
	    (double)mainused / 1e9);
	return fflush(stdout) != 0;
}
