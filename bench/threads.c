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
 * With -DFLOOR (no profiler at all) the main thread first opens the
 * events libmon's default clock opens (lib/ring.c): on every CPU a
 * task-clock sampling every 250 us with its call stack, inherited by
 * every thread made after, each event's samples into a ring of its own
 * that nobody reads.  What the kernel does for them as each thread is
 * made and ends is the floor under libmon's figure.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(FLOOR)
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
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

#if defined(FLOOR)
/* libmon's perf clock's events, with rings nobody drains. */
static void
floor_arm(void)
{
	struct perf_event_attr a;
	long cpu, ncpu;
	size_t len;
	int fd;

	len = (size_t)(1 + 16) * (size_t)sysconf(_SC_PAGESIZE);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	for (cpu = 0; cpu < ncpu; cpu++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.sample_period = 250000;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER;
		a.sample_max_stack = 64;
		a.sample_stack_user = 512;
		a.exclude_callchain_kernel = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.inherit = a.inherit_thread = a.inherit_stat = 1;
		a.remove_on_exec = 1;
		a.watermark = 1;
		a.wakeup_watermark = (uint32_t)(len - len / 17);
		fd = (int)syscall(SYS_perf_event_open, &a, 0, (int)cpu, -1,
		    PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			continue;	/* an offline CPU, or perf refused */
		if (mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0) == MAP_FAILED)
			perror("threads: mmap");
		close(fd);
	}
}
#endif

int
main(int argc, char *argv[])
{
	pthread_t t;
	unsigned long x;
	void *r;
	double t0, t1;
	long i, n;

	n = argc > 1 ? atol(argv[1]) : 20000;
#if defined(FLOOR)
	floor_arm();
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
	printf("thread %.1f us checksum %lx\n", (t1 - t0) / n * 1e6, x);
	return 0;
}
