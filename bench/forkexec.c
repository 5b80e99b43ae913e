/*
 * forkexec.c -- fork and exec from a program with 20 MiB of text, as a
 * large server spawning helpers does.
 *
 *	forkexec [n]
 *
 * Forks n times (default 400); each child execs /bin/true at once and
 * the parent waits for it.  The text is padding that never runs, but a
 * profiler that sizes its buffers by the text (a histogram, call-count
 * tables) makes every child pay for them before the exec unless it
 * leaves them alone.  Prints the wall-clock time of one fork, exec and
 * wait:
 *
 *	forkexec 812.3 us checksum ...
 *
 * With -DFLOOR (no profiler) each child first starts one thread that
 * waits, as a sampling profiler whose samples a thread of its own reads
 * (libmon's perf clock) starts in a child it must sample: what the
 * kernel costs a fork+exec for that thread alone, which the exec ends.
 * With FLOOR_EVENTS set in the environment, to a period in ns, the
 * parent too is as under that clock before it forks: its events opened
 * as lib/ring.c opens them (floorev.h), never read, and a thread that
 * wakes every 20 ms, as the clock's drainer does while it is coarse
 * (COARSEDRAIN in lib/ring.c): all of the kernel's part of the clock's
 * cost, without the profiler.
 */
#include <sys/wait.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(FLOOR)
#include "floorev.h"
#endif

__asm__(
	"	.text\n"
	"	.p2align 12\n"
	"forkexec_pad:\n"
	"	.fill	20 << 20, 1, 0xcc\n"
);

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#if defined(FLOOR)
static void *
waits(void *unused)
{
	(void)unused;
	for (;;)
		pause();
	return NULL;
}

/* The parent's drainer, coarse: a wake-up every 20 ms. */
static void *
naps(void *unused)
{
	struct timespec ts = { 0, 20000000 };

	(void)unused;
	for (;;)
		nanosleep(&ts, NULL);
	return NULL;
}
#endif

__attribute__((noinline)) static int
spawn(void)
{
	pid_t pid;
	int st;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
#if defined(FLOOR)
		pthread_t t;

		if (pthread_create(&t, NULL, waits, NULL) != 0)
			_exit(126);
#endif
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int
main(int argc, char *argv[])
{
	double t0, t1;
	long i, n, bad;

	n = argc > 1 ? atol(argv[1]) : 400;
	bad = 0;
#if defined(FLOOR)
	if (getenv("FLOOR_EVENTS") != NULL) {
		pthread_t t;

		if (floor_arm("forkexec", "FLOOR_EVENTS", 0) != 0) {
			printf("forkexec n/a us checksum 0\n");
			return 0;
		}
		if (pthread_create(&t, NULL, naps, NULL) != 0) {
			fprintf(stderr, "forkexec: cannot make a thread\n");
			return 1;
		}
	}
#endif
	t0 = now();
	for (i = 0; i < n; i++)
		bad += spawn() != 0;
	t1 = now();
	printf("forkexec %.1f us checksum %lx\n", (t1 - t0) / n * 1e6, bad);
	return bad != 0;
}
