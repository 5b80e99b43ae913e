/*
 * burn.c -- where the time goes: three functions splitting known work.
 *
 *	burn [nthreads [units]]
 *
 * Each of nthreads threads (default 1) runs part_a(), part_b() and
 * part_c() in turn, 40 rounds.  They run spin.h's inlined loop for 5,
 * 3 and 2 tenths of the iterations, units (default 600000000) being
 * those of all threads together, so by work the split is 50/30/20 and
 * no time goes to a callee.  Each call is timed on the thread's CPU
 * clock, and the measured shares are printed as the truth a
 * profiler's %Time should match:
 *
 *	truth 50.04 29.97 19.99 cpu 1.512 checksum 1f...
 *
 * With -DMONITOR (linked with libmon.a, no -p) or -DGMON (glibc's
 * monstartup, no -pg), main profiles its own text through that one
 * explicit call: the cost of sampling alone, with no call counting.
 * With -DFLOOR (no profiler at all) each thread opens the clock libmon
 * uses by default -- a perf_event task-clock at 1000 Hz -- with nowhere
 * for its samples to go, neither ring nor signal: the kernel's timer
 * interrupts alone, the floor under libmon's figure.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

#if defined(MONITOR)
#include <mon.h>
#elif defined(GMON)
#include <sys/gmon.h>
#elif defined(FLOOR)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>
#endif

#define ROUNDS	40

struct job {
	long		 iters;		/* per round, per unit of the split */
	unsigned long	 sum;
	double		 t[3];		/* CPU seconds in a, b, c */
};

__attribute__((noinline)) unsigned long
part_a(unsigned long x, long n)
{
	return spin(x, 5 * n);
}

__attribute__((noinline)) unsigned long
part_b(unsigned long x, long n)
{
	return spin(x, 3 * n);
}

__attribute__((noinline)) unsigned long
part_c(unsigned long x, long n)
{
	return spin(x, 2 * n);
}

#if defined(FLOOR)
/* The calling thread's 1000 Hz task-clock, its samples going nowhere. */
static void
floor_arm(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 1000000;
	a.sample_type = PERF_SAMPLE_IP;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}
#endif

static void *
work(void *arg)
{
	struct job *j = arg;
	unsigned long x = j->sum;
	double t0, t1, t2, t3;

#if defined(FLOOR)
	floor_arm();
#endif
	for (int r = 0; r < ROUNDS; r++) {
		t0 = tcpu();
		x = part_a(x, j->iters);
		t1 = tcpu();
		x = part_b(x, j->iters);
		t2 = tcpu();
		x = part_c(x, j->iters);
		t3 = tcpu();
		j->t[0] += t1 - t0;
		j->t[1] += t2 - t1;
		j->t[2] += t3 - t2;
	}
	j->sum = x;
	return NULL;
}

int
main(int argc, char *argv[])
{
	struct job job[64];
	pthread_t tid[64];
	double t[3] = { 0, 0, 0 }, all;
	unsigned long sum = 0;
	long n, units;
	int i, k;

	n = argc > 1 ? atol(argv[1]) : 1;
	units = argc > 2 ? atol(argv[2]) : 600000000;
	if (n < 1 || n > 64 || units < 10 * ROUNDS * n) {
		fprintf(stderr, "usage: burn [nthreads [units]]\n");
		return 2;
	}
#if defined(MONITOR) || defined(GMON)
	extern char __executable_start[], etext[];
#endif
#if defined(MONITOR)
	size_t words = sizeof(struct hdr) / sizeof(WORD) +
	    (size_t)(etext - __executable_start) / BARSIZE + 1;
	WORD *buf = calloc(words, sizeof(WORD));
	if (buf == NULL)
		return 1;
	monitor((int (*)(void))__executable_start, (int (*)(void))etext,
	    buf, words, 0);
#elif defined(GMON)
	monstartup((unsigned long)__executable_start, (unsigned long)etext);
#endif
	for (i = 0; i < n; i++) {
		job[i].iters = units / 10 / ROUNDS / n;
		job[i].sum = (unsigned long)i + 1;
		job[i].t[0] = job[i].t[1] = job[i].t[2] = 0;
		if (pthread_create(&tid[i], NULL, work, &job[i]) != 0) {
			fprintf(stderr, "burn: pthread_create failed\n");
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		sum ^= job[i].sum;
		for (k = 0; k < 3; k++)
			t[k] += job[i].t[k];
	}
#if defined(MONITOR)
	monitor(NULL, NULL, NULL, 0, 0);
#elif defined(GMON)
	_mcleanup();
#endif
	all = t[0] + t[1] + t[2];
	printf("truth %.2f %.2f %.2f cpu %.3f checksum %lx\n",
	    100 * t[0] / all, 100 * t[1] / all, 100 * t[2] / all, all, sum);
	return 0;
}
