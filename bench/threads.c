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
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <errno.h>
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
/*
 * Events as lib/ring.c opens them for its default rate, 1000 Hz: on
 * each CPU a task-clock sampling every 250 us with the user call stack
 * and 128 bytes of stack, kernel mode too where this user may have it,
 * inherited by every thread made after, its samples into a ring of 64
 * data pages.  Unlike libmon's, the rings are never read: once full,
 * the kernel counts what it cannot write instead of writing it.  0, or
 * -1 with a line on stderr where perf_event_open() is refused.
 */
static int
floor_arm(void)
{
	struct perf_event_attr a;
	const char *per;
	long cpu, ncpu;
	size_t len;
	int fd, kernel;

	len = (size_t)(1 + 64) * (size_t)sysconf(_SC_PAGESIZE);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	kernel = 1;
	per = getenv("FLOOR_PERIOD");
	for (cpu = 0; cpu < ncpu; cpu++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.sample_period = per != NULL ? strtoull(per, NULL, 10) :
		    250000;
		if (a.sample_period == 0) {
			fprintf(stderr, "threads: FLOOR_PERIOD: not a period"
			    " in ns\n");
			return -1;
		}
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER;
		a.sample_max_stack = 64;
		a.sample_stack_user = 128;
		a.exclude_callchain_kernel = 1;
		a.exclude_kernel = !kernel;
		a.exclude_hv = 1;
		a.inherit = a.inherit_thread = a.inherit_stat = 1;
		a.remove_on_exec = 1;
		a.watermark = 1;
		a.wakeup_watermark = (uint32_t)(len - len / 65);
		fd = (int)syscall(SYS_perf_event_open, &a, 0, (int)cpu, -1,
		    PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && kernel && (errno == EACCES || errno == EPERM)) {
			kernel = 0;	/* user mode alone, as libmon */
			cpu--;
			continue;
		}
		if (fd < 0 && errno == ENODEV)
			continue;	/* an offline CPU */
		if (fd < 0) {
			perror("threads: perf_event_open");
			return -1;
		}
		if (mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    0) == MAP_FAILED) {
			perror("threads: mmap of a ring");
			return -1;
		}
		close(fd);
	}
	return 0;
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
	int nofigure = 0;

	n = argc > 1 ? atol(argv[1]) : 20000;
#if defined(FLOOR)
	if (floor_arm() != 0)
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
